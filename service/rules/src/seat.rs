//! Seats, per-seat data and viewers.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// One of the two players of a game. Seat 0 ([`Seat::First`]) always moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// Seat 0: Rojo in the army games, the rebels in Asalto.
    First = 0,
    /// Seat 1: Azul in the army games, the officers in Asalto.
    Second = 1,
}

impl Seat {
    /// Both seats in turn order.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// The seat's number as the API writes it (0 or 1).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with number `index`, if it is 0 or 1.
    pub const fn from_index(index: usize) -> Option<Seat> {
        match index {
            0 => Some(Seat::First),
            1 => Some(Seat::Second),
            _ => None,
        }
    }
}

impl Not for Seat {
    type Output = Seat;

    fn not(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.index())
    }
}

/// One value per seat, indexed by [`Seat`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySeat<T>(pub [T; 2]);

impl<T> BySeat<T> {
    /// A pair built by calling `f` for each seat.
    pub fn new_with(mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat([f(Seat::First), f(Seat::Second)])
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> BySeat<U> {
        BySeat(self.0.map(f))
    }

    /// Iterates over `(seat, value)` in turn order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        Seat::BOTH.into_iter().zip(self.0.iter())
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;

    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

/// Who looks at a game: decides what a view may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// A player: sees their own pieces fully, the opponent's only as far as revealed.
    Player(Seat),
    /// Anyone without a seat: sees what both players know of each other.
    Spectator,
}

impl Viewer {
    /// The viewer's seat, if they play.
    pub const fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Player(seat) => Some(seat),
            Viewer::Spectator => None,
        }
    }

    /// Whether this viewer may see everything `owner` knows about its own pieces.
    pub fn owns(self, owner: Seat) -> bool {
        self == Viewer::Player(owner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_and_indexing() {
        assert_eq!(!Seat::First, Seat::Second);
        assert_eq!(!!Seat::Second, Seat::Second);
        let mut pair = BySeat([1, 2]);
        pair[Seat::Second] += 10;
        assert_eq!(pair[Seat::First], 1);
        assert_eq!(pair[Seat::Second], 12);
        assert_eq!(Seat::from_index(1), Some(Seat::Second));
        assert_eq!(Seat::from_index(2), None);
    }

    #[test]
    fn viewers() {
        assert!(Viewer::Player(Seat::First).owns(Seat::First));
        assert!(!Viewer::Player(Seat::First).owns(Seat::Second));
        assert!(!Viewer::Spectator.owns(Seat::First));
    }
}
