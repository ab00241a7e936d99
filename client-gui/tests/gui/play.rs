//! Games played by clicking: against the bot, two windows against each other, a spectator.

use egui_kittest::kittest::Queryable as _;
use trinchera_client::Names;
use trinchera_gui::OpenAtStart;
use trinchera_gui::lobby::{ClockChoice, Opponent};
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::r#move::Action;

use crate::harness::{Server, Window};

/// The labels of the first listed step of `window`'s game, and its notation.
fn first_step(window: &Window) -> (String, String, String) {
    let game = window.game();
    let names = Names::new(game.ruleset());
    game.view()
        .legal_moves
        .iter()
        .find_map(|m| match m.r#move.as_ref()?.action.as_ref()? {
            Action::Step(step) => Some((
                names.label(step.from.as_ref()),
                names.label(step.to.as_ref()),
                m.notation.clone(),
            )),
            _ => None,
        })
        .expect("a step is legal")
}

/// Creates a game without a clock from the lobby's form.
fn create(window: &mut Window, ruleset: &str, seat: i32, opponent: Opponent) {
    create_timed(window, ruleset, seat, opponent, ClockChoice::None);
}

/// Creates a game from the lobby's form.
fn create_timed(
    window: &mut Window,
    ruleset: &str,
    seat: i32,
    opponent: Opponent,
    clock: ClockChoice,
) {
    window.create_game(ruleset, seat, opponent, clock);
}

#[test]
fn a_game_against_the_bot_is_set_up_at_random_and_played_by_clicking() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    create(&mut me, "frente", 0, Opponent::Bot("random".into()));
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    assert!(me.shows("Set up your pieces"));
    // One piece placed by clicking, then submitted: the server lists what is missing.
    let corner = {
        let game = me.game();
        let names = Names::new(game.ruleset());
        names.label(names.zone(0).and_then(|z| z.cells.first()))
    };
    me.click_cell(&corner);
    assert!(
        me.cell_label(&corner).contains("your "),
        "{}",
        me.cell_label(&corner)
    );
    me.click("Submit setup");
    me.wait_for("the refusal", |app| {
        app.game.as_ref().is_some_and(|g| !g.problems().is_empty())
    });
    assert!(me.shows("The server refused the setup:"));
    me.set_up_at_random("Random setup", "Submit setup");
    me.wait_for("my turn", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    assert!(me.shows("Your turn"));
    assert!(
        me.shows("ring: your piece, known to your opponent"),
        "the marks on hidden armies are explained"
    );
    assert_eq!(
        me.idle_repaint_delay(),
        std::time::Duration::MAX,
        "a game without a clock waits for input"
    );

    let (from, to, notation) = first_step(&me);
    let version = me.game().view().version;
    assert!(
        me.cell_label(&from).contains("your"),
        "{}",
        me.cell_label(&from)
    );
    me.click_cell(&from);
    me.click_cell(&to);
    me.wait_for("the bot's reply", |app| {
        app.game
            .as_ref()
            .is_some_and(|g| g.view().version >= version + 2 && g.my_turn())
    });
    let log = me.game().log_text(Default::default()).join("\n");
    assert!(log.contains(&format!("played {notation}")), "{log}");
    assert!(
        log.contains("Azul") && log.matches(" played ").count() >= 2,
        "{log}"
    );
}

#[test]
fn two_windows_play_asalto_each_other_and_a_spectator_follows() {
    let server = Server::start();
    let mut rebels = Window::lobby(&server);
    create(&mut rebels, "asalto", 0, Opponent::Human);
    assert!(rebels.shows(&format!(
        "Waiting for a player to join game {}",
        rebels.game().view().game_id
    )));
    let id = rebels.game().view().game_id.clone();

    let mut officers = Window::lobby(&server);
    officers.wait_for("the waiting game", |app| {
        app.lobby.games.iter().any(|g| g.game_id == id)
    });
    officers.type_into("Your name", "Beto");
    officers.click(&format!("Join game {id}"));
    officers.wait_for("the officers' setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    let log = officers.game().log_text(Default::default()).join("\n");
    assert!(log.contains("Beto (Oficiales) joined."), "{log}");
    let zone: Vec<String> = {
        let game = officers.game();
        let names = Names::new(game.ruleset());
        let zone = names.zone(1).expect("the officers set up");
        zone.cells
            .iter()
            .take(2)
            .map(|c| names.label(Some(c)))
            .collect()
    };
    // Both officers on fortress points: one by clicking the tray and a cell, one dragged.
    assert!(officers.cell_label(&zone[0]).contains("fortress"));
    officers.click("Oficial ×2");
    officers.click_cell(&zone[0]);
    assert!(officers.cell_label(&zone[0]).contains("your Oficial"));
    let submit = officers.rect("Submit setup");
    officers.drag_to_cell("Oficial ×1", &zone[1]);
    assert!(
        officers.cell_label(&zone[1]).contains("your Oficial"),
        "{}",
        officers.cell_label(&zone[1])
    );
    assert!(officers.shows("Every piece is placed: submit when ready."));
    assert_eq!(
        officers.rect("Submit setup"),
        submit,
        "the button stays under the pointer"
    );
    officers.click("Submit setup");

    rebels.wait_for("the rebels' turn", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    let mut spectator = Window::open(
        &server.url,
        Some(OpenAtStart::Game {
            game: id.clone(),
            spectate: true,
        }),
    );
    spectator.wait_for("the game as a spectator", |app| {
        app.game
            .as_ref()
            .is_some_and(|g| g.view().phase() == pb::Phase::Playing)
    });
    assert!(spectator.shows("You are watching as a spectator."));

    let (from, to, notation) = first_step(&rebels);
    let version = rebels.game().view().version;
    rebels.click_cell(&from);
    rebels.click_cell(&to);
    officers.wait_for("the rebels' move", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    assert!(officers.shows("Your turn"));
    let log = officers.game().log_text(Default::default()).join("\n");
    assert!(log.contains(&format!("played {notation}")), "{log}");
    spectator.wait_for("the move, live", |app| {
        app.game
            .as_ref()
            .is_some_and(|g| g.view().version > version)
    });
    assert!(spectator.cell_label(&to).contains("Rebeldes's Rebelde"));
    assert!(spectator.shows("To move: Oficiales"));
}

#[test]
fn tanques_enters_a_tank_by_clicking_an_entry_hex_and_a_facing() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    create(&mut me, "tanques", 0, Opponent::Bot("random".into()));
    me.wait_for("my turn", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    let entry = {
        let game = me.game();
        let names = Names::new(game.ruleset());
        game.view()
            .legal_moves
            .iter()
            .find_map(|m| match m.r#move.as_ref()?.action.as_ref()? {
                Action::Enter(enter) => Some(names.label(enter.cell.as_ref())),
                _ => None,
            })
            .expect("a tank may enter")
    };
    assert!(me.cell_label(&entry).contains("entry of Rojo"));
    me.click_cell(&entry);
    let version = me.game().view().version;
    let facing = [
        "East",
        "North-east",
        "North-west",
        "West",
        "South-west",
        "South-east",
    ]
    .into_iter()
    .find(|f| me.shows(f))
    .expect("a facing is offered");
    me.click(facing);
    me.wait_for("the tank on the board", |app| {
        app.game
            .as_ref()
            .is_some_and(|g| g.view().version > version)
    });
    assert!(
        me.cell_label(&entry).contains("your Tanque"),
        "{}",
        me.cell_label(&entry)
    );
}

/// A clásico game against the bot with its token in `store`, as `trinchera new clasico
/// --bot random` leaves it; resigned at once if `resign`.
fn held_game(server: &Server, store: &trinchera_client::Store, resign: bool) -> String {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let created = runtime
        .block_on(async {
            let client =
                trinchera_client::Server::connect(&server.url, &Default::default()).await?;
            let created = client
                .create(pb::CreateGameRequest {
                    ruleset: "clasico".into(),
                    bot: "random".into(),
                    ..Default::default()
                })
                .await?;
            if resign {
                client
                    .resign(&created.game_id, &created.player_token)
                    .await?;
            }
            Ok::<_, trinchera_client::ClientError>(created)
        })
        .expect("created");
    store
        .update(&server.url, &created.game_id, |record| {
            record
                .tokens
                .insert(created.seat, created.player_token.clone());
            record.ruleset = "clasico".into();
            true
        })
        .expect("stored");
    created.game_id
}

#[test]
fn a_game_started_in_the_cli_is_continued_from_the_lobby() {
    let server = Server::start();
    let config = tempfile::tempdir().expect("temp dir");
    let id = held_game(&server, &trinchera_client::Store::at(config.path()), false);
    let mut gui = Window::with_config(&server.url, None, config);
    gui.wait_for("the lobby with the game", |app| {
        app.lobby.mine.iter().any(|(game, _)| *game == id)
    });
    gui.click(&format!("Continue game {id}"));
    gui.wait_for("the game", |app| app.game.is_some());
    assert_eq!(gui.game().seat(), Some(0));
    assert!(gui.shows("Set up your pieces"));
}

#[test]
fn a_live_clock_counts_down_for_the_seat_to_move() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    let clock = ClockChoice::Live {
        minutes: 10,
        increment: 5,
    };
    create_timed(&mut me, "frente", 0, Opponent::Bot("random".into()), clock);
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    assert!(me.shows("Clock: 10+5"));
    assert!(
        me.shows_containing("or made at random"),
        "the setup limit shows"
    );
    me.set_up_at_random("Random setup", "Submit setup");
    // My first turn runs on no clock, but within the first-move limit.
    me.wait_for("my turn", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    assert!(me.shows_containing("or the game is called off"));
    assert!(me.shows("Rojo 10:00"), "no clock runs on a first turn");
    let (from, to, _) = first_step(&me);
    let version = me.game().view().version;
    me.click_cell(&from);
    me.click_cell(&to);
    me.wait_for("the bot's reply", |app| {
        app.game
            .as_ref()
            .is_some_and(|g| g.view().version >= version + 2 && g.my_turn())
    });
    // From my second turn on my clock runs, down from 10:00.
    me.wait_for("my clock to run down", |app| {
        let left = app.game.as_ref().and_then(|g| g.clocks());
        left.is_some_and(|left| left[0] < 599_000)
    });
    assert!(
        me.shows_containing("Rojo 9:5"),
        "the clock face counts down"
    );
    // The next frame comes when the face changes: within a second, not at once. Just after
    // a change, the next one is nearly a second away: a window that redraws on every
    // frame would ask again within milliseconds.
    let delay = me.idle_repaint_delay();
    assert!(
        delay > std::time::Duration::ZERO && delay <= std::time::Duration::from_secs(1),
        "{delay:?}"
    );
    // Letting that delay pass is the subject: the face changes then, and the next delay
    // starts again from nearly a second.
    std::thread::sleep(delay);
    let after_change = me.idle_repaint_delay();
    assert!(
        after_change > std::time::Duration::from_millis(200)
            && after_change <= std::time::Duration::from_secs(1),
        "{after_change:?}"
    );
    // The form keeps the clock for the next game, and says so beside its button.
    me.click("Back to the lobby");
    me.wait_for("the lobby", |app| app.game.is_none());
    assert!(me.shows_containing("against the bot (random) · clock 10+5"));
}

#[test]
fn finished_games_are_not_offered_to_continue() {
    let server = Server::start();
    let config = tempfile::tempdir().expect("temp dir");
    let store = trinchera_client::Store::at(config.path());
    // Two games held here; the second is resigned.
    let [going, over] = [false, true].map(|resign| held_game(&server, &store, resign));
    let mut gui = Window::with_config(&server.url, None, config);
    gui.wait_for("the lobby with the games", |app| {
        app.lobby.games.iter().any(|g| g.game_id == over)
    });
    assert!(gui.shows(&format!("Continue game {going}")));
    assert!(!gui.shows(&format!("Continue game {over}")), "it is over");
    assert!(gui.shows(&format!("Replay game {over}")));
    let record = store.game(&server.url, &over).expect("reads");
    assert!(record.is_some_and(|r| r.finished), "remembered as over");
}

/// A frente game against the bot at the player's first turn.
fn my_turn_in_frente(server: &Server) -> Window {
    let mut me = Window::lobby(server);
    create(&mut me, "frente", 0, Opponent::Bot("random".into()));
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    me.set_up_at_random("Random setup", "Submit setup");
    me.wait_for("my turn", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    me
}

#[test]
fn a_click_lights_the_piece_and_its_targets_in_the_frame_it_lands_in() {
    let server = Server::start();
    let mut me = my_turn_in_frente(&server);
    let (from, to, _) = first_step(&me);
    let prefix = format!("{from}, ");
    me.harness
        .get_by(move |node| node.label().is_some_and(|l| l.starts_with(&prefix)))
        .click();
    // One frame: under a software renderer each is a good part of a second.
    me.harness.step();
    assert!(
        me.cell_label(&from).ends_with(", selected"),
        "{}",
        me.cell_label(&from)
    );
    assert!(
        me.cell_label(&to).ends_with(", may be picked"),
        "{}",
        me.cell_label(&to)
    );
    assert!(
        me.shows(&format!("Selected {from}")),
        "the panel says so too"
    );
}

#[test]
fn a_piece_that_cannot_move_says_so_when_clicked() {
    let server = Server::start();
    let mut me = my_turn_in_frente(&server);
    let stuck = {
        let game = me.game();
        let names = Names::new(game.ruleset());
        let movers: Vec<pb::Cell> = game
            .view()
            .legal_moves
            .iter()
            .filter_map(|m| match m.r#move.as_ref()?.action.as_ref()? {
                Action::Step(step) => step.from,
                _ => None,
            })
            .collect();
        let piece = game
            .view()
            .pieces
            .iter()
            .find(|p| p.owner == 0 && p.cell.is_some_and(|c| !movers.contains(&c)))
            .expect("a piece of mine that cannot move");
        names.label(piece.cell.as_ref())
    };
    me.click_cell(&stuck);
    assert!(me.shows(&format!("No moves for the piece on {stuck}.")));
    // Another click, and the words go.
    let (from, _, _) = first_step(&me);
    me.click_cell(&from);
    assert!(!me.shows_containing("No moves for the piece"));
}

#[test]
fn a_spectator_of_an_asalto_setup_reads_who_sets_up() {
    let server = Server::start();
    let mut officers = Window::lobby(&server);
    create(&mut officers, "asalto", 1, Opponent::Bot("random".into()));
    officers.wait_for("the officers' setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    let id = officers.game().view().game_id.clone();
    let mut spectator = Window::open(
        &server.url,
        Some(OpenAtStart::Game {
            game: id,
            spectate: true,
        }),
    );
    spectator.wait_for("the game", |app| app.game.is_some());
    assert!(
        spectator.shows("Setting up: Oficiales"),
        "the rebels set nothing up"
    );
    assert!(!spectator.shows("Both players are setting up"));
}
