//! Replays (ReplayGame streams and GetHistory pages) and suggested setups (SuggestSetup).

use tonic::Code;
use trinchera_proto::v1 as pb;
use trinchera_service::Limits;

use crate::harness::{
    Player, TestServer, assert_refused, authed, gapless_history, new_game, play_random_move,
    random_setups, replay, rng, spectator_view, view_of,
};

/// A replay streams one step per event, with the same positions as the history's pages,
/// names only in its start; it resumes after a version; a finished game's replay reveals
/// everything.
#[tokio::test(flavor = "multi_thread")]
async fn a_replay_streams_every_step_with_the_names_once() {
    let server = TestServer::start_with(Limits {
        history_page: 7,
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "clasico").await;
    random_setups(&mut client, &players).await;
    let mut rng = rng(5);
    for _ in 0..30 {
        play_random_move(&mut client, &players, &mut rng).await;
    }
    let game = players[0].game.clone();
    let history = gapless_history(&mut client, &game).await;
    let (start, steps) = replay(&mut client, &game, None, None)
        .await
        .expect("replays");
    assert_eq!(start.ruleset, "clasico");
    assert_eq!(start.name, history.view.as_ref().expect("view").name);
    let names: Vec<&str> = start.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Ana", "Beto"]);
    assert!(start.reveal.is_none(), "no reveal before the end");
    let events: Vec<pb::Event> = steps.iter().filter_map(|s| s.event.clone()).collect();
    assert_eq!(events, history.events);
    let positions: Vec<pb::GameView> = steps.iter().filter_map(|s| s.position.clone()).collect();
    assert_eq!(
        positions, history.positions,
        "the stream and the pages agree"
    );
    assert!(
        positions
            .iter()
            .all(|p| p.name.is_empty() && p.players.iter().all(|player| player.name.is_empty()))
    );
    // A seat's replay shows its own pieces; a resumed one starts after the version given.
    let (_, own) = replay(&mut client, &game, Some(&players[0].token), Some(20))
        .await
        .expect("replays");
    assert_eq!(
        own.first()
            .and_then(|s| s.event.as_ref())
            .map(|e| e.version),
        Some(21)
    );
    assert_eq!(own.len(), steps.len() - 20);
    let ahead = replay(&mut client, &game, None, Some(1_000)).await;
    assert_refused(ahead.map(|_| ()), Code::InvalidArgument, "BAD_REQUEST");
    // After the end the replay reveals every setup and every piece.
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: game.clone(),
            },
            &players[1].token,
        ))
        .await
        .expect("resigns");
    let (start, steps) = replay(&mut client, &game, None, None)
        .await
        .expect("replays");
    assert_eq!(start.reveal.expect("a reveal").setups.len(), 2);
    let last = steps
        .last()
        .and_then(|s| s.position.as_ref())
        .expect("a position");
    assert!(last.pieces.iter().all(|piece| !piece.kind.is_empty()));
    server.stop().await;
}

/// One page of positions at a time, each page saying where the next starts.
#[tokio::test]
async fn history_positions_come_in_pages() {
    let server = TestServer::start_with(Limits {
        history_page: 4,
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "asalto").await;
    random_setups(&mut client, &players).await;
    let mut rng = rng(8);
    for _ in 0..5 {
        play_random_move(&mut client, &players, &mut rng).await;
    }
    let version = spectator_view(&mut client, &players[0].game).await.version;
    let mut after = 0;
    let mut pages = 0;
    loop {
        let page = client
            .get_history(pb::GetHistoryRequest {
                game_id: players[0].game.clone(),
                positions: true,
                positions_after: after,
            })
            .await
            .expect("history")
            .into_inner();
        pages += 1;
        let versions: Vec<u64> = page.positions.iter().map(|p| p.version).collect();
        let expected: Vec<u64> = (after + 1..=version).take(4).collect();
        assert_eq!(versions, expected, "page {pages}");
        match page.next_positions_after {
            Some(next) => after = next,
            None => break,
        }
    }
    assert_eq!(pages, (version as usize).div_ceil(4));
    server.stop().await;
}

/// Asks `player`'s seat for a suggestion keeping `keep`.
async fn suggest(
    client: &mut crate::harness::Client,
    player: &Player,
    keep: Vec<pb::Placement>,
) -> Result<Vec<pb::Placement>, tonic::Status> {
    Ok(client
        .suggest_setup(authed(
            pb::SuggestSetupRequest {
                game_id: player.game.clone(),
                keep,
            },
            &player.token,
        ))
        .await?
        .into_inner()
        .placements)
}

/// A suggestion is a whole valid setup that keeps what the player placed, changes nothing
/// in the game, and is for a seat that still has to set up.
#[tokio::test]
async fn a_suggested_setup_keeps_what_is_placed_and_changes_nothing() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    let [rojo, azul] = &players;
    let before = view_of(&mut client, rojo).await;
    let whole = suggest(&mut client, rojo, Vec::new())
        .await
        .expect("a suggestion");
    assert_eq!(whole.len(), 40);
    let flag = whole
        .iter()
        .find(|p| p.kind == "estandarte")
        .expect("a flag");
    assert!(flag.cell.expect("cell").y <= 1, "the flag at the back");
    let kept: Vec<pb::Placement> = whole.iter().take(5).cloned().collect();
    let around = suggest(&mut client, rojo, kept.clone())
        .await
        .expect("a suggestion");
    assert!(kept.iter().all(|piece| around.contains(piece)));
    assert_eq!(view_of(&mut client, rojo).await, before, "nothing changed");
    // Pieces that do not fit are refused in words; a spectator gets nothing.
    let outside = pb::Placement {
        cell: Some(pb::Cell { x: 0, y: 9 }),
        kind: "estandarte".into(),
    };
    let refused = suggest(&mut client, rojo, vec![outside]).await;
    assert_refused(refused, Code::InvalidArgument, "BAD_SETUP");
    let spectator = client
        .suggest_setup(pb::SuggestSetupRequest {
            game_id: rojo.game.clone(),
            keep: Vec::new(),
        })
        .await;
    assert_refused(spectator, Code::Unauthenticated, "BAD_TOKEN");
    // The suggestion is accepted as it is.
    client
        .submit_setup(authed(
            pb::SubmitSetupRequest {
                game_id: rojo.game.clone(),
                placements: around,
                random: false,
            },
            &rojo.token,
        ))
        .await
        .expect("accepted");
    let done = suggest(&mut client, rojo, Vec::new()).await;
    assert_refused(done, Code::FailedPrecondition, "WRONG_PHASE");
    suggest(&mut client, azul, Vec::new())
        .await
        .expect("the other seat still sets up");
    let tanks = new_game(&mut client, "tanques").await;
    let none = suggest(&mut client, &tanks[0], Vec::new()).await;
    assert_refused(none, Code::FailedPrecondition, "WRONG_PHASE");
    server.stop().await;
}
