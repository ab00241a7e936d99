//! `perft` of the army engine against the naive oracle in `common`, and the hard-coded
//! fixtures in `tests/fixtures/perft.txt` (`ruleset;position;depth;count`).

mod common;

use std::collections::BTreeSet;

use common::{CASTILLOS, CLASICO, FRENTE, Naive, Ruleset, move_key, sq};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::army::{Army, Castillos, Clasico, Frente, Variant};
use trinchera_rules::playout::{random_playout, random_start};
use trinchera_rules::{Action, Cell, Effect, PositionText, RemovalCause, Rules, catalog};

/// The engine's legal moves as `from-to` keys.
fn engine_moves<V: Variant>(position: &Army<V>) -> Vec<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| match position.action(mv) {
            Action::Step { from, to } => move_key((from.x, from.y), (to.x, to.y)),
            other => panic!("not a step: {other:?}"),
        })
        .collect()
}

fn sorted(moves: Vec<String>) -> Vec<String> {
    let set: BTreeSet<String> = moves.iter().cloned().collect();
    assert_eq!(set.len(), moves.len(), "a move listed twice: {moves:?}");
    set.into_iter().collect()
}

/// Plays `key` (`from-to`) on both; returns the engine's effects.
fn play_both<V: Variant>(engine: &mut Army<V>, naive: &mut Naive, key: &str) -> Vec<Effect> {
    let (from, to) = key.split_once('-').expect("from-to");
    let action = Action::Step {
        from: cell(from),
        to: cell(to),
    };
    let mv = engine
        .check(&action)
        .unwrap_or_else(|e| panic!("{key} in {engine:?}: {e}"));
    let mut effects = Vec::new();
    engine.play_unchecked(mv, &mut effects);
    naive.play(sq(from), sq(to));
    effects
}

fn cell(label: &str) -> Cell {
    let (x, y) = sq(label);
    Cell::new(x, y)
}

/// Compares the legal moves of every node to `depth` (a "divide" that names the first
/// position where the two disagree) and returns the perft count.
fn divide<V: Variant>(engine: &Army<V>, naive: &Naive, depth: u32, path: &mut Vec<String>) -> u64 {
    let moves = sorted(engine_moves(engine));
    assert_eq!(
        moves,
        sorted(naive.moves()),
        "after {path:?} from the position; engine now {engine:?}"
    );
    if depth <= 1 {
        return if depth == 1 { moves.len() as u64 } else { 1 };
    }
    let mut total = 0;
    for key in &moves {
        let (mut e, mut n) = (engine.clone(), naive.clone());
        play_both(&mut e, &mut n, key);
        path.push(key.clone());
        total += divide(&e, &n, depth - 1, path);
        path.pop();
    }
    total
}

fn compare<V: Variant>(rules: &'static Ruleset, text: &str, depth: u32) -> u64 {
    let engine = Army::<V>::from_position_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let naive = Naive::parse(rules, text);
    let count = divide(&engine, &naive, depth, &mut Vec::new());
    assert_eq!(engine.perft(depth), count, "{text}");
    assert_eq!(naive.perft(depth), count, "{text}");
    count
}

// Hand-made positions. Their depth-1 counts are checked by hand below.

/// Frente, Rojo to move. Soldado a1 runs up the a-file: a2..a9 (8), but the Mayor on a10
/// is at the end of a long move, so no attack; b1 is its own bomb. Soldado c4 has the lake
/// c5 above it: c3 c2 (own flag on c1), b4 a4, d4..j4 (7) = 11. Cabo Armero e5: e6 bomb
/// (attack), e4, f5; d5 is a lake = 3. Bomb and flag: 0. Total 8 + 11 + 3 = 22.
const FRENTE_HAND: &str = "m8f/9l/91/91/2~~b1~~2/2~~A1~~2/2S7/91/91/SBF7 0";
/// Frente, Azul to move: soldado f10 can run down the f-file to f2 (f1 holds Rojo's
/// Teniente General: a long move cannot attack), Espía g1 sits next to the Teniente
/// General, cabo armero a6 next to Rojo's bomb a5, lakes everywhere in the middle.
const FRENTE_HAND_2: &str = "5s4/3b6/91/91/a1~~2~~2/B1~~2~~2/91/91/91/4eLR3 1";

/// Clasico, Rojo to move. Explorador a1: a2..a6 (5) and the long-range attack on the
/// General a7 = 6. Minador b1: b2 c1 = 2. Explorador e4: e5..e8 (4) plus the attack on the
/// bomb e9, e3 e2 e1, d4..a4 (4), f4..j4 (5) = 17. Explorador c3: c4 (then the lake c5),
/// c2 c1, b3 a3, d3..j3 (7) = 12. Bomb i1, flag j1: 0. Total 6 + 2 + 17 + 12 = 37.
const CLASICO_HAND: &str = "3m5f/4b5/91/g9/2~~2~~2/2~~2~~2/4X5/2X7/91/XN6BF 0";
/// Clasico, Azul to move: an explorador that can hit a bomb or the flag at range, a spy
/// next to the Mariscal, two exploradores facing each other across the board.
const CLASICO_HAND_2: &str = "x9/91/91/91/2~~2~~2/2~~2~~2/91/1e8/1M8/X4Bf3 1";

/// Castillos, Rojo to move. General d1: d2 d3 d4, the castle d5, the trench d6, d7 (the
/// Mayor on d8 ends a long move: no attack) = 6, c1 b1 a1 = 3, e1 (own bomb on f1) = 1.
/// Soldado e4: e5 (empty trench), e3, d4, f4 = 4. Sargento h4: h5 is a trench with an
/// enemy in it, so h3, g4 = 2. Granada a5: a6 is an enemy in a trench, so a4, b5 = 2.
/// Mariscal in the castle e6: e7 (attack), e5 (trench), d6 (trench); f6 is a lake = 3.
/// Total 10 + 4 + 2 + 2 + 3 = 21.
const CASTILLOS_HAND: &str = "fb6/8/3y4/4o3/d1~1M~2/K1~2~1s/4S2R/8/8/3G1BF1 0";
/// Castillos, Azul to move: pieces in both castles, a General that may run through the
/// trench d6 and the castle d5, a granada next to a bomb and a desactivador.
const CASTILLOS_HAND_2: &str = "3g3f/8/8/8/2~1k~2/d1~C1~2/2kD4/2B5/8/F7 1";

/// A position after `plies` random moves from random setups drawn from `seed`.
fn random_position<V: Variant>(seed: u64, plies: u64) -> String {
    let mut position: Army<V> = random_start(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    random_playout(
        &mut position,
        &mut rng,
        plies,
        &mut Vec::new(),
        &mut Vec::new(),
    );
    position.position_text()
}

#[test]
fn hand_counts_at_depth_one() {
    assert_eq!(compare::<Frente>(&FRENTE, FRENTE_HAND, 1), 22);
    assert_eq!(compare::<Clasico>(&CLASICO, CLASICO_HAND, 1), 37);
    assert_eq!(compare::<Castillos>(&CASTILLOS, CASTILLOS_HAND, 1), 21);
}

/// The oracle agrees at every node to depth 4 from the hand-made positions and to depth 3
/// from random starts and random middle games.
fn agrees_with_the_oracle<V: Variant>(rules: &'static Ruleset, hand: [&str; 2]) {
    for text in hand {
        compare::<V>(rules, text, 4);
    }
    for seed in 1..=3 {
        compare::<V>(rules, &random_position::<V>(seed, 0), 3);
        compare::<V>(rules, &random_position::<V>(seed, 150), 3);
    }
}

#[test]
fn frente_agrees_with_the_oracle() {
    agrees_with_the_oracle::<Frente>(&FRENTE, [FRENTE_HAND, FRENTE_HAND_2]);
}

#[test]
fn clasico_agrees_with_the_oracle() {
    agrees_with_the_oracle::<Clasico>(&CLASICO, [CLASICO_HAND, CLASICO_HAND_2]);
}

#[test]
fn castillos_agrees_with_the_oracle() {
    agrees_with_the_oracle::<Castillos>(&CASTILLOS, [CASTILLOS_HAND, CASTILLOS_HAND_2]);
}

/// What a batch of lockstep games went through, to show they reached the rules that only
/// history can trigger.
#[derive(Debug, Default)]
struct Coverage {
    /// Plies where undoing the last move was refused by the repetition limit.
    repetition_bans: u32,
    castle_removals: u32,
    ends: Vec<&'static str>,
}

/// Whole random games played in lockstep by the engine and the oracle, comparing the legal
/// moves at every ply: this covers history that position text cannot carry (repetition
/// counts, castle timers, the turn limit). Moves are biased toward undoing the mover's last
/// move so that the repetition limit is actually reached.
fn lockstep<V: Variant>(rules: &'static Ruleset, games: u64) -> Coverage {
    let mut coverage = Coverage::default();
    for seed in 0..games {
        let text = random_position::<V>(seed + 100, 40);
        let mut engine = Army::<V>::from_position_text(&text).expect("engine text");
        let mut naive = Naive::parse(rules, &text);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut last: [Option<(String, String)>; 2] = [None, None];
        for ply in 0.. {
            // 80 pieces, at most 400 quiet turns between two removals.
            assert!(ply < 81 * 400, "{}: seed {seed} never ends", rules.id);
            let moves = sorted(engine_moves(&engine));
            assert_eq!(
                moves,
                sorted(naive.moves()),
                "{}: seed {seed}: {engine:?}",
                rules.id
            );
            assert_eq!(engine.outcome().is_some(), moves.is_empty());
            let Some(random) = moves.choose(&mut rng) else {
                let outcome = engine.outcome().expect("over");
                coverage.ends.push(outcome.reason.code());
                break;
            };
            let seat = engine.to_move().index();
            let undo = last[seat].as_ref().map(|(from, to)| format!("{to}-{from}"));
            let undo = undo.filter(|undo| {
                let (from, to) = undo.split_once('-').expect("from-to");
                let action = Action::Step {
                    from: cell(from),
                    to: cell(to),
                };
                if let Err(error) = engine.check(&action)
                    && error.to_string().contains("more than")
                {
                    coverage.repetition_bans += 1;
                }
                moves.contains(undo) && rng.random_bool(0.8)
            });
            let key = undo.unwrap_or_else(|| random.clone());
            let (from, to) = key.split_once('-').expect("from-to");
            last[seat] = Some((from.to_owned(), to.to_owned()));
            let effects = play_both(&mut engine, &mut naive, &key);
            coverage.castle_removals += effects
                .iter()
                .filter(|effect| {
                    matches!(
                        effect,
                        Effect::Removed {
                            cause: RemovalCause::Castle,
                            ..
                        }
                    )
                })
                .count() as u32;
        }
    }
    coverage
}

#[test]
fn lockstep_games_agree() {
    let frente = lockstep::<Frente>(&FRENTE, 4);
    let clasico = lockstep::<Clasico>(&CLASICO, 4);
    let castillos = lockstep::<Castillos>(&CASTILLOS, 8);
    for coverage in [&frente, &clasico, &castillos] {
        assert!(coverage.repetition_bans > 10, "{coverage:?}");
        assert!(coverage.ends.contains(&"FLAG_CAPTURED"), "{coverage:?}");
        assert!(coverage.ends.contains(&"MOVE_LIMIT"), "{coverage:?}");
    }
    assert!(castillos.castle_removals > 10, "{castillos:?}");
}

/// The fixtures: engine (through the catalog) and oracle both give the recorded counts.
#[test]
fn fixtures() {
    let text = include_str!("fixtures/perft.txt");
    let mut checked = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').collect();
        let [id, position, depth, count] = fields[..] else {
            panic!("bad fixture line {line:?}");
        };
        let depth: u32 = depth.parse().expect("depth");
        let count: u64 = count.parse().expect("count");
        let ruleset = catalog::ruleset(id).expect("a hosted ruleset");
        let perft = ruleset.perft.expect("army rulesets have position text");
        assert_eq!(perft(position, depth), Ok(count), "{line}");
        let rules = match id {
            "frente" => &FRENTE,
            "clasico" => &CLASICO,
            "castillos" => &CASTILLOS,
            other => panic!("no oracle for {other}"),
        };
        if depth <= 3 {
            assert_eq!(Naive::parse(rules, position).perft(depth), count, "{line}");
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} fixtures");
}

/// Prints fixture lines for the positions above (run with `--ignored --nocapture` to
/// extend the file; the `fixtures` test then holds both implementations to them).
#[test]
#[ignore]
fn print_fixtures() {
    fn lines<V: Variant>(hand: &[&str], random: &[String]) {
        let positions = hand.iter().map(|&text| (text.to_owned(), 4));
        for (text, max_depth) in positions.chain(random.iter().map(|text| (text.clone(), 3))) {
            let position = Army::<V>::from_position_text(&text).expect("text");
            for depth in 1..=max_depth {
                println!(
                    "{};{text};{depth};{}",
                    V::spec().data.id,
                    position.perft(depth)
                );
            }
        }
    }
    lines::<Frente>(
        &[FRENTE_HAND, FRENTE_HAND_2],
        &[
            random_position::<Frente>(11, 0),
            random_position::<Frente>(12, 200),
        ],
    );
    lines::<Clasico>(
        &[CLASICO_HAND, CLASICO_HAND_2],
        &[
            random_position::<Clasico>(11, 0),
            random_position::<Clasico>(12, 200),
        ],
    );
    lines::<Castillos>(
        &[CASTILLOS_HAND, CASTILLOS_HAND_2],
        &[
            random_position::<Castillos>(11, 0),
            random_position::<Castillos>(12, 200),
        ],
    );
}
