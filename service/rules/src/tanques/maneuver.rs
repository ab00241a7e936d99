//! Maneuvers: their compact letters, and every path a tank may take from a hex and facing
//! before other tanks are looked at, computed once.
//!
//! Whether a letter sequence is legal depends on the board's geometry (edges, swamps) and,
//! beyond that, only on whether the hexes its forward steps enter are empty. The table holds
//! for each hex and facing every sequence that the geometry allows, with the hexes to check,
//! so listing a tank's maneuvers is a scan of at most 54 entries.

use std::sync::LazyLock;

use super::board::{BOARD, Ground, HEXES, OFF};
use crate::action::{Facing, TankAction};

/// Most forward steps in one maneuver.
pub(super) const MAX_FORWARD: u8 = 2;
/// Most 60° turns in one maneuver.
pub(super) const MAX_TURNS: u8 = 2;
/// Letter sequences within both limits: 6 with no step, 17 with one, 31 with two.
const MAX_SEQUENCES: usize = 54;
/// A board slot that no tank ever occupies: the hex a path with fewer than two forward steps
/// names for the steps it does not take.
pub(super) const NOWHERE: u8 = HEXES as u8;

/// Up to four maneuver letters, two bits each (F, L, R), first letter lowest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Letters {
    len: u8,
    bits: u8,
}

impl Letters {
    /// No letter yet.
    pub(super) const NONE: Letters = Letters { len: 0, bits: 0 };

    /// These letters followed by `action`'s.
    pub(super) fn push(self, action: TankAction) -> Letters {
        let code = match action {
            TankAction::Forward => 0,
            TankAction::TurnLeft => 1,
            TankAction::TurnRight => 2,
        };
        Letters {
            len: self.len + 1,
            bits: self.bits | code << (2 * self.len),
        }
    }

    /// The letters in order.
    pub(super) fn iter(self) -> impl Iterator<Item = TankAction> {
        (0..self.len).map(move |i| match (self.bits >> (2 * i)) & 3 {
            0 => TankAction::Forward,
            1 => TankAction::TurnLeft,
            _ => TankAction::TurnRight,
        })
    }
}

/// A sequence the geometry allows, and the hexes its forward steps enter ([`NOWHERE`] for
/// steps it does not take): it is legal when both are empty.
#[derive(Clone, Copy, Debug)]
pub(super) struct Path {
    /// The letters.
    pub(super) letters: Letters,
    /// The hexes entered by the first and second forward step.
    pub(super) steps: [u8; 2],
}

/// Every path from one hex and facing.
pub(super) struct Paths {
    len: usize,
    paths: [Path; MAX_SEQUENCES],
}

impl Paths {
    /// The paths, in depth-first order of their letters (F before L before R).
    pub(super) fn as_slice(&self) -> &[Path] {
        &self.paths[..self.len]
    }

    fn push(&mut self, path: Path) {
        self.paths[self.len] = path;
        self.len += 1;
    }

    /// Adds every extension of `path`, which leaves the tank on `hex` facing `facing` after
    /// `forward` steps and `turns` turns.
    fn extend(&mut self, path: Path, (hex, facing): (u8, Facing), (forward, turns): (u8, u8)) {
        for action in [
            TankAction::Forward,
            TankAction::TurnLeft,
            TankAction::TurnRight,
        ] {
            let mut steps = path.steps;
            let (pose, counts) = match action {
                TankAction::Forward if forward < MAX_FORWARD => {
                    let next = BOARD.neighbours[usize::from(hex)][facing as usize];
                    if next == OFF {
                        continue;
                    }
                    steps[usize::from(forward)] = next;
                    ((next, facing), (forward + 1, turns))
                }
                TankAction::TurnLeft | TankAction::TurnRight
                    if turns < MAX_TURNS && BOARD.ground[usize::from(hex)] != Ground::Swamp =>
                {
                    let facing = match action {
                        TankAction::TurnLeft => facing.left(),
                        _ => facing.right(),
                    };
                    ((hex, facing), (forward, turns + 1))
                }
                _ => continue,
            };
            let path = Path {
                letters: path.letters.push(action),
                steps,
            };
            self.push(path);
            self.extend(path, pose, counts);
        }
    }
}

/// `paths(hex, facing)`: every path of a tank on `hex` facing `facing`.
pub(super) fn paths(hex: u8, facing: Facing) -> &'static Paths {
    static PATHS: LazyLock<Vec<Paths>> = LazyLock::new(|| {
        (0..HEXES as u8)
            .flat_map(|hex| Facing::ALL.map(|facing| (hex, facing)))
            .map(|(hex, facing)| {
                let start = Path {
                    letters: Letters::NONE,
                    steps: [NOWHERE; 2],
                };
                let mut paths = Paths {
                    len: 0,
                    paths: [start; MAX_SEQUENCES],
                };
                paths.extend(start, (hex, facing), (0, 0));
                paths
            })
            .collect()
    });
    &PATHS[usize::from(hex) * 6 + facing as usize]
}
