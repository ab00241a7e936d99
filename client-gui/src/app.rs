//! The application: plain state, the replies of the network thread folded into it, and the
//! screen of the moment (connect, lobby, game).

use std::time::{Duration, Instant};

use eframe::egui::{self, Panel, RichText, Ui};
use trinchera_client::words;
use trinchera_client::{Names, Store};
use trinchera_proto::v1 as pb;

use crate::backend::{Backend, Reply, Request};
use crate::game::GameScreen;
use crate::lobby::Lobby;
use crate::palette;

/// The address used when nothing else is given.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";
/// The eframe storage key of the last server address.
pub const SERVER_KEY: &str = "server";
/// How long to wait before trying an unreachable server again.
const RETRY_AFTER: Duration = Duration::from_secs(3);

/// A game to open as soon as the server answers (`--game`, `--watch`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenAtStart {
    /// The game.
    pub game: String,
    /// As a spectator even if a seat is held here.
    pub spectate: bool,
}

/// How the app starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// The server address.
    pub server: String,
    /// A game to open at once.
    pub open: Option<OpenAtStart>,
    /// The token store.
    pub store: Store,
}

/// The state of the connection.
#[derive(Clone, Debug, PartialEq)]
pub enum Connection {
    /// Waiting for the server to answer.
    Connecting,
    /// Connected.
    Up,
    /// Not connected: the person is choosing a server.
    Idle,
    /// No server answered; trying again at `retry_at`.
    Down {
        /// What went wrong.
        message: String,
        /// When the next attempt starts.
        retry_at: Instant,
    },
}

/// The whole app.
#[derive(Debug)]
pub struct App {
    backend: Backend,
    /// The address being edited on the connect screen.
    pub address: String,
    /// The address connected (or being connected) to.
    pub url: String,
    /// The connection.
    pub connection: Connection,
    /// Every hosted ruleset.
    pub rulesets: Vec<pb::Ruleset>,
    /// The lobby's state.
    pub lobby: Lobby,
    /// The open game.
    pub game: Option<GameScreen>,
    /// The game to open once connected.
    open_at_start: Option<OpenAtStart>,
    /// The last failure, shown until dismissed.
    pub notice: Option<String>,
    /// No flashes or animations.
    pub reduce_motion: bool,
}

impl App {
    /// The app, connecting at once; `ctx` is woken by the network thread.
    pub fn new(ctx: &egui::Context, options: Options) -> App {
        let backend = Backend::start(ctx.clone(), options.store);
        let url = trinchera_client::normalize_url(&options.server);
        backend.send(Request::Connect(url.clone()));
        App {
            backend,
            address: url.clone(),
            url,
            connection: Connection::Connecting,
            rulesets: Vec::new(),
            lobby: Lobby::default(),
            game: None,
            open_at_start: options.open,
            notice: None,
            reduce_motion: false,
        }
    }

    /// Asks the network thread for `request`.
    pub fn send(&self, request: Request) {
        self.backend.send(request);
    }

    /// The ruleset with id `id`.
    pub fn ruleset(&self, id: &str) -> Option<&pb::Ruleset> {
        self.rulesets.iter().find(|r| r.id == id)
    }

    /// Connects to the address on the connect screen.
    pub fn connect(&mut self) {
        self.url = trinchera_client::normalize_url(self.address.trim());
        self.address.clone_from(&self.url);
        self.connection = Connection::Connecting;
        self.game = None;
        self.send(Request::Connect(self.url.clone()));
    }

    /// Opens `game` (as a spectator if `spectate`).
    pub fn open(&mut self, game: &str, spectate: bool) {
        self.send(Request::Open {
            game: game.to_owned(),
            spectate,
        });
    }

    /// Back to the lobby, refreshed.
    pub fn leave_game(&mut self) {
        self.game = None;
        self.send(Request::Leave);
        self.send(self.lobby.request());
    }

    /// Folds the network thread's replies into the state.
    fn apply_replies(&mut self) {
        for reply in self.backend.poll() {
            self.apply(reply);
        }
    }

    fn apply(&mut self, reply: Reply) {
        match reply {
            Reply::Connected { url, rulesets } => {
                if url != self.url {
                    return;
                }
                self.connection = Connection::Up;
                self.rulesets = rulesets;
                self.notice = None;
                if let Some(game) = &mut self.game {
                    // Back after a lost connection: follow the game again from the start.
                    let (id, spectate) = (game.view.game_id.clone(), game.seat.is_none());
                    self.open(&id, spectate);
                } else if let Some(open) = self.open_at_start.take() {
                    self.open(&open.game, open.spectate);
                } else {
                    self.send(self.lobby.request());
                }
            }
            Reply::Unreachable { url, message } => {
                if let Some(game) = &mut self.game {
                    game.in_flight = false;
                }
                if url == self.url {
                    self.connection = Connection::Down {
                        message,
                        retry_at: Instant::now() + RETRY_AFTER,
                    };
                }
            }
            Reply::Games { games, mine } => self.lobby.listed(games, mine),
            Reply::Opened {
                seat,
                token,
                view,
                history,
            } => {
                self.notice = None;
                let Some(ruleset) = self.ruleset(&view.ruleset).cloned() else {
                    self.notice = Some(format!("this server has no ruleset {:?}", view.ruleset));
                    return;
                };
                self.game = Some(GameScreen::new(ruleset, seat, token, view, &history));
            }
            Reply::Watched(message) => {
                if let Some(game) = &mut self.game {
                    game.watched(message);
                }
            }
            Reply::StreamLost(message) => {
                if let Some(game) = &mut self.game {
                    game.stream_lost = Some(message);
                }
            }
            Reply::Accepted(view) => {
                if let Some(game) = &mut self.game {
                    game.accepted(view);
                }
            }
            Reply::SetupRefused(problems) => {
                if let Some(game) = &mut self.game {
                    game.refused_setup(problems);
                }
            }
            Reply::Failed(message) => {
                if let Some(game) = &mut self.game {
                    game.in_flight = false;
                }
                self.notice = Some(message);
            }
        }
    }

    /// Tries an unreachable server again when its time comes; wakes up for the countdown.
    fn retry_when_due(&mut self, ctx: &egui::Context) {
        if let Connection::Down { retry_at, .. } = &self.connection {
            let now = Instant::now();
            if now >= *retry_at {
                self.connection = Connection::Connecting;
                self.send(Request::Connect(self.url.clone()));
            } else {
                ctx.request_repaint_after((*retry_at - now).min(Duration::from_secs(1)));
            }
        }
    }

    /// Draws the app into `ui` (the whole window).
    pub fn show(&mut self, ui: &mut Ui) {
        self.apply_replies();
        let ctx = ui.ctx().clone();
        self.retry_when_due(&ctx);
        self.top_bar(ui);
        let connected = self.connection == Connection::Up;
        if self.game.is_some() {
            crate::game::show(self, ui);
        } else if connected {
            crate::lobby::show(self, ui);
        } else {
            self.connect_screen(ui);
        }
    }

    fn top_bar(&mut self, ui: &mut Ui) {
        Panel::top("top").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(RichText::new("Trinchera").strong());
                let (dot, text) = match &self.connection {
                    Connection::Up => (palette::TARGET, format!("connected to {}", self.url)),
                    Connection::Connecting => {
                        (palette::SELECTED, format!("connecting to {}…", self.url))
                    }
                    Connection::Down { .. } => {
                        (palette::seat(0), format!("no server at {}", self.url))
                    }
                    Connection::Idle => (palette::COORDINATE, "not connected".to_owned()),
                };
                let (spot, _) =
                    ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter().circle_filled(spot.center(), 5.0, dot);
                ui.label(text);
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.checkbox(&mut self.reduce_motion, "Reduce motion");
                    if self.game.is_some() && ui.button("Back to the lobby").clicked() {
                        self.leave_game();
                    }
                    if self.connection == Connection::Up
                        && self.game.is_none()
                        && ui.button("Change server").clicked()
                    {
                        self.connection = Connection::Idle;
                        self.rulesets.clear();
                    }
                });
            });
            if let Some(notice) = self.notice.clone() {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(notice).color(palette::LAST_MOVE));
                    if ui.small_button("Dismiss").clicked() {
                        self.notice = None;
                    }
                });
            }
        });
    }

    fn connect_screen(&mut self, ui: &mut Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(80.0);
                ui.heading("Connect to a Trinchera server");
                ui.add_space(12.0);
                let row = egui::Layout::left_to_right(egui::Align::Center);
                ui.allocate_ui_with_layout(egui::vec2(520.0, 28.0), row, |ui| {
                    let label = ui.label("Server address");
                    let edit = ui
                        .add(egui::TextEdit::singleline(&mut self.address).desired_width(320.0))
                        .labelled_by(label.id);
                    let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    if ui.button("Connect").clicked() || enter {
                        self.connect();
                    }
                });
                ui.add_space(12.0);
                match &self.connection {
                    Connection::Connecting => {
                        ui.label(format!("Connecting to {}…", self.url));
                    }
                    Connection::Down { message, retry_at } => {
                        ui.label(
                            RichText::new("Cannot reach the server.")
                                .color(palette::seat(0))
                                .strong(),
                        );
                        ui.label(RichText::new(message).weak());
                        let left = retry_at.saturating_duration_since(Instant::now()).as_secs() + 1;
                        ui.label(format!("Trying again in {left} s."));
                        if ui.button("Retry now").clicked() {
                            self.connect();
                        }
                        ui.add_space(8.0);
                        ui.label(
                            RichText::new(
                                "Start a local server with: cargo run --release -p \
                                 trinchera-service --bin trinchera-server",
                            )
                            .weak(),
                        );
                    }
                    Connection::Idle | Connection::Up => {}
                }
            });
        });
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        storage.set_string(SERVER_KEY, self.url.clone());
    }
}

/// "Ana (Rojo)" or "Rojo: free seat", for lists and headers.
pub fn seat_line(names: &Names<'_>, view: &pb::GameView, seat: i32) -> String {
    match view.players.iter().find(|p| p.seat == seat) {
        Some(p) if p.joined => {
            let mut text = words::player(names, Some(view), seat);
            if !p.bot.is_empty() {
                text.push_str(&format!(" · bot ({})", p.bot));
            }
            text
        }
        _ => format!("{}: free seat", names.seat(seat)),
    }
}
