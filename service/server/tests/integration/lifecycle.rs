//! Whole games of every hosted ruleset, listings, descriptions, health and reflection.

use std::collections::BTreeMap;

use tokio_stream::StreamExt;
use trinchera_proto::v1 as pb;

use crate::harness::{
    TestServer, authed, new_game, play_random_move, random_setups, replay, rng, spectator_view,
    view_of, within,
};
use crate::leaks::assert_no_leaks;

#[tokio::test(flavor = "multi_thread")]
async fn every_ruleset_plays_to_a_result_without_leaks() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let rulesets = client
        .list_rulesets(pb::ListRulesetsRequest {})
        .await
        .expect("rulesets")
        .into_inner()
        .rulesets;
    assert!(rulesets.len() >= 3);
    for (index, ruleset) in rulesets.iter().enumerate() {
        let players = new_game(&mut client, &ruleset.id).await;
        random_setups(&mut client, &players).await;
        let mut rng = rng(index as u64);
        let mut moves = 0;
        while let Some(response) = play_random_move(&mut client, &players, &mut rng).await {
            moves += 1;
            let event = response.event.expect("event");
            assert_eq!(event.r#type, pb::EventType::Move as i32);
            assert!(!event.notation.is_empty());
            if moves % 7 == 1 {
                assert_no_leaks(&mut client, &players).await;
            }
            assert!(moves < 20_000, "{} did not end", ruleset.id);
        }
        let end = spectator_view(&mut client, &players[0].game).await;
        assert_eq!(end.phase, pb::Phase::Finished as i32, "{}", ruleset.id);
        let result = end.result.expect("a result");
        assert!(!result.reason.is_empty());
        assert_eq!(result.draw, result.winner.is_none());
        // After the end everything is public.
        assert!(
            end.pieces
                .iter()
                .chain(&end.captured)
                .all(|p| !p.kind.is_empty())
        );
        assert!(end.legal_moves.is_empty());
        let (start, steps) = replay(&mut client, &players[0].game, None, None)
            .await
            .expect("replays");
        assert_eq!(steps.len() as u64, end.version);
        assert!(start.reveal.is_some());
        // A replay of a finished game shows every kind at every step, ending on the end.
        let positions: Vec<&pb::GameView> =
            steps.iter().filter_map(|s| s.position.as_ref()).collect();
        let events: Vec<&pb::Event> = steps.iter().filter_map(|s| s.event.as_ref()).collect();
        assert_eq!(positions.len(), events.len());
        for (position, event) in positions.iter().zip(&events) {
            assert_eq!(position.version, event.version);
            assert!(position.legal_moves.is_empty());
            let kinds_known = position.phase != pb::Phase::Setup as i32
                && position.phase != pb::Phase::Waiting as i32;
            assert!(
                !kinds_known
                    || position
                        .pieces
                        .iter()
                        .chain(&position.captured)
                        .all(|p| !p.kind.is_empty()),
                "{} version {}",
                ruleset.id,
                position.version
            );
        }
        let last = positions.last().expect("positions");
        assert_eq!(last.pieces, end.pieces, "{}", ruleset.id);
        assert_eq!(last.captured, end.captured, "{}", ruleset.id);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn rulesets_describe_boards_kinds_and_zones() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let rulesets: BTreeMap<String, pb::Ruleset> = client
        .list_rulesets(pb::ListRulesetsRequest {})
        .await
        .expect("rulesets")
        .into_inner()
        .rulesets
        .into_iter()
        .map(|r| (r.id.clone(), r))
        .collect();
    for (id, cells, pieces) in [
        ("frente", 100, 40),
        ("clasico", 100, 40),
        ("castillos", 80, 24),
    ] {
        let ruleset = &rulesets[id];
        let board = ruleset.board.as_ref().expect("board");
        assert_eq!(board.shape, pb::BoardShape::Square as i32);
        assert_eq!(board.cells.len(), cells, "{id}");
        assert_eq!(ruleset.seats.len(), 2);
        assert_eq!(ruleset.setup_zones.len(), 2);
        let total: i32 = ruleset.piece_kinds.iter().map(|k| k.count).sum();
        assert_eq!(total, pieces, "{id}");
        assert!(
            ruleset
                .piece_kinds
                .iter()
                .all(|k| k.code.len() == 1 && !k.name.is_empty())
        );
        assert!(!ruleset.notation_help.is_empty());
    }
    let terrain = |id: &str, t: pb::Terrain| {
        rulesets[id]
            .board
            .as_ref()
            .expect("board")
            .cells
            .iter()
            .filter(|c| c.terrain == t as i32)
            .count()
    };
    assert_eq!(terrain("frente", pb::Terrain::Lake), 8);
    assert_eq!(terrain("castillos", pb::Terrain::Castle), 2);
    assert_eq!(terrain("castillos", pb::Terrain::Trench), 4);
}

/// The service names that reflection version `$version` lists on `$channel`.
macro_rules! list_services {
    ($version:ident, $channel:expr) => {{
        use reflection::server_reflection_request::MessageRequest;
        use reflection::server_reflection_response::MessageResponse;
        use tonic_reflection::pb::$version as reflection;
        let mut client =
            reflection::server_reflection_client::ServerReflectionClient::new($channel);
        let request = reflection::ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::ListServices(String::new())),
        };
        let mut responses = client
            .server_reflection_info(tokio_stream::iter([request]))
            .await
            .expect("reflection")
            .into_inner();
        let response = responses.next().await.expect("a response").expect("ok");
        let Some(MessageResponse::ListServicesResponse(list)) = response.message_response else {
            panic!("unexpected reflection response");
        };
        list.service
            .into_iter()
            .map(|s| s.name)
            .collect::<Vec<String>>()
    }};
}

#[tokio::test(flavor = "multi_thread")]
async fn health_and_reflection_are_served() {
    let server = TestServer::start().await;
    let channel = tonic::transport::Channel::from_shared(format!("http://{}", server.addr))
        .expect("uri")
        .connect()
        .await
        .expect("connects");
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
    let status = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "trinchera.v1.GameService".into(),
        })
        .await
        .expect("health")
        .into_inner()
        .status;
    assert_eq!(
        status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );
    // Both reflection versions list the services (older grpcurl speaks only v1alpha).
    for names in [
        list_services!(v1, channel.clone()),
        list_services!(v1alpha, channel.clone()),
    ] {
        assert!(
            names.contains(&"trinchera.v1.GameService".to_owned()),
            "{names:?}"
        );
        assert!(
            names.contains(&"grpc.health.v1.Health".to_owned()),
            "{names:?}"
        );
        // The operators' service is served on the admin listener only.
        assert!(
            !names.iter().any(|name| name.starts_with("trinchera.admin")),
            "{names:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn list_games_filters_and_pages() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut ids = Vec::new();
    for ruleset in ["frente", "clasico", "frente", "castillos", "frente"] {
        let created = client
            .create_game(pb::CreateGameRequest {
                ruleset: ruleset.into(),
                name: format!("partida {ruleset}"),
                ..Default::default()
            })
            .await
            .expect("created")
            .into_inner();
        ids.push(created.game_id);
    }
    let joined = new_game(&mut client, "clasico").await;
    ids.push(joined[0].game.clone());
    let list = |phase: pb::Phase, ruleset: &str, page_size: i32, page_token: String| {
        pb::ListGamesRequest {
            phase: phase as i32,
            ruleset: ruleset.into(),
            page_size,
            page_token,
            ..Default::default()
        }
    };
    let all = client
        .list_games(list(pb::Phase::Unspecified, "", 0, String::new()))
        .await
        .expect("list")
        .into_inner();
    let listed: Vec<_> = all.games.iter().map(|g| g.game_id.clone()).collect();
    let mut newest_first = ids.clone();
    newest_first.reverse();
    assert_eq!(listed, newest_first);
    assert!(all.next_page_token.is_empty());
    let frente = client
        .list_games(list(pb::Phase::Unspecified, "frente", 0, String::new()))
        .await
        .expect("list")
        .into_inner();
    assert_eq!(frente.games.len(), 3);
    assert!(
        frente
            .games
            .iter()
            .all(|g| g.ruleset == "frente" && g.name == "partida frente")
    );
    let setup = client
        .list_games(list(pb::Phase::Setup, "", 0, String::new()))
        .await
        .expect("list")
        .into_inner();
    assert_eq!(setup.games.len(), 1);
    assert_eq!(
        setup.games[0].players.iter().filter(|p| p.joined).count(),
        2
    );
    // Pages of two, newest first, no game twice.
    let mut paged = Vec::new();
    let mut token = String::new();
    loop {
        let page = client
            .list_games(list(pb::Phase::Unspecified, "", 2, token))
            .await
            .expect("page")
            .into_inner();
        assert!(page.games.len() <= 2);
        paged.extend(page.games.into_iter().map(|g| g.game_id));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    assert_eq!(paged, newest_first);
}

#[tokio::test(flavor = "multi_thread")]
async fn piece_ids_follow_starting_cells_not_kinds() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut layouts = Vec::new();
    for _ in 0..2 {
        let players = new_game(&mut client, "frente").await;
        random_setups(&mut client, &players).await;
        let view = view_of(&mut client, &players[1]).await;
        let mut ids: Vec<(i32, i32, u32)> = view
            .pieces
            .iter()
            .map(|p| {
                let cell = p.cell.expect("on the board");
                (cell.x, cell.y, p.id)
            })
            .collect();
        ids.sort();
        layouts.push(ids);
        // Seat 1 sees its own kinds and nothing of seat 0's.
        assert!(
            view.pieces
                .iter()
                .all(|p| (p.owner == 1) != p.kind.is_empty())
        );
        let own = view_of(&mut client, &players[0]).await;
        assert!(own.players.iter().all(|p| p.setup_commitment.len() == 64));
    }
    assert_eq!(layouts[0], layouts[1], "ids depend only on starting cells");
}

#[tokio::test(flavor = "multi_thread")]
async fn explicit_setups_and_notation_moves_work() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "castillos").await;
    let rulesets = client
        .list_rulesets(pb::ListRulesetsRequest {})
        .await
        .expect("rulesets")
        .into_inner()
        .rulesets;
    let ruleset = rulesets
        .iter()
        .find(|r| r.id == "castillos")
        .expect("castillos");
    for player in &players {
        let zone = &ruleset.setup_zones[player.seat as usize];
        let kinds = zone
            .pieces
            .iter()
            .flat_map(|pc| std::iter::repeat_n(pc.kind.clone(), pc.count as usize));
        let placements = zone
            .cells
            .iter()
            .zip(kinds)
            .map(|(cell, kind)| pb::Placement {
                cell: Some(*cell),
                kind,
            })
            .collect();
        let view = client
            .submit_setup(authed(
                pb::SubmitSetupRequest {
                    game_id: player.game.clone(),
                    placements,
                    random: false,
                },
                &player.token,
            ))
            .await
            .expect("explicit setup accepted")
            .into_inner()
            .view
            .expect("view");
        assert_eq!(
            view.pieces
                .iter()
                .filter(|p| p.owner == player.seat)
                .count(),
            24
        );
    }
    let view = view_of(&mut client, &players[0]).await;
    assert_eq!(view.phase, pb::Phase::Playing as i32);
    assert_eq!(view.to_move, Some(0));
    let first = view.legal_moves[0].notation.clone();
    let response = client
        .make_move(authed(
            pb::MakeMoveRequest {
                game_id: players[0].game.clone(),
                action: Some(pb::make_move_request::Action::Notation(first.clone())),
                expected_version: None,
                ..Default::default()
            },
            &players[0].token,
        ))
        .await
        .expect("notation move accepted")
        .into_inner();
    assert_eq!(response.event.expect("event").notation, first);
    assert_eq!(response.view.expect("view").to_move, Some(1));
}

/// Waits on `stream` until `seat` is to move or the game is over; returns that view.
async fn until_to_move(
    stream: &mut tonic::Streaming<pb::WatchGameResponse>,
    seat: i32,
) -> pb::GameView {
    loop {
        let message = within("the bot acts", stream.next())
            .await
            .expect("the stream goes on")
            .expect("a message");
        let view = message.view.expect("view");
        if view.phase == pb::Phase::Finished as i32
            || (view.phase == pb::Phase::Playing as i32 && view.to_move == Some(seat))
        {
            return view;
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bot_plays_the_other_seat_to_the_end() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let unknown = client
        .create_game(pb::CreateGameRequest {
            ruleset: "frente".into(),
            bot: "genius".into(),
            ..Default::default()
        })
        .await;
    crate::harness::assert_refused(unknown, tonic::Code::InvalidArgument, "BAD_REQUEST");
    for (index, ruleset) in ["clasico", "tanques"].into_iter().enumerate() {
        let created = client
            .create_game(pb::CreateGameRequest {
                ruleset: ruleset.into(),
                seat: Some(1),
                bot: "random".into(),
                ..Default::default()
            })
            .await
            .expect("created")
            .into_inner();
        let human = crate::harness::Player {
            game: created.game_id.clone(),
            seat: 1,
            token: created.player_token.clone(),
        };
        let view = created.view.expect("view");
        let bot = &view.players[0];
        assert_eq!((bot.bot.as_str(), bot.joined), ("random", true));
        let mut stream = client
            .watch_game(authed(
                pb::WatchGameRequest {
                    game_id: human.game.clone(),
                    after_version: Some(view.version),
                    ..Default::default()
                },
                &human.token,
            ))
            .await
            .expect("watches")
            .into_inner();
        if view.phase == pb::Phase::Setup as i32 {
            client
                .submit_setup(authed(
                    pb::SubmitSetupRequest {
                        game_id: human.game.clone(),
                        random: true,
                        ..Default::default()
                    },
                    &human.token,
                ))
                .await
                .expect("setup");
        }
        let mut rng = rng(100 + index as u64);
        let mut moves = 0;
        loop {
            let view = until_to_move(&mut stream, 1).await;
            if view.phase == pb::Phase::Finished as i32 {
                break;
            }
            let choice =
                &view.legal_moves[rand::RngExt::random_range(&mut rng, 0..view.legal_moves.len())];
            let made = client
                .make_move(authed(
                    pb::MakeMoveRequest {
                        game_id: human.game.clone(),
                        action: Some(pb::make_move_request::Action::Notation(
                            choice.notation.clone(),
                        )),
                        expected_version: Some(view.version),
                        ..Default::default()
                    },
                    &human.token,
                ))
                .await
                .expect("move")
                .into_inner();
            let after = made.view.expect("view");
            if after.phase == pb::Phase::Finished as i32 {
                break;
            }
            moves += 1;
            assert!(moves < 20_000);
        }
        let history = client
            .get_history(pb::GetHistoryRequest {
                game_id: human.game.clone(),
                positions: false,
                ..Default::default()
            })
            .await
            .expect("history")
            .into_inner();
        let bot_moves = history
            .events
            .iter()
            .filter(|e| e.seat == Some(0) && e.r#type == pb::EventType::Move as i32)
            .count();
        assert!(bot_moves > 0, "{ruleset}: the bot moved");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_human_is_answered_before_the_bot_moves_and_the_move_arrives_as_an_event() {
    let server = TestServer::start_with(trinchera_service::Limits {
        bots: trinchera_service::BotPace {
            think: std::time::Duration::from_millis(10),
            min_delay: std::time::Duration::from_millis(1500),
            ..trinchera_service::Limits::for_tests().bots
        },
        ..trinchera_service::Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    // Tanques has no setup: the bot in seat 0 is to move as soon as it has joined.
    let created = client
        .create_game(pb::CreateGameRequest {
            ruleset: "tanques".into(),
            seat: Some(1),
            bot: "random".into(),
            ..Default::default()
        })
        .await
        .expect("created")
        .into_inner();
    let view = created.view.expect("view");
    assert_eq!(view.to_move, Some(0), "the bot is to move");
    assert_eq!(
        view.version, 2,
        "created and joined; the bot has not acted yet"
    );
    let mut stream = client
        .watch_game(pb::WatchGameRequest {
            game_id: created.game_id.clone(),
            after_version: Some(2),
            ..Default::default()
        })
        .await
        .expect("watches")
        .into_inner();
    let message = within("the bot acts", stream.next())
        .await
        .expect("the stream goes on")
        .expect("a message");
    let event = message.event.expect("an event");
    assert_eq!((event.version, event.seat), (3, Some(0)), "{event:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bot_whose_turn_it_was_resumes_after_a_restart() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().to_owned();
    // A bot that never gets to act before the stop.
    let slow = trinchera_service::Limits {
        bots: trinchera_service::BotPace {
            think: std::time::Duration::from_millis(10),
            min_delay: std::time::Duration::from_secs(3600),
            ..trinchera_service::Limits::for_tests().bots
        },
        ..trinchera_service::Limits::for_tests()
    };
    let server = TestServer::start_in(&dir, None, slow).await;
    let mut client = server.client().await;
    let created = client
        .create_game(pb::CreateGameRequest {
            ruleset: "asalto".into(),
            seat: Some(1),
            bot: "random".into(),
            ..Default::default()
        })
        .await
        .expect("created")
        .into_inner();
    let officers = crate::harness::Player {
        game: created.game_id.clone(),
        seat: 1,
        token: created.player_token,
    };
    client
        .submit_setup(authed(
            pb::SubmitSetupRequest {
                game_id: officers.game.clone(),
                random: true,
                ..Default::default()
            },
            &officers.token,
        ))
        .await
        .expect("setup");
    let before = view_of(&mut client, &officers).await;
    assert_eq!(before.to_move, Some(0), "the rebels' bot is to move");
    server.stop().await;
    let server =
        TestServer::start_in(&dir, Some(temp), trinchera_service::Limits::for_tests()).await;
    let mut client = server.client().await;
    let mut stream = client
        .watch_game(authed(
            pb::WatchGameRequest {
                game_id: officers.game.clone(),
                after_version: Some(before.version),
                ..Default::default()
            },
            &officers.token,
        ))
        .await
        .expect("watches")
        .into_inner();
    let view = until_to_move(&mut stream, 1).await;
    assert!(
        view.version > before.version,
        "the bot moved after the restart"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn two_bots_play_each_other_while_the_creator_watches() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let rulesets = client
        .list_rulesets(pb::ListRulesetsRequest {})
        .await
        .expect("rulesets")
        .into_inner();
    for ruleset in &rulesets.rulesets {
        let levels: Vec<&str> = ruleset.bot_levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(levels, ["random", "easy", "hard"], "{}", ruleset.id);
        assert!(ruleset.bot_levels.iter().all(|l| !l.description.is_empty()));
    }
    let alone = client
        .create_game(pb::CreateGameRequest {
            ruleset: "frente".into(),
            creator_bot: "easy".into(),
            ..Default::default()
        })
        .await;
    crate::harness::assert_refused(alone, tonic::Code::InvalidArgument, "BAD_REQUEST");
    let created = client
        .create_game(pb::CreateGameRequest {
            ruleset: "asalto".into(),
            seat: Some(1),
            creator_bot: "easy".into(),
            bot: "random".into(),
            ..Default::default()
        })
        .await
        .expect("created")
        .into_inner();
    assert!(created.player_token.is_empty(), "nobody holds a seat");
    let view = created.view.expect("view");
    assert_eq!(
        view.viewer_seat, None,
        "the creator sees what a spectator sees"
    );
    let bots: Vec<&str> = view.players.iter().map(|p| p.bot.as_str()).collect();
    assert_eq!(bots, ["random", "easy"]);
    let mut stream = client
        .watch_game(pb::WatchGameRequest {
            game_id: created.game_id.clone(),
            after_version: Some(view.version),
            ..Default::default()
        })
        .await
        .expect("watches")
        .into_inner();
    let mut moves = 0;
    loop {
        let message = stream
            .message()
            .await
            .expect("stream")
            .expect("the stream lasts until the end");
        if message
            .event
            .as_ref()
            .is_some_and(|e| e.r#type == pb::EventType::Move as i32)
        {
            moves += 1;
        }
        if message
            .view
            .as_ref()
            .is_some_and(|v| v.phase == pb::Phase::Finished as i32)
        {
            break;
        }
    }
    assert!(moves > 10, "the bots played the game out ({moves} moves)");
}
