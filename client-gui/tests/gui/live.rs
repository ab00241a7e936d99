//! The live stream: a watcher that loses the server picks up where it left off.

use eframe::egui;
use trinchera_client::Store;
use trinchera_gui::backend::{Backend, Reply, Request};
use trinchera_proto::v1 as pb;

use crate::harness::{Server, eventually};

/// Collects the backend's replies into `replies` until one passes `done`.
fn wait(backend: &Backend, replies: &mut Vec<Reply>, what: &str, done: impl Fn(&Reply) -> bool) {
    eventually(what, || {
        let new = backend.poll();
        let found = new.iter().any(&done);
        replies.extend(new);
        found
    });
}

#[test]
fn a_dropped_stream_resumes_from_the_last_version_and_misses_nothing() {
    let mut server = Server::start();
    // Worker threads keep the test's own connections answering the server (a client that
    // does not answer holds a graceful shutdown until keepalive gives up on it).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let player = |url: &str| {
        runtime
            .block_on(trinchera_client::Server::connect(url, &Default::default()))
            .expect("connects")
    };
    let client = player(&server.url);
    let created = runtime
        .block_on(client.create(pb::CreateGameRequest {
            ruleset: "frente".into(),
            bot: "random".into(),
            ..Default::default()
        }))
        .expect("created");
    let (game, token) = (created.game_id, created.player_token);
    let setup = pb::SubmitSetupRequest {
        game_id: game.clone(),
        random: true,
        ..Default::default()
    };
    runtime
        .block_on(client.setup(setup, &token))
        .expect("set up");

    let config = tempfile::tempdir().expect("temp dir");
    let backend = Backend::start(
        egui::Context::default(),
        Store::at(config.path()),
        Default::default(),
    );
    let mut replies = Vec::new();
    backend.send(Request::Connect(server.url.clone()));
    wait(&backend, &mut replies, "the connection", |r| {
        matches!(r, Reply::Connected { .. })
    });
    backend.send(Request::Open {
        game: game.clone(),
        spectate: true,
    });
    wait(&backend, &mut replies, "the game", |r| {
        matches!(r, Reply::Opened { .. })
    });
    let opened = replies
        .iter()
        .find_map(|r| match r {
            Reply::Opened { view, seat, .. } => Some((view.version, *seat)),
            _ => None,
        })
        .expect("opened");
    assert_eq!(opened.1, None, "a spectator");

    // The server goes away and comes back; a move is played before the watcher returns.
    server.restart();
    let client = player(&server.url);
    let view = runtime
        .block_on(client.view(&game, Some(&token)))
        .expect("view");
    let step = view.legal_moves[0].r#move.clone();
    let played = runtime
        .block_on(client.play(
            pb::MakeMoveRequest {
                game_id: game.clone(),
                action: step.map(pb::make_move_request::Action::Move),
                expected_version: Some(view.version),
                ..Default::default()
            },
            &token,
        ))
        .expect("played");
    let version = played.view.expect("view").version;
    wait(
        &backend,
        &mut replies,
        "the move, after the watcher came back",
        |r| matches!(r, Reply::Watched(m) if m.version >= version),
    );
    let seen: Vec<u64> = replies
        .iter()
        .filter_map(|r| match r {
            Reply::Watched(m) => Some(m.version),
            _ => None,
        })
        .collect();
    let expected: Vec<u64> = (opened.0 + 1..=seen.last().copied().unwrap_or(0)).collect();
    assert_eq!(seen, expected, "every version once, in order");
    assert!(
        replies
            .iter()
            .any(|r| matches!(r, Reply::Watched(m) if m.event.is_some() && !m.snapshot))
    );
}
