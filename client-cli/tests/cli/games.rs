//! Whole games of every hosted ruleset, driven by two `trinchera --json` processes (one per
//! seat) with `moves` and `move` only, then checked with `verify`.

use std::time::Instant;

use serde_json::Value;

use crate::harness::{Game, Lcg, Server, User};

/// Most moves a test game may take before the player to move resigns: most games end
/// sooner, but a random army game can wander for hundreds of moves at ~50 ms each (two
/// processes per move in a debug build), and a resignation is a real end too.
const MOVE_LIMIT: usize = 200;

/// The rows of a `c4-c5` step, if the notation is one.
fn step_rows(notation: &str) -> Option<(i32, i32)> {
    let (from, to) = notation.split_once(['-', 'x'])?;
    let row = |cell: &str| {
        cell.trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .parse()
            .ok()
    };
    Some((row(from)?, row(to)?))
}

/// Whether `notation` heads toward the enemy: a step to a row farther from one's own edge,
/// a tank maneuver of two steps forward, a tank entering with its cannon forward.
fn toward_enemy(notation: &str, seat: i64) -> bool {
    let ahead = if seat == 0 { " N" } else { " S" };
    step_rows(notation).is_some_and(|(from, to)| if seat == 0 { to > from } else { to < from })
        || notation.ends_with(" FF")
        || (notation.starts_with("enter") && notation.contains(ahead))
}

/// A move choice that ends games sooner than a uniform one: attacks and captures first,
/// then mostly moves toward the enemy, tank phases that end now and then.
fn choose<'a>(legal: &[&'a str], seat: i64, rng: &mut Lcg) -> &'a str {
    let attacks: Vec<&str> = legal
        .iter()
        .copied()
        .filter(|m| m.contains('x') || m.starts_with("attack"))
        .collect();
    if !attacks.is_empty() {
        return attacks[rng.below(attacks.len())];
    }
    let forward: Vec<&str> = legal
        .iter()
        .copied()
        .filter(|m| toward_enemy(m, seat))
        .collect();
    if !forward.is_empty() && rng.below(8) != 0 {
        return forward[rng.below(forward.len())];
    }
    if legal.contains(&"end") && rng.below(2) == 0 {
        return "end";
    }
    legal[rng.below(legal.len())]
}

/// Plays `game` to its end; returns the number of moves and the final view.
pub fn play_out(game: &Game, rng: &mut Lcg) -> (usize, Value) {
    let mut to_move = game.players[0].json(&["moves", &game.id])["to_move"].as_i64();
    let mut count = 0;
    while let Some(seat) = to_move {
        let player = &game.players[seat as usize];
        if count == MOVE_LIMIT {
            let resigned = player.json(&["resign", "--yes", &game.id]);
            return (count, resigned["view"].clone());
        }
        let moves = player.json(&["moves", &game.id]);
        assert_eq!(moves["to_move"], seat, "{moves}");
        let legal: Vec<&str> = moves["legal_moves"]
            .as_array()
            .expect("legal moves")
            .iter()
            .map(|m| m["notation"].as_str().expect("notation"))
            .collect();
        assert!(!legal.is_empty(), "the seat to move has moves: {moves}");
        let version = moves["version"].to_string();
        let choice = choose(&legal, seat, rng);
        let reply = player.json(&["move", "--expect-version", &version, &game.id, choice]);
        assert_eq!(reply["event"]["notation"], choice, "{reply}");
        count += 1;
        if reply["view"]["phase"] == "PHASE_FINISHED" {
            return (count, reply["view"].clone());
        }
        to_move = reply["view"]["to_move"].as_i64();
    }
    panic!("nobody is to move in an unfinished game");
}

#[test]
fn every_hosted_ruleset_plays_to_the_end_and_verifies_as_fair() {
    let server = Server::start();
    let rulesets = User::new(&server).json(&["rulesets"]);
    let ids: Vec<&str> = rulesets["rulesets"]
        .as_array()
        .expect("rulesets")
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect();
    assert!(ids.len() >= 4, "{ids:?}");
    for (index, id) in ids.iter().enumerate() {
        let started = Instant::now();
        let game = Game::start(&server, id);
        game.random_setups();
        let (moves, view) = play_out(&game, &mut Lcg(index as u64 + 7));
        assert_eq!(view["phase"], "PHASE_FINISHED", "{view}");
        let reason = view["result"]["reason"].as_str().expect("a result");
        eprintln!("{id}: {moves} moves, {reason}, {:?}", started.elapsed());
        for player in &game.players {
            let report = player.json(&["verify", &game.id]);
            assert_eq!(report["fair"], true, "{id}: {report}");
            assert_eq!(report["verdict"], "fair");
        }
    }
}
