//! What a screen asks of the app. Each screen owns its state and draws itself; whatever
//! reaches past it (the network, another screen, a window over everything) comes back as
//! an [`Action`] that the app applies, as egui_demo_app's `wrap_app.rs` does with its
//! commands.

use crate::backend::Request;

/// Something for the app to do.
#[derive(Clone, Debug)]
pub enum Action {
    /// Ask the network thread for this.
    Send(Request),
    /// Connect to the server at this address (as typed).
    Connect(String),
    /// Leave the server for the connect screen.
    ChangeServer,
    /// Open a game: as the player of a seat held here unless `spectate`, else as a
    /// spectator.
    Open {
        /// The game.
        game: String,
        /// Watch even if a seat is held here.
        spectate: bool,
    },
    /// Open the replay of a game (over the game if it is the open one).
    Replay(String),
    /// Open the replay of a saved `trinchera --json history` file at this path.
    #[cfg(not(target_arch = "wasm32"))]
    ReplayFile(String),
    /// Open the replay of a `trinchera --json history` document (a file uploaded to a
    /// browser).
    ReplayDocument {
        /// The file's name.
        name: String,
        /// Its text.
        text: String,
    },
    /// Close the replay.
    CloseReplay,
    /// Leave the open game for the lobby.
    Leave,
    /// Show the rules of the ruleset with this id, or hide them if they show.
    ToggleRules(String),
    /// Show or hide the keyboard help.
    ToggleHelp,
    /// Show this in the top bar until dismissed.
    Notice(String),
    /// Forget the notice in the top bar.
    DismissNotice,
    /// Show the sign-in screen.
    AskToSignIn,
    /// Go on as a guest (and do not ask again at the next start).
    PlayAsGuest,
}
