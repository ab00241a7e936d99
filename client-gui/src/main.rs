//! `trinchera-gui`: connect, find or create a game, set up, play and watch with the mouse;
//! a desktop program, or the same app in a web page (built for `wasm32-unknown-unknown`:
//! `client-gui/web/build.sh`).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    desktop::main()
}

/// In a browser the page's script calls `main` once the module is loaded.
#[cfg(target_arch = "wasm32")]
fn main() {
    trinchera_gui::web::start();
}

#[cfg(not(target_arch = "wasm32"))]
mod desktop {
    use clap::Parser;
    use eframe::egui;
    use trinchera_client::Lang;
    use trinchera_client::Store;
    use trinchera_gui::app::DEFAULT_SERVER;
    use trinchera_gui::board::Look;
    use trinchera_gui::settings::{LANG_KEY, LOOK_KEY, SERVER_KEY};
    use trinchera_gui::{App, OpenAtStart, Options};

    /// The desktop client of a Trinchera game server.
    #[derive(Debug, Parser)]
    #[command(version, about)]
    struct Cli {
        /// Server address (default: the last one used, else http://127.0.0.1:50051).
        #[arg(long, env = "TRINCHERA_SERVER")]
        server: Option<String>,
        /// Open this game of yours at once (a seat held on this machine, else as a spectator).
        #[arg(long, value_name = "ID", conflicts_with = "watch")]
        game: Option<String>,
        /// Watch this game as a spectator at once.
        #[arg(long, value_name = "ID", conflicts_with = "replay")]
        watch: Option<String>,
        /// Open the replay of this game at once (everything revealed once it is over).
        #[arg(long, value_name = "ID", conflicts_with = "game")]
        replay: Option<String>,
        /// Open the replay of a saved `trinchera --json history GAME` file (no server needed
        /// when the file describes its ruleset).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "watch", "replay"])]
        history: Option<std::path::PathBuf>,
        /// PEM certificates of a private CA to trust for an https:// server, besides the
        /// system's root certificates.
        #[arg(long, env = "TRINCHERA_TLS_CA", value_name = "PATH")]
        tls_ca: Option<std::path::PathBuf>,
        /// Interface language: en or es (default: the last one chosen, else the system's).
        #[arg(long, value_parser = ["en", "es"])]
        lang: Option<String>,
    }

    pub fn main() -> std::process::ExitCode {
        let cli = Cli::parse();
        let store = match Store::open() {
            Ok(store) => store,
            Err(error) => {
                eprintln!("trinchera-gui: {error}");
                return std::process::ExitCode::FAILURE;
            }
        };
        let open = match (cli.game, cli.watch, cli.replay) {
            (Some(game), _, _) => Some(OpenAtStart::Game {
                game,
                spectate: false,
            }),
            (None, Some(game), _) => Some(OpenAtStart::Game {
                game,
                spectate: true,
            }),
            (None, None, Some(game)) => Some(OpenAtStart::Replay(game)),
            (None, None, None) => None,
        };
        let history = cli.history;
        let trust = trinchera_client::Trust { ca: cli.tls_ca };
        let chosen_lang = cli.lang.as_deref().and_then(Lang::of_code);
        let native = eframe::NativeOptions {
            viewport: egui::ViewportBuilder::default()
                .with_title("Trinchera")
                .with_inner_size([1280.0, 800.0])
                .with_min_inner_size([640.0, 480.0]),
            ..Default::default()
        };
        let result = eframe::run_native(
            "trinchera-gui",
            native,
            Box::new(move |cc| {
                let server = cli
                    .server
                    .or_else(|| cc.storage.and_then(|s| s.get_string(SERVER_KEY)))
                    .unwrap_or_else(|| DEFAULT_SERVER.to_owned());
                let lang = chosen_lang
                    .or_else(|| {
                        cc.storage
                            .and_then(|s| s.get_string(LANG_KEY))
                            .and_then(|code| Lang::of_code(&code))
                    })
                    .unwrap_or_else(Lang::of_system);
                let look = cc
                    .storage
                    .and_then(|s| s.get_string(LOOK_KEY))
                    .map(|text| Look::of_setting(&text))
                    .unwrap_or_default();
                let options = Options {
                    server,
                    open,
                    store,
                    lang,
                    look,
                    trust,
                };
                let mut app = App::new(&cc.egui_ctx, options);
                if let Some(path) = &history {
                    app.replay_file(&path.display().to_string());
                }
                Ok(Box::new(app))
            }),
        );
        match result {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("trinchera-gui: {error}");
                std::process::ExitCode::FAILURE
            }
        }
    }
}
