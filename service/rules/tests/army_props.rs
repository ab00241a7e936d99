//! Properties of the army rulesets over random setups and random games (proptest seeds):
//! games end; the listed actions are exactly the accepted ones; views never leak a hidden
//! kind, and a piece's conduct is what the public moves and reveals show; position text
//! round-trips.
//!
//! Each property plays whole games through [`Match`], the `Game` the service holds, so the
//! setup phase, `play`, notation and views are exercised as the service uses them.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::army::{Army, Castillos, Clasico, Frente, Variant};
use trinchera_rules::{
    Action, Cell, Conduct, Effect, Game, KindId, Match, Phase, PieceId, PieceView, PositionText,
    Rules, Seat, Seed, Setup, Sight, Terrain, View, Viewer,
};

/// 80 pieces, at most 400 quiet turns between two removals: no game is longer.
const MAX_PLIES: usize = 81 * 400;

/// A game after random setups drawn from `seeds`, with the views checked during setup.
fn start<V: Variant>(seeds: [u64; 2]) -> Match<Army<V>> {
    let mut game = Match::<Army<V>>::new(Seed([0; 32]));
    for seat in Seat::BOTH {
        let zone = game.description().setup_zone(seat).expect("a setup zone");
        let setup = Setup::random(zone, seeds[seat.index()]);
        game.submit_setup(setup).expect("setup phase");
        if seat == Seat::First {
            // Rojo's setup is in: only Rojo sees it.
            assert!(game.awaits_setup(Seat::Second));
            assert!(game.view(Viewer::Player(Seat::Second)).pieces.is_empty());
            assert!(game.view(Viewer::Spectator).pieces.is_empty());
            assert!(
                game.view(Viewer::Player(Seat::First))
                    .pieces
                    .iter()
                    .all(|piece| piece.kind.is_some())
            );
        }
    }
    assert_eq!(game.phase(), Phase::Playing);
    game
}

/// One moment of a random game, as [`walk`] reports it.
enum Moment<'a, V: Variant> {
    /// Before an action (and once more at the end, with no legal action left).
    Before {
        game: &'a mut Match<Army<V>>,
        ply: usize,
        rng: &'a mut ChaCha8Rng,
    },
    /// Right after `action`, which caused `effects`.
    After {
        game: &'a Match<Army<V>>,
        action: &'a Action,
        effects: &'a [Effect],
    },
}

/// Plays random listed actions from random setups until the end, telling `observe` about
/// every moment; returns the number of actions played. With probability `undo`, a player
/// undoes its own last move when that is listed, so that shuttles reach the repetition
/// limit (uniform play almost never does).
fn walk<V: Variant>(
    seeds: [u64; 2],
    moves: u64,
    undo: f64,
    mut observe: impl FnMut(Moment<'_, V>),
) -> usize {
    let mut game = start::<V>(seeds);
    let mut rng = ChaCha8Rng::seed_from_u64(moves);
    let mut last: [Option<Action>; 2] = [None, None];
    for ply in 0..MAX_PLIES {
        observe(Moment::Before {
            game: &mut game,
            ply,
            rng: &mut rng,
        });
        let actions = game.legal_actions();
        if actions.is_empty() {
            assert!(game.outcome().is_some(), "no action but no result");
            assert_eq!(game.phase(), Phase::Finished);
            return ply;
        }
        let seat = game.to_move().expect("someone to move");
        let reverse = match last[seat.index()] {
            Some(Action::Step { from, to }) => Some(Action::Step { from: to, to: from }),
            _ => None,
        };
        let chosen = match actions
            .iter()
            .find(|legal| Some(&legal.action) == reverse.as_ref())
        {
            Some(legal) if rng.random_bool(undo) => legal,
            _ => &actions[rng.random_range(0..actions.len())],
        };
        last[seat.index()] = Some(chosen.action.clone());
        let played = game.play(seat, &chosen.action).expect("a listed action");
        assert_eq!(played.notation, chosen.notation);
        observe(Moment::After {
            game: &game,
            action: &chosen.action,
            effects: &played.effects,
        });
    }
    panic!("a game from {seeds:?}/{moves} passed {MAX_PLIES} actions");
}

fn position<V: Variant>(game: &Match<Army<V>>) -> &Army<V> {
    game.position().expect("in play")
}

// ------------------------------------------------------------------------------------------

fn games_end<V: Variant>(seeds: [u64; 2], moves: u64) {
    let mut quiet = 0;
    let plies = walk::<V>(seeds, moves, 0.5, |moment| {
        if let Moment::After { game, effects, .. } = moment {
            let battle_or_removal = effects
                .iter()
                .any(|effect| matches!(effect, Effect::Battle { .. } | Effect::Removed { .. }));
            quiet = if battle_or_removal { 0 } else { quiet + 1 };
            assert!(quiet <= 400, "{quiet} quiet turns in {game:?}");
            if quiet == 400 {
                assert_eq!(game.outcome().map(|o| o.reason.code()), Some("MOVE_LIMIT"));
            }
        }
    });
    assert!(plies > 0);
}

/// Every listed action passes `check` and its notation reads back to it; steps that are
/// not listed (from each own piece to every cell, on a sample of plies, and arbitrary ones
/// on every ply, off-board cells included) are refused by `check` and by `Game::play`,
/// which leaves the game unchanged.
fn listed_is_legal<V: Variant + PartialEq>(seeds: [u64; 2], moves: u64) {
    let description = Army::<V>::description();
    let (width, height) = (
        description.board.width as i8,
        description.board.height as i8,
    );
    let mut bans = 0;
    let mut last: [Option<Action>; 2] = [None, None];
    let plies = walk::<V>(seeds, moves, 0.6, |moment| {
        let (game, ply, rng) = match moment {
            Moment::Before { game, ply, rng } => (game, ply, rng),
            Moment::After { game, action, .. } => {
                last[(!position(game).to_move()).index()] = Some(action.clone());
                return;
            }
        };
        let listed: HashSet<Action> = game
            .legal_actions()
            .into_iter()
            .map(|legal| {
                let parsed = game.parse_notation(&legal.notation).expect("notation");
                assert_eq!(parsed, legal.action, "{}", legal.notation);
                let checked = position(game).check(&legal.action);
                assert!(checked.is_ok(), "{}: {checked:?}", legal.notation);
                legal.action
            })
            .collect();
        let mut candidates = Vec::new();
        let cell = |rng: &mut ChaCha8Rng| {
            Cell::new(rng.random_range(-1..=width), rng.random_range(-1..=height))
        };
        for _ in 0..4 {
            candidates.push(Action::Step {
                from: cell(rng),
                to: cell(rng),
            });
        }
        let mover = position(game).to_move();
        if ply % 40 == 0 || game.outcome().is_some() {
            let view = position(game).view(Sight::Everything);
            for piece in view.pieces.iter().filter(|piece| piece.owner == mover) {
                for x in 0..width {
                    for y in 0..height {
                        candidates.push(Action::Step {
                            from: piece.cell.expect("on the board"),
                            to: Cell::new(x, y),
                        });
                    }
                }
            }
        }
        // The undo of the mover's last move, often under a repetition ban.
        if let Some(Action::Step { from, to }) = last[mover.index()] {
            candidates.push(Action::Step { from: to, to: from });
        }
        for action in candidates {
            if listed.contains(&action) {
                continue;
            }
            let error = position(game).check(&action).expect_err("not listed");
            if error.to_string().contains("times in a row") {
                bans += 1;
            }
            let before = position(game).clone();
            assert!(game.play(mover, &action).is_err(), "{action:?}");
            assert_eq!(
                position(game),
                &before,
                "a refused {action:?} changed the game"
            );
        }
    });
    assert!(
        bans > 0 || plies < 100,
        "no repetition ban met in {plies} plies"
    );
}

/// What each seat has learnt about each piece, tracked from the public effects alone.
#[derive(Default)]
struct Knowledge {
    revealed: HashSet<PieceId>,
    moved: HashSet<PieceId>,
    /// What each hidden piece's moves showed: the revealed enemy kinds it could have
    /// attacked on its owner's turn and did not.
    conduct: BTreeMap<PieceId, Conduct>,
}

/// `view` is what `viewer` may see of `full`: the same pieces, squares, owners and public
/// flags, and a kind exactly where the viewer owns the piece or it was revealed.
fn check_view(view: &View, full: &View, viewer: Viewer, knowledge: &Knowledge) {
    fn by_id(pieces: &[PieceView]) -> BTreeMap<PieceId, &PieceView> {
        pieces.iter().map(|piece| (piece.id, piece)).collect()
    }
    assert_eq!(view.to_move, full.to_move);
    assert_eq!(view.status, full.status);
    for (seen, truth) in [
        (&view.pieces, &full.pieces),
        (&view.captured, &full.captured),
    ] {
        let (seen, truth) = (by_id(seen), by_id(truth));
        assert_eq!(
            seen.keys().collect::<Vec<_>>(),
            truth.keys().collect::<Vec<_>>()
        );
        for (id, piece) in seen {
            let real = truth[&id];
            assert_eq!(
                (piece.cell, piece.owner, piece.revealed, piece.moved),
                (real.cell, real.owner, real.revealed, real.moved)
            );
            assert_eq!(piece.revealed, knowledge.revealed.contains(&id), "{id:?}");
            assert_eq!(piece.moved, knowledge.moved.contains(&id), "{id:?}");
            let conduct = knowledge.conduct.get(&id).copied().unwrap_or_default();
            assert_eq!(
                piece.conduct, conduct,
                "{viewer:?} sees the conduct of {id:?}"
            );
            let may_know = viewer == Viewer::Player(piece.owner) || piece.revealed;
            let expected = may_know.then_some(real.kind).flatten();
            assert_eq!(piece.kind, expected, "{viewer:?} sees {id:?}");
        }
    }
}

fn views_never_leak<V: Variant>(seeds: [u64; 2], moves: u64) {
    let mut knowledge = Knowledge::default();
    let viewers = [
        Viewer::Player(Seat::First),
        Viewer::Player(Seat::Second),
        Viewer::Spectator,
    ];
    let check = |game: &Match<Army<V>>, knowledge: &Knowledge| {
        let full = position(game).view(Sight::Everything);
        assert!(full.pieces.iter().all(|piece| piece.kind.is_some()));
        for viewer in viewers {
            let view = game.view(viewer);
            if game.outcome().is_some() {
                // After the end everything is public.
                assert_eq!(view, full, "{viewer:?}");
            } else {
                check_view(&view, &full, viewer, knowledge);
            }
        }
    };
    let mut at_cell: BTreeMap<Cell, PieceId> = BTreeMap::new();
    let trenches: Vec<Cell> = (V::spec().description.board.cells.iter())
        .filter(|info| info.terrain == Terrain::Trench)
        .map(|info| info.cell)
        .collect();
    // Before each action, from public knowledge: the mover's hidden movable pieces next to
    // a revealed enemy piece outside a trench, each with that piece's cell and kind.
    let mut could_attack: Vec<(PieceId, Cell, Cell, KindId)> = Vec::new();
    walk::<V>(seeds, moves, 0.3, |moment| match moment {
        Moment::Before { game, ply, .. } => {
            // Who stands where, to turn the next action into a piece id.
            let full = position(game).view(Sight::Everything);
            at_cell = (full.pieces.iter())
                .map(|piece| (piece.cell.expect("on the board"), piece.id))
                .collect();
            let mover = position(game).to_move();
            let public = |piece: &&PieceView| knowledge.revealed.contains(&piece.id);
            let movable = |piece: &PieceView| {
                let kind = piece.kind.expect("every kind");
                game.description().kinds[kind.index()].movable
            };
            could_attack = (full.pieces.iter())
                .filter(|piece| piece.owner == mover && !public(piece) && movable(piece))
                .flat_map(|piece| {
                    let cell = piece.cell.expect("on the board");
                    (full.pieces.iter())
                        .filter(public)
                        .filter(|enemy| enemy.owner != mover)
                        .filter_map(|enemy| Some((enemy.cell?, enemy.kind?)))
                        .filter(|(at, _)| !trenches.contains(at))
                        .filter(move |(at, _)| (at.x - cell.x).abs() + (at.y - cell.y).abs() == 1)
                        .map(move |(at, kind)| (piece.id, cell, at, kind))
                })
                .collect();
            // Every later state is checked right after the action that made it.
            if ply == 0 {
                check(game, &knowledge);
            }
        }
        Moment::After {
            game,
            action,
            effects,
        } => {
            let Action::Step { from, to } = action else {
                panic!("army actions are steps")
            };
            knowledge.moved.insert(at_cell[from]);
            for &(id, cell, enemy, kind) in &could_attack {
                if (cell, enemy) != (*from, *to) {
                    knowledge
                        .conduct
                        .entry(id)
                        .or_default()
                        .declined
                        .insert(kind);
                }
            }
            for effect in effects {
                match effect {
                    Effect::Battle {
                        attacker, defender, ..
                    } => {
                        knowledge.revealed.insert(attacker.0);
                        knowledge.revealed.insert(defender.0);
                    }
                    Effect::Revealed { piece, .. } => {
                        knowledge.revealed.insert(*piece);
                    }
                    _ => {}
                }
            }
            check(game, &knowledge);
        }
    });
}

/// `from_position_text(position_text(p))` prints the same text, holds the same pieces
/// with the same seat to move, and lists the same moves unless the mover is under a
/// repetition ban (position text carries no history), in which case it lists exactly the
/// banned move more.
fn position_text_round_trips<V: Variant>(seeds: [u64; 2], moves: u64) {
    let limit = u32::from(V::spec().data.repetition_limit);
    // Per seat: the last move onto an empty square and its shuttle count.
    let mut shuttles: [Option<(Cell, Cell, u32)>; 2] = [None, None];
    fn board(view: &View) -> BTreeSet<(Cell, Seat, Option<KindId>)> {
        view.pieces
            .iter()
            .map(|piece| (piece.cell.expect("on the board"), piece.owner, piece.kind))
            .collect()
    }
    fn actions<V: Variant>(position: &Army<V>) -> BTreeSet<(Cell, Cell)> {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| match position.action(mv) {
                Action::Step { from, to } => (from, to),
                other => panic!("{other:?}"),
            })
            .collect()
    }
    let mut bans = 0;
    let plies = walk::<V>(seeds, moves, 0.6, |moment| match moment {
        Moment::Before { game, .. } => {
            let original = position(game);
            if original.outcome().is_some() {
                return;
            }
            let text = original.position_text();
            let copy = Army::<V>::from_position_text(&text).expect("printed text reads back");
            assert_eq!(copy.position_text(), text);
            assert_eq!(copy.to_move(), original.to_move());
            assert_eq!(copy.outcome(), None, "{text}");
            assert_eq!(
                board(&copy.view(Sight::Everything)),
                board(&original.view(Sight::Everything))
            );
            let (before, after) = (actions(original), actions(&copy));
            match shuttles[original.to_move().index()] {
                Some((from, to, count)) if count >= limit => {
                    // The only difference may be the banned move back, and only while the
                    // shuttling piece still stands there and its square of origin is empty.
                    let extra: Vec<_> = after.difference(&before).collect();
                    assert!(
                        extra.is_empty() || extra == [&(to, from)],
                        "{text}: {extra:?}"
                    );
                    assert!(before.is_subset(&after), "{text}");
                    bans += extra.len();
                }
                _ => assert_eq!(before, after, "{text}"),
            }
        }
        Moment::After {
            game,
            action,
            effects,
        } => {
            let Action::Step { from, to } = *action else {
                panic!("army actions are steps")
            };
            let seat = !position(game).to_move();
            let battle = effects
                .iter()
                .any(|effect| matches!(effect, Effect::Battle { .. }));
            shuttles[seat.index()] = if battle {
                None
            } else {
                match shuttles[seat.index()] {
                    Some((a, b, count)) if a == to && b == from => Some((from, to, count + 1)),
                    _ => Some((from, to, 1)),
                }
            };
        }
    });
    assert!(
        bans > 0 || plies < 100,
        "no repetition ban met in {plies} plies"
    );
}

/// One proptest per property for a ruleset, each with `cases` random games.
macro_rules! properties {
    ($variant:ty: $($name:ident $cases:literal),* $(,)?) => {
        $(
            proptest! {
                #![proptest_config(ProptestConfig::with_cases($cases))]
                #[test]
                fn $name(rojo in any::<u64>(), azul in any::<u64>(), moves in any::<u64>()) {
                    super::$name::<$variant>([rojo, azul], moves);
                }
            }
        )*
    };
}

mod frente {
    use super::*;

    properties!(Frente: games_end 16, listed_is_legal 3, views_never_leak 4, position_text_round_trips 3);
}

mod clasico {
    use super::*;

    properties!(Clasico: games_end 16, listed_is_legal 3, views_never_leak 4, position_text_round_trips 3);
}

mod castillos {
    use super::*;

    properties!(Castillos: games_end 16, listed_is_legal 3, views_never_leak 4, position_text_round_trips 3);
}
