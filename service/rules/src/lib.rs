//! The pure rules engine of Trinchera.
//!
//! Every ruleset implements [`Rules`] (turn, legal moves, checked and unchecked play,
//! outcome, per-viewer [`View`]) and is served through the object-safe [`Game`], from setup
//! to result. The engine does no I/O, reads no clock and draws no randomness of its own:
//! chance comes in as a [`Seed`].
//!
//! ```
//! use trinchera_rules::{Game, Seat, Setup, Viewer, catalog};
//!
//! let ruleset = catalog::ruleset("frente").expect("frente is hosted");
//! let mut game = (ruleset.new_game)(trinchera_rules::Seed([7; 32]));
//! let description = game.description();
//! for seat in Seat::BOTH {
//!     let zone = description.setup_zone(seat).expect("both seats set up");
//!     game.submit_setup(Setup::random(zone, 42)).expect("setup phase");
//! }
//! let first = game.legal_actions().remove(0);
//! let played = game.play(Seat::First, &first.action).expect("a listed action is legal");
//! assert_eq!(played.notation, first.notation);
//! // Azul sees where Rojo's pieces are, but not what they are.
//! let view = game.view(Viewer::Player(Seat::Second));
//! assert!(view.pieces.iter().filter(|p| p.owner == Seat::First).all(|p| p.kind.is_none()));
//! ```

mod action;
pub mod army;
pub mod asalto;
pub mod catalog;
mod cell;
mod conduct;
mod describe;
mod effect;
mod error;
mod game;
mod illegal;
mod notation;
mod outcome;
pub mod playout;
mod rules;
mod seat;
mod setup;
pub mod tanques;
mod view;
mod world;

pub use action::{Action, Facing, TankAction};
pub use cell::Cell;
pub use conduct::{Conduct, KindSet};
pub use describe::{
    BoardInfo, BoardShape, CellInfo, Description, KindId, KindInfo, Link, LinkKind, SeatInfo,
    SetupZone, Terrain,
};
pub use effect::{BattleResult, Effect, RemovalCause};
pub use error::{NotationError, NotationProblem, PositionError, Quoted};
pub use game::{Game, LegalAction, Match, Phase, PlayError, Played, SetupRefused};
pub use illegal::Illegal;
pub use outcome::{EndReason, Outcome};
pub use rules::{PositionText, Rules, Seed};
pub use seat::{BySeat, Seat, Viewer};
pub use setup::{Placement, Setup, SetupError, SetupProblem};
pub use view::{
    ArmyStatus, AsaltoStatus, PieceId, PieceView, Sight, Status, TankPhase, TanquesStatus, View,
};
pub use world::{Determinize, WorldError};
