//! `trinchera arena`: a short run of bot games through the in-process server, checking the
//! harness and its report (strength is a benchmark, not a test).

use crate::harness::{Server, User};

#[test]
fn a_short_arena_plays_every_game_to_the_end_and_reports_both_seats() {
    let server = Server::start();
    let user = User::new(&server);
    let report = user.json(&[
        "arena",
        "--ruleset",
        "asalto",
        "--a",
        "easy",
        "--b",
        "random",
        "--games",
        "4",
        "--parallel",
        "2",
    ]);
    let rows = report["rows"].as_array().expect("rows");
    assert_eq!(
        rows.len(),
        3,
        "one row per seat of A and the total: {report}"
    );
    let total = &rows[2];
    assert_eq!(total["games"], 4, "{report}");
    let (wins, draws, losses) = (
        total["wins"].as_u64().expect("wins"),
        total["draws"].as_u64().expect("draws"),
        total["losses"].as_u64().expect("losses"),
    );
    assert_eq!(wins + draws + losses, 4);
    let interval = total["win_ci95"].as_array().expect("interval");
    assert!(interval[0].as_f64() <= interval[1].as_f64());
    assert!(report["average_moves"].as_f64().expect("length") > 0.0);
    assert!(report["move_ms"]["a"]["p99"].as_f64().is_some());

    let refused = user.run(&["arena", "--ruleset", "asalto", "--a", "genius"]);
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(
        refused.stderr.contains("levels: random, easy, hard"),
        "{refused:?}"
    );
}

#[test]
fn arena_progress_is_a_line_a_game_when_stderr_is_not_a_terminal() {
    let server = Server::start();
    let user = User::new(&server);
    let run = user.run(&[
        "arena",
        "--ruleset",
        "asalto",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "2",
        "--parallel",
        "1",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!run.stderr.contains('\r'), "{:?}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(lines[0].starts_with("1 of 2 games played"), "{lines:?}");
    assert!(lines[1].starts_with("2 of 2 games played"), "{lines:?}");
}
