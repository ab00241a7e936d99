//! Shared by the army integration tests: the rulesets of rules.md section 1 written out by
//! hand (board, codes, battle matrices), a position-text builder, and a deliberately naive
//! second implementation of the army rules used as an oracle for `perft`.
//!
//! Nothing here reads the engine's tables: every fact is copied from rules.md, so that a
//! wrong table or a wrong rule in the engine shows up as a disagreement.

#![allow(dead_code)]

use std::collections::BTreeMap;

/// One army ruleset as rules.md describes it.
pub struct Ruleset {
    /// The catalog id.
    pub id: &'static str,
    /// Columns and rows.
    pub width: i8,
    pub height: i8,
    /// Labels of special squares.
    pub lakes: &'static [&'static str],
    pub castles: &'static [&'static str],
    pub trenches: &'static [&'static str],
    /// The 12 position-text codes, in the order of the rows and columns of `battles`.
    pub codes: [char; 12],
    /// Pieces per army, in `codes` order.
    pub counts: [u8; 12],
    /// Kinds that never move.
    pub immovable: &'static str,
    /// The flag's code.
    pub flag: char,
    /// The kind that moves any number of squares in a line.
    pub runner: char,
    /// Whether the runner may attack at the end of a long move.
    pub runner_attacks_at_range: bool,
    /// Repetition limit N.
    pub repetition: u32,
    /// `battles[attacker]`: one letter per defender, in `codes` order. `A` the attacker
    /// wins (and moves in), `D` the defender wins (and stays), `B` both fall, `-` the
    /// attacker's kind never attacks.
    pub battles: [&'static str; 12],
}

const CENTRE_LAKES: &[&str] = &["c5", "d5", "c6", "d6", "g5", "h5", "g6", "h6"];

/// rules.md 1.2. Codes: E espía 1, S soldado 2, A cabo armero 3, R sargento 4, T teniente 5,
/// C capitán 6, M mayor 7, O coronel 8, G general 9, L teniente general 10, B bomba,
/// F estandarte.
pub const FRENTE: Ruleset = Ruleset {
    id: "frente",
    width: 10,
    height: 10,
    lakes: CENTRE_LAKES,
    castles: &[],
    trenches: &[],
    codes: ['E', 'S', 'A', 'R', 'T', 'C', 'M', 'O', 'G', 'L', 'B', 'F'],
    counts: [1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6, 1],
    immovable: "BF",
    flag: 'F',
    runner: 'S',
    runner_attacks_at_range: false,
    repetition: 3,
    battles: [
        //   defender: E S A R T C M O G L B F
        /* E */
        "B D D D D D D D D A D A", // beats the Teniente General only when attacking
        /* S */ "A B D D D D D D D D D A",
        /* A */ "A A B D D D D D D D A A", // the Cabo Armero defuses bombs
        /* R */ "A A A B D D D D D D D A",
        /* T */ "A A A A B D D D D D D A",
        /* C */ "A A A A A B D D D D D A",
        /* M */ "A A A A A A B D D D D A",
        /* O */ "A A A A A A A B D D D A",
        /* G */ "A A A A A A A A B D D A",
        /* L */ "A A A A A A A A A B D A", // attacking the Espía, it wins
        /* B */ "- - - - - - - - - - - -",
        /* F */ "- - - - - - - - - - - -",
    ],
};

/// rules.md 1.3. Codes: E espía 1, X explorador 2, N minador 3, R sargento 4, T teniente 5,
/// C capitán 6, D comandante 7, O coronel 8, G general 9, M mariscal 10, B bomba, F bandera.
pub const CLASICO: Ruleset = Ruleset {
    id: "clasico",
    width: 10,
    height: 10,
    lakes: CENTRE_LAKES,
    castles: &[],
    trenches: &[],
    codes: ['E', 'X', 'N', 'R', 'T', 'C', 'D', 'O', 'G', 'M', 'B', 'F'],
    counts: [1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6, 1],
    immovable: "BF",
    flag: 'F',
    runner: 'X',
    runner_attacks_at_range: true,
    repetition: 3,
    battles: [
        //   defender: E X N R T C D O G M B F
        /* E */
        "B D D D D D D D D A D A", // beats the Mariscal only when attacking
        /* X */ "A B D D D D D D D D D A",
        /* N */ "A A B D D D D D D D A A", // the Minador defuses bombs
        /* R */ "A A A B D D D D D D D A",
        /* T */ "A A A A B D D D D D D A",
        /* C */ "A A A A A B D D D D D A",
        /* D */ "A A A A A A B D D D D A",
        /* O */ "A A A A A A A B D D D A",
        /* G */ "A A A A A A A A B D D A",
        /* M */ "A A A A A A A A A B D A",
        /* B */ "- - - - - - - - - - - -",
        /* F */ "- - - - - - - - - - - -",
    ],
};

/// rules.md 1.4. Codes: F bandera 0, B bomba 1, K granada 2, D desactivador 3, S soldado 4,
/// R sargento 5, T teniente 6, C capitán 7, Y mayor 8, O coronel 9, G general 10,
/// M mariscal 14. Battles by the first of rules 1-6 that applies.
pub const CASTILLOS: Ruleset = Ruleset {
    id: "castillos",
    width: 8,
    height: 10,
    lakes: &["c5", "c6", "f5", "f6"],
    castles: &["d5", "e6"],
    trenches: &["a6", "d6", "e5", "h5"],
    codes: ['F', 'B', 'K', 'D', 'S', 'R', 'T', 'C', 'Y', 'O', 'G', 'M'],
    counts: [1, 2, 2, 4, 3, 2, 2, 2, 2, 2, 1, 1],
    immovable: "FB",
    flag: 'F',
    runner: 'G',
    runner_attacks_at_range: false,
    repetition: 5,
    battles: [
        //   defender: F B K D S R T C Y O G M
        /* F */ "- - - - - - - - - - - -",
        /* B */ "- - - - - - - - - - - -",
        // rule 4 (flag, S..M, Mariscal too), rule 2 (B, K), rule 4 (falls to D)
        /* K */
        "A B B D A A A A A A A A",
        // rule 1 (B, K), rule 6 elsewhere
        /* D */ "A A A B D D D D D D D D",
        // rule 3 (B, K), rule 6 elsewhere
        /* S */ "A D D A B D D D D D D D",
        /* R */ "A D D A A B D D D D D D",
        /* T */ "A D D A A A B D D D D D",
        /* C */ "A D D A A A A B D D D D",
        /* Y */ "A D D A A A A A B D D D",
        /* O */ "A D D A A A A A A B D D",
        /* G */ "A D D A A A A A A A B D",
        // rule 3 (B, K), rule 5 (every *other* piece), rule 6 (Mariscal vs Mariscal)
        /* M */
        "A D D A A A A A A A A B",
    ],
};

/// The three army rulesets.
pub const ALL: [&Ruleset; 3] = [&FRENTE, &CLASICO, &CASTILLOS];

/// Rules.md's 400-turn draw.
pub const TURN_LIMIT: u32 = 400;

/// How a battle ends in a hand-written table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Attacker,
    Defender,
    Both,
}

impl Ruleset {
    /// The index of `code` (either case) in `codes`.
    pub fn index(&self, code: char) -> usize {
        let upper = code.to_ascii_uppercase();
        self.codes
            .iter()
            .position(|&c| c == upper)
            .unwrap_or_else(|| panic!("{} has no code {code}", self.id))
    }

    /// The table's verdict, `None` when the attacker's kind never attacks.
    pub fn battle(&self, attacker: char, defender: char) -> Option<Outcome> {
        let row: Vec<char> = self.battles[self.index(attacker)]
            .split(' ')
            .map(|cell| cell.chars().next().expect("one letter per cell"))
            .collect();
        assert_eq!(row.len(), 12, "{} row {attacker}", self.id);
        match row[self.index(defender)] {
            'A' => Some(Outcome::Attacker),
            'D' => Some(Outcome::Defender),
            'B' => Some(Outcome::Both),
            '-' => None,
            other => panic!("bad table letter {other}"),
        }
    }

    pub fn movable(&self, code: char) -> bool {
        !self.immovable.contains(code.to_ascii_uppercase())
    }

    pub fn is_lake(&self, square: Sq) -> bool {
        self.lakes.iter().any(|&label| sq(label) == square)
    }

    pub fn on_board(&self, (x, y): Sq) -> bool {
        (0..self.width).contains(&x) && (0..self.height).contains(&y)
    }

    /// Position text for `pieces` (label, code: uppercase seat 0, lowercase seat 1) with
    /// `to_move` to move, written cell by cell from rules.md's definition.
    pub fn text(&self, pieces: &[(&str, char)], to_move: u8) -> String {
        let mut at: BTreeMap<Sq, char> = BTreeMap::new();
        for &(label, code) in pieces {
            assert!(
                at.insert(sq(label), code).is_none(),
                "two pieces on {label}"
            );
        }
        let mut rows = Vec::new();
        for y in (0..self.height).rev() {
            let mut row = String::new();
            let mut run = 0;
            for x in 0..self.width {
                let content = if self.is_lake((x, y)) {
                    Some('~')
                } else {
                    at.get(&(x, y)).copied()
                };
                match content {
                    None => run += 1,
                    Some(c) => {
                        push_run(&mut row, &mut run);
                        row.push(c);
                    }
                }
            }
            push_run(&mut row, &mut run);
            rows.push(row);
        }
        format!("{} {to_move}", rows.join("/"))
    }
}

/// Empty cells as digits 1-9 (rules.md: "two digits in a row add up", so 10 is `91`).
fn push_run(row: &mut String, run: &mut u32) {
    while *run > 0 {
        let chunk = (*run).min(9);
        row.push_str(&chunk.to_string());
        *run -= chunk;
    }
}

/// A square as (column, row) from 0.
pub type Sq = (i8, i8);

/// The square of a label such as `a1` or `j10`.
pub fn sq(label: &str) -> Sq {
    let mut chars = label.chars();
    let column = chars.next().expect("a column letter");
    let row: i8 = chars.as_str().parse().expect("a row number");
    ((column as u8 - b'a') as i8, row - 1)
}

/// The label of a square.
pub fn label((x, y): Sq) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// A move as `from-to` labels; the separator does not matter to the oracle.
pub fn move_key(from: Sq, to: Sq) -> String {
    format!("{}-{}", label(from), label(to))
}

// ------------------------------------------------------------------------------------------
// The naive oracle.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Terrain {
    Open,
    Lake,
    Castle,
    Trench,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Man {
    seat: u8,
    code: char,
    /// Owner's turns ended on a castle since it last moved.
    castle_turns: u32,
}

/// A position under the naive rules: a 2-D array of pieces and explicit loops.
#[derive(Clone)]
pub struct Naive {
    rules: &'static Ruleset,
    /// Per square: lake, castle, trench (read once from the labels).
    terrain: [[Terrain; 10]; 10],
    board: [[Option<Man>; 10]; 10],
    to_move: u8,
    /// Per seat: the last move onto an empty square (from, to) and how many moves in a
    /// row that piece has made between those two squares.
    last: [Option<(Sq, Sq, u32)>; 2],
    quiet: u32,
    over: bool,
}

impl Naive {
    /// Reads position text by rules.md's definition.
    pub fn parse(rules: &'static Ruleset, text: &str) -> Naive {
        let (rows, seat) = text.split_once(' ').expect("rows and seat");
        let rows: Vec<&str> = rows.split('/').collect();
        assert_eq!(rows.len(), rules.height as usize);
        let mut board = [[None; 10]; 10];
        for (i, row) in rows.iter().enumerate() {
            let y = rules.height - 1 - i as i8;
            let mut x = 0i8;
            let mut run = 0i8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    run += d as i8;
                    continue;
                }
                x += run;
                run = 0;
                if c != '~' {
                    let seat = if c.is_ascii_uppercase() { 0 } else { 1 };
                    board[y as usize][x as usize] = Some(Man {
                        seat,
                        code: c.to_ascii_uppercase(),
                        castle_turns: 0,
                    });
                }
                x += 1;
            }
            assert_eq!(x + run, rules.width, "row {row}");
        }
        let mut terrain = [[Terrain::Open; 10]; 10];
        for (labels, kind) in [
            (rules.lakes, Terrain::Lake),
            (rules.castles, Terrain::Castle),
            (rules.trenches, Terrain::Trench),
        ] {
            for &label in labels {
                let (x, y) = sq(label);
                terrain[y as usize][x as usize] = kind;
            }
        }
        let mut naive = Naive {
            rules,
            terrain,
            board,
            to_move: seat.trim().parse().expect("seat 0 or 1"),
            last: [None, None],
            quiet: 0,
            over: false,
        };
        naive.settle(false);
        naive
    }

    fn at(&self, (x, y): Sq) -> Option<Man> {
        self.board[y as usize][x as usize]
    }

    fn terrain(&self, (x, y): Sq) -> Terrain {
        self.terrain[y as usize][x as usize]
    }

    fn put(&mut self, (x, y): Sq, man: Option<Man>) {
        self.board[y as usize][x as usize] = man;
    }

    fn squares(&self) -> Vec<Sq> {
        let mut all = Vec::new();
        for y in 0..self.rules.height {
            for x in 0..self.rules.width {
                all.push((x, y));
            }
        }
        all
    }

    /// Every legal move of `seat` as (from, to).
    fn moves_of(&self, seat: u8) -> Vec<(Sq, Sq)> {
        let rules = self.rules;
        let mut moves = Vec::new();
        let forbidden = match self.last[seat as usize] {
            Some((a, b, count)) if count >= rules.repetition => Some((b, a)),
            _ => None,
        };
        for from in self.squares() {
            let Some(man) = self.at(from) else { continue };
            if man.seat != seat || !rules.movable(man.code) {
                continue;
            }
            let runner = man.code == rules.runner;
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mut distance = 1;
                loop {
                    let to = (from.0 + dx * distance, from.1 + dy * distance);
                    if !rules.on_board(to) || self.terrain(to) == Terrain::Lake {
                        break;
                    }
                    match self.at(to) {
                        None => {
                            if forbidden != Some((from, to)) {
                                moves.push((from, to));
                            }
                            if !runner {
                                break;
                            }
                        }
                        Some(other) => {
                            let may_attack = distance == 1 || rules.runner_attacks_at_range;
                            if other.seat != seat
                                && may_attack
                                && self.terrain(to) != Terrain::Trench
                            {
                                moves.push((from, to));
                            }
                            break;
                        }
                    }
                    distance += 1;
                }
            }
        }
        moves
    }

    /// The legal moves of the seat to move, as `from-to` keys; none once the game is over.
    pub fn moves(&self) -> Vec<String> {
        if self.over {
            return Vec::new();
        }
        self.moves_of(self.to_move)
            .into_iter()
            .map(|(from, to)| move_key(from, to))
            .collect()
    }

    /// Plays a legal move given as (from, to).
    pub fn play(&mut self, from: Sq, to: Sq) {
        let rules = self.rules;
        let seat = self.to_move;
        let mover = self.at(from).expect("a piece to move");
        let mut progress = false;
        let mut flag_taken = false;
        match self.at(to) {
            None => {
                let count = match self.last[seat as usize] {
                    Some((a, b, count)) if a == to && b == from => count + 1,
                    _ => 1,
                };
                self.last[seat as usize] = Some((from, to, count));
                self.put(from, None);
                self.put(
                    to,
                    Some(Man {
                        castle_turns: 0,
                        ..mover
                    }),
                );
            }
            Some(defender) => {
                progress = true;
                self.last[seat as usize] = None;
                self.put(from, None);
                match rules.battle(mover.code, defender.code) {
                    Some(Outcome::Attacker) => {
                        flag_taken = defender.code == rules.flag;
                        self.put(
                            to,
                            Some(Man {
                                castle_turns: 0,
                                ..mover
                            }),
                        );
                    }
                    Some(Outcome::Defender) => {}
                    Some(Outcome::Both) => self.put(to, None),
                    None => panic!("{} never attacks", mover.code),
                }
            }
        }
        for square in self.squares() {
            if self.terrain(square) != Terrain::Castle {
                continue;
            }
            if let Some(mut man) = self.at(square).filter(|man| man.seat == seat) {
                man.castle_turns += 1;
                if man.castle_turns == 3 {
                    self.put(square, None);
                    progress = true;
                } else {
                    self.put(square, Some(man));
                }
            }
        }
        self.quiet = if progress { 0 } else { self.quiet + 1 };
        self.to_move = 1 - seat;
        self.settle(flag_taken);
    }

    fn settle(&mut self, flag_taken: bool) {
        let mut movable = [0; 2];
        for square in self.squares() {
            if let Some(man) = self.at(square).filter(|man| self.rules.movable(man.code)) {
                movable[man.seat as usize] += 1;
            }
        }
        self.over = flag_taken
            || movable.contains(&0)
            || self.quiet >= TURN_LIMIT
            || self.moves_of(self.to_move).is_empty();
    }

    /// Counts the sequences of `depth` legal moves.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = if self.over {
            Vec::new()
        } else {
            self.moves_of(self.to_move)
        };
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|(from, to)| {
                let mut next = self.clone();
                next.play(from, to);
                next.perft(depth - 1)
            })
            .sum()
    }
}
