//! Time controls on a real server with the system clock: a short live control runs out and
//! every watcher learns it at once; clocks in views and listings.

use tokio_stream::StreamExt;
use trinchera_proto::v1 as pb;

use crate::harness::{Client, Player, TestServer, authed, try_new_game_with, view_of, within};

/// Creates a tanques game (no setups) with `control` and joins it.
pub async fn timed_game(client: &mut Client, control: pb::TimeControl) -> [Player; 2] {
    let request = pb::CreateGameRequest {
        ruleset: "tanques".into(),
        time_control: Some(control),
        ..Default::default()
    };
    try_new_game_with(client, request)
        .await
        .expect("created and joined")
}

/// A live time control.
pub fn live(initial_seconds: u32, increment_seconds: u32) -> pb::TimeControl {
    pb::TimeControl {
        control: Some(pb::time_control::Control::Live(pb::LiveControl {
            initial_seconds,
            increment_seconds,
        })),
    }
}

/// Plays `player`'s whole turn with its first legal actions; returns the view after it.
pub async fn play_turn(client: &mut Client, player: &Player) -> pb::GameView {
    loop {
        let view = view_of(client, player).await;
        let Some(first) = view.legal_moves.first() else {
            return view;
        };
        let made = client
            .make_move(authed(
                pb::MakeMoveRequest {
                    game_id: player.game.clone(),
                    action: Some(pb::make_move_request::Action::Notation(
                        first.notation.clone(),
                    )),
                    expected_version: None,
                    ..Default::default()
                },
                &player.token,
            ))
            .await
            .expect("move")
            .into_inner();
        let after = made.view.expect("view");
        if after.to_move != Some(player.seat) {
            return after;
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_clock_that_runs_out_ends_the_game_for_every_watcher() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let players = timed_game(&mut client, live(2, 0)).await;
    let [rojo, azul] = &players;
    // First turns run on no clock; then Rojo's 2 seconds run.
    play_turn(&mut client, rojo).await;
    let view = play_turn(&mut client, azul).await;
    let clock = view.clock.expect("a clock");
    assert_eq!(clock.running, Some(0), "{clock:?}");
    assert_eq!(clock.lapse, pb::Lapse::TimeForfeit as i32);
    assert!(clock.deadline_ms.is_some_and(|d| d > clock.server_time_ms));
    assert!(clock.remaining_ms.iter().all(|&ms| ms <= 2_000));
    let mut watchers = Vec::new();
    for token in [None, Some(azul.token.as_str())] {
        let request = pb::WatchGameRequest {
            game_id: rojo.game.clone(),
            after_version: Some(view.version),
            ..Default::default()
        };
        let request = match token {
            Some(token) => authed(request, token),
            None => tonic::Request::new(request),
        };
        watchers.push(
            client
                .watch_game(request)
                .await
                .expect("watches")
                .into_inner(),
        );
    }
    for mut watcher in watchers {
        let message = within("the flag falls", watcher.next())
            .await
            .expect("a message")
            .expect("ok");
        let event = message.event.expect("an event");
        assert_eq!(event.r#type, pb::EventType::TimeForfeit as i32);
        assert_eq!(event.seat, Some(0));
        let view = message.view.expect("view");
        let result = view.result.expect("over");
        assert_eq!(
            (result.winner, result.reason.as_str()),
            (Some(1), "TIME_FORFEIT")
        );
        let clock = view.clock.expect("a clock");
        assert_eq!(
            clock.remaining_ms[0], 0,
            "the fallen flag shows no time: {clock:?}"
        );
        assert!(clock.remaining_ms[1] > 0, "the winner kept time: {clock:?}");
        assert_eq!(clock.running, None);
    }
    // Read back from the log after the end: the same figures.
    let after = view_of(&mut client, azul).await;
    assert_eq!(after.clock.expect("a clock").remaining_ms[0], 0);
    let listed = client
        .list_games(pb::ListGamesRequest {
            speed: pb::Speed::Bullet as i32,
            ..Default::default()
        })
        .await
        .expect("lists")
        .into_inner();
    assert_eq!(listed.games.len(), 1);
    assert_eq!(listed.games[0].speed, pb::Speed::Bullet as i32);
    assert!(listed.games[0].time_control.is_some());
    let untimed = client
        .list_games(pb::ListGamesRequest {
            speed: pb::Speed::Untimed as i32,
            ..Default::default()
        })
        .await
        .expect("lists")
        .into_inner();
    assert!(untimed.games.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn bad_time_controls_are_refused() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    for control in [
        live(0, 0),
        live(100_000, 0),
        live(60, 1_000),
        pb::TimeControl {
            control: Some(pb::time_control::Control::Correspondence(
                pb::CorrespondenceControl { days_per_move: 0 },
            )),
        },
    ] {
        let refused = client
            .create_game(pb::CreateGameRequest {
                ruleset: "frente".into(),
                time_control: Some(control),
                ..Default::default()
            })
            .await;
        crate::harness::assert_refused(refused, tonic::Code::InvalidArgument, "BAD_REQUEST");
    }
    let claim = client
        .claim_victory(pb::ClaimVictoryRequest {
            game_id: "1".into(),
        })
        .await
        .expect_err("no game 1 and no token");
    assert_eq!(claim.code(), tonic::Code::NotFound);
    server.stop().await;
}
