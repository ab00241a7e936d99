//! Every attacker × defender pair of the three army rulesets, played on a board.
//!
//! The expected survivors come from the matrices in `common` (written from rules.md); each
//! pair is played as a real attack in a small position (seat 0 attacking up the board and
//! seat 1 attacking down it) and the whole resulting position is compared with the one the
//! table predicts.

mod common;

use common::{CASTILLOS, CLASICO, FRENTE, Outcome, Ruleset};
use trinchera_rules::army::{Army, Castillos, Clasico, Frente, Variant};
use trinchera_rules::{BattleResult, Effect, EndReason, PositionText, Rules, Seat};

/// A movable filler that every ruleset has at least twice, so that no pair leaves a seat
/// with only immovable pieces.
const FILLER: char = 'R';

fn flip(code: char, seat: u8) -> char {
    if seat == 0 {
        code.to_ascii_uppercase()
    } else {
        code.to_ascii_lowercase()
    }
}

/// Plays `attacker` against `defender` with `seat` attacking and checks the survivors.
fn play_pair<V: Variant>(rules: &Ruleset, attacker: char, defender: char, seat: u8) {
    // Seat 0 stands on b2 and seat 1 on b3 either way; the attacker is the one to move.
    let (from, to) = if seat == 0 {
        ("b2", "b3")
    } else {
        ("b3", "b2")
    };
    let fillers = [("h1", flip(FILLER, 0)), ("h10", flip(FILLER, 1))];
    let mut pieces = vec![(from, flip(attacker, seat)), (to, flip(defender, 1 - seat))];
    pieces.extend(fillers);
    let start = rules.text(&pieces, seat);
    let mut position = Army::<V>::from_position_text(&start)
        .unwrap_or_else(|error| panic!("{}: {start}: {error}", rules.id));
    assert_eq!(position.outcome(), None, "{start}");
    let action = Army::<V>::parse_notation(&format!("{from}x{to}")).expect("notation");
    let name = format!("{} {attacker} attacks {defender} (seat {seat})", rules.id);

    let Some(expected) = rules.battle(attacker, defender) else {
        let error = position.check(&action).expect_err(&name);
        assert!(
            error.to_string().ends_with("never moves"),
            "{name}: {error}"
        );
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        assert!(
            moves.iter().all(|&mv| position.action(mv) != action),
            "{name}: listed"
        );
        return;
    };

    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let listed = moves
        .iter()
        .find(|&&mv| position.action(mv) == action)
        .unwrap_or_else(|| panic!("{name}: attack not listed"));
    assert_eq!(position.notation(*listed), format!("{from}x{to}"), "{name}");
    let mv = position
        .check(&action)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut effects = Vec::new();
    position.play_unchecked(mv, &mut effects);

    let mut after = fillers.to_vec();
    let result = match expected {
        Outcome::Attacker => {
            after.push((to, flip(attacker, seat)));
            BattleResult::AttackerWins
        }
        Outcome::Defender => {
            after.push((to, flip(defender, 1 - seat)));
            BattleResult::DefenderWins
        }
        Outcome::Both => BattleResult::BothFall,
    };
    assert_eq!(
        position.position_text(),
        rules.text(&after, 1 - seat),
        "{name}"
    );
    assert!(
        matches!(effects.first(), Some(Effect::Battle { result: r, .. }) if *r == result),
        "{name}: {effects:?}"
    );
    if defender == rules.flag {
        assert_eq!(
            expected,
            Outcome::Attacker,
            "{name}: the flag loses to everything"
        );
        let outcome = position.outcome().expect("the flag fell");
        assert_eq!(outcome.reason, EndReason::FlagCaptured, "{name}");
        assert_eq!(
            outcome.winner,
            Seat::from_index(usize::from(seat)),
            "{name}"
        );
    } else {
        assert_eq!(position.outcome(), None, "{name}");
    }
}

fn all_pairs<V: Variant>(rules: &Ruleset) {
    assert_eq!(V::spec().data.id, rules.id);
    for attacker in rules.codes {
        for defender in rules.codes {
            for seat in [0, 1] {
                play_pair::<V>(rules, attacker, defender, seat);
            }
        }
    }
}

#[test]
fn frente_battles() {
    all_pairs::<Frente>(&FRENTE);
}

#[test]
fn clasico_battles() {
    all_pairs::<Clasico>(&CLASICO);
}

#[test]
fn castillos_battles() {
    all_pairs::<Castillos>(&CASTILLOS);
}

/// Rules.md 1.4's battle rules, one by one, in their order: the table rows above encode
/// them, and these name the cases the rules spell out.
#[test]
fn castillos_rules_in_order() {
    let t = |a, d| CASTILLOS.battle(a, d);
    // 1. A desactivador attacking a bomb or granada wins.
    assert_eq!(t('D', 'B'), Some(Outcome::Attacker));
    assert_eq!(t('D', 'K'), Some(Outcome::Attacker));
    // 2. A granada attacking a bomb or granada: both fall.
    assert_eq!(t('K', 'B'), Some(Outcome::Both));
    assert_eq!(t('K', 'K'), Some(Outcome::Both));
    // 3. Any other attacker of a bomb or granada falls, the Mariscal included.
    for attacker in ['S', 'R', 'T', 'C', 'Y', 'O', 'G', 'M'] {
        assert_eq!(t(attacker, 'B'), Some(Outcome::Defender), "{attacker}");
        assert_eq!(t(attacker, 'K'), Some(Outcome::Defender), "{attacker}");
    }
    // 4. A granada attacking anything else wins, except against a desactivador; it takes
    //    the flag and beats the Mariscal.
    assert_eq!(t('K', 'D'), Some(Outcome::Defender));
    assert_eq!(t('K', 'F'), Some(Outcome::Attacker));
    assert_eq!(t('K', 'M'), Some(Outcome::Attacker));
    // 5. The Mariscal beats the General and everything the rank rule would give it.
    assert_eq!(t('M', 'G'), Some(Outcome::Attacker));
    assert_eq!(t('G', 'M'), Some(Outcome::Defender));
    // 6. Otherwise ranks; equal ranks both fall; the flag loses to everything.
    assert_eq!(t('D', 'S'), Some(Outcome::Defender));
    assert_eq!(t('S', 'D'), Some(Outcome::Attacker));
    assert_eq!(t('O', 'O'), Some(Outcome::Both));
    assert_eq!(t('M', 'M'), Some(Outcome::Both));
    assert_eq!(t('D', 'F'), Some(Outcome::Attacker));
}

/// The engine's kinds are rules.md's: codes, order, counts and which of them move.
#[test]
fn kinds_match_the_rule_book() {
    fn check<V: Variant>(rules: &Ruleset) {
        let description = Army::<V>::description();
        let codes: Vec<char> = description.kinds.iter().map(|kind| kind.code).collect();
        let counts: Vec<u8> = description.kinds.iter().map(|kind| kind.count).collect();
        assert_eq!(codes, rules.codes, "{}", rules.id);
        assert_eq!(counts, rules.counts, "{}", rules.id);
        for kind in &description.kinds {
            assert_eq!(kind.movable, rules.movable(kind.code), "{}", kind.id);
        }
        assert_eq!(description.board.width as i8, rules.width);
        assert_eq!(description.board.height as i8, rules.height);
    }
    check::<Frente>(&FRENTE);
    check::<Clasico>(&CLASICO);
    check::<Castillos>(&CASTILLOS);
}
