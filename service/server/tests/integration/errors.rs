//! Every error of the contract, provoked: the right code, a machine-readable reason, a
//! readable message, and nothing changed.

use tonic::Code;
use trinchera_proto::v1 as pb;
use trinchera_service::Limits;

use crate::harness::{
    Client, Player, TestServer, assert_refused, authed, new_game, random_setups, spectator_view,
    view_of,
};

/// Everything a refused call must leave as it was.
async fn snapshot(client: &mut Client, players: &[Player; 2]) -> [pb::GameView; 3] {
    [
        view_of(client, &players[0]).await,
        view_of(client, &players[1]).await,
        spectator_view(client, &players[0].game).await,
    ]
}

fn step(from: (i32, i32), to: (i32, i32)) -> pb::make_move_request::Action {
    pb::make_move_request::Action::Move(pb::Move {
        action: Some(pb::r#move::Action::Step(pb::Step {
            from: Some(pb::Cell {
                x: from.0,
                y: from.1,
            }),
            to: Some(pb::Cell { x: to.0, y: to.1 }),
        })),
    })
}

fn notation(text: &str) -> pb::make_move_request::Action {
    pb::make_move_request::Action::Notation(text.into())
}

fn make_move(
    player: &Player,
    action: pb::make_move_request::Action,
    expected: Option<u64>,
) -> pb::MakeMoveRequest {
    pb::MakeMoveRequest {
        game_id: player.game.clone(),
        action: Some(action),
        expected_version: expected,
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn refused_moves_change_nothing() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    let other = new_game(&mut client, "frente").await;
    // Moving before the setups are in: wrong phase.
    let legal_later = notation("a4-a5");
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[0], legal_later.clone(), None),
                &players[0].token,
            ))
            .await,
        Code::FailedPrecondition,
        "WRONG_PHASE",
    );
    random_setups(&mut client, &players).await;
    let before = snapshot(&mut client, &players).await;
    let version = before[0].version;
    let legal = before[0].legal_moves[0].clone();
    let legal_action = pb::make_move_request::Action::Move(legal.r#move.clone().expect("move"));

    // Tokens.
    assert_refused(
        client
            .make_move(make_move(&players[0], legal_action.clone(), None))
            .await,
        Code::Unauthenticated,
        "BAD_TOKEN",
    );
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[0], legal_action.clone(), None),
                "tr1_0000",
            ))
            .await,
        Code::Unauthenticated,
        "BAD_TOKEN",
    );
    let mut basic = tonic::Request::new(make_move(&players[0], legal_action.clone(), None));
    basic
        .metadata_mut()
        .insert("authorization", "Basic abc".parse().expect("ascii"));
    assert_refused(
        client.make_move(basic).await,
        Code::Unauthenticated,
        "BAD_TOKEN",
    );
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[0], legal_action.clone(), None),
                &other[0].token,
            ))
            .await,
        Code::PermissionDenied,
        "WRONG_GAME",
    );
    // Turn, legality, notation, cells, versions.
    let refused = client
        .make_move(authed(
            make_move(&players[1], notation("a7-a6"), None),
            &players[1].token,
        ))
        .await;
    assert!(
        refused
            .as_ref()
            .is_err_and(|s| s.message().contains("Rojo to move")),
        "{refused:?}"
    );
    assert_refused(refused, Code::FailedPrecondition, "NOT_YOUR_TURN");
    let diagonal = client
        .make_move(authed(
            make_move(&players[0], step((0, 3), (1, 4)), None),
            &players[0].token,
        ))
        .await;
    assert_refused(diagonal, Code::FailedPrecondition, "ILLEGAL_MOVE");
    let own = client
        .make_move(authed(
            make_move(&players[0], step((0, 0), (0, 1)), None),
            &players[0].token,
        ))
        .await;
    assert_refused(own, Code::FailedPrecondition, "ILLEGAL_MOVE");
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[0], notation("zz9 to nowhere"), None),
                &players[0].token,
            ))
            .await,
        Code::InvalidArgument,
        "BAD_NOTATION",
    );
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[0], notation("a4-k4"), None),
                &players[0].token,
            ))
            .await,
        Code::InvalidArgument,
        "BAD_NOTATION",
    );
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[0], step((0, 3), (0, 40)), None),
                &players[0].token,
            ))
            .await,
        Code::InvalidArgument,
        "OFF_BOARD",
    );
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[0], step((0, 3), (5000, 4)), None),
                &players[0].token,
            ))
            .await,
        Code::InvalidArgument,
        "OFF_BOARD",
    );
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[0], legal_action.clone(), Some(version - 1)),
                &players[0].token,
            ))
            .await,
        Code::Aborted,
        "VERSION_MISMATCH",
    );
    assert_refused(
        client
            .make_move(authed(
                pb::MakeMoveRequest {
                    action: None,
                    ..make_move(&players[0], legal_action.clone(), None)
                },
                &players[0].token,
            ))
            .await,
        Code::InvalidArgument,
        "BAD_REQUEST",
    );
    // Oversize request.
    let huge = "a".repeat(100_000);
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[0], notation(&huge), None),
                &players[0].token,
            ))
            .await,
        Code::ResourceExhausted,
        "LIMIT_EXCEEDED",
    );
    // A long but not oversize notation is a notation error with the limit in words.
    let long = client
        .make_move(authed(
            make_move(&players[0], notation(&"a".repeat(1000)), None),
            &players[0].token,
        ))
        .await;
    assert!(
        long.as_ref()
            .is_err_and(|s| s.message().contains("200 bytes"))
    );
    // Setup again, join again.
    assert_refused(
        client
            .submit_setup(authed(
                pb::SubmitSetupRequest {
                    game_id: players[0].game.clone(),
                    random: true,
                    ..Default::default()
                },
                &players[0].token,
            ))
            .await,
        Code::FailedPrecondition,
        "WRONG_PHASE",
    );
    assert_refused(
        client
            .join_game(pb::JoinGameRequest {
                game_id: players[0].game.clone(),
                player_name: "Intruso".into(),
            })
            .await,
        Code::FailedPrecondition,
        "SEAT_TAKEN",
    );
    // Spectators cannot act.
    assert_refused(
        client
            .resign(pb::ResignRequest {
                game_id: players[0].game.clone(),
            })
            .await,
        Code::Unauthenticated,
        "BAD_TOKEN",
    );
    assert_eq!(
        snapshot(&mut client, &players).await,
        before,
        "refusals changed nothing"
    );

    // The legal move still works, with its version.
    client
        .make_move(authed(
            make_move(&players[0], legal_action.clone(), Some(version)),
            &players[0].token,
        ))
        .await
        .expect("legal move");
    // Game over.
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: players[1].game.clone(),
            },
            &players[1].token,
        ))
        .await
        .expect("resigns");
    let finished = snapshot(&mut client, &players).await;
    assert_refused(
        client
            .make_move(authed(
                make_move(&players[1], notation("a7-a6"), None),
                &players[1].token,
            ))
            .await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
    assert_refused(
        client
            .resign(authed(
                pb::ResignRequest {
                    game_id: players[0].game.clone(),
                },
                &players[0].token,
            ))
            .await,
        Code::FailedPrecondition,
        "GAME_OVER",
    );
    assert_eq!(snapshot(&mut client, &players).await, finished);
    let result = finished[2].result.clone().expect("result");
    assert_eq!(
        (result.winner, result.reason.as_str()),
        (Some(0), "RESIGNED")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_requests_are_invalid_arguments() {
    let server = TestServer::start_with(Limits {
        max_open_games: 3,
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    let unknown = client
        .create_game(pb::CreateGameRequest {
            ruleset: "ajedrez".into(),
            ..Default::default()
        })
        .await;
    assert!(
        unknown
            .as_ref()
            .is_err_and(|s| s.message().contains("frente")),
        "lists the rulesets"
    );
    assert_refused(unknown, Code::InvalidArgument, "UNKNOWN_RULESET");
    assert_refused(
        client
            .create_game(pb::CreateGameRequest {
                ruleset: "frente".into(),
                seat: Some(2),
                ..Default::default()
            })
            .await,
        Code::InvalidArgument,
        "BAD_REQUEST",
    );
    assert_refused(
        client
            .create_game(pb::CreateGameRequest {
                ruleset: "frente".into(),
                name: "x".repeat(65),
                ..Default::default()
            })
            .await,
        Code::InvalidArgument,
        "BAD_NAME",
    );
    assert_refused(
        client
            .create_game(pb::CreateGameRequest {
                ruleset: "frente".into(),
                player_name: "a\u{7}b".into(),
                ..Default::default()
            })
            .await,
        Code::InvalidArgument,
        "BAD_NAME",
    );
    for game_id in ["999999", "abc"] {
        assert_refused(
            client
                .get_view(pb::GetViewRequest {
                    game_id: game_id.into(),
                })
                .await,
            Code::NotFound,
            "GAME_NOT_FOUND",
        );
    }
    assert_refused(
        client
            .get_view(pb::GetViewRequest {
                game_id: String::new(),
            })
            .await,
        Code::InvalidArgument,
        "BAD_REQUEST",
    );
    assert_refused(
        client
            .list_games(pb::ListGamesRequest {
                page_size: 101,
                ..Default::default()
            })
            .await,
        Code::InvalidArgument,
        "BAD_REQUEST",
    );
    assert_refused(
        client
            .list_games(pb::ListGamesRequest {
                page_token: "zz".into(),
                ..Default::default()
            })
            .await,
        Code::InvalidArgument,
        "BAD_REQUEST",
    );
    // A setup with several problems reports all of them.
    let players = new_game(&mut client, "frente").await;
    let before = snapshot(&mut client, &players).await;
    let placements = vec![
        pb::Placement {
            cell: Some(pb::Cell { x: 0, y: 0 }),
            kind: "espia".into(),
        },
        pb::Placement {
            cell: Some(pb::Cell { x: 0, y: 0 }),
            kind: "soldado".into(),
        },
        pb::Placement {
            cell: Some(pb::Cell { x: 0, y: 9 }),
            kind: "general".into(),
        },
        pb::Placement {
            cell: Some(pb::Cell { x: 1, y: 1 }),
            kind: "dragon".into(),
        },
    ];
    let refused = client
        .submit_setup(authed(
            pb::SubmitSetupRequest {
                game_id: players[0].game.clone(),
                placements,
                random: false,
            },
            &players[0].token,
        ))
        .await;
    let message = refused
        .as_ref()
        .err()
        .map(|s| s.message().to_owned())
        .unwrap_or_default();
    for expected in [
        "more than one piece",
        "outside your setup zone",
        "dragon",
        "needs 8 Soldado",
    ] {
        assert!(
            message.contains(expected),
            "{expected:?} missing from {message:?}"
        );
    }
    assert_refused(refused, Code::InvalidArgument, "BAD_SETUP");
    assert_eq!(snapshot(&mut client, &players).await, before);
    // The open-games limit: one game exists, two more are allowed.
    for _ in 0..2 {
        client
            .create_game(pb::CreateGameRequest {
                ruleset: "clasico".into(),
                ..Default::default()
            })
            .await
            .expect("within the limit");
    }
    let full = client
        .create_game(pb::CreateGameRequest {
            ruleset: "clasico".into(),
            ..Default::default()
        })
        .await;
    assert!(
        full.as_ref()
            .is_err_and(|s| s.message().contains("3 unfinished games"))
    );
    assert_refused(full, Code::ResourceExhausted, "LIMIT_EXCEEDED");
    // Finishing a game frees a place.
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: players[0].game.clone(),
            },
            &players[0].token,
        ))
        .await
        .expect("resigns");
    client
        .create_game(pb::CreateGameRequest {
            ruleset: "clasico".into(),
            ..Default::default()
        })
        .await
        .expect("a place is free again");
}
