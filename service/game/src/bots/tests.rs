//! Bots against the rules engine, in process: honesty, legality, setups, strength.
//!
//! The strength figures of the book (docs/benchmarks/bots.md) come from the ignored
//! `measure` test:
//! `cargo test --release -p trinchera-service --lib bots::tests::measure -- --ignored --nocapture`
//! (`BOT_GAMES` games per seat, pairing and ruleset, default 20; `BOT_RULESETS` a
//! comma-separated subset of rulesets; `BOT_PAIRINGS` a comma-separated subset of
//! `hard-random,hard-easy,hard-beginner,easy-random` (the beginner, a person-like player
//! of `beginner.rs`, plays the army games only); `BOT_HARD_NODES` a node budget for the hard level
//! instead of its default budget, with no time bound). Games run on every core; the last
//! column names the seeds of the games the first bot did not win (L lost, D drawn) and
//! why they ended.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::{
    Action, BattleResult, Cell, Effect, EndReason, Game, KindId, Seat, Seed, Setup, Sight, Viewer,
    catalog,
};

use super::{Bot, BotLevel, Budget, SeatKnowledge};

/// A small budget, so that debug builds play quickly; no clock, so runs are reproducible.
const TEST_BUDGET: Budget = Budget {
    nodes: 1_500,
    time: None,
};

fn description(id: &str) -> &'static trinchera_rules::Description {
    (catalog::ruleset(id).expect("hosted").description)()
}

fn seed(n: u64) -> [u8; 32] {
    let mut seed = [0; 32];
    seed[..8].copy_from_slice(&n.to_le_bytes());
    seed
}

/// The bot's view of `game` at event `version`.
fn bot_view(game: &dyn Game, seat: Seat, version: u64) -> SeatKnowledge {
    SeatKnowledge {
        seat,
        version,
        description: game.description(),
        awaits_setup: false,
        projection: game.view(Viewer::Player(seat)),
        legal: if game.to_move() == Some(seat) {
            game.legal_actions()
        } else {
            Vec::new()
        },
    }
}

/// Submits the bot's setup, checking that it is one the server would accept.
fn submit(game: &mut dyn Game, bot: &mut dyn Bot, seat: Seat) {
    let description = game.description();
    let setup = bot.setup().expect("a bot sets up when its seat does");
    let checked = Setup::validate(description, seat, &setup.placements(description))
        .expect("a bot's setup is valid");
    assert_eq!(checked, setup);
    game.submit_setup(setup).expect("setup phase");
}

/// What one game between two bots gave.
struct Played {
    plies: u32,
    /// Think time of each decision, per seat.
    thinking: [Vec<Duration>; 2],
    /// Per seat, the first ply at which it lost a piece of rank 8 or more attacking a bomb.
    bombed: [Option<u32>; 2],
    /// Per seat, whether its flag was taken from a square that none of its immovable pieces
    /// (its bombs) held at the start: through a side no bomb guarded.
    flag_through_open_side: [bool; 2],
    /// Each ply: its seat, notation and effects.
    log: Vec<String>,
    /// Per ply, what it did.
    effects: Vec<Vec<Effect>>,
    /// The game as it ended.
    game: Box<dyn Game>,
}

fn kind_info(game: &dyn Game, kind: KindId) -> &'static trinchera_rules::KindInfo {
    &game.description().kinds[kind.index()]
}

/// Whether `effects` of an attack lost the attacker, a piece of rank 8 or more, to a bomb
/// (castillos' granadas count: they kill their attackers too).
fn lost_high_to_bomb(description: &trinchera_rules::Description, effects: &[Effect]) -> bool {
    effects.iter().any(|effect| match effect {
        Effect::Battle {
            attacker: (_, attacker),
            defender: (_, defender),
            result,
            ..
        } => {
            let (attacker, defender) = (
                &description.kinds[attacker.index()],
                &description.kinds[defender.index()],
            );
            attacker.rank.is_some_and(|rank| rank >= 8)
                && matches!(defender.id, "bomba" | "granada")
                && *result != BattleResult::AttackerWins
        }
        _ => false,
    })
}

/// Plays `bots` (seat 0, seat 1) against each other, every action through the checked
/// `Game::play`, for at most `max_plies` actions.
fn play(id: &str, mut bots: [Box<dyn Bot>; 2], game_seed: u64, max_plies: u32) -> Played {
    let ruleset = catalog::ruleset(id).expect("hosted");
    let mut game = (ruleset.new_game)(Seed(seed(game_seed)));
    for seat in Seat::BOTH {
        if game.awaits_setup(seat) {
            submit(game.as_mut(), bots[seat.index()].as_mut(), seat);
        }
    }
    // Per seat, the squares its bombs and flag stood on at the start.
    let immovable: Vec<(Seat, Cell)> = (game.view_in(Sight::Everything).pieces.iter())
        .filter(|piece| {
            piece
                .kind
                .is_some_and(|kind| !kind_info(game.as_ref(), kind).movable)
        })
        .filter_map(|piece| Some((piece.owner, piece.cell?)))
        .collect();
    let mut plies = 0;
    let mut thinking = [Vec::new(), Vec::new()];
    let mut bombed = [None, None];
    let mut flag_through_open_side = [false, false];
    let mut log = Vec::new();
    let mut effects = Vec::new();
    while let Some(seat) = game.to_move() {
        if plies >= max_plies {
            break;
        }
        let view = bot_view(game.as_ref(), seat, u64::from(plies) + 3);
        let start = Instant::now();
        let action = bots[seat.index()]
            .choose(&view)
            .expect("a bot to move acts");
        thinking[seat.index()].push(start.elapsed());
        assert_eq!(
            super::listed(&view, Some(action.clone())).as_ref(),
            Some(&action),
            "{id}: {action:?} is not listed"
        );
        let played = game.play(seat, &action).expect("a listed action is legal");
        if let (Some(outcome), Action::Step { from, .. }) = (game.outcome(), &action)
            && outcome.reason == EndReason::FlagCaptured
        {
            flag_through_open_side[(!seat).index()] = !immovable.contains(&(!seat, *from));
        }
        if bombed[seat.index()].is_none() && lost_high_to_bomb(game.description(), &played.effects)
        {
            bombed[seat.index()] = Some(plies);
        }
        log.push(format!(
            "{plies:>4} {seat}: {} {:?}",
            played.notation, played.effects
        ));
        effects.push(played.effects);
        plies += 1;
    }
    Played {
        plies,
        thinking,
        bombed,
        flag_through_open_side,
        log,
        effects,
        game,
    }
}

/// Who plays a seat: a bot level, or the beginner (the army games' person-like opponent
/// of the measurements).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Level(BotLevel),
    Beginner,
}

impl Player {
    fn name(self) -> &'static str {
        match self {
            Player::Level(level) => level.name(),
            Player::Beginner => "beginner",
        }
    }

    fn parse(text: &str) -> Option<Player> {
        match text {
            "beginner" => Some(Player::Beginner),
            level => level.parse().ok().map(Player::Level),
        }
    }

    /// The budget in the ignored runs (`measure`, `replay`): `BOT_HARD_NODES` nodes and no
    /// clock for the hard level if set, else the level's default.
    fn measured_budget(self) -> Budget {
        let hard_nodes = std::env::var("BOT_HARD_NODES")
            .ok()
            .and_then(|n| n.parse().ok());
        match (self, hard_nodes) {
            (Player::Level(BotLevel::Hard), Some(nodes)) => Budget { nodes, time: None },
            (Player::Level(level), _) => level.default_budget(),
            (Player::Beginner, _) => TEST_BUDGET,
        }
    }
}

fn bots(id: &str, players: [Player; 2], budgets: [Budget; 2], game_seed: u64) -> [Box<dyn Bot>; 2] {
    let description = description(id);
    Seat::BOTH.map(|seat| {
        let index = seat.index();
        let seed = seed(game_seed * 2 + index as u64 + 1);
        match players[index] {
            Player::Level(level) => level.bot(description, seat, seed, budgets[index]),
            Player::Beginner => super::beginner::beginner(description, seat, seed)
                .expect("the beginner plays the army games"),
        }
    })
}

#[test]
fn levels_round_trip_by_name() {
    for level in BotLevel::ALL {
        assert_eq!(level.name().parse(), Ok(level));
        assert_eq!(level.to_string(), level.name());
        assert!(!level.description().is_empty());
    }
    assert_eq!("grandmaster".parse::<BotLevel>(), Err(()));
}

/// Two games that differ only in the enemy's hidden setup: the same kinds on the same cells,
/// shuffled. The bot's seat sees the same thing in both, move after move, and a bot with
/// the same seed decides the same in both, although the hidden pieces differ.
#[test]
fn decisions_depend_only_on_the_seat_s_view() {
    for id in ["frente", "clasico", "castillos"] {
        let description = description(id);
        let ruleset = catalog::ruleset(id).expect("hosted");
        let bot_seat = Seat::First;
        let own = Setup::random(description.setup_zone(bot_seat).expect("sets up"), 1);
        let enemy = Setup::random(description.setup_zone(!bot_seat).expect("sets up"), 2);
        let mut kinds: Vec<_> = enemy.pieces().iter().map(|&(_, kind)| kind).collect();
        kinds.shuffle(&mut ChaCha8Rng::seed_from_u64(3));
        let cells = enemy.pieces().iter().map(|&(cell, _)| cell);
        let pieces: Vec<_> = cells.zip(kinds).collect();
        let shuffled = Setup::from_pieces(description, !bot_seat, &pieces).expect("valid");
        assert_ne!(enemy, shuffled, "{id}: the hidden setups differ");
        let mut games: Vec<Box<dyn Game>> = [enemy, shuffled]
            .into_iter()
            .map(|enemy| {
                let mut game = (ruleset.new_game)(Seed([9; 32]));
                game.submit_setup(own.clone()).expect("setup");
                game.submit_setup(enemy).expect("setup");
                game
            })
            .collect();
        let mut decisions = 0;
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for ply in 0..40_u64 {
            let Some(seat) = games[0].to_move() else {
                break;
            };
            let views: Vec<SeatKnowledge> = games
                .iter()
                .map(|g| bot_view(g.as_ref(), bot_seat, ply))
                .collect();
            assert_eq!(
                views[0].projection, views[1].projection,
                "{id}: the bot's seat sees the same"
            );
            assert_eq!(
                views[0].legal, views[1].legal,
                "{id}: with the same actions"
            );
            if seat == bot_seat {
                let choices: Vec<Option<Action>> = views
                    .iter()
                    .map(|view| {
                        BotLevel::Hard
                            .bot(description, bot_seat, seed(5), TEST_BUDGET)
                            .choose(view)
                    })
                    .collect();
                assert_eq!(
                    choices[0], choices[1],
                    "{id}: same view, same seed, same choice"
                );
                decisions += 1;
            }
            // Both games take the same quiet step, legal in both (no battle would reveal the
            // difference).
            let other = games[1].legal_actions();
            let quiet: Vec<Action> = games[0]
                .legal_actions()
                .into_iter()
                .filter(|legal| legal.notation.contains('-') && other.contains(legal))
                .map(|legal| legal.action)
                .collect();
            let Some(step) = quiet.get(rng.random_range(0..quiet.len().max(1))).cloned() else {
                break;
            };
            for game in &mut games {
                game.play(seat, &step)
                    .expect("the same quiet step is legal in both");
            }
        }
        assert!(decisions >= 10, "{id}: the bot decided {decisions} times");
    }
}

#[test]
fn setups_are_valid_sensible_and_varied() {
    // Sensible: the flag at the back, with bombs on every side as far as they go.
    for id in ["frente", "clasico", "castillos", "asalto", "tacticas"] {
        let description = description(id);
        for level in [BotLevel::Easy, BotLevel::Hard] {
            let mut seen = Vec::new();
            for n in 0..6 {
                for seat in Seat::BOTH {
                    let mut bot = level.bot(description, seat, seed(n), TEST_BUDGET);
                    let Some(setup) = bot.setup() else {
                        assert!(
                            description.setup_zone(seat).is_none(),
                            "{id}: {seat} sets up"
                        );
                        continue;
                    };
                    Setup::validate(description, seat, &setup.placements(description))
                        .expect("a valid setup");
                    if let Some(flag) = description
                        .kinds
                        .iter()
                        .position(|k| k.id == "bandera" || k.id == "estandarte")
                    {
                        let (cell, _) = setup
                            .pieces()
                            .iter()
                            .find(|(_, kind)| kind.index() == flag)
                            .expect("a flag");
                        let back = match seat {
                            Seat::First => cell.y,
                            Seat::Second => description.board.height as i8 - 1 - cell.y,
                        };
                        assert!(back <= 1, "{id}: the flag stands at the back");
                        let bombs = description.kinds.iter().position(|k| k.id == "bomba");
                        let bomb_count =
                            bombs.map_or(0, |b| usize::from(description.kinds[b].count));
                        let doors = setup.pieces().iter().filter(|(door, _)| {
                            (door.x - cell.x).abs() + (door.y - cell.y).abs() == 1
                        });
                        let (guarded, open): (Vec<&(Cell, KindId)>, Vec<_>) =
                            doors.partition(|(_, kind)| Some(kind.index()) == bombs);
                        assert!(
                            open.is_empty() || guarded.len() == bomb_count,
                            "{id}: bombs guard the flag's every side while they last"
                        );
                    }
                    seen.push(setup);
                }
            }
            let mut distinct = seen.clone();
            distinct.dedup();
            assert!(distinct.len() > seen.len() / 2, "{id}: setups vary");
        }
    }
}

/// The flag's depth from its seat's back row.
fn flag_depth(description: &trinchera_rules::Description, setup: &Setup) -> Option<i8> {
    let (cell, _) = setup
        .pieces()
        .iter()
        .find(|(_, kind)| ["bandera", "estandarte"].contains(&description.kind(*kind).id))?;
    Some(match setup.seat() {
        Seat::First => cell.y,
        Seat::Second => description.board.height as i8 - 1 - cell.y,
    })
}

/// What `SubmitSetup { random: true }` and `SuggestSetup` give people: never the flag on the
/// front row (it stands on one of the two back rows), a valid setup every time, the kept
/// pieces where they were put, and different setups for different seeds.
#[test]
fn suggested_setups_keep_what_is_kept_and_the_flag_at_the_back() {
    let mut rng = ChaCha8Rng::seed_from_u64(30);
    for id in ["frente", "clasico", "castillos", "asalto", "tacticas"] {
        let description = description(id);
        for seat in Seat::BOTH {
            let Some(zone) = description.setup_zone(seat) else {
                continue;
            };
            let mut distinct = std::collections::HashSet::new();
            for n in 0..200 {
                let whole = super::suggest_setup(description, seat, &[], seed(n)).expect("made");
                if let Some(depth) = flag_depth(description, &whole) {
                    assert!(depth <= 1, "{id}: the flag on row {depth} from the back");
                }
                distinct.insert(whole.clone());
                // Keep a random part of another setup: the rest is filled around it.
                let other = Setup::random(zone, n);
                let kept: Vec<(Cell, KindId)> = other
                    .pieces()
                    .iter()
                    .copied()
                    .filter(|_| rng.random_ratio(1, 3))
                    .collect();
                let around = super::suggest_setup(description, seat, &kept, seed(n)).expect("made");
                Setup::validate(description, seat, &around.placements(description))
                    .expect("a valid setup");
                for piece in &kept {
                    assert!(around.pieces().contains(piece), "{id}: {piece:?} kept");
                }
            }
            // The officers pick among a few sensible pairs of points; armies vary widely.
            let varied = if zone.pieces.len() == 1 { 3 } else { 150 };
            assert!(distinct.len() >= varied, "{id}: suggestions vary");
            // Pieces that do not fit the zone are refused, naming the problem.
            let outside = description
                .board
                .cells
                .iter()
                .map(|info| info.cell)
                .find(|cell| !zone.cells.contains(cell))
                .expect("a cell outside the zone");
            let kind = zone.pieces[0].0;
            let refused = super::suggest_setup(description, seat, &[(outside, kind)], seed(1))
                .expect_err("outside the zone");
            assert!(
                refused
                    .describe(description)
                    .contains("outside your setup zone"),
                "{id}"
            );
        }
    }
}

/// Whole games of every level against the random bot, in every ruleset, every action
/// checked by the rules: a bot never plays an unlisted action.
#[test]
fn bots_only_play_listed_actions() {
    for id in catalog::ids() {
        for level in [BotLevel::Easy, BotLevel::Hard] {
            for (n, levels) in [[level, BotLevel::Random], [BotLevel::Random, level]]
                .into_iter()
                .enumerate()
            {
                let played = play(
                    id,
                    bots(id, levels.map(Player::Level), [TEST_BUDGET; 2], n as u64),
                    n as u64,
                    200,
                );
                assert!(played.plies > 0, "{id}: the game was played");
            }
        }
    }
}

/// A position reached by random setups and `plies` random actions from seed `n`.
pub(super) fn random_position(id: &str, n: u64, plies: u32) -> Box<dyn Game> {
    let ruleset = catalog::ruleset(id).expect("hosted");
    let mut game = (ruleset.new_game)(Seed(seed(n)));
    for seat in Seat::BOTH {
        if game.awaits_setup(seat)
            && let Some(zone) = game.description().setup_zone(seat)
        {
            let setup = Setup::random(zone, n.wrapping_add(seat.index() as u64));
            game.submit_setup(setup).expect("setup phase");
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(n);
    for _ in 0..plies {
        let Some(seat) = game.to_move() else { break };
        let legal = game.legal_actions();
        let Some(choice) = legal.get(rng.random_range(0..legal.len().max(1))) else {
            break;
        };
        game.play(seat, &choice.action.clone())
            .expect("a listed action");
    }
    game
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

    /// From any reachable position of any ruleset, every level decides an action the
    /// position lists (and the rules accept): a bot never plays an unlisted action.
    #[test]
    fn every_level_acts_only_with_listed_actions_in_random_positions(
        ruleset in 0..catalog::ids().len(),
        n in proptest::prelude::any::<u64>(),
        plies in 0_u32..160,
        level in 0..BotLevel::ALL.len(),
    ) {
        let id = catalog::ids()[ruleset];
        let mut game = random_position(id, n, plies);
        if let Some(seat) = game.to_move() {
            let mut bot = BotLevel::ALL[level].bot(description(id), seat, seed(n ^ 1), TEST_BUDGET);
            let view = bot_view(game.as_ref(), seat, u64::from(plies) + 3);
            let action = bot.choose(&view).expect("a bot to move acts");
            proptest::prop_assert_eq!(
                super::listed(&view, Some(action.clone())),
                Some(action.clone()),
                "{}: {:?} is not listed", id, action
            );
            proptest::prop_assert!(game.play(seat, &action).is_ok());
        }
    }
}

/// The hard bot beats the random one in full games: on both sides of the asymmetric
/// rulesets, on one seat (alternating) of the others, to keep debug runs short (a check
/// that the search plays to win; strength is measured by `measure`).
#[test]
fn hard_beats_random() {
    for (index, id) in catalog::ids().into_iter().enumerate() {
        let seats: &[Seat] = match id {
            "asalto" | "tacticas" | "tanques" => &Seat::BOTH,
            _ if index % 2 == 0 => &[Seat::First],
            _ => &[Seat::Second],
        };
        for &hard in seats {
            let mut levels = [BotLevel::Random; 2];
            levels[hard.index()] = BotLevel::Hard;
            let played = play(
                id,
                bots(id, levels.map(Player::Level), [TEST_BUDGET; 2], 7),
                7,
                4_000,
            );
            assert_eq!(
                played.game.outcome().and_then(|o| o.winner),
                Some(hard),
                "{id}: hard as {hard} won ({:?} after {} plies)",
                played.game.outcome(),
                played.plies
            );
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted
        .get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1)))
        .copied()
        .unwrap_or_default()
}

/// Win rates and think times of each pairing in each ruleset, seats alternated, at the
/// levels' default budgets. Prints a table; see the module docs for the command.
#[test]
#[ignore = "a measurement: run in release with --ignored --nocapture"]
fn measure() {
    let var = |name: &str| std::env::var(name).ok();
    let games: u64 = var("BOT_GAMES").and_then(|n| n.parse().ok()).unwrap_or(20);
    let only = var("BOT_RULESETS");
    let only_pairings = var("BOT_PAIRINGS");
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let (hard, easy, random) = (
        Player::Level(BotLevel::Hard),
        Player::Level(BotLevel::Easy),
        Player::Level(BotLevel::Random),
    );
    let pairings = [
        (hard, random),
        (hard, easy),
        (hard, Player::Beginner),
        (easy, random),
    ];
    let listed = |filter: &Option<String>, name: &str| {
        filter
            .as_deref()
            .is_none_or(|filter| filter.split(',').any(|f| f == name))
    };
    println!(
        "ruleset    pairing           seat  games  wins draws losses  win%  95% CI        plies  think a (median/p99)  a's first high piece lost to a bomb (games, median ply)  a's flag taken through a side no bomb held (games)  not won (seeds)"
    );
    for id in catalog::ids() {
        if !listed(&only, id) {
            continue;
        }
        for (a, b) in pairings {
            let army = super::beginner::beginner(description(id), Seat::First, [0; 32]).is_some();
            if !listed(&only_pairings, &format!("{}-{}", a.name(), b.name()))
                || (b == Player::Beginner && !army)
            {
                continue;
            }
            for a_seat in Seat::BOTH {
                let mut levels = [b; 2];
                levels[a_seat.index()] = a;
                let budgets = levels.map(Player::measured_budget);
                let one =
                    |seed: u64| play(id, bots(id, levels, budgets, seed), seed, MEASURED_PLIES);
                let mut results: Vec<(u64, Played)> = std::thread::scope(|scope| {
                    let workers: Vec<_> = (0..threads as u64)
                        .map(|first| {
                            scope.spawn(move || {
                                (FIRST_SEED + first..FIRST_SEED + games)
                                    .step_by(threads)
                                    .map(|n| (n, one(n)))
                                    .collect::<Vec<_>>()
                            })
                        })
                        .collect();
                    workers
                        .into_iter()
                        .flat_map(|worker| worker.join().expect("a measured game panicked"))
                        .collect()
                });
                results.sort_by_key(|(n, _)| *n);
                let (mut wins, mut draws, mut losses, mut plies) = (0_u32, 0_u32, 0_u32, 0_u64);
                let mut not_won = Vec::new();
                let mut thinking = Vec::new();
                let mut bombed: Vec<u32> = Vec::new();
                let mut open_flags = 0_u32;
                for (n, played) in &results {
                    bombed.extend(played.bombed[a_seat.index()]);
                    open_flags += u32::from(played.flag_through_open_side[a_seat.index()]);
                    let outcome = played.game.outcome();
                    let reason = outcome.map(|o| o.reason);
                    match outcome.map(|o| o.winner) {
                        Some(Some(winner)) if winner == a_seat => wins += 1,
                        Some(Some(_)) => {
                            losses += 1;
                            not_won.push(format!("L{n}:{reason:?}"));
                        }
                        _ => {
                            draws += 1;
                            not_won.push(format!("D{n}:{reason:?}"));
                        }
                    }
                    plies += u64::from(played.plies);
                    thinking.extend(played.thinking[a_seat.index()].iter().copied());
                }
                thinking.sort();
                bombed.sort_unstable();
                let bomb_median = bombed
                    .get(bombed.len() / 2)
                    .map_or("-".to_owned(), u32::to_string);
                let n = games as f64;
                let p = f64::from(wins) / n;
                let half = 1.96 * (p * (1.0 - p) / n).sqrt();
                println!(
                    "{id:<10} {:<5} v {:<9} {}  {games:>5}  {wins:>4} {draws:>5} {losses:>6}  {:>4.0}  {:>3.0}-{:<3.0}%  {:>7.0}  {:?} / {:?}  {:>3} games, ply {bomb_median}  {open_flags:>4}  {}",
                    a.name(),
                    b.name(),
                    a_seat.index(),
                    100.0 * p,
                    100.0 * (p - half).max(0.0),
                    100.0 * (p + half).min(1.0),
                    plies as f64 / n,
                    percentile(&thinking, 0.5),
                    percentile(&thinking, 0.99),
                    bombed.len(),
                    not_won.join(" "),
                );
            }
        }
    }
}

/// The seed of the first game `measure` plays in each pairing and seat.
const FIRST_SEED: u64 = 100;
/// Plies after which `measure` and `replay` call a game off (a draw in the figures).
const MEASURED_PLIES: u32 = 4_000;

/// Replays one game of `measure` and prints every battle (kinds and piece ids), its last
/// plies and the final board, to see why a game was lost: `BOT_RULESETS` one ruleset,
/// `BOT_SEED` the seed `measure` printed, `BOT_LEVELS` the levels of seat 0 and seat 1
/// (e.g. `hard,random`), `BOT_HARD_NODES` as in `measure`.
#[test]
#[ignore = "a diagnostic: run in release with --ignored --nocapture"]
fn replay() {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"));
    let id = var("BOT_RULESETS");
    let n: u64 = var("BOT_SEED").parse().expect("BOT_SEED is a number");
    let levels: Vec<Player> = var("BOT_LEVELS")
        .split(',')
        .map(|level| Player::parse(level).expect("BOT_LEVELS names levels"))
        .collect();
    let levels: [Player; 2] = levels.try_into().expect("BOT_LEVELS names two levels");
    let played = play(
        &id,
        bots(&id, levels, levels.map(Player::measured_budget), n),
        n,
        MEASURED_PLIES,
    );
    let game = played.game;
    let kinds = &game.description().kinds;
    println!("battles:");
    for (ply, effects) in played.effects.iter().enumerate() {
        for effect in effects {
            if let Effect::Battle {
                attacker,
                defender,
                result,
                ..
            } = effect
            {
                println!(
                    "{ply:>5} {} #{} x {} #{}: {result:?}",
                    kinds[attacker.1.index()].id,
                    attacker.0.0,
                    kinds[defender.1.index()].id,
                    defender.0.0,
                );
            }
        }
    }
    for line in &played.log[played.log.len().saturating_sub(40)..] {
        println!("{line}");
    }
    println!("{:?}", game.outcome());
    for piece in game.view_in(trinchera_rules::Sight::Everything).pieces {
        let kind = piece
            .kind
            .map(|kind| game.description().kinds[kind.index()].id);
        println!(
            "{} {kind:?} at {:?}, moved {}",
            piece.owner, piece.cell, piece.moved
        );
    }
}
