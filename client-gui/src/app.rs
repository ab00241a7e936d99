//! The application: plain state, the replies of the network thread folded into it, the
//! window-wide shortcuts and windows (help, rules), and the screen of the moment (connect,
//! sign-in, lobby, game, replay). Each screen draws itself and returns [`Action`]s that the
//! app applies here; no screen reaches into the app.
//!
//! Who plays: the account signed in on the server (the session kept in the token store),
//! else a guest. The sign-in screen shows once connected while neither is settled: no
//! session kept, and "Play as a guest" never chosen (that choice is kept between runs).
//! Signing out, or a session the server no longer takes, closes what the account had open
//! and shows the sign-in screen again.

use std::time::Duration;

use web_time::Instant;

use eframe::egui::{self, Key, Modifiers, Ui};
use trinchera_client::{Store, Trust};
use trinchera_proto::v1 as pb;

use crate::account::SessionCheck;
use crate::action::Action;
use crate::backend::{Backend, Reply, Request};
use crate::board::Look;
use crate::connect::ConnectScreen;
use crate::connection::Connection;
use crate::failure::Failure;
use crate::game::{GameScreen, Surroundings};
use crate::i18n::{Lang, set_lang, tr};
use crate::lobby::{CreateForm, Lobby};
use crate::replay::{Replay, Source};
use crate::settings::{Kept, Settings};
use crate::shelf::Shelf;
use crate::sign_in::SignInScreen;
use crate::top_bar::{self, Bar};
use crate::{help, rules};

/// The address used when nothing else is given.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";
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
    /// The new-game form's choices.
    pub form: CreateForm,
    /// Whether the player chose to play as a guest in an earlier run.
    pub guest: bool,
    /// What to trust of an https:// server.
    pub trust: Trust,
}

/// The whole app.
#[derive(Debug)]
pub struct App {
    backend: Backend,
    /// The address connected (or being connected) to.
    pub url: String,
    /// The connection.
    pub connection: Connection,
    /// Every hosted ruleset.
    pub rulesets: Vec<pb::Ruleset>,
    /// The connect screen.
    pub connect: ConnectScreen,
    /// The account signed in on the server (its name); `None` for a guest.
    pub account: Option<String>,
    /// The sign-in screen, while it shows.
    pub sign_in: Option<SignInScreen>,
    /// Whether the player chose to play as a guest (kept between runs).
    pub guest: bool,
    /// The lobby.
    pub lobby: Lobby,
    /// The open game.
    pub game: Option<GameScreen>,
    /// The replay being stepped through (over the open game, if any).
    pub replay: Option<Replay>,
    /// The game to open once connected.
    open_at_start: Option<OpenAtStart>,
    /// The last failure, shown until dismissed.
    pub notice: Option<String>,
    /// The player's settings.
    pub settings: Settings,
    /// Whether the keyboard help is showing.
    pub help_open: bool,
    /// The id of the ruleset whose rules window is open.
    pub rules: Option<String>,
    /// The window title last set (changed only when it changes).
    title: String,
    /// The saved setups.
    pub shelf: Shelf,
}

impl App {
    /// The app, connecting at once; `ctx` is woken by the network thread.
    pub fn new(ctx: &egui::Context, options: Options) -> App {
        style(ctx);
        let shelf = Shelf::beside(options.store.place());
        let backend = Backend::start(ctx.clone(), options.store, options.trust);
        let url = trinchera_client::normalize_url(&options.server);
        backend.send(Request::Connect(url.clone()));
        App {
            backend,
            connect: ConnectScreen {
                address: url.clone(),
            },
            url,
            account: None,
            sign_in: None,
            guest: options.guest,
            connection: Connection::Connecting,
            rulesets: Vec::new(),
            lobby: Lobby {
                create: options.form,
                ..Lobby::default()
            },
            game: None,
            replay: None,
            open_at_start: options.open,
            notice: None,
            settings: Settings {
                lang: options.lang,
                look: options.look,
                reduce_motion: false,
            },
            help_open: false,
            rules: None,
            title: String::new(),
            shelf,
        }
    }

    /// The ruleset with id `id`: the replay's (a saved file may describe one the server
    /// does not host), else the server's.
    fn ruleset(&self, id: &str) -> Option<&pb::Ruleset> {
        self.replay
            .iter()
            .map(|replay| &replay.ruleset)
            .chain(&self.rulesets)
            .find(|r| r.id == id)
    }

    /// Connects to `address`.
    fn connect(&mut self, address: &str) {
        self.url = trinchera_client::normalize_url(address.trim());
        self.connect.address.clone_from(&self.url);
        self.connection = Connection::Connecting;
        self.game = None;
        self.backend.send(Request::Connect(self.url.clone()));
    }

    /// Opens `game` (as a spectator if `spectate`).
    fn open(&self, game: &str, spectate: bool) {
        self.backend.send(Request::Open {
            game: game.to_owned(),
            spectate,
        });
    }

    /// Opens a replay of `game` (the side of the seat held here, everything once over).
    fn replay(&self, game: &str) {
        let (seat, live) = match &self.game {
            Some(open) if open.view().game_id == game => (open.seat(), true),
            _ => (None, false),
        };
        self.backend.send(Request::Replay {
            game: game.to_owned(),
            seat,
            live,
        });
    }

    /// Opens a replay of a saved `trinchera --json history` file.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn replay_file(&mut self, path: &str) {
        match std::fs::read_to_string(path) {
            Ok(text) => self.replay_document(path, &text),
            Err(error) => {
                let lang = self.settings.lang;
                self.notice = Some(tr!(
                    lang,
                    "{path} is not a history file: {error}",
                    "{path} no es un archivo de historial: {error}"
                ));
            }
        }
    }

    /// Opens a replay of the `trinchera --json history` document `text`, from the file
    /// `name`.
    pub fn replay_document(&mut self, name: &str, text: &str) {
        let lang = self.settings.lang;
        let path = name;
        let (history, described) = match trinchera_client::json::read_history_document(text) {
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

    /// Closes the open game and replay, for the lobby or the sign-in screen.
    fn close_game(&mut self) {
        if self.game.take().is_some() {
            self.backend.send(Request::Leave);
        }
        self.replay = None;
    }

    /// Takes in what the server said of the session kept for it, on connecting.
    fn session_checked(&mut self, session: SessionCheck) {
        match session {
            SessionCheck::Working(name) => {
                self.account = Some(name);
                self.sign_in = None;
            }
            SessionCheck::Ended { name, why } => self.session_ended(name, why),
            SessionCheck::None => {
                self.account = None;
                // Asked once connected, unless the player chose already or came for a game.
                let settled = self.guest || self.open_at_start.is_some() || self.game.is_some();
                if !settled && self.sign_in.is_none() {
                    self.sign_in = Some(SignInScreen::default());
                }
            }
        }
    }

    /// The session of `name` ended: what it had open closes, and the sign-in screen says why.
    fn session_ended(&mut self, name: String, why: Failure) {
        self.account = None;
        self.close_game();
        self.lobby.yours.clear();
        self.sign_in = Some(SignInScreen::ended(name, why));
    }

    /// Back to the lobby, refreshed.
    fn leave_game(&mut self) {
        self.game = None;
        self.replay = None;
        self.backend.send(Request::Leave);
        self.backend.send(self.lobby.request());
    }

    /// Does what a screen asked for.
    fn act(&mut self, action: Action) {
        match action {
            Action::Send(request) => self.backend.send(request),
            Action::Connect(address) => self.connect(&address),
            Action::ChangeServer => {
                self.connection = Connection::Idle;
                self.rulesets.clear();
            }
            Action::Open { game, spectate } => self.open(&game, spectate),
            Action::Replay(game) => self.replay(&game),
            #[cfg(not(target_arch = "wasm32"))]
            Action::ReplayFile(path) => self.replay_file(&path),
            Action::ReplayDocument { name, text } => self.replay_document(&name, &text),
            Action::CloseReplay => self.replay = None,
            Action::Leave => self.leave_game(),
            Action::ToggleRules(id) => {
                self.rules = (self.rules.as_ref() != Some(&id)).then_some(id);
            }
            Action::ToggleHelp => self.help_open = !self.help_open,
            Action::Notice(notice) => self.notice = Some(notice),
            Action::DismissNotice => self.notice = None,
            Action::AskToSignIn => self.sign_in = Some(SignInScreen::default()),
            Action::PlayAsGuest => {
                self.sign_in = None;
                self.guest = true;
                self.backend.send(self.lobby.request());
            }
        }
    }

    /// Folds the network thread's replies into the state.
    fn apply_replies(&mut self) {
        for reply in self.backend.poll() {
            self.apply(reply);
        }
    }

    fn apply(&mut self, reply: Reply) {
        match reply {
            Reply::Connected {
                url,
                rulesets,
                session,
            } => {
                if url != self.url {
                    return;
                }
                self.connection = Connection::Up;
                self.rulesets = rulesets;
                self.notice = None;
                self.session_checked(session);
                if let Some(game) = &self.game {
                    // Back after a lost connection: follow the game again from the start.
                    self.open(&game.view().game_id, game.seat().is_none());
                } else if let Some(open) = self.open_at_start.take() {
                    match open {
                        OpenAtStart::Game { game, spectate } => self.open(&game, spectate),
                        OpenAtStart::Replay(game) => self.replay(&game),
                    }
                } else {
                    self.backend.send(self.lobby.request());
                }
            }
            Reply::Unreachable { url, detail } => {
                if let Some(game) = &mut self.game {
                    game.lost_server();
                }
                if let Some(sign_in) = &mut self.sign_in {
                    sign_in.unanswered();
                }
                if url == self.url {
                    self.connection = Connection::Down {
                        detail,
                        retry_at: Instant::now() + RETRY_AFTER,
                    };
                }
            }
            Reply::Games {
                games,
                account,
                here,
            } => self.lobby.listed(games, account, here),
            Reply::Opened {
                seat,
                token,
                view,
                history,
            } => {
                self.notice = None;
                match &mut self.game {
                    Some(game) if game.view().game_id == view.game_id && game.seat() == seat => {
                        game.reopened(view, &history);
                    }
                    _ => {
                        let Some(ruleset) = self.ruleset(&view.ruleset).cloned() else {
                            let id = &view.ruleset;
                            self.notice = Some(tr!(
                                self.settings.lang,
                                "this server has no ruleset {id}",
                                "este servidor no tiene el reglamento {id}"
                            ));
                            return;
                        };
                        self.game = Some(GameScreen::new(ruleset, seat, token, view, &history));
                    }
                }
            }
            Reply::Watched(message) => {
                if let Some(game) = &mut self.game {
                    game.watched(message);
                }
            }
            Reply::StreamLost(detail) => {
                // The server is gone: said everywhere, and tried again like any lost server.
                if self.connection.is_up() {
                    self.connection = Connection::Down {
                        detail,
                        retry_at: Instant::now() + RETRY_AFTER,
                    };
                }
            }
            Reply::Accepted(view) => {
                if let Some(game) = &mut self.game {
                    game.accepted(view);
                }
            }
            Reply::Suggested(placements) => {
                if let Some(game) = &mut self.game {
                    game.suggested(&placements);
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
            Reply::Failed(failure) => {
                let typed = self.game.as_mut().is_some_and(|game| game.failed(&failure));
                if !typed {
                    self.notice = Some(failure.words(self.settings.lang));
                }
            }
            Reply::SignedIn(name) => {
                self.account = Some(name);
                self.sign_in = None;
                self.guest = false;
                self.notice = None;
                self.backend.send(self.lobby.request());
            }
            Reply::SignInRefused(failure) => {
                if let Some(sign_in) = &mut self.sign_in {
                    sign_in.refused(failure);
                }
            }
            Reply::SignedOut => {
                self.account = None;
                self.guest = false;
                self.close_game();
                self.lobby.yours.clear();
                // A screen that says why the session ended stays.
                self.sign_in.get_or_insert_with(SignInScreen::default);
            }
            Reply::SessionEnded(why) => {
                // Every call in flight with the session says so; the first one tells.
                if let Some(name) = self.account.take() {
                    self.session_ended(name, why);
                    self.backend.send(Request::SignOut);
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
                self.backend.send(Request::Connect(self.url.clone()));
            } else {
                ctx.request_repaint_after((*retry_at - now).min(Duration::from_secs(1)));
            }
        }
    }

    /// Draws the app into `ui` (the whole window).
    pub fn show(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        set_lang(&ctx, self.settings.lang);
        self.apply_replies();
        self.retry_when_due(&ctx);
        let mut actions = self.shortcuts(&ctx);
        self.set_title(&ctx);
        let bar = Bar {
            connection: &self.connection,
            url: &self.url,
            in_game: self.game.is_some(),
            account: self.account.as_deref(),
            signing_in: self.sign_in.is_some(),
        };
        actions.extend(top_bar::show(ui, &mut self.settings, bar));
        // What the screens have: the window under the bar.
        let screen = ui.available_rect_before_wrap();
        actions.extend(match (&mut self.replay, &mut self.game) {
            (Some(replay), _) => replay.ui(ui, self.settings.look),
            (None, Some(game)) => {
                let around = Surroundings {
                    settings: self.settings,
                    shelf: &self.shelf,
                    connection: &self.connection,
                    url: &self.url,
                };
                game.ui(ui, &around)
            }
            (None, None) if self.connection.is_up() => match &mut self.sign_in {
                Some(sign_in) => sign_in.ui(ui),
                None => self.lobby.ui(ui, &self.rulesets, self.account.as_deref()),
            },
            (None, None) => self.connect.ui(ui, &self.connection, &self.url),
        });
        if let Some(notice) = &self.notice {
            actions.extend(top_bar::notice(&ctx, screen, self.settings.lang, notice));
        }
        for action in actions {
            self.act(action);
        }
        self.windows(&ctx, screen);
    }

    /// The windows over every screen: the keyboard help (in the middle) and a ruleset's
    /// rules, kept inside `screen` (the bar stays in sight).
    fn windows(&mut self, ctx: &egui::Context, screen: egui::Rect) {
        let lang = self.settings.lang;
        if self.help_open {
            help::window(ctx, lang, &mut self.help_open);
        }
        if let Some(ruleset) = self.rules.as_deref().and_then(|id| self.ruleset(id)) {
            let mut open = true;
            rules::window(ctx, screen, lang, ruleset, &mut open);
            if !open {
                self.rules = None;
            }
        }
    }

    /// The keyboard shortcuts of the whole window (listed by the F1 help). Esc closes the
    /// window on top first, the help, then the rules; only then does a screen see it.
    fn shortcuts(&mut self, ctx: &egui::Context) -> Vec<Action> {
        let mut actions = Vec::new();
        if ctx.egui_wants_keyboard_input() {
            return actions;
        }
        let pressed = |key| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, key));
        if (self.help_open || self.rules.is_some()) && pressed(Key::Escape) {
            if self.help_open {
                self.help_open = false;
            } else {
                self.rules = None;
            }
        }
        if pressed(Key::F1) {
            actions.push(Action::ToggleHelp);
        }
        if pressed(Key::F4) {
            self.settings.look.flipped = !self.settings.look.flipped;
        }
        if pressed(Key::F6) {
            self.settings.look.names = !self.settings.look.names;
        }
        let on_screen = match (&self.replay, &self.game) {
            (Some(replay), _) => Some(&replay.ruleset),
            (None, Some(game)) => Some(game.ruleset()),
            (None, None) => None,
        };
        if let Some(ruleset) = on_screen
            && pressed(Key::F2)
        {
            actions.push(Action::ToggleRules(ruleset.id.clone()));
        }
        if let (None, Some(game)) = (&self.replay, &self.game)
            && pressed(Key::F3)
        {
            actions.push(Action::Replay(game.view().game_id.clone()));
        }
        let lobby = self.game.is_none() && self.sign_in.is_none();
        if lobby && self.connection.is_up() && pressed(Key::F5) {
            actions.push(Action::Send(self.lobby.request()));
        }
        actions
    }

    /// "Trinchera", with "your turn" or "set up" when the open game waits for the player: a
    /// cue that shows in the task bar while the window is in the background.
    fn set_title(&mut self, ctx: &egui::Context) {
        let lang = self.settings.lang;
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
}

/// The window's style, in both themes: small print large enough to read, and panels
/// without a fill of their own, the frame being cleared to their colour instead
/// ([`eframe::App::clear_color`]): a software renderer (Mesa's on a desktop without a GPU,
/// SwiftShader in a browser) paints every pixel of a fill, and the panels' fills were a
/// third of each frame's pixels.
fn style(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| {
        style
            .text_styles
            .insert(egui::TextStyle::Small, egui::FontId::proportional(11.5));
        style.visuals.panel_fill = egui::Color32::TRANSPARENT;
    });
}

/// The panels' colour in the theme of `visuals`, which [`style`] takes from the panels.
fn panel_colour(visuals: &egui::Visuals) -> egui::Color32 {
    if visuals.dark_mode {
        egui::Visuals::dark().panel_fill
    } else {
        egui::Visuals::light().panel_fill
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        panel_colour(visuals).to_normalized_gamma_f32()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        let kept = Kept {
            server: Some(self.url.clone()),
            lang: Some(self.settings.lang),
            look: self.settings.look,
            form: self.lobby.create.clone(),
            guest: self.guest,
        };
        kept.write(storage);
    }
}
