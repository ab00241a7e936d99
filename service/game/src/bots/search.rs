//! Alpha-beta search on the rules engine, for any ruleset: a [`Model`] says how a position
//! is scored and which moves are captures; a [`Searcher`] spends the budget.

use std::time::Instant;

use trinchera_rules::{Effect, Rules, Seat};

use super::Budget;

/// Score of a won game (minus the plies it takes, so that faster wins score higher).
const WIN: i32 = 1_000_000;
/// Plies of captures a leaf may extend by.
const QUIESCENCE: i32 = 4;
/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 1024;

/// How a bot reads positions of one ruleset.
pub(super) trait Model {
    /// The ruleset.
    type Position: Rules;

    /// The value of `position` for `seat`, in the model's units (won games are [`WIN`]).
    fn evaluate(&self, position: &Self::Position, seat: Seat) -> i32;

    /// Whether `mv` changes the material (searched first, and past the depth).
    fn noisy(&self, position: &Self::Position, mv: <Self::Position as Rules>::Move) -> bool;
}

/// One decision's search: counts nodes against the budget.
pub(super) struct Searcher {
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    effects: Vec<Effect>,
}

impl Searcher {
    /// A search that may visit `budget.nodes` positions within `budget.time`.
    pub(super) fn new(budget: Budget) -> Self {
        Searcher {
            nodes: 0,
            limit: budget.nodes,
            deadline: budget.time.map(|time| Instant::now() + time),
            aborted: false,
            effects: Vec::new(),
        }
    }

    /// Whether the budget is spent.
    pub(super) fn spent(&mut self) -> bool {
        if !self.aborted {
            self.aborted = self.nodes >= self.limit
                || (self.nodes.is_multiple_of(CLOCK_EVERY)
                    && self
                        .deadline
                        .is_some_and(|deadline| Instant::now() >= deadline));
        }
        self.aborted
    }

    /// `position` after `mv`.
    pub(super) fn after<R: Rules>(&mut self, position: &R, mv: R::Move) -> R {
        let mut next = position.clone();
        self.effects.clear();
        next.play_unchecked(mv, &mut self.effects);
        next
    }

    /// The value for `root` of each of `moves` from `position`, searched `depth` plies deep
    /// (each move with the full window); `None` if the budget ran out first.
    pub(super) fn root_values<M: Model>(
        &mut self,
        model: &M,
        position: &M::Position,
        moves: &[<M::Position as Rules>::Move],
        root: Seat,
        depth: u32,
    ) -> Option<Vec<i32>> {
        let order: Vec<usize> = (0..moves.len()).collect();
        self.root_values_near_best(model, position, moves, &order, root, depth, i32::MAX)
    }

    /// Like [`Searcher::root_values`], but trying the moves in `order` (indices into
    /// `moves`, the likely best first) and stopping a move once it proves more than
    /// `margin` worse than the best before it: its value is then only an upper bound, at
    /// most `margin` below that best. The moves worth comparing keep their exact values
    /// for far fewer nodes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn root_values_near_best<M: Model>(
        &mut self,
        model: &M,
        position: &M::Position,
        moves: &[<M::Position as Rules>::Move],
        order: &[usize],
        root: Seat,
        depth: u32,
        margin: i32,
    ) -> Option<Vec<i32>> {
        let mut values = vec![0; moves.len()];
        let mut best = -WIN - 1;
        for &index in order {
            let next = self.after(position, moves[index]);
            let alpha = best.saturating_sub(margin).max(-WIN - 1);
            let value = self.value(model, &next, root, depth as i32 - 1, alpha, WIN + 1, 1);
            best = best.max(value);
            values[index] = value;
        }
        (!self.aborted).then_some(values)
    }

    /// The best of `moves` for `root` at `depth` by alpha-beta, trying them in the order
    /// given, with every value it proved (exact for the best, bounds for the others);
    /// `None` if the budget ran out first.
    pub(super) fn best<M: Model>(
        &mut self,
        model: &M,
        position: &M::Position,
        moves: &[<M::Position as Rules>::Move],
        root: Seat,
        depth: u32,
    ) -> Option<Vec<i32>> {
        let mut alpha = -WIN - 1;
        let mut values = Vec::with_capacity(moves.len());
        for &mv in moves {
            let next = self.after(position, mv);
            let value = self.value(model, &next, root, depth as i32 - 1, alpha, WIN + 1, 1);
            alpha = alpha.max(value);
            values.push(value);
        }
        (!self.aborted).then_some(values)
    }

    /// Minimax value for `root` with alpha-beta pruning: `root` maximizes, the other seat
    /// minimizes, whoever is to move (a seat may move several times in a row). At depth 0
    /// and below only noisy moves are searched, for at most [`QUIESCENCE`] plies.
    #[allow(clippy::too_many_arguments)]
    fn value<M: Model>(
        &mut self,
        model: &M,
        position: &M::Position,
        root: Seat,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.spent() {
            return 0;
        }
        if let Some(outcome) = position.outcome() {
            return match outcome.winner {
                Some(winner) if winner == root => WIN - ply as i32,
                Some(_) => -WIN + ply as i32,
                None => 0,
            };
        }
        let maximizing = position.to_move() == root;
        let quiescent = depth <= 0;
        let mut best = if maximizing { i32::MIN } else { i32::MAX };
        if quiescent {
            // Stand pat: the side to move may stop capturing.
            let standing = model.evaluate(position, root);
            if depth <= -QUIESCENCE {
                return standing;
            }
            if maximizing {
                if standing >= beta {
                    return standing;
                }
                alpha = alpha.max(standing);
            } else {
                if standing <= alpha {
                    return standing;
                }
                beta = beta.min(standing);
            }
            best = standing;
        }
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let (noisy, quiet): (Vec<_>, Vec<_>) =
            moves.into_iter().partition(|&mv| model.noisy(position, mv));
        let tried = noisy
            .into_iter()
            .chain(quiet.into_iter().filter(|_| !quiescent));
        for mv in tried {
            let next = self.after(position, mv);
            let value = self.value(model, &next, root, depth - 1, alpha, beta, ply + 1);
            if maximizing {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta || self.aborted {
                break;
            }
        }
        if best == i32::MIN || best == i32::MAX {
            // No move searched (cannot happen in a game in play, which always has one).
            return model.evaluate(position, root);
        }
        best
    }
}
