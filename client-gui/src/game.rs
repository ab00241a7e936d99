//! One open game: its board, whose turn it is, the setup tray, the actions of the turn, the
//! events in words, and resigning. The board follows `WatchGame`; every action offered
//! comes from `GameView.legal_moves`.

use std::time::Instant;

use eframe::egui::{self, Key, Panel, RichText, Ui};
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

use crate::app::{App, seat_line};
use crate::backend::Request;
use crate::board::{BoardModel, DraggedKind, Look, Scene, Selection, board_ui};
use crate::i18n::{Lang, lang, tr};
use crate::moves::{self, Pending};
use crate::palette;
use crate::setup::Draft;
use crate::shelf::Shelf;
use crate::shelf_ui::{self, ShelfState};

/// How long the last move flashes, in seconds.
const FLASH: f32 = 0.9;

/// A line of the events list.
#[derive(Clone, Debug, PartialEq)]
pub enum LogLine {
    /// An event.
    Event(pb::Event),
    /// The stream skipped events after a break (the board is up to date).
    Skipped,
}

impl LogLine {
    /// The line in words.
    pub fn text(&self, lang: Lang, names: &Names<'_>, view: &pb::GameView) -> String {
        match self {
            LogLine::Event(event) => words::event(lang, names, Some(view), event),
            LogLine::Skipped => tr!(
                lang,
                "(Some events were skipped; the board is up to date.)",
                "(Se saltaron algunos eventos; el tablero está al día.)"
            ),
        }
    }
}

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
    /// Every event so far, told in the window's language when drawn.
    pub log: Vec<LogLine>,
    /// The version of the last event in `log`.
    logged: u64,
    /// What is picked of the next action.
    pub pending: Pending,
    /// The setup being put together.
    pub draft: Draft,
    /// The problems of the last refused setup.
    pub problems: Vec<String>,
    /// The saved-setups panel.
    pub shelf: ShelfState,
    /// Whether the rules window is open.
    pub rules_open: bool,
    /// Whether the resign confirmation is showing.
    pub confirm_resign: bool,
    /// Why the live stream broke, while it is resuming.
    pub stream_lost: Option<String>,
    /// Whether an action is on its way (no second one until it is answered).
    pub in_flight: bool,
    /// A move typed in notation.
    pub typed: String,
    /// Whether the action on its way is the typed one (a refusal is shown beside it).
    pub typed_in_flight: bool,
    /// The server's refusal of the last typed move, as it said it.
    pub typed_refusal: Option<String>,
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
            shelf: ShelfState::default(),
            rules_open: false,
            confirm_resign: false,
            stream_lost: None,
            in_flight: false,
            typed: String::new(),
            typed_in_flight: false,
            typed_refusal: None,
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

    /// Every line of the events list in `lang`.
    pub fn log_text(&self, lang: Lang) -> Vec<String> {
        let names = Names::new(&self.ruleset);
        self.log
            .iter()
            .map(|line| line.text(lang, &names, &self.view))
            .collect()
    }

    /// The viewer's setup zone, if the viewer sets up.
    pub fn zone(&self) -> Option<&pb::SetupZone> {
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
        self.log.push(LogLine::Event(event.clone()));
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
            self.log.push(LogLine::Skipped);
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
        if std::mem::take(&mut self.typed_in_flight) {
            self.typed.clear();
            self.typed_refusal = None;
        }
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

    /// The request that plays the move typed in notation.
    fn play_typed(&mut self) -> Option<Request> {
        let token = self.token.clone()?;
        let notation = trinchera_client::notation::typed(self.typed.trim());
        if notation.is_empty() {
            return None;
        }
        self.in_flight = true;
        self.typed_in_flight = true;
        self.typed_refusal = None;
        Some(Request::Move {
            token,
            request: pb::MakeMoveRequest {
                game_id: self.view.game_id.clone(),
                action: Some(pb::make_move_request::Action::Notation(notation)),
                expected_version: Some(self.view.version),
            },
        })
    }

    /// A request failed: a typed move's refusal stays beside the box; `false` if the
    /// failure is not the typed move's.
    pub fn failed(&mut self, message: &str) -> bool {
        self.in_flight = false;
        if std::mem::take(&mut self.typed_in_flight) {
            self.typed_refusal = Some(message.to_owned());
            return true;
        }
        false
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
    let (reduce_motion, look) = (app.reduce_motion, app.look);
    let shelf = &app.shelf;
    let Some(game) = app.game.as_mut() else {
        return;
    };
    let mut requests = Vec::new();
    Panel::right("game side")
        .resizable(true)
        .default_size(370.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| side(game, ui, shelf, &mut requests));
        });
    egui::CentralPanel::default().show(ui, |ui| {
        board(game, ui, (reduce_motion, look), &mut requests);
    });
    if game.rules_open {
        let lang = lang(ui);
        crate::rules::window(ui.ctx(), lang, &game.ruleset, &mut game.rules_open);
    }
    for request in requests {
        app.send(request);
    }
}

/// The board, and what a click on it does.
fn board(
    game: &mut GameScreen,
    ui: &mut Ui,
    (reduce_motion, look): (bool, Look),
    requests: &mut Vec<Request>,
) {
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
        look,
    };
    let mut model = BoardModel::new(lang(ui), scene, &marks);
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
fn side(game: &mut GameScreen, ui: &mut Ui, shelf: &Shelf, requests: &mut Vec<Request>) {
    let ruleset = game.ruleset.clone();
    let names = Names::new(&ruleset);
    let view = game.view.clone();
    let title = if view.name.is_empty() {
        ruleset.name.clone()
    } else {
        view.name.clone()
    };
    ui.heading(title);
    let lang = lang(ui);
    let (ruleset_name, id) = (&ruleset.name, &view.game_id);
    ui.label(
        RichText::new(tr!(
            lang,
            "{ruleset_name} · game {id}",
            "{ruleset_name} · partida {id}"
        ))
        .weak(),
    );
    ui.add_space(6.0);
    for seat in [0, 1] {
        let mut line = seat_line(lang, &names, &view, seat);
        if game.seat == Some(seat) {
            line.push_str(lang.pick(" — you", " — tú"));
        }
        if view.to_move == Some(seat) {
            line = format!("» {line} «");
        }
        ui.label(RichText::new(line).color(palette::seat(seat)).strong());
    }
    clocks(game, ui);
    ui.add_space(6.0);
    let mut turn = RichText::new(turn_line(lang, game, &names))
        .size(20.0)
        .strong();
    if game.my_turn() || game.setting_up() {
        // A cue without sound: the line lights up while the game waits for this player.
        turn = turn.color(palette::INK).background_color(palette::SELECTED);
    }
    ui.label(turn);
    if game.seat.is_none() {
        ui.label(
            RichText::new(lang.pick(
                "You are watching as a spectator.",
                "Miras la partida como espectador.",
            ))
            .weak(),
        );
    }
    let begun = matches!(view.phase(), pb::Phase::Playing | pb::Phase::Finished);
    ui.horizontal(|ui| {
        let review = if view.phase() == pb::Phase::Finished {
            lang.pick("Replay this game", "Repetir esta partida")
        } else {
            lang.pick("Review the moves so far", "Repasar las jugadas")
        };
        if begun && ui.button(review).clicked() {
            requests.push(Request::Replay {
                game: view.game_id.clone(),
                seat: game.seat,
                live: true,
            });
        }
        if ui.button(lang.pick("Rules", "Reglas")).clicked() {
            game.rules_open = !game.rules_open;
        }
    });
    if let Some(lost) = &game.stream_lost {
        ui.label(
            RichText::new(tr!(
                lang,
                "Connection lost ({lost}); reconnecting…",
                "Conexión perdida ({lost}); reconectando…"
            ))
            .color(palette::LAST_MOVE),
        );
    }
    status(ui, &names, &view, game.dice.as_ref());
    ui.separator();
    if game.setting_up() {
        setup_tray(game, ui, &names, requests);
        ui.separator();
        shelf_ui::show(game, ui, shelf);
    } else if game.my_turn() {
        actions(game, ui, &names, requests);
    }
    captured(ui, &names, &view);
    ui.separator();
    ui.label(RichText::new(lang.pick("Events", "Eventos")).strong());
    let row_height = ui.text_style_height(&egui::TextStyle::Body);
    egui::ScrollArea::vertical()
        .id_salt("events")
        .max_height(220.0)
        .stick_to_bottom(true)
        .show_rows(ui, row_height, game.log.len(), |ui, rows| {
            for line in &game.log[rows] {
                ui.add(egui::Label::new(line.text(lang, &names, &game.view)).wrap());
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
    let lang = lang(ui);
    let (control, low_ms) = words::time_control(lang, clock.control.as_ref());
    ui.label(RichText::new(tr!(lang, "Clock: {control}", "Reloj: {control}")).weak());
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
                    RichText::new(lang.pick("Low time!", "¡Poco tiempo!"))
                        .color(palette::LAST_MOVE)
                        .strong(),
                );
            }
        }
    });
    if let Some((lapse, ms)) = game.deadline() {
        shortest = Some(ms);
        let left = words::clock_face(ms);
        let text = match lapse {
            pb::Lapse::RandomSetup => tr!(
                lang,
                "Setups due in {left}, or made at random",
                "Colocación en {left}, si no, al azar"
            ),
            _ => tr!(
                lang,
                "First move due in {left}, or the game is called off",
                "Primera jugada en {left}, si no, se anula la partida"
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
fn turn_line(lang: Lang, game: &GameScreen, names: &Names<'_>) -> String {
    let view = &game.view;
    let id = &view.game_id;
    match view.phase() {
        pb::Phase::Waiting => tr!(
            lang,
            "Waiting for a player to join game {id}",
            "Esperando a que alguien se una a la partida {id}"
        ),
        pb::Phase::Setup if game.setting_up() => {
            tr!(lang, "Set up your pieces", "Coloca tus piezas")
        }
        pb::Phase::Setup if game.seat.is_some() => tr!(
            lang,
            "Waiting for the opponent's setup",
            "Esperando la colocación del rival"
        ),
        pb::Phase::Setup => tr!(
            lang,
            "Both players are setting up",
            "Los dos jugadores están colocando"
        ),
        pb::Phase::Playing => match view.to_move {
            Some(seat) if Some(seat) == game.seat => tr!(lang, "Your turn", "Te toca"),
            Some(seat) => {
                let seat = names.seat(seat);
                tr!(lang, "To move: {seat}", "Juega: {seat}")
            }
            None => tr!(lang, "Playing", "En juego"),
        },
        pb::Phase::Finished => view.result.as_ref().map_or_else(
            || tr!(lang, "Game over", "Fin de la partida"),
            |r| words::result(lang, names, r),
        ),
        pb::Phase::Unspecified => String::new(),
    }
}

/// The ruleset's public state: turn limits, castles, huffable officers, tanques' round.
pub fn status(ui: &mut Ui, names: &Names<'_>, view: &pb::GameView, dice: Option<&pb::DiceRoll>) {
    let lang = lang(ui);
    match &view.status {
        Some(pb::game_view::Status::Stratego(s)) => {
            let (quiet, limit) = (s.turns_without_battle, s.turn_limit);
            ui.label(tr!(
                lang,
                "{quiet} of {limit} turns without a battle",
                "{quiet} de {limit} turnos sin combate"
            ));
            for castle in &s.castles {
                let (at, turns) = (names.label(castle.cell.as_ref()), castle.turns);
                ui.label(tr!(
                    lang,
                    "Castle {at}: {turns} of 3 turns",
                    "Castillo {at}: {turns} de 3 turnos"
                ));
            }
        }
        Some(pb::game_view::Status::Asalto(s)) => {
            let (quiet, limit) = (s.turns_without_progress, s.turn_limit);
            ui.label(tr!(
                lang,
                "{quiet} of {limit} turns without progress",
                "{quiet} de {limit} turnos sin progreso"
            ));
        }
        Some(pb::game_view::Status::Tanks(s)) => {
            let (round, phase, left) = (
                s.round,
                words::tank_phase(lang, s.phase()),
                s.maneuvers_left,
            );
            ui.label(
                RichText::new(tr!(
                    lang,
                    "Round {round} · {phase} · {left} maneuver(s) left",
                    "Ronda {round} · {phase} · quedan {left} maniobra(s)"
                ))
                .strong(),
            );
            ui.horizontal(|ui| {
                ui.label(lang.pick("Urban hexes held:", "Hexágonos urbanos en poder:"));
                for seat in [0, 1] {
                    let count = s.control.iter().filter(|c| c.seat == Some(seat)).count();
                    ui.label(
                        RichText::new(format!("{} {count}", names.seat(seat)))
                            .color(palette::seat(seat)),
                    );
                }
            });
            ui.horizontal(|ui| {
                ui.label(lang.pick("In reserve:", "En reserva:"));
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
                let (roll, column) = (dice.roll, dice.column);
                let then = if dice.attacker_wins {
                    lang.pick("target destroyed", "objetivo destruido")
                } else {
                    lang.pick("attack failed", "ataque fallido")
                };
                ui.label(
                    RichText::new(tr!(
                        lang,
                        "Die: {roll} · column {column} · {then}",
                        "Dado: {roll} · columna {column} · {then}"
                    ))
                    .strong(),
                );
            }
        }
        None => {}
    }
}

/// Pieces out of play per seat.
pub fn captured(ui: &mut Ui, names: &Names<'_>, view: &pb::GameView) {
    let lang = lang(ui);
    for seat in [0, 1] {
        let lost: Vec<String> = view
            .captured
            .iter()
            .filter(|p| p.owner == seat)
            .map(|p| names.kind_name(&p.kind))
            .collect();
        if !lost.is_empty() {
            let (seat_name, lost) = (names.seat(seat), lost.join(", "));
            ui.label(
                RichText::new(tr!(
                    lang,
                    "{seat_name} lost: {lost}",
                    "{seat_name} perdió: {lost}"
                ))
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
    let lang = lang(ui);
    ui.label(RichText::new(lang.pick("Your pieces", "Tus piezas")).strong());
    ui.label(
        RichText::new(lang.pick(
            "Pick a kind and click cells of your zone, or drag a kind onto a cell; click a \
             placed piece to take it back.",
            "Elige un tipo y pulsa casillas de tu zona, o arrastra un tipo a una casilla; \
             pulsa una pieza colocada para recogerla.",
        ))
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
        ui.label(lang.pick(
            "Every piece is placed: submit when ready.",
            "Todas las piezas están colocadas: envía cuando quieras.",
        ));
    }
    ui.horizontal(|ui| {
        // An incomplete setup may be sent too: the server lists everything missing.
        let ready = !game.draft.placements().is_empty() && !game.in_flight;
        if ui
            .add_enabled(
                ready,
                egui::Button::new(lang.pick("Submit setup", "Enviar colocación")),
            )
            .clicked()
            && let Some(request) = game.submit(false)
        {
            requests.push(request);
        }
        if ui
            .add_enabled(
                !game.in_flight,
                egui::Button::new(lang.pick("Random setup", "Colocación al azar")),
            )
            .on_hover_text(lang.pick(
                "The server places your pieces at random",
                "El servidor coloca tus piezas al azar",
            ))
            .clicked()
            && let Some(request) = game.submit(true)
        {
            requests.push(request);
        }
        if ui.button(lang.pick("Clear", "Vaciar")).clicked() {
            game.draft.clear();
        }
    });
    if !game.problems.is_empty() {
        ui.label(
            RichText::new(lang.pick(
                "The server refused the setup:",
                "El servidor rechazó la colocación:",
            ))
            .color(palette::seat(0)),
        );
        for problem in &game.problems {
            ui.label(format!("- {problem}"));
        }
    }
}

/// What the player may do now besides clicking the board.
fn actions(game: &mut GameScreen, ui: &mut Ui, names: &Names<'_>, requests: &mut Vec<Request>) {
    let legal = game.view.legal_moves.clone();
    let mut play: Option<pb::Move> = None;
    let lang = lang(ui);
    ui.label(RichText::new(lang.pick("Your move", "Tu jugada")).strong());
    match &game.pending {
        Pending::Nothing => {
            let shape = game.ruleset.board.as_ref().map(pb::Board::shape);
            ui.label(if shape == Some(pb::BoardShape::Hex) {
                lang.pick(
                    "Click a tank to maneuver it, an entry hex to bring one in, or an enemy \
                     tank to attack it.",
                    "Pulsa un tanque para maniobrarlo, un hexágono de entrada para meter uno, \
                     o un tanque enemigo para atacarlo.",
                )
            } else {
                lang.pick(
                    "Click one of your pieces to see where it may go.",
                    "Pulsa una de tus piezas para ver adónde puede ir.",
                )
            });
        }
        Pending::Piece { from, path } => {
            let from = names.label(Some(from));
            let mut text = tr!(lang, "Selected {from}", "Elegida {from}");
            for landing in path {
                text.push_str(&format!(" × {}", names.label(Some(landing))));
            }
            ui.label(text);
            if let Some(stop) = game.pending.stop_here(&legal)
                && ui.button(lang.pick("Stop here", "Parar aquí")).clicked()
            {
                play = Some(stop);
            }
        }
        Pending::Enter { cell } => {
            let cell = names.label(Some(cell));
            ui.label(tr!(
                lang,
                "Enter a tank on {cell} facing:",
                "Meter un tanque en {cell} mirando al:"
            ));
            ui.horizontal_wrapped(|ui| {
                for (action, facing) in game.pending.entry_facings(&legal) {
                    if ui.button(facing_name(lang, facing)).clicked() {
                        play = Some(action);
                    }
                }
            });
        }
        Pending::Maneuver { from, actions } => {
            let from = names.label(Some(from));
            let steps = if actions.is_empty() {
                lang.pick("(none yet)", "(ninguna aún)").to_owned()
            } else {
                moves::letters(actions)
            };
            ui.label(tr!(
                lang,
                "Maneuver the tank on {from}: {steps}",
                "Maniobra del tanque de {from}: {steps}"
            ));
            if let Some((next, complete)) = game.pending.maneuver_options(&legal) {
                let mut pushed = None;
                ui.horizontal(|ui| {
                    for (step, text, key) in [
                        (
                            pb::TankAction::Forward,
                            lang.pick("Forward (F)", "Avanzar (F)"),
                            Key::F,
                        ),
                        (
                            pb::TankAction::TurnLeft,
                            lang.pick("Left (L)", "Izquierda (L)"),
                            Key::L,
                        ),
                        (
                            pb::TankAction::TurnRight,
                            lang.pick("Right (R)", "Derecha (R)"),
                            Key::R,
                        ),
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
                    && (ui
                        .button(lang.pick("Confirm maneuver", "Confirmar maniobra"))
                        .clicked()
                        || confirm)
                {
                    play = Some(action);
                }
            }
        }
        Pending::Attack {
            target, attackers, ..
        } => {
            let attackers: Vec<String> = attackers.iter().map(|c| names.label(Some(c))).collect();
            let target = names.label(Some(target));
            let with = if attackers.is_empty() {
                lang.pick("nobody yet", "nadie aún").to_owned()
            } else {
                attackers.join(", ")
            };
            ui.label(tr!(
                lang,
                "Attack {target} with {with} (click tanks to add or remove them)",
                "Atacar {target} con {with} (pulsa tanques para sumarlos o quitarlos)"
            ));
            attack_options(game, ui, names);
            if let Some(action) = game.pending.attack(&legal)
                && ui.button(lang.pick("Attack", "Atacar")).clicked()
            {
                play = Some(action);
            }
        }
    }
    for (action, officer) in moves::huffs(&legal) {
        let officer = names.label(Some(&officer));
        if ui
            .button(tr!(
                lang,
                "Huff the officer on {officer}",
                "Soplar al oficial de {officer}"
            ))
            .clicked()
        {
            play = Some(action);
        }
    }
    if let Some(action) = moves::end_phase(&legal)
        && ui.button(lang.pick("End phase", "Terminar fase")).clicked()
    {
        play = Some(action);
    }
    if game.pending != Pending::Nothing
        && (ui.button(lang.pick("Cancel", "Cancelar")).clicked()
            || ui.input(|i| i.key_pressed(Key::Escape)))
    {
        game.pending = Pending::Nothing;
    }
    notation_box(game, ui, requests);
    let count = legal.len();
    egui::CollapsingHeader::new(tr!(
        lang,
        "All legal moves ({count})",
        "Todas las jugadas legales ({count})"
    ))
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

/// A move typed in notation, for keyboard players; the server's refusal shown as it says it.
fn notation_box(game: &mut GameScreen, ui: &mut Ui, requests: &mut Vec<Request>) {
    let lang = lang(ui);
    let help = game.ruleset.notation_help.clone();
    let mut send = false;
    ui.horizontal(|ui| {
        let label = ui.label(lang.pick("Type a move", "Escribe una jugada"));
        let edit = ui
            .add(
                egui::TextEdit::singleline(&mut game.typed)
                    .id_salt("notation")
                    .hint_text("a4-a5")
                    .desired_width(150.0),
            )
            .labelled_by(label.id)
            .on_hover_text(&help);
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
        let ready = !game.typed.trim().is_empty() && !game.in_flight;
        if (ui
            .add_enabled(ready, egui::Button::new(lang.pick("Play", "Jugar")))
            .clicked()
            || enter)
            && ready
        {
            send = true;
        }
    });
    if send && let Some(request) = game.play_typed() {
        requests.push(request);
    }
    if let Some(refusal) = &game.typed_refusal {
        ui.label(
            RichText::new(tr!(lang, "Refused: {refusal}", "Rechazada: {refusal}"))
                .color(palette::seat(0)),
        );
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
    let lang = lang(ui);
    let label = |cell: &Option<pb::Cell>, none: &str| {
        cell.as_ref()
            .map_or_else(|| none.to_owned(), |c| names.label(Some(c)))
    };
    ui.horizontal(|ui| {
        let caption = ui.label(lang.pick("If it succeeds, advance:", "Si triunfa, avanza:"));
        let nobody = lang.pick("nobody", "nadie");
        egui::ComboBox::from_id_salt("advance")
            .selected_text(label(advance, nobody))
            .show_ui(ui, |ui| {
                ui.selectable_value(advance, None, nobody);
                for cell in attackers.iter() {
                    ui.selectable_value(advance, Some(*cell), names.label(Some(cell)));
                }
            })
            .response
            .labelled_by(caption.id);
    });
    ui.horizontal(|ui| {
        let caption = ui.label(lang.pick("If it fails, lose:", "Si falla, se pierde:"));
        let first = lang.pick("the first attacker", "el primer atacante");
        egui::ComboBox::from_id_salt("casualty")
            .selected_text(label(casualty, first))
            .show_ui(ui, |ui| {
                ui.selectable_value(casualty, None, first);
                for cell in attackers.iter() {
                    ui.selectable_value(casualty, Some(*cell), names.label(Some(cell)));
                }
            })
            .response
            .labelled_by(caption.id);
    });
}

/// A facing in words.
fn facing_name(lang: Lang, facing: pb::Facing) -> &'static str {
    let (en, es) = match facing {
        pb::Facing::E => ("East", "Este"),
        pb::Facing::Ne => ("North-east", "Noreste"),
        pb::Facing::Nw => ("North-west", "Noroeste"),
        pb::Facing::W => ("West", "Oeste"),
        pb::Facing::Sw => ("South-west", "Suroeste"),
        pb::Facing::Se => ("South-east", "Sureste"),
        pb::Facing::Unspecified => ("?", "?"),
    };
    lang.pick(en, es)
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
    let lang = lang(ui);
    if !game.confirm_resign {
        if ui.button(lang.pick("Resign…", "Abandonar…")).clicked() {
            game.confirm_resign = true;
        }
        return;
    }
    ui.label(
        RichText::new(lang.pick(
            "Really resign? The other side wins.",
            "¿Seguro que abandonas? Gana el otro bando.",
        ))
        .color(palette::seat(0)),
    );
    ui.horizontal(|ui| {
        if ui
            .button(lang.pick("Yes, resign", "Sí, abandonar"))
            .clicked()
        {
            game.confirm_resign = false;
            requests.push(Request::Resign {
                game: game.view.game_id.clone(),
                token,
            });
        }
        if ui
            .button(lang.pick("No, keep playing", "No, seguir jugando"))
            .clicked()
        {
            game.confirm_resign = false;
        }
    });
}
