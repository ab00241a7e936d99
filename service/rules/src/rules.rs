//! The interface every ruleset implements, in the spirit of shakmaty's `Position`.

use std::fmt;

use crate::action::Action;
use crate::cell::Cell;
use crate::describe::{Description, KindId};
use crate::effect::Effect;
use crate::error::{NotationError, PositionError};
use crate::illegal::Illegal;
use crate::outcome::Outcome;
use crate::seat::{BySeat, Seat};
use crate::setup::Setup;
use crate::view::{Sight, View};

/// A secret 32-byte seed drawn by the server when a game is created; the only source of
/// chance in play (tanques dice).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(..)")
    }
}

/// The state of a game in play under one ruleset. A value of a `Rules` type is always a
/// legal position; the only ways to change it are [`Rules::play_unchecked`] with a listed
/// move, or the checked [`Rules::check`] then play.
pub trait Rules: Clone + fmt::Debug + Send + Sync + 'static {
    /// The ruleset's compact move: cheap to list, copy and compare.
    type Move: Copy + Eq + fmt::Debug + Send + Sync;

    /// The static description of the ruleset.
    fn description() -> &'static Description;

    /// The position once every seat that sets up has done so (`setups[seat]` is `Some`
    /// exactly for the seats with a setup zone). `seed` feeds any chance in play.
    fn start(setups: &BySeat<Option<Setup>>, seed: Seed) -> Self;

    /// Pieces every game starts with that no seat places (Asalto's rebels), in starting
    /// order; shown during the setup phase.
    fn fixed_pieces() -> Vec<(Seat, Cell, KindId)> {
        Vec::new()
    }

    /// The seat whose action is awaited.
    fn to_move(&self) -> Seat;

    /// Appends every legal move of the seat to move to `out`; nothing once the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Resolves an action of the seat to move into a legal move, or says why it is not one.
    fn check(&self, action: &Action) -> Result<Self::Move, Illegal>;

    /// Plays a legal move, reporting what happened in `effects`.
    ///
    /// A move that [`Rules::legal_moves`] did not list leaves the state unspecified (but
    /// memory safe); use [`Rules::check`] first for untrusted input.
    fn play_unchecked(&mut self, mv: Self::Move, effects: &mut Vec<Effect>);

    /// Plays a legal move of a game being played (not of a search): what
    /// [`Rules::play_unchecked`] does, and what only a game keeps, such as what the move
    /// showed of hidden pieces ([`crate::Conduct`]).
    fn play_in_game(&mut self, mv: Self::Move, effects: &mut Vec<Effect>) {
        self.play_unchecked(mv, effects);
    }

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The position as seen with `sight`.
    fn view(&self, sight: Sight) -> View;

    /// `mv` in the API's shape.
    fn action(&self, mv: Self::Move) -> Action;

    /// The canonical notation of `mv` in this position (e.g. `a4xa5` for an attack).
    fn notation(&self, mv: Self::Move) -> String;

    /// Reads a move written in this ruleset's notation. Only the syntax and the cells are
    /// checked; legality is [`Rules::check`]'s business.
    fn parse_notation(text: &str) -> Result<Action, NotationError>;

    /// Counts the sequences of `depth` legal moves from this position.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut effects = Vec::new();
        moves
            .iter()
            .map(|&mv| {
                let mut next = self.clone();
                effects.clear();
                next.play_unchecked(mv, &mut effects);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// Rulesets whose positions can be written as text (rules.md, "Position text").
pub trait PositionText: Rules {
    /// Reads a position; it carries no history.
    fn from_position_text(text: &str) -> Result<Self, PositionError>;

    /// Writes the position.
    fn position_text(&self) -> String;
}

/// Splits a position text into its rows (top row first) and the seat to move, checking
/// that there are `rows` rows.
pub(crate) fn split_position(text: &str, rows: usize) -> Result<(Vec<&str>, Seat), PositionError> {
    let (board, seat) = text.trim().split_once(' ').ok_or(PositionError::Shape)?;
    let to_move = match seat.trim() {
        "0" => Seat::First,
        "1" => Seat::Second,
        other => return Err(PositionError::Seat(other.to_owned())),
    };
    let found: Vec<&str> = board.split('/').collect();
    if found.len() != rows {
        return Err(PositionError::RowCount {
            expected: rows,
            found: found.len(),
        });
    }
    Ok((found, to_move))
}
