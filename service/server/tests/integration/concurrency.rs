//! Racing clients: one game's actions are serialized; many games run in parallel.

use tonic::Code;
use trinchera_proto::v1 as pb;

use crate::harness::{TestServer, authed, new_game, play_random_move, random_setups, rng, view_of};

#[tokio::test(flavor = "multi_thread")]
async fn racing_moves_with_one_version_have_one_winner() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    random_setups(&mut client, &players).await;
    let view = view_of(&mut client, &players[0]).await;
    assert!(view.legal_moves.len() >= 2);
    let mut racers = Vec::new();
    for legal in view.legal_moves.iter().take(8) {
        let mut client = server.client().await;
        let request = authed(
            pb::MakeMoveRequest {
                game_id: players[0].game.clone(),
                action: Some(pb::make_move_request::Action::Notation(
                    legal.notation.clone(),
                )),
                expected_version: Some(view.version),
                ..Default::default()
            },
            &players[0].token,
        );
        racers.push(tokio::spawn(async move { client.make_move(request).await }));
    }
    let mut won = 0;
    for racer in racers {
        match racer.await.expect("joined") {
            Ok(_) => won += 1,
            Err(status) => assert_eq!(status.code(), Code::Aborted, "{status:?}"),
        }
    }
    assert_eq!(won, 1);
    assert_eq!(
        view_of(&mut client, &players[0]).await.version,
        view.version + 1
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn many_games_proceed_in_parallel() {
    let server = TestServer::start().await;
    let mut tasks = Vec::new();
    for index in 0..12 {
        let mut client = server.client().await;
        let ruleset = ["frente", "clasico", "castillos"][index % 3];
        tasks.push(tokio::spawn(async move {
            let players = new_game(&mut client, ruleset).await;
            random_setups(&mut client, &players).await;
            let mut rng = rng(index as u64);
            for _ in 0..30 {
                play_random_move(&mut client, &players, &mut rng).await;
            }
            let view = view_of(&mut client, &players[0]).await;
            (players, view.version)
        }));
    }
    let mut client = server.client().await;
    for task in tasks {
        let (players, version) = task.await.expect("joined");
        let history = client
            .get_history(pb::GetHistoryRequest {
                game_id: players[0].game.clone(),
                positions: false,
                ..Default::default()
            })
            .await
            .expect("history")
            .into_inner();
        let versions: Vec<u64> = history.events.iter().map(|e| e.version).collect();
        assert_eq!(
            versions,
            (1..=version).collect::<Vec<_>>(),
            "one gapless history per game"
        );
    }
}
