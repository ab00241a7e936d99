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
    use trinchera_client::Lang;
    use trinchera_client::Store;
    use trinchera_gui::app::DEFAULT_SERVER;
    use trinchera_gui::settings::Kept;
    use trinchera_gui::{App, OpenAtStart, Options, window};

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
        let native = window::native_options(store.place());
        let result = eframe::run_native(
            "trinchera-gui",
            native,
            Box::new(move |cc| {
                let kept = Kept::read(cc.storage);
                let options = Options {
                    server: cli
                        .server
                        .or(kept.server)
                        .unwrap_or_else(|| DEFAULT_SERVER.to_owned()),
                    open,
                    store,
                    lang: chosen_lang.or(kept.lang).unwrap_or_else(Lang::of_system),
                    look: kept.look,
                    form: kept.form,
                    guest: kept.guest,
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
