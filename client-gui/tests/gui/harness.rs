//! A real server in this process (loopback, temporary data directory) and GUI windows
//! driven headless by egui_kittest, each with its own token store.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use tempfile::TempDir;
use trinchera_client::{Store, Trust};
use trinchera_gui::settings::Kept;
use trinchera_gui::{App, OpenAtStart, Options};
use trinchera_service::{Limits, LocalServer};

/// How long a wait for the server's answer may take before the test gives up (a bound on a
/// hang, not a speed check).
const PATIENCE: Duration = Duration::from_secs(60);

/// A server on its own thread and runtime, on a fresh temporary data directory.
pub struct Server {
    pub url: String,
    address: SocketAddr,
    running: Option<LocalServer>,
    data: TempDir,
}

impl Server {
    /// Starts a server on 127.0.0.1 and a free port.
    pub fn start() -> Server {
        Server::start_on("127.0.0.1:0".parse().expect("address"))
    }

    /// Starts a server on `address`.
    pub fn start_on(address: SocketAddr) -> Server {
        Server::start_with(address, Limits::for_tests())
    }

    /// Starts a server on `address` with `limits`.
    pub fn start_with(address: SocketAddr, limits: Limits) -> Server {
        let data = tempfile::tempdir().expect("temp dir");
        let server =
            LocalServer::start_with_store(sled(data.path()), address, limits).expect("server");
        Server {
            url: server.url(),
            address: server.address(),
            running: Some(server),
            data,
        }
    }

    /// Shuts the server down gracefully and starts it again on the same address and data.
    pub fn restart(&mut self) {
        self.stop();
        self.resume();
    }

    /// Shuts the server down gracefully.
    pub fn stop(&mut self) {
        self.running = None;
    }

    /// Starts the stopped server again on the same address and data.
    pub fn resume(&mut self) {
        let server = LocalServer::start_with_store(
            sled(self.data.path()),
            self.address,
            Limits::for_tests(),
        )
        .expect("server");
        self.running = Some(server);
    }
}

impl Server {
    /// A frente game against the bot that its creator resigned at once: over, with a
    /// history.
    pub fn resigned_game(&self) -> String {
        block_on(async {
            let client = trinchera_client::Server::connect(&self.url, &Default::default())
                .await
                .expect("connects");
            let created = client
                .create(trinchera_proto::v1::CreateGameRequest {
                    ruleset: "frente".into(),
                    bot: "random".into(),
                    ..Default::default()
                })
                .await
                .expect("created");
            client
                .resign(&created.game_id, &created.player_token)
                .await
                .expect("resigned");
            created.game_id
        })
    }
}

/// Runs `work` to its end on a runtime of its own: a client of the test's, not a window's.
pub fn block_on<T>(work: impl Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(work)
}

/// Whether the board of the open game holds a complete setup of the viewer's tray.
pub fn setup_complete(app: &App) -> bool {
    app.game
        .as_ref()
        .is_some_and(|g| g.zone().is_some_and(|zone| g.draft().tray().complete(zone)))
}

/// Waits for `done` to hold, giving up after [`PATIENCE`] (a hang, not a slow machine).
pub fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < PATIENCE, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// What eframe keeps for a window between runs (a file in the config dir, a browser's
/// `localStorage`), in memory.
#[derive(Default)]
pub struct Storage(std::collections::HashMap<String, String>);

impl eframe::Storage for Storage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }

    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }

    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }

    fn flush(&mut self) {}
}

/// One GUI window of one person, with their own token store.
pub struct Window {
    pub harness: Harness<'static, Option<App>>,
    config: TempDir,
}

impl Window {
    /// A window connecting to `url`, opening `open` once connected.
    pub fn open(url: &str, open: Option<OpenAtStart>) -> Window {
        Window::with_config(url, open, tempfile::tempdir().expect("temp dir"))
    }

    /// A window on `server` of a person who has not said yet how to play (no session kept
    /// in `config`, "Play as a guest" never chosen): the sign-in screen, once connected.
    pub fn asking(server: &Server, config: TempDir) -> Window {
        let size = egui::vec2(1280.0, 800.0);
        let kept = Kept::default();
        let mut window = Window::built(&server.url, None, config, size, Trust::default(), kept);
        window.wait_for("the sign-in screen", |app| {
            app.connection.is_up() && app.sign_in.is_some()
        });
        window
    }

    /// Like [`Window::open`], with the token store in `config`.
    pub fn with_config(url: &str, open: Option<OpenAtStart>, config: TempDir) -> Window {
        Window::sized(
            url,
            open,
            config,
            egui::vec2(1280.0, 800.0),
            Trust::default(),
        )
    }

    /// The window of the next run on `server`, with what `storage` kept of the last one.
    pub fn restarted(server: &Server, storage: &Storage) -> Window {
        let config = tempfile::tempdir().expect("temp dir");
        let mut window = Window::built(
            &server.url,
            None,
            config,
            egui::vec2(1280.0, 800.0),
            Trust::default(),
            Kept::read(Some(storage)),
        );
        window.wait_for("the lobby", |app| app.connection.is_up());
        window
    }

    /// What the window keeps for the next run (eframe asks the app when it closes).
    pub fn save(&mut self) -> Storage {
        let mut storage = Storage::default();
        eframe::App::save(self.app_mut(), &mut storage);
        storage
    }

    /// A window connecting to `url` with `trust` for its TLS certificate.
    pub fn trusting(url: &str, trust: Trust) -> Window {
        let config = tempfile::tempdir().expect("temp dir");
        Window::sized(url, None, config, egui::vec2(1280.0, 800.0), trust)
    }

    /// A window of `size` showing the lobby of `server`.
    pub fn lobby_sized(server: &Server, size: egui::Vec2) -> Window {
        let config = tempfile::tempdir().expect("temp dir");
        let mut window = Window::sized(&server.url, None, config, size, Trust::default());
        window.wait_for("the lobby", |app| app.connection.is_up());
        window
    }

    /// Like [`Window::with_config`], `size` points large: a guest's, as every window was
    /// before accounts (the sign-in screen is not shown first).
    fn sized(
        url: &str,
        open: Option<OpenAtStart>,
        config: TempDir,
        size: egui::Vec2,
        trust: Trust,
    ) -> Window {
        let guest = Kept {
            guest: true,
            ..Kept::default()
        };
        Window::built(url, open, config, size, trust, guest)
    }

    /// Like [`Window::sized`], with what an earlier run `kept`.
    fn built(
        url: &str,
        open: Option<OpenAtStart>,
        config: TempDir,
        size: egui::Vec2,
        trust: Trust,
        kept: Kept,
    ) -> Window {
        let mut harness = Harness::builder().with_size(size).build_ui_state(
            |ui, app: &mut Option<App>| {
                if let Some(app) = app {
                    app.show(ui);
                }
            },
            None,
        );
        let options = Options {
            server: url.to_owned(),
            open,
            store: Store::at(config.path()),
            lang: kept.lang.unwrap_or_default(),
            look: kept.look,
            form: kept.form,
            guest: kept.guest,
            trust,
        };
        let mut app = App::new(&harness.ctx, options);
        // Flashes would keep the harness repainting; the state is what the tests check.
        app.settings.reduce_motion = true;
        *harness.state_mut() = Some(app);
        Window { harness, config }
    }

    /// A window on `server` showing the lobby.
    pub fn lobby(server: &Server) -> Window {
        let mut window = Window::open(&server.url, None);
        window.wait_for("the lobby", |app| app.connection.is_up());
        window
    }

    /// Creates a game from the lobby's form ("Create game") and waits until it is open.
    pub fn create_game(
        &mut self,
        ruleset: &str,
        seat: i32,
        opponent: trinchera_gui::lobby::Opponent,
        clock: trinchera_gui::lobby::ClockChoice,
    ) {
        self.app_mut().lobby.create = trinchera_gui::lobby::CreateForm {
            ruleset: ruleset.into(),
            seat,
            opponent,
            name: format!("{ruleset} test"),
            player: "Ana".into(),
            clock,
        };
        // The form lays itself out anew (a clock's row, a longer summary) before the click.
        self.harness.run();
        self.click("Create game");
        self.wait_for("the new game", |app| app.game.is_some());
    }

    /// The token store of the window.
    pub fn store(&self) -> Store {
        Store::at(self.config.path())
    }

    /// Signs in on the sign-in screen (making the account first if `register`) and waits
    /// for the lobby.
    pub fn sign_in(&mut self, name: &str, password: &str, register: bool) {
        if register {
            self.click("Create a new account");
        }
        self.type_into("Name", name);
        self.type_into("Password", password);
        if register {
            self.type_into("Password again", password);
            self.click("Create account");
        } else {
            self.click("Sign in");
        }
        self.wait_for("the lobby of the account", |app| {
            app.account.is_some() && app.sign_in.is_none()
        });
    }

    /// The app.
    pub fn app(&self) -> &App {
        self.harness.state().as_ref().expect("app")
    }

    /// The app, to change.
    pub fn app_mut(&mut self) -> &mut App {
        self.harness.state_mut().as_mut().expect("app")
    }

    /// Runs frames until `done` holds of the app (replies arrive from the network thread).
    pub fn wait_for(&mut self, what: &str, done: impl Fn(&App) -> bool) {
        let start = Instant::now();
        loop {
            self.harness.step();
            if done(self.app()) {
                // One more frame so that the screen shows the new state; every widget on
                // it must have an accessible name.
                self.harness.step();
                self.harness.check_accessibility();
                return;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "gave up waiting for {what}; notice: {:?}",
                self.app().notice
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Fills the board with the server's random setup ("Random setup", labelled `random`
    /// in the window's language) and submits it (`submit`).
    pub fn set_up_at_random(&mut self, random: &str, submit: &str) {
        self.click(random);
        self.wait_for("the random setup on the board", setup_complete);
        self.click(submit);
    }

    /// Clicks the widget labelled `label`.
    pub fn click(&mut self, label: &str) {
        self.harness.get_by_label(label).click();
        self.harness.step();
        self.harness.step();
    }

    /// Sets the text field labelled `label` to `text`, as a screen reader does.
    pub fn type_into(&mut self, label: &str, text: &str) {
        self.harness
            .get_by_label(label)
            .set_text_value_accesskit(text);
        self.harness.step();
        self.harness.step();
    }

    /// Clicks the board cell labelled `cell` ("e4").
    pub fn click_cell(&mut self, cell: &str) {
        let prefix = format!("{cell}, ");
        self.harness
            .get_by(move |node| node.label().is_some_and(|l| l.starts_with(&prefix)))
            .click();
        self.harness.step();
        self.harness.step();
    }

    /// Drags the widget labelled `label` onto board cell `cell` and drops it there.
    pub fn drag_to_cell(&mut self, label: &str, cell: &str) {
        for t in [0.25, 0.5, 0.75] {
            self.drag_toward(label, cell, t);
        }
        self.drop_on_cell(cell);
    }

    /// Presses on the widget labelled `label` (unless a drag is under way) and moves the
    /// pointer `t` of the way from it to board cell `cell`; returns where the pointer is.
    pub fn drag_toward(&mut self, label: &str, cell: &str, t: f32) -> egui::Pos2 {
        let (from, to) = (self.rect(label).center(), self.cell_rect(cell).center());
        if self.harness.ctx.dragged_id().is_none() {
            self.harness.hover_at(from);
            self.harness.step();
            self.harness.drag_at(from);
            self.harness.step();
        }
        let at = from.lerp(to, t);
        self.harness.hover_at(at);
        self.harness.step();
        self.harness.step();
        at
    }

    /// Releases the pointer over board cell `cell`.
    pub fn drop_on_cell(&mut self, cell: &str) {
        let to = self.cell_rect(cell).center();
        self.harness.hover_at(to);
        self.harness.step();
        self.harness.drop_at(to);
        self.harness.step();
        self.harness.step();
    }

    /// Where board cell `cell` is.
    fn cell_rect(&self, cell: &str) -> egui::Rect {
        let prefix = format!("{cell}, ");
        self.harness
            .get_by(move |node| node.label().is_some_and(|l| l.starts_with(&prefix)))
            .rect()
    }

    /// The accessible label of board cell `cell`.
    pub fn cell_label(&self, cell: &str) -> String {
        let prefix = format!("{cell}, ");
        self.harness
            .get_by(move |node| node.label().is_some_and(|l| l.starts_with(&prefix)))
            .accesskit_node()
            .label()
            .unwrap_or_default()
    }

    /// How long after its next frame the window asks to be drawn again by itself
    /// (`Duration::MAX`: not until something happens). A reply of the background worker
    /// (the health check every two seconds, say) wakes the window at once, which shows as a
    /// zero delay: such frames are stepped over, up to ten of them, since the app itself
    /// never asks for an immediate frame. A window that always asks for one stays at zero.
    pub fn idle_repaint_delay(&mut self) -> Duration {
        let mut delay = Duration::ZERO;
        for _ in 0..10 {
            self.harness.step();
            delay = self
                .harness
                .output()
                .viewport_output
                .get(&egui::ViewportId::ROOT)
                .map_or(Duration::MAX, |viewport| viewport.repaint_delay);
            if delay > Duration::ZERO {
                break;
            }
        }
        delay
    }

    /// Where the widget labelled `label` is.
    pub fn rect(&self, label: &str) -> egui::Rect {
        self.harness.get_by_label(label).rect()
    }

    /// Whether some widget is labelled exactly `label`.
    pub fn shows(&self, label: &str) -> bool {
        self.harness.query_by_label(label).is_some()
    }

    /// Whether some widget's label contains `text`.
    pub fn shows_containing(&self, text: &str) -> bool {
        let by = egui_kittest::kittest::by()
            .label_contains(text)
            .include_labels();
        self.harness.query_all(by).next().is_some()
    }

    /// The open game.
    pub fn game(&self) -> &trinchera_gui::game::GameScreen {
        self.app().game.as_ref().expect("a game is open")
    }
}

/// The server's store: sled in `dir`, as the server binary keeps its games by default.
fn sled(dir: &std::path::Path) -> std::sync::Arc<dyn trinchera_store::Store> {
    let store = trinchera_store_sled::SledStore::open(dir, Default::default()).expect("a store");
    std::sync::Arc::new(store)
}
