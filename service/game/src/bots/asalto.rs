//! Bots of `asalto` and `tacticas`, for both sides. Nothing is hidden, so the position is
//! rebuilt exactly and searched.
//!
//! - **Evaluation** (for the rebels; the officers' is its negation): rebels left, rebels in
//!   the fortress and how far up the board they stand, rebels covered from behind (the
//!   formation that leaves no jump), minus rebels an officer could jump, the officers'
//!   freedom to move and officers holding fortress points, plus officers nearly trapped.
//! - **Hard**: iterative-deepening alpha-beta under the node budget, captures and huffs first
//!   and searched past the depth, so that it huffs when that pays and sees a huff coming.
//! - **Easy**: two plies (its move and the reply) with noise.
//! - **Setup** (officers): both officers on the fortress's front points, varied.

use std::marker::PhantomData;

use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::asalto::{AsaltoMove, Siege, Variant};
use trinchera_rules::{Action, Cell, Description, KindId, Rules, Seat, Setup, SetupError, Terrain};

use super::search::{Model, Searcher};
use super::{Bot, Config, Level, SeatKnowledge, legal_actions, listed, world};

/// Deepest iteration of the hard search.
const MAX_DEPTH: u32 = 24;
/// The easy level's noise, at most, in points.
const EASY_NOISE: i32 = 40;
/// Points per rebel on the board.
const REBEL: i32 = 100;
/// Points per rebel in the fortress.
const IN_FORTRESS: i32 = 40;
/// Points per row a rebel stands up the board.
const ADVANCE: i32 = 3;
/// Points per rebel covered from behind.
const COVERED: i32 = 4;
/// Points off per rebel an officer could jump.
const EXPOSED: i32 = 30;
/// Points off per step an officer could make.
const OFFICER_STEP: i32 = 5;
/// Points off per officer standing in the fortress (the rebels cannot fill it around one).
const OFFICER_HOLDS: i32 = 60;
/// Points per officer with at most one step left (nearly trapped).
const CORNERED: i32 = 80;

/// The officers' placements a bot picks from: fortress points near its front.
const PLACEMENTS: [[(i8, i8); 2]; 6] = [
    [(2, 4), (4, 4)],
    [(2, 4), (3, 4)],
    [(3, 4), (4, 4)],
    [(2, 5), (4, 5)],
    [(3, 4), (3, 5)],
    [(2, 4), (4, 5)],
];

/// The officers' setup of `seat`: one of [`PLACEMENTS`] that holds the officers of `kept`
/// (any free fortress point when none does); refused when `kept` does not fit the zone.
pub(super) fn officers_setup(
    description: &Description,
    seat: Seat,
    kept: &[(Cell, KindId)],
    rng: &mut ChaCha8Rng,
) -> Result<Setup, SetupError> {
    let (free, missing) = Setup::room_around(description, seat, kept)?;
    let fits = |pair: &&[(i8, i8); 2]| {
        kept.iter()
            .all(|&(cell, _)| pair.contains(&(cell.x, cell.y)))
    };
    let preferred: Vec<Cell> = PLACEMENTS
        .iter()
        .filter(fits)
        .collect::<Vec<_>>()
        .choose(rng)
        .map(|pair| {
            pair.iter()
                .map(|&(x, y)| Cell::new(x, y))
                .filter(|cell| free.contains(cell))
                .collect()
        })
        .unwrap_or_default();
    let mut cells = preferred;
    let mut others: Vec<Cell> = free.into_iter().filter(|c| !cells.contains(c)).collect();
    others.shuffle(rng);
    cells.extend(others);
    let mut pieces = kept.to_vec();
    pieces.extend(cells.into_iter().zip(missing));
    Setup::from_pieces(description, seat, &pieces)
}

/// The bit of a cell of the 7×7 span.
const fn bit(cell: Cell) -> u64 {
    1 << (cell.x as u32 + 7 * cell.y as u32)
}

/// Scores Asalto positions.
pub(super) struct SiegeModel<V: Variant> {
    /// Per point (bit index): the points linked to it, for officers.
    neighbours: Vec<u64>,
    /// Per point and neighbour: the point straight beyond the neighbour, if linked on.
    jumps: Vec<Vec<(u64, u64)>>,
    fortress: u64,
    variant: PhantomData<V>,
}

impl<V: Variant> SiegeModel<V> {
    fn new() -> Self {
        let description = <Siege<V> as Rules>::description();
        let links: Vec<(Cell, Cell)> = description
            .board
            .links
            .iter()
            .flat_map(|link| [(link.a, link.b), (link.b, link.a)])
            .collect();
        let index = |cell: Cell| cell.x as usize + 7 * cell.y as usize;
        let mut neighbours = vec![0; 49];
        let mut jumps = vec![Vec::new(); 49];
        for &(a, b) in &links {
            neighbours[index(a)] |= bit(b);
            let beyond = Cell::new(2 * b.x - a.x, 2 * b.y - a.y);
            if links.contains(&(b, beyond)) {
                jumps[index(a)].push((bit(b), bit(beyond)));
            }
        }
        let fortress = description
            .board
            .cells
            .iter()
            .filter(|info| info.terrain == Terrain::Fortress)
            .fold(0, |set, info| set | bit(info.cell));
        SiegeModel {
            neighbours,
            jumps,
            fortress,
            variant: PhantomData,
        }
    }
}

impl<V: Variant> Model for SiegeModel<V> {
    type Position = Siege<V>;

    fn evaluate(&self, siege: &Siege<V>, seat: Seat) -> i32 {
        // Scored for the rebels: the officers' side is the negation.
        let rebels = siege.rebel_cells().fold(0, |set, cell| set | bit(cell));
        let officers = siege.officer_cells().fold(0, |set, cell| set | bit(cell));
        let free = !(rebels | officers);
        let mut score = REBEL * rebels.count_ones() as i32
            + IN_FORTRESS * (rebels & self.fortress).count_ones() as i32;
        for cell in siege.rebel_cells() {
            score += ADVANCE * i32::from(cell.y);
            let behind = cell.y == 0 || rebels & bit(Cell::new(cell.x, cell.y - 1)) != 0;
            if behind {
                score += COVERED;
            }
        }
        let mut exposed = 0_u64;
        for cell in siege.officer_cells() {
            let at = cell.x as usize + 7 * cell.y as usize;
            let steps = (self.neighbours[at] & free).count_ones() as i32;
            score -= OFFICER_STEP * steps;
            if steps <= 1 {
                score += CORNERED;
            }
            if self.fortress & bit(cell) != 0 {
                score -= OFFICER_HOLDS;
            }
            for &(over, land) in &self.jumps[at] {
                if rebels & over != 0 && free & land != 0 {
                    exposed |= over;
                }
            }
        }
        score -= EXPOSED * exposed.count_ones() as i32;
        match seat {
            Seat::First => score,
            Seat::Second => -score,
        }
    }

    fn noisy(&self, _siege: &Siege<V>, mv: AsaltoMove) -> bool {
        mv.captures() > 0 || mv.is_huff()
    }
}

/// A bot of one side of Asalto or German Tactics.
pub(super) struct SiegeBot<V: Variant> {
    config: Config,
    model: SiegeModel<V>,
}

impl<V: Variant> SiegeBot<V> {
    pub(super) fn new(config: Config) -> Self {
        SiegeBot {
            config,
            model: SiegeModel::new(),
        }
    }

    /// The hard level's choice: the best move of the deepest search the budget completes.
    fn search(&self, position: &Siege<V>, mut moves: Vec<AsaltoMove>) -> Option<AsaltoMove> {
        let mut searcher = Searcher::new(self.config.budget);
        let mut best = None;
        for depth in 1..=MAX_DEPTH {
            let Some(values) =
                searcher.best(&self.model, position, &moves, self.config.seat, depth)
            else {
                break;
            };
            let mut scored: Vec<(i32, AsaltoMove)> = values.into_iter().zip(moves).collect();
            // Stable: among equal values the earlier (captures, then the shuffled order) wins.
            scored.sort_by_key(|&(value, _)| std::cmp::Reverse(value));
            best = scored.first().map(|&(_, mv)| mv);
            moves = scored.into_iter().map(|(_, mv)| mv).collect();
            if searcher.spent() {
                break;
            }
        }
        best.or_else(|| moves.first().copied())
    }

    /// The easy level's choice: two plies, with noise.
    fn glance(
        &self,
        position: &Siege<V>,
        moves: &[AsaltoMove],
        rng: &mut ChaCha8Rng,
    ) -> Option<AsaltoMove> {
        let mut searcher = Searcher::new(self.config.budget);
        let values = searcher.root_values(&self.model, position, moves, self.config.seat, 2)?;
        moves
            .iter()
            .zip(values)
            .max_by_key(|&(_, value)| value.saturating_add(rng.random_range(0..=EASY_NOISE)))
            .map(|(&mv, _)| mv)
    }
}

impl<V: Variant> Bot for SiegeBot<V> {
    fn setup(&mut self) -> Option<Setup> {
        let description = <Siege<V> as Rules>::description();
        description.setup_zone(self.config.seat)?;
        let mut rng = self.config.rng(0);
        let setup = match self.config.level {
            Level::Hard => officers_setup(description, self.config.seat, &[], &mut rng),
            Level::Easy => Setup::complete(description, self.config.seat, &[], rng.random()),
        };
        Some(setup.expect("an empty fortress takes both officers"))
    }

    fn choose(&mut self, view: &SeatKnowledge) -> Option<Action> {
        let legal = legal_actions(view);
        if legal.len() <= 1 {
            return legal.into_iter().next();
        }
        let mut rng = self.config.rng(view.version);
        let Ok(position) = world::<Siege<V>>(view, self.config.seed) else {
            return listed(view, None);
        };
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        moves.shuffle(&mut rng);
        moves.sort_by_key(|mv| std::cmp::Reverse((mv.is_huff(), mv.captures())));
        let choice = match self.config.level {
            Level::Hard => self.search(&position, moves),
            Level::Easy => self.glance(&position, &moves, &mut rng),
        };
        listed(view, choice.map(|mv| position.action(mv)))
    }
}
