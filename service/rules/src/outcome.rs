//! How a game ended.

use std::fmt;

use crate::seat::Seat;

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner; `None` is a draw.
    pub winner: Option<Seat>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// `seat` wins for `reason`.
    pub const fn win(seat: Seat, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(seat),
            reason,
        }
    }

    /// A draw for `reason`.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The game was called off before it started: nobody wins, and it is no draw.
    pub const ABORTED: Outcome = Outcome {
        winner: None,
        reason: EndReason::Aborted,
    };

    /// Whether the game ended level (no winner, and not called off).
    pub const fn is_draw(self) -> bool {
        self.winner.is_none() && !matches!(self.reason, EndReason::Aborted)
    }
}

/// Why a game ended; the API's `Result.reason` is [`EndReason::code`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The enemy flag or standard was captured.
    FlagCaptured,
    /// The player to move had no legal action (both unable: draw).
    NoMoves,
    /// A player was left with only bombs and flag (both: draw).
    OnlyImmovableLeft,
    /// A player resigned.
    Resigned,
    /// The server called the game off before it started (no opponent, no setup or no
    /// first move in time): no winner, no draw.
    Aborted,
    /// The loser's time ran out.
    TimeForfeit,
    /// The loser, to move, stayed away too long and the winner claimed the game.
    Abandoned,
    /// Turn limit without progress reached: draw.
    MoveLimit,
    /// Asalto: rebels hold all nine fortress points.
    FortressTaken,
    /// Asalto: both officers were huffed.
    OfficersHuffed,
    /// Asalto: the officers had no legal action.
    OfficersTrapped,
    /// Asalto: fewer than nine rebels remain.
    RebelsTooFew,
    /// Tanques: more urban hexes controlled.
    MostUrban,
    /// Tanques: urban hexes equal, more tanks left (also the reason of a draw, when the
    /// tanks left are equal too).
    MoreTanks,
}

impl EndReason {
    /// The stable upper-case code the API uses, e.g. `FLAG_CAPTURED`.
    pub const fn code(self) -> &'static str {
        match self {
            EndReason::FlagCaptured => "FLAG_CAPTURED",
            EndReason::NoMoves => "NO_MOVES",
            EndReason::OnlyImmovableLeft => "ONLY_IMMOVABLE_LEFT",
            EndReason::Resigned => "RESIGNED",
            EndReason::Aborted => "ABORTED",
            EndReason::TimeForfeit => "TIME_FORFEIT",
            EndReason::Abandoned => "ABANDONED",
            EndReason::MoveLimit => "MOVE_LIMIT",
            EndReason::FortressTaken => "FORTRESS_TAKEN",
            EndReason::OfficersHuffed => "OFFICERS_HUFFED",
            EndReason::OfficersTrapped => "OFFICERS_TRAPPED",
            EndReason::RebelsTooFew => "REBELS_TOO_FEW",
            EndReason::MostUrban => "MOST_URBAN",
            EndReason::MoreTanks => "MORE_TANKS",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
