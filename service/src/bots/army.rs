//! Bots of the hidden-army games (`frente`, `clasico`, `castillos`).
//!
//! - **Belief**: every enemy piece whose kind the seat has not seen may be any kind still
//!   unaccounted for (the army's counts minus the kinds revealed, in play or captured); a
//!   piece that ever moved is no bomb or flag; the flag sits far back more often than not,
//!   and bombs next to it.
//! - **Hard**: samples worlds from the belief ([`Determinize`] turns each into a position),
//!   searches each by iterative-deepening alpha-beta (with captures searched past the
//!   depth) under one node budget, and plays the move with the best total over the worlds.
//!   A world's win counts as a capped bonus, so that one lucky guess does not decide.
//! - **Easy**: one sampled world, one move deep (plus captures), with noise.
//! - **Evaluation**: material (ranks on a geometric scale; spies, bombs, grenades and the
//!   kinds that defuse bombs valued for what they do), a little for pieces the enemy has not
//!   identified, for being closer to the enemy flag than the enemy is to one's own, and
//!   against enemy pieces at the door of one's own flag.
//! - **Setup**: flag on the back row (now and then one row up), bombs on every square next
//!   to it as far as they go and the rest in the back rows, runners and low ranks forward,
//!   strong pieces spread over the middle rows; random within those preferences, so no two
//!   setups are alike.

use std::marker::PhantomData;

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use trinchera_rules::army::spec::{Mobility, Spec};
use trinchera_rules::army::{Army, Variant};
use trinchera_rules::{
    Action, Cell, Determinize, KindId, Rules, Seat, Seed, Setup, SetupError, View,
};

use super::search::{Model, Searcher};
use super::{Bot, Config, Level, SeatKnowledge, legal_actions, listed};

/// Worlds a hard bot samples per decision.
const WORLDS: usize = 16;
/// Deepest iteration of the hard search.
const MAX_DEPTH: u32 = 4;
/// What a won or lost world counts for, at most, in the total over worlds.
const WORLD_CAP: i32 = 3_000;
/// Points per square of distance to a flag.
const FLAG_PULL: i32 = 3;
/// Points against per unit of enemy closeness to one's own flag (an enemy piece next to it
/// counts 4, two squares off 1): a threat to meet before it can strike.
const CLOSE_TO_FLAG: i32 = 10;
/// Points for each own movable piece the enemy has not identified.
const HIDDEN: i32 = 3;
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
                "cabo_armero" | "minador" | "desactivador" => *value + 12,
                _ => *value,
            };
        }
        ArmyModel {
            values,
            variant: PhantomData,
        }
    }
}

impl<V: Variant> Model for ArmyModel<V> {
    type Position = Army<V>;

    fn evaluate(&self, army: &Army<V>, seat: Seat) -> i32 {
        let spec = V::spec();
        let mut score = 0;
        let mut flags: [Option<Cell>; 2] = [None, None];
        for piece in army.board_pieces() {
            let sign = if piece.owner == seat { 1 } else { -1 };
            let mut value = self.values[piece.kind.index()];
            if !piece.revealed && movable(spec, piece.kind) {
                value += HIDDEN;
            }
            score += sign * value;
            if spec.kind(piece.kind.0).is_flag {
                flags[piece.owner.index()] = Some(piece.cell);
            }
        }
        // How close each seat's nearest movable piece is to the enemy flag, and how many of
        // its pieces stand at that flag's door (the nearer, the more).
        let mut nearest = [i32::MAX; 2];
        let mut close = [0; 2];
        for piece in army.board_pieces().filter(|p| movable(spec, p.kind)) {
            if let Some(flag) = flags[(!piece.owner).index()] {
                let away = distance(piece.cell, flag);
                let near = &mut nearest[piece.owner.index()];
                *near = (*near).min(away);
                close[piece.owner.index()] += match away {
                    1 => 4,
                    2 => 1,
                    _ => 0,
                };
            }
        }
        let reach = |seat: Seat| nearest[seat.index()].min(20);
        score + FLAG_PULL * (reach(!seat) - reach(seat)) - CLOSE_TO_FLAG * close[(!seat).index()]
    }

    fn noisy(&self, army: &Army<V>, mv: <Army<V> as Rules>::Move) -> bool {
        army.is_attack(mv)
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
                    1 << (2 * back)
                } else {
                    1 + (1 << back) + if near_flag { 8 } else { 0 }
                }
            };
            let candidates: Vec<usize> = (0..hidden.len())
                .filter(|&i| {
                    hidden[i].kind.is_none() && !hidden[i].moved && hidden[i].cell.is_some()
                })
                .collect();
            let total: u32 = candidates.iter().map(|&i| weight(hidden[i].cell)).sum();
            if total == 0 {
                others.push(kind);
                continue;
            }
            let mut pick = rng.random_range(0..total);
            for &i in &candidates {
                let w = weight(hidden[i].cell);
                if pick < w {
                    hidden[i].kind = Some(kind);
                    if is_flag {
                        flag_cell = hidden[i].cell;
                    }
                    break;
                }
                pick -= w;
            }
        }
        others.shuffle(rng);
        for piece in hidden.into_iter().filter(|piece| piece.kind.is_none()) {
            piece.kind = others.pop();
        }
        guess
    }
}

impl<V: Variant> ArmyBot<V> {
    /// The worlds a decision searches, sampled from the belief.
    fn worlds(&self, view: &SeatKnowledge, legal: &[Action], rng: &mut ChaCha8Rng) -> Vec<Army<V>> {
        let belief = Belief::new::<V>(&view.projection, self.config.seat);
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
        let worlds = self.worlds(view, &legal, &mut rng);
        let Some(first) = worlds.first() else {
            return listed(view, None);
        };
        let mut moves = Vec::new();
        first.legal_moves(&mut moves);
        let max_depth = match self.config.level {
            Level::Easy => 1,
            Level::Hard => MAX_DEPTH,
        };
        let mut searcher = Searcher::new(self.config.budget);
        let mut totals: Option<Vec<i64>> = None;
        for depth in 1..=max_depth {
            let mut sums = vec![0_i64; moves.len()];
            let mut complete = true;
            for world in &worlds {
                let Some(values) = searcher.root_values(&self.model, world, &moves, seat, depth)
                else {
                    complete = false;
                    break;
                };
                for (sum, value) in sums.iter_mut().zip(values) {
                    *sum += i64::from(value.clamp(-WORLD_CAP, WORLD_CAP));
                }
            }
            if complete || totals.is_none() {
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
    let (mut free, missing) = Setup::room_around(description, seat, kept)?;
    let mut pieces: Vec<(Cell, KindId)> = kept.to_vec();
    let row = |cell: Cell| depth::<V>(seat, cell.y);
    let mut place = |kind: KindId, weight: &dyn Fn(Cell) -> u32, rng: &mut ChaCha8Rng| {
        let total: u32 = free.iter().map(|&cell| weight(cell)).sum();
        let index = if total == 0 {
            rng.random_range(0..free.len())
        } else {
            let mut pick = rng.random_range(0..total);
            free.iter()
                .position(|&cell| {
                    let w = weight(cell);
                    let hit = pick < w;
                    pick = pick.saturating_sub(w);
                    hit
                })
                .unwrap_or(0)
        };
        let cell = free.swap_remove(index);
        pieces.push((cell, kind));
        cell
    };
    let kinds = spec.data.kinds;
    let of = |pred: &dyn Fn(&trinchera_rules::army::spec::KindSpec) -> bool| -> Vec<KindId> {
        missing
            .iter()
            .copied()
            .filter(|kind| pred(&kinds[kind.index()]))
            .collect()
    };
    let flag_row = if rng.random_ratio(1, 5) { 1 } else { 0 };
    let mut flag = kept
        .iter()
        .find(|(_, kind)| kinds[kind.index()].is_flag)
        .map(|&(cell, _)| cell);
    for kind in of(&|k| k.is_flag) {
        flag = Some(place(kind, &|cell| u32::from(row(cell) == flag_row), rng));
    }
    // Bombs on every free square next to the flag first (as far as they go), then in the
    // back.
    let mut guards: Vec<Cell> = description
        .setup_zone(seat)
        .map(|zone| zone.cells.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|&cell| flag.is_some_and(|flag| distance(flag, cell) == 1))
        .filter(|cell| !kept.iter().any(|(taken, _)| taken == cell))
        .collect();
    guards.shuffle(rng);
    let bombs = of(&|k| !k.is_flag && k.mobility == Mobility::Immovable);
    for (index, kind) in bombs.into_iter().enumerate() {
        let guard = guards.get(index).copied();
        place(
            kind,
            &|cell| match guard {
                Some(guard) => u32::from(cell == guard),
                None => [3, 3, 1, 0][row(cell).clamp(0, 3) as usize],
            },
            rng,
        );
    }
    let top = kinds.iter().filter_map(|k| k.rank).max().unwrap_or(0);
    let mut rest = of(&|k| k.mobility != Mobility::Immovable);
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
        let cell = place(kind, &weight, rng);
        if strong {
            strong_columns.push(cell.x);
        }
    }
    Setup::from_pieces(description, seat, &pieces)
}
