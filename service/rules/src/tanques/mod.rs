//! `tanques` (rules.md section 3, seed 003): the hex tank game with dice you can verify.
//!
//! Twelve rounds of two turns; each turn is a movement phase (`enter`, `maneuver`, `end`)
//! then an attack phase (`attack`, `end`); after round 12 the seats alternate attack-only
//! turns until two turns in a row see no attack. Whenever the seat to act could only play
//! `end`, the engine plays it itself ([`Effect::Passed`]), so a legal list never offers a
//! lone `end` and every listed `end` is a real choice.
//!
//! Legal lists, and what [`Rules::check`] accepts:
//! - `enter`: every empty own entry hex × every facing (at most 36).
//! - maneuvers: every letter sequence that obeys the rules, for every tank that may still
//!   maneuver (at most 54 per tank). Sequences are moves in their own right even when two of
//!   them end on the same hex and facing (`F` and `FLR`); clients should group a tank's
//!   maneuvers by where they end. `LR` and `RL`, which leave the tank as it was and only use
//!   up a maneuver, are legal by the letter of the rules and listed too.
//! - attacks: each set of attackers against each target once, attackers in reading order,
//!   with the defaults (no advance; the first attacker named is the casualty). `check` also
//!   accepts the same attack with the attackers in any order and with any `advance` (none or
//!   one of the attackers) and `casualty` (one of the attackers): those are the choices a
//!   client offers once the player has picked an attack. Such an action becomes the move
//!   with the same set, advance and resolved casualty, whose canonical notation lists the
//!   attackers in reading order and names the casualty only when it is not the first.
//!
//! Rulings where rules.md is silent:
//! - An urban hex changes hands when a tank enters it during a maneuver, even one it only
//!   passes through on a two-step maneuver, or by advancing.
//! - The maneuver allowance `3 + U` is fixed when the turn starts; hexes taken during the
//!   turn count from the next turn on.
//! - The final phase shows round 13; every final turn, even one passed automatically,
//!   counts towards the two turns in a row without an attack that end the game.
//! - A draw (urban hexes and tanks left both equal) is reported with reason `MORE_TANKS`,
//!   the last tie-break tried.
//!
//! The state is a fixed-size `Copy` value (a 91-hex board of tank ids, 24 tanks, bitmasks
//! for the per-turn marks), so listing and playing never allocate beyond the output vectors.

mod board;
pub mod dice;
mod maneuver;
mod notation;
mod world;

use board::{BOARD, Ground, HEXES, OFF, URBAN_HEXES};
use maneuver::{Letters, MAX_FORWARD, MAX_TURNS};

use crate::action::{Action, Facing, TankAction};
use crate::cell::Cell;
use crate::conduct::Conduct;
use crate::describe::{Description, KindId};
use crate::effect::{Effect, RemovalCause};
use crate::error::NotationError;
use crate::illegal::Illegal;
pub use crate::illegal::TanquesIllegal;
use crate::outcome::{EndReason, Outcome};
use crate::rules::{Rules, Seed};
use crate::seat::{BySeat, Seat};
use crate::setup::Setup;
use crate::view::{PieceId, PieceView, Sight, Status, TankPhase, TanquesStatus, View};

/// Tanks per seat.
pub const TANKS: u8 = 12;
/// Rounds of movement and attack before the final phase.
pub const ROUNDS: u8 = 12;
/// The round number the final attack-only phase shows.
pub const FINAL_ROUND: u8 = ROUNDS + 1;
/// Maneuvers every turn allows before urban hexes add theirs.
pub const BASE_MANEUVERS: u8 = 3;
/// Final-phase turns in a row without an attack that end the game.
const QUIET_FINAL_TURNS: u8 = 2;
/// Attackers beyond this count as this many (the table's last column).
const MAX_COLUMN: u8 = 4;

/// Board content: no tank.
const EMPTY: u8 = 0xFF;
/// A tank's hex while it waits in reserve.
const RESERVE: u8 = 0xFE;
/// A tank's hex once destroyed.
const GONE: u8 = 0xFD;
/// No tank advances.
const NO_ADVANCE: u8 = 0xFF;

/// A legal tanques move; see the module docs for what the list contains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TanquesMove(Move);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Move {
    /// The seat's next reserve tank enters.
    Enter { hex: u8, facing: Facing },
    /// A tank maneuvers.
    Maneuver { tank: u8, letters: Letters },
    /// Tanks (a mask of ids) attack the tank on `target`.
    Attack {
        target: u8,
        attackers: u32,
        advance: u8,
        casualty: u8,
    },
    /// Closes the phase.
    End,
}

/// Why a forward step or a turn cannot be made.
enum Stop {
    Swamp(u8),
    Edge(u8),
    Blocked(u8, u8),
}

impl From<Stop> for TanquesIllegal {
    fn from(stop: Stop) -> TanquesIllegal {
        match stop {
            Stop::Swamp(hex) => TanquesIllegal::SwampTurn(board::label(hex)),
            Stop::Edge(hex) => TanquesIllegal::Edge(board::label(hex)),
            Stop::Blocked(from, to) => {
                TanquesIllegal::Blocked(board::label(from), board::label(to))
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Tank {
    /// A board hex, [`RESERVE`] or [`GONE`].
    hex: u8,
    facing: Facing,
}

/// A tanques game in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tanques {
    /// Per hex: the id of the tank there, or [`EMPTY`]; one more slot, [`maneuver::NOWHERE`], always
    /// empty, for the steps a maneuver path does not take.
    board: [u8; HEXES + 1],
    /// Tanks by id: seat 0's are 0–11, seat 1's 12–23; reserve tanks enter in id order.
    tanks: [Tank; 2 * TANKS as usize],
    /// Tanks each seat still has in reserve.
    reserve: BySeat<u8>,
    /// Controller of each urban hex, in reading order.
    control: [Option<Seat>; URBAN_HEXES],
    /// 1–12, then [`FINAL_ROUND`].
    round: u8,
    to_move: Seat,
    phase: TankPhase,
    /// Maneuvers the mover may still make this turn.
    maneuvers_left: u8,
    /// Ids (bits) of the tanks that maneuvered this turn.
    maneuvered: u32,
    /// Ids (bits) of the tanks that attacked this turn.
    attacked: u32,
    /// Ids (bits) of the tanks that ever maneuvered or advanced.
    moved: u32,
    /// Final-phase turns in a row that ended without an attack.
    quiet_final_turns: u8,
    /// Dice rolled so far: the index of the next roll.
    rolls: u32,
    seed: Seed,
    commitment: [u8; 32],
    outcome: Option<Outcome>,
}

/// The bit of tank `id` in a tank mask.
const fn bit(id: u8) -> u32 {
    1 << id
}

/// The ids of `seat`'s tanks.
fn ids(seat: Seat) -> std::ops::Range<u8> {
    let first = seat.index() as u8 * TANKS;
    first..first + TANKS
}

/// The ids in a tank mask, lowest first.
fn mask_ids(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let id = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            id
        })
    })
}

/// The seat with the larger count, if they differ.
fn leader(counts: BySeat<usize>) -> Option<Seat> {
    match counts[Seat::First].cmp(&counts[Seat::Second]) {
        std::cmp::Ordering::Greater => Some(Seat::First),
        std::cmp::Ordering::Less => Some(Seat::Second),
        std::cmp::Ordering::Equal => None,
    }
}

/// Whether the attack-table column `column` (attackers, capped at 4) wins with `roll`.
fn attacker_wins(column: u8, roll: u8) -> bool {
    // A from 5 with one attacker, from 4 with two, 3 with three, 2 with four or more.
    roll >= 6 - column
}

impl Tanques {
    /// The seat owning tank `id`.
    fn owner(id: u8) -> Seat {
        if id < TANKS {
            Seat::First
        } else {
            Seat::Second
        }
    }

    /// The tank on `hex` if it belongs to `seat`.
    fn own_tank(&self, hex: u8, seat: Seat) -> Option<u8> {
        let id = self.board[usize::from(hex)];
        (id != EMPTY && Self::owner(id) == seat).then_some(id)
    }

    /// The tank's hex and facing after one maneuver letter from `hex`, `facing`.
    fn step(&self, hex: u8, facing: Facing, action: TankAction) -> Result<(u8, Facing), Stop> {
        match action {
            TankAction::Forward => {
                let next = BOARD.neighbours[usize::from(hex)][facing as usize];
                if next == OFF {
                    Err(Stop::Edge(hex))
                } else if self.board[usize::from(next)] != EMPTY {
                    Err(Stop::Blocked(hex, next))
                } else {
                    Ok((next, facing))
                }
            }
            _ if BOARD.ground[usize::from(hex)] == Ground::Swamp => Err(Stop::Swamp(hex)),
            TankAction::TurnLeft => Ok((hex, facing.left())),
            TankAction::TurnRight => Ok((hex, facing.right())),
        }
    }

    /// Pushes every maneuver of tank `id`.
    fn push_maneuvers(&self, id: u8, out: &mut Vec<TanquesMove>) {
        let Tank { hex, facing } = self.tanks[usize::from(id)];
        for path in maneuver::paths(hex, facing).as_slice() {
            let [first, second] = path.steps;
            if self.board[usize::from(first)] == EMPTY && self.board[usize::from(second)] == EMPTY {
                out.push(TanquesMove(Move::Maneuver {
                    tank: id,
                    letters: path.letters,
                }));
            }
        }
    }

    /// Whether tank `id` (on the board) has at least one maneuver.
    fn can_maneuver(&self, id: u8) -> bool {
        let Tank { hex, facing } = self.tanks[usize::from(id)];
        BOARD.ground[usize::from(hex)] != Ground::Swamp
            || self.step(hex, facing, TankAction::Forward).is_ok()
    }

    /// Whether the mover's next reserve tank could enter now.
    fn can_enter(&self) -> bool {
        self.reserve[self.to_move] > 0
            && BOARD.entries[self.to_move]
                .iter()
                .any(|&hex| self.board[usize::from(hex)] == EMPTY)
    }

    /// The tanks of the mover on the board that may still maneuver, if maneuvers are left.
    fn maneuverable(&self) -> impl Iterator<Item = u8> + '_ {
        ids(self.to_move).filter(move |&id| {
            self.maneuvers_left > 0
                && self.maneuvered & bit(id) == 0
                && usize::from(self.tanks[usize::from(id)].hex) < HEXES
        })
    }

    /// The enemy hex tank `id` of the mover could attack now, if any.
    fn target_of(&self, id: u8) -> Option<u8> {
        let Tank { hex, facing } = self.tanks[usize::from(id)];
        if usize::from(hex) >= HEXES || self.attacked & bit(id) != 0 {
            return None;
        }
        let front = BOARD.neighbours[usize::from(hex)][facing as usize];
        (front != OFF && self.own_tank(front, !self.to_move).is_some()).then_some(front)
    }

    /// Whether the mover has any legal action besides `end`.
    fn has_choice(&self) -> bool {
        match self.phase {
            TankPhase::Movement => {
                self.can_enter() || self.maneuverable().any(|id| self.can_maneuver(id))
            }
            TankPhase::Attack | TankPhase::Final => {
                ids(self.to_move).any(|id| self.target_of(id).is_some())
            }
        }
    }

    /// Urban hexes `seat` controls.
    fn urban_count(&self, seat: Seat) -> u8 {
        self.control.iter().filter(|&&c| c == Some(seat)).count() as u8
    }

    /// Tanks `seat` has left, on the board and in reserve.
    fn tanks_left(&self, seat: Seat) -> usize {
        ids(seat)
            .filter(|&id| self.tanks[usize::from(id)].hex != GONE)
            .count()
    }

    /// Starts `seat`'s turn in round `round`.
    fn begin_turn(&mut self, seat: Seat, round: u8, effects: &mut Vec<Effect>) {
        self.to_move = seat;
        self.round = round;
        self.maneuvered = 0;
        self.attacked = 0;
        if round == FINAL_ROUND {
            self.phase = TankPhase::Final;
            self.maneuvers_left = 0;
        } else {
            self.phase = TankPhase::Movement;
            self.maneuvers_left = BASE_MANEUVERS + self.urban_count(seat);
        }
        self.phase_changed(effects);
    }

    fn phase_changed(&self, effects: &mut Vec<Effect>) {
        effects.push(Effect::PhaseChanged {
            seat: self.to_move,
            round: self.round,
            phase: self.phase,
        });
    }

    /// Closes the current phase (the `end` action).
    fn end_phase(&mut self, effects: &mut Vec<Effect>) {
        let seat = self.to_move;
        match self.phase {
            TankPhase::Movement => {
                self.phase = TankPhase::Attack;
                self.maneuvers_left = 0;
                self.phase_changed(effects);
            }
            TankPhase::Attack => match seat {
                Seat::First => self.begin_turn(Seat::Second, self.round, effects),
                Seat::Second => self.begin_turn(Seat::First, self.round + 1, effects),
            },
            TankPhase::Final => {
                self.quiet_final_turns = if self.attacked == 0 {
                    self.quiet_final_turns + 1
                } else {
                    0
                };
                if self.quiet_final_turns >= QUIET_FINAL_TURNS {
                    self.finish(effects);
                } else {
                    self.begin_turn(!seat, FINAL_ROUND, effects);
                }
            }
        }
    }

    /// Decides the result once the final phase is over: most urban hexes, then most tanks.
    fn finish(&mut self, effects: &mut Vec<Effect>) {
        let urban = BySeat::new_with(|seat| usize::from(self.urban_count(seat)));
        let tanks = BySeat::new_with(|seat| self.tanks_left(seat));
        let outcome = match (leader(urban), leader(tanks)) {
            (Some(winner), _) => Outcome::win(winner, EndReason::MostUrban),
            (None, Some(winner)) => Outcome::win(winner, EndReason::MoreTanks),
            (None, None) => Outcome::draw(EndReason::MoreTanks),
        };
        self.outcome = Some(outcome);
        effects.push(Effect::Ended(outcome));
    }

    /// Plays `end` for the mover as long as it is their only legal action.
    fn pass_forced(&mut self, effects: &mut Vec<Effect>) {
        while self.outcome.is_none() && !self.has_choice() {
            effects.push(Effect::Passed { seat: self.to_move });
            self.end_phase(effects);
        }
    }

    /// A tank of `seat` has entered `hex`: if it is urban, it becomes `seat`'s.
    fn take(&mut self, hex: u8, seat: Seat, effects: &mut Vec<Effect>) {
        if let Ground::Urban(urban) = BOARD.ground[usize::from(hex)]
            && self.control[usize::from(urban)] != Some(seat)
        {
            self.control[usize::from(urban)] = Some(seat);
            effects.push(Effect::ControlChanged {
                at: board::cell(hex),
                seat,
            });
        }
    }

    /// Takes tank `id` off the board for good.
    fn destroy(&mut self, id: u8, effects: &mut Vec<Effect>) {
        let hex = self.tanks[usize::from(id)].hex;
        self.board[usize::from(hex)] = EMPTY;
        self.tanks[usize::from(id)].hex = GONE;
        effects.push(Effect::Removed {
            piece: PieceId(u32::from(id)),
            at: board::cell(hex),
            cause: RemovalCause::Destroyed,
        });
    }

    fn hex_of(cell: Cell) -> Result<u8, Illegal> {
        board::hex(cell).ok_or(Illegal::OffBoard(cell))
    }

    fn check_movement_phase(&self) -> Result<(), TanquesIllegal> {
        match self.phase {
            TankPhase::Movement => Ok(()),
            TankPhase::Attack => Err(TanquesIllegal::NotMovementPhase),
            TankPhase::Final => Err(TanquesIllegal::FinalPhase),
        }
    }

    fn check_enter(&self, cell: Cell, facing: Facing) -> Result<Move, Illegal> {
        self.check_movement_phase()?;
        let hex = Self::hex_of(cell)?;
        if self.reserve[self.to_move] == 0 {
            return Err(TanquesIllegal::NoReserve.into());
        }
        if BOARD.ground[usize::from(hex)] != Ground::Entry(self.to_move) {
            return Err(TanquesIllegal::NotEntryHex(board::label(hex)).into());
        }
        if self.board[usize::from(hex)] != EMPTY {
            return Err(TanquesIllegal::Occupied(board::label(hex)).into());
        }
        Ok(Move::Enter { hex, facing })
    }

    fn check_maneuver(&self, cell: Cell, actions: &[TankAction]) -> Result<Move, Illegal> {
        self.check_movement_phase()?;
        let hex = Self::hex_of(cell)?;
        let id = self
            .own_tank(hex, self.to_move)
            .ok_or_else(|| Illegal::NoOwnPiece(board::label(hex)))?;
        if self.maneuvered & bit(id) != 0 {
            return Err(TanquesIllegal::AlreadyManeuvered(board::label(hex)).into());
        }
        if self.maneuvers_left == 0 {
            return Err(TanquesIllegal::NoManeuversLeft.into());
        }
        if actions.is_empty() {
            return Err(TanquesIllegal::EmptyManeuver.into());
        }
        let forward = actions
            .iter()
            .filter(|&&action| action == TankAction::Forward)
            .count();
        if forward > usize::from(MAX_FORWARD) {
            return Err(TanquesIllegal::TooManyForward.into());
        }
        if actions.len() - forward > usize::from(MAX_TURNS) {
            return Err(TanquesIllegal::TooManyTurns.into());
        }
        let mut pose = (hex, self.tanks[usize::from(id)].facing);
        let mut letters = Letters::NONE;
        for &action in actions {
            pose = self
                .step(pose.0, pose.1, action)
                .map_err(TanquesIllegal::from)?;
            letters = letters.push(action);
        }
        Ok(Move::Maneuver { tank: id, letters })
    }

    fn check_attack(
        &self,
        target: Cell,
        attackers: &[Cell],
        advance: Option<Cell>,
        casualty: Option<Cell>,
    ) -> Result<Move, Illegal> {
        if self.phase == TankPhase::Movement {
            return Err(TanquesIllegal::NotAttackPhase.into());
        }
        let target = Self::hex_of(target)?;
        let target_label = || board::label(target);
        match self.board[usize::from(target)] {
            EMPTY => return Err(TanquesIllegal::NoTarget(target_label()).into()),
            id if Self::owner(id) == self.to_move => {
                return Err(TanquesIllegal::OwnTarget(target_label()).into());
            }
            _ => {}
        }
        let Some(&first) = attackers.first() else {
            return Err(TanquesIllegal::NoAttackers.into());
        };
        let mut mask = 0;
        for &attacker in attackers {
            let hex = Self::hex_of(attacker)?;
            let label = board::label(hex);
            let id = self
                .own_tank(hex, self.to_move)
                .ok_or_else(|| Illegal::NoOwnPiece(label.clone()))?;
            if mask & bit(id) != 0 {
                return Err(TanquesIllegal::DuplicateAttacker(label).into());
            }
            let neighbours = &BOARD.neighbours[usize::from(hex)];
            if !neighbours.contains(&target) {
                return Err(TanquesIllegal::NotAdjacent(label, target_label()).into());
            }
            if neighbours[self.tanks[usize::from(id)].facing as usize] != target {
                return Err(TanquesIllegal::NotFacing(label, target_label()).into());
            }
            if self.attacked & bit(id) != 0 {
                return Err(TanquesIllegal::AlreadyAttacked(label).into());
            }
            mask |= bit(id);
        }
        let chosen = |role: &'static str, cell: Cell| -> Result<u8, Illegal> {
            let hex = Self::hex_of(cell)?;
            self.own_tank(hex, self.to_move)
                .filter(|&id| mask & bit(id) != 0)
                .ok_or_else(|| TanquesIllegal::NotAnAttacker(role, board::label(hex)).into())
        };
        let advance = match advance {
            Some(cell) => chosen("advancing tank", cell)?,
            None => NO_ADVANCE,
        };
        let casualty = chosen("casualty", casualty.unwrap_or(first))?;
        Ok(Move::Attack {
            target,
            attackers: mask,
            advance,
            casualty,
        })
    }

    /// Pushes every attacker set of the mover once, with the default choices.
    fn push_attacks(&self, out: &mut Vec<TanquesMove>) {
        // Each tank faces one hex, so the attackers of different targets never overlap.
        let mut groups: [(u8, [u8; 6], usize); TANKS as usize] = [(0, [0; 6], 0); TANKS as usize];
        let mut count = 0;
        for id in ids(self.to_move) {
            let Some(target) = self.target_of(id) else {
                continue;
            };
            let group = match groups[..count].iter().position(|g| g.0 == target) {
                Some(index) => index,
                None => {
                    groups[count] = (target, [0; 6], 0);
                    count += 1;
                    count - 1
                }
            };
            let (_, attackers, len) = &mut groups[group];
            attackers[*len] = id;
            *len += 1;
        }
        for (target, mut attackers, len) in groups.into_iter().take(count) {
            let attackers = &mut attackers[..len];
            attackers.sort_unstable_by_key(|&id| self.tanks[usize::from(id)].hex);
            for subset in 1u32..1 << len {
                let mask =
                    mask_ids(subset).fold(0, |mask, i| mask | bit(attackers[usize::from(i)]));
                out.push(TanquesMove(Move::Attack {
                    target,
                    attackers: mask,
                    advance: NO_ADVANCE,
                    casualty: attackers[subset.trailing_zeros() as usize],
                }));
            }
        }
    }

    /// The attackers of a mask, by hex in reading order.
    fn attacker_hexes(&self, attackers: u32) -> Vec<u8> {
        let mut hexes: Vec<u8> = mask_ids(attackers)
            .map(|id| self.tanks[usize::from(id)].hex)
            .collect();
        hexes.sort_unstable();
        hexes
    }

    fn play_attack(
        &mut self,
        target: u8,
        attackers: u32,
        advance: u8,
        casualty: u8,
        effects: &mut Vec<Effect>,
    ) {
        let index = self.rolls;
        let roll = dice::roll(&self.seed, u64::from(index));
        self.rolls += 1;
        let column = (attackers.count_ones() as u8).min(MAX_COLUMN);
        let wins = attacker_wins(column, roll);
        effects.push(Effect::Dice {
            index,
            roll,
            column,
            attacker_wins: wins,
        });
        self.attacked |= attackers;
        if wins {
            self.destroy(self.board[usize::from(target)], effects);
            if advance != NO_ADVANCE {
                let from = self.tanks[usize::from(advance)].hex;
                self.board[usize::from(from)] = EMPTY;
                self.board[usize::from(target)] = advance;
                self.tanks[usize::from(advance)].hex = target;
                self.moved |= bit(advance);
                self.take(target, self.to_move, effects);
            }
        } else {
            self.destroy(casualty, effects);
        }
    }

    fn play_maneuver(&mut self, id: u8, letters: Letters, effects: &mut Vec<Effect>) {
        let seat = self.to_move;
        let Tank {
            mut hex,
            mut facing,
        } = self.tanks[usize::from(id)];
        self.board[usize::from(hex)] = EMPTY;
        for action in letters.iter() {
            match action {
                TankAction::Forward => {
                    hex = BOARD.neighbours[usize::from(hex)][facing as usize];
                    self.take(hex, seat, effects);
                }
                TankAction::TurnLeft => facing = facing.left(),
                TankAction::TurnRight => facing = facing.right(),
            }
        }
        self.board[usize::from(hex)] = id;
        self.tanks[usize::from(id)] = Tank { hex, facing };
        self.maneuvered |= bit(id);
        self.moved |= bit(id);
        self.maneuvers_left -= 1;
    }

    fn piece_view(&self, id: u8) -> PieceView {
        let tank = self.tanks[usize::from(id)];
        let on_board = usize::from(tank.hex) < HEXES;
        PieceView {
            id: PieceId(u32::from(id)),
            cell: on_board.then(|| board::cell(tank.hex)),
            owner: Self::owner(id),
            kind: Some(KindId(0)),
            revealed: true,
            moved: self.moved & bit(id) != 0,
            facing: on_board.then_some(tank.facing),
            conduct: Conduct::default(),
        }
    }

    /// The cells of the tanks on the board in a mask.
    fn cells(&self, mask: u32) -> Vec<Cell> {
        mask_ids(mask)
            .map(|id| self.tanks[usize::from(id)].hex)
            .filter(|&hex| usize::from(hex) < HEXES)
            .map(board::cell)
            .collect()
    }
}

impl Rules for Tanques {
    type Move = TanquesMove;

    fn description() -> &'static Description {
        board::description()
    }

    fn start(_setups: &BySeat<Option<Setup>>, seed: Seed) -> Self {
        let mut tanques = Tanques {
            board: [EMPTY; HEXES + 1],
            tanks: [Tank {
                hex: RESERVE,
                facing: Facing::E,
            }; 2 * TANKS as usize],
            reserve: BySeat([TANKS; 2]),
            control: [None; URBAN_HEXES],
            round: 1,
            to_move: Seat::First,
            phase: TankPhase::Movement,
            maneuvers_left: BASE_MANEUVERS,
            maneuvered: 0,
            attacked: 0,
            moved: 0,
            quiet_final_turns: 0,
            rolls: 0,
            seed,
            commitment: dice::commitment(&seed),
            outcome: None,
        };
        tanques.pass_forced(&mut Vec::new());
        tanques
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<TanquesMove>) {
        if self.outcome.is_some() {
            return;
        }
        match self.phase {
            TankPhase::Movement => {
                if self.reserve[self.to_move] > 0 {
                    for hex in BOARD.entries[self.to_move] {
                        if self.board[usize::from(hex)] == EMPTY {
                            out.extend(
                                Facing::ALL.map(|facing| TanquesMove(Move::Enter { hex, facing })),
                            );
                        }
                    }
                }
                for id in self.maneuverable() {
                    self.push_maneuvers(id, out);
                }
            }
            TankPhase::Attack | TankPhase::Final => self.push_attacks(out),
        }
        out.push(TanquesMove(Move::End));
    }

    fn check(&self, action: &Action) -> Result<TanquesMove, Illegal> {
        if self.outcome.is_some() {
            return Err(TanquesIllegal::GameOver.into());
        }
        let mv = match action {
            Action::EndPhase => Move::End,
            &Action::Enter { cell, facing } => self.check_enter(cell, facing)?,
            Action::Maneuver { cell, actions } => self.check_maneuver(*cell, actions)?,
            Action::Attack {
                target,
                attackers,
                advance,
                casualty,
            } => self.check_attack(*target, attackers, *advance, *casualty)?,
            Action::Step { .. } | Action::Jump { .. } | Action::Huff { .. } => {
                return Err(Illegal::WrongShape {
                    example: notation::EXAMPLE,
                });
            }
        };
        Ok(TanquesMove(mv))
    }

    fn play_unchecked(&mut self, mv: TanquesMove, effects: &mut Vec<Effect>) {
        match mv.0 {
            Move::Enter { hex, facing } => {
                let seat = self.to_move;
                let id = ids(seat).end - self.reserve[seat];
                self.reserve[seat] -= 1;
                self.tanks[usize::from(id)] = Tank { hex, facing };
                self.board[usize::from(hex)] = id;
            }
            Move::Maneuver { tank, letters } => self.play_maneuver(tank, letters, effects),
            Move::Attack {
                target,
                attackers,
                advance,
                casualty,
            } => self.play_attack(target, attackers, advance, casualty, effects),
            Move::End => self.end_phase(effects),
        }
        self.pass_forced(effects);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn view(&self, _sight: Sight) -> View {
        // Nothing in tanques is hidden but the dice seed, which no view carries.
        let pieces =
            (0..2 * TANKS).map(|id| (self.piece_view(id), self.tanks[usize::from(id)].hex != GONE));
        View::new(
            self.outcome.is_none().then_some(self.to_move),
            pieces,
            Status::Tanques(TanquesStatus {
                round: self.round,
                phase: self.phase,
                maneuvers_left: self.maneuvers_left,
                control: BOARD
                    .urban
                    .iter()
                    .zip(self.control)
                    .map(|(&hex, seat)| (board::cell(hex), seat))
                    .collect(),
                maneuvered: self.cells(self.maneuvered),
                attacked: self.cells(self.attacked),
                dice_commitment: dice::hex(&self.commitment),
                rolls: self.rolls,
                final_turns_without_attack: self.quiet_final_turns,
            }),
        )
    }

    fn action(&self, mv: TanquesMove) -> Action {
        match mv.0 {
            Move::Enter { hex, facing } => Action::Enter {
                cell: board::cell(hex),
                facing,
            },
            Move::Maneuver { tank, letters } => Action::Maneuver {
                cell: board::cell(self.tanks[usize::from(tank)].hex),
                actions: letters.iter().collect(),
            },
            Move::Attack {
                target,
                attackers,
                advance,
                casualty,
            } => {
                let hexes = self.attacker_hexes(attackers);
                let casualty = self.tanks[usize::from(casualty)].hex;
                Action::Attack {
                    target: board::cell(target),
                    advance: (advance != NO_ADVANCE)
                        .then(|| board::cell(self.tanks[usize::from(advance)].hex)),
                    casualty: (hexes.first() != Some(&casualty)).then(|| board::cell(casualty)),
                    attackers: hexes.into_iter().map(board::cell).collect(),
                }
            }
            Move::End => Action::EndPhase,
        }
    }

    fn notation(&self, mv: TanquesMove) -> String {
        notation::write(&self.action(mv))
    }

    fn parse_notation(text: &str) -> Result<Action, NotationError> {
        notation::parse(text)
    }
}

#[cfg(test)]
mod tests;
