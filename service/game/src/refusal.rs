//! Why a game refuses: an act impossible in its state, or a request's values that are no
//! possible input, each with a machine-readable [`Reason`] and words for the person. The
//! service maps them to gRPC statuses at its edge.

/// Why a game refused, in the person's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The values asked for are no possible input: a malformed field, an unknown ruleset,
    /// notation that cannot be read, a cell off the board, a setup that breaks the rules.
    #[error("{message}")]
    Invalid {
        /// Machine-readable reason.
        reason: Reason,
        /// What was wrong.
        message: String,
    },
    /// The act is not possible in the game as it stands: the wrong phase, not the seat's
    /// turn, an illegal move, the game over, no free seat.
    #[error("{message}")]
    Precondition {
        /// Machine-readable reason.
        reason: Reason,
        /// What was wrong.
        message: String,
    },
}

impl Refusal {
    /// A refusal of values that are no possible input.
    pub fn invalid(reason: Reason, message: impl Into<String>) -> Refusal {
        Refusal::Invalid {
            reason,
            message: message.into(),
        }
    }

    /// A refusal of an act the game's state does not allow.
    pub fn precondition(reason: Reason, message: impl Into<String>) -> Refusal {
        Refusal::Precondition {
            reason,
            message: message.into(),
        }
    }

    /// The machine-readable reason.
    pub fn reason(&self) -> Reason {
        match self {
            Refusal::Invalid { reason, .. } | Refusal::Precondition { reason, .. } => *reason,
        }
    }
}

/// Machine-readable reasons of refusals, sent as `google.rpc.ErrorInfo.reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A required field is missing or malformed.
    BadRequest,
    /// No ruleset with that id.
    UnknownRuleset,
    /// Notation that cannot be read.
    BadNotation,
    /// A cell that is not on the board.
    OffBoard,
    /// A setup that breaks the rules.
    BadSetup,
    /// A name too long or with forbidden characters.
    BadName,
    /// The action is not possible in the game's phase.
    WrongPhase,
    /// The other seat is to move.
    NotYourTurn,
    /// The rules forbid the move.
    IllegalMove,
    /// The game is over.
    GameOver,
    /// No free seat.
    SeatTaken,
    /// A claim made before its time.
    TooEarly,
}

impl Reason {
    /// The upper-case code sent to clients.
    pub const fn code(self) -> &'static str {
        match self {
            Reason::BadRequest => "BAD_REQUEST",
            Reason::UnknownRuleset => "UNKNOWN_RULESET",
            Reason::BadNotation => "BAD_NOTATION",
            Reason::OffBoard => "OFF_BOARD",
            Reason::BadSetup => "BAD_SETUP",
            Reason::BadName => "BAD_NAME",
            Reason::WrongPhase => "WRONG_PHASE",
            Reason::NotYourTurn => "NOT_YOUR_TURN",
            Reason::IllegalMove => "ILLEGAL_MOVE",
            Reason::GameOver => "GAME_OVER",
            Reason::SeatTaken => "SEAT_TAKEN",
            Reason::TooEarly => "TOO_EARLY",
        }
    }
}
