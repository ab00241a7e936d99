//! Why an action is illegal, in words a player understands: [`Illegal`], with the reasons
//! of each family of rulesets. The rulesets refer to these; nothing here refers to a
//! ruleset, so the reasons depend on nothing but cells.

use crate::cell::Cell;

/// An action that the rules do not allow in the current position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The action has a shape this ruleset never uses (e.g. a tank maneuver in Asalto).
    #[error("this kind of action does not exist in this game; moves look like {example}")]
    WrongShape {
        /// An example of a well-formed action.
        example: &'static str,
    },
    /// A cell that is not on the board.
    #[error("({}, {}) is not on the board", .0.x, .0.y)]
    OffBoard(Cell),
    /// No piece of the mover stands on the labelled cell.
    #[error("there is no piece of yours on {0}")]
    NoOwnPiece(String),
    /// An army-game rule forbids the move.
    #[error(transparent)]
    Army(#[from] ArmyIllegal),
    /// An Asalto rule forbids the action.
    #[error(transparent)]
    Asalto(#[from] AsaltoIllegal),
    /// A tanques rule forbids the action.
    #[error(transparent)]
    Tanques(#[from] TanquesIllegal),
}

/// Why an army move is illegal, in words a player understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArmyIllegal {
    /// The game has ended: nothing is legal any more.
    #[error("the game is over")]
    GameOver,
    /// Bombs and flags never move.
    #[error("{article} {0} never moves", article = article(.0))]
    Immovable(&'static str),
    /// From and to are the same square.
    #[error("a move must go to another square")]
    NullMove,
    /// A diagonal or knight-like move.
    #[error("pieces move straight: up, down, left or right, never diagonally")]
    NotStraight,
    /// A multi-square move by a kind that steps.
    #[error("only the {0} moves more than one square at a time")]
    TooFar(&'static str),
    /// Something stands between the two squares.
    #[error("the way from {0} to {1} is blocked")]
    Blocked(String, String),
    /// The target is a lake.
    #[error("{0} is a lake")]
    Lake(String),
    /// The target holds the mover's own piece.
    #[error("{0} holds one of your own pieces")]
    OwnPiece(String),
    /// A long move that ends on an enemy, by a kind that cannot attack at range.
    #[error(
        "{article} {0} that moves more than one square cannot attack in the same move",
        article = article(.0)
    )]
    LongAttack(&'static str),
    /// The target stands in a trench.
    #[error("the piece on {0} is in a trench and cannot be attacked")]
    Trench(String),
    /// The repetition limit.
    #[error("this piece may not move between {0} and {1} more than {2} times in a row")]
    Repetition(String, String, u8),
}

/// The indefinite article for a kind's name in an error message ("an Estandarte").
fn article(name: &str) -> &'static str {
    match name.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U' | 'É' | 'Í' | 'Ó' | 'Ú') => "an",
        _ => "a",
    }
}

/// Why an Asalto action is illegal, in words a player understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AsaltoIllegal {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The two points are not neighbours on a line.
    #[error("no line joins {0} to {1}: pieces step one point along a line")]
    NoLine(String, String),
    /// A rebel step to a lower row.
    #[error("rebels never move away from the fortress: a rebel may not step to a lower row")]
    Backwards,
    /// A rebel step along a marked line (tacticas).
    #[error(
        "rebels may not move along the marked line from {0} to {1}: they move sideways only \
         on rows 5-7"
    )]
    MarkedLine(String, String),
    /// The target point holds a piece.
    #[error("{0} is not empty")]
    Occupied(String),
    /// A rebel tried to jump.
    #[error("rebels never jump or capture")]
    RebelsNeverJump,
    /// An officer capture written as a step.
    #[error("an officer steps one point at a time; to capture, write the jump with x: {0}x{1}")]
    CaptureWithX(String, String),
    /// A jump action with no landing point.
    #[error("a capture names at least one landing point, e.g. d5xd3")]
    NoLanding,
    /// More jumps than any chain can have.
    #[error("no capture chain has more than {0} jumps")]
    ChainTooLong(usize),
    /// A landing point that is not two points along a line.
    #[error(
        "an officer jumps over one adjacent rebel to the point straight beyond it along a \
         line; {0} to {1} is no such jump"
    )]
    NotAJump(String, String),
    /// A jump over an empty point.
    #[error("there is no rebel on {0} to jump over")]
    NothingToJump(String),
    /// A jump over the other officer.
    #[error("officers never jump officers ({0})")]
    OfficerOverOfficer(String),
    /// A huff in the officers' turn.
    #[error("only the rebels huff, at the start of their turn")]
    OnlyRebelsHuff,
    /// A huff after a huff in the same turn.
    #[error("the rebels may huff only one officer per turn")]
    AlreadyHuffed,
    /// A huff of an empty or rebel point.
    #[error("there is no officer on {0}")]
    NoOfficer(String),
    /// A huff of an officer that did not miss a capture.
    #[error(
        "the officer on {0} did not miss a capture in the officers' last turn, so it cannot be \
         huffed"
    )]
    NotHuffable(String),
}
/// Why a tanques action is illegal, in words a player understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TanquesIllegal {
    /// Nothing can be played any more.
    #[error("the game is over")]
    GameOver,
    /// An enter or maneuver outside the movement phase.
    #[error("tanks enter and maneuver only in the movement phase, which is over this turn")]
    NotMovementPhase,
    /// An enter or maneuver in the final phase.
    #[error("after round 12 only attacks are allowed")]
    FinalPhase,
    /// An attack during the movement phase.
    #[error("attacks come after the movement phase: end it first")]
    NotAttackPhase,
    /// Every tank of the seat has entered already.
    #[error("you have no tank left in reserve")]
    NoReserve,
    /// Entering on a hex that is not one of the mover's entry hexes.
    #[error("{0} is not one of your entry hexes")]
    NotEntryHex(String),
    /// Entering on an occupied hex.
    #[error("{0} is occupied")]
    Occupied(String),
    /// The turn's maneuver allowance is used up.
    #[error("you have used all your maneuvers this turn")]
    NoManeuversLeft,
    /// The tank has maneuvered this turn.
    #[error("the tank on {0} has already maneuvered this turn")]
    AlreadyManeuvered(String),
    /// A maneuver with no letter.
    #[error("a maneuver needs at least one step or turn")]
    EmptyManeuver,
    /// More than two forward steps.
    #[error("a maneuver has at most 2 forward steps")]
    TooManyForward,
    /// More than two turns.
    #[error("a maneuver has at most 2 turns")]
    TooManyTurns,
    /// A turn while standing on a swamp.
    #[error("a tank on a swamp cannot turn ({0} is a swamp)")]
    SwampTurn(String),
    /// A forward step off the board.
    #[error("going forward from {0} would leave the board")]
    Edge(String),
    /// A forward step onto a tank.
    #[error("the way forward from {0} is blocked by the tank on {1}")]
    Blocked(String, String),
    /// The attacked hex holds no tank.
    #[error("there is no tank on {0} to attack")]
    NoTarget(String),
    /// The attacked tank is the mover's own.
    #[error("the tank on {0} is your own")]
    OwnTarget(String),
    /// An attack with no attacker.
    #[error("an attack needs at least one attacker")]
    NoAttackers,
    /// The same attacker named twice.
    #[error("{0} is named twice among the attackers")]
    DuplicateAttacker(String),
    /// An attacker that is not next to the target.
    #[error("the tank on {0} is not next to {1}")]
    NotAdjacent(String, String),
    /// An attacker whose cannon points elsewhere.
    #[error("the tank on {0} does not face {1}")]
    NotFacing(String, String),
    /// An attacker that has attacked this turn.
    #[error("the tank on {0} has already attacked this turn")]
    AlreadyAttacked(String),
    /// An advance or casualty that is not one of the attackers.
    #[error("the {0} must be one of the attackers, and {1} is not")]
    NotAnAttacker(&'static str, String),
}
