//! What one viewer may see of a game: the only shape in which state leaves the engine.

use crate::action::Facing;
use crate::cell::Cell;
use crate::conduct::Conduct;
use crate::describe::KindId;
use crate::seat::{Seat, Viewer};

/// How much of the hidden state a projection may show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sight {
    /// What this viewer knows during play.
    Of(Viewer),
    /// Everything: the game is over.
    Everything,
}

impl Sight {
    /// Whether the kind of a piece of `owner` is visible; `revealed` tells whether the
    /// opponent has learned it.
    pub fn sees_kind(self, owner: Seat, revealed: bool) -> bool {
        match self {
            Sight::Everything => true,
            Sight::Of(viewer) => revealed || viewer.owns(owner),
        }
    }
}

/// A stable piece id that tells nothing about the piece's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(pub u32);

/// A piece as a viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    /// Stable id for the whole game.
    pub id: PieceId,
    /// Where it stands; `None` off the board (captured, or a tank in reserve).
    pub cell: Option<Cell>,
    /// Its owner.
    pub owner: Seat,
    /// Its kind, if the viewer may know it.
    pub kind: Option<KindId>,
    /// Whether the opponent knows its kind.
    pub revealed: bool,
    /// Whether it has ever moved (public).
    pub moved: bool,
    /// Where its cannon points (tanks).
    pub facing: Option<Facing>,
    /// What its steps showed while its kind was hidden (army games; public).
    pub conduct: Conduct,
}

/// A game as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Whose turn it is, while the game is being played.
    pub to_move: Option<Seat>,
    /// Pieces in play, including tanks in reserve (with no cell).
    pub pieces: Vec<PieceView>,
    /// Pieces removed from play.
    pub captured: Vec<PieceView>,
    /// Ruleset-specific public state.
    pub status: Status,
}

impl View {
    /// A view of `pieces`, each with whether it is still in play: those in play go to
    /// [`View::pieces`], the others to [`View::captured`].
    pub fn new(
        to_move: Option<Seat>,
        pieces: impl IntoIterator<Item = (PieceView, bool)>,
        status: Status,
    ) -> View {
        // One pass into vectors sized up front: every view of every event is built here.
        let pieces = pieces.into_iter();
        let mut in_play = Vec::with_capacity(pieces.size_hint().0);
        let mut captured = Vec::new();
        for (piece, playing) in pieces {
            if playing {
                in_play.push(piece);
            } else {
                captured.push(piece);
            }
        }
        View {
            to_move,
            pieces: in_play,
            captured,
            status,
        }
    }
}

/// Ruleset-specific public state of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Before play: nothing beyond the pieces.
    Setup,
    /// frente, clasico, castillos.
    Army(ArmyStatus),
    /// asalto, tacticas.
    Asalto(AsaltoStatus),
    /// tanques.
    Tanques(TanquesStatus),
}

/// Public state of an army game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmyStatus {
    /// Turns (both seats counted) since the last battle or removal.
    pub turns_without_battle: u32,
    /// The draw limit for `turns_without_battle`.
    pub turn_limit: u32,
    /// For each occupied castle: its cell and how many of the occupant's turns it has
    /// ended there (it is removed at the end of the 3rd).
    pub castle_turns: Vec<(Cell, u8)>,
}

/// Public state of an Asalto game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsaltoStatus {
    /// Officers the rebels may huff this turn.
    pub huffable: Vec<Cell>,
    /// Turns since the last capture or rebel advance.
    pub turns_without_progress: u32,
    /// The draw limit for `turns_without_progress`.
    pub turn_limit: u32,
}

/// Public state of a tanques game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TanquesStatus {
    /// Round 1–12; 13 in the final attack phase.
    pub round: u8,
    /// The phase of the current turn.
    pub phase: TankPhase,
    /// Maneuvers the mover may still make this turn.
    pub maneuvers_left: u8,
    /// Urban hexes and who controls them.
    pub control: Vec<(Cell, Option<Seat>)>,
    /// Tanks that maneuvered this turn.
    pub maneuvered: Vec<Cell>,
    /// Tanks that attacked this turn.
    pub attacked: Vec<Cell>,
    /// `SHA-256(seed)` in lowercase hex: the dice commitment.
    pub dice_commitment: String,
    /// Dice rolled so far.
    pub rolls: u32,
    /// In the final phase: turns in a row that ended without an attack (the game ends at 2).
    pub final_turns_without_attack: u8,
}

/// The phase of a tanques turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TankPhase {
    /// Enter and maneuver, closed by `end`.
    Movement,
    /// Attack, closed by `end`.
    Attack,
    /// After round 12: attack-only turns until both pass.
    Final,
}
