//! The application: plain state, the replies of the network thread folded into it, and the
//! screen of the moment (connect, lobby, game).

use std::time::{Duration, Instant};

use eframe::egui::{self, Panel, RichText, Ui};
use trinchera_client::words;
use trinchera_client::{Names, Store};
use trinchera_proto::v1 as pb;

use crate::backend::{Backend, Reply, Request};
use crate::board::Look;
use crate::game::GameScreen;
use crate::i18n::{Lang, set_lang, tr};
use crate::lobby::Lobby;
use crate::palette;
use crate::replay::{Replay, Source};
use crate::shelf::Shelf;

/// The address used when nothing else is given.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";
/// The eframe storage key of the last server address.
pub const SERVER_KEY: &str = "server";
/// The eframe storage key of the interface language (`en`, `es`).
pub const LANG_KEY: &str = "language";
/// The eframe storage key of the board look (`flipped`, `names`, both or neither, by `,`).
pub const LOOK_KEY: &str = "board look";
/// How long to wait before trying an unreachable server again.
const RETRY_AFTER: Duration = Duration::from_secs(3);

/// What to open as soon as the server answers (`--game`, `--watch`, `--replay`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenAtStart {
    /// A game: as a player of a seat held here, else as a spectator.
    Game {
        /// The game.
        game: String,
        /// As a spectator even if a seat is held here.
        spectate: bool,
    },
    /// The replay of a game.
    Replay(String),
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
    /// The interface language.
    pub lang: Lang,
    /// How boards are drawn.
    pub look: Look,
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
    /// The replay being stepped through (over the open game, if any).
    pub replay: Option<Replay>,
    /// The game to open once connected.
    open_at_start: Option<OpenAtStart>,
    /// The last failure, shown until dismissed.
    pub notice: Option<String>,
    /// No flashes or animations.
    pub reduce_motion: bool,
    /// The interface language.
    pub lang: Lang,
    /// How boards are drawn.
    pub look: Look,
    /// Whether the keyboard help is showing.
    pub help_open: bool,
    /// The window title last set (changed only when it changes).
    title: String,
    /// The saved setups.
    pub shelf: Shelf,
}

impl App {
    /// The app, connecting at once; `ctx` is woken by the network thread.
    pub fn new(ctx: &egui::Context, options: Options) -> App {
        let shelf = Shelf::in_config(options.store.dir());
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
            replay: None,
            open_at_start: options.open,
            notice: None,
            reduce_motion: false,
            lang: options.lang,
            look: options.look,
            help_open: false,
            title: String::new(),
            shelf,
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

    /// Opens a replay of `game` (the side of the seat held here, everything once over).
    pub fn replay(&mut self, game: &str) {
        let (seat, live) = match &self.game {
            Some(open) if open.view.game_id == game => (open.seat, true),
            _ => (None, false),
        };
        self.send(Request::Replay {
            game: game.to_owned(),
            seat,
            live,
        });
    }

    /// Opens a replay of a saved `trinchera --json history` file.
    pub fn replay_file(&mut self, path: &str) {
        let lang = self.lang;
        let read = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| trinchera_client::json::read_history_document(&text));
        let (history, described) = match read {
            Ok(read) => read,
            Err(error) => {
                self.notice = Some(tr!(
                    lang,
                    "{path} is not a history file: {error}",
                    "{path} no es un archivo de historial: {error}"
                ));
                return;
            }
        };
        let Some(ruleset) = described.or_else(|| self.ruleset(&history.ruleset).cloned()) else {
            let id = &history.ruleset;
            self.notice = Some(tr!(
                lang,
                "{path} names the ruleset {id}, which this server does not describe",
                "{path} es del reglamento {id}, que este servidor no describe"
            ));
            return;
        };
        self.notice = None;
        let source = Source::File(path.to_owned());
        self.replay = Some(Replay::new(ruleset, history, None, false, source));
    }

    /// Back to the lobby, refreshed.
    pub fn leave_game(&mut self) {
        self.game = None;
        self.replay = None;
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
                    match open {
                        OpenAtStart::Game { game, spectate } => self.open(&game, spectate),
                        OpenAtStart::Replay(game) => self.replay(&game),
                    }
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
            Reply::Replay {
                history,
                seen,
                live,
            } => {
                let Some(ruleset) = self.ruleset(&history.ruleset).cloned() else {
                    return;
                };
                let id = history
                    .view
                    .as_ref()
                    .map(|v| v.game_id.clone())
                    .unwrap_or_default();
                self.replay = Some(Replay::new(ruleset, *history, seen, live, Source::Game(id)));
            }
            Reply::Failed(message) => {
                let typed = self.game.as_mut().is_some_and(|game| game.failed(&message));
                if !typed {
                    self.notice = Some(message);
                }
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
        set_lang(ui.ctx(), self.lang);
        self.apply_replies();
        let ctx = ui.ctx().clone();
        self.retry_when_due(&ctx);
        self.shortcuts(&ctx);
        self.set_title(&ctx);
        if self.help_open {
            let mut open = true;
            help_window(&ctx, self.lang, &mut open);
            self.help_open = open;
        }
        self.top_bar(ui);
        let connected = self.connection == Connection::Up;
        if self.replay.is_some() {
            crate::replay::show(self, ui);
        } else if self.game.is_some() {
            crate::game::show(self, ui);
        } else if connected {
            crate::lobby::show(self, ui);
        } else {
            self.connect_screen(ui);
        }
    }

    /// The keyboard shortcuts of the whole window (listed by the F1 help).
    fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let pressed = |key| ctx.input(|i| i.key_pressed(key));
        if pressed(egui::Key::F1) {
            self.help_open = !self.help_open;
        }
        if pressed(egui::Key::F4) {
            self.look.flipped = !self.look.flipped;
        }
        if pressed(egui::Key::F6) {
            self.look.names = !self.look.names;
        }
        if let Some(game) = &mut self.game {
            if pressed(egui::Key::F2) {
                game.rules_open = !game.rules_open;
            }
            if pressed(egui::Key::F3) && self.replay.is_none() {
                let id = game.view.game_id.clone();
                self.replay(&id);
            }
        } else if pressed(egui::Key::F5) && self.connection == Connection::Up {
            self.send(self.lobby.request());
        }
    }

    /// "Trinchera", with "your turn" or "set up" when the open game waits for the player: a
    /// cue that shows in the task bar while the window is in the background.
    fn set_title(&mut self, ctx: &egui::Context) {
        let lang = self.lang;
        let title = match &self.game {
            Some(game) if game.my_turn() => {
                tr!(lang, "Trinchera — your turn", "Trinchera — te toca")
            }
            Some(game) if game.setting_up() => {
                tr!(lang, "Trinchera — set up", "Trinchera — coloca")
            }
            _ => "Trinchera".to_owned(),
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn top_bar(&mut self, ui: &mut Ui) {
        Panel::top("top").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(RichText::new("Trinchera").strong());
                let (lang, url) = (self.lang, &self.url);
                let (dot, text) = match &self.connection {
                    Connection::Up => (
                        palette::TARGET,
                        tr!(lang, "connected to {url}", "conectado a {url}"),
                    ),
                    Connection::Connecting => (
                        palette::SELECTED,
                        tr!(lang, "connecting to {url}…", "conectando a {url}…"),
                    ),
                    Connection::Down { .. } => (
                        palette::seat(0),
                        tr!(lang, "no server at {url}", "no hay servidor en {url}"),
                    ),
                    Connection::Idle => (
                        palette::COORDINATE,
                        tr!(lang, "not connected", "sin conexión"),
                    ),
                };
                let (spot, _) =
                    ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter().circle_filled(spot.center(), 5.0, dot);
                ui.label(text);
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    let lang = self.lang;
                    // Right to left: the box, then its caption before it.
                    let combo = egui::ComboBox::from_id_salt("language")
                        .selected_text(lang.name())
                        .show_ui(ui, |ui| {
                            for choice in Lang::ALL {
                                ui.selectable_value(&mut self.lang, choice, choice.name());
                            }
                        })
                        .response;
                    let caption = ui.label(lang.pick("Language", "Idioma"));
                    combo.labelled_by(caption.id);
                    if ui.button(lang.pick("Help (F1)", "Ayuda (F1)")).clicked() {
                        self.help_open = !self.help_open;
                    }
                    ui.checkbox(
                        &mut self.reduce_motion,
                        lang.pick("Reduce motion", "Reducir animaciones"),
                    );
                    ui.checkbox(
                        &mut self.look.names,
                        lang.pick("Names on tiles", "Nombres en las fichas"),
                    );
                    ui.checkbox(
                        &mut self.look.flipped,
                        lang.pick("Flip board", "Girar tablero"),
                    );
                    if self.game.is_some()
                        && ui
                            .button(lang.pick("Back to the lobby", "Volver a la sala"))
                            .clicked()
                    {
                        self.leave_game();
                    }
                    if self.connection == Connection::Up
                        && self.game.is_none()
                        && ui
                            .button(lang.pick("Change server", "Cambiar de servidor"))
                            .clicked()
                    {
                        self.connection = Connection::Idle;
                        self.rulesets.clear();
                    }
                });
            });
            if let Some(notice) = self.notice.clone() {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(notice).color(palette::LAST_MOVE));
                    if ui
                        .small_button(self.lang.pick("Dismiss", "Cerrar"))
                        .clicked()
                    {
                        self.notice = None;
                    }
                });
            }
        });
    }

    fn connect_screen(&mut self, ui: &mut Ui) {
        let lang = self.lang;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(80.0);
                ui.heading(lang.pick(
                    "Connect to a Trinchera server",
                    "Conéctate a un servidor de Trinchera",
                ));
                ui.add_space(12.0);
                let row = egui::Layout::left_to_right(egui::Align::Center);
                ui.allocate_ui_with_layout(egui::vec2(520.0, 28.0), row, |ui| {
                    let label = ui.label(lang.pick("Server address", "Dirección del servidor"));
                    let edit = ui
                        .add(egui::TextEdit::singleline(&mut self.address).desired_width(320.0))
                        .labelled_by(label.id);
                    let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    if ui.button(lang.pick("Connect", "Conectar")).clicked() || enter {
                        self.connect();
                    }
                });
                ui.add_space(12.0);
                match &self.connection {
                    Connection::Connecting => {
                        let url = &self.url;
                        ui.label(tr!(lang, "Connecting to {url}…", "Conectando a {url}…"));
                    }
                    Connection::Down { message, retry_at } => {
                        ui.label(
                            RichText::new(lang.pick(
                                "Cannot reach the server.",
                                "No se puede llegar al servidor.",
                            ))
                            .color(palette::seat(0))
                            .strong(),
                        );
                        ui.label(RichText::new(message).weak());
                        let left = retry_at.saturating_duration_since(Instant::now()).as_secs() + 1;
                        ui.label(tr!(
                            lang,
                            "Trying again in {left} s.",
                            "Nuevo intento en {left} s."
                        ));
                        if ui.button(lang.pick("Retry now", "Reintentar ya")).clicked() {
                            self.connect();
                        }
                        ui.add_space(8.0);
                        ui.label(
                            RichText::new(lang.pick(
                                "Start a local server with: cargo run --release -p \
                                 trinchera-service --bin trinchera-server",
                                "Arranca un servidor local con: cargo run --release -p \
                                 trinchera-service --bin trinchera-server",
                            ))
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
        storage.set_string(LANG_KEY, self.lang.code().to_owned());
        storage.set_string(LOOK_KEY, self.look.to_setting());
    }
}

/// "Ana (Rojo)" or "Rojo: free seat", for lists and headers.
pub fn seat_line(lang: Lang, names: &Names<'_>, view: &pb::GameView, seat: i32) -> String {
    match view.players.iter().find(|p| p.seat == seat) {
        Some(p) if p.joined => {
            let mut text = words::player(names, Some(view), seat);
            if !p.bot.is_empty() {
                text.push_str(&format!(" · bot ({})", p.bot));
            }
            text
        }
        _ => {
            let seat = names.seat(seat);
            tr!(lang, "{seat}: free seat", "{seat}: asiento libre")
        }
    }
}

/// The keyboard shortcuts, in a window over everything (F1).
fn help_window(ctx: &egui::Context, lang: Lang, open: &mut bool) {
    let rows: [(&str, &str, &str); 12] = [
        ("F1", "this help", "esta ayuda"),
        (
            "F2",
            "the rules of the open game",
            "las reglas de la partida abierta",
        ),
        (
            "F3",
            "replay the open game so far",
            "repasar la partida abierta",
        ),
        ("F4", "flip the board", "girar el tablero"),
        ("F5", "refresh the lobby", "actualizar la sala"),
        (
            "F6",
            "piece names or ranks on tiles",
            "nombres o rangos en las fichas",
        ),
        (
            "Esc",
            "cancel the move being picked; close a replay",
            "cancelar la jugada a medias; cerrar una repetición",
        ),
        (
            "Left Right",
            "step back and forward in a replay",
            "retroceder y avanzar en una repetición",
        ),
        (
            "Home / End",
            "jump to a replay's start or end",
            "saltar al inicio o al final de una repetición",
        ),
        (
            "F L R",
            "tanques: forward, turn left, turn right in a maneuver",
            "tanques: avanzar, girar a la izquierda, a la derecha",
        ),
        (
            "Enter",
            "confirm a maneuver; play the move typed",
            "confirmar una maniobra; jugar la jugada escrita",
        ),
        (
            "Tab",
            "move between buttons (Space presses one)",
            "pasar de un botón a otro (Espacio lo pulsa)",
        ),
    ];
    egui::Window::new(lang.pick("Keyboard shortcuts", "Atajos de teclado"))
        .open(open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                for (keys, en, es) in rows {
                    ui.label(RichText::new(keys).monospace().strong());
                    ui.label(lang.pick(en, es));
                    ui.end_row();
                }
            });
        });
}
