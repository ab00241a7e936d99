//! What Trinchera's clients (`trinchera`, `trinchera-gui`) share, on top of the public
//! contract (`trinchera-proto`) only: the [`connection`] with bearer auth, player
//! [`accounts`], the per-game token [`store`] with the account signed in on each server
//! (so a game started in one client continues in the other), fairness
//! [`verify`], the ruleset [`names`] index and [`ruleset_texts`] in both languages, board
//! [`geometry`] in abstract positions, what [`actions`] do on the board, games in
//! [`words`] and where they stand in [`status`] sentences and [`clock`]s (English or
//! Spanish, [`lang`]), what a tanques position counts ([`tanks`]), [`setup_file`]s and
//! the setup [`tray`], [`json`] documents, and [`sanitize`]: every string a server sends
//! is made display-safe on arrival. Watch streams carry only the pieces that changed and
//! arrive whole again ([`rebuild`]).

pub mod accounts;
pub mod actions;
pub mod clock;
pub mod connection;
pub mod error;
pub mod geometry;
pub mod json;
pub mod lang;
pub mod names;
pub mod notation;
pub mod place;
pub mod rebuild;
pub mod ruleset_texts;
pub mod sanitize;
pub mod setup_file;
pub mod status;
pub mod store;
pub mod tanks;
pub mod tray;
pub mod verify;
pub mod words;

pub use accounts::SignedIn;
pub use connection::{Server, Trust, Watch, authed, normalize_url};
pub use error::ClientError;
pub use geometry::{Geometry, Spot};
pub use lang::Lang;
pub use names::Names;
pub use place::Place;
pub use store::{GameRecord, Hands, Session, Store};
/// gRPC status codes, as [`ClientError::Refused`] carries them.
pub use tonic::Code;
