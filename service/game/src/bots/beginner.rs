//! A sensible beginner of the army games, as an opponent for measuring the hard bot against
//! something that plays like a person rather than a random mover (issue: "bots that beat
//! people"). It follows a few plain rules, in order:
//!
//! 1. capture a revealed enemy piece it beats (the most valuable first);
//! 2. never attack a known piece that beats or ties it;
//! 3. probe moved unknown pieces with its lowest ranks;
//! 4. attack unmoved unknown pieces only with low ranks or the kind that defuses bombs;
//! 5. move a piece away from a known enemy that beats it and stands next to it;
//! 6. otherwise advance, now and then sideways, never with bombs or the flag.
//!
//! Its setup is the hard bot's: the flag at the back with bombs around it.

use std::marker::PhantomData;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use trinchera_rules::army::{Castillos, Clasico, Frente, Variant};
use trinchera_rules::{Action, BattleResult, Cell, Description, KindId, PieceView, Seat, Setup};

use super::army::{army_setup, defuses};
use super::{Bot, SeatKnowledge, decision_rng};

/// Ranks from the top counted as high pieces, which never attack what they cannot see.
const HIGH: u8 = 3;

/// The beginner of `seat` in a game of `description`, drawing its chance from `seed`; `None`
/// outside the army games.
pub(super) fn beginner(
    description: &'static Description,
    seat: Seat,
    seed: [u8; 32],
) -> Option<Box<dyn Bot>> {
    Some(match description.id {
        "frente" => Box::new(BeginnerBot::<Frente>::new(seat, seed)),
        "clasico" => Box::new(BeginnerBot::<Clasico>::new(seat, seed)),
        "castillos" => Box::new(BeginnerBot::<Castillos>::new(seat, seed)),
        _ => return None,
    })
}

/// The beginner of one army ruleset.
pub(super) struct BeginnerBot<V: Variant> {
    seat: Seat,
    seed: [u8; 32],
    variant: PhantomData<V>,
}

impl<V: Variant> BeginnerBot<V> {
    fn new(seat: Seat, seed: [u8; 32]) -> Self {
        BeginnerBot {
            seat,
            seed,
            variant: PhantomData,
        }
    }

    fn rank(kind: KindId) -> u8 {
        V::spec().data.kinds[kind.index()].rank.unwrap_or(0)
    }

    /// Whether `kind` wins when it attacks `defender`.
    fn beats(kind: KindId, defender: KindId) -> bool {
        V::spec().battle[kind.index()][defender.index()] == BattleResult::AttackerWins
    }

    /// Rows of `cell` toward the enemy's edge.
    fn forward(&self, cell: Cell) -> i8 {
        match self.seat {
            Seat::First => cell.y,
            Seat::Second => V::spec().data.height - 1 - cell.y,
        }
    }

    /// The score of stepping `mine` from `from` to `to`, where `target` stands (if any);
    /// `None` for a move the beginner never makes. `threatened`: a known enemy that beats
    /// `mine` stands next to it.
    fn score(
        &self,
        mine: KindId,
        from: Cell,
        to: Cell,
        target: Option<&PieceView>,
        threatened: bool,
        rng: &mut ChaCha8Rng,
    ) -> Option<i32> {
        let top = V::spec().data.kinds.iter().filter_map(|k| k.rank).max()?;
        let rank = Self::rank(mine);
        let high = rank + HIGH > top;
        let noise = rng.random_range(0..10);
        let Some(target) = target else {
            let ahead = i32::from(self.forward(to) - self.forward(from));
            let flee = if threatened { 500 } else { 0 };
            return Some(flee + 20 + 10 * ahead.signum() + noise);
        };
        Some(match target.kind {
            Some(theirs) if Self::beats(mine, theirs) => {
                1000 + 10 * i32::from(Self::rank(theirs)) + noise
            }
            Some(_) => return None,
            None if target.moved => {
                if high {
                    return None;
                }
                300 - 20 * i32::from(rank) + noise
            }
            None if defuses(V::spec(), mine) => 250 + noise,
            None if rank <= 3 => 100 - 10 * i32::from(rank) + noise,
            None => return None,
        })
    }
}

impl<V: Variant> Bot for BeginnerBot<V> {
    fn setup(&mut self) -> Option<Setup> {
        army_setup::<V>(self.seat, &[], &mut decision_rng(&self.seed, 0)).ok()
    }

    fn choose(&mut self, view: &SeatKnowledge) -> Option<Action> {
        let mut rng = decision_rng(&self.seed, view.version);
        let at = |cell: Cell| {
            view.projection
                .pieces
                .iter()
                .find(|piece| piece.cell == Some(cell))
        };
        let enemies: Vec<&PieceView> = view
            .projection
            .pieces
            .iter()
            .filter(|piece| piece.owner != self.seat)
            .collect();
        let threatened = |mine: KindId, cell: Cell| {
            enemies.iter().any(|enemy| {
                enemy
                    .cell
                    .is_some_and(|e| (e.x - cell.x).abs() + (e.y - cell.y).abs() == 1)
                    && enemy.kind.is_some_and(|theirs| Self::beats(theirs, mine))
            })
        };
        let mut best: Option<(i32, Action)> = None;
        for legal in &view.legal {
            let Action::Step { from, to } = legal.action else {
                continue;
            };
            let Some(mine) = at(from).and_then(|piece| piece.kind) else {
                continue;
            };
            let target = at(to).filter(|piece| piece.owner != self.seat);
            let Some(score) = self.score(mine, from, to, target, threatened(mine, from), &mut rng)
            else {
                continue;
            };
            if best.as_ref().is_none_or(|(top, _)| score > *top) {
                best = Some((score, legal.action.clone()));
            }
        }
        // With nothing it likes, it plays anything listed rather than pass.
        best.map(|(_, action)| action)
            .or_else(|| view.legal.first().map(|legal| legal.action.clone()))
    }
}
