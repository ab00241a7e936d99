//! Bots of `tanques`. Nothing is hidden but the dice, so each candidate action is played on
//! the position rebuilt from the view, and an attack on both of its outcomes (each with a
//! guessed seed that rolls it), weighed by the combat table's odds.
//!
//! - **Evaluation**: urban hexes held, tanks left (the tie-break), distance of each tank to
//!   the nearest urban hex its seat does not hold (a tank in reserve counts as far away)
//!   and whether it faces that way, tanks standing on urban hexes, and the enemy tanks next
//!   to each tank (worse when they face it, and when it holds an urban hex an advance would
//!   take).
//! - **Hard**: each action of the phase is scored by the evaluation after it plus a look
//!   ahead ([`forecast`]): what the enemy's next turn can do to it after one maneuver per
//!   tank (attacks by every tank that can come to face one of its tanks, within the enemy's
//!   maneuver allowance, and empty urban hexes it holds that an enemy can drive into). An attack is scored by its expected value,
//!   with the best advance on success and the cheapest casualty on failure; the bot ends
//!   the phase when nothing scores above ending it. In the final phase, with no maneuvers
//!   left, only tanks already facing count.
//! - **Easy**: the same greedy choice on the evaluation alone, with noise, believing every
//!   attack a coin toss and never advancing.

mod forecast;

use std::sync::LazyLock;

use rand::RngExt;
use trinchera_rules::tanques::{Tanques, dice};
use trinchera_rules::{Action, Cell, Facing, Rules, Seat, Seed, Setup, Sight, Status, View};

use super::{Bot, Config, Level, SeatKnowledge, legal_actions, listed, world};
use forecast::{Map, outlook};

/// The map, for the hard level's look ahead.
static MAP: LazyLock<Map> = LazyLock::new(|| Map::of(Tanques::description()));

/// Points per urban hex held.
const URBAN: i32 = 100;
/// Points per tank left.
const TANK: i32 = 35;
/// Points off per hex between a tank and the nearest urban hex its seat does not hold.
const DISTANCE: i32 = 4;
/// The distance a tank in reserve counts as: farther than from any entry hex.
const RESERVE_DISTANCE: i32 = 8;
/// Points per tank standing on an urban hex.
const HOLDING: i32 = 10;
/// Points per tank whose next step forward brings it nearer its urban hex.
const ALIGNED: i32 = 2;
/// Points off per adjacent enemy tank that faces a tank (it can attack at once).
const FACED: i32 = 10;
/// Points off per other adjacent enemy tank (it can turn to attack next turn).
const FLANKED: i32 = 4;
/// How many times worse a threat is to a tank holding an urban hex (an advance takes it).
const HOLD_RISK: i32 = 2;
/// The easy level's noise, at most, in points.
const EASY_NOISE: i32 = 40;
/// Attackers beyond this count as this many (the combat table's last column).
const MAX_COLUMN: usize = 4;

/// Hexes between two axial cells.
fn hex_distance(a: Cell, b: Cell) -> i32 {
    let (dq, dr) = (i32::from(a.x - b.x), i32::from(a.y - b.y));
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

/// The hex in front of a tank on `cell` facing `facing`.
fn front_of(cell: Cell, facing: Facing) -> Cell {
    let (dq, dr) = facing.delta();
    Cell::new(cell.x + dq, cell.y + dr)
}

/// The value of the position `view` shows (with every piece visible), for `seat`, as the
/// easy level reads it.
fn evaluate(view: &View, seat: Seat) -> i32 {
    let Status::Tanques(status) = &view.status else {
        return 0;
    };
    let mut score = 0;
    let sign = |owner: Seat| if owner == seat { 1 } else { -1 };
    for &(_, holder) in &status.control {
        score += holder.map_or(0, |holder| sign(holder) * URBAN);
    }
    let tanks: Vec<(Cell, Seat, Option<Facing>)> = view
        .pieces
        .iter()
        .filter_map(|piece| piece.cell.map(|cell| (cell, piece.owner, piece.facing)))
        .collect();
    for piece in &view.pieces {
        score += sign(piece.owner) * TANK;
        if piece.cell.is_none() {
            score -= sign(piece.owner) * DISTANCE * RESERVE_DISTANCE;
        }
    }
    for &(cell, owner, facing) in &tanks {
        let target = status
            .control
            .iter()
            .filter(|&&(_, holder)| holder != Some(owner))
            .map(|&(urban, _)| (hex_distance(cell, urban), urban))
            .min();
        let mut own = -DISTANCE * target.map_or(0, |(distance, _)| distance);
        let holding = status.control.iter().any(|&(urban, _)| urban == cell);
        if holding {
            own += HOLDING;
        }
        let threats: i32 = tanks
            .iter()
            .filter(|&&(c, o, _)| o != owner && hex_distance(c, cell) == 1)
            .map(|&(c, _, f)| {
                if f.is_some_and(|f| front_of(c, f) == cell) {
                    FACED
                } else {
                    FLANKED
                }
            })
            .sum();
        own -= threats * if holding { HOLD_RISK } else { 1 };
        if let Some(facing) = facing {
            let front = front_of(cell, facing);
            if target.is_some_and(|(distance, urban)| hex_distance(front, urban) < distance) {
                own += ALIGNED;
            }
        }
        score += sign(owner) * own;
    }
    score
}

/// A bot of one seat of tanques.
pub(super) struct TanquesBot {
    config: Config,
}

impl TanquesBot {
    pub(super) fn new(config: Config) -> Self {
        TanquesBot { config }
    }

    /// Per column (attackers, 1 to 4): a seed whose next roll the attack wins, and one it
    /// loses, for the position's roll index.
    fn outcome_seeds(rolls: u32) -> [[Seed; 2]; MAX_COLUMN] {
        std::array::from_fn(|column| {
            let wins = |seed: &Seed| dice::roll(seed, u64::from(rolls)) >= 5 - column as u8;
            let find = |want: bool| {
                (0..=u8::MAX)
                    .map(|byte| Seed([byte; 32]))
                    .find(|seed| wins(seed) == want)
                    .unwrap_or(Seed([0; 32]))
            };
            [find(true), find(false)]
        })
    }

    /// The value for the bot of `position` after `action`, if the rules accept it.
    fn after(&self, position: &Tanques, action: &Action) -> Option<i32> {
        let mv = position.check(action).ok()?;
        let mut next = *position;
        next.play_unchecked(mv, &mut Vec::new());
        let view = next.view(Sight::Everything);
        let seat = self.config.seat;
        let ahead = match (&view.status, self.config.level) {
            (Status::Tanques(status), Level::Hard) => outlook(&MAP, &view, status, seat),
            _ => 0,
        };
        Some(evaluate(&view, seat) + ahead)
    }

    /// The expected value of an attack, from positions rebuilt with seeds that roll each
    /// outcome, with the attack as it is to be played: the hard level declares the best
    /// advance for a success and the cheapest casualty for a failure.
    fn attack_value(
        &self,
        view: &SeatKnowledge,
        action: &Action,
        seeds: &[[Seed; 2]; MAX_COLUMN],
    ) -> Option<(i32, Action)> {
        let Action::Attack {
            target, attackers, ..
        } = action
        else {
            return None;
        };
        let column = attackers.len().clamp(1, MAX_COLUMN);
        let hard = self.config.level == Level::Hard;
        let odds = if hard { column as i32 + 1 } else { 3 };
        let attack = |advance: Option<Cell>, casualty: Option<Cell>| Action::Attack {
            target: *target,
            attackers: attackers.clone(),
            advance,
            casualty,
        };
        // The best value and choice among `options` (none, or one of the attackers).
        let best = |seed: Seed, options: Vec<Option<Cell>>, as_advance: bool| {
            let position: Tanques = world(view, seed.0).ok()?;
            options
                .into_iter()
                .filter_map(|option| {
                    let played = if as_advance {
                        attack(option, None)
                    } else {
                        attack(None, option)
                    };
                    Some((self.after(&position, &played)?, option))
                })
                .max_by_key(|&(value, _)| value)
        };
        let options = if hard {
            std::iter::once(None)
                .chain(attackers.iter().map(|&c| Some(c)))
                .collect()
        } else {
            vec![None]
        };
        let [win_seed, lose_seed] = seeds[column - 1];
        let (won, advance) = best(win_seed, options.clone(), true)?;
        let (lost, casualty) = best(lose_seed, options, false)?;
        let value = (odds * won + (6 - odds) * lost) / 6;
        Some((value, attack(advance, casualty)))
    }
}

impl Bot for TanquesBot {
    fn setup(&mut self) -> Option<Setup> {
        None
    }

    fn choose(&mut self, view: &SeatKnowledge) -> Option<Action> {
        let legal = legal_actions(view);
        if legal.len() <= 1 {
            return legal.into_iter().next();
        }
        let Status::Tanques(status) = &view.projection.status else {
            return listed(view, None);
        };
        let mut rng = self.config.rng(view.version);
        let Ok(position) = world::<Tanques>(view, self.config.seed) else {
            return listed(view, None);
        };
        let seeds = Self::outcome_seeds(status.rolls);
        let noise = match self.config.level {
            Level::Easy => EASY_NOISE,
            Level::Hard => 0,
        };
        let best = legal
            .iter()
            .filter_map(|action| {
                let (value, action) = match action {
                    Action::Attack { .. } => self.attack_value(view, action, &seeds),
                    _ => self
                        .after(&position, action)
                        .map(|value| (value, action.clone())),
                }?;
                let jitter = if noise > 0 {
                    rng.random_range(0..=noise)
                } else {
                    0
                };
                // Ending wins ties: an action must pay to be made.
                let ends = i32::from(action == Action::EndPhase);
                Some(((value + jitter, ends), action))
            })
            .max_by_key(|&(key, _)| key)
            .map(|(_, action)| action);
        listed(view, best)
    }
}
