//! The 33-point cross and its lines, as bitboards.
//!
//! A point is a square of the 7×7 span, numbered `7 · row + column` from a1 (both from 0), so
//! a set of points is one `u64` and a step in a fixed direction is one shift. The 16 squares
//! of the span that are not points never enter a set: every table below only links points.

use crate::cell::Cell;

/// A set of points: bit `s` stands for square `s`.
pub(crate) type Bits = u64;

/// Squares of the 7×7 span.
pub(crate) const SQUARES: usize = 49;
/// Columns (and rows) of the span.
const SPAN: i8 = 7;
/// "No square" in the tables.
pub(crate) const NONE: u8 = 0xFF;

/// Directions, counter-clockwise from east. The first [`FORWARD`] never lower the row, and
/// odd ones are diagonal.
pub(crate) const DELTAS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
/// How many of [`DELTAS`] keep or raise the row: east, north-east, north, north-west, west.
pub(crate) const FORWARD: usize = 5;
/// East and west, the only directions along a horizontal line.
const EAST: usize = 0;
const WEST: usize = 4;
/// The square offset of each direction in [`DELTAS`].
pub(crate) const OFFSETS: [i8; 8] = {
    let mut offsets = [0; 8];
    let mut d = 0;
    while d < 8 {
        offsets[d] = DELTAS[d].0 + SPAN * DELTAS[d].1;
        d += 1;
    }
    offsets
};

/// Whether `(x, y)` is a point: inside the span, and in the middle three columns or rows.
pub(crate) const fn exists(x: i8, y: i8) -> bool {
    0 <= x && x < SPAN && 0 <= y && y < SPAN && (middle(x) || middle(y))
}

/// Whether a column or row index is one of the middle three (`c`–`e`, `3`–`5`).
pub(crate) const fn middle(v: i8) -> bool {
    2 <= v && v <= 4
}

/// Whether a line joins `(x, y)` to its neighbour in direction `d`: orthogonal neighbours
/// always, diagonal ones when `x + y` is even (then the neighbour's is too).
const fn linked(x: i8, y: i8, d: usize) -> bool {
    let (dx, dy) = DELTAS[d];
    exists(x, y) && exists(x + dx, y + dy) && (d.is_multiple_of(2) || (x + y) % 2 == 0)
}

/// The square of a point's coordinates (which must be on the span).
pub(crate) const fn square_at(x: i8, y: i8) -> u8 {
    (y * SPAN + x) as u8
}

/// The square of `cell`, if it is a point.
pub(crate) fn square(cell: Cell) -> Option<u8> {
    exists(cell.x, cell.y).then(|| square_at(cell.x, cell.y))
}

/// The cell of square `s`.
pub(crate) const fn cell(s: u8) -> Cell {
    Cell::new(s as i8 % SPAN, s as i8 / SPAN)
}

/// The row of square `s`, from 0 at the rebels' edge.
pub(crate) const fn row(s: u8) -> i8 {
    s as i8 / SPAN
}

/// The label of square `s`, e.g. `d5`.
pub(crate) fn label(s: u8) -> String {
    cell(s).grid_label().to_string()
}

/// The set holding only square `s`.
pub(crate) const fn bit(s: u8) -> Bits {
    1 << s
}

/// `bits` moved one step in the direction of `offset` (squares that leave the span are
/// the caller's business: the tables only ever shift points that have a neighbour there).
#[inline]
pub(crate) const fn shift(bits: Bits, offset: i8) -> Bits {
    if offset >= 0 {
        bits << offset
    } else {
        bits >> -offset
    }
}

/// The squares of a set, lowest first.
#[inline]
pub(crate) const fn squares(bits: Bits) -> Squares {
    Squares(bits)
}

/// Iterator over the squares of a set, lowest first; see [`squares`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Squares(Bits);

impl Iterator for Squares {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let s = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(s)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.0.count_ones() as usize;
        (len, Some(len))
    }
}

/// Every point.
pub(crate) const POINTS: Bits = {
    let mut points = 0;
    let mut s = 0;
    while s < SQUARES {
        if exists(s as i8 % SPAN, s as i8 / SPAN) {
            points |= 1 << s;
        }
        s += 1;
    }
    points
};

/// The fortress: c5–e7.
pub(crate) const FORTRESS: Bits = {
    let mut fortress = 0;
    let mut y = 4;
    while y < SPAN {
        let mut x = 2;
        while x <= 4 {
            fortress |= bit(square_at(x, y));
            x += 1;
        }
        y += 1;
    }
    fortress
};

/// Where the rebels start: every point outside the fortress.
pub(crate) const REBEL_START: Bits = POINTS & !FORTRESS;

/// One possible capture: the point jumped over and the landing point beyond it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Jump {
    /// The point jumped over ([`NONE`] if the jump does not exist).
    pub over: u8,
    /// The landing point ([`NONE`] if the jump does not exist).
    pub land: u8,
}

/// The lines of the cross, by square and direction.
#[derive(Debug)]
pub(crate) struct Lines {
    /// The point a line leads to from each square in each direction, or [`NONE`].
    pub neighbour: [[u8; 8]; SQUARES],
    /// Every point a line leads to from each square.
    pub steps: [Bits; SQUARES],
    /// The capture along each direction from each square: two linked steps in a row.
    pub jumps: [[Jump; 8]; SQUARES],
    /// Every point that can be jumped over from each square.
    pub overs: [Bits; SQUARES],
    /// For each direction, the squares from which a jump that way stays on lines.
    pub jump_sources: [Bits; 8],
}

/// The lines of the cross.
pub(crate) static LINES: Lines = {
    let none = Jump {
        over: NONE,
        land: NONE,
    };
    let mut lines = Lines {
        neighbour: [[NONE; 8]; SQUARES],
        steps: [0; SQUARES],
        jumps: [[none; 8]; SQUARES],
        overs: [0; SQUARES],
        jump_sources: [0; 8],
    };
    let mut s = 0;
    while s < SQUARES {
        let (x, y) = (s as i8 % SPAN, s as i8 / SPAN);
        let mut d = 0;
        while d < 8 {
            if linked(x, y, d) {
                let next = (s as i8 + OFFSETS[d]) as u8;
                lines.neighbour[s][d] = next;
                lines.steps[s] |= bit(next);
                let (dx, dy) = DELTAS[d];
                if linked(x + dx, y + dy, d) {
                    lines.overs[s] |= bit(next);
                    lines.jump_sources[d] |= bit(s as u8);
                    lines.jumps[s][d] = Jump {
                        over: next,
                        land: (next as i8 + OFFSETS[d]) as u8,
                    };
                }
            }
            d += 1;
        }
        s += 1;
    }
    lines
};

/// The point halfway between `from` and `to`, two points apart on a line (squares are
/// numbered linearly, so it is their mean).
#[inline]
pub(crate) const fn midpoint(from: u8, to: u8) -> u8 {
    (from + to) / 2
}

/// The direction of a step from `from` to its neighbour `to`.
#[inline]
pub(crate) const fn step_direction(from: u8, to: u8) -> usize {
    /// Directions by offset + 8 (unused entries are never read).
    const BY_OFFSET: [u8; 17] = {
        let mut table = [0; 17];
        let mut d = 0;
        while d < 8 {
            table[(OFFSETS[d] + 8) as usize] = d as u8;
            d += 1;
        }
        table
    };
    BY_OFFSET[(to as i8 - from as i8 + 8) as usize] as usize
}

/// Whether the line leaving a point of row `y` (from 0) in direction `d` is marked in German
/// Tactics: the horizontal lines of rows 1–4.
pub(crate) const fn marked(y: i8, d: usize) -> bool {
    (d == EAST || d == WEST) && y <= 3
}

/// For each forward direction, the squares from which a rebel may step that way: a line
/// leads there, and (`marked` boards) it is not a marked line.
const fn rebel_sources(marked_lines: bool) -> [Bits; FORWARD] {
    let mut sources = [0; FORWARD];
    let mut s = 0;
    while s < SQUARES {
        let (x, y) = (s as i8 % SPAN, s as i8 / SPAN);
        let mut d = 0;
        while d < FORWARD {
            if linked(x, y, d) && !(marked_lines && marked(y, d)) {
                sources[d] |= 1 << s;
            }
            d += 1;
        }
        s += 1;
    }
    sources
}

/// [`rebel_sources`] of the plain board (index 0) and of the marked one (index 1).
pub(crate) static REBEL_SOURCES: [[Bits; FORWARD]; 2] = [rebel_sources(false), rebel_sources(true)];

/// The direction from `from` to `to` and how many steps apart they are along it, if `to` lies
/// one or two steps away in one of the eight directions (lines aside).
pub(crate) fn direction(from: Cell, to: Cell) -> Option<(usize, i8)> {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let distance = dx.abs().max(dy.abs());
    if distance == 0 || distance > 2 || (dx != 0 && dy != 0 && dx.abs() != dy.abs()) {
        return None;
    }
    let unit = (dx / distance, dy / distance);
    DELTAS
        .iter()
        .position(|&delta| delta == unit)
        .map(|d| (d, distance))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asalto::moves::MAX_CHAIN;

    /// The 17 points of rules.md that carry diagonals.
    const DIAGONAL_POINTS: [&str; 17] = [
        "a3", "a5", "b4", "c1", "c3", "c5", "c7", "d2", "d4", "d6", "e1", "e3", "e5", "e7", "f4",
        "g3", "g5",
    ];

    fn at(label: &str) -> u8 {
        Cell::parse_grid_label(label)
            .and_then(square)
            .expect("a point")
    }

    #[test]
    fn thirty_three_points_nine_in_the_fortress() {
        assert_eq!(POINTS.count_ones(), 33);
        assert_eq!(FORTRESS.count_ones(), 9);
        assert_eq!(FORTRESS & !POINTS, 0);
        for label in ["c1", "e2", "a3", "g5", "d7", "c6"] {
            assert_ne!(POINTS & bit(at(label)), 0, "{label}");
        }
        for cell in [
            Cell::new(0, 0),
            Cell::new(1, 1),
            Cell::new(5, 5),
            Cell::new(6, 6),
        ] {
            assert_eq!(square(cell), None);
        }
        assert_eq!(
            squares(FORTRESS).map(label).collect::<Vec<_>>(),
            ["c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7"]
        );
    }

    #[test]
    fn diagonals_exactly_at_the_listed_points() {
        for s in squares(POINTS) {
            let diagonal = (0..8).any(|d| d % 2 == 1 && LINES.neighbour[s as usize][d] != NONE);
            assert_eq!(
                diagonal,
                DIAGONAL_POINTS.contains(&label(s).as_str()),
                "{}",
                label(s)
            );
        }
    }

    #[test]
    fn lines_are_symmetric_and_stay_on_points() {
        for s in squares(POINTS) {
            for d in 0..8 {
                let next = LINES.neighbour[s as usize][d];
                if next != NONE {
                    assert_ne!(POINTS & bit(next), 0);
                    assert_eq!(LINES.neighbour[next as usize][(d + 4) % 8], s);
                }
            }
        }
        // Mirroring left-right or across the diagonal maps lines to lines.
        let lines = |map: fn(Cell) -> Cell| {
            let mut pairs: Vec<(Cell, Cell)> = squares(POINTS)
                .flat_map(|s| squares(LINES.steps[s as usize]).map(move |t| (cell(s), cell(t))))
                .map(|(a, b)| (map(a), map(b)))
                .collect();
            pairs.sort();
            pairs
        };
        assert_eq!(lines(|c| Cell::new(6 - c.x, c.y)), lines(|c| c));
        assert_eq!(lines(|c| Cell::new(c.y, c.x)), lines(|c| c));
        let steps: u32 = squares(POINTS)
            .map(|s| LINES.steps[s as usize].count_ones())
            .sum();
        // 52 orthogonal and 20 diagonal lines, each counted from both ends.
        assert_eq!(steps, 2 * (52 + 20));
    }

    #[test]
    fn sample_lines_and_jumps() {
        let neighbours = |l: &str| {
            let mut labels: Vec<String> = squares(LINES.steps[at(l) as usize]).map(label).collect();
            labels.sort();
            labels
        };
        assert_eq!(neighbours("d4").len(), 8);
        assert_eq!(neighbours("c4"), ["b4", "c3", "c5", "d4"]);
        assert_eq!(neighbours("c1"), ["c2", "d1", "d2"]);
        assert_eq!(neighbours("a5"), ["a4", "b4", "b5"]);
        let jumps = |l: &str| {
            let mut labels: Vec<String> = LINES.jumps[at(l) as usize]
                .iter()
                .filter(|jump| jump.over != NONE)
                .map(|jump| format!("{}{}", label(jump.over), label(jump.land)))
                .collect();
            labels.sort();
            labels
        };
        assert_eq!(jumps("c1"), ["c2c3", "d1e1", "d2e3"]);
        assert_eq!(jumps("b4"), ["c3d2", "c4d4", "c5d6"]);
        // a3 has diagonals but b2 is no point; c4 has none at all.
        assert_eq!(jumps("a3"), ["a4a5", "b3c3", "b4c5"]);
        assert_eq!(jumps("c4"), ["b4a4", "c3c2", "c5c6", "d4e4"]);
    }

    /// The longest trail of jumps that never jumps a point twice, from `at`.
    fn longest_trail(at: u8, jumped: Bits) -> usize {
        LINES.jumps[usize::from(at)]
            .iter()
            .filter(|jump| jump.over != NONE && jumped & bit(jump.over) == 0)
            .map(|jump| 1 + longest_trail(jump.land, jumped | bit(jump.over)))
            .max()
            .unwrap_or(0)
    }

    /// No capture chain, in any position, has more than [`MAX_CHAIN`] jumps: a chain is such
    /// a trail (each captured rebel leaves the board), whatever else stands around. The lines
    /// are symmetric under the square's reflections, so starts with `x <= y <= 3` cover all.
    #[test]
    fn chains_have_at_most_19_jumps() {
        let starts = squares(POINTS).filter(|&s| {
            let Cell { x, y } = cell(s);
            x <= y && y <= 3
        });
        let longest = starts.map(|s| longest_trail(s, 0)).max();
        assert_eq!(longest, Some(MAX_CHAIN));
    }

    #[test]
    fn marked_lines_only_bind_rebels_on_rows_1_to_4() {
        let [plain, marked] = &REBEL_SOURCES;
        assert_eq!(plain[EAST] & bit(at("a3")), bit(at("a3")));
        assert_eq!(marked[EAST] & bit(at("a3")), 0);
        assert_eq!(marked[WEST] & bit(at("d4")), 0);
        assert_ne!(marked[EAST] & bit(at("a5")), 0);
        assert_ne!(marked[WEST] & bit(at("d7")), 0);
        for d in 1..4 {
            assert_eq!(plain[d], marked[d]);
        }
    }

    #[test]
    fn directions_between_cells() {
        let c = |l: &str| Cell::parse_grid_label(l).expect("a label");
        assert_eq!(direction(c("d4"), c("d5")), Some((2, 1)));
        assert_eq!(direction(c("d5"), c("d3")), Some((6, 2)));
        assert_eq!(direction(c("c3"), c("e5")), Some((1, 2)));
        assert_eq!(direction(c("c3"), c("d5")), None);
        assert_eq!(direction(c("c3"), c("c3")), None);
        assert_eq!(direction(c("c1"), c("c4")), None);
    }
}
