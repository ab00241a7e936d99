//! One open game. [`GameScreen`] follows it: the view, the events, the setup being edited,
//! the action being picked, what is on its way to the server. It draws the board here and
//! the rest from its widgets: the [`side`] panel, the [`clocks`], the setup [`tray`] and
//! the [`turn`]'s actions. The board follows `WatchGame`; every action offered comes from
//! `GameView.legal_moves`.

mod clocks;
mod events;
mod side;
mod tray;
mod turn;

use web_time::Instant;

use eframe::egui::{self, Panel, Ui};
use trinchera_client::{Names, clock, status};
use trinchera_proto::v1 as pb;

use self::events::Events;
use self::tray::SetupEditor;
use self::turn::Typed;
use crate::action::Action;
use crate::backend::Request;
use crate::board::{self, BoardModel, Scene, Selection, board_ui};
use crate::connection::Connection;
use crate::failure::Failure;
use crate::i18n::{Lang, lang};
use crate::moves::{self, Pending};
use crate::settings::Settings;
use crate::setup::Draft;
use crate::shelf::Shelf;

/// How long the last move flashes, in seconds.
const FLASH: f32 = 0.9;

/// What the screen of a game reads of the app for a frame.
#[derive(Clone, Copy, Debug)]
pub struct Surroundings<'a> {
    /// The player's settings.
    pub settings: Settings,
    /// The saved setups.
    pub shelf: &'a Shelf,
    /// The connection to the server.
    pub connection: &'a Connection,
    /// The server's address.
    pub url: &'a str,
}

/// The state of the open game.
#[derive(Clone, Debug)]
pub struct GameScreen {
    ruleset: pb::Ruleset,
    /// The seat played from here; `None` for a spectator.
    seat: Option<i32>,
    /// The seat's token.
    token: Option<String>,
    /// The game as this viewer sees it now.
    view: pb::GameView,
    /// When `view` arrived: a running clock counts down from here.
    view_at: Instant,
    events: Events,
    /// What is picked of the next action.
    pending: Pending,
    setup: SetupEditor,
    typed: Typed,
    /// Whether the resign confirmation is showing.
    confirm_resign: bool,
    /// Whether an action is on its way (no second one until it is answered).
    in_flight: bool,
    /// Whether a new move is to flash from the next frame on.
    flash_new: bool,
    /// Where drags from the tray go, and the cell under the pointer.
    selection: Selection,
    /// A piece of the player's that was clicked and has no move now (said beside the board).
    stuck: Option<pb::Cell>,
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
        let zone = seat.and_then(|seat| ruleset.setup_zones.iter().find(|z| z.seat == seat));
        GameScreen {
            setup: SetupEditor::new(zone),
            ruleset,
            seat,
            token,
            view,
            view_at: Instant::now(),
            events: Events::of(history),
            pending: Pending::Nothing,
            typed: Typed::default(),
            confirm_resign: false,
            in_flight: false,
            flash_new: false,
            selection: Selection::default(),
            stuck: None,
        }
    }

    /// The same game opened again (after a lost connection): the view and the events
    /// anew, what the player was putting together kept.
    pub fn reopened(&mut self, view: pb::GameView, history: &[pb::Event]) {
        self.events = Events::of(history);
        self.in_flight = false;
        self.set_view(view);
    }

    /// The game's ruleset.
    pub fn ruleset(&self) -> &pb::Ruleset {
        &self.ruleset
    }

    /// The seat played from here; `None` for a spectator.
    pub fn seat(&self) -> Option<i32> {
        self.seat
    }

    /// The game as this viewer sees it now.
    pub fn view(&self) -> &pb::GameView {
        &self.view
    }

    /// The setup being edited.
    pub fn draft(&self) -> &Draft {
        &self.setup.draft
    }

    /// The problems the server named in the last refused setup.
    pub fn problems(&self) -> &[String] {
        self.setup.server_problems()
    }

    /// Every line of the events list in `lang`.
    pub fn log_text(&self, lang: Lang) -> Vec<String> {
        self.events
            .text(lang, &Names::new(&self.ruleset), &self.view)
    }

    /// The viewer's setup zone, if the viewer sets up.
    pub fn zone(&self) -> Option<&pb::SetupZone> {
        let seat = self.seat?;
        self.ruleset.setup_zones.iter().find(|z| z.seat == seat)
    }

    /// Whether the viewer still has to set up.
    pub fn setting_up(&self) -> bool {
        status::setting_up(&Names::new(&self.ruleset), &self.view)
    }

    /// Whether the viewer is to act now.
    pub fn my_turn(&self) -> bool {
        self.view.phase() == pb::Phase::Playing
            && self.seat.is_some()
            && self.view.to_move == self.seat
    }

    /// A message of the live stream.
    pub fn watched(&mut self, message: pb::WatchGameResponse) {
        if message.snapshot {
            self.events.snapshot(message.version);
        }
        if let Some(view) = message.view
            && view.version >= self.view.version
        {
            self.set_view(view);
        }
        if let Some(event) = &message.event {
            self.events.push(event);
        }
    }

    /// The view after an accepted action of ours.
    pub fn accepted(&mut self, view: pb::GameView) {
        self.in_flight = false;
        if std::mem::take(&mut self.typed.in_flight) {
            self.typed.text.clear();
            self.typed.refusal = None;
        }
        self.setup.accepted();
        if view.version >= self.view.version {
            self.set_view(view);
        }
    }

    /// A setup the server made arrived: it goes on the board to adjust.
    pub fn suggested(&mut self, placements: &[pb::Placement]) {
        self.in_flight = false;
        if let Some(zone) = self.zone().cloned() {
            self.setup.draft.load(&zone, placements);
        }
    }

    /// A setup was refused with these problems.
    pub fn refused_setup(&mut self, problems: Vec<String>) {
        self.in_flight = false;
        let sent = self.setup.draft.tray().clone();
        self.setup.refused(sent, problems);
    }

    /// A request failed: a typed move's refusal stays beside the box; `false` if the
    /// failure is not the typed move's.
    pub fn failed(&mut self, failure: &Failure) -> bool {
        self.in_flight = false;
        if std::mem::take(&mut self.typed.in_flight) {
            self.typed.refusal = Some(failure.clone());
            return true;
        }
        false
    }

    /// The server is gone: nothing is on its way any more.
    pub fn lost_server(&mut self) {
        self.in_flight = false;
        self.typed.in_flight = false;
    }

    fn set_view(&mut self, view: pb::GameView) {
        if view.version != self.view.version {
            self.pending = Pending::Nothing;
            self.stuck = None;
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

    /// Each seat's time left now, counted down locally from the view's snapshot
    /// ([`clock::time_left`]); `None` in a game without a clock.
    pub fn clocks(&self) -> Option<Vec<u64>> {
        let clock = self.view.clock.as_ref()?;
        Some(clock::time_left(clock, self.since_view()))
    }

    /// The limit that runs now other than a clock, with the time left ([`clock::deadline`]).
    pub fn deadline(&self) -> Option<(pb::Lapse, u64)> {
        clock::deadline(self.view.clock.as_ref()?, self.since_view())
    }

    /// The request that plays `action` on the version seen.
    fn play(&mut self, action: pb::Move) -> Option<Request> {
        self.act(pb::make_move_request::Action::Move(action))
    }

    /// The request that plays the move typed in notation.
    fn play_typed(&mut self) -> Option<Request> {
        let notation = trinchera_client::notation::typed(self.typed.text.trim());
        if notation.is_empty() {
            return None;
        }
        let request = self.act(pb::make_move_request::Action::Notation(notation))?;
        self.typed.in_flight = true;
        self.typed.refusal = None;
        Some(request)
    }

    /// The request that acts on the version seen.
    fn act(&mut self, action: pb::make_move_request::Action) -> Option<Request> {
        let token = self.token.clone()?;
        self.in_flight = true;
        Some(Request::Move {
            token,
            request: pb::MakeMoveRequest {
                game_id: self.view.game_id.clone(),
                action: Some(action),
                expected_version: Some(self.view.version),
                ..Default::default()
            },
        })
    }

    /// The request that submits the setup on the board.
    fn submit(&mut self) -> Option<Request> {
        let token = self.token.clone()?;
        self.in_flight = true;
        Some(Request::Setup {
            token,
            request: pb::SubmitSetupRequest {
                game_id: self.view.game_id.clone(),
                placements: self.setup.draft.tray().placements(),
                random: false,
            },
        })
    }

    /// The request for a setup made by the server, around the pieces placed if `keep`.
    fn suggest(&mut self, keep: bool) -> Option<Request> {
        let token = self.token.clone()?;
        self.in_flight = true;
        Some(Request::Suggest {
            game: self.view.game_id.clone(),
            token,
            keep: if keep {
                self.setup.draft.tray().placements()
            } else {
                Vec::new()
            },
        })
    }

    /// Draws the game: the panel beside the board, then the board. A click on the board is
    /// taken first (egui tells it from the last frame's places at the start of a frame), so
    /// that what it changes shows in this very frame, on the board and beside it: under a
    /// software renderer a frame is a good part of a second.
    pub fn ui(&mut self, ui: &mut Ui, around: &Surroundings<'_>) -> Vec<Action> {
        let mut actions = Vec::new();
        let cells = self.ruleset.board.iter().flat_map(|board| &board.cells);
        if let Some(cell) = board::clicked(ui.ctx(), cells) {
            actions.extend(self.click(cell));
        }
        let panel = Panel::right("game side");
        crate::layout::side_panel(ui, panel, 370.0, |ui| {
            actions.extend(side::ui(self, ui, around));
        });
        egui::CentralPanel::default().show(ui, |ui| {
            self.board(ui, around.settings);
        });
        actions
    }

    /// The board, and where a piece dragged from the setup tray is dropped.
    fn board(&mut self, ui: &mut Ui, settings: Settings) {
        let names = Names::new(&self.ruleset);
        let setting_up = self.setting_up();
        let mut pieces = self.view.pieces.clone();
        let zone = if setting_up {
            self.zone().cloned()
        } else {
            None
        };
        if let (Some(_), Some(seat)) = (&zone, self.seat) {
            pieces.extend(self.setup.draft.tray().board_pieces(seat));
        }
        let last: Vec<pb::Cell> = self
            .view
            .last_event
            .as_ref()
            .map(moves::move_cells)
            .unwrap_or_default();
        let marks = if setting_up {
            Default::default()
        } else {
            self.pending.marks(&self.view.legal_moves, &pieces, &last)
        };
        let scene = Scene {
            names: &names,
            pieces: &pieces,
            viewer: self.seat,
            status: self.view.status.as_ref(),
            zone: zone.as_ref(),
            look: settings.look,
        };
        let mut model = BoardModel::new(lang(ui), scene, &marks);
        if !settings.reduce_motion {
            // From 1 when the move arrives down to 0; egui repaints only while it runs.
            let id = egui::Id::unique(("flash", self.view.version));
            if std::mem::take(&mut self.flash_new) {
                ui.ctx().animate_value_with_time(id, 1.0, FLASH);
            }
            model.flash = ui.ctx().animate_value_with_time(id, 0.0, FLASH);
        }
        ui.centered_and_justified(|ui| {
            board_ui(ui, &model, &mut self.selection);
        });
        if let (Some(zone), Some((cell, kind))) = (&zone, self.selection.dropped.take()) {
            self.setup.draft.drop_on(zone, cell, &kind);
        }
    }

    /// What a click on `cell` of the board does: places or takes back a piece of the setup,
    /// picks a piece or a target, plays the action it completes, or says that the player's
    /// piece clicked has no move.
    fn click(&mut self, cell: pb::Cell) -> Option<Action> {
        self.stuck = None;
        if self.setting_up() {
            if let Some(zone) = self.zone().cloned() {
                self.setup.draft.click(&zone, cell);
            }
            return None;
        }
        if !self.my_turn() || self.in_flight {
            return None;
        }
        let picked = self.pending.selected();
        let action = self.pending.click(cell, &self.view.legal_moves);
        let own = self
            .view
            .pieces
            .iter()
            .any(|p| p.cell == Some(cell) && Some(p.owner) == self.seat);
        if action.is_none() && self.pending == Pending::Nothing && picked != Some(cell) && own {
            self.stuck = Some(cell);
        }
        self.play(action?).map(Action::Send)
    }
}
