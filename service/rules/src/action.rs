//! Actions in the shape the API speaks, shared by every ruleset.

use std::fmt;
use std::str::FromStr;

use crate::cell::Cell;

/// One action of a player, as clients send it and as legal-move lists name it.
///
/// Every ruleset converts between this shape and its own compact move type; an action that
/// has the wrong shape for a ruleset is simply illegal there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A move or attack on the army boards, or a plain Asalto step.
    Step {
        /// Where the piece stands.
        from: Cell,
        /// Where it goes (or whom it attacks).
        to: Cell,
    },
    /// An officer's capture chain: the start and each landing point.
    Jump {
        /// Where the officer stands.
        from: Cell,
        /// The landing point of each jump, in order.
        landings: Vec<Cell>,
    },
    /// The rebels remove a huffable officer.
    Huff {
        /// Where the officer stands.
        officer: Cell,
    },
    /// A tank enters from reserve.
    Enter {
        /// An empty entry hex of the mover.
        cell: Cell,
        /// The facing it enters with.
        facing: Facing,
    },
    /// A tank's maneuver: forward steps and turns.
    Maneuver {
        /// Where the tank stands.
        cell: Cell,
        /// The steps and turns, in order.
        actions: Vec<TankAction>,
    },
    /// Tanks attack one enemy tank.
    Attack {
        /// The enemy tank.
        target: Cell,
        /// The attacking tanks.
        attackers: Vec<Cell>,
        /// On success, which attacker moves into the target's hex.
        advance: Option<Cell>,
        /// On failure, which attacker is lost (default: the first listed).
        casualty: Option<Cell>,
    },
    /// Closes the current phase of a tanques turn.
    EndPhase,
}

/// The six facings of a hex tank, counter-clockwise from east (rules.md, tanques).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Facing {
    /// `(+1, 0)`
    E = 0,
    /// `(0, +1)`
    NE = 1,
    /// `(-1, +1)`
    NW = 2,
    /// `(-1, 0)`
    W = 3,
    /// `(0, -1)`
    SW = 4,
    /// `(+1, -1)`
    SE = 5,
}

impl Facing {
    /// All facings, counter-clockwise from east.
    pub const ALL: [Facing; 6] = [
        Facing::E,
        Facing::NE,
        Facing::NW,
        Facing::W,
        Facing::SW,
        Facing::SE,
    ];

    /// The facing with counter-clockwise index `index % 6`.
    pub const fn from_index(index: u8) -> Facing {
        Facing::ALL[(index % 6) as usize]
    }

    /// The axial step `(dq, dr)` one hex forward.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Facing::E => (1, 0),
            Facing::NE => (0, 1),
            Facing::NW => (-1, 1),
            Facing::W => (-1, 0),
            Facing::SW => (0, -1),
            Facing::SE => (1, -1),
        }
    }

    /// The facing after a 60° turn to the left (counter-clockwise).
    pub const fn left(self) -> Facing {
        Facing::from_index(self as u8 + 1)
    }

    /// The facing after a 60° turn to the right (clockwise).
    pub const fn right(self) -> Facing {
        Facing::from_index(self as u8 + 5)
    }

    /// The notation name (`E`, `NE`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Facing::E => "E",
            Facing::NE => "NE",
            Facing::NW => "NW",
            Facing::W => "W",
            Facing::SW => "SW",
            Facing::SE => "SE",
        }
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Facing {
    type Err = ();

    fn from_str(text: &str) -> Result<Facing, ()> {
        Facing::ALL
            .into_iter()
            .find(|facing| facing.name() == text)
            .ok_or(())
    }
}

/// One element of a tank maneuver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TankAction {
    /// One hex forward, in the facing direction (`F`).
    Forward,
    /// Turn 60° counter-clockwise (`L`).
    TurnLeft,
    /// Turn 60° clockwise (`R`).
    TurnRight,
}

impl TankAction {
    /// The notation letter (`F`, `L`, `R`).
    pub const fn letter(self) -> char {
        match self {
            TankAction::Forward => 'F',
            TankAction::TurnLeft => 'L',
            TankAction::TurnRight => 'R',
        }
    }

    /// The action written as `letter`, if any.
    pub const fn from_letter(letter: char) -> Option<TankAction> {
        match letter {
            'F' => Some(TankAction::Forward),
            'L' => Some(TankAction::TurnLeft),
            'R' => Some(TankAction::TurnRight),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facings_turn_around() {
        for facing in Facing::ALL {
            assert_eq!(facing.left().right(), facing);
            assert_eq!(facing.name().parse::<Facing>(), Ok(facing));
            let mut turned = facing;
            for _ in 0..6 {
                turned = turned.left();
            }
            assert_eq!(turned, facing);
        }
        assert_eq!(Facing::E.left(), Facing::NE);
        assert_eq!(Facing::E.right(), Facing::SE);
        assert!("N".parse::<Facing>().is_err());
    }

    #[test]
    fn tank_action_letters() {
        for action in [
            TankAction::Forward,
            TankAction::TurnLeft,
            TankAction::TurnRight,
        ] {
            assert_eq!(TankAction::from_letter(action.letter()), Some(action));
        }
        assert_eq!(TankAction::from_letter('f'), None);
    }
}
