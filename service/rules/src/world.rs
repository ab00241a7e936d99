//! Positions rebuilt from what one seat sees (determinization): a bot fills in a guess for
//! every piece it cannot see, and searches the result on the engine itself.
//!
//! A [`View`] names every piece, its cell, owner, whether it moved and whether it was
//! revealed, plus the ruleset's public status. What it lacks, and how [`Determinize`]
//! makes up for it:
//! - **Kinds** the seat cannot see: the caller writes its guess into the view's `kind`
//!   fields before calling [`Determinize::from_view`]; a missing kind is an error.
//! - **Repetition counters** (army games): the legal list of the seat to move shows the one
//!   move the limit forbids, if any, and the rebuilt position forbids exactly that move.
//!   Counters below the limit, and the other seat's, are not public in the view and start
//!   empty, so a search may think a shuttle allowed a few moves later than it is.
//! - **Castle timers, huffable officers, quiet-turn counters, tank marks**: in the view's
//!   status, and copied.
//! - **Whether the rebels already huffed this turn** (Asalto): not in the view; after a huff
//!   nobody is huffable, so the legal moves are the same, but the quiet-turn counter of the
//!   rebuilt position may count that turn as quiet.
//! - **The dice seed** (tanques): secret; the caller passes a guess, which decides the rolls
//!   of the rebuilt position. The view's commitment is kept, so views still match.

use crate::action::Action;
use crate::rules::{Rules, Seed};
use crate::view::{PieceId, PieceView, View};

/// Why a view does not make a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorldError {
    /// The view is not of a game in play (no seat to move).
    #[error("the game is not being played")]
    NotPlaying,
    /// A piece has no kind: the guess is missing.
    #[error("piece {} has no kind: fill in a guess for every hidden piece", .0.0)]
    UnknownKind(PieceId),
    /// The view's status belongs to another ruleset.
    #[error("the view is of another ruleset")]
    WrongRuleset,
    /// The view breaks the ruleset's invariants.
    #[error("the view is inconsistent: {0}")]
    Inconsistent(&'static str),
}

/// Rulesets whose position can be rebuilt from a view with every kind filled in.
pub trait Determinize: Rules {
    /// The position that shows as `view` (once it is projected for the seat that saw it),
    /// where the seat to move has exactly the actions `legal` (when `legal` is not empty:
    /// it is that seat's listed actions). `seed` stands in for the game's secret seed.
    fn from_view(view: &View, legal: &[Action], seed: Seed) -> Result<Self, WorldError>;
}

/// Every piece of `view`, in play or not, with whether it is in play, by id; checks that the
/// ids are `0..n`.
pub(crate) fn pieces_by_id(view: &View) -> Result<Vec<(&PieceView, bool)>, WorldError> {
    let mut all: Vec<(&PieceView, bool)> = view
        .pieces
        .iter()
        .map(|piece| (piece, true))
        .chain(view.captured.iter().map(|piece| (piece, false)))
        .collect();
    all.sort_by_key(|(piece, _)| piece.id);
    if all
        .iter()
        .enumerate()
        .any(|(index, (piece, _))| piece.id.0 as usize != index)
    {
        return Err(WorldError::Inconsistent("piece ids are not 0, 1, 2, ..."));
    }
    Ok(all)
}
