//! What an action caused. Every effect is public knowledge once it happens: an effect never
//! names a kind that the action did not reveal to both players.

use crate::cell::Cell;
use crate::describe::KindId;
use crate::outcome::Outcome;
use crate::seat::Seat;
use crate::view::{PieceId, TankPhase};

/// One consequence of an action, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Two pieces fought; both kinds are now revealed.
    Battle {
        /// Where the defender stood.
        at: Cell,
        /// The attacking piece and its kind.
        attacker: (PieceId, KindId),
        /// The defending piece and its kind.
        defender: (PieceId, KindId),
        /// Who survived.
        result: BattleResult,
    },
    /// A move that only one kind can make revealed the piece.
    Revealed {
        /// The piece.
        piece: PieceId,
        /// Its kind.
        kind: KindId,
    },
    /// A piece left the game without a battle.
    Removed {
        /// The piece.
        piece: PieceId,
        /// Where it stood.
        at: Cell,
        /// Why.
        cause: RemovalCause,
    },
    /// A die was rolled for a tank attack.
    Dice {
        /// Roll number in game order, from 0.
        index: u32,
        /// The die, 1–6.
        roll: u8,
        /// The table column: attackers, capped at 4.
        column: u8,
        /// Whether the attacker won.
        attacker_wins: bool,
    },
    /// An urban hex changed hands.
    ControlChanged {
        /// The hex.
        at: Cell,
        /// Its new controller.
        seat: Seat,
    },
    /// A tanques turn moved to a new phase or round.
    PhaseChanged {
        /// The seat now acting.
        seat: Seat,
        /// Round 1–12, 13 in the final phase.
        round: u8,
        /// The phase now running.
        phase: TankPhase,
    },
    /// A turn (or tanques phase) whose only legal action was `end` was passed automatically.
    Passed {
        /// The seat whose turn passed.
        seat: Seat,
    },
    /// The game ended.
    Ended(Outcome),
}

/// Who survived a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BattleResult {
    /// The defender is removed; the attacker moves in.
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
    /// Both are removed.
    BothFall,
}

/// Why a piece left the game without a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RemovalCause {
    /// It ended its owner's third turn on a castle (castillos).
    Castle,
    /// An officer jumped over it (asalto).
    Jumped,
    /// The rebels huffed it (asalto).
    Huffed,
    /// It lost a tank attack, as target or casualty (tanques).
    Destroyed,
}
