//! What a part of the game screen asks of the screen ([`Command`]), as egui_demo_app's
//! `wrap_app.rs` asks its app: whatever needs the seat's token and the version seen, or
//! reaches past the game.

use trinchera_proto::v1 as pb;

use crate::action::Action;

/// Something for the game screen to do.
#[derive(Clone, Debug)]
pub(super) enum Command {
    /// Play this move on the version seen.
    Play(pb::Move),
    /// Play the move typed, in this notation.
    PlayTyped(String),
    /// Submit this setup.
    Submit(Vec<pb::Placement>),
    /// Ask the server for a setup around these placements (none: a whole one).
    Suggest(Vec<pb::Placement>),
    /// Resign the game.
    Resign,
    /// Something for the app.
    App(Action),
}
