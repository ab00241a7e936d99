//! Bots of the hidden-army games (`frente`, `clasico`, `castillos`).
//!
//! - **Belief**: every enemy piece whose kind the seat has not seen may be any kind still
//!   unaccounted for (the army's counts minus the kinds revealed, in play or captured); a
//!   piece that ever moved is no bomb or flag; the flag sits far back more often than not,
//!   much more often where pieces that never moved close every side, and bombs next to it.
//!   A piece's public conduct weighs its kind: one that could have attacked a revealed
//!   piece and did not likely does not beat it.
//! - **Hard**: samples worlds from the belief ([`Determinize`] turns each into a position),
//!   searches each by iterative-deepening alpha-beta under one node budget, and plays the
//!   move with the best total over the worlds. Past the depth only attacks on revealed
//!   pieces are searched: in a sampled world every kind is known, and attacks on the
//!   others would be searched as if the bot could see them (and would eat the budget).
//!   Root moves more than a margin worse than the best so far in a world are cut short
//!   there. A world's win counts as a capped bonus, so that one lucky guess does not
//!   decide.
//! - **Easy**: one sampled world, one move deep (plus attacks on revealed pieces), with noise.
//! - **Evaluation**: material (ranks on a geometric scale; spies, bombs, grenades and the
//!   kinds that defuse bombs valued for what they do), a little for pieces the enemy has not
//!   identified, for being closer to one's goal than the enemy is to its own, and against
//!   enemy pieces at the door of one's own flag that can take it (only defusers, when bombs
//!   seal it), and for keeping a piece that beats the defusers near it; against the side
//!   to move, the second most valuable of its revealed pieces that an enemy next to it
//!   beats (it can save only one). The goal is the enemy flag;
//!   late in the enemy's game, a flag sealed by bombs is the defusers' goal, and a side
//!   with no defuser left hunts the enemy's movable pieces instead (a side left with
//!   immovable pieces only loses), so that it does not drift into the move limit.
//! - **Setup**: flag on the back row (now and then one row up) where the bombs can close
//!   every side it can be reached from (with two bombs, a corner), bombs on those sides,
//!   the weakest pieces on any side left open, and behind them the weakest piece that
//!   beats the defusers; bombs to spare now and then make a decoy cluster around another
//!   back square, else go to the back rows; runners and low ranks
//!   forward, strong pieces spread over the middle rows; random within those preferences,
//!   so no two setups are alike.
//! - **Hard at the root**: a piece that does not defuse bombs does not attack an unmoved
//!   unknown piece the belief makes more likely a bomb than the flag when the expected
//!   loss is more than a low rank is worth; that work is left to the defusers and the low
//!   ranks. A side well ahead in material presses: quiet turns toward the move limit count
//!   against it.

use std::marker::PhantomData;

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use trinchera_rules::army::spec::{Mobility, Spec};
use trinchera_rules::army::{Army, BoardPiece, TURN_LIMIT, Variant};
use trinchera_rules::{
    Action, BattleResult, Cell, Conduct, Determinize, KindId, Rules, Seat, Seed, Setup, SetupError,
    View,
};

use super::search::{Model, Searcher};
use super::{Bot, Config, Level, SeatKnowledge, legal_actions, listed};

/// Worlds a hard bot samples per decision.
const WORLDS: usize = 16;
/// Deepest iteration of the hard search.
const MAX_DEPTH: u32 = 4;
/// What a won or lost world counts for, at most, in the total over worlds.
const WORLD_CAP: i32 = 3_000;
/// Points per square of distance to a side's goal (see [`ArmyModel::approach`]).
const FLAG_PULL: i32 = 3;
/// Distance in squares that counts as far from a goal.
const FAR: i32 = 20;
/// Points against per unit of enemy closeness to one's own flag ([`DOOR`]): a threat to
/// meet before it can strike.
const CLOSE_TO_FLAG: i32 = 10;
/// Units of closeness of a piece that can take a flag, by its distance to it in squares.
const DOOR: [i32; 4] = [0, 8, 3, 1];
/// Squares from its own flag within which a side keeps a guard (a piece that beats every
/// defuser), and points against per square its nearest guard stands farther off, while
/// the enemy has a defuser: a defuser that breaks into the bombs is then taken before it
/// takes the flag.
const GUARD_REACH: i32 = 2;
const GUARD_PULL: i32 = 3;
/// Squares past [`GUARD_REACH`] that count, at most.
const GUARD_FAR: i32 = 6;
/// A side's game is late when it has at most a `LATE`th of its movable pieces left: its
/// flag, sealed by bombs, is then the enemy defusers' goal.
const LATE: i32 = 4;
/// Points for each own movable piece the enemy has not identified, plus a share of its
/// value (`value / HIDDEN_SHARE`): where the enemy's Mariscal stands is worth more to know
/// than where a scout does. The same counts against each enemy piece not identified, so
/// that a probe that reveals one wins points.
const HIDDEN: i32 = 3;
const HIDDEN_SHARE: i32 = 8;
/// Lead in the value of movable pieces (bombs take no flag), in points, from which a side
/// presses: it pulls harder toward its goal, and quiet turns (which bring the draw of the
/// move limit) count against it.
const PRESS_LEAD: i32 = 40;
/// How much harder a pressing side pulls toward its goal.
const PRESS_PULL: i32 = 3;
/// The expected loss, in points, above which a piece that does not defuse bombs does not
/// attack an unmoved unknown piece: its value times the chance the belief gives the target
/// of being a bomb (a Mariscal attacks such a piece only when a bomb is nearly ruled out;
/// a low rank may probe).
const RISK_LIMIT: i32 = 12;
/// Beliefs sampled to weigh the bomb risk of the attacks at the root.
const RISK_SAMPLES: u32 = 48;
/// Points on top of their rank for the kinds that defuse bombs.
const DEFUSER: i32 = 30;
/// Points on top of that for each of a side's last [`SCARCE_DEFUSERS`] defusers: without
/// one a flag closed by bombs cannot be taken, and the game drifts to the move limit.
const LAST_DEFUSER: i32 = 60;
/// How many defusers count as a side's last.
const SCARCE_DEFUSERS: i32 = 2;
/// How far below the best so far a root move's value is searched exactly, in points (past
/// that, it is only known to be worse).
const ROOT_MARGIN: i32 = 150;
/// How much likelier the belief makes the flag on a square closed on every side by
/// pieces that never moved (or the edge, or a lake) than on another.
const CLOSED_FLAG: u32 = 8;
/// How much likelier the belief makes a kind for a hidden piece per revealed enemy kind the
/// piece could have attacked and did not, when the kind does not beat it (players take
/// what their pieces beat).
const CONDUCT: u32 = 3;
/// The easy level's noise, at most, in points.
const EASY_NOISE: i32 = 30;

/// A bot of one army ruleset.
pub(super) struct ArmyBot<V: Variant> {
    config: Config,
    model: ArmyModel<V>,
}

impl<V: Variant> ArmyBot<V> {
    pub(super) fn new(config: Config) -> Self {
        ArmyBot {
            config,
            model: ArmyModel::new(),
        }
    }
}

/// Rows of `y` from `seat`'s own edge (0: the back row).
fn depth<V: Variant>(seat: Seat, y: i8) -> i8 {
    match seat {
        Seat::First => y,
        Seat::Second => V::spec().data.height - 1 - y,
    }
}

fn distance(a: Cell, b: Cell) -> i32 {
    i32::from((a.x - b.x).abs() + (a.y - b.y).abs())
}

fn movable(spec: &Spec, kind: KindId) -> bool {
    spec.kind(kind.0).mobility != Mobility::Immovable
}

/// Scores positions of an army ruleset.
pub(super) struct ArmyModel<V: Variant> {
    /// Per kind.
    values: Vec<i32>,
    /// Per kind: whether it defuses bombs.
    defusers: Vec<bool>,
    /// Per kind: whether it guards a flag ([`beats_defusers`]).
    guards: Vec<bool>,
    /// Movable pieces in an army.
    army_movers: i32,
    variant: PhantomData<V>,
}

impl<V: Variant> ArmyModel<V> {
    fn new() -> Self {
        let kinds = V::spec().data.kinds;
        let mut ranked: Vec<(u8, usize)> = kinds
            .iter()
            .enumerate()
            .filter(|(_, kind)| kind.mobility != Mobility::Immovable)
            .filter_map(|(index, kind)| kind.rank.map(|rank| (rank, index)))
            .collect();
        ranked.sort_unstable();
        let mut values = vec![0; kinds.len()];
        let mut scale = 10.0_f64;
        for (_, index) in ranked {
            values[index] = scale as i32;
            scale *= 1.4;
        }
        for (value, kind) in values.iter_mut().zip(kinds) {
            *value = match kind.id {
                _ if kind.is_flag => 0,
                "espia" => 60,
                "bomba" => 25,
                "granada" => 60,
                // The only way through a flag closed by bombs.
                "cabo_armero" | "minador" | "desactivador" => *value + DEFUSER,
                _ => *value,
            };
        }
        let spec = V::spec();
        let defusers = (0..kinds.len())
            .map(|index| {
                let kind = KindId(index as u8);
                movable(spec, kind) && defuses(spec, kind)
            })
            .collect();
        let guards = (0..kinds.len())
            .map(|index| beats_defusers(spec, KindId(index as u8)))
            .collect();
        let movers: u8 = (kinds.iter())
            .filter(|kind| kind.mobility != Mobility::Immovable)
            .map(|kind| kind.count)
            .sum();
        ArmyModel {
            values,
            defusers,
            guards,
            army_movers: i32::from(movers),
            variant: PhantomData,
        }
    }

    /// What the side to move stands to lose beyond the piece it saves: the second most
    /// valuable of its revealed pieces that an enemy piece next to it beats. (The search's
    /// captures only see one threat at a time: with two, the side that stands pat keeps
    /// both.)
    fn second_hanging(&self, army: &Army<V>) -> i32 {
        let mut top = [0; 2];
        for piece in army.exposed(army.to_move()) {
            let value = self.values[piece.kind.index()];
            if value > top[0] {
                top = [value, top[0]];
            } else if value > top[1] {
                top[1] = value;
            }
        }
        top[1]
    }

    /// What [`Model::evaluate`] counts of `army`'s pieces, in one pass.
    fn census(&self, army: &Army<V>) -> Census {
        let spec = V::spec();
        let mut census = Census {
            worth: [0; 2],
            material: [0; 2],
            movers: [0; 2],
            defusers: [0; 2],
            flags: [None; 2],
            pieces: Vec::with_capacity(2 * self.army_movers as usize),
        };
        for piece in army.board_pieces() {
            let side = piece.owner.index();
            let value = self.values[piece.kind.index()];
            census.worth[side] += value;
            if movable(spec, piece.kind) {
                census.pieces.push(piece);
                census.material[side] += value;
                census.movers[side] += 1;
                census.defusers[side] += i32::from(self.defusers[piece.kind.index()]);
                if !piece.revealed {
                    census.worth[side] += HIDDEN + value / HIDDEN_SHARE;
                }
            } else if spec.kind(piece.kind.0).is_flag {
                census.flags[side] = Some(piece.cell);
            }
        }
        census
    }

    /// Per seat, given the `census` of `army`: how far it is from its [`Goal`], and how
    /// much it stands at the enemy flag's door ([`DOOR`]; only pieces that can take the
    /// flag count). The goal is the enemy flag, reached by the nearest movable piece; late
    /// in the enemy's game (a [`LATE`]th of its movable pieces left) a flag sealed by bombs
    /// is the defusers' goal, and with no defuser left the side hunts instead (a side with
    /// only immovable pieces loses): its distance is then the sum, over its two pieces
    /// nearest to an enemy piece they beat, of that distance. Also how far each side's
    /// nearest guard ([`beats_defusers`]) stands from its own flag.
    fn approach(&self, army: &Army<V>, census: &Census) -> Approach {
        let spec = V::spec();
        let Census {
            movers,
            defusers,
            flags,
            pieces,
            ..
        } = census;
        let sealed = flags.map(|flag| flag.is_some_and(|flag| army.sealed(flag)));
        let mut nearest = [FAR; 2];
        let mut door = [0; 2];
        let mut guard = [FAR; 2];
        let goal = Seat::BOTH.map(|side| {
            let enemy = (!side).index();
            if !sealed[enemy] || movers[enemy] * LATE > self.army_movers {
                Goal::Flag
            } else if defusers[side.index()] > 0 {
                Goal::Defuse
            } else {
                Goal::Hunt
            }
        });
        for piece in pieces {
            let (side, enemy) = (piece.owner.index(), (!piece.owner).index());
            if let Some(own) = flags[side]
                && self.guards[piece.kind.index()]
            {
                guard[side] = guard[side].min(distance(piece.cell, own));
            }
            let Some(flag) = flags[enemy] else { continue };
            let defuser = self.defusers[piece.kind.index()];
            let away = distance(piece.cell, flag);
            if !sealed[enemy] || defuser {
                door[side] += DOOR.get(away as usize).copied().unwrap_or(0);
            }
            if goal[side] == Goal::Flag || (goal[side] == Goal::Defuse && defuser) {
                nearest[side] = nearest[side].min(away);
            }
        }
        // Per hunting side, its two hunters nearest to their prey: two corner a piece
        // that one alone only chases.
        let mut hunters = [[FAR; 2]; 2];
        for hunter in pieces
            .iter()
            .filter(|p| goal[p.owner.index()] == Goal::Hunt)
        {
            let beaten = spec.battle[hunter.kind.index()].as_slice();
            let near = (pieces.iter())
                .filter(|prey| prey.owner != hunter.owner)
                .filter(|prey| beaten[prey.kind.index()] == BattleResult::AttackerWins)
                .map(|prey| distance(hunter.cell, prey.cell))
                .min()
                .unwrap_or(FAR);
            let best = &mut hunters[hunter.owner.index()];
            if near < best[0] {
                *best = [near, best[0]];
            } else if near < best[1] {
                best[1] = near;
            }
        }
        for side in Seat::BOTH.map(Seat::index) {
            if goal[side] == Goal::Hunt {
                nearest[side] = hunters[side][0] + hunters[side][1];
            }
        }
        Approach {
            reach: nearest,
            door,
            guard,
        }
    }
}

/// How each seat stands toward its goal and its own flag ([`ArmyModel::approach`]).
struct Approach {
    /// Its distance to its goal.
    reach: [i32; 2],
    /// How much it stands at the enemy flag's door ([`DOOR`]).
    door: [i32; 2],
    /// Its nearest guard's distance to its own flag.
    guard: [i32; 2],
}

/// What the evaluation counts of a position's pieces, per seat.
struct Census {
    /// The value of its pieces, plus a bonus for each movable one the enemy has not
    /// identified ([`HIDDEN`]).
    worth: [i32; 2],
    /// The value of its movable pieces.
    material: [i32; 2],
    /// How many movable pieces it has.
    movers: [i32; 2],
    /// How many of those defuse bombs.
    defusers: [i32; 2],
    /// Where its flag stands.
    flags: [Option<Cell>; 2],
    /// Every movable piece, of both seats.
    pieces: Vec<BoardPiece>,
}

/// What a side's pieces head for (see [`ArmyModel::approach`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// The enemy flag, with any movable piece.
    Flag,
    /// The enemy flag, sealed by bombs, with the defusers.
    Defuse,
    /// The enemy's movable pieces, each with a piece that beats it.
    Hunt,
}

impl<V: Variant> Model for ArmyModel<V> {
    type Position = Army<V>;

    fn evaluate(&self, army: &Army<V>, seat: Seat) -> i32 {
        let census = self.census(army);
        let (mine, theirs) = (seat.index(), (!seat).index());
        let mut score = census.worth[mine] - census.worth[theirs];
        let hanging = self.second_hanging(army);
        score += if army.to_move() == seat {
            -hanging
        } else {
            hanging
        };
        let scarce = |side: usize| LAST_DEFUSER * census.defusers[side].min(SCARCE_DEFUSERS);
        score += scarce(mine) - scarce(theirs);
        let lead = census.material[mine] - census.material[theirs];
        let Approach { reach, door, guard } = self.approach(army, &census);
        // A side keeps a guard near its flag while the enemy has a defuser to break in.
        let unguarded = |side: usize| {
            let enemy_defuses = census.defusers[1 - side] > 0;
            i32::from(enemy_defuses) * (guard[side] - GUARD_REACH).clamp(0, GUARD_FAR)
        };
        // A side well ahead presses: the draw of the move limit is its loss, so quiet turns
        // count against it (more and more as the limit nears) and it pulls harder toward
        // its goal.
        let quiet = army.quiet_turns().min(TURN_LIMIT) as i32;
        let press = quiet * quiet / TURN_LIMIT as i32;
        let (pull, press) = match lead {
            lead if lead >= PRESS_LEAD => (FLAG_PULL * PRESS_PULL, -press),
            lead if lead <= -PRESS_LEAD => (FLAG_PULL, press),
            _ => (FLAG_PULL, 0),
        };
        score + pull * (reach[theirs] - reach[mine]) - CLOSE_TO_FLAG * door[theirs]
            + GUARD_PULL * (unguarded(theirs) - unguarded(mine))
            + press
    }

    fn noisy(&self, army: &Army<V>, mv: <Army<V> as Rules>::Move) -> bool {
        army.attacks_revealed(mv)
    }
}

/// What a seat believes about the enemy's hidden pieces.
struct Belief<'a> {
    view: &'a View,
    enemy: Seat,
    /// Per kind: how many enemy pieces of it are still unaccounted for.
    remaining: Vec<u8>,
}

impl<'a> Belief<'a> {
    fn new<V: Variant>(view: &'a View, seat: Seat) -> Self {
        let spec = V::spec();
        let enemy = !seat;
        let mut remaining: Vec<u8> = spec.data.kinds.iter().map(|kind| kind.count).collect();
        for piece in view.pieces.iter().chain(&view.captured) {
            if let (true, Some(kind)) = (piece.owner == enemy, piece.kind) {
                let left = &mut remaining[kind.index()];
                *left = left.saturating_sub(1);
            }
        }
        Belief {
            view,
            enemy,
            remaining,
        }
    }

    /// How much more likely `cell` holds the flag for how closed in it is: players close
    /// every side of their flag with bombs (or a piece), so a square whose open sides all
    /// hold pieces that never moved is [`CLOSED_FLAG`] times likelier than one with an empty
    /// side or a moved piece beside it.
    fn closed_in<V: Variant>(&self, cell: Cell) -> u32 {
        let spec = V::spec();
        let closed = [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().all(|&(dx, dy)| {
            let side = Cell::new(cell.x + dx, cell.y + dy);
            !spec
                .board_square(side)
                .is_some_and(|square| spec.open[square])
                || self.view.pieces.iter().any(|piece| {
                    piece.cell == Some(side) && piece.owner == self.enemy && !piece.moved
                })
        });
        if closed { CLOSED_FLAG } else { 1 }
    }

    /// A view with a guess for every hidden enemy piece, drawn from the belief.
    fn sample<V: Variant>(&self, rng: &mut ChaCha8Rng) -> View {
        let spec = V::spec();
        let mut guess = self.view.clone();
        let mut hidden: Vec<_> = guess
            .pieces
            .iter_mut()
            .chain(guess.captured.iter_mut())
            .filter(|piece| piece.owner == self.enemy && piece.kind.is_none())
            .collect();
        hidden.shuffle(rng);
        let mut flag_cell = None;
        // Immovable kinds, flags first, onto pieces that never moved, by the weights.
        let mut immovable: Vec<KindId> = Vec::new();
        let mut others: Vec<KindId> = Vec::new();
        for (index, &left) in self.remaining.iter().enumerate() {
            let kind = KindId(index as u8);
            let list = if movable(spec, kind) {
                &mut others
            } else {
                &mut immovable
            };
            list.extend(std::iter::repeat_n(kind, usize::from(left)));
        }
        immovable.sort_by_key(|&kind| !spec.kind(kind.0).is_flag);
        for kind in immovable {
            let is_flag = spec.kind(kind.0).is_flag;
            let weight = |cell: Option<Cell>| -> u32 {
                let Some(cell) = cell else { return 0 };
                let back = 3 - depth::<V>(self.enemy, cell.y).clamp(0, 3);
                let near_flag = flag_cell.is_some_and(|flag| distance(flag, cell) == 1);
                if is_flag {
                    (1 << (2 * back)) * self.closed_in::<V>(cell)
                } else {
                    1 + (1 << back) + if near_flag { 8 } else { 0 }
                }
            };
            let candidates: Vec<usize> = (0..hidden.len())
                .filter(|&i| {
                    hidden[i].kind.is_none() && !hidden[i].moved && hidden[i].cell.is_some()
                })
                .collect();
            let weights: Vec<u32> = candidates.iter().map(|&i| weight(hidden[i].cell)).collect();
            let Some(pick) = weighted_index(&weights, rng) else {
                others.push(kind);
                continue;
            };
            let i = candidates[pick];
            hidden[i].kind = Some(kind);
            if is_flag {
                flag_cell = hidden[i].cell;
            }
        }
        others.shuffle(rng);
        // Pieces whose moves showed something first, by how well each kind left fits them.
        for piece in hidden.iter_mut().filter(|piece| piece.kind.is_none()) {
            if piece.conduct.is_empty() || others.is_empty() {
                continue;
            }
            let weights: Vec<u32> = (others.iter())
                .map(|&kind| fits(spec, kind, piece.conduct))
                .collect();
            let index = weighted_index(&weights, rng).expect("every kind fits with weight ≥ 1");
            piece.kind = Some(others.swap_remove(index));
        }
        for piece in hidden.into_iter().filter(|piece| piece.kind.is_none()) {
            piece.kind = others.pop();
        }
        guess
    }
}

impl<V: Variant> ArmyBot<V> {
    /// The worlds a decision searches, sampled from the belief.
    fn worlds(&self, belief: &Belief<'_>, legal: &[Action], rng: &mut ChaCha8Rng) -> Vec<Army<V>> {
        let count = match self.config.level {
            Level::Easy => 1,
            Level::Hard => WORLDS,
        };
        (0..count)
            .filter_map(|_| {
                let guess = belief.sample::<V>(rng);
                Army::<V>::from_view(&guess, legal, Seed(self.config.seed)).ok()
            })
            .collect()
    }

    /// Of each of `moves` in `world` (a world of the belief: the seat's own pieces are
    /// true), whether it is an attack the belief calls too risky: a piece that does not
    /// defuse bombs attacking an unmoved unknown piece that is more likely a bomb than the
    /// flag, with an expected loss above [`RISK_LIMIT`].
    fn too_risky(
        &self,
        belief: &Belief<'_>,
        world: &Army<V>,
        moves: &[<Army<V> as Rules>::Move],
        rng: &mut ChaCha8Rng,
    ) -> Vec<bool> {
        let spec = V::spec();
        let unmoved_unknown = |cell: Cell| {
            belief.view.pieces.iter().any(|piece| {
                piece.cell == Some(cell)
                    && piece.owner == belief.enemy
                    && piece.kind.is_none()
                    && !piece.moved
            })
        };
        let targets: Vec<Cell> = moves
            .iter()
            .map(|&mv| world.cells(mv).1)
            .filter(|&to| unmoved_unknown(to))
            .collect();
        if targets.is_empty() {
            return vec![false; moves.len()];
        }
        // How often each target is a bomb, and how often the flag, over sampled beliefs.
        let mut bombs = vec![0_u32; targets.len()];
        let mut flags = vec![0_u32; targets.len()];
        for _ in 0..RISK_SAMPLES {
            let guess = belief.sample::<V>(rng);
            for (index, &cell) in targets.iter().enumerate() {
                let kind = guess
                    .pieces
                    .iter()
                    .find(|piece| piece.cell == Some(cell))
                    .and_then(|piece| piece.kind);
                if let Some(kind) = kind {
                    let kind = spec.kind(kind.0);
                    if kind.is_flag {
                        flags[index] += 1;
                    } else if kind.mobility == Mobility::Immovable {
                        bombs[index] += 1;
                    }
                }
            }
        }
        let attacker = |cell: Cell| {
            world
                .board_pieces()
                .find(|piece| piece.cell == cell)
                .map(|piece| piece.kind)
        };
        moves
            .iter()
            .map(|&mv| {
                let (from, to) = world.cells(mv);
                let (Some(index), Some(kind)) =
                    (targets.iter().position(|&t| t == to), attacker(from))
                else {
                    return false;
                };
                let loss =
                    self.model.values[kind.index()] * bombs[index] as i32 / RISK_SAMPLES as i32;
                !defuses(spec, kind) && bombs[index] > flags[index] && loss > RISK_LIMIT
            })
            .collect()
    }
}

/// How well `kind` fits a hidden piece's `conduct`, as a weight: [`CONDUCT`] times for each
/// revealed kind the piece declined to attack that `kind` does not beat.
fn fits(spec: &Spec, kind: KindId, conduct: Conduct) -> u32 {
    let beats =
        |other: KindId| spec.battle[kind.index()][other.index()] == BattleResult::AttackerWins;
    let spared = conduct
        .declined
        .iter()
        .filter(|&other| !beats(other))
        .count();
    CONDUCT.pow(spared as u32)
}

/// Whether `kind` wins when it attacks any bomb (the immovable kinds but the flag).
pub(super) fn defuses(spec: &Spec, kind: KindId) -> bool {
    spec.data
        .kinds
        .iter()
        .enumerate()
        .filter(|(_, k)| k.mobility == Mobility::Immovable && !k.is_flag)
        .all(|(bomb, _)| spec.battle[kind.index()][bomb] == BattleResult::AttackerWins)
}

/// Whether `kind` is movable and wins when it attacks any movable kind that defuses bombs:
/// beside its own flag's bombs it takes a defuser that breaks in.
fn beats_defusers(spec: &Spec, kind: KindId) -> bool {
    movable(spec, kind)
        && (0..spec.data.kinds.len())
            .map(|index| KindId(index as u8))
            .filter(|&defuser| movable(spec, defuser) && defuses(spec, defuser))
            .all(|defuser| spec.battle[kind.index()][defuser.index()] == BattleResult::AttackerWins)
}

impl<V: Variant> Bot for ArmyBot<V> {
    fn setup(&mut self) -> Option<Setup> {
        let setup = army_setup::<V>(self.config.seat, &[], &mut self.config.rng(0));
        Some(setup.expect("an empty board takes a whole army"))
    }

    fn choose(&mut self, view: &SeatKnowledge) -> Option<Action> {
        let legal = legal_actions(view);
        if legal.len() <= 1 {
            return legal.into_iter().next();
        }
        let seat = self.config.seat;
        let mut rng = self.config.rng(view.version);
        let belief = Belief::new::<V>(&view.projection, seat);
        let worlds = self.worlds(&belief, &legal, &mut rng);
        let Some(first) = worlds.first() else {
            return listed(view, None);
        };
        let mut moves = Vec::new();
        first.legal_moves(&mut moves);
        // The hard level leaves bomb-work to the pieces that defuse bombs and to the low
        // ranks: its strong pieces do not attack what is likely a bomb. A move it rules
        // out stays playable when nothing else is.
        if self.config.level == Level::Hard {
            let risky = self.too_risky(&belief, first, &moves, &mut rng);
            if risky.iter().any(|r| !r) {
                let mut risky = risky.into_iter();
                moves.retain(|_| !risky.next().unwrap_or(false));
            }
        }
        let max_depth = match self.config.level {
            Level::Easy => 1,
            Level::Hard => MAX_DEPTH,
        };
        let mut searcher = Searcher::new(self.config.budget);
        let mut totals: Option<Vec<i64>> = None;
        let mut order: Vec<usize> = (0..moves.len()).collect();
        for depth in 1..=max_depth {
            let mut sums = vec![0_i64; moves.len()];
            let mut complete = true;
            for world in &worlds {
                let Some(values) = searcher.root_values_near_best(
                    &self.model,
                    world,
                    &moves,
                    &order,
                    seat,
                    depth,
                    ROOT_MARGIN,
                ) else {
                    complete = false;
                    break;
                };
                for (sum, value) in sums.iter_mut().zip(values) {
                    *sum += i64::from(value.clamp(-WORLD_CAP, WORLD_CAP));
                }
            }
            if complete || totals.is_none() {
                // The next iteration tries this one's best moves first.
                order.sort_by_key(|&index| std::cmp::Reverse(sums[index]));
                totals = Some(sums);
            }
            if !complete {
                break;
            }
        }
        let totals = totals.unwrap_or_default();
        let noise = match self.config.level {
            Level::Easy => EASY_NOISE,
            Level::Hard => 1,
        };
        let best = moves
            .iter()
            .zip(totals)
            .map(|(&mv, total)| (mv, total + i64::from(rng.random_range(0..=noise))))
            .max_by_key(|&(_, total)| total)
            .map(|(mv, _)| first.action(mv));
        listed(view, best)
    }
}

/// A sensible, varied setup of `seat` (see the module docs) around the pieces of `kept`,
/// which stay where they are; refused when they do not fit the seat's zone.
pub(super) fn army_setup<V: Variant>(
    seat: Seat,
    kept: &[(Cell, KindId)],
    rng: &mut ChaCha8Rng,
) -> Result<Setup, SetupError> {
    let spec = V::spec();
    let description = &spec.description;
    let (free, missing) = Setup::room_around(description, seat, kept)?;
    let mut board = Placing {
        free,
        pieces: kept.to_vec(),
    };
    let row = |cell: Cell| depth::<V>(seat, cell.y);
    let kinds = spec.data.kinds;
    let of = |pred: &dyn Fn(&trinchera_rules::army::spec::KindSpec) -> bool| -> Vec<KindId> {
        missing
            .iter()
            .copied()
            .filter(|kind| pred(&kinds[kind.index()]))
            .collect()
    };
    let zone: Vec<Cell> = description
        .setup_zone(seat)
        .map(|zone| zone.cells.clone())
        .unwrap_or_default();
    // The squares next to `cell` that an enemy can reach it from: every neighbour in the
    // zone (the edges and lakes guard the others).
    let sides = |cell: Cell| -> Vec<Cell> {
        zone.iter()
            .copied()
            .filter(|&side| distance(cell, side) == 1)
            .collect()
    };
    let bombs = of(&|k| !k.is_flag && k.mobility == Mobility::Immovable);
    let mut flag = kept
        .iter()
        .find(|(_, kind)| kinds[kind.index()].is_flag)
        .map(|&(cell, _)| cell);
    for kind in of(&|k| k.is_flag) {
        // At the back (now and then one row up), where the bombs can close every side (with
        // two bombs, as in castillos, a corner); only where no square allows that, where
        // they close all but one, which a weak piece closes (and may leave).
        let flag_row = if rng.random_ratio(1, 5) { 1 } else { 0 };
        let open = |cell: Cell| {
            sides(cell)
                .into_iter()
                .filter(|side| !kept.iter().any(|(taken, _)| taken == side))
                .count()
        };
        let closable = |cell: Cell| row(cell) <= 1 && open(cell) <= bombs.len();
        let any_closable = board.free.iter().any(|&cell| closable(cell));
        let weight = |cell: Cell| -> u32 {
            match open(cell) {
                _ if row(cell) > 1 => 0,
                sides if sides <= bombs.len() => 3,
                sides if sides == bombs.len() + 1 && !any_closable => 1,
                _ => 0,
            }
        };
        let in_row = |r: i8| {
            board
                .free
                .iter()
                .any(|&cell| row(cell) == r && weight(cell) > 0)
        };
        let rows = [flag_row, 0, 1].into_iter().find(|&r| in_row(r));
        flag = Some(board.place(
            kind,
            &|cell| match rows {
                Some(r) => weight(cell) * u32::from(row(cell) == r),
                None => weight(cell),
            },
            rng,
        ));
    }
    // Bombs on every free side of the flag first; a side they cannot close gets a piece
    // (below). Bombs left over make a decoy around another back square now and then (a
    // second cluster, so that the flag is not where the bombs are), else go to the back.
    let mut guards: Vec<Cell> = flag
        .map(&sides)
        .unwrap_or_default()
        .into_iter()
        .filter(|cell| !kept.iter().any(|(taken, _)| taken == cell))
        .collect();
    guards.shuffle(rng);
    let spare = bombs.len().saturating_sub(guards.len());
    let decoy = (spare >= 2 && rng.random_ratio(2, 3))
        .then(|| {
            let far: Vec<Cell> = board
                .free
                .iter()
                .copied()
                .filter(|&cell| row(cell) == 0 && flag.is_none_or(|f| distance(f, cell) >= 4))
                .collect();
            (!far.is_empty()).then(|| far[rng.random_range(0..far.len())])
        })
        .flatten();
    let mut decoy_sides: Vec<Cell> = decoy
        .map(&sides)
        .unwrap_or_default()
        .into_iter()
        .filter(|cell| !kept.iter().any(|(taken, _)| taken == cell) && !guards.contains(cell))
        .collect();
    decoy_sides.shuffle(rng);
    for kind in bombs {
        let guard = if guards.is_empty() {
            decoy_sides.pop()
        } else {
            Some(guards.remove(0))
        };
        board.place(
            kind,
            &|cell| match guard {
                Some(guard) => u32::from(cell == guard),
                None => [3, 3, 1, 0][row(cell).clamp(0, 3) as usize],
            },
            rng,
        );
    }
    // The weakest pieces close the sides of the flag the bombs could not.
    let mut rest = of(&|k| k.mobility != Mobility::Immovable);
    rest.sort_by_key(|&kind| kinds[kind.index()].rank.unwrap_or(0));
    for guard in guards {
        if rest.is_empty() {
            break;
        }
        let kind = rest.remove(0);
        board.place(kind, &|cell| u32::from(cell == guard), rng);
    }
    // Behind them, the weakest piece that beats the defusers, where it reaches the most
    // sides of the flag: it takes a defuser that breaks in.
    if let Some(flag) = flag
        && let Some(at) = rest.iter().position(|&kind| beats_defusers(spec, kind))
    {
        let flag_sides = sides(flag);
        let reach = |cell: Cell| -> u32 {
            let behind = distance(flag, cell) == 2;
            let next_to = flag_sides.iter().filter(|&&side| distance(cell, side) == 1);
            if behind { next_to.count() as u32 } else { 0 }
        };
        let most = board
            .free
            .iter()
            .map(|&cell| reach(cell))
            .max()
            .unwrap_or(0);
        if most > 0 {
            let kind = rest.remove(at);
            board.place(kind, &|cell| u32::from(reach(cell) == most), rng);
        }
    }
    let top = kinds.iter().filter_map(|k| k.rank).max().unwrap_or(0);
    rest.shuffle(rng);
    // Strong pieces first, so that they get the middle rows and spread over columns.
    rest.sort_by_key(|&kind| std::cmp::Reverse(kinds[kind.index()].rank.unwrap_or(0)));
    let mut strong_columns: Vec<i8> = Vec::new();
    for kind in rest {
        let spec_kind = &kinds[kind.index()];
        let rank = spec_kind.rank.unwrap_or(0);
        let runner = matches!(spec_kind.mobility, Mobility::Long { .. });
        let strong = rank + 2 >= top;
        let weight = |cell: Cell| -> u32 {
            let r = row(cell).clamp(0, 3) as usize;
            if runner {
                [1, 2, 4, 8][r]
            } else if strong {
                let crowded = strong_columns.iter().any(|&x| (x - cell.x).abs() <= 1);
                [1, 4, 4, 2][r] * if crowded { 1 } else { 4 }
            } else if rank <= 4 {
                [1, 2, 3, 4][r]
            } else {
                [2, 3, 3, 2][r]
            }
        };
        let cell = board.place(kind, &weight, rng);
        if strong {
            strong_columns.push(cell.x);
        }
    }
    Setup::from_pieces(description, seat, &board.pieces)
}

/// An index drawn from `weights` in proportion to them; `None` when they are all 0.
fn weighted_index(weights: &[u32], rng: &mut ChaCha8Rng) -> Option<usize> {
    let total: u32 = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.random_range(0..total);
    weights.iter().position(|&weight| {
        let hit = pick < weight;
        pick = pick.saturating_sub(weight);
        hit
    })
}

/// A setup being made: the free squares of the zone and the pieces placed.
struct Placing {
    free: Vec<Cell>,
    pieces: Vec<(Cell, KindId)>,
}

impl Placing {
    /// Places `kind` on a free square drawn by `weight` (any free square if every weight is
    /// 0); returns the square.
    fn place(&mut self, kind: KindId, weight: &dyn Fn(Cell) -> u32, rng: &mut ChaCha8Rng) -> Cell {
        let weights: Vec<u32> = self.free.iter().map(|&cell| weight(cell)).collect();
        let index =
            weighted_index(&weights, rng).unwrap_or_else(|| rng.random_range(0..self.free.len()));
        let cell = self.free.swap_remove(index);
        self.pieces.push((cell, kind));
        cell
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use trinchera_rules::Viewer;
    use trinchera_rules::army::{Castillos, Clasico, Frente};

    use super::*;
    use crate::bots::tests::random_position;

    /// The guesses of the belief for one seat of a random position of ruleset `V` (`id`).
    fn guesses<V: Variant>(id: &str, n: u64, plies: u32) -> Option<(View, Vec<View>)> {
        let game = random_position(id, n, plies);
        let seat = game.to_move()?;
        let view = game.view(Viewer::Player(seat));
        let belief = Belief::new::<V>(&view, seat);
        let mut rng = ChaCha8Rng::seed_from_u64(n);
        let guessed = (0..8).map(|_| belief.sample::<V>(&mut rng)).collect();
        Some((view, guessed))
    }

    /// The belief never makes a piece that moved a bomb or the flag, keeps every kind the
    /// seat knows, and guesses the army's counts exactly.
    fn belief_holds<V: Variant>(id: &str, n: u64, plies: u32) -> Result<(), String> {
        let Some((view, guessed)) = guesses::<V>(id, n, plies) else {
            return Ok(());
        };
        let spec = V::spec();
        for guess in guessed {
            let mut counts = vec![[0_u8; 2]; spec.data.kinds.len()];
            for (seen, guessed) in view
                .pieces
                .iter()
                .chain(&view.captured)
                .zip(guess.pieces.iter().chain(&guess.captured))
            {
                let kind = guessed.kind.ok_or("a piece left unguessed")?;
                counts[kind.index()][guessed.owner.index()] += 1;
                if seen.kind.is_some_and(|known| known != kind) {
                    return Err(format!("a known kind changed at {:?}", seen.cell));
                }
                if seen.moved && !movable(spec, kind) {
                    return Err(format!(
                        "{id} seed {n}: the piece at {:?} moved but was guessed {}",
                        seen.cell,
                        spec.kind(kind.0).id
                    ));
                }
            }
            for (kind, count) in spec.data.kinds.iter().zip(counts) {
                if count != [kind.count; 2] {
                    return Err(format!("{id} seed {n}: {} counted {count:?}", kind.id));
                }
            }
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        #[test]
        fn the_belief_never_makes_a_piece_that_moved_a_bomb_or_the_flag(
            n in proptest::prelude::any::<u64>(),
            plies in 0_u32..300,
        ) {
            let checked = belief_holds::<Frente>("frente", n, plies)
                .and(belief_holds::<Clasico>("clasico", n, plies))
                .and(belief_holds::<Castillos>("castillos", n, plies));
            proptest::prop_assert!(checked.is_ok(), "{:?}", checked);
        }
    }

    /// Of seven unmoved enemy pieces on the back row, only b10 has pieces that never moved
    /// on every side: the belief puts the flag there far more often than on any other.
    #[test]
    fn the_belief_looks_for_the_flag_where_unmoved_pieces_close_it_in() {
        use trinchera_rules::{PositionText, Sight};
        // Azul's a10, b10, c10, b9, g10, h10, i10 (row 10 from the left: `bbb3bbb1`).
        let text = "bfb3bbb1/1b8/91/91/2~~2~~2/2~~2~~2/91/91/91/FR8 0";
        let army = Army::<Frente>::from_position_text(text).expect("a position");
        let view = army.view(Sight::Of(Viewer::Player(Seat::First)));
        let belief = Belief::new::<Frente>(&view, Seat::First);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let samples = 400;
        let flag_kind = Frente::spec()
            .data
            .kinds
            .iter()
            .position(|kind| kind.is_flag);
        let mut flags = std::collections::BTreeMap::<String, u32>::new();
        for _ in 0..samples {
            let guess = belief.sample::<Frente>(&mut rng);
            let flag = guess
                .pieces
                .iter()
                .find(|piece| {
                    piece.owner == Seat::Second && piece.kind.map(KindId::index) == flag_kind
                })
                .and_then(|piece| piece.cell)
                .expect("a guessed flag");
            *flags.entry(flag.grid_label().to_string()).or_default() += 1;
        }
        let closed = flags.get("b10").copied().unwrap_or(0);
        assert!(
            closed * 2 > samples && flags.values().all(|&n| n <= closed),
            "{flags:?}"
        );
    }

    /// A hidden enemy piece that declined to attack a revealed Coronel is guessed as a
    /// piece that beats it less often than when its moves showed nothing.
    #[test]
    fn the_belief_weighs_what_hidden_pieces_showed_by_their_moves() {
        let game = random_position("frente", 3, 60);
        let seat = game.to_move().expect("a game in play");
        let plain = game.view(Viewer::Player(seat));
        let moved: Vec<usize> = (0..plain.pieces.len())
            .filter(|&i| {
                let piece = &plain.pieces[i];
                piece.owner == !seat && piece.kind.is_none() && piece.moved
            })
            .collect();
        let Some(&shy) = moved.first() else {
            panic!("a hidden enemy piece that moved in {plain:?}");
        };
        let coronel = KindId(7);
        assert_eq!(Frente::spec().kind(coronel.0).id, "coronel");
        let mut shown = plain.clone();
        shown.pieces[shy].conduct.declined.insert(coronel);
        let samples = 1_000;
        // How often the piece at `index` is guessed as a kind that beats the Coronel.
        let beats = |view: &View, index: usize| -> f64 {
            let belief = Belief::new::<Frente>(view, seat);
            let mut rng = ChaCha8Rng::seed_from_u64(11);
            let beating = (0..samples)
                .filter(|_| {
                    let kind = belief.sample::<Frente>(&mut rng).pieces[index].kind;
                    let kind = kind.expect("every piece guessed");
                    Frente::spec().battle[kind.index()][coronel.index()]
                        == BattleResult::AttackerWins
                })
                .count();
            beating as f64 / f64::from(samples)
        };
        let (shy_before, shy_after) = (beats(&plain, shy), beats(&shown, shy));
        assert!(shy_after * 1.5 < shy_before, "{shy_before} → {shy_after}");
    }

    /// Late in the game, with both flags sealed by bombs: a side with no defuser hunts (its
    /// distance sums its two pieces' nearest to a piece they beat), a side with one sends
    /// it to the flag, only a defuser stands at the door of a sealed flag, and the pieces
    /// that beat defusers guard.
    #[test]
    fn late_sides_defuse_sealed_flags_or_hunt() {
        use trinchera_rules::PositionText;
        let model = ArmyModel::<Frente>::new();
        // Rojo: flag a1 sealed by bombs b1 and a2, General e2, maybe a Coronel g2 or a
        // Cabo Armero h2.
        // Azul: flag j10 sealed by bombs i10 and j9, a Sargento c1 and a Cabo Armero b3.
        let approach = |row2: &str| {
            let text = format!("8bf/9b/91/91/2~~2~~2/2~~2~~2/91/1a8/{row2}/FBr7 0");
            let army = Army::<Frente>::from_position_text(&text).expect("a position");
            model.approach(&army, &model.census(&army))
        };
        let (rojo, azul) = (Seat::First.index(), Seat::Second.index());
        let Approach { reach, door, guard } = approach("B3G5");
        assert_eq!(
            reach[rojo],
            3 + FAR,
            "the General alone hunts the Sargento at c1"
        );
        assert_eq!(reach[azul], 3, "the Cabo Armero at b3 heads for a1");
        assert_eq!(
            door,
            [0, 1],
            "the Cabo Armero three squares off; not the Sargento"
        );
        assert_eq!(
            guard,
            [5, 16],
            "the General and the Sargento guard; no Cabo Armero"
        );
        let two = approach("B3G1O3").reach;
        assert_eq!(
            two[rojo],
            3 + 5,
            "the Coronel at g2, five squares from c1, joins"
        );
        let reach = approach("B3G2A2").reach;
        assert_eq!(reach[rojo], 10, "Rojo's Cabo Armero at h2 heads for j10");
    }

    /// Every side of the flag that an enemy can reach it from holds a bomb, in every army
    /// ruleset (castillos' two bombs close a corner); a piece that beats the defusers stands
    /// behind a side; and the flag's place varies.
    fn flag_closed<V: Variant>() {
        let spec = V::spec();
        let description = &spec.description;
        for seat in Seat::BOTH {
            let mut places = std::collections::BTreeSet::new();
            for n in 0..200_u64 {
                let setup = army_setup::<V>(seat, &[], &mut ChaCha8Rng::seed_from_u64(n))
                    .expect("a whole army");
                let pieces = setup.pieces();
                let kind_at = |cell: Cell| {
                    pieces
                        .iter()
                        .find(|(at, _)| *at == cell)
                        .map(|(_, kind)| spec.kind(kind.0))
                };
                let (flag, _) = *pieces
                    .iter()
                    .find(|(_, kind)| spec.kind(kind.0).is_flag)
                    .expect("a flag");
                places.insert((flag.x, flag.y));
                let zone = &description.setup_zone(seat).expect("a zone").cells;
                let sides: Vec<&Cell> = zone
                    .iter()
                    .filter(|&&side| distance(flag, side) == 1)
                    .collect();
                let bombed = sides
                    .iter()
                    .filter(|&&&side| {
                        kind_at(side).is_some_and(|k| k.mobility == Mobility::Immovable)
                    })
                    .count();
                assert!(
                    bombed == sides.len(),
                    "{} seat {seat} seed {n}: the flag at {flag:?} has {bombed} of {} sides \
                     bombed",
                    description.id,
                    sides.len()
                );
                let guarded = pieces.iter().any(|&(cell, kind)| {
                    distance(flag, cell) == 2
                        && beats_defusers(spec, kind)
                        && sides.iter().any(|&&side| distance(cell, side) == 1)
                });
                assert!(
                    guarded,
                    "{} seat {seat} seed {n}: no guard behind the flag at {flag:?}",
                    description.id
                );
            }
            assert!(
                places.len() >= 2,
                "{}: the flag stands in {places:?} only",
                description.id
            );
        }
    }

    #[test]
    fn the_flag_is_closed_on_every_side_by_bombs_and_guarded() {
        flag_closed::<Frente>();
        flag_closed::<Clasico>();
        flag_closed::<Castillos>();
    }
}
