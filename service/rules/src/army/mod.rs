//! The hidden-army family (rules.md section 1): `frente`, `clasico` and `castillos` share
//! one engine, [`Army`], parameterised by a [`Variant`].
//!
//! The board is a padded mailbox: every board square has a one-square wall around it, so
//! sliding and stepping never need bounds checks. Lakes are walls too. Beside it, each
//! seat's pieces are kept as sets of squares ([`bits`]), on which move generation works a
//! whole set of pieces at a time.
//!
//! # Decisions where rules.md is silent
//!
//! - **Repetition** counts a player's consecutive moves of one piece onto *empty* squares
//!   between the same two squares, the first such move counting 1: with N = 3, `a1-a2`,
//!   `a2-a1`, `a1-a2` are legal and the next `a2-a1` is not. Long moves count like steps.
//!   An attack is not a shuttle: it is never banned (even onto the banned square, once an
//!   enemy has stepped there) and it resets the count, as does any other move of the same
//!   player, whichever piece makes it. The opponent's moves change nothing.
//! - **Equal kinds** always both fall (rules.md 1.1), including Espía against Espía and,
//!   in `castillos`, Mariscal against Mariscal (rule 5 speaks of "every *other* piece").
//! - **Ends** are checked after every action in this order: flag captured; a seat without
//!   movable pieces (both at once, e.g. the last two falling in one battle: a draw,
//!   `ONLY_IMMOVABLE_LEFT`); 400 quiet turns (`MOVE_LIMIT`, even if the next player could
//!   not move either); the seat to move has no legal move (`NO_MOVES`, a draw if the other
//!   seat has none either). A repetition ban can be what leaves a player without a move.
//! - **Quiet turns** for the 400-turn rule are turns without a battle and without a castle
//!   removal: a removal counts as a capture.
//! - **Revealing**: a move of more than one square reveals the runner; a one-square move
//!   never does, whatever the kind. A long-range attack reveals both kinds as any battle.
//!   A piece removed in a castle is not revealed by its removal.
//! - **Castles** count only the turns of the occupant's owner; the turn a piece enters,
//!   by a move, a long move or a won attack, is its first. Leaving, or being replaced by
//!   an attacker, restarts the count. The rule applies to any piece on a castle, so a bomb
//!   or flag placed on one by position text (setups cannot) is removed after three of its
//!   owner's turns, a flag's removal losing the game as a capture would.
//! - **Trenches** protect their occupant from every attack, at any range; the occupant may
//!   attack out, and a runner may pass over empty trenches and castles.
//! - Once the game is over, [`Rules::check`] refuses everything ("the game is over").

mod bits;
mod castillos;
mod clasico;
mod frente;
mod lakes;
pub mod spec;
mod text;
mod world;

use std::fmt;
use std::marker::PhantomData;
use std::ops::ControlFlow;

use bits::{Bits, DIRECTIONS};
pub use castillos::Castillos;
pub use clasico::Clasico;
pub use frente::Frente;
use spec::{MAX_PIECES, Mobility, PADDED_CELLS, Spec};

use crate::action::Action;
use crate::cell::Cell;
use crate::conduct::Conduct;
use crate::describe::{Description, KindId};
use crate::effect::{BattleResult, Effect, RemovalCause};
use crate::error::NotationError;
pub use crate::illegal::ArmyIllegal;
use crate::illegal::Illegal;
use crate::notation;
use crate::outcome::{EndReason, Outcome};
use crate::rules::{Rules, Seed};
use crate::seat::{BySeat, Seat};
use crate::setup::Setup;
use crate::view::{ArmyStatus, PieceId, PieceView, Sight, Status, View};

/// Turns in a row without a battle or removal after which the game is drawn.
pub const TURN_LIMIT: u32 = 400;
/// Owner's turns a piece may end on a castle; it is removed at the end of the last.
const CASTLE_TURNS: u8 = 3;

/// Board content: no piece.
const EMPTY: u8 = 0xFF;
/// Board content: off the board or a lake.
const WALL: u8 = 0xFE;
/// A piece's square once it has left the board (square 0 is always a wall).
const GONE: u8 = 0;

/// One army ruleset: its data and derived tables.
pub trait Variant: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// The variant's tables, built once.
    fn spec() -> &'static Spec;
}

/// A move of an army game: a step, a long move or an attack, between padded squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArmyMove {
    from: u8,
    to: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Piece {
    kind: u8,
    /// The kind's mobility, copied here because it says which of [`Troops`]' sets hold the
    /// piece.
    mobility: Mobility,
    owner: Seat,
    /// Padded square, or [`GONE`].
    square: u8,
    revealed: bool,
    moved: bool,
    /// What its steps showed while it was hidden.
    conduct: Conduct,
}

impl Piece {
    /// The piece as a search reads it (on the board: not [`GONE`]).
    fn on_board(&self) -> BoardPiece {
        BoardPiece {
            cell: bits::cell(self.square),
            owner: self.owner,
            kind: KindId(self.kind),
            revealed: self.revealed,
            moved: self.moved,
        }
    }

    const NONE: Piece = Piece {
        kind: 0,
        mobility: Mobility::Immovable,
        owner: Seat::First,
        square: GONE,
        revealed: false,
        moved: false,
        conduct: Conduct::NONE,
    };
}

/// The last non-attacking move of a seat, and how many times in a row the same piece has
/// shuttled between the same two squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Shuttle {
    slot: u8,
    from: u8,
    to: u8,
    count: u8,
}

/// One seat's pieces on the board as sets of squares, kept in step with the mailbox: move
/// generation works on these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Troops {
    /// Every piece.
    occupied: Bits,
    /// The pieces that move one square ([`Mobility::Step`]).
    steppers: Bits,
    /// The pieces that run along lines ([`Mobility::Long`]).
    runners: Bits,
}

impl Troops {
    /// Toggles `squares` in `occupied` and in the set of `mobility`, if it has one: with the
    /// square of a piece this adds or removes it, with both of its squares it moves it.
    fn toggle(&mut self, squares: Bits, mobility: Mobility) {
        self.occupied ^= squares;
        match mobility {
            Mobility::Immovable => {}
            Mobility::Step => self.steppers ^= squares,
            Mobility::Long { .. } => self.runners ^= squares,
        }
    }

    /// The pieces that can move.
    fn movers(&self) -> Bits {
        self.steppers | self.runners
    }
}

/// Where the pieces of one seat may go, for [`Army::for_each_move_set`].
struct Targets {
    /// Open squares without a piece.
    empty: Bits,
    /// Enemy pieces outside trenches.
    attackable: Bits,
    /// Whether runners may attack at the end of a long move.
    range_attacks: bool,
}

impl Targets {
    /// Calls `f` with the sets of moves of `troops` in `direction`, one per distance: the
    /// one-square moves and attacks of all its movable pieces, then the runners' longer
    /// moves. Inlined into each call, where `direction` is a constant.
    #[inline(always)]
    fn moves_toward(
        &self,
        direction: i8,
        troops: &Troops,
        f: &mut impl FnMut(Bits, u8) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let step = direction as u8;
        let reached = bits::shift(troops.movers(), direction);
        f(reached & (self.attackable | self.empty), step)?;
        // The squares runners reached over empty squares only, `offset` away.
        let mut frontier = bits::shift(troops.runners, direction) & self.empty;
        let mut offset = step;
        while frontier != 0 {
            offset = offset.wrapping_add(step);
            let reached = bits::shift(frontier, direction);
            let attacks = if self.range_attacks {
                reached & self.attackable
            } else {
                0
            };
            frontier = reached & self.empty;
            f(attacks | frontier, offset)?;
        }
        ControlFlow::Continue(())
    }
}

/// A piece on the board of an army position, as a search reads it (a bot's determinized
/// world: every kind is its guess).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardPiece {
    /// Where it stands.
    pub cell: Cell,
    /// Its owner.
    pub owner: Seat,
    /// Its kind.
    pub kind: KindId,
    /// Whether the opponent knows its kind.
    pub revealed: bool,
    /// Whether it has ever moved.
    pub moved: bool,
}

/// A position of an army game in play.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Army<V: Variant> {
    /// Per padded square: [`EMPTY`], [`WALL`], or the slot of the piece there.
    board: [u8; PADDED_CELLS],
    /// Pieces by slot; seat 0's slots come first.
    pieces: [Piece; MAX_PIECES],
    len: u8,
    to_move: Seat,
    /// Per seat, its pieces on the board as sets of squares.
    troops: BySeat<Troops>,
    shuttle: BySeat<Option<Shuttle>>,
    /// Turns since the last battle or removal.
    quiet_turns: u32,
    /// Per castle (spec order): owner's turns its occupant has ended there.
    castle_turns: [u8; 2],
    outcome: Option<Outcome>,
    variant: PhantomData<V>,
}

impl<V: Variant> fmt::Debug for Army<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::rules::PositionText;
        write!(f, "{}({})", V::spec().data.id, self.position_text())
    }
}

impl<V: Variant> Army<V> {
    /// An empty board with seat 0 to move; pieces are added with [`Army::add`] in slot order
    /// (all of seat 0's first), then [`Army::settle`] decides whether the game is already over.
    fn empty(to_move: Seat) -> Self {
        let spec = V::spec();
        let mut board = [WALL; PADDED_CELLS];
        for (square, &open) in spec.open.iter().enumerate() {
            if open {
                board[square] = EMPTY;
            }
        }
        Army {
            board,
            pieces: [Piece::NONE; MAX_PIECES],
            len: 0,
            to_move,
            troops: BySeat::default(),
            shuttle: BySeat([None, None]),
            quiet_turns: 0,
            castle_turns: [0; 2],
            outcome: None,
            variant: PhantomData,
        }
    }

    /// Places a piece; seat 0's pieces must all come before seat 1's.
    fn add(&mut self, cell: Cell, kind: KindId, owner: Seat) {
        let spec = V::spec();
        let square = spec.square(cell);
        let slot = self.len;
        let mobility = spec.kind(kind.0).mobility;
        self.pieces[usize::from(slot)] = Piece {
            kind: kind.0,
            mobility,
            owner,
            square: square as u8,
            ..Piece::NONE
        };
        self.board[square] = slot;
        self.len += 1;
        self.troops[owner].toggle(bits::bit(square as u8), mobility);
    }

    /// The move that the repetition limit forbids to `seat` now, if any. It goes onto an
    /// empty square: once an enemy stands there, the same squares make an attack, which is
    /// never banned.
    fn forbidden(&self, seat: Seat) -> Option<ArmyMove> {
        let limit = V::spec().data.repetition_limit;
        self.shuttle[seat]
            .filter(|shuttle| shuttle.count >= limit)
            .map(|shuttle| ArmyMove {
                from: shuttle.to,
                to: shuttle.from,
            })
            .filter(|mv| self.board[usize::from(mv.to)] == EMPTY)
    }

    /// Calls `f` with the moves of `seat` in sets, until it breaks: `f(ends, offset)` stands
    /// for the moves from `to - offset` to each square `to` of `ends` (squares are u8 and
    /// offsets wrap). No move is in two sets; sets may be empty. These are the legal moves
    /// but for the repetition limit: the [`Army::forbidden`] move is among them.
    fn for_each_move_set(
        &self,
        seat: Seat,
        mut f: impl FnMut(Bits, u8) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let spec = V::spec();
        let (own, enemy) = (&self.troops[seat], &self.troops[!seat]);
        let targets = Targets {
            empty: spec.open_squares & !(own.occupied | enemy.occupied),
            attackable: enemy.occupied & spec.exposed_squares,
            range_attacks: spec.runners_attack_at_range,
        };
        // One call per direction rather than a loop, so that each one shifts by a constant.
        let [east, west, north, south] = DIRECTIONS;
        targets.moves_toward(east, own, &mut f)?;
        targets.moves_toward(west, own, &mut f)?;
        targets.moves_toward(north, own, &mut f)?;
        targets.moves_toward(south, own, &mut f)
    }

    fn has_move(&self, seat: Seat) -> bool {
        let forbidden = self.forbidden(seat);
        self.for_each_move_set(seat, |ends, offset| {
            let allowed = match forbidden {
                Some(mv) if mv.to.wrapping_sub(mv.from) == offset => ends & !bits::bit(mv.to),
                _ => ends,
            };
            if allowed == 0 {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })
        .is_break()
    }

    /// Empties `square`, restarting its castle count.
    fn vacate(&mut self, square: u8) {
        self.board[usize::from(square)] = EMPTY;
        if let Some(castle) = V::spec().castles.iter().position(|&c| c == square) {
            self.castle_turns[castle] = 0;
        }
    }

    /// Takes the piece in `slot` off the board.
    fn remove(&mut self, slot: u8) {
        let piece = self.pieces[usize::from(slot)];
        self.pieces[usize::from(slot)].square = GONE;
        self.troops[piece.owner].toggle(bits::bit(piece.square), piece.mobility);
        if V::spec().kind(piece.kind).is_flag {
            let winner = !piece.owner;
            self.outcome = Some(Outcome::win(winner, EndReason::FlagCaptured));
        }
        self.vacate(piece.square);
    }

    /// Puts the piece in `slot` on `to` (which must be empty).
    /// Notes, before the mover plays `mv`, each of its hidden pieces that could attack a
    /// revealed enemy piece and does not: it declined that kind ([`Conduct`]).
    fn note_declines(&mut self, mv: ArmyMove) {
        let spec = V::spec();
        let seat = self.to_move;
        for target in 0..usize::from(self.len) {
            let enemy = self.pieces[target];
            let attackable = enemy.square != GONE && !spec.trench[usize::from(enemy.square)];
            if enemy.owner == seat || !enemy.revealed || !attackable {
                continue;
            }
            for step in DIRECTIONS {
                let square = enemy.square.wrapping_add_signed(step);
                let slot = self.board[usize::from(square)];
                if slot >= WALL || (mv.from == square && mv.to == enemy.square) {
                    continue;
                }
                let piece = &mut self.pieces[usize::from(slot)];
                if piece.owner == seat && !piece.revealed && piece.mobility != Mobility::Immovable {
                    piece.conduct.declined.insert(KindId(enemy.kind));
                }
            }
        }
    }

    fn relocate(&mut self, slot: u8, to: u8) {
        let from = self.pieces[usize::from(slot)].square;
        self.vacate(from);
        self.board[usize::from(to)] = slot;
        let piece = &mut self.pieces[usize::from(slot)];
        piece.square = to;
        piece.moved = true;
        let (owner, mobility) = (piece.owner, piece.mobility);
        self.troops[owner].toggle(bits::bit(from) | bits::bit(to), mobility);
    }

    /// The public id and the kind of the piece in `slot`. Ids are slots: the starting
    /// order (seat 0's pieces in reading order from a1, then seat 1's), which says nothing
    /// about kinds.
    fn piece_id(&self, slot: u8) -> (PieceId, KindId) {
        let piece = self.pieces[usize::from(slot)];
        (PieceId(u32::from(slot)), KindId(piece.kind))
    }

    /// Ends the mover's turn on castles: its pieces there count one more turn, and leave
    /// the game after the third. Returns whether a piece was removed.
    fn count_castle_turns(&mut self, seat: Seat, effects: &mut Vec<Effect>) -> bool {
        let spec = V::spec();
        let mut removed = false;
        for (castle, &square) in spec.castles.iter().enumerate() {
            let slot = self.board[usize::from(square)];
            if slot >= WALL || self.pieces[usize::from(slot)].owner != seat {
                continue;
            }
            self.castle_turns[castle] += 1;
            if self.castle_turns[castle] >= CASTLE_TURNS {
                effects.push(Effect::Removed {
                    piece: self.piece_id(slot).0,
                    at: spec.cell(square),
                    cause: RemovalCause::Castle,
                });
                self.remove(slot);
                removed = true;
            }
        }
        removed
    }

    /// Decides whether the game is over after an action (or at the start), in rules.md's
    /// order: flag, only immovable pieces left, turn limit, no legal move.
    fn settle(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let stranded = self.troops.map(|troops| troops.movers() == 0);
        self.outcome = match stranded.0 {
            [true, true] => Some(Outcome::draw(EndReason::OnlyImmovableLeft)),
            [true, false] => Some(Outcome::win(Seat::Second, EndReason::OnlyImmovableLeft)),
            [false, true] => Some(Outcome::win(Seat::First, EndReason::OnlyImmovableLeft)),
            [false, false] if self.quiet_turns >= TURN_LIMIT => {
                Some(Outcome::draw(EndReason::MoveLimit))
            }
            [false, false] if !self.has_move(self.to_move) => {
                Some(if self.has_move(!self.to_move) {
                    Outcome::win(!self.to_move, EndReason::NoMoves)
                } else {
                    Outcome::draw(EndReason::NoMoves)
                })
            }
            [false, false] => None,
        };
    }

    fn label(square: u8) -> String {
        V::spec().label(square)
    }

    /// Every piece on the board, without building a [`View`].
    pub fn board_pieces(&self) -> impl Iterator<Item = BoardPiece> + '_ {
        self.pieces[..usize::from(self.len)]
            .iter()
            .filter(|piece| piece.square != GONE)
            .map(Piece::on_board)
    }

    /// `seat`'s revealed pieces next to an enemy piece that moves and wins attacking them:
    /// what the enemy can knowingly take on its turn.
    pub fn exposed(&self, seat: Seat) -> impl Iterator<Item = BoardPiece> + '_ {
        let spec = V::spec();
        let beats = move |slot: u8, defender: &Piece| {
            let Some(enemy) = self.pieces.get(usize::from(slot)) else {
                return false;
            };
            enemy.owner != defender.owner
                && enemy.mobility != Mobility::Immovable
                && spec.battle[usize::from(enemy.kind)][usize::from(defender.kind)]
                    == BattleResult::AttackerWins
        };
        self.pieces[..usize::from(self.len)]
            .iter()
            .filter(move |piece| piece.owner == seat && piece.revealed && piece.square != GONE)
            .filter(move |piece| {
                DIRECTIONS.iter().any(|&step| {
                    let square = piece.square.wrapping_add_signed(step);
                    beats(self.board[usize::from(square)], piece)
                })
            })
            .map(Piece::on_board)
    }

    /// Whether the piece on `cell` has every side closed by the edge, a lake or an
    /// immovable piece of its owner (a flag sealed by bombs: only a piece that gets through
    /// bombs can take it); `false` for an empty cell.
    pub fn sealed(&self, cell: Cell) -> bool {
        let Some(square) = V::spec().board_square(cell) else {
            return false;
        };
        let Some(owner) = self
            .pieces
            .get(usize::from(self.board[square]))
            .map(|p| p.owner)
        else {
            return false;
        };
        DIRECTIONS.iter().all(|&step| {
            let slot = self.board[square.wrapping_add_signed(isize::from(step))];
            slot == WALL
                || self.pieces.get(usize::from(slot)).is_some_and(|piece| {
                    piece.owner == owner && piece.mobility == Mobility::Immovable
                })
        })
    }

    /// Turns in a row without a battle or removal (the game is drawn at [`TURN_LIMIT`]).
    pub fn quiet_turns(&self) -> u32 {
        self.quiet_turns
    }

    /// Whether `mv` (a legal move) attacks a piece whose kind both seats know.
    pub fn attacks_revealed(&self, mv: ArmyMove) -> bool {
        let slot = self.board[usize::from(mv.to)];
        slot != EMPTY && self.pieces[usize::from(slot)].revealed
    }

    /// The squares `mv` goes from and to.
    pub fn cells(&self, mv: ArmyMove) -> (Cell, Cell) {
        let spec = V::spec();
        (spec.cell(mv.from), spec.cell(mv.to))
    }
}

impl<V: Variant> Rules for Army<V> {
    type Move = ArmyMove;

    fn description() -> &'static Description {
        &V::spec().description
    }

    fn start(setups: &BySeat<Option<Setup>>, _seed: Seed) -> Self {
        let mut army = Army::empty(Seat::First);
        for setup in setups.0.iter().flatten() {
            for &(cell, kind) in setup.pieces() {
                army.add(cell, kind, setup.seat());
            }
        }
        army.settle();
        army
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<ArmyMove>) {
        if self.outcome.is_none() {
            let first = out.len();
            let _ = self.for_each_move_set(self.to_move, |ends, offset| {
                bits::squares(ends).for_each(|to| {
                    out.push(ArmyMove {
                        from: to.wrapping_sub(offset),
                        to,
                    });
                });
                ControlFlow::Continue(())
            });
            if let Some(forbidden) = self.forbidden(self.to_move)
                && let Some(index) = out[first..].iter().position(|&mv| mv == forbidden)
            {
                out.remove(first + index);
            }
        }
    }

    fn check(&self, action: &Action) -> Result<ArmyMove, Illegal> {
        let spec = V::spec();
        if self.outcome.is_some() {
            return Err(ArmyIllegal::GameOver.into());
        }
        let &Action::Step { from, to } = action else {
            return Err(Illegal::WrongShape { example: "a4-a5" });
        };
        let from_square = spec.board_square(from).ok_or(Illegal::OffBoard(from))?;
        let to_square = spec.board_square(to).ok_or(Illegal::OffBoard(to))?;
        let mv = ArmyMove {
            from: from_square as u8,
            to: to_square as u8,
        };
        let slot = self.board[from_square];
        if slot >= WALL || self.pieces[usize::from(slot)].owner != self.to_move {
            return Err(Illegal::NoOwnPiece(Self::label(mv.from)));
        }
        let kind = spec.kind(self.pieces[usize::from(slot)].kind);
        let (long, attack_at_range) = match kind.mobility {
            Mobility::Immovable => return Err(ArmyIllegal::Immovable(kind.name).into()),
            Mobility::Step => (false, false),
            Mobility::Long { attack_at_range } => (true, attack_at_range),
        };
        if from == to {
            return Err(ArmyIllegal::NullMove.into());
        }
        if from.x != to.x && from.y != to.y {
            return Err(ArmyIllegal::NotStraight.into());
        }
        let distance = (from.x - to.x).abs() + (from.y - to.y).abs();
        if distance > 1 && !long {
            let runner = spec
                .data
                .kinds
                .iter()
                .find(|kind| matches!(kind.mobility, Mobility::Long { .. }))
                .map_or("", |kind| kind.name);
            return Err(ArmyIllegal::TooFar(runner).into());
        }
        let step = (to_square as i16 - from_square as i16) / i16::from(distance as u8);
        let mut between = from_square as i16 + step;
        while between != to_square as i16 {
            if self.board[between as usize] != EMPTY {
                return Err(ArmyIllegal::Blocked(Self::label(mv.from), Self::label(mv.to)).into());
            }
            between += step;
        }
        match self.board[to_square] {
            // The repetition limit counts moves onto empty squares only: an attack on a
            // piece that has since stepped onto the square is not a shuttle.
            EMPTY if self.forbidden(self.to_move) == Some(mv) => {
                return Err(ArmyIllegal::Repetition(
                    Self::label(mv.from),
                    Self::label(mv.to),
                    spec.data.repetition_limit,
                )
                .into());
            }
            EMPTY => {}
            WALL => return Err(ArmyIllegal::Lake(Self::label(mv.to)).into()),
            target if self.pieces[usize::from(target)].owner == self.to_move => {
                return Err(ArmyIllegal::OwnPiece(Self::label(mv.to)).into());
            }
            _ if distance > 1 && !attack_at_range => {
                return Err(ArmyIllegal::LongAttack(kind.name).into());
            }
            _ if spec.trench[to_square] => {
                return Err(ArmyIllegal::Trench(Self::label(mv.to)).into());
            }
            _ => {}
        }
        Ok(mv)
    }

    fn play_unchecked(&mut self, mv: ArmyMove, effects: &mut Vec<Effect>) {
        let spec = V::spec();
        let seat = self.to_move;
        let slot = self.board[usize::from(mv.from)];
        let target = self.board[usize::from(mv.to)];
        let mut progress = false;
        if target == EMPTY {
            let count = match self.shuttle[seat] {
                Some(last) if last.slot == slot && last.from == mv.to && last.to == mv.from => {
                    last.count + 1
                }
                _ => 1,
            };
            self.shuttle[seat] = Some(Shuttle {
                slot,
                from: mv.from,
                to: mv.to,
                count,
            });
            self.relocate(slot, mv.to);
            let adjacent = DIRECTIONS
                .map(i16::from)
                .contains(&(i16::from(mv.to) - i16::from(mv.from)));
            if !adjacent && !self.pieces[usize::from(slot)].revealed {
                self.pieces[usize::from(slot)].revealed = true;
                let (piece, kind) = self.piece_id(slot);
                effects.push(Effect::Revealed { piece, kind });
            }
        } else {
            progress = true;
            self.shuttle[seat] = None;
            let attacker = self.piece_id(slot);
            let defender = self.piece_id(target);
            let result = spec.battle[attacker.1.index()][defender.1.index()];
            effects.push(Effect::Battle {
                at: spec.cell(mv.to),
                attacker,
                defender,
                result,
            });
            self.pieces[usize::from(slot)].revealed = true;
            self.pieces[usize::from(slot)].moved = true;
            self.pieces[usize::from(target)].revealed = true;
            match result {
                BattleResult::AttackerWins => {
                    self.remove(target);
                    self.relocate(slot, mv.to);
                }
                BattleResult::DefenderWins => self.remove(slot),
                BattleResult::BothFall => {
                    self.remove(slot);
                    self.remove(target);
                }
            }
        }
        progress |= self.count_castle_turns(seat, effects);
        self.quiet_turns = if progress { 0 } else { self.quiet_turns + 1 };
        self.to_move = !seat;
        self.settle();
        if let Some(outcome) = self.outcome {
            effects.push(Effect::Ended(outcome));
        }
    }

    fn play_in_game(&mut self, mv: ArmyMove, effects: &mut Vec<Effect>) {
        self.note_declines(mv);
        self.play_unchecked(mv, effects);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn view(&self, sight: Sight) -> View {
        let spec = V::spec();
        let pieces =
            self.pieces[..usize::from(self.len)]
                .iter()
                .enumerate()
                .map(|(slot, piece)| {
                    let on_board = piece.square != GONE;
                    let view = PieceView {
                        id: PieceId(slot as u32),
                        cell: on_board.then(|| spec.cell(piece.square)),
                        owner: piece.owner,
                        kind: sight
                            .sees_kind(piece.owner, piece.revealed)
                            .then_some(KindId(piece.kind)),
                        revealed: piece.revealed,
                        moved: piece.moved,
                        facing: None,
                        conduct: piece.conduct,
                    };
                    (view, on_board)
                });
        let castle_turns = spec
            .castles
            .iter()
            .zip(self.castle_turns)
            .filter(|&(&square, _)| self.board[usize::from(square)] < WALL)
            .map(|(&square, turns)| (spec.cell(square), turns))
            .collect();
        View::new(
            self.outcome.is_none().then_some(self.to_move),
            pieces,
            Status::Army(ArmyStatus {
                turns_without_battle: self.quiet_turns,
                turn_limit: TURN_LIMIT,
                castle_turns,
            }),
        )
    }

    fn action(&self, mv: ArmyMove) -> Action {
        let spec = V::spec();
        Action::Step {
            from: spec.cell(mv.from),
            to: spec.cell(mv.to),
        }
    }

    fn notation(&self, mv: ArmyMove) -> String {
        let separator = if self.board[usize::from(mv.to)] == EMPTY {
            '-'
        } else {
            'x'
        };
        let spec = V::spec();
        let mut text = String::with_capacity(7);
        spec.cell(mv.from).grid_label().push_to(&mut text);
        text.push(separator);
        spec.cell(mv.to).grid_label().push_to(&mut text);
        text
    }

    fn parse_notation(text: &str) -> Result<Action, NotationError> {
        let spec = V::spec();
        notation::parse_step(text, "a4-a5", |cell| spec.board_square(cell).is_some())
    }
}

#[cfg(test)]
mod tests;
