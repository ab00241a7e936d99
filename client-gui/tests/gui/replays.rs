//! Replays of finished games, from the server and from saved history files, with the
//! fairness verdict: "fair" for a real game, "NOT fair" once a die is altered.

use std::time::Duration;

use eframe::egui;
use trinchera_client::Names;
use trinchera_gui::lobby::{ClockChoice, Opponent};
use trinchera_gui::replay::Side;
use trinchera_proto::v1 as pb;

use egui_kittest::kittest::Queryable as _;

use crate::harness::{Server, Window, eventually};
use trinchera_gui::OpenAtStart;

/// A runtime for the test's own calls to the server.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime")
}

/// The history of `game` as a spectator gets it, with every position.
fn history(runtime: &tokio::runtime::Runtime, url: &str, game: &str) -> pb::GetHistoryResponse {
    runtime.block_on(async {
        let server = trinchera_client::Server::connect(url, &Default::default())
            .await
            .expect("connects");
        server.history(game, None, true).await.expect("history")
    })
}

#[test]
fn a_finished_game_replays_step_by_step_from_either_side_and_is_fair() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    me.create_game(
        "frente",
        0,
        Opponent::Bot("random".into()),
        ClockChoice::None,
    );
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    me.set_up_at_random("Random setup", "Submit setup");
    me.wait_for("my turn", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    // One move typed in notation, the bot's answer, then resignation.
    let notation = me.game().view().legal_moves[0].notation.clone();
    let version = me.game().view().version;
    me.type_into("Type a move", &notation.to_uppercase());
    me.click("Play");
    me.wait_for("the bot's answer", |app| {
        app.game
            .as_ref()
            .is_some_and(|g| g.view().version >= version + 2 && g.my_turn())
    });
    me.click("Resign…");
    me.click("Yes, resign");
    me.wait_for("the end", |app| {
        app.game
            .as_ref()
            .is_some_and(|g| g.view().phase() == pb::Phase::Finished)
    });
    let game_id = me.game().view().game_id.clone();
    me.click("Replay this game");
    me.wait_for("the replay", |app| app.replay.is_some());
    assert!(
        me.shows_containing("Fair: every check below holds."),
        "a real game checks out"
    );

    let runtime = runtime();
    let truth = history(&runtime, &server.url, &game_id);
    let replay = me.app().replay.as_ref().expect("replay");
    assert_eq!(replay.history.events.len(), truth.events.len());
    assert_eq!(replay.step, truth.events.len() - 1, "it opens at the end");
    let ruleset = replay.ruleset.clone();
    let names = Names::new(&ruleset);
    // The step of my move: its destination shows the piece the history puts there.
    let mine = truth
        .events
        .iter()
        .position(|e| e.r#type() == pb::EventType::Move && e.seat == Some(0))
        .expect("my move");
    let to = match truth.events[mine]
        .r#move
        .as_ref()
        .and_then(|m| m.action.as_ref())
    {
        Some(pb::r#move::Action::Step(step)) => step.to.expect("a destination"),
        other => panic!("a step, not {other:?}"),
    };
    let piece = truth.positions[mine]
        .pieces
        .iter()
        .find(|p| p.cell == Some(to))
        .expect("the moved piece")
        .clone();
    let cell = names.label(Some(&to));
    me.click("|< Start");
    assert_eq!(me.app().replay.as_ref().expect("replay").step, 0);
    for _ in 0..mine {
        me.harness.key_press(egui::Key::ArrowRight);
        me.harness.step();
    }
    assert_eq!(me.app().replay.as_ref().expect("replay").step, mine);
    let kind = names.kind_name(&piece.kind);
    assert!(
        me.cell_label(&cell).contains(&kind),
        "{}",
        me.cell_label(&cell)
    );
    // As the opponent saw it then, the piece was hidden unless revealed.
    me.click("as Azul saw it");
    assert_eq!(
        me.app().replay.as_ref().expect("replay").side,
        Side::Seat(1)
    );
    let label = me.cell_label(&cell);
    assert_eq!(label.contains(&kind), piece.revealed, "{label}");
    me.click("End >|");
    assert_eq!(
        me.app().replay.as_ref().expect("replay").step,
        truth.events.len() - 1
    );
    me.click("Return to live");
    me.wait_for("the game again", |app| {
        app.replay.is_none() && app.game.is_some()
    });
}

/// A tanques game two random bots played to its end.
fn played_by_bots(runtime: &tokio::runtime::Runtime, url: &str) -> String {
    let game = runtime.block_on(async {
        let client = trinchera_client::Server::connect(url, &Default::default())
            .await
            .expect("connects");
        let created = client
            .create(pb::CreateGameRequest {
                ruleset: "tanques".into(),
                bot: "random".into(),
                creator_bot: "random".into(),
                ..Default::default()
            })
            .await
            .expect("created");
        created.view.expect("view").game_id
    });
    eventually("the bots' game to end", || {
        // Each look replays the whole game on the server: a few a second are enough.
        std::thread::sleep(Duration::from_millis(50));
        history(runtime, url, &game).reveal.is_some()
    });
    game
}

#[test]
fn a_history_file_replays_and_one_altered_die_is_not_fair() {
    let server = Server::start();
    let runtime = runtime();
    // Two bots play tanques to the end: dice are rolled in the attacks (random bots may
    // never attack; then another game).
    let game = std::iter::repeat_with(|| played_by_bots(&runtime, &server.url))
        .take(5)
        .find(|game| {
            history(&runtime, &server.url, game)
                .events
                .iter()
                .flat_map(|e| &e.effects)
                .any(|e| matches!(e.effect, Some(pb::effect::Effect::Dice(_))))
        })
        .expect("the bots attacked in one of five games");
    let (history, ruleset) = runtime.block_on(async {
        let client = trinchera_client::Server::connect(&server.url, &Default::default())
            .await
            .expect("connects");
        let history = client.history(&game, None, true).await.expect("history");
        let ruleset = client.ruleset("tanques").await.expect("ruleset");
        (history, ruleset)
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, history: &pb::GetHistoryResponse| {
        let path = dir.path().join(name);
        let doc = trinchera_client::json::history_document(history, &ruleset).expect("doc");
        std::fs::write(&path, doc.to_string()).expect("writes");
        path.display().to_string()
    };
    let honest = write("honest.json", &history);
    let mut altered = history.clone();
    let die = altered
        .events
        .iter_mut()
        .flat_map(|e| e.effects.iter_mut())
        .find_map(|e| match &mut e.effect {
            Some(pb::effect::Effect::Dice(dice)) => Some(dice),
            _ => None,
        })
        .expect("a die was rolled");
    die.roll = die.roll % 6 + 1;
    let altered = write("altered.json", &altered);

    let mut me = Window::lobby(&server);
    me.app_mut().lobby.history_file = honest;
    me.click("Open replay");
    me.wait_for("the replay", |app| app.replay.is_some());
    assert!(me.shows_containing("Fair: every check below holds."));
    let steps = me
        .app()
        .replay
        .as_ref()
        .expect("replay")
        .history
        .events
        .len();
    assert_eq!(steps, history.events.len());
    me.click("Close the replay");
    me.app_mut().lobby.history_file = altered;
    me.click("Open replay");
    me.wait_for("the replay", |app| app.replay.is_some());
    assert!(
        me.shows_containing("NOT fair:"),
        "the altered die is caught"
    );
    assert!(me.shows_containing("but the seed gives"));
    // Not a history file at all: said so, nothing opens.
    me.click("Close the replay");
    let other = dir.path().join("other.json");
    std::fs::write(&other, "{\"game_id\": \"1\"}").expect("writes");
    me.app_mut().lobby.history_file = other.display().to_string();
    me.click("Open replay");
    assert!(me.app().replay.is_none());
    assert!(
        me.app()
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("is not a history file"))
    );
}

#[test]
fn in_a_replay_f2_shows_the_rules_and_esc_closes_the_window_on_top_first() {
    let server = Server::start();
    let game = server.resigned_game();
    let mut me = Window::open(&server.url, Some(OpenAtStart::Replay(game)));
    me.wait_for("the replay", |app| app.replay.is_some());
    let press = |me: &mut Window, key| {
        me.harness.key_press(key);
        me.harness.step();
        me.harness.step();
    };
    press(&mut me, egui::Key::F2);
    assert!(
        me.shows("Pieces"),
        "F2 shows the rules of the replayed game"
    );
    press(&mut me, egui::Key::F1);
    assert!(me.shows("Keyboard shortcuts"));
    press(&mut me, egui::Key::Escape);
    assert!(!me.shows("Keyboard shortcuts"), "Esc closes the help first");
    assert!(me.shows("Pieces") && me.app().replay.is_some());
    press(&mut me, egui::Key::Escape);
    assert!(!me.shows("Pieces"), "then the rules");
    assert!(me.app().replay.is_some(), "the replay stays under them");
    press(&mut me, egui::Key::Escape);
    assert!(me.app().replay.is_none(), "then the replay");
}

#[test]
fn the_move_list_scrolls_to_the_step_shown() {
    let server = Server::start();
    let runtime = runtime();
    let game = played_by_bots(&runtime, &server.url);
    let versions: Vec<u64> = history(&runtime, &server.url, &game)
        .events
        .iter()
        .map(|e| e.version)
        .collect();
    assert!(versions.len() > 40, "longer than the list is high");
    let row = |me: &Window, version: u64| {
        let number = format!("{version}. ");
        me.harness
            .query_by(|node| node.label().is_some_and(|l| l.starts_with(&number)))
            .is_some()
    };
    let (first, last) = (versions[0], versions[versions.len() - 1]);
    let mut me = Window::open(&server.url, Some(OpenAtStart::Replay(game)));
    me.wait_for("the replay", |app| app.replay.is_some());
    // It opens at the end, and so does the list.
    assert!(row(&me, last) && !row(&me, first));
    me.harness.key_press(egui::Key::Home);
    me.harness.step();
    me.harness.step();
    assert!(row(&me, first) && !row(&me, last));
}
