//! Asalto and German Tactics (rules.md section 2): `asalto` and `tacticas` share one
//! engine, [`Siege`], parameterised by a [`Variant`].
//!
//! The board is a pair of bitboards over the 7×7 span (module `board`): rebel steps are
//! generated a direction at a time by shifting the whole rebel set, officer steps and
//! captures come from precomputed line and jump tables.
//!
//! # Turns, huffs and chains
//! - A rebel turn is an optional `huff` followed by one step; each is an action of its own
//!   (and counts as one in `perft`). After a huff the rebels are still to move and may not
//!   huff again.
//! - Every prefix of a capture chain is a legal action of its own, so stopping early is
//!   simply choosing a shorter chain.
//! - The officers that could capture at the start of the officers' turn become huffable
//!   when that turn's action is a step, wherever they stand after it (the officer that
//!   stepped included). Any capture, even by the other officer or a chain stopped early,
//!   leaves nobody huffable. The chance lasts for the rebels' next turn only.
//!
//! # Where rules.md is silent
//! - **A huff is a legal action.** The rebels lose with `NO_MOVES` only when they can
//!   neither huff nor step. A huff that leaves them without a step (and officers on the
//!   board) loses at once, since ends are checked after every action; a huff of the last
//!   officer wins with `OFFICERS_HUFFED`.
//! - **No "both unable" draw.** The ruleset names a winner for each side's lack of moves:
//!   officers without an action on their turn lose (`OFFICERS_TRAPPED`) even if the rebels
//!   could not move either, and rebels without an action lose (`NO_MOVES`).
//! - **The 100-turn limit** counts turns, not actions: a rebel turn of huff and step is one
//!   turn. A turn makes progress (the counter goes back to 0) when it captures, huffs (the
//!   seed calls huffing the only way to capture an officer) or moves a rebel to a higher
//!   row. The game is drawn as soon as 100 turns in a row made none.
//! - **Order of the end checks** after an action: fortress taken, both officers gone,
//!   fewer than 9 rebels, the side to move has no action (trapped officers, or rebels
//!   with no move), then the turn limit. A trap made on the 100th quiet turn still wins.
//! - **Position text** carries no history: no officer is huffable, no huff has been made
//!   this turn, and the turn counter is 0. Any number of rebels (0–24) and officers (0–2)
//!   may stand anywhere; a position that is already over is read as finished.

mod board;
mod moves;
mod text;
mod variant;
mod world;

use std::fmt;
use std::marker::PhantomData;

pub use moves::AsaltoMove;
pub use variant::{Asalto, Tacticas, Variant};

use board::{Bits, FORWARD, LINES, NONE, OFFSETS, POINTS, REBEL_SOURCES, SQUARES, bit, squares};
use moves::{Chain, MAX_CHAIN, Unpacked};

use crate::action::Action;
use crate::cell::Cell;
use crate::conduct::Conduct;
use crate::describe::{Description, KindId};
use crate::effect::{Effect, RemovalCause};
use crate::error::{NotationError, NotationProblem};
pub use crate::illegal::AsaltoIllegal;
use crate::illegal::Illegal;
use crate::notation;
use crate::outcome::{EndReason, Outcome};
use crate::rules::{Rules, Seed};
use crate::seat::{BySeat, Seat};
use crate::setup::Setup;
use crate::view::{AsaltoStatus, PieceId, PieceView, Sight, Status, View};

/// Turns in a row without a capture, a huff or a rebel advance after which the game is drawn.
pub const TURN_LIMIT: u32 = 100;
/// The officers win as soon as fewer rebels than this remain (they could not fill the
/// fortress).
const MIN_REBELS: u32 = 9;
/// The most pieces: 24 rebels and 2 officers.
const MAX_PIECES: usize = 26;
/// A piece's square once it has left the board.
const GONE: u8 = NONE;

/// The rebel kind's index in the description.
pub(crate) const REBEL: KindId = KindId(0);
/// The officer kind's index in the description.
pub(crate) const OFFICER: KindId = KindId(1);

/// An example of every action shape, for messages.
const EXAMPLE: &str = "d1-d2, d5xd3xf3 or huff d6";

/// For each direction, the landing points of the captures open to `officers` that way: over
/// one of `rebels` onto one of `free`.
#[inline]
fn landings_by_direction(officers: Bits, rebels: Bits, free: Bits) -> [Bits; 8] {
    std::array::from_fn(|d| {
        let over = board::shift(officers & LINES.jump_sources[d], OFFSETS[d]) & rebels;
        board::shift(over, OFFSETS[d]) & free
    })
}

/// A position of Asalto or German Tactics in play.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Siege<V: Variant> {
    rebels: Bits,
    officers: Bits,
    /// Officers the rebels may huff in this turn.
    huffable: Bits,
    /// In the officers' turn, the officers that can capture (empty in the rebels' turn).
    capturers: Bits,
    /// How many rebels are on the board.
    rebel_count: u32,
    to_move: Seat,
    /// Whether the rebels have huffed in this turn (they still have to step).
    huffed: bool,
    /// Completed turns since the last capture, huff or rebel advance.
    quiet_turns: u32,
    outcome: Option<Outcome>,
    /// Piece ids: `0..first_officer` are rebels, `first_officer..piece_count` officers.
    first_officer: u8,
    piece_count: u8,
    /// Per id: whether the piece has ever moved.
    moved: u32,
    /// Per square: the id of the piece there (meaningless on empty squares).
    id_at: [u8; SQUARES],
    /// Per id: its square, or [`GONE`].
    square_of: [u8; MAX_PIECES],
    variant: PhantomData<V>,
}

impl<V: Variant> fmt::Debug for Siege<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::rules::PositionText;
        write!(f, "{}({})", V::description().id, self.position_text())
    }
}

impl<V: Variant> Siege<V> {
    /// A position with rebels and officers on the given points and no history. Piece ids
    /// follow reading order from a1, rebels first, as from a setup. Decides at once whether
    /// the game is already over.
    fn new(rebels: Bits, officers: Bits, to_move: Seat) -> Self {
        let mut position = Siege {
            rebels,
            officers,
            huffable: 0,
            capturers: 0,
            rebel_count: rebels.count_ones(),
            to_move,
            huffed: false,
            quiet_turns: 0,
            outcome: None,
            first_officer: rebels.count_ones() as u8,
            piece_count: 0,
            moved: 0,
            id_at: [GONE; SQUARES],
            square_of: [GONE; MAX_PIECES],
            variant: PhantomData,
        };
        for (id, s) in squares(rebels).chain(squares(officers)).enumerate() {
            position.id_at[usize::from(s)] = id as u8;
            position.square_of[id] = s;
            position.piece_count += 1;
        }
        position.settle();
        position
    }

    /// The points the rebels stand on, in reading order from a1.
    pub fn rebel_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        squares(self.rebels).map(board::cell)
    }

    /// The points the officers stand on, in reading order from a1.
    pub fn officer_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        squares(self.officers).map(board::cell)
    }

    /// Points with no piece.
    fn free(&self) -> Bits {
        POINTS & !(self.rebels | self.officers)
    }

    /// The squares rebels can step to in forward direction `d`.
    #[inline]
    fn rebel_targets(&self, d: usize, free: Bits) -> Bits {
        let sources = REBEL_SOURCES[usize::from(V::MARKED)][d];
        board::shift(self.rebels & sources, OFFSETS[d]) & free
    }

    /// Whether some rebel can step.
    fn rebels_can_step(&self) -> bool {
        let free = self.free();
        (0..FORWARD).any(|d| self.rebel_targets(d, free) != 0)
    }

    /// The officers that can capture now: each landing point, two steps back.
    fn find_capturers(&self) -> Bits {
        landings_by_direction(self.officers, self.rebels, self.free())
            .into_iter()
            .zip(OFFSETS)
            .fold(0, |found, (landings, offset)| {
                found | board::shift(landings, -2 * offset)
            })
    }

    /// Whether the side to move has a legal action.
    fn can_act(&self) -> bool {
        match self.to_move {
            Seat::First => self.huffable != 0 || self.rebels_can_step(),
            Seat::Second => {
                let free = self.free();
                self.capturers != 0
                    || squares(self.officers).any(|s| LINES.steps[usize::from(s)] & free != 0)
            }
        }
    }

    /// Appends every capture chain that continues `chain` from `at` (officer started on
    /// `from`), each prefix as its own move. `rebels` are those not yet captured; `others`
    /// the other officers.
    fn push_chains(
        from: u8,
        at: u8,
        chain: Chain,
        rebels: Bits,
        others: Bits,
        out: &mut Vec<AsaltoMove>,
    ) {
        let free = POINTS & !(rebels | others);
        let landings = landings_by_direction(bit(at), rebels, free);
        for land in squares(landings.into_iter().fold(0, |all, set| all | set)) {
            let over = board::midpoint(at, land);
            let chain = chain.then(board::step_direction(at, over));
            out.push(AsaltoMove::jump(from, chain));
            let rebels = rebels & !bit(over);
            if rebels & LINES.overs[usize::from(land)] != 0 {
                Self::push_chains(from, land, chain, rebels, others, out);
            }
        }
    }

    /// Moves the piece on `from` to the empty point `to`.
    fn relocate(&mut self, from: u8, to: u8) {
        let id = self.id_at[usize::from(from)];
        self.id_at[usize::from(to)] = id;
        self.square_of[usize::from(id)] = to;
        self.moved |= 1 << id;
    }

    /// Takes the piece on `s` off the board (the caller updates the sets).
    fn remove(&mut self, s: u8, cause: RemovalCause, effects: &mut Vec<Effect>) {
        let id = self.id_at[usize::from(s)];
        self.square_of[usize::from(id)] = GONE;
        effects.push(Effect::Removed {
            piece: PieceId(u32::from(id)),
            at: board::cell(s),
            cause,
        });
    }

    /// Closes the mover's turn.
    fn end_turn(&mut self, progress: bool) {
        self.quiet_turns = if progress { 0 } else { self.quiet_turns + 1 };
        self.to_move = !self.to_move;
    }

    /// Readies the turn of the side to move (which officers can capture) and decides whether
    /// the game is over, checking in the order of the module docs.
    fn settle(&mut self) {
        self.capturers = match self.to_move {
            Seat::First => 0,
            Seat::Second => self.find_capturers(),
        };
        self.outcome = if board::FORTRESS & !self.rebels == 0 {
            Some(Outcome::win(Seat::First, EndReason::FortressTaken))
        } else if self.officers == 0 {
            Some(Outcome::win(Seat::First, EndReason::OfficersHuffed))
        } else if self.rebel_count < MIN_REBELS {
            Some(Outcome::win(Seat::Second, EndReason::RebelsTooFew))
        } else if !self.can_act() {
            Some(match self.to_move {
                Seat::First => Outcome::win(Seat::Second, EndReason::NoMoves),
                Seat::Second => Outcome::win(Seat::First, EndReason::OfficersTrapped),
            })
        } else if self.quiet_turns >= TURN_LIMIT {
            Some(Outcome::draw(EndReason::MoveLimit))
        } else {
            None
        };
    }

    /// The mover's pieces.
    fn own(&self) -> Bits {
        match self.to_move {
            Seat::First => self.rebels,
            Seat::Second => self.officers,
        }
    }

    /// The square of a cell, or why it is not a point.
    fn point(cell: Cell) -> Result<u8, Illegal> {
        board::square(cell).ok_or(Illegal::OffBoard(cell))
    }

    /// The square of a cell holding one of the mover's pieces.
    fn own_piece(&self, cell: Cell) -> Result<u8, Illegal> {
        let s = Self::point(cell)?;
        if self.own() & bit(s) == 0 {
            return Err(Illegal::NoOwnPiece(board::label(s)));
        }
        Ok(s)
    }

    fn check_step(&self, from: Cell, to: Cell) -> Result<AsaltoMove, Illegal> {
        let s = self.own_piece(from)?;
        let t = Self::point(to)?;
        let line = || AsaltoIllegal::NoLine(board::label(s), board::label(t));
        let (d, distance) = board::direction(from, to).ok_or_else(line)?;
        let rebel = self.to_move == Seat::First;
        if distance == 2 {
            return Err(if rebel {
                AsaltoIllegal::RebelsNeverJump
            } else {
                AsaltoIllegal::CaptureWithX(board::label(s), board::label(t))
            }
            .into());
        }
        if LINES.neighbour[usize::from(s)][d] != t {
            return Err(line().into());
        }
        if rebel && d >= FORWARD {
            return Err(AsaltoIllegal::Backwards.into());
        }
        if rebel && V::MARKED && board::marked(board::row(s), d) {
            return Err(AsaltoIllegal::MarkedLine(board::label(s), board::label(t)).into());
        }
        if self.free() & bit(t) == 0 {
            return Err(AsaltoIllegal::Occupied(board::label(t)).into());
        }
        Ok(AsaltoMove::step(s, t))
    }

    fn check_jump(&self, from: Cell, landings: &[Cell]) -> Result<AsaltoMove, Illegal> {
        let s = self.own_piece(from)?;
        if self.to_move == Seat::First {
            return Err(AsaltoIllegal::RebelsNeverJump.into());
        }
        if landings.is_empty() {
            return Err(AsaltoIllegal::NoLanding.into());
        }
        if landings.len() > MAX_CHAIN {
            return Err(AsaltoIllegal::ChainTooLong(MAX_CHAIN).into());
        }
        let others = self.officers & !bit(s);
        let (mut at, mut rebels, mut chain) = (s, self.rebels, Chain::EMPTY);
        for &landing in landings {
            let land = Self::point(landing)?;
            let not_a_jump = || AsaltoIllegal::NotAJump(board::label(at), board::label(land));
            let d = match board::direction(board::cell(at), landing) {
                Some((d, 2)) if LINES.jumps[usize::from(at)][d].land == land => d,
                _ => return Err(not_a_jump().into()),
            };
            let over = LINES.jumps[usize::from(at)][d].over;
            if others & bit(over) != 0 {
                return Err(AsaltoIllegal::OfficerOverOfficer(board::label(over)).into());
            }
            if rebels & bit(over) == 0 {
                return Err(AsaltoIllegal::NothingToJump(board::label(over)).into());
            }
            if (rebels | others) & bit(land) != 0 {
                return Err(AsaltoIllegal::Occupied(board::label(land)).into());
            }
            rebels &= !bit(over);
            chain = chain.then(d);
            at = land;
        }
        Ok(AsaltoMove::jump(s, chain))
    }

    fn check_huff(&self, officer: Cell) -> Result<AsaltoMove, Illegal> {
        if self.to_move != Seat::First {
            return Err(AsaltoIllegal::OnlyRebelsHuff.into());
        }
        let s = Self::point(officer)?;
        if self.huffed {
            return Err(AsaltoIllegal::AlreadyHuffed.into());
        }
        if self.officers & bit(s) == 0 {
            return Err(AsaltoIllegal::NoOfficer(board::label(s)).into());
        }
        if self.huffable & bit(s) == 0 {
            return Err(AsaltoIllegal::NotHuffable(board::label(s)).into());
        }
        Ok(AsaltoMove::huff(s))
    }
}

impl<V: Variant> Rules for Siege<V> {
    type Move = AsaltoMove;

    fn description() -> &'static Description {
        V::description()
    }

    fn start(setups: &BySeat<Option<Setup>>, _seed: Seed) -> Self {
        let officers = setups[Seat::Second]
            .iter()
            .flat_map(|setup| setup.pieces())
            .filter_map(|&(cell, _)| board::square(cell))
            .fold(0, |set, s| set | bit(s));
        Siege::new(board::REBEL_START, officers, Seat::First)
    }

    fn fixed_pieces() -> Vec<(Seat, Cell, KindId)> {
        squares(board::REBEL_START)
            .map(|s| (Seat::First, board::cell(s), REBEL))
            .collect()
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<AsaltoMove>) {
        if self.outcome.is_some() {
            return;
        }
        let free = self.free();
        match self.to_move {
            Seat::First => {
                out.extend(squares(self.huffable).map(AsaltoMove::huff));
                for (d, &offset) in OFFSETS[..FORWARD].iter().enumerate() {
                    out.extend(squares(self.rebel_targets(d, free)).map(|to| {
                        let from = (to as i8 - offset) as u8;
                        AsaltoMove::step(from, to)
                    }));
                }
            }
            Seat::Second => {
                for from in squares(self.officers) {
                    out.extend(
                        squares(LINES.steps[usize::from(from)] & free)
                            .map(|to| AsaltoMove::step(from, to)),
                    );
                    if self.capturers & bit(from) != 0 {
                        let others = self.officers & !bit(from);
                        Self::push_chains(from, from, Chain::EMPTY, self.rebels, others, out);
                    }
                }
            }
        }
    }

    fn check(&self, action: &Action) -> Result<AsaltoMove, Illegal> {
        if self.outcome.is_some() {
            return Err(AsaltoIllegal::GameOver.into());
        }
        match action {
            &Action::Step { from, to } => self.check_step(from, to),
            Action::Jump { from, landings } => self.check_jump(*from, landings),
            &Action::Huff { officer } => self.check_huff(officer),
            _ => Err(Illegal::WrongShape { example: EXAMPLE }),
        }
    }

    fn play_unchecked(&mut self, mv: AsaltoMove, effects: &mut Vec<Effect>) {
        match mv.unpack() {
            Unpacked::Step { from, to } => {
                self.relocate(from, to);
                let moved = bit(from) | bit(to);
                match self.to_move {
                    Seat::First => {
                        self.rebels ^= moved;
                        let progress = board::row(to) > board::row(from) || self.huffed;
                        self.huffable = 0;
                        self.huffed = false;
                        self.end_turn(progress);
                    }
                    Seat::Second => {
                        let capturers = self.capturers;
                        self.officers ^= moved;
                        self.huffable = if capturers & bit(from) != 0 {
                            capturers ^ moved
                        } else {
                            capturers
                        };
                        self.end_turn(false);
                    }
                }
            }
            Unpacked::Jump { from, chain } => {
                let mut at = from;
                for d in chain.directions() {
                    let jump = LINES.jumps[usize::from(at)][d];
                    self.remove(jump.over, RemovalCause::Jumped, effects);
                    self.rebels &= !bit(jump.over);
                    self.rebel_count -= 1;
                    at = jump.land;
                }
                self.relocate(from, at);
                self.officers = self.officers & !bit(from) | bit(at);
                self.huffable = 0;
                self.end_turn(true);
            }
            Unpacked::Huff { officer } => {
                self.remove(officer, RemovalCause::Huffed, effects);
                self.officers &= !bit(officer);
                self.huffable = 0;
                self.huffed = true;
                self.quiet_turns = 0;
            }
        }
        self.settle();
        if let Some(outcome) = self.outcome {
            effects.push(Effect::Ended(outcome));
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn view(&self, _sight: Sight) -> View {
        // Nothing is hidden in Asalto: every sight sees everything.
        let pieces = (0..self.piece_count).map(|id| {
            let s = self.square_of[usize::from(id)];
            let rebel = id < self.first_officer;
            let view = PieceView {
                id: PieceId(u32::from(id)),
                cell: (s != GONE).then(|| board::cell(s)),
                owner: if rebel { Seat::First } else { Seat::Second },
                kind: Some(if rebel { REBEL } else { OFFICER }),
                revealed: true,
                moved: self.moved & 1 << id != 0,
                facing: None,
                conduct: Conduct::default(),
            };
            (view, s != GONE)
        });
        View::new(
            self.outcome.is_none().then_some(self.to_move),
            pieces,
            Status::Asalto(AsaltoStatus {
                huffable: squares(self.huffable).map(board::cell).collect(),
                turns_without_progress: self.quiet_turns,
                turn_limit: TURN_LIMIT,
            }),
        )
    }

    fn action(&self, mv: AsaltoMove) -> Action {
        match mv.unpack() {
            Unpacked::Step { from, to } => Action::Step {
                from: board::cell(from),
                to: board::cell(to),
            },
            Unpacked::Jump { from, chain } => Action::Jump {
                from: board::cell(from),
                landings: chain.landings(from).map(board::cell).collect(),
            },
            Unpacked::Huff { officer } => Action::Huff {
                officer: board::cell(officer),
            },
        }
    }

    fn notation(&self, mv: AsaltoMove) -> String {
        mv.to_string()
    }

    fn parse_notation(text: &str) -> Result<Action, NotationError> {
        let on_board = |cell| board::square(cell).is_some();
        let malformed = || NotationError {
            text: text.to_owned(),
            problem: NotationProblem::Malformed,
            example: EXAMPLE,
        };
        let trimmed = text.trim();
        if let Some(rest) = trimmed.strip_prefix("huff") {
            if !rest.starts_with(char::is_whitespace) {
                return Err(malformed());
            }
            return match notation::parse_path(rest, EXAMPLE, on_board)?.as_slice() {
                &[(officer, None)] => Ok(Action::Huff { officer }),
                _ => Err(malformed()),
            };
        }
        match notation::parse_path(trimmed, EXAMPLE, on_board)?.as_slice() {
            &[(from, None), (to, Some('-'))] => Ok(Action::Step { from, to }),
            [(from, None), rest @ ..]
                if !rest.is_empty() && rest.iter().all(|&(_, s)| s == Some('x')) =>
            {
                Ok(Action::Jump {
                    from: *from,
                    landings: rest.iter().map(|&(cell, _)| cell).collect(),
                })
            }
            _ => Err(malformed()),
        }
    }
}

#[cfg(test)]
mod tests;
