//! What the window knows of accounts: how a person enters (signing in, or making an account),
//! the password typed (which never shows in a log), and what became of the session kept
//! for a server when the window connected. The session itself is client-lib's
//! ([`trinchera_client::Session`]), kept beside the seat tokens.

use crate::failure::Failure;

/// How the sign-in screen enters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Entry {
    /// Into an existing account.
    #[default]
    SignIn,
    /// Into a new account, made with the name and password.
    Register,
}

/// A password as typed.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Password(pub String);

/// Without the password.
impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(..)")
    }
}

/// What became of the session kept for a server, checked when the window connects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionCheck {
    /// None is kept: a guest, or somebody to ask.
    None,
    /// It works: signed in as this account.
    Working(String),
    /// The server no longer takes it (signed out elsewhere, revoked, expired, the account
    /// disabled); it is forgotten here.
    Ended {
        /// The account it was of.
        name: String,
        /// What the server said.
        why: Failure,
    },
}

/// The label of the sessions this client makes, which the account's list of tokens shows.
#[cfg(not(target_arch = "wasm32"))]
pub const SESSION_LABEL: &str = "trinchera-gui";
/// The label of the sessions this client makes, which the account's list of tokens shows.
#[cfg(target_arch = "wasm32")]
pub const SESSION_LABEL: &str = "trinchera-gui in a browser";
