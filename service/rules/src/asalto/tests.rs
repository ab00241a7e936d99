//! Fixtures of Asalto and German Tactics, and perft checked against a deliberately naive
//! second implementation of rules.md section 2.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::catalog;
use crate::describe::{LinkKind, Terrain};
use crate::error::PositionError;
use crate::game::Phase;
use crate::rules::PositionText;
use crate::seat::Viewer;
use crate::setup::{Placement, SetupProblem};

const START: &str = "3/o1o/RR3RR/RRRRRRR/RRRRRRR/RRR/RRR 0";

fn load<V: Variant>(text: &str) -> Siege<V> {
    Siege::from_position_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cell(label: &str) -> Cell {
    Cell::parse_grid_label(label).expect("a label")
}

/// The notations of every legal move, sorted.
fn listed<V: Variant>(position: &Siege<V>) -> Vec<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut notations: Vec<String> = moves.iter().map(|&mv| position.notation(mv)).collect();
    notations.sort();
    notations
}

/// Plays a move given in notation through the checked path; returns its effects.
fn play<V: Variant>(position: &mut Siege<V>, text: &str) -> Vec<Effect> {
    let action = Siege::<V>::parse_notation(text).unwrap_or_else(|e| panic!("{e}"));
    let mv = position
        .check(&action)
        .unwrap_or_else(|e| panic!("{text} in {position:?}: {e}"));
    assert!(
        listed(position).contains(&text.to_owned()),
        "{text} not listed"
    );
    let mut effects = Vec::new();
    position.play_unchecked(mv, &mut effects);
    effects
}

/// Why `text` is refused in `position`.
fn refused<V: Variant>(position: &Siege<V>, text: &str) -> Illegal {
    let action = Siege::<V>::parse_notation(text).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !listed(position).contains(&text.to_owned()),
        "{text} listed"
    );
    match position.check(&action) {
        Ok(mv) => panic!("{text} accepted as {mv:?} in {position:?}"),
        Err(error) => error,
    }
}

fn huffable<V: Variant>(position: &Siege<V>) -> Vec<Cell> {
    match position.view(Sight::Everything).status {
        Status::Asalto(status) => status.huffable,
        other => panic!("not an Asalto status: {other:?}"),
    }
}

fn removed(piece: u32, at: &str, cause: RemovalCause) -> Effect {
    Effect::Removed {
        piece: PieceId(piece),
        at: cell(at),
        cause,
    }
}

// ---- Board and description ----------------------------------------------------------------

#[test]
fn descriptions_draw_every_line() {
    for (description, marked) in [(Asalto::description(), 0), (Tacticas::description(), 16)] {
        let board = &description.board;
        assert_eq!(board.shape, crate::describe::BoardShape::Cross);
        assert_eq!((board.width, board.height), (7, 7));
        assert_eq!(board.cells.len(), 33);
        assert_eq!(board.cells[0].label, "c1");
        assert_eq!(board.cells[32].label, "e7");
        let fortress: Vec<&str> = board
            .cells
            .iter()
            .filter(|info| info.terrain == Terrain::Fortress)
            .map(|info| info.label.as_str())
            .collect();
        assert_eq!(
            fortress,
            ["c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7"]
        );
        let count = |kind| board.links.iter().filter(|l| l.kind == kind).count();
        assert_eq!(count(LinkKind::Diagonal), 20);
        assert_eq!(count(LinkKind::Marked), marked);
        assert_eq!(count(LinkKind::Orthogonal), 52 - marked);
        for link in &board.links {
            let (a, b) = (link.a, link.b);
            assert!((a.x - b.x).abs() <= 1 && (a.y - b.y).abs() <= 1 && a != b);
            assert!(description.cell(a).is_some() && description.cell(b).is_some());
            let twins = board
                .links
                .iter()
                .filter(|l| (l.a, l.b) == (a, b) || (l.a, l.b) == (b, a))
                .count();
            assert_eq!(twins, 1, "{a:?}-{b:?} drawn once");
            if link.kind == LinkKind::Marked {
                assert!(a.y == b.y && a.y <= 3);
            }
        }
        assert_eq!(description.seats[Seat::First].name, "Rebeldes");
        assert_eq!(description.seats[Seat::Second].name, "Oficiales");
        assert_eq!(description.kind_by_id("rebelde"), Some(REBEL));
        assert_eq!(description.kind_by_id("oficial"), Some(OFFICER));
        assert_eq!(description.kind(REBEL).count, 24);
        assert_eq!(description.kind(OFFICER).code, 'O');
        assert!(description.setup_zone(Seat::First).is_none());
        let zone = description
            .setup_zone(Seat::Second)
            .expect("officers set up");
        assert!(!zone.hidden);
        assert_eq!(zone.pieces, [(OFFICER, 2)]);
        assert_eq!(zone.cells.len(), 9);
    }
    assert_eq!(Asalto::description().id, "asalto");
    assert_eq!(Tacticas::description().id, "tacticas");
}

#[test]
fn officers_set_up_on_the_fortress() {
    let description = Asalto::description();
    let place = |labels: &[&str]| {
        let placements: Vec<Placement> = labels
            .iter()
            .map(|label| Placement {
                cell: cell(label),
                kind: "oficial".into(),
            })
            .collect();
        Setup::validate(description, Seat::Second, &placements)
    };
    assert!(place(&["c6", "e6"]).is_ok());
    let error = place(&["c6", "d4"]).expect_err("d4 is outside the fortress");
    assert_eq!(error.problems, [SetupProblem::OutsideZone(cell("d4"))]);
    assert!(place(&["c6"]).is_err());
    assert!(Setup::validate(description, Seat::First, &[]).is_err());
}

#[test]
fn a_served_game_starts_with_the_rebels_and_hides_nothing() {
    for id in ["asalto", "tacticas"] {
        let ruleset = catalog::ruleset(id).expect("registered");
        let mut game = (ruleset.new_game)(Seed([3; 32]));
        assert!(!game.awaits_setup(Seat::First));
        assert!(game.awaits_setup(Seat::Second));
        let zone = game
            .description()
            .setup_zone(Seat::Second)
            .expect("a zone")
            .clone();
        // Before the officers are placed, the rebels are already known to everybody.
        let waiting = game.view(Viewer::Player(Seat::Second));
        assert_eq!(waiting.pieces.len(), 24);
        assert!(
            waiting
                .pieces
                .iter()
                .all(|p| p.revealed && p.kind.is_some())
        );
        game.submit_setup(Setup::random(&zone, 9))
            .expect("setup accepted");
        assert_eq!(game.phase(), Phase::Playing);
        assert_eq!(game.to_move(), Some(Seat::First));
        let view = game.view(Viewer::Spectator);
        assert_eq!(view.pieces.len(), 26);
        for (index, piece) in view.pieces.iter().enumerate() {
            assert_eq!(piece.id, PieceId(index as u32));
            assert!(piece.revealed && piece.kind.is_some() && !piece.moved);
        }
        let rebels: Vec<Cell> = view.pieces[..24].iter().filter_map(|p| p.cell).collect();
        let mut reading = rebels.clone();
        reading.sort_by_key(|c| (c.y, c.x));
        assert_eq!(rebels, reading, "rebel ids in reading order");
        assert!(view.pieces[24..].iter().all(|p| p.owner == Seat::Second
            && p.kind == Some(OFFICER)
            && zone.cells.contains(&p.cell.expect("on the board"))));
        let first = game.legal_actions().remove(0);
        game.play(Seat::First, &first.action).expect("listed");
        let view = game.view(Viewer::Player(Seat::Second));
        assert_eq!(view.pieces.iter().filter(|p| p.moved).count(), 1);
    }
}

// ---- Moves ------------------------------------------------------------------------------

#[test]
fn start_position_moves_by_hand() {
    let start: Siege<Asalto> = load(START);
    assert_eq!(start.position_text(), START);
    // c5 is reached from b5, c4 and the diagonal points b4 and d4; d5 only from d4 (c4 and
    // e4 carry no diagonals); e5 from f5, e4, f4 and d4.
    assert_eq!(
        listed(&start),
        [
            "b4-c5", "b5-c5", "c4-c5", "d4-c5", "d4-d5", "d4-e5", "e4-e5", "f4-e5", "f5-e5"
        ]
    );
    assert_eq!(start.perft(2), 48);
}

#[test]
fn rebels_never_move_backwards() {
    // A lone rebel on d4 (a diagonal point) with room all around, and room below d2.
    let mut position: Siege<Asalto> = load("1o1/1o1/7/3R3/RR3RR/RRR/R1R 0");
    let error = refused(&position, "d2-d1");
    assert_eq!(error, Illegal::Asalto(AsaltoIllegal::Backwards));
    assert_eq!(
        error.to_string(),
        "rebels never move away from the fortress: a rebel may not step to a lower row"
    );
    for backwards in ["d4-d3", "d4-c3", "d4-e3"] {
        assert_eq!(
            refused(&position, backwards),
            Illegal::Asalto(AsaltoIllegal::Backwards)
        );
    }
    for forwards in ["d4-d5", "d4-c5", "d4-e5"] {
        assert!(listed(&position).contains(&forwards.to_owned()));
    }
    play(&mut position, "d4-c5");
    assert_eq!(position.to_move(), Seat::Second);
}

#[test]
fn tacticas_refuses_sideways_moves_on_rows_1_to_4() {
    // Gaps on rows 2, 3, 4 and 5 that a rebel could fill sideways.
    let text = "3/1o1/R1R1RRR/RR1RRRR/R1RRRRR/R1R/RRR 0";
    let tacticas: Siege<Tacticas> = load(text);
    let asalto: Siege<Asalto> = load(text);
    for sideways in ["c2-d2", "a3-b3", "b4-c4"] {
        assert!(listed(&asalto).contains(&sideways.to_owned()), "{sideways}");
        let error = refused(&tacticas, sideways);
        assert!(
            matches!(error, Illegal::Asalto(AsaltoIllegal::MarkedLine(..))),
            "{sideways}: {error}"
        );
    }
    assert_eq!(
        refused(&tacticas, "c2-d2").to_string(),
        "rebels may not move along the marked line from c2 to d2: they move sideways only on \
         rows 5-7"
    );
    let mut tacticas = tacticas;
    for sideways in ["a5-b5", "c5-b5"] {
        assert!(
            listed(&tacticas).contains(&sideways.to_owned()),
            "{sideways}"
        );
    }
    // Forward moves out of rows 1-4 stay open.
    assert!(listed(&tacticas).contains(&"b4-b5".to_owned()));
    play(&mut tacticas, "c5-b5");
    // Row 6 and 7 lines are not marked either.
    let mut top: Siege<Tacticas> = load("R1R/R1R/RRRRRRR/o5o/7/3/3 0");
    assert!(listed(&top).contains(&"c7-d7".to_owned()));
    play(&mut top, "e6-d6");
}

#[test]
fn officers_step_along_lines_and_capture_straight() {
    let position: Siege<Asalto> = load("1o1/3/3o3/R2R3/RR2R1R/RRR/RRR 1");
    let officer_moves: Vec<String> = listed(&position);
    assert_eq!(
        officer_moves,
        [
            "d5-c5", "d5-d6", "d5-e5", "d5xd3", "d5xd3xf3", "d7-c7", "d7-d6", "d7-e7"
        ]
    );
    // d5 carries no diagonals; a capture never turns within one jump.
    for (text, error) in [
        (
            "d5-c4",
            AsaltoIllegal::NoLine("d5".into(), "c4".into()).into(),
        ),
        (
            "d5-d3",
            AsaltoIllegal::CaptureWithX("d5".into(), "d3".into()).into(),
        ),
        (
            "d5xe3",
            AsaltoIllegal::NotAJump("d5".into(), "e3".into()).into(),
        ),
        ("d5xd3xd1", AsaltoIllegal::Occupied("d1".into()).into()),
        ("d5xd3xb3", AsaltoIllegal::NothingToJump("c3".into()).into()),
        ("d4-d5", Illegal::NoOwnPiece("d4".into())),
    ] {
        assert_eq!(refused(&position, text), error, "{text}");
    }
    let stacked: Siege<Asalto> = load("3/1o1/3o3/7/RR3RR/RRR/RRR 1");
    assert_eq!(
        refused(&stacked, "d6xd4"),
        AsaltoIllegal::OfficerOverOfficer("d5".into()).into()
    );
    let rebels: Siege<Asalto> = load(START);
    for (text, error) in [
        ("d4-d6", AsaltoIllegal::RebelsNeverJump.into()),
        ("d4xd6", AsaltoIllegal::RebelsNeverJump.into()),
        ("c6xc4", Illegal::NoOwnPiece("c6".into())),
        ("d5-d6", Illegal::NoOwnPiece("d5".into())),
        (
            "d4-d4",
            AsaltoIllegal::NoLine("d4".into(), "d4".into()).into(),
        ),
        (
            "b5-c6",
            AsaltoIllegal::NoLine("b5".into(), "c6".into()).into(),
        ),
        ("d2-d3", AsaltoIllegal::Occupied("d3".into()).into()),
    ] {
        assert_eq!(refused(&rebels, text), error, "{text}");
    }
    let endless = Action::Jump {
        from: cell("d5"),
        landings: vec![cell("d3"); MAX_CHAIN + 1],
    };
    assert_eq!(
        position.check(&endless),
        Err(AsaltoIllegal::ChainTooLong(MAX_CHAIN).into())
    );
    let jump_nowhere = Action::Jump {
        from: cell("d5"),
        landings: Vec::new(),
    };
    assert_eq!(
        position.check(&jump_nowhere),
        Err(AsaltoIllegal::NoLanding.into())
    );
    assert_eq!(
        position.check(&Action::EndPhase),
        Err(Illegal::WrongShape { example: EXAMPLE })
    );
    assert_eq!(
        position.check(&Action::Step {
            from: cell("a1"),
            to: cell("a2")
        }),
        Err(Illegal::OffBoard(cell("a1")))
    );
}

#[test]
fn a_chain_turns_between_jumps() {
    let mut position: Siege<Asalto> = load("1o1/3/3o3/R2R3/RR2R1R/RRR/RRR 1");
    // Rebel ids in reading order: c1 d1 e1 c2 d2 e2 a3 b3 e3(8) g3 a4 d4(11).
    let effects = play(&mut position, "d5xd3xf3");
    assert_eq!(
        effects,
        [
            removed(11, "d4", RemovalCause::Jumped),
            removed(8, "e3", RemovalCause::Jumped)
        ]
    );
    assert_eq!(position.position_text(), "1o1/3/7/R6/RR3oR/RRR/RRR 0");
    assert!(huffable(&position).is_empty());
    let view = position.view(Sight::Of(Viewer::Spectator));
    assert_eq!(view.captured.len(), 2);
    let officer = view
        .pieces
        .iter()
        .find(|p| p.cell == Some(cell("f3")))
        .expect("the officer landed on f3");
    assert_eq!((officer.id, officer.moved), (PieceId(12), true));
}

#[test]
fn a_chain_may_stop_early_and_that_is_no_missed_capture() {
    let mut position: Siege<Asalto> = load("1o1/3/3o3/R2R3/RR2R1R/RRR/RRR 1");
    assert_eq!(
        play(&mut position, "d5xd3"),
        [removed(11, "d4", RemovalCause::Jumped)]
    );
    // The officer on d3 could still jump e3, but a capture was made: no huff.
    assert!(huffable(&position).is_empty());
    assert!(listed(&position).iter().all(|m| !m.starts_with("huff")));
    assert_eq!(
        refused(&position, "huff d3"),
        AsaltoIllegal::NotHuffable("d3".into()).into()
    );
}

#[test]
fn a_missed_capture_offers_a_huff_for_one_turn() {
    // The officer on d4 could jump d5; it steps to c4 instead.
    let text = "3/3/3R3/3o3/RR4R/RRR/RRR 1";
    let mut position: Siege<Asalto> = load(text);
    assert!(listed(&position).contains(&"d4xd6".to_owned()));
    play(&mut position, "d4-c4");
    assert_eq!(huffable(&position), [cell("c4")]);
    assert!(listed(&position).contains(&"huff c4".to_owned()));
    // The rebels let it pass...
    play(&mut position, "a3-a4");
    // ...the officers' next turn has no capture to miss...
    assert!(
        listed(&position)
            .iter()
            .all(|m| !m.contains('x') && !m.starts_with("huff"))
    );
    play(&mut position, "c4-d4");
    // ...and the chance has lapsed.
    assert!(huffable(&position).is_empty());
    assert_eq!(
        refused(&position, "huff d4"),
        AsaltoIllegal::NotHuffable("d4".into()).into()
    );
    assert_eq!(
        refused(&position, "huff c4"),
        AsaltoIllegal::NoOfficer("c4".into()).into()
    );
}

#[test]
fn huffing_the_last_officer_wins_at_once() {
    let mut position: Siege<Asalto> = load("3/3/3R3/3o3/RR4R/RRR/RRR 1");
    play(&mut position, "d4-c4");
    assert_eq!(
        refused(&position, "huff d5"),
        AsaltoIllegal::NoOfficer("d5".into()).into()
    );
    assert_eq!(
        play(&mut position, "huff c4"),
        [
            removed(10, "c4", RemovalCause::Huffed),
            Effect::Ended(Outcome::win(Seat::First, EndReason::OfficersHuffed))
        ]
    );
    assert!(listed(&position).is_empty());
    assert_eq!(
        position.check(&Action::Huff {
            officer: cell("c4")
        }),
        Err(AsaltoIllegal::GameOver.into())
    );
}

#[test]
fn both_officers_that_could_capture_become_huffable() {
    // a4 could jump b4, d4 could jump d5; d4 steps away (a4 cannot jump a5: no a6).
    let mut position: Siege<Asalto> = load(TWO_CAPTURERS);
    play(&mut position, "d4-d3");
    assert_eq!(huffable(&position), [cell("d3"), cell("a4")]);
    let moves = listed(&position);
    assert!(moves.contains(&"huff a4".to_owned()) && moves.contains(&"huff d3".to_owned()));
    // Rebel ids 0..10, officers a4 = 10, d4 = 11.
    assert_eq!(
        play(&mut position, "huff a4"),
        [removed(10, "a4", RemovalCause::Huffed)]
    );
    assert_eq!(position.to_move(), Seat::First);
    assert!(listed(&position).iter().all(|m| !m.starts_with("huff")));
    assert_eq!(
        refused(&position, "huff d3"),
        AsaltoIllegal::AlreadyHuffed.into()
    );
    play(&mut position, "g3-g4");
    assert_eq!(position.to_move(), Seat::Second);
    assert_eq!(
        refused(&position, "huff d3"),
        AsaltoIllegal::OnlyRebelsHuff.into()
    );

    // A capture by either officer spares both.
    let mut captured: Siege<Asalto> = load(TWO_CAPTURERS);
    play(&mut captured, "a4xc4");
    assert_eq!(captured.outcome(), None);
    assert!(huffable(&captured).is_empty());
}

/// Officers on a4 and d4, each able to capture; ten rebels.
const TWO_CAPTURERS: &str = "3/3/R2R3/oR1o3/6R/RRR/RRR 1";

// ---- End conditions ------------------------------------------------------------------------

fn ends<V: Variant>(text: &str, moves: &[&str], outcome: Outcome) {
    let mut position: Siege<V> = load(text);
    let (last, before) = moves.split_last().expect("at least one move");
    for mv in before {
        play(&mut position, mv);
        assert_eq!(position.outcome(), None, "{mv}");
    }
    let effects = play(&mut position, last);
    assert_eq!(effects.last(), Some(&Effect::Ended(outcome)), "{text}");
    assert_eq!(position.outcome(), Some(outcome));
    assert!(listed(&position).is_empty());
    assert_eq!(position.view(Sight::Everything).to_move, None);
}

#[test]
fn rebels_take_the_fortress() {
    ends::<Asalto>(
        "RRR/RRR/1R1RR2/o5o/7/3/3 0",
        &["b5-c5"],
        Outcome::win(Seat::First, EndReason::FortressTaken),
    );
}

#[test]
fn rebels_huff_both_officers() {
    ends::<Asalto>(
        TWO_CAPTURERS,
        &["d4-d3", "huff a4", "c2-c3", "d3-e3", "huff e3"],
        Outcome::win(Seat::First, EndReason::OfficersHuffed),
    );
}

#[test]
fn rebels_trap_the_officers() {
    ends::<Asalto>(
        "oRo/R1R/RRRRRRR/7/7/3/3 0",
        &["d5-d6"],
        Outcome::win(Seat::First, EndReason::OfficersTrapped),
    );
}

#[test]
fn a_trap_on_the_hundredth_quiet_turn_still_wins() {
    // Both officers sit in the arms; d3-c3 is a sideways (quiet) move that closes the last
    // landing point, c3.
    let mut position: Siege<Asalto> = load("3/3/R1R1R1R/RR3RR/oR1RRRo/3/3 0");
    position.quiet_turns = TURN_LIMIT - 1;
    play(&mut position, "d3-c3");
    assert_eq!(position.quiet_turns, TURN_LIMIT);
    assert_eq!(
        position.outcome(),
        Some(Outcome::win(Seat::First, EndReason::OfficersTrapped))
    );
}

#[test]
fn officers_capture_until_eight_rebels_remain() {
    ends::<Asalto>(
        "3/3/3R3/3o3/RR5/RRR/RRR 1",
        &["d4xd6"],
        Outcome::win(Seat::Second, EndReason::RebelsTooFew),
    );
}

#[test]
fn rebels_without_a_move_lose() {
    // The top is jammed around the officer on c7; the other officer shuffles.
    ends::<Asalto>(
        "oRR/RRR/RRRRRRR/7/7/3/1o1 1",
        &["d1-d2"],
        Outcome::win(Seat::Second, EndReason::NoMoves),
    );
}

#[test]
fn a_huff_is_an_action_but_a_huff_that_leaves_no_move_loses() {
    // German Tactics: c3, b4, c4 and d4 cannot move (no sideways on rows 3-4), the top is
    // jammed around the officer on c7. The officer on b3 could jump c3 but steps to a3:
    // huffing it is the rebels' only action, after which they have no move.
    let mut position: Siege<Tacticas> = load("oRR/RRR/RRRRRRR/1RRR3/1oR4/3/3 1");
    assert_eq!(listed(&position), ["b3-a3", "b3xd3"]);
    play(&mut position, "b3-a3");
    assert_eq!(position.outcome(), None);
    assert_eq!(listed(&position), ["huff a3"]);
    assert_eq!(
        play(&mut position, "huff a3").last(),
        Some(&Effect::Ended(Outcome::win(
            Seat::Second,
            EndReason::NoMoves
        )))
    );
}

#[test]
fn one_hundred_quiet_turns_draw() {
    let text = "1oo/3/R6/7/RRRRRRR/RRR/RRR 0";
    let mut position: Siege<Asalto> = load(text);
    let turns = ["a5-b5", "d7-d6", "b5-a5", "d6-d7"];
    for turn in 0..TURN_LIMIT {
        assert_eq!(position.outcome(), None, "turn {turn}");
        play(&mut position, turns[turn as usize % 4]);
        match position.view(Sight::Everything).status {
            Status::Asalto(status) => assert_eq!(status.turns_without_progress, turn + 1),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(
        position.outcome(),
        Some(Outcome::draw(EndReason::MoveLimit))
    );

    // A rebel advance, a capture or a huff starts the count again.
    let mut position: Siege<Asalto> = load(text);
    for turn in 0..98 {
        play(&mut position, turns[turn % 4]);
    }
    assert_eq!(position.quiet_turns, 98);
    play(&mut position, "a3-a4");
    assert_eq!(position.quiet_turns, 0);
    play(&mut position, "d6-d7");
    assert_eq!(position.quiet_turns, 1);
}

#[test]
fn a_huff_turn_counts_once_and_as_progress() {
    let mut huffed: Siege<Asalto> = load(TWO_CAPTURERS);
    play(&mut huffed, "d4-d3");
    assert_eq!(huffed.quiet_turns, 1);
    play(&mut huffed, "huff a4");
    play(&mut huffed, "b4-c4");
    // The turn held a huff, so it made progress though its step was sideways.
    assert_eq!(huffed.quiet_turns, 0);
    let mut quiet: Siege<Asalto> = load(TWO_CAPTURERS);
    play(&mut quiet, "d4-d3");
    play(&mut quiet, "b4-c4");
    assert_eq!(quiet.quiet_turns, 2);
}

// ---- Notation and position text ------------------------------------------------------------

#[test]
fn notation_round_trips() {
    let parse = Siege::<Asalto>::parse_notation;
    assert_eq!(
        parse("d1-d2"),
        Ok(Action::Step {
            from: cell("d1"),
            to: cell("d2")
        })
    );
    assert_eq!(
        parse(" d5xd3xf3 "),
        Ok(Action::Jump {
            from: cell("d5"),
            landings: vec![cell("d3"), cell("f3")]
        })
    );
    assert_eq!(
        parse("huff d6"),
        Ok(Action::Huff {
            officer: cell("d6")
        })
    );
    for bad in [
        "",
        "huff",
        "huffd6",
        "huff d6 d5",
        "huff d6-d5",
        "d1",
        "d1xd2-d3",
        "d1-d2-d3",
        "d1-d2x",
        "D1-D2",
    ] {
        assert_eq!(
            parse(bad).map_err(|e| e.problem),
            Err(NotationProblem::Malformed),
            "{bad:?}"
        );
    }
    assert_eq!(
        parse("a1-a2").map_err(|e| e.problem),
        Err(NotationProblem::UnknownCell("a1".into()))
    );
    let position: Siege<Asalto> = load("1o1/3/3o3/R2R3/RR2R1R/RRR/RRR 1");
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    for mv in moves {
        let action = position.action(mv);
        assert_eq!(parse(&position.notation(mv)), Ok(action.clone()));
        assert_eq!(position.check(&action), Ok(mv));
    }
}

#[test]
fn position_text_reads_and_refuses() {
    for text in [
        START,
        "1o1/3/3o3/R2R3/RR2R1R/RRR/RRR 1",
        "RRR/RRR/1R1RR2/o5o/7/3/3 0",
    ] {
        assert_eq!(load::<Asalto>(text).position_text(), text);
    }
    // Digits in a row add up.
    assert_eq!(
        load::<Asalto>("3/o1o/RR12RR/RRRRRRR/RRRRRRR/RRR/RRR 0").position_text(),
        START
    );
    let error = |text: &str| Siege::<Asalto>::from_position_text(text).map(|p| p.position_text());
    assert_eq!(
        error("3/o1o 0"),
        Err(PositionError::RowCount {
            expected: 7,
            found: 2
        })
    );
    assert_eq!(
        error(START.trim_end_matches(" 0")),
        Err(PositionError::Shape)
    );
    assert_eq!(
        error("3/o1o/RR3RR/RRRRRRR/RRRRRRR/RRR/RRR 2"),
        Err(PositionError::Seat("2".into()))
    );
    assert_eq!(
        error("4/o1o/RR3RR/RRRRRRR/RRRRRRR/RRR/RRR 0"),
        Err(PositionError::RowWidth {
            row: 7,
            expected: 3,
            found: 4
        })
    );
    assert_eq!(
        error("3/o1o/RR3RR/RRRRRRR/RRRRRRR/RRR/RXR 0"),
        Err(PositionError::UnknownCode('X'))
    );
    assert!(matches!(
        error("3/O1o/RR3RR/RRRRRRR/RRRRRRR/RRR/RRR 0"),
        Err(PositionError::Rule(_))
    ));
    assert_eq!(
        error("3/ooo/RR3RR/RRRRRRR/RRRRRRR/RRR/RRR 0"),
        Err(PositionError::TooMany('o'))
    );
    assert_eq!(
        error("3/o1o/RRRRRRR/RRRRRRR/RRRRRRR/RRR/RRR 0"),
        Err(PositionError::TooMany('R'))
    );
    // A finished position reads as finished.
    let over: Siege<Asalto> = load("RRR/RRR/2RRR2/o5o/7/3/3 1");
    assert_eq!(
        over.outcome(),
        Some(Outcome::win(Seat::First, EndReason::FortressTaken))
    );
}

// ---- perft -------------------------------------------------------------------------------

/// A deliberately naive second implementation of rules.md section 2: pieces in a map by
/// coordinates, lines decided by the 17 listed diagonal points, every rule an explicit loop.
mod naive {
    use std::collections::HashMap;

    type Point = (i32, i32);

    const DIAGONAL_POINTS: [&str; 17] = [
        "a3", "a5", "b4", "c1", "c3", "c5", "c7", "d2", "d4", "d6", "e1", "e3", "e5", "e7", "f4",
        "g3", "g5",
    ];
    const FORTRESS: [&str; 9] = ["c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7"];
    const DIRECTIONS: [Point; 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];

    fn label((column, row): Point) -> String {
        format!("{}{}", (b'a' + column as u8) as char, row + 1)
    }

    fn is_point((column, row): Point) -> bool {
        let arm = |v: i32| (2..=4).contains(&v);
        (0..7).contains(&column) && (0..7).contains(&row) && (arm(column) || arm(row))
    }

    fn line(a: Point, b: Point) -> bool {
        let (dc, dr) = ((b.0 - a.0).abs(), (b.1 - a.1).abs());
        is_point(a)
            && is_point(b)
            && match (dc, dr) {
                (1, 0) | (0, 1) => true,
                (1, 1) => {
                    DIAGONAL_POINTS.contains(&label(a).as_str())
                        && DIAGONAL_POINTS.contains(&label(b).as_str())
                }
                _ => false,
            }
    }

    /// A position with the little history the rules need.
    #[derive(Clone, Debug)]
    pub struct Naive {
        pieces: HashMap<Point, char>,
        rebels_to_move: bool,
        huffable: Vec<Point>,
        tactics: bool,
    }

    impl Naive {
        pub fn new(text: &str, tactics: bool, huffable: &[(i8, i8)]) -> Naive {
            let (rows, seat) = text.split_once(' ').expect("rows and seat");
            let mut pieces = HashMap::new();
            for (index, row_text) in rows.split('/').enumerate() {
                let row = 6 - index as i32;
                let mut columns = (0..7).filter(|&c| is_point((c, row)));
                for c in row_text.chars() {
                    match c.to_digit(10) {
                        Some(n) => {
                            for _ in 0..n {
                                columns.next();
                            }
                        }
                        None => {
                            pieces.insert((columns.next().expect("fits"), row), c);
                        }
                    }
                }
            }
            Naive {
                pieces,
                rebels_to_move: seat == "0",
                huffable: huffable
                    .iter()
                    .map(|&(x, y)| (i32::from(x), i32::from(y)))
                    .collect(),
                tactics,
            }
        }

        fn count(&self, code: char) -> usize {
            self.pieces.values().filter(|&&c| c == code).count()
        }

        fn over_by_pieces(&self) -> bool {
            let fortress_full = FORTRESS.iter().all(|l| {
                self.pieces
                    .iter()
                    .any(|(&p, &c)| c == 'R' && label(p) == *l)
            });
            fortress_full || self.count('o') == 0 || self.count('R') < 9
        }

        fn captures(&self, at: Point, pieces: &HashMap<Point, char>) -> Vec<(Point, Point)> {
            let mut jumps = Vec::new();
            for (dc, dr) in DIRECTIONS {
                let over = (at.0 + dc, at.1 + dr);
                let land = (at.0 + 2 * dc, at.1 + 2 * dr);
                if line(at, over)
                    && line(over, land)
                    && pieces.get(&over) == Some(&'R')
                    && !pieces.contains_key(&land)
                {
                    jumps.push((over, land));
                }
            }
            jumps
        }

        fn chains(
            &self,
            notation: String,
            at: Point,
            pieces: HashMap<Point, char>,
            out: &mut Vec<(String, Naive)>,
        ) {
            for (over, land) in self.captures(at, &pieces) {
                let mut after = pieces.clone();
                after.remove(&over);
                let text = format!("{notation}x{}", label(land));
                let mut placed = after.clone();
                placed.insert(land, 'o');
                out.push((
                    text.clone(),
                    Naive {
                        pieces: placed,
                        rebels_to_move: true,
                        huffable: Vec::new(),
                        tactics: self.tactics,
                    },
                ));
                self.chains(text, land, after, out);
            }
        }

        /// Every legal action with the position after it.
        pub fn actions(&self) -> Vec<(String, Naive)> {
            let mut out = Vec::new();
            if self.over_by_pieces() {
                return out;
            }
            let mover = if self.rebels_to_move { 'R' } else { 'o' };
            let mut pieces: Vec<Point> = self
                .pieces
                .iter()
                .filter(|&(_, &c)| c == mover)
                .map(|(&p, _)| p)
                .collect();
            pieces.sort();
            if self.rebels_to_move {
                for &officer in &self.huffable {
                    let mut next = self.clone();
                    next.pieces.remove(&officer);
                    next.huffable.clear();
                    out.push((format!("huff {}", label(officer)), next));
                }
            }
            let could_capture: Vec<Point> = if self.rebels_to_move {
                Vec::new()
            } else {
                pieces
                    .iter()
                    .copied()
                    .filter(|&p| !self.captures(p, &self.pieces).is_empty())
                    .collect()
            };
            for &from in &pieces {
                for (dc, dr) in DIRECTIONS {
                    let to = (from.0 + dc, from.1 + dr);
                    if !line(from, to) || self.pieces.contains_key(&to) {
                        continue;
                    }
                    if self.rebels_to_move && (dr < 0 || (self.tactics && dr == 0 && from.1 < 4)) {
                        continue;
                    }
                    let mut next = self.clone();
                    next.pieces.remove(&from);
                    next.pieces.insert(to, mover);
                    next.rebels_to_move = !self.rebels_to_move;
                    next.huffable = could_capture
                        .iter()
                        .map(|&p| if p == from { to } else { p })
                        .collect();
                    out.push((format!("{}-{}", label(from), label(to)), next));
                }
                if !self.rebels_to_move {
                    let mut without = self.pieces.clone();
                    without.remove(&from);
                    self.chains(label(from), from, without, &mut out);
                }
            }
            out
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            self.actions()
                .iter()
                .map(|(_, next)| next.perft(depth - 1))
                .sum()
        }
    }
}

/// Positions and their perft counts at depths 1–4, agreed by the engine and the naive oracle.
/// Checked by hand: depths 1 and 2 of the start (`start_position_moves_by_hand`), depth 1 of
/// the chain position (`officers_step_along_lines_and_capture_straight`) and of
/// [`TWO_CAPTURERS`] (a4: a3, a4xc4; d4: 7 steps and d4xd6), and the German Tactics jam
/// (`a_huff_is_an_action_but_a_huff_that_leaves_no_move_loses`).
const PERFT: &[(&str, &str, [u64; 4])] = &[
    ("asalto", START, [9, 48, 490, 3222]),
    ("tacticas", START, [9, 48, 418, 2728]),
    (
        "asalto",
        "1o1/3/3o3/R2R3/RR2R1R/RRR/RRR 1",
        [8, 147, 1307, 22872],
    ),
    ("asalto", TWO_CAPTURERS, [10, 152, 1329, 17239]),
    ("tacticas", "oRR/RRR/RRRRRRR/1RRR3/1oR4/3/3 1", [2, 1, 0, 0]),
    // From random games.
    (
        "asalto",
        "3/Roo/RR1RRRR/RRR2RR/RR1RR1R/RR1/RRR 0",
        [18, 143, 2816, 22278],
    ),
    (
        "asalto",
        "1R1/oR1/RR1RRRR/RRR3R/RRRRRRR/RRR/R1R 1",
        [4, 78, 251, 4643],
    ),
    (
        "tacticas",
        "RRo/3/5RR/RR2RRR/R1oRRR1/RRR/2R 0",
        [9, 165, 1610, 14910],
    ),
    // An officer walled in by rebels it can chain through in many ways.
    (
        "asalto",
        "1o1/3/R1RRR1R/2RoR2/R1RRR1R/3/R1R 1",
        [191, 3031, 41455, 805682],
    ),
];

fn engine_perft(id: &str, text: &str, depth: u32) -> u64 {
    let perft = catalog::ruleset(id)
        .and_then(|ruleset| ruleset.perft)
        .expect("asalto and tacticas have perft");
    perft(text, depth).expect("a valid position")
}

#[test]
fn perft_matches_the_naive_oracle_and_the_fixtures() {
    for &(id, text, counts) in PERFT {
        let oracle = naive::Naive::new(text, id == "tacticas", &[]);
        let found: Vec<(u64, u64)> = (1..=4)
            .map(|depth| (engine_perft(id, text, depth), oracle.perft(depth)))
            .collect();
        for (depth, (&(engine, naive), &fixture)) in found.iter().zip(&counts).enumerate() {
            assert_eq!(engine, naive, "{id} {text} depth {}", depth + 1);
            assert_eq!(engine, fixture, "{id} {text} depth {}", depth + 1);
        }
    }
}

/// Along random games, the engine lists exactly the naive oracle's moves (given the public
/// huffable officers, which position text does not carry), and ends the game exactly when the
/// oracle has no move left (but for the turn limit, which the oracle does not count).
#[test]
fn random_games_list_the_oracles_moves() {
    fn games<V: Variant>(tactics: bool) {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut moves = Vec::new();
        let mut effects = Vec::new();
        for seed in 0..40 {
            let mut position: Siege<V> = crate::playout::random_start(seed);
            loop {
                let huffable: Vec<(i8, i8)> =
                    huffable(&position).iter().map(|c| (c.x, c.y)).collect();
                let oracle = naive::Naive::new(&position.position_text(), tactics, &huffable);
                let mut expected: Vec<String> =
                    oracle.actions().into_iter().map(|(text, _)| text).collect();
                expected.sort();
                if let Some(outcome) = position.outcome() {
                    if outcome.reason != EndReason::MoveLimit {
                        assert_eq!(expected, Vec::<String>::new(), "{position:?}");
                    }
                    break;
                }
                assert_eq!(listed(&position), expected, "{position:?}");
                moves.clear();
                position.legal_moves(&mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                effects.clear();
                position.play_unchecked(mv, &mut effects);
            }
        }
    }
    games::<Asalto>(false);
    games::<Tacticas>(true);
}

#[test]
fn the_setup_phase_shows_the_rebels_and_the_public_officers_with_play_ids() {
    let ruleset = catalog::ruleset("asalto").expect("hosted");
    let mut game = (ruleset.new_game)(crate::rules::Seed([0; 32]));
    let spectator = game.view(Viewer::Spectator);
    assert_eq!(
        spectator.pieces.len(),
        24,
        "the rebels stand from the start"
    );
    let ids: Vec<u32> = spectator.pieces.iter().map(|p| p.id.0).collect();
    assert_eq!(ids, (0..24).collect::<Vec<_>>());
    assert!(
        spectator
            .pieces
            .iter()
            .all(|p| p.owner == Seat::First && p.kind == Some(REBEL))
    );
    let description = game.description();
    let placements = ["c6", "e6"].map(|label| Placement {
        cell: cell(label),
        kind: "oficial".into(),
    });
    let setup = Setup::validate(description, Seat::Second, &placements).expect("valid");
    game.submit_setup(setup).expect("accepted");
    // The officers' setup is public and play has started: the ids are the same as before.
    let playing = game.view(Viewer::Player(Seat::First));
    assert_eq!(playing.pieces.len(), 26);
    let officers: Vec<(u32, Cell)> = playing
        .pieces
        .iter()
        .filter(|p| p.owner == Seat::Second)
        .map(|p| (p.id.0, p.cell.expect("on the board")))
        .collect();
    assert_eq!(officers, vec![(24, cell("c6")), (25, cell("e6"))]);
    assert_eq!(
        playing
            .pieces
            .iter()
            .filter(|p| p.owner == Seat::First)
            .map(|p| p.id.0)
            .collect::<Vec<_>>(),
        ids
    );
}
