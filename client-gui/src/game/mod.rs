//! One open game. [`GameScreen`] follows it (the [`state`] of the game: the view, the
//! events, what is on its way to the server) and draws the board; its parts own the rest
//! and draw it: the [`side`] panel (with the [`clocks`]), the setup [`tray`] and the
//! [`turn`]'s actions. What a part wants done comes back as a [`command`] that the screen
//! applies. The board follows `WatchGame`; every action offered comes from
//! `GameView.legal_moves`.

mod clocks;
mod command;
mod events;
mod side;
mod state;
mod tray;
mod turn;

use eframe::egui::{self, Panel, Ui};
use trinchera_client::Names;
use trinchera_proto::v1 as pb;

use self::command::Command;
use self::events::Events;
use self::side::Side;
use self::state::Game;
use self::tray::SetupEditor;
use self::turn::Turn;
use crate::action::Action;
use crate::board::{self, BoardModel, Scene, Selection, board_ui};
use crate::connection::Connection;
use crate::failure::Failure;
use crate::i18n::{Lang, lang};
use crate::moves;
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
    /// The game as followed from the server.
    game: Game,
    /// The panel beside the board.
    side: Side,
    /// The setup being edited.
    tray: SetupEditor,
    /// What is picked of the next action, and the move typed.
    turn: Turn,
    /// Whether a new move is to flash from the next frame on.
    flash_new: bool,
    /// Where drags from the tray go, and the cell under the pointer.
    selection: Selection,
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
        let game = Game::new(ruleset, seat, token, view, history);
        GameScreen {
            tray: SetupEditor::new(game.zone()),
            game,
            side: Side::default(),
            turn: Turn::default(),
            flash_new: false,
            selection: Selection::default(),
        }
    }

    /// The same game opened again (after a lost connection): the view and the events
    /// anew, what the player was putting together kept.
    pub fn reopened(&mut self, view: pb::GameView, history: &[pb::Event]) {
        self.game.events = Events::of(history);
        self.game.in_flight = false;
        self.set_view(view);
    }

    /// The game's ruleset.
    pub fn ruleset(&self) -> &pb::Ruleset {
        &self.game.ruleset
    }

    /// The seat played from here; `None` for a spectator.
    pub fn seat(&self) -> Option<i32> {
        self.game.seat
    }

    /// The game as this viewer sees it now.
    pub fn view(&self) -> &pb::GameView {
        &self.game.view
    }

    /// The setup being edited.
    pub fn draft(&self) -> &Draft {
        self.tray.draft()
    }

    /// The problems the server named in the last refused setup.
    pub fn problems(&self) -> &[String] {
        self.tray.server_problems()
    }

    /// Every line of the events list in `lang`.
    pub fn log_text(&self, lang: Lang) -> Vec<String> {
        let game = &self.game;
        game.events
            .text(lang, &Names::new(&game.ruleset), &game.view)
    }

    /// The viewer's setup zone, if the viewer sets up.
    pub fn zone(&self) -> Option<&pb::SetupZone> {
        self.game.zone()
    }

    /// Whether the viewer still has to set up.
    pub fn setting_up(&self) -> bool {
        self.game.setting_up()
    }

    /// Whether the viewer is to act now.
    pub fn my_turn(&self) -> bool {
        self.game.my_turn()
    }

    /// Each seat's time left now, counted down locally from the view's snapshot
    /// ([`clock::time_left`](trinchera_client::clock::time_left)); `None` in a game without
    /// a clock.
    pub fn clocks(&self) -> Option<Vec<u64>> {
        self.game.clocks()
    }

    /// A message of the live stream.
    pub fn watched(&mut self, message: pb::WatchGameResponse) {
        if message.snapshot {
            self.game.events.snapshot(message.version);
        }
        if let Some(view) = message.view
            && view.version >= self.game.view.version
        {
            self.set_view(view);
        }
        if let Some(event) = &message.event {
            self.game.events.push(event);
        }
    }

    /// The view after an accepted action of ours.
    pub fn accepted(&mut self, view: pb::GameView) {
        self.game.in_flight = false;
        self.turn.accepted();
        self.tray.accepted();
        if view.version >= self.game.view.version {
            self.set_view(view);
        }
    }

    /// A setup the server made arrived: it goes on the board to adjust.
    pub fn suggested(&mut self, placements: &[pb::Placement]) {
        self.game.in_flight = false;
        if let Some(zone) = self.game.zone() {
            self.tray.suggested(zone, placements);
        }
    }

    /// A setup was refused with these problems.
    pub fn refused_setup(&mut self, problems: Vec<String>) {
        self.game.in_flight = false;
        self.tray.refused(problems);
    }

    /// A request failed: a typed move's refusal stays beside the box; `false` if the
    /// failure is not the typed move's.
    pub fn failed(&mut self, failure: &Failure) -> bool {
        self.game.in_flight = false;
        self.turn.failed(failure)
    }

    /// The server is gone: nothing is on its way any more.
    pub fn lost_server(&mut self) {
        self.game.in_flight = false;
        self.turn.lost_server();
    }

    fn set_view(&mut self, view: pb::GameView) {
        if self.game.set_view(view) {
            self.turn.moved_on();
            self.side.moved_on();
            self.flash_new = true;
        }
    }

    /// What the app is to do for `command` of a part of the screen. Nothing is played,
    /// submitted or asked for while an action is on its way; a resignation goes anyway.
    fn apply(&mut self, command: Command) -> Option<Action> {
        let game = &mut self.game;
        let request = match command {
            Command::App(action) => return Some(action),
            Command::Resign => game.resign(),
            _ if game.in_flight => None,
            Command::Play(action) => game.act(pb::make_move_request::Action::Move(action)),
            Command::PlayTyped(notation) => {
                let request = game.act(pb::make_move_request::Action::Notation(notation));
                if request.is_some() {
                    self.turn.typed_sent();
                }
                request
            }
            Command::Submit(placements) => game.submit(placements),
            Command::Suggest(keep) => game.suggest(keep),
        };
        request.map(Action::Send)
    }

    /// Draws the game: the panel beside the board, then the board. A click on the board is
    /// taken first (egui tells it from the last frame's places at the start of a frame), so
    /// that what it changes shows in this very frame, on the board and beside it: under a
    /// software renderer a frame is a good part of a second.
    pub fn ui(&mut self, ui: &mut Ui, around: &Surroundings<'_>) -> Vec<Action> {
        let mut actions = Vec::new();
        let cells = self
            .game
            .ruleset
            .board
            .iter()
            .flat_map(|board| &board.cells);
        if let Some(cell) = board::clicked(ui.ctx(), cells) {
            // Applied at once: what the click plays is on its way as the panel is drawn.
            actions.extend(self.click(cell).and_then(|command| self.apply(command)));
        }
        let mut commands = Vec::new();
        let panel = Panel::right("game side");
        let (game, turn, tray) = (&self.game, &mut self.turn, &mut self.tray);
        crate::layout::side_panel(ui, panel, 370.0, |ui| {
            commands = self.side.ui(ui, game, around, |ui| {
                if game.setting_up() {
                    tray.ui(ui, game, around.shelf)
                } else if game.my_turn() {
                    turn.ui(ui, game)
                } else {
                    Vec::new()
                }
            });
        });
        actions.extend(commands.into_iter().filter_map(|c| self.apply(c)));
        egui::CentralPanel::default().show(ui, |ui| {
            self.board(ui, around.settings);
        });
        actions
    }

    /// The board, and where a piece dragged from the setup tray is dropped.
    fn board(&mut self, ui: &mut Ui, settings: Settings) {
        let game = &self.game;
        let names = Names::new(&game.ruleset);
        let setting_up = game.setting_up();
        let mut pieces = game.view.pieces.clone();
        let zone = if setting_up { game.zone() } else { None };
        if let (Some(_), Some(seat)) = (zone, game.seat) {
            pieces.extend(self.tray.draft().tray().board_pieces(seat));
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
            self.turn
                .pending()
                .marks(&game.view.legal_moves, &pieces, &last)
        };
        let scene = Scene {
            names: &names,
            pieces: &pieces,
            viewer: game.seat,
            status: game.view.status.as_ref(),
            zone,
            look: settings.look,
        };
        let mut model = BoardModel::new(lang(ui), scene, &marks);
        if !settings.reduce_motion {
            // From 1 when the move arrives down to 0; egui repaints only while it runs.
            let id = egui::Id::unique(("flash", game.view.version));
            if std::mem::take(&mut self.flash_new) {
                ui.ctx().animate_value_with_time(id, 1.0, FLASH);
            }
            model.flash = ui.ctx().animate_value_with_time(id, 0.0, FLASH);
        }
        ui.centered_and_justified(|ui| {
            board_ui(ui, &model, &mut self.selection);
        });
        if let (Some(zone), Some((cell, kind))) = (zone, self.selection.dropped.take()) {
            self.tray.drop_on(zone, cell, &kind);
        }
    }

    /// What a click on `cell` of the board does: places or takes back a piece of the setup,
    /// or picks a piece or a target and plays the action it completes (see [`Turn::click`]).
    fn click(&mut self, cell: pb::Cell) -> Option<Command> {
        if self.game.setting_up() {
            if let Some(zone) = self.game.zone() {
                self.tray.click(zone, cell);
            }
            return None;
        }
        self.turn.click(cell, &self.game).map(Command::Play)
    }
}
