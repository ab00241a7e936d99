//! Restarts and crashes: what was acknowledged is there, bit for bit.

use trinchera_proto::v1 as pb;

use crate::harness::{
    ChildServer, Client, Player, TestServer, authed, connect, new_game, play_quiet_move,
    play_random_move, random_setups, rng, spectator_view, view_of,
};

async fn views(client: &mut Client, players: &[Player; 2]) -> [pb::GameView; 3] {
    [
        view_of(client, &players[0]).await,
        view_of(client, &players[1]).await,
        spectator_view(client, &players[0].game).await,
    ]
}

async fn history(client: &mut Client, game: &str) -> pb::GetHistoryResponse {
    client
        .get_history(pb::GetHistoryRequest {
            game_id: game.into(),
            positions: true,
            ..Default::default()
        })
        .await
        .expect("history")
        .into_inner()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restart_keeps_every_view_identical() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut games = Vec::new();
    let mut rng = rng(7);
    for ruleset in ["frente", "clasico", "castillos"] {
        let players = new_game(&mut client, ruleset).await;
        random_setups(&mut client, &players).await;
        for _ in 0..25 {
            play_random_move(&mut client, &players, &mut rng).await;
        }
        games.push(players);
    }
    let mut before = Vec::new();
    for players in &games {
        before.push((
            views(&mut client, players).await,
            history(&mut client, &players[0].game).await,
        ));
    }
    let dir = server.dir.clone();
    let temp = server.stop().await;
    let server = TestServer::start_in(&dir, temp, trinchera_service::Limits::for_tests()).await;
    let mut client = server.client().await;
    for (players, (views_before, history_before)) in games.iter().zip(before) {
        assert_eq!(views(&mut client, players).await, views_before);
        assert_eq!(history(&mut client, &players[0].game).await, history_before);
        // Play goes on after the restart (unless random play already ended the game).
        if views_before[2].phase == pb::Phase::Finished as i32 {
            continue;
        }
        let response = play_random_move(&mut client, players, &mut rng)
            .await
            .expect("a move");
        assert_eq!(
            response.view.expect("view").version,
            views_before[0].version + 1
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_crash_loses_no_acknowledged_move() {
    let temp = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::start(temp.path()).await;
    let mut client = connect(server.addr).await;
    let players = new_game(&mut client, "clasico").await;
    random_setups(&mut client, &players).await;
    let mut rng = rng(11);
    let mut acknowledged = Vec::new();
    // Quiet moves, so that the game cannot end by chance before the crash or right after.
    for _ in 0..40 {
        let response = play_quiet_move(&mut client, &players, &mut rng)
            .await
            .expect("the game goes on");
        acknowledged.push(response.event.expect("event"));
    }
    // SIGKILL right after the last acknowledgement: no shutdown, no final flush.
    server.kill().await;
    let server = ChildServer::start(temp.path()).await;
    let mut client = connect(server.addr).await;
    let history = history(&mut client, &players[0].game).await;
    let last = acknowledged.last().expect("moves were made");
    assert_eq!(history.events.len() as u64, last.version);
    let replayed: Vec<_> = history
        .events
        .iter()
        .filter(|e| e.r#type == pb::EventType::Move as i32)
        .collect();
    assert_eq!(replayed.len(), acknowledged.len());
    for (stored, acked) in replayed.iter().zip(&acknowledged) {
        assert_eq!(*stored, acked, "the stored event is the acknowledged one");
    }
    // The game goes on.
    let view = view_of(&mut client, &players[0]).await;
    assert_eq!(view.version, last.version);
    play_quiet_move(&mut client, &players, &mut rng)
        .await
        .expect("play continues");
    // The tokens survived too.
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: players[1].game.clone(),
            },
            &players[1].token,
        ))
        .await
        .expect("the token still works");
    server.kill().await;
}
