//! One open game: its board, whose turn it is, the setup tray, the actions of the turn, the
//! events in words, and resigning. The board follows `WatchGame`; every action offered
//! comes from `GameView.legal_moves`.

use std::time::Instant;

use eframe::egui::{self, Key, Panel, RichText, Ui};
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

use crate::app::{App, seat_line};
use crate::backend::Request;
use crate::board::{BoardModel, DraggedKind, Scene, Selection, board_ui};
use crate::moves::{self, Pending};
use crate::palette;
use crate::setup::Draft;

/// How long the last move flashes, in seconds.
const FLASH: f32 = 0.9;

/// The state of the open game.
#[derive(Clone, Debug)]
pub struct GameScreen {
    /// Its ruleset.
    pub ruleset: pb::Ruleset,
    /// The seat played from here; `None` for a spectator.
    pub seat: Option<i32>,
    /// The seat's token.
    token: Option<String>,
    /// The game as this viewer sees it now.
    pub view: pb::GameView,
    /// Every event so far, in words.
    pub log: Vec<String>,
    /// The version of the last event in `log`.
    logged: u64,
    /// What is picked of the next action.
    pub pending: Pending,
    /// The setup being put together.
    pub draft: Draft,
    /// The problems of the last refused setup.
    pub problems: Vec<String>,
    /// Whether the resign confirmation is showing.
    pub confirm_resign: bool,
    /// Why the live stream broke, while it is resuming.
    pub stream_lost: Option<String>,
    /// Whether an action is on its way (no second one until it is answered).
    pub in_flight: bool,
    /// The last die rolled.
    pub dice: Option<pb::DiceRoll>,
    /// Whether a new move is to flash from the next frame on.
    flash_new: bool,
    /// Board clicks.
    selection: Selection,
    /// When `view` arrived: a running clock counts down from here.
    view_at: Instant,
}

impl GameScreen {
    /// The screen of a game just opened, with its history so far.
    pub fn new(
        ruleset: pb::Ruleset,
        seat: Option<i32>,
        token: Option<String>,
        view: pb::GameView,
        history: &[pb::Event],
    ) -> GameScreen {
        let mut screen = GameScreen {
            ruleset,
            seat,
            token,
            logged: 0,
            view,
            log: Vec::new(),
            pending: Pending::Nothing,
            draft: Draft::default(),
            problems: Vec::new(),
            confirm_resign: false,
            stream_lost: None,
            in_flight: false,
            dice: None,
            flash_new: false,
            selection: Selection::default(),
            view_at: Instant::now(),
        };
        screen.draft.kind = screen
            .zone()
            .and_then(|z| z.pieces.first())
            .map(|p| p.kind.clone());
        for event in history {
            screen.log_event(event);
        }
        screen
    }

    /// The viewer's setup zone, if the viewer sets up.
    fn zone(&self) -> Option<&pb::SetupZone> {
        let seat = self.seat?;
        self.ruleset.setup_zones.iter().find(|z| z.seat == seat)
    }

    /// Whether the viewer still has to set up.
    pub fn setting_up(&self) -> bool {
        self.view.phase() == pb::Phase::Setup
            && self.zone().is_some()
            && self
                .view
                .players
                .iter()
                .any(|p| Some(p.seat) == self.seat && !p.setup_done)
    }

    /// Whether the viewer is to act now.
    pub fn my_turn(&self) -> bool {
        self.view.phase() == pb::Phase::Playing
            && self.seat.is_some()
            && self.view.to_move == self.seat
    }

    fn log_event(&mut self, event: &pb::Event) {
        if event.version <= self.logged {
            return;
        }
        let names = Names::new(&self.ruleset);
        self.log.push(words::event(&names, Some(&self.view), event));
        self.logged = event.version;
        for effect in &event.effects {
            if let Some(pb::effect::Effect::Dice(dice)) = &effect.effect {
                self.dice = Some(*dice);
            }
        }
    }

    /// A message of the live stream.
    pub fn watched(&mut self, message: pb::WatchGameResponse) {
        self.stream_lost = None;
        if message.snapshot && message.version > self.logged + 1 && self.logged > 0 {
            self.log
                .push("(Some events were skipped; the board is up to date.)".to_owned());
        }
        if let Some(view) = message.view
            && view.version >= self.view.version
        {
            self.set_view(view);
        }
        if let Some(event) = &message.event {
            self.log_event(event);
        }
    }

    /// The view after an accepted action of ours.
    pub fn accepted(&mut self, view: pb::GameView) {
        self.in_flight = false;
        self.problems.clear();
        if view.version >= self.view.version {
            self.set_view(view);
        }
    }

    fn set_view(&mut self, view: pb::GameView) {
        if view.version != self.view.version {
            self.pending = Pending::Nothing;
            self.confirm_resign = false;
            self.flash_new = true;
        }
        self.view = view;
        self.view_at = Instant::now();
    }

    /// Milliseconds since the view's snapshot (the local clock counts from its arrival).
    fn since_view(&self) -> u64 {
        u64::try_from(self.view_at.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Each seat's time left now, counted down locally from the view's snapshot for the
    /// seat whose clock runs; `None` in a game without a clock. A seat's first turn runs on
    /// no clock (the first-move limit of [`GameScreen::deadline`] applies instead).
    pub fn clocks(&self) -> Option<Vec<u64>> {
        let clock = self.view.clock.as_ref()?;
        let flagging = clock.lapse() == pb::Lapse::TimeForfeit;
        let elapsed = self.since_view();
        Some(
            (0..)
                .zip(&clock.remaining_ms)
                .map(|(seat, &ms)| {
                    if flagging && clock.running == Some(seat) {
                        ms.saturating_sub(elapsed)
                    } else {
                        ms
                    }
                })
                .collect(),
        )
    }

    /// The limit that runs now other than a clock, with the time left: the setups' (missing
    /// ones are made at random) or a first move's (else the game is called off).
    pub fn deadline(&self) -> Option<(pb::Lapse, u64)> {
        let clock = self.view.clock.as_ref()?;
        let lapse = clock.lapse();
        if !matches!(lapse, pb::Lapse::RandomSetup | pb::Lapse::Abort) {
            return None;
        }
        let left = clock.deadline_ms?.saturating_sub(clock.server_time_ms);
        Some((lapse, left.saturating_sub(self.since_view())))
    }

    /// A setup was refused with these problems.
    pub fn refused_setup(&mut self, problems: Vec<String>) {
        self.in_flight = false;
        self.problems = problems;
    }

    /// The request that plays `action` on the version seen.
    fn play(&mut self, action: pb::Move) -> Option<Request> {
        let token = self.token.clone()?;
        self.in_flight = true;
        Some(Request::Move {
            token,
            request: pb::MakeMoveRequest {
                game_id: self.view.game_id.clone(),
                action: Some(pb::make_move_request::Action::Move(action)),
                expected_version: Some(self.view.version),
            },
        })
    }

    /// The request that submits a setup (`random`: the server makes one).
    fn submit(&mut self, random: bool) -> Option<Request> {
        let token = self.token.clone()?;
        self.in_flight = true;
        Some(Request::Setup {
            token,
            request: pb::SubmitSetupRequest {
                game_id: self.view.game_id.clone(),
                placements: if random {
                    Vec::new()
                } else {
                    self.draft.placements()
                },
                random,
            },
        })
    }
}

/// Draws the open game of `app`.
pub fn show(app: &mut App, ui: &mut Ui) {
    let reduce_motion = app.reduce_motion;
    let Some(game) = app.game.as_mut() else {
        return;
    };
    let mut requests = Vec::new();
    Panel::right("game side")
        .resizable(true)
        .default_size(370.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| side(game, ui, &mut requests));
        });
    egui::CentralPanel::default().show(ui, |ui| {
        board(game, ui, reduce_motion, &mut requests);
    });
    for request in requests {
        app.send(request);
    }
}

/// The board, and what a click on it does.
fn board(game: &mut GameScreen, ui: &mut Ui, reduce_motion: bool, requests: &mut Vec<Request>) {
    let names = Names::new(&game.ruleset);
    let setting_up = game.setting_up();
    let mut pieces = game.view.pieces.clone();
    let zone = if setting_up {
        game.zone().cloned()
    } else {
        None
    };
    if let (Some(_), Some(seat)) = (&zone, game.seat) {
        pieces.extend(game.draft.pieces(seat));
    }
    let last: Vec<pb::Cell> = game
        .view
        .last_event
        .as_ref()
        .map(moves::move_cells)
        .unwrap_or_default();
    let marks = if setting_up {
        Default::default()
    } else {
        game.pending.marks(&game.view.legal_moves, &pieces, &last)
    };
    let scene = Scene {
        names: &names,
        pieces: &pieces,
        viewer: game.seat,
        status: game.view.status.as_ref(),
        zone: zone.as_ref(),
    };
    let mut model = BoardModel::new(scene, &marks);
    if !reduce_motion {
        // From 1 when the move arrives down to 0; egui repaints only while it runs.
        let id = egui::Id::unique(("flash", game.view.version));
        if std::mem::take(&mut game.flash_new) {
            ui.ctx().animate_value_with_time(id, 1.0, FLASH);
        }
        model.flash = ui.ctx().animate_value_with_time(id, 0.0, FLASH);
    }
    ui.centered_and_justified(|ui| {
        board_ui(ui, &model, &mut game.selection);
    });
    if let (Some(zone), Some((cell, kind))) = (&zone, game.selection.dropped.take()) {
        game.draft.drop_on(zone, cell, &kind);
    }
    let Some(cell) = game.selection.clicked.take() else {
        return;
    };
    if let Some(zone) = &zone {
        game.draft.click(zone, cell);
    } else if game.my_turn()
        && !game.in_flight
        && let Some(action) = game.pending.click(cell, &game.view.legal_moves)
        && let Some(request) = game.play(action)
    {
        requests.push(request);
    }
}

/// The panel beside the board.
fn side(game: &mut GameScreen, ui: &mut Ui, requests: &mut Vec<Request>) {
    let ruleset = game.ruleset.clone();
    let names = Names::new(&ruleset);
    let view = game.view.clone();
    let title = if view.name.is_empty() {
        ruleset.name.clone()
    } else {
        view.name.clone()
    };
    ui.heading(title);
    ui.label(RichText::new(format!("{} · game {}", ruleset.name, view.game_id)).weak());
    ui.add_space(6.0);
    for seat in [0, 1] {
        let mut line = seat_line(&names, &view, seat);
        if game.seat == Some(seat) {
            line.push_str(" — you");
        }
        if view.to_move == Some(seat) {
            line = format!("» {line} «");
        }
        ui.label(RichText::new(line).color(palette::seat(seat)).strong());
    }
    clocks(game, ui);
    ui.add_space(6.0);
    ui.label(RichText::new(turn_line(game, &names)).size(20.0).strong());
    if game.seat.is_none() {
        ui.label(RichText::new("You are watching as a spectator.").weak());
    }
    if let Some(lost) = &game.stream_lost {
        ui.label(
            RichText::new(format!("Connection lost ({lost}); reconnecting…"))
                .color(palette::LAST_MOVE),
        );
    }
    status(ui, &names, &view, game.dice.as_ref());
    ui.separator();
    if game.setting_up() {
        setup_tray(game, ui, &names, requests);
    } else if game.my_turn() {
        actions(game, ui, &names, requests);
    }
    captured(ui, &names, &view);
    ui.separator();
    ui.label(RichText::new("Events").strong());
    let row_height = ui.text_style_height(&egui::TextStyle::Body);
    egui::ScrollArea::vertical()
        .id_salt("events")
        .max_height(220.0)
        .stick_to_bottom(true)
        .show_rows(ui, row_height, game.log.len(), |ui, rows| {
            for line in &game.log[rows] {
                ui.add(egui::Label::new(line).wrap());
            }
        });
    ui.separator();
    resign(game, ui, requests);
}

/// The clocks of a timed game, one per seat, the running one counting down, and the setup
/// or first-move limit while one runs (repainted only while something counts down, so an
/// idle window stays idle).
fn clocks(game: &GameScreen, ui: &mut Ui) {
    let (Some(clock), Some(left)) = (&game.view.clock, game.clocks()) else {
        return;
    };
    let names = Names::new(&game.ruleset);
    let (control, low_ms) = words::time_control(clock.control.as_ref());
    ui.label(RichText::new(format!("Clock: {control}")).weak());
    let flagging = clock.lapse() == pb::Lapse::TimeForfeit;
    let mut shortest = None;
    ui.horizontal(|ui| {
        for (seat, &ms) in (0..).zip(&left) {
            let running = flagging && clock.running == Some(seat);
            let face = format!("{} {}", names.seat(seat), words::clock_face(ms));
            let mut text = RichText::new(face)
                .monospace()
                .size(18.0)
                .color(palette::seat(seat));
            if running {
                shortest = Some(ms);
                text = text.strong().background_color(palette::CLOCK_RUNNING);
            }
            ui.label(text);
            if running && game.seat == Some(seat) && ms < low_ms {
                ui.label(
                    RichText::new("Low time!")
                        .color(palette::LAST_MOVE)
                        .strong(),
                );
            }
        }
    });
    if let Some((lapse, ms)) = game.deadline() {
        shortest = Some(ms);
        let text = match lapse {
            pb::Lapse::RandomSetup => {
                format!("Setups due in {}, or made at random", words::clock_face(ms))
            }
            _ => format!(
                "First move due in {}, or the game is called off",
                words::clock_face(ms)
            ),
        };
        ui.label(RichText::new(text).color(palette::LAST_MOVE));
    }
    if let Some(ms) = shortest {
        // Tenths show under ten seconds; otherwise once a second is enough.
        let every = if ms < 10_000 { 100 } else { 1000 };
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(every));
    }
}

/// Whose turn it is, or where the game stands, in a few words.
fn turn_line(game: &GameScreen, names: &Names<'_>) -> String {
    let view = &game.view;
    match view.phase() {
        pb::Phase::Waiting => format!("Waiting for a player to join game {}", view.game_id),
        pb::Phase::Setup if game.setting_up() => "Set up your pieces".to_owned(),
        pb::Phase::Setup if game.seat.is_some() => "Waiting for the opponent's setup".to_owned(),
        pb::Phase::Setup => "Both players are setting up".to_owned(),
        pb::Phase::Playing => match view.to_move {
            Some(seat) if Some(seat) == game.seat => "Your turn".to_owned(),
            Some(seat) => format!("{}'s turn", names.seat(seat)),
            None => "Playing".to_owned(),
        },
        pb::Phase::Finished => view
            .result
            .as_ref()
            .map_or_else(|| "Game over".to_owned(), |r| words::result(names, r)),
        pb::Phase::Unspecified => String::new(),
    }
}

/// The ruleset's public state: turn limits, castles, huffable officers, tanques' round.
fn status(ui: &mut Ui, names: &Names<'_>, view: &pb::GameView, dice: Option<&pb::DiceRoll>) {
    match &view.status {
        Some(pb::game_view::Status::Stratego(s)) => {
            ui.label(format!(
                "{} of {} turns without a battle",
                s.turns_without_battle, s.turn_limit
            ));
            for castle in &s.castles {
                ui.label(format!(
                    "Castle {}: {} of 3 turns",
                    names.label(castle.cell.as_ref()),
                    castle.turns
                ));
            }
        }
        Some(pb::game_view::Status::Asalto(s)) => {
            ui.label(format!(
                "{} of {} turns without progress",
                s.turns_without_progress, s.turn_limit
            ));
        }
        Some(pb::game_view::Status::Tanks(s)) => {
            ui.label(
                RichText::new(format!(
                    "Round {} · {} · {} maneuver(s) left",
                    s.round,
                    words::tank_phase(s.phase()),
                    s.maneuvers_left
                ))
                .strong(),
            );
            ui.horizontal(|ui| {
                ui.label("In reserve:");
                for seat in [0, 1] {
                    let count = view
                        .pieces
                        .iter()
                        .filter(|p| p.owner == seat && p.cell.is_none())
                        .count();
                    ui.label(
                        RichText::new(format!("{} {count}", names.seat(seat)))
                            .color(palette::seat(seat)),
                    );
                }
            });
            if let Some(dice) = dice {
                ui.label(
                    RichText::new(format!(
                        "Die: {} · column {} · {}",
                        dice.roll,
                        dice.column,
                        if dice.attacker_wins {
                            "target destroyed"
                        } else {
                            "attack failed"
                        }
                    ))
                    .strong(),
                );
            }
        }
        None => {}
    }
}

/// Pieces out of play per seat.
fn captured(ui: &mut Ui, names: &Names<'_>, view: &pb::GameView) {
    for seat in [0, 1] {
        let lost: Vec<String> = view
            .captured
            .iter()
            .filter(|p| p.owner == seat)
            .map(|p| names.kind_name(&p.kind))
            .collect();
        if !lost.is_empty() {
            ui.label(
                RichText::new(format!("{} lost: {}", names.seat(seat), lost.join(", ")))
                    .color(palette::seat(seat)),
            );
        }
    }
}

/// The tray of pieces to place, and the setup buttons.
fn setup_tray(game: &mut GameScreen, ui: &mut Ui, names: &Names<'_>, requests: &mut Vec<Request>) {
    let Some(zone) = game.zone().cloned() else {
        return;
    };
    ui.label(RichText::new("Your pieces").strong());
    ui.label(
        RichText::new(
            "Pick a kind and click cells of your zone, or drag a kind onto a cell; click a \
             placed piece to take it back.",
        )
        .small(),
    );
    ui.horizontal_wrapped(|ui| {
        for count in &zone.pieces {
            let left = game.draft.left(&zone, &count.kind);
            let kind = names.kind(&count.kind);
            let rank = kind
                .and_then(|k| k.rank)
                .map_or_else(String::new, |r| format!(" {r}"));
            let text = format!("{}{rank} ×{left}", names.kind_name(&count.kind));
            let selected = game.draft.kind.as_deref() == Some(count.kind.as_str());
            let button = egui::Button::selectable(selected, text);
            // Click to take the kind in hand, or drag it onto a cell.
            let response = ui.add_enabled(left > 0, button.sense(egui::Sense::click_and_drag()));
            response.dnd_set_drag_payload(DraggedKind(count.kind.clone()));
            if response.clicked() {
                game.draft.kind = Some(count.kind.clone());
            }
        }
    });
    if game.draft.complete(&zone) {
        ui.label("Every piece is placed: submit when ready.");
    }
    ui.horizontal(|ui| {
        // An incomplete setup may be sent too: the server lists everything missing.
        let ready = !game.draft.placements().is_empty() && !game.in_flight;
        if ui
            .add_enabled(ready, egui::Button::new("Submit setup"))
            .clicked()
            && let Some(request) = game.submit(false)
        {
            requests.push(request);
        }
        if ui
            .add_enabled(!game.in_flight, egui::Button::new("Random setup"))
            .on_hover_text("The server places your pieces at random")
            .clicked()
            && let Some(request) = game.submit(true)
        {
            requests.push(request);
        }
        if ui.button("Clear").clicked() {
            game.draft.clear();
        }
    });
    if !game.problems.is_empty() {
        ui.label(RichText::new("The server refused the setup:").color(palette::seat(0)));
        for problem in &game.problems {
            ui.label(format!("- {problem}"));
        }
    }
}

/// What the player may do now besides clicking the board.
fn actions(game: &mut GameScreen, ui: &mut Ui, names: &Names<'_>, requests: &mut Vec<Request>) {
    let legal = game.view.legal_moves.clone();
    let mut play: Option<pb::Move> = None;
    ui.label(RichText::new("Your move").strong());
    match &game.pending {
        Pending::Nothing => {
            let shape = game.ruleset.board.as_ref().map(pb::Board::shape);
            ui.label(if shape == Some(pb::BoardShape::Hex) {
                "Click a tank to maneuver it, an entry hex to bring one in, or an enemy tank \
                 to attack it."
            } else {
                "Click one of your pieces to see where it may go."
            });
        }
        Pending::Piece { from, path } => {
            let mut text = format!("Selected {}", names.label(Some(from)));
            for landing in path {
                text.push_str(&format!(" × {}", names.label(Some(landing))));
            }
            ui.label(text);
            if let Some(stop) = game.pending.stop_here(&legal)
                && ui.button("Stop here").clicked()
            {
                play = Some(stop);
            }
        }
        Pending::Enter { cell } => {
            ui.label(format!(
                "Enter a tank on {} facing:",
                names.label(Some(cell))
            ));
            ui.horizontal_wrapped(|ui| {
                for (action, facing) in game.pending.entry_facings(&legal) {
                    if ui.button(facing_name(facing)).clicked() {
                        play = Some(action);
                    }
                }
            });
        }
        Pending::Maneuver { from, actions } => {
            ui.label(format!(
                "Maneuver the tank on {}: {}",
                names.label(Some(from)),
                if actions.is_empty() {
                    "(none yet)".to_owned()
                } else {
                    moves::letters(actions)
                }
            ));
            if let Some((next, complete)) = game.pending.maneuver_options(&legal) {
                let mut pushed = None;
                ui.horizontal(|ui| {
                    for (step, text, key) in [
                        (pb::TankAction::Forward, "Forward (F)", Key::F),
                        (pb::TankAction::TurnLeft, "Left (L)", Key::L),
                        (pb::TankAction::TurnRight, "Right (R)", Key::R),
                    ] {
                        let allowed = next.contains(&step);
                        let pressed = allowed && ui.input(|i| i.key_pressed(key));
                        if ui.add_enabled(allowed, egui::Button::new(text)).clicked() || pressed {
                            pushed = Some(step);
                        }
                    }
                });
                if let Some(step) = pushed {
                    game.pending.push_maneuver(step, &legal);
                }
                let confirm = ui.input(|i| i.key_pressed(Key::Enter));
                if let Some(action) = complete
                    && (ui.button("Confirm maneuver").clicked() || confirm)
                {
                    play = Some(action);
                }
            }
        }
        Pending::Attack {
            target, attackers, ..
        } => {
            let attackers: Vec<String> = attackers.iter().map(|c| names.label(Some(c))).collect();
            ui.label(format!(
                "Attack {} with {} (click tanks to add or remove them)",
                names.label(Some(target)),
                if attackers.is_empty() {
                    "nobody yet".to_owned()
                } else {
                    attackers.join(", ")
                }
            ));
            attack_options(game, ui, names);
            if let Some(action) = game.pending.attack(&legal)
                && ui.button("Attack").clicked()
            {
                play = Some(action);
            }
        }
    }
    for (action, officer) in moves::huffs(&legal) {
        if ui
            .button(format!(
                "Huff the officer on {}",
                names.label(Some(&officer))
            ))
            .clicked()
        {
            play = Some(action);
        }
    }
    if let Some(action) = moves::end_phase(&legal)
        && ui.button("End phase").clicked()
    {
        play = Some(action);
    }
    if game.pending != Pending::Nothing
        && (ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(Key::Escape)))
    {
        game.pending = Pending::Nothing;
    }
    egui::CollapsingHeader::new(format!("All legal moves ({})", legal.len()))
        .id_salt("all moves")
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for legal_move in &legal {
                    if ui.small_button(&legal_move.notation).clicked() {
                        play = legal_move.r#move.clone();
                    }
                }
            });
        });
    if let Some(action) = play
        && !game.in_flight
        && let Some(request) = game.play(action)
    {
        requests.push(request);
    }
}

/// Advance and casualty of the attack being put together.
fn attack_options(game: &mut GameScreen, ui: &mut Ui, names: &Names<'_>) {
    let Pending::Attack {
        attackers,
        advance,
        casualty,
        ..
    } = &mut game.pending
    else {
        return;
    };
    let label = |cell: &Option<pb::Cell>, none: &str| {
        cell.as_ref()
            .map_or_else(|| none.to_owned(), |c| names.label(Some(c)))
    };
    ui.horizontal(|ui| {
        let caption = ui.label("If it succeeds, advance:");
        egui::ComboBox::from_id_salt("advance")
            .selected_text(label(advance, "nobody"))
            .show_ui(ui, |ui| {
                ui.selectable_value(advance, None, "nobody");
                for cell in attackers.iter() {
                    ui.selectable_value(advance, Some(*cell), names.label(Some(cell)));
                }
            })
            .response
            .labelled_by(caption.id);
    });
    ui.horizontal(|ui| {
        let caption = ui.label("If it fails, lose:");
        egui::ComboBox::from_id_salt("casualty")
            .selected_text(label(casualty, "the first attacker"))
            .show_ui(ui, |ui| {
                ui.selectable_value(casualty, None, "the first attacker");
                for cell in attackers.iter() {
                    ui.selectable_value(casualty, Some(*cell), names.label(Some(cell)));
                }
            })
            .response
            .labelled_by(caption.id);
    });
}

/// A facing in words.
fn facing_name(facing: pb::Facing) -> &'static str {
    match facing {
        pb::Facing::E => "East",
        pb::Facing::Ne => "North-east",
        pb::Facing::Nw => "North-west",
        pb::Facing::W => "West",
        pb::Facing::Sw => "South-west",
        pb::Facing::Se => "South-east",
        pb::Facing::Unspecified => "?",
    }
}

/// Resigning, with a confirmation.
fn resign(game: &mut GameScreen, ui: &mut Ui, requests: &mut Vec<Request>) {
    let open = matches!(
        game.view.phase(),
        pb::Phase::Setup | pb::Phase::Playing | pb::Phase::Waiting
    );
    let (Some(token), true) = (game.token.clone(), open) else {
        return;
    };
    if !game.confirm_resign {
        if ui.button("Resign…").clicked() {
            game.confirm_resign = true;
        }
        return;
    }
    ui.label(RichText::new("Really resign? The other side wins.").color(palette::seat(0)));
    ui.horizontal(|ui| {
        if ui.button("Yes, resign").clicked() {
            game.confirm_resign = false;
            requests.push(Request::Resign {
                game: game.view.game_id.clone(),
                token,
            });
        }
        if ui.button("No, keep playing").clicked() {
            game.confirm_resign = false;
        }
    });
}
