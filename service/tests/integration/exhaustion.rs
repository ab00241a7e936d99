//! Resource exhaustion by one anonymous client: lookups of games that do not exist, floods
//! of creations and actions, games left waiting, huge error messages and names that hide
//! or reverse text. Each test performs the attack in bounded form and checks that another
//! client is still served.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use tokio_stream::StreamExt;
use tonic::Code;
use tonic_types::StatusExt;
use trinchera_proto::v1 as pb;
use trinchera_service::Limits;
use trinchera_service::games::throttle::{RateLimit, RateLimits};

use crate::harness::{
    ChildServer, Client, TestServer, assert_refused, authed, connect, connect_from, new_game,
    play_quiet_move, random_setups, rng, scaled,
};

/// A second client address on the loopback network.
const OTHER_PEER: [u8; 4] = [127, 0, 0, 2];

fn nz(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).expect("non-zero")
}

/// Creates a game of frente in seat 0 and returns its id.
async fn create(client: &mut Client) -> Result<String, tonic::Status> {
    Ok(client
        .create_game(pb::CreateGameRequest {
            ruleset: "frente".into(),
            ..Default::default()
        })
        .await?
        .into_inner()
        .game_id)
}

#[tokio::test]
async fn lookups_of_missing_games_cost_no_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::start(dir.path()).await;
    let mut client = connect(server.addr).await;
    let [player, _] = new_game(&mut client, "frente").await;
    let lookups = scaled(20_000, 200_000);
    // Warm up allocator pools and the connection before measuring.
    for id in 0..500u64 {
        let _ = client
            .get_view(pb::GetViewRequest {
                game_id: (1_000_000 + id).to_string(),
            })
            .await;
    }
    let before = server.rss_kib();
    for id in 0..lookups as u64 {
        let game_id = (2_000_000 + id).to_string();
        let status = if id % 2 == 0 {
            client
                .get_view(pb::GetViewRequest { game_id })
                .await
                .expect_err("no such game")
        } else {
            client
                .watch_game(pb::WatchGameRequest {
                    game_id,
                    after_version: None,
                })
                .await
                .expect_err("no such game")
        };
        assert_eq!(status.code(), Code::NotFound, "{status:?}");
    }
    let after = server.rss_kib();
    assert!(
        after < before + 4 * 1024,
        "{lookups} missing ids grew the server from {before} KiB to {after} KiB"
    );
    // Not-quite ids are no games either, at once.
    for text in ["0", "007", "+2", " 1", "1 "] {
        let status = client
            .get_view(pb::GetViewRequest {
                game_id: text.into(),
            })
            .await
            .expect_err("no such game");
        assert_eq!(status.code(), Code::NotFound, "{text:?}");
    }
    let view = client
        .get_view(authed(
            pb::GetViewRequest {
                game_id: player.game.clone(),
            },
            &player.token,
        ))
        .await
        .expect("the real game is still served");
    assert!(view.into_inner().view.is_some());
    server.kill().await;
}

#[tokio::test]
async fn a_creation_flood_is_rate_limited_per_address_with_retry_info() {
    let server = TestServer::start_with(Limits {
        rates: RateLimits {
            create_join: Some(RateLimit::per_minute(nz(60), nz(20))),
            ..RateLimits::OFF
        },
        ..Limits::for_tests()
    })
    .await;
    let mut flooder = server.client().await;
    let mut created = 0;
    let refusal = loop {
        match create(&mut flooder).await {
            Ok(_) => created += 1,
            Err(status) => break status,
        }
        assert!(created <= 40, "the flood was never refused");
    };
    assert!((20..=22).contains(&created), "burst of 20, got {created}");
    assert_eq!(refusal.code(), Code::ResourceExhausted, "{refusal:?}");
    assert!(
        refusal.message().contains("--create-join-per-minute"),
        "{}",
        refusal.message()
    );
    let retry = refusal.get_details_retry_info().expect("RetryInfo");
    assert!(retry.retry_delay.is_some_and(|d| d > Duration::ZERO));
    let info = refusal.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.reason, "RATE_LIMITED");
    // Another address is served meanwhile.
    let mut other = connect_from(server.addr, IpAddr::from(OTHER_PEER)).await;
    create(&mut other).await.expect("another address creates");
    server.stop().await;
}

#[tokio::test]
async fn an_action_flood_is_rate_limited_per_token() {
    let server = TestServer::start_with(Limits {
        rates: RateLimits {
            acting: Some(RateLimit::per_second(nz(1), nz(5))),
            ..RateLimits::OFF
        },
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "asalto").await;
    random_setups(&mut client, &players).await;
    let officers = &players[1];
    // Moves out of turn are refused by the rules, but they still spend the token's budget.
    let mut refused = None;
    for _ in 0..10 {
        let status = client
            .resign(authed(
                pb::ResignRequest {
                    game_id: officers.game.clone(),
                },
                "not-a-token",
            ))
            .await
            .expect_err("bad token");
        assert_eq!(
            status.code(),
            Code::Unauthenticated,
            "bad tokens spend nothing"
        );
        let made = client
            .make_move(authed(
                pb::MakeMoveRequest {
                    game_id: officers.game.clone(),
                    action: Some(pb::make_move_request::Action::Notation("a1-a2".into())),
                    expected_version: None,
                },
                &officers.token,
            ))
            .await;
        if let Err(status) = made
            && status.code() == Code::ResourceExhausted
        {
            refused = Some(status);
            break;
        }
    }
    let refused = refused.expect("the flood was refused");
    assert!(refused.get_details_retry_info().is_some(), "{refused:?}");
    assert!(refused.message().contains("player token"), "{refused:?}");
    // The other seat's token still acts.
    play_quiet_move(&mut client, &players, &mut rng(3))
        .await
        .expect("the rebels move");
    server.stop().await;
}

#[tokio::test]
async fn games_left_waiting_are_called_off_and_free_the_open_games_cap() {
    let server = TestServer::start_with(Limits {
        max_open_games: 2,
        waiting_expiry: Duration::from_millis(400),
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    let first = create(&mut client).await.expect("room");
    let mut watch = client
        .watch_game(pb::WatchGameRequest {
            game_id: first.clone(),
            after_version: None,
        })
        .await
        .expect("watches")
        .into_inner();
    create(&mut client).await.expect("room");
    assert_refused(
        create(&mut client).await,
        Code::ResourceExhausted,
        "LIMIT_EXCEEDED",
    );
    let snapshot = watch.next().await.expect("snapshot").expect("ok");
    assert!(snapshot.snapshot);
    let aborted = tokio::time::timeout(Duration::from_secs(10), watch.next())
        .await
        .expect("the game is called off in time")
        .expect("an event")
        .expect("ok");
    let event = aborted.event.expect("event");
    assert_eq!(event.r#type, pb::EventType::Aborted as i32);
    assert_eq!(event.seat, Some(1), "it waited for seat 1");
    let view = aborted.view.expect("view");
    assert_eq!(view.phase, pb::Phase::Finished as i32);
    let result = view.result.expect("result");
    assert_eq!((result.winner, result.draw), (None, false));
    assert_eq!(result.reason, "ABORTED");
    // Both waiting games expired: the cap has room again.
    tokio::time::sleep(Duration::from_millis(600)).await;
    create(&mut client).await.expect("the cap has room again");
    let finished = client
        .list_games(pb::ListGamesRequest {
            phase: pb::Phase::Finished as i32,
            ..Default::default()
        })
        .await
        .expect("lists")
        .into_inner();
    assert_eq!(finished.games.len(), 2);
    assert!(finished.games.iter().all(|game| {
        game.result
            .as_ref()
            .is_some_and(|r| r.reason == "ABORTED" && !r.draw)
    }));
    server.stop().await;
}

#[tokio::test]
async fn a_game_whose_setups_never_come_expires_also_after_a_restart() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().to_owned();
    let server = TestServer::start_in(&dir, None, Limits::for_tests()).await;
    let mut client = server.client().await;
    let [player, _] = new_game(&mut client, "clasico").await;
    server.stop().await;
    let server = TestServer::start_in(
        &dir,
        Some(temp),
        Limits {
            setup_expiry: Duration::from_millis(300),
            ..Limits::for_tests()
        },
    )
    .await;
    let mut client = server.client().await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let view = loop {
        let view = client
            .get_view(pb::GetViewRequest {
                game_id: player.game.clone(),
            })
            .await
            .expect("view")
            .into_inner()
            .view
            .expect("view");
        if view.phase == pb::Phase::Finished as i32 {
            break view;
        }
        assert!(tokio::time::Instant::now() < deadline, "never called off");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(view.result.expect("result").reason, "ABORTED");
    let refused = client
        .submit_setup(authed(
            pb::SubmitSetupRequest {
                game_id: player.game.clone(),
                random: true,
                ..Default::default()
            },
            &player.token,
        ))
        .await;
    assert_refused(refused, Code::FailedPrecondition, "GAME_OVER");
    server.stop().await;
}

#[tokio::test]
async fn open_games_are_capped_per_address() {
    let server = TestServer::start_with(Limits {
        max_open_games_per_peer: 3,
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(create(&mut client).await.expect("room"));
    }
    let refused = create(&mut client).await;
    let status = refused.as_ref().expect_err("capped");
    assert!(
        status.message().contains("--max-open-games-per-peer"),
        "{status:?}"
    );
    assert_refused(refused, Code::ResourceExhausted, "LIMIT_EXCEEDED");
    let mut other = connect_from(server.addr, IpAddr::from(OTHER_PEER)).await;
    create(&mut other).await.expect("another address creates");
    server.stop().await;
}

#[tokio::test]
async fn filtered_listings_find_rare_games_among_many() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut playing = Vec::new();
    for _ in 0..30 {
        let players = new_game(&mut client, "frente").await;
        playing.push(players[0].game.clone());
    }
    let waiting = create(&mut client).await.expect("created");
    for _ in 0..30 {
        new_game(&mut client, "asalto").await;
    }
    let list = |phase: pb::Phase, ruleset: &str, page_token: String| pb::ListGamesRequest {
        phase: phase as i32,
        ruleset: ruleset.into(),
        page_size: 7,
        page_token,
        ..Default::default()
    };
    let page = client
        .list_games(list(pb::Phase::Waiting, "", String::new()))
        .await
        .expect("lists")
        .into_inner();
    let ids: Vec<&str> = page.games.iter().map(|g| g.game_id.as_str()).collect();
    assert_eq!(ids, [waiting.as_str()]);
    assert!(page.next_page_token.is_empty());
    let mut seen = Vec::new();
    let mut token = String::new();
    loop {
        let page = client
            .list_games(list(pb::Phase::Setup, "frente", token))
            .await
            .expect("lists")
            .into_inner();
        assert!(page.games.iter().all(|g| g.ruleset == "frente"));
        seen.extend(page.games.into_iter().map(|g| g.game_id));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    playing.reverse();
    assert_eq!(
        seen, playing,
        "every frente game in setup, newest first, once"
    );
    server.stop().await;
}

#[tokio::test]
async fn error_messages_are_capped_and_echo_input_shortened() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    let placements = (0..2_500)
        .map(|i| pb::Placement {
            cell: Some(pb::Cell {
                x: i % 10,
                y: (i / 10) % 4,
            }),
            kind: "q".into(),
        })
        .collect();
    let status = client
        .submit_setup(authed(
            pb::SubmitSetupRequest {
                game_id: players[0].game.clone(),
                placements,
                random: false,
            },
            &players[0].token,
        ))
        .await
        .expect_err("a setup with thousands of problems");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().len() <= 2048, "{}", status.message().len());
    assert!(status.message().contains(" more"), "{}", status.message());
    let huge = "x".repeat(60_000);
    let status = client
        .create_game(pb::CreateGameRequest {
            ruleset: huge,
            ..Default::default()
        })
        .await
        .expect_err("no such ruleset");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().len() < 300, "{}", status.message());
    random_setups(&mut client, &players).await;
    server.stop().await;
}

#[tokio::test]
async fn names_with_invisible_or_reversing_characters_or_bot_names_are_refused() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    for name in [
        "Ana\u{202E}olleh",
        "\u{2066}Ana",
        "A\u{200B}na",
        "Ana\u{E0041}",
        "Ana\u{2028}Beto",
        "Bot (random)",
    ] {
        let status = client
            .create_game(pb::CreateGameRequest {
                ruleset: "frente".into(),
                player_name: name.into(),
                ..Default::default()
            })
            .await
            .expect_err("refused");
        assert_eq!(status.code(), Code::InvalidArgument, "{name:?}");
        let created = create(&mut client).await.expect("created");
        let joined = client
            .join_game(pb::JoinGameRequest {
                game_id: created,
                player_name: name.into(),
            })
            .await;
        assert_refused(joined, Code::InvalidArgument, "BAD_NAME");
    }
    let created = client
        .create_game(pb::CreateGameRequest {
            ruleset: "frente".into(),
            player_name: "Jose\u{301}".into(),
            name: "Partida de José".into(),
            ..Default::default()
        })
        .await
        .expect("a plain accented name")
        .into_inner();
    let view = created.view.expect("view");
    assert_eq!(view.players[0].name, "José", "stored in NFC");
    server.stop().await;
}
