//! Hostile input, proptest-driven: arbitrary text and near-valid mutations of real text into
//! every ruleset's notation parser, position-text reader and setup reader, and arbitrary
//! or mutated actions into `Game::play` at many points of real games. Nothing may panic
//! (debug builds also panic on arithmetic overflow); refusals are clean errors that change
//! nothing; what is accepted is what the rules list.
//!
//! Each target runs `TRINCHERA_FUZZ_CASES` cases (default 512; 8192 with
//! `TRINCHERA_HEAVY=1`).

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::{Index, select};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::army::{Army, Castillos, Clasico, Frente};
use trinchera_rules::asalto::{Asalto, Siege, Tacticas};
use trinchera_rules::{
    Action, Cell, Facing, Game, LegalAction, Match, Phase, PositionText, Seat, Seed, Setup, Sight,
    TankAction, Viewer, catalog,
};

/// Cases per target.
fn cases() -> u32 {
    let heavy = std::env::var_os("TRINCHERA_HEAVY").is_some_and(|v| v != "0" && !v.is_empty());
    std::env::var("TRINCHERA_FUZZ_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(if heavy { 8192 } else { 512 })
}

/// Characters that notation, position text and setup text are made of, plus a few that
/// trip naive parsers.
const NEAR: &str =
    "abcdefghijklmnopqrstuvwxyz0123456789 -x~/=()RoOrEFLSNWXBTCGKDMY\t\u{e9}\u{0}\u{1F600}";

// ------------------------------------------------------------------------------------------
// Corpora: real text and real games to mutate, built once.

/// Points of real games of one ruleset, from setup to the end.
struct Sample {
    /// The ruleset's id.
    id: &'static str,
    /// Games at many points: before setups, after one, in play, over.
    games: Vec<Box<dyn Game>>,
    /// Notations listed at those points.
    notations: Vec<String>,
    /// Canonical texts of random setups of each seat that sets up.
    setups: Vec<(Seat, String)>,
}

/// Plays random games of `ruleset` from `seed` on, keeping a copy every few actions, until
/// there are 40 copies.
fn sample(ruleset: &catalog::Ruleset, seed: u64) -> Sample {
    let description = (ruleset.description)();
    let mut games = Vec::new();
    let mut setups = Vec::new();
    let mut notations = Vec::new();
    for seed in seed.. {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = (ruleset.new_game)(Seed([seed as u8; 32]));
        games.push(game.clone());
        for seat in Seat::BOTH {
            if let Some(zone) = description.setup_zone(seat) {
                let setup = Setup::random(zone, rng.random());
                setups.push((seat, setup.canonical_text(description)));
                game.submit_setup(setup).expect("setup phase");
                games.push(game.clone());
            }
        }
        for ply in 0..600 {
            let legal = game.legal_actions();
            let Some(choice) = legal.choose(&mut rng) else {
                break;
            };
            if ply % 15 == 0 {
                notations.extend(legal.iter().map(|l| l.notation.clone()));
                games.push(game.clone());
            }
            let seat = game.to_move().expect("in play");
            game.play(seat, &choice.action).expect("listed");
        }
        if game.outcome().is_none() {
            let seat = game.to_move().expect("in play");
            game.resign(seat).expect("resigns");
        }
        games.push(game);
        if games.len() >= 40 {
            break;
        }
    }
    Sample {
        id: description.id,
        games,
        notations,
        setups,
    }
}

/// One sample per ruleset, in catalog order.
fn samples() -> &'static [Sample] {
    static SAMPLES: OnceLock<Vec<Sample>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        catalog::RULESETS
            .iter()
            .enumerate()
            .map(|(index, ruleset)| sample(ruleset, 7 + index as u64))
            .collect()
    })
}

/// Reads and writes the position text of one ruleset, whatever its type.
struct TextRuleset {
    id: &'static str,
    /// Position texts of a random game.
    texts: fn() -> Vec<String>,
    /// Reads `text`; if it is a position, exercises it (see [`exercise`]).
    check: fn(&str, u64) -> Result<(), TestCaseError>,
}

const fn text_ruleset<R: PositionText>(id: &'static str) -> TextRuleset {
    TextRuleset {
        id,
        texts: texts::<R>,
        check: exercise::<R>,
    }
}

/// Every ruleset with position text.
const TEXT_RULESETS: [TextRuleset; 5] = [
    text_ruleset::<Army<Frente>>("frente"),
    text_ruleset::<Army<Clasico>>("clasico"),
    text_ruleset::<Army<Castillos>>("castillos"),
    text_ruleset::<Siege<Asalto>>("asalto"),
    text_ruleset::<Siege<Tacticas>>("tacticas"),
];

/// Position texts met in random games of `R`.
fn texts<R: PositionText>() -> Vec<String> {
    let mut texts = Vec::new();
    for seed in 0.. {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Match::<R>::new(Seed([1; 32]));
        for seat in Seat::BOTH {
            if let Some(zone) = R::description().setup_zone(seat) {
                game.submit_setup(Setup::random(zone, rng.random()))
                    .expect("setup phase");
            }
        }
        loop {
            texts.push(game.position().expect("in play").position_text());
            if texts.len() == 200 {
                return texts;
            }
            let legal = game.legal_actions();
            let Some(choice) = legal.choose(&mut rng) else {
                break;
            };
            let seat = game.to_move().expect("in play");
            game.play(seat, &choice.action).expect("listed");
        }
    }
    texts
}

/// Position texts of every text ruleset, built once.
fn text_corpus() -> &'static [Vec<String>] {
    static TEXTS: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    TEXTS.get_or_init(|| TEXT_RULESETS.iter().map(|r| (r.texts)()).collect())
}

/// Reads `text` as a position of `R`. If it is one, its text must read back as the same
/// position, and every sight, listed move and a random game from it must work.
fn exercise<R: PositionText>(text: &str, seed: u64) -> Result<(), TestCaseError> {
    let Ok(position) = R::from_position_text(text) else {
        return Ok(());
    };
    let written = position.position_text();
    let reread = R::from_position_text(&written);
    prop_assert!(reread.is_ok(), "{written:?} does not read back: {reread:?}");
    prop_assert_eq!(reread.map(|p| p.position_text()).ok(), Some(written));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = position;
    let mut moves = Vec::new();
    for _ in 0..40 {
        for sight in [
            Sight::Everything,
            Sight::Of(Viewer::Spectator),
            Sight::Of(Viewer::Player(Seat::First)),
            Sight::Of(Viewer::Player(Seat::Second)),
        ] {
            position.view(sight);
        }
        moves.clear();
        position.legal_moves(&mut moves);
        if position.outcome().is_some() {
            prop_assert!(moves.is_empty(), "moves listed after the end");
            break;
        }
        let Some(&mv) = moves.choose(&mut rng) else {
            break;
        };
        let action = position.action(mv);
        prop_assert_eq!(position.check(&action), Ok(mv));
        let notation = position.notation(mv);
        prop_assert_eq!(R::parse_notation(&notation), Ok(action));
        position.play_unchecked(mv, &mut Vec::new());
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------
// Mutations.

/// One edit of a text; positions wrap around its length.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    Truncate(usize),
    /// Repeats the `len` characters at a position (long numbers, doubled words).
    Repeat(usize, usize),
    Swap(usize, usize),
}

fn near_char() -> impl Strategy<Value = char> {
    prop_oneof![
        8 => select(NEAR.chars().collect::<Vec<_>>()),
        1 => any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), near_char()).prop_map(|(at, c)| Edit::Insert(at, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), near_char()).prop_map(|(at, c)| Edit::Replace(at, c)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), 1..12usize).prop_map(|(at, len)| Edit::Repeat(at, len)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
    ]
}

fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let len = chars.len();
        let at = |i: usize| if len == 0 { 0 } else { i % len };
        match *edit {
            Edit::Insert(i, c) => chars.insert(i % (len + 1), c),
            Edit::Delete(i) if len > 0 => {
                chars.remove(at(i));
            }
            Edit::Replace(i, c) if len > 0 => chars[at(i)] = c,
            Edit::Truncate(i) => chars.truncate(i % (len + 1)),
            Edit::Repeat(i, n) if len > 0 => {
                let start = at(i);
                let piece: Vec<char> = chars[start..(start + n).min(len)].to_vec();
                chars.splice(start..start, piece);
            }
            Edit::Swap(a, b) if len > 0 => chars.swap(at(a), at(b)),
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Arbitrary text: any characters, or the characters of the formats.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        proptest::collection::vec(near_char(), 0..80).prop_map(|c| c.into_iter().collect()),
    ]
}

// ------------------------------------------------------------------------------------------
// Actions.

/// A coordinate: mostly near the boards, sometimes anywhere an `i8` reaches, often at its
/// edges (where `abs`, negation and sums overflow).
fn coordinate() -> impl Strategy<Value = i8> {
    prop_oneof![
        6 => -7i8..12,
        1 => any::<i8>(),
        2 => select(vec![i8::MIN, i8::MIN + 1, -64, 64, i8::MAX - 1, i8::MAX]),
    ]
}

fn cell() -> impl Strategy<Value = Cell> {
    (coordinate(), coordinate()).prop_map(|(x, y)| Cell::new(x, y))
}

fn cells(most: usize) -> impl Strategy<Value = Vec<Cell>> {
    proptest::collection::vec(cell(), 0..most)
}

fn tank_action() -> impl Strategy<Value = TankAction> {
    select(vec![
        TankAction::Forward,
        TankAction::TurnLeft,
        TankAction::TurnRight,
    ])
}

/// Any action of any shape, with lists longer than any rule allows.
fn any_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (cell(), cell()).prop_map(|(from, to)| Action::Step { from, to }),
        (cell(), cells(40)).prop_map(|(from, landings)| Action::Jump { from, landings }),
        cell().prop_map(|officer| Action::Huff { officer }),
        (cell(), 0u8..6).prop_map(|(cell, f)| Action::Enter {
            cell,
            facing: Facing::from_index(f),
        }),
        (cell(), proptest::collection::vec(tank_action(), 0..40))
            .prop_map(|(cell, actions)| Action::Maneuver { cell, actions }),
        (
            cell(),
            cells(10),
            proptest::option::of(cell()),
            proptest::option::of(cell())
        )
            .prop_map(|(target, attackers, advance, casualty)| Action::Attack {
                target,
                attackers,
                advance,
                casualty,
            }),
        Just(Action::EndPhase),
    ]
}

/// A small change to a listed action: a cell nudged, a list element dropped, doubled or
/// added, a list reversed.
#[derive(Clone, Debug)]
enum Nudge {
    Cell(usize, i8, i8),
    Drop(usize),
    Double(usize),
    Add(Cell),
    Reverse,
}

fn nudge() -> impl Strategy<Value = Nudge> {
    prop_oneof![
        (any::<usize>(), -2i8..=2, -2i8..=2).prop_map(|(i, dx, dy)| Nudge::Cell(i, dx, dy)),
        any::<usize>().prop_map(Nudge::Drop),
        any::<usize>().prop_map(Nudge::Double),
        cell().prop_map(Nudge::Add),
        Just(Nudge::Reverse),
    ]
}

/// `action` with `nudges` applied, in order.
fn nudged(action: &Action, nudges: &[Nudge]) -> Action {
    let mut action = action.clone();
    for nudge in nudges {
        let list: Option<&mut Vec<Cell>> = match &mut action {
            Action::Jump { landings, .. } => Some(landings),
            Action::Attack { attackers, .. } => Some(attackers),
            _ => None,
        };
        match (nudge, list) {
            (Nudge::Drop(i), Some(list)) if !list.is_empty() => {
                list.remove(i % list.len());
            }
            (Nudge::Double(i), Some(list)) if !list.is_empty() => {
                let cell = list[i % list.len()];
                list.push(cell);
            }
            (Nudge::Add(cell), Some(list)) => list.push(*cell),
            (Nudge::Reverse, Some(list)) => list.reverse(),
            (&Nudge::Cell(i, dx, dy), _) => {
                let mut cells: Vec<&mut Cell> = match &mut action {
                    Action::Step { from, to } => vec![from, to],
                    Action::Jump { from, landings } => {
                        std::iter::once(from).chain(landings.iter_mut()).collect()
                    }
                    Action::Huff { officer } => vec![officer],
                    Action::Enter { cell, .. } | Action::Maneuver { cell, .. } => vec![cell],
                    Action::Attack {
                        target,
                        attackers,
                        advance,
                        casualty,
                    } => std::iter::once(target)
                        .chain(attackers.iter_mut())
                        .chain(advance.iter_mut())
                        .chain(casualty.iter_mut())
                        .collect(),
                    Action::EndPhase => Vec::new(),
                };
                if !cells.is_empty() {
                    let len = cells.len();
                    let cell = &mut cells[i % len];
                    cell.x = cell.x.saturating_add(dx);
                    cell.y = cell.y.saturating_add(dy);
                }
            }
            _ => {}
        }
    }
    action
}

/// Whether the rules document `action` as legal given the listed actions: listed, or (in
/// tanques) a listed attack with its attackers in another order and any advance and
/// casualty among them.
fn documented(action: &Action, legal: &[LegalAction]) -> bool {
    legal.iter().any(|listed| match (action, &listed.action) {
        (
            Action::Attack {
                target,
                attackers,
                advance,
                casualty,
            },
            Action::Attack {
                target: listed_target,
                attackers: listed_attackers,
                ..
            },
        ) => {
            let mut mine = attackers.clone();
            let mut theirs = listed_attackers.clone();
            mine.sort();
            theirs.sort();
            target == listed_target
                && mine == theirs
                && [advance, casualty]
                    .into_iter()
                    .flatten()
                    .all(|cell| attackers.contains(cell))
        }
        (action, listed) => action == listed,
    })
}

/// Everything anybody can observe of a game.
type Observed = (
    Phase,
    Option<Seat>,
    Option<trinchera_rules::Outcome>,
    Vec<LegalAction>,
    [trinchera_rules::View; 3],
);

fn observe(game: &dyn Game) -> Observed {
    (
        game.phase(),
        game.to_move(),
        game.outcome(),
        game.legal_actions(),
        [
            Viewer::Spectator,
            Viewer::Player(Seat::First),
            Viewer::Player(Seat::Second),
        ]
        .map(|viewer| game.view(viewer)),
    )
}

/// Plays `action` for both seats on copies of `game`: a refusal changes nothing, and an
/// accepted action is a documented legal one of the seat to move.
fn try_action(game: &dyn Game, action: &Action) -> Result<(), TestCaseError> {
    let before = observe(game);
    let legal = game.legal_actions();
    for seat in Seat::BOTH {
        let mut trial = game.clone_box();
        match trial.play(seat, action) {
            Ok(played) => {
                prop_assert_eq!(game.to_move(), Some(seat), "accepted out of turn");
                prop_assert!(
                    documented(action, &legal),
                    "{}: accepted but not listed: {:?} ({})",
                    game.description().id,
                    action,
                    played.notation
                );
                prop_assert!(!played.notation.is_empty());
            }
            Err(error) => {
                prop_assert!(!error.to_string().is_empty());
                prop_assert_eq!(
                    &observe(trial.as_ref()),
                    &before,
                    "a refusal changed the game"
                );
            }
        }
    }
    Ok(())
}

/// Reads `text` as a move of `sample`'s ruleset; if it is one, plays it at a point of a
/// real game chosen by `at`.
fn try_notation(sample: &Sample, text: &str, at: Index) -> Result<(), TestCaseError> {
    let game = at.get(&sample.games);
    match game.parse_notation(text) {
        Ok(action) => try_action(game.as_ref(), &action),
        Err(error) => {
            prop_assert!(error.to_string().contains("moves look like"));
            Ok(())
        }
    }
}

/// Reads `text` as a setup of every seat of `sample`'s ruleset: a setup that validates
/// has a canonical text that reads back to itself, and a new game accepts it.
fn try_setup_text(sample: &Sample, text: &str) -> Result<(), TestCaseError> {
    let game = &sample.games[0];
    let description = game.description();
    let Ok(placements) = Setup::parse_canonical(description, text) else {
        return Ok(());
    };
    try_placements(game.as_ref(), &placements)
}

/// Validates `placements` for both seats; a valid setup round-trips and is accepted.
fn try_placements(
    game: &dyn Game,
    placements: &[trinchera_rules::Placement],
) -> Result<(), TestCaseError> {
    let description = game.description();
    for seat in Seat::BOTH {
        match Setup::validate(description, seat, placements) {
            Ok(setup) => {
                let canonical = setup.canonical_text(description);
                let reread = Setup::parse_canonical(description, &canonical)
                    .and_then(|p| Setup::validate(description, seat, &p));
                prop_assert_eq!(reread.as_ref(), Ok(&setup));
                let mut fresh = game.clone_box();
                prop_assert_eq!(fresh.phase(), Phase::Setup);
                prop_assert!(fresh.submit_setup(setup).is_ok());
            }
            Err(error) => {
                prop_assert!(!error.problems.is_empty());
                prop_assert!(error.describe(description).starts_with("invalid setup: "));
            }
        }
    }
    Ok(())
}

fn placement() -> impl Strategy<Value = trinchera_rules::Placement> {
    let kinds: Vec<String> = samples()
        .iter()
        .flat_map(|s| {
            s.games[0]
                .description()
                .kinds
                .iter()
                .map(|k| k.id.to_owned())
        })
        .collect();
    let kind = prop_oneof![8 => select(kinds), 1 => any::<String>()];
    (cell(), kind).prop_map(|(cell, kind)| trinchera_rules::Placement { cell, kind })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn any_text_as_notation_is_read_cleanly(
        ruleset in 0..catalog::RULESETS.len(),
        text in any_text(),
        at in any::<Index>(),
    ) {
        try_notation(&samples()[ruleset], &text, at)?;
    }

    #[test]
    fn mutated_notation_is_read_cleanly(
        ruleset in 0..catalog::RULESETS.len(),
        original in any::<Index>(),
        edits in proptest::collection::vec(edit(), 1..5),
        at in any::<Index>(),
    ) {
        let sample = &samples()[ruleset];
        let text = mutate(original.get::<String>(&sample.notations), &edits);
        try_notation(sample, &text, at)?;
    }

    #[test]
    fn any_text_as_position_is_read_cleanly(
        ruleset in 0..TEXT_RULESETS.len(),
        text in prop_oneof![
            any_text(),
            // The shape of a position: rows of codes, digits and lakes, then a seat.
            (
                proptest::collection::vec("[0-9~RoEFSALTCMOGBKDYXNrofsaltcmogbkdyxn]{0,12}", 0..12),
                "[ ]{0,2}[0-2]?",
            )
                .prop_map(|(rows, seat)| format!("{} {seat}", rows.join("/"))),
        ],
        seed in any::<u64>(),
    ) {
        (TEXT_RULESETS[ruleset].check)(&text, seed)?;
    }

    #[test]
    fn mutated_position_is_read_cleanly(
        ruleset in 0..TEXT_RULESETS.len(),
        original in any::<Index>(),
        edits in proptest::collection::vec(edit(), 1..5),
        seed in any::<u64>(),
    ) {
        let text = mutate(original.get::<String>(&text_corpus()[ruleset]), &edits);
        let text_ruleset = &TEXT_RULESETS[ruleset];
        prop_assert!(catalog::ruleset(text_ruleset.id).is_some());
        (text_ruleset.check)(&text, seed)?;
    }

    #[test]
    fn recoded_position_is_read_cleanly(
        ruleset in 0..TEXT_RULESETS.len(),
        original in any::<Index>(),
        recodes in proptest::collection::vec((any::<Index>(), any::<Index>()), 1..10),
        seed in any::<u64>(),
    ) {
        // Pieces swapped for other pieces of the ruleset (or emptied) keep the text's
        // shape, so most of these read as positions no game reaches: armies without a
        // flag, officers walled in, pieces of a kind that never moved off their rows.
        let text_ruleset = &TEXT_RULESETS[ruleset];
        let description = (catalog::ruleset(text_ruleset.id).expect("hosted").description)();
        let mut codes: Vec<char> = description
            .kinds
            .iter()
            .flat_map(|kind| [kind.code, kind.code.to_ascii_lowercase()])
            .collect();
        codes.push('1');
        let mut chars: Vec<char> = original.get::<String>(&text_corpus()[ruleset]).chars().collect();
        let board_len = chars.iter().rposition(|&c| c == ' ').expect("a seat");
        for (at, code) in recodes {
            let i = at.index(board_len);
            if chars[i].is_ascii_alphabetic() {
                chars[i] = *code.get(&codes);
            }
        }
        let text: String = chars.into_iter().collect();
        (text_ruleset.check)(&text, seed)?;
    }

    #[test]
    fn any_text_as_setup_is_read_cleanly(
        ruleset in 0..catalog::RULESETS.len(),
        text in any_text(),
    ) {
        try_setup_text(&samples()[ruleset], &text)?;
    }

    #[test]
    fn mutated_setup_is_read_cleanly(
        ruleset in 0..catalog::RULESETS.len(),
        original in any::<Index>(),
        edits in proptest::collection::vec(edit(), 1..5),
    ) {
        let sample = &samples()[ruleset];
        if !sample.setups.is_empty() {
            let text = mutate(&original.get(&sample.setups).1, &edits);
            try_setup_text(sample, &text)?;
        }
    }

    #[test]
    fn any_placements_are_validated_cleanly(
        ruleset in 0..catalog::RULESETS.len(),
        placements in proptest::collection::vec(placement(), 0..60),
    ) {
        try_placements(samples()[ruleset].games[0].as_ref(), &placements)?;
    }

    #[test]
    fn near_valid_setups_are_validated_cleanly(
        ruleset in 0..catalog::RULESETS.len(),
        original in any::<Index>(),
        drop in proptest::collection::vec(any::<Index>(), 0..3),
        added in proptest::collection::vec(placement(), 0..3),
    ) {
        let sample = &samples()[ruleset];
        if !sample.setups.is_empty() {
            let description = sample.games[0].description();
            let (_, text) = original.get(&sample.setups);
            let mut placements = Setup::parse_canonical(description, text).expect("canonical");
            for index in drop {
                if !placements.is_empty() {
                    placements.remove(index.index(placements.len()));
                }
            }
            placements.extend(added);
            try_placements(sample.games[0].as_ref(), &placements)?;
        }
    }

    #[test]
    fn any_action_is_played_cleanly(at in any::<Index>(), action in any_action()) {
        // Every shape of action goes to every ruleset: most are refused as the wrong shape,
        // the rest reach the ruleset's own checks.
        for sample in samples() {
            try_action(at.get(&sample.games).as_ref(), &action)?;
        }
    }

    #[test]
    fn near_legal_actions_are_played_cleanly(
        ruleset in 0..catalog::RULESETS.len(),
        at in any::<Index>(),
        listed in any::<Index>(),
        nudges in proptest::collection::vec(nudge(), 1..4),
    ) {
        let game = at.get(&samples()[ruleset].games);
        let legal = game.legal_actions();
        if !legal.is_empty() {
            let action = nudged(&listed.get(&legal).action, &nudges);
            try_action(game.as_ref(), &action)?;
        }
    }
}

#[test]
fn the_samples_cover_every_phase() {
    for sample in samples() {
        let phases: Vec<Phase> = sample.games.iter().map(|g| g.phase()).collect();
        for phase in [Phase::Playing, Phase::Finished] {
            assert!(phases.contains(&phase), "{}: {phase:?}", sample.id);
        }
        let sets_up = sample.games[0].description().setup_zones.len();
        assert_eq!(sample.setups.len() % sets_up.max(1), 0, "{}", sample.id);
        assert_eq!(sample.setups.is_empty(), sets_up == 0, "{}", sample.id);
        assert_eq!(
            phases.contains(&Phase::Setup),
            sets_up > 0,
            "{}: the setup phase is sampled",
            sample.id
        );
        assert!(sample.notations.len() > 50, "{}", sample.id);
    }
    for (ruleset, texts) in TEXT_RULESETS.iter().zip(text_corpus()) {
        assert_eq!(texts.len(), 200, "{}", ruleset.id);
    }
}
