//! Resource exhaustion by one anonymous client: lookups of games that do not exist, floods
//! of creations, actions and sign-ins, games left waiting, huge error messages and names
//! that hide or reverse text. Each test performs the attack in bounded form and checks that another
//! client is still served.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use tokio_stream::StreamExt;
use tonic::Code;
use tonic_types::StatusExt;
use trinchera_proto::v1 as pb;
use trinchera_service::{BotPace, Limits, RateLimit, RateLimits};

use crate::harness::{
    ChildServer, Client, PASSWORD, TestServer, account_client, assert_refused, authed, connect,
    connect_from, eventually, finished_games, new_game, play_quiet_move, random_setups, register,
    rng, scaled, within,
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
                    ..Default::default()
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
                    ..Default::default()
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
            ..Default::default()
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
    let aborted = within("the waiting game is called off", watch.next())
        .await
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
    // Both waiting games expire: the cap has room again.
    let finished = eventually("both waiting games are called off", async || {
        let finished = finished_games(&mut client).await;
        (finished.games.len() == 2).then_some(finished)
    })
    .await;
    create(&mut client).await.expect("the cap has room again");
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
    let view = eventually("the game is called off", async || {
        let view = client
            .get_view(pb::GetViewRequest {
                game_id: player.game.clone(),
            })
            .await
            .expect("view")
            .into_inner()
            .view
            .expect("view");
        (view.phase == pb::Phase::Finished as i32).then_some(view)
    })
    .await;
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
async fn heavy_names_and_names_that_hide_text_or_pose_as_bots_are_refused() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    // One character that carries 40 KB (a letter and 20,000 accents), and a bot's name in
    // full-width letters.
    let heavy = format!("a{}", "\u{301}".repeat(20_000));
    for name in [
        "Ana\u{202E}olleh",
        "\u{2066}Ana",
        "A\u{200B}na",
        "Ana\u{E0041}",
        "Ana\u{2028}Beto",
        "Bot (random)",
        "ＢＯＴ (hard)",
        &heavy,
        &"漢".repeat(22),
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
        // Twice as long, as game names may be (the heavy one is heavy enough).
        let doubled = if name.len() > 1024 {
            name.to_owned()
        } else {
            name.repeat(2)
        };
        let game_name = client
            .create_game(pb::CreateGameRequest {
                ruleset: "frente".into(),
                name: doubled,
                ..Default::default()
            })
            .await;
        assert_refused(game_name, Code::InvalidArgument, "BAD_NAME");
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

/// Plays random moves (quiet ones when there are) in a new frente game of `client` until it
/// ends or has `events` events; returns its players.
async fn long_game(client: &mut Client, events: u64) -> [crate::harness::Player; 2] {
    let players = new_game(client, "frente").await;
    random_setups(client, &players).await;
    let mut rng = rng(22);
    loop {
        let Some(made) = play_quiet_move(client, &players, &mut rng).await else {
            break;
        };
        if made.view.is_some_and(|view| view.version >= events) {
            break;
        }
    }
    players
}

/// Sends `path` with the gRPC-framed `message` on a raw HTTP/2 connection and waits only for
/// the response headers: the body is never read, so the stream's flow-control window is
/// never given back. Returns the `grpc-status` of a refusal, `None` for an accepted call.
async fn stalled_call(
    h2: &mut h2::client::SendRequest<bytes::Bytes>,
    addr: std::net::SocketAddr,
    path: &str,
    message: &impl prost::Message,
) -> (Option<String>, h2::RecvStream) {
    let request = http::Request::builder()
        .method("POST")
        .uri(format!("http://{addr}{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .expect("request");
    let mut ready = h2.clone().ready().await.expect("ready");
    *h2 = ready.clone();
    let (response, mut body) = ready.send_request(request, false).expect("sent");
    let encoded = message.encode_to_vec();
    let mut framed = vec![0];
    framed.extend((encoded.len() as u32).to_be_bytes());
    framed.extend(encoded);
    body.send_data(framed.into(), true).expect("sends");
    let response = response.await.expect("a response");
    let status = response
        .headers()
        .get("grpc-status")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    (status, response.into_body())
}

/// The attack: a client asks for the replay of a long game again and again on two
/// connections and never reads the answers. Replays run a few at a time per address (the
/// rest are refused at once, naming the limit), each holds one page in flight, so the
/// server's memory barely moves; another address is served meanwhile.
#[tokio::test(flavor = "multi_thread")]
async fn stalled_replays_hold_little_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::start(dir.path()).await;
    let mut client = connect(server.addr).await;
    let long = long_game(&mut client, scaled(1_500, 8_000) as u64).await;
    let game = long[0].game.clone();
    // Warm up: one whole replay and one history, read to the end.
    crate::harness::replay(&mut client, &game, None, None)
        .await
        .expect("replays");
    crate::harness::gapless_history(&mut client, &game).await;
    let before = server.rss_kib();
    let calls = scaled(150, 600);
    let mut stalled = Vec::new();
    let mut connections = Vec::new();
    let mut refused = 0;
    for _ in 0..2 {
        let tcp = tokio::net::TcpStream::connect(server.addr)
            .await
            .expect("connects");
        let (mut h2, connection) = h2::client::handshake(tcp).await.expect("handshake");
        connections.push(tokio::spawn(async move {
            let _ = connection.await;
        }));
        for call in 0..calls {
            let (status, body) = if call % 2 == 0 {
                let request = pb::ReplayGameRequest {
                    game_id: game.clone(),
                    after_version: None,
                };
                let path = "/trinchera.v1.GameService/ReplayGame";
                stalled_call(&mut h2, server.addr, path, &request).await
            } else {
                let request = pb::GetHistoryRequest {
                    game_id: game.clone(),
                    positions: true,
                    positions_after: 0,
                };
                let path = "/trinchera.v1.GameService/GetHistory";
                stalled_call(&mut h2, server.addr, path, &request).await
            };
            match status.as_deref() {
                None | Some("0") => {}
                Some("8") => refused += 1,
                Some(other) => panic!("a stalled replay answered grpc-status {other}"),
            }
            stalled.push(body);
        }
    }
    let admitted = 2 * calls - refused;
    assert!(
        admitted <= Limits::default().max_replays_per_peer,
        "{admitted} replays ran at once for one address"
    );
    // Give the server time to build whatever it would build: what is measured is that
    // nothing grows meanwhile, so there is no event to wait for.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = server.rss_kib();
    assert!(
        after < before + 32 * 1024,
        "{} stalled replays grew the server from {before} KiB to {after} KiB",
        2 * calls
    );
    // Another address plays and replays meanwhile.
    let mut other = connect_from(server.addr, IpAddr::from(OTHER_PEER)).await;
    let players = new_game(&mut other, "asalto").await;
    random_setups(&mut other, &players).await;
    play_quiet_move(&mut other, &players, &mut rng(1))
        .await
        .expect("a move");
    crate::harness::replay(&mut other, &game, None, None)
        .await
        .expect("another address replays");
    // The stalled calls end with their connections, and their places come back.
    for connection in connections {
        connection.abort();
    }
    drop(stalled);
    eventually(
        "the replay places are given back",
        async || match crate::harness::replay(&mut client, &game, None, Some(1)).await {
            Ok(replayed) => Some(replayed),
            Err(status) if status.code() == Code::ResourceExhausted => None,
            Err(status) => panic!("{status:?}"),
        },
    )
    .await;
    server.kill().await;
}

/// The attack, bounded: one address takes every replay place it may with replays it never
/// reads, and keeps the connection open. After the idle limit the places are taken back,
/// so that the address (and everybody else) replays again while the stalled streams stay.
#[tokio::test(flavor = "multi_thread")]
async fn replays_that_stand_unread_give_their_places_back() {
    let server = TestServer::start_with(Limits {
        replay_idle: Duration::from_secs(1),
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    let game = long_game(&mut client, 300).await[0].game.clone();
    let tcp = tokio::net::TcpStream::connect(server.addr)
        .await
        .expect("connects");
    let (mut h2, connection) = h2::client::handshake(tcp).await.expect("handshake");
    let connection = tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut stalled = Vec::new();
    for _ in 0..Limits::default().max_replays_per_peer {
        let request = pb::ReplayGameRequest {
            game_id: game.clone(),
            after_version: None,
        };
        let path = "/trinchera.v1.GameService/ReplayGame";
        let (status, body) = stalled_call(&mut h2, server.addr, path, &request).await;
        assert_eq!(status, None, "admitted");
        stalled.push(body);
    }
    let refused = crate::harness::replay(&mut client, &game, None, None)
        .await
        .expect_err("every place of the address is held");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    eventually(
        "the places of the unread replays are taken back",
        async || match crate::harness::replay(&mut client, &game, None, None).await {
            Ok(replayed) => Some(replayed),
            Err(status) if status.code() == Code::ResourceExhausted => None,
            Err(status) => panic!("{status:?}"),
        },
    )
    .await;
    drop(stalled);
    connection.abort();
    server.stop().await;
}

/// A game between two bots of `level` in `ruleset`, created by `client`.
async fn exhibition(client: &mut Client, level: &str) -> Result<String, tonic::Status> {
    Ok(client
        .create_game(pb::CreateGameRequest {
            ruleset: "frente".into(),
            bot: level.into(),
            creator_bot: level.into(),
            ..Default::default()
        })
        .await?
        .into_inner()
        .game_id)
}

/// The attack: many games between two hard bots at once. The server's bots think for a game
/// with a person first, so a person's bot on a short clock keeps its time; one exhibition
/// over the server's limit is refused, naming it.
#[tokio::test(flavor = "multi_thread")]
async fn bot_exhibitions_never_make_a_persons_bot_lose_on_time() {
    let exhibitions = scaled(40, 200);
    let server = TestServer::start_with(Limits {
        max_exhibitions: exhibitions,
        max_exhibitions_per_peer: exhibitions,
        bots: BotPace {
            think: Duration::from_millis(50),
            min_delay: Duration::ZERO,
            threads: 1,
            ..BotPace::default()
        },
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    for _ in 0..exhibitions {
        exhibition(&mut client, "hard").await.expect("room");
    }
    let refused = exhibition(&mut client, "hard").await;
    let message = refused.as_ref().map_err(|s| s.message().to_owned()).err();
    assert_refused(refused, Code::ResourceExhausted, "LIMIT_EXCEEDED");
    let message = message.unwrap_or_default();
    assert!(message.contains("(--max-exhibitions)"), "{message}");
    // A person against the hard bot, 15 seconds each: in line behind every exhibition's
    // bots (50 ms each), the bot would lose on time within a few moves.
    let created = client
        .create_game(pb::CreateGameRequest {
            ruleset: "frente".into(),
            bot: "hard".into(),
            time_control: Some(pb::TimeControl {
                control: Some(pb::time_control::Control::Live(pb::LiveControl {
                    initial_seconds: 15,
                    increment_seconds: 0,
                })),
            }),
            ..Default::default()
        })
        .await
        .expect("created")
        .into_inner();
    let person = crate::harness::Player {
        game: created.game_id.clone(),
        seat: 0,
        token: created.player_token,
    };
    let mut stream = client
        .watch_game(authed(
            pb::WatchGameRequest {
                game_id: person.game.clone(),
                after_version: None,
                ..Default::default()
            },
            &person.token,
        ))
        .await
        .expect("watches")
        .into_inner();
    client
        .submit_setup(authed(
            pb::SubmitSetupRequest {
                game_id: person.game.clone(),
                random: true,
                ..Default::default()
            },
            &person.token,
        ))
        .await
        .expect("setup");
    let mut bot_moves = 0;
    let mut last = None;
    // When the person's last move was acknowledged, and the longest the bot took after it.
    let mut asked = None;
    let mut slowest = Duration::ZERO;
    while bot_moves < scaled(12, 30) {
        let message = stream
            .message()
            .await
            .expect("stream")
            .expect("the stream lasts until the end");
        let view = message.view.expect("view");
        if message
            .event
            .is_some_and(|e| e.r#type == pb::EventType::Move as i32 && e.seat == Some(1))
        {
            bot_moves += 1;
            if let Some(asked) = asked.take() {
                slowest = slowest.max(Instant::now().duration_since(asked));
            }
        }
        let over = view.phase == pb::Phase::Finished as i32;
        if !over && view.to_move == Some(0) && view.phase == pb::Phase::Playing as i32 {
            let first = view.legal_moves.first().expect("a legal move");
            client
                .make_move(authed(
                    pb::MakeMoveRequest {
                        game_id: person.game.clone(),
                        action: Some(pb::make_move_request::Action::Notation(
                            first.notation.clone(),
                        )),
                        expected_version: Some(view.version),
                        ..Default::default()
                    },
                    &person.token,
                ))
                .await
                .expect("the person's move");
            asked = Some(Instant::now());
        }
        last = Some(view);
        if over {
            break;
        }
    }
    let last = last.expect("a view");
    let result = last.result.map(|r| r.reason).unwrap_or_default();
    assert_ne!(result, "TIME_FORFEIT", "after {bot_moves} bot moves");
    let clock = last.clock.expect("a clock");
    assert!(clock.remaining_ms[1] > 0, "the bot kept time: {clock:?}");
    // Its wait in line and its thinking each take a twentieth of its time left at most
    // (0.75 s of 15 s): a bound of what the bot may spend, not a speed to reach.
    assert!(
        slowest < Duration::from_secs(3),
        "the bot answered after {slowest:?} at its slowest"
    );
    server.stop().await;
}

/// Exhibitions are capped per address: the fifth from one address is refused, naming the
/// limit; another address still creates one.
#[tokio::test]
async fn exhibitions_are_capped_per_address() {
    let server = TestServer::start_with(Limits {
        bots: BotPace {
            min_delay: Duration::from_secs(10),
            ..Limits::for_tests().bots
        },
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    for _ in 0..Limits::default().max_exhibitions_per_peer {
        exhibition(&mut client, "random").await.expect("room");
    }
    let refused = exhibition(&mut client, "random")
        .await
        .expect_err("over the limit");
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert!(
        refused.message().contains("--max-exhibitions-per-peer"),
        "{}",
        refused.message()
    );
    let mut other = connect_from(server.addr, IpAddr::from(OTHER_PEER)).await;
    exhibition(&mut other, "random")
        .await
        .expect("another address");
    create(&mut client).await.expect("a game with a person");
    server.stop().await;
}

/// A flood of sign-ins with wrong passwords (rate limits off, so that every one is hashed)
/// while a game is played: every sign-in gets its answer, every move is made, and the
/// account's owner signs in afterwards. How long the moves take meanwhile is measured by
/// `trinchera bench --login-flood` (docs/benchmarks), not here.
#[tokio::test(flavor = "multi_thread")]
async fn a_flood_of_wrong_sign_ins_leaves_the_games_playing() {
    let server = TestServer::start().await;
    let mut accounts = account_client(server.addr).await;
    register(&mut accounts, "Ana").await;
    let flood: Vec<_> = (0..scaled(20, 200))
        .map(|caller| {
            let mut accounts = accounts.clone();
            tokio::spawn(async move {
                let name = if caller % 2 == 0 {
                    "Ana".into()
                } else {
                    format!("nadie{caller}")
                };
                accounts
                    .login(pb::LoginRequest {
                        name,
                        password: "wrong horse".into(),
                        label: String::new(),
                    })
                    .await
            })
        })
        .collect();
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    random_setups(&mut client, &players).await;
    let mut rng = rng(3);
    for _ in 0..scaled(20, 60) {
        play_quiet_move(&mut client, &players, &mut rng).await;
    }
    for answer in flood {
        let answer = answer.await.expect("joined");
        assert_refused(answer, Code::Unauthenticated, "BAD_CREDENTIALS");
    }
    accounts
        .login(pb::LoginRequest {
            name: "ana".into(),
            password: PASSWORD.into(),
            label: String::new(),
        })
        .await
        .expect("the owner signs in");
}
