//! `trinchera bench`: short runs against the in-process server, checking the report's shape
//! and that a normal run has no errors.

use serde_json::Value;

use crate::harness::{Server, User};

/// Runs `bench --json` with `args`, asserts success and returns the report.
fn bench(user: &User, args: &[&str]) -> Value {
    let mut all = vec!["--json", "bench"];
    all.extend_from_slice(args);
    let run = user.run(&all);
    assert_eq!(run.code, 0, "bench {args:?} failed: {run:?}");
    assert!(
        run.stderr
            .lines()
            .all(|line| line.contains("calls") || line.starts_with("curve ")),
        "progress lines mention calls, or the size the curve is at: {}",
        run.stderr
    );
    run.json()
}

fn latency_fields(latency: &Value) {
    for key in ["p50", "p90", "p99", "max", "mean"] {
        assert!(latency[key].as_f64().is_some(), "{key} in {latency}");
    }
    assert!(latency["p50"].as_f64() <= latency["p99"].as_f64());
    assert!(latency["p99"].as_f64() <= latency["max"].as_f64());
}

#[test]
fn moves_and_baseline_are_measured_with_no_errors() {
    let server = Server::start();
    let user = User::new(&server);
    let report = bench(
        &user,
        &[
            "--games",
            "4",
            "--duration",
            "2s",
            "--ruleset",
            "frente,asalto",
        ],
    );
    assert_eq!(report["errors_total"], 0, "{report}");
    assert_eq!(report["errors"], serde_json::json!({}));
    assert_eq!(report["games"], 4);
    assert_eq!(report["moves_from"], "watch");
    let moves = &report["make_move"];
    assert!(moves["calls"].as_u64() > Some(0), "{report}");
    assert!(moves["per_second"].as_f64() > Some(0.0));
    latency_fields(&moves["latency_ms"]);
    let baseline = &report["baseline"];
    assert!(baseline["calls"].as_u64() > Some(0), "{report}");
    latency_fields(&baseline["latency_ms"]);
    assert!(report["ratio"].as_f64() > Some(0.0));
    assert!(report["games_started"].as_u64() >= Some(4));
    // The server runs in the test process, found by its listening port.
    assert_eq!(report["server_pid"], std::process::id());
    assert!(report["server_rss_kib"]["before"].as_u64() > Some(0));
    assert!(
        report["server_cpu_us_per_move"].as_f64() > Some(0.0),
        "{report}"
    );
    assert!(report["server_rss_kib"]["after"].as_u64() > Some(0));
    assert_eq!(
        report["load_average"]["before"].as_array().map(Vec::len),
        Some(3)
    );
    assert!(report["fan_out"].is_null());
}

#[test]
fn watchers_get_every_event_in_order() {
    let server = Server::start();
    let user = User::new(&server);
    let report = bench(
        &user,
        &[
            "--games",
            "2",
            "--watchers",
            "6",
            "--duration",
            "1500ms",
            "--no-baseline",
            "--moves-from",
            "get-view",
        ],
    );
    assert_eq!(report["errors_total"], 0, "{report}");
    assert!(report["baseline"].is_null());
    assert!(report["ratio"].is_null());
    assert_eq!(report["moves_from"], "get-view");
    let fan_out = &report["fan_out"];
    assert_eq!(fan_out["watchers"], 6);
    assert!(fan_out["streams"].as_u64() >= Some(6), "{report}");
    assert!(fan_out["events"].as_u64() > Some(0), "{report}");
    for missed in ["dropped", "out_of_order", "resnapshots"] {
        assert_eq!(fan_out[missed], 0, "{missed}: {report}");
    }
    latency_fields(&fan_out["latency_ms"]);
}

#[test]
fn lean_and_whole_view_clients_play_from_their_streams_alone() {
    let server = Server::start();
    let user = User::new(&server);
    for moves_from in ["watch-lean", "watch-whole"] {
        let report = bench(
            &user,
            &[
                "--games",
                "3",
                "--watchers",
                "3",
                "--duration",
                "1500ms",
                "--no-baseline",
                "--moves-from",
                moves_from,
                "--ruleset",
                "frente,tanques,asalto",
            ],
        );
        assert_eq!(report["errors_total"], 0, "{report}");
        assert_eq!(report["moves_from"], moves_from);
        assert!(report["make_move"]["calls"].as_u64() > Some(0), "{report}");
        let fan_out = &report["fan_out"];
        assert!(fan_out["events"].as_u64() > Some(0), "{report}");
        for missed in ["dropped", "out_of_order", "resnapshots"] {
            assert_eq!(fan_out[missed], 0, "{missed}: {report}");
        }
        latency_fields(&fan_out["latency_ms"]);
    }
}

#[test]
fn fill_creates_finished_and_unfinished_games() {
    let server = Server::start();
    let user = User::new(&server);
    let report = bench(
        &user,
        &["--fill", "6", "--fill-events", "10..30", "--games", "3"],
    );
    assert_eq!(report["errors_total"], 0, "{report}");
    assert_eq!(report["fill"]["games"], 6);
    assert!(report["fill"]["moves"].as_u64() > Some(0));
    assert_eq!(report["games_started"], 6);
    let listed = user.json(&["games", "--limit", "50"]);
    let games = listed["games"].as_array().expect("games");
    assert_eq!(games.len(), 6, "{listed}");
}

#[test]
fn baseline_only_and_bad_options() {
    let server = Server::start();
    let user = User::new(&server);
    let report = bench(
        &user,
        &["--games", "2", "--duration", "500ms", "--baseline-only"],
    );
    assert!(report["make_move"].is_null());
    assert!(report["baseline"]["calls"].as_u64() > Some(0));
    let bad = user.run(&["bench", "--duration", "soon"]);
    assert_eq!(bad.code, 2, "{bad:?}");
    let bad = user.run(&["bench", "--fill", "3", "--fill-events", "9..2"]);
    assert_eq!(bad.code, 2, "{bad:?}");
}

#[test]
fn a_missing_server_is_reported() {
    let user = User::of("http://127.0.0.1:1");
    let run = user.run(&["bench", "--games", "1", "--duration", "1s"]);
    assert_eq!(run.code, 4, "{run:?}");
}

#[test]
fn games_are_spread_over_the_replicas() {
    let (first, second) = (Server::start(), Server::start());
    let user = User::new(&first);
    let report = bench(
        &user,
        &[
            "--games",
            "4",
            "--duration",
            "1s",
            "--no-baseline",
            "--replica",
            &second.url,
        ],
    );
    assert_eq!(report["errors_total"], 0, "{report}");
    assert_eq!(report["replicas"], serde_json::json!([second.url]));
    // Each game stays on one server: both have some.
    for server in [&first, &second] {
        let listed = User::new(server).json(&["games", "--limit", "50"]);
        let games = listed["games"].as_array().expect("games");
        assert!(!games.is_empty(), "{} has no game: {listed}", server.url);
    }
}

#[test]
fn paced_games_move_about_once_a_pace() {
    let server = Server::start();
    let user = User::new(&server);
    let report = bench(
        &user,
        &[
            "--games",
            "6",
            "--pace",
            "100ms",
            "--duration",
            "2s",
            "--no-baseline",
            "--watchers",
            "6",
            "--ruleset",
            "frente,tanques",
        ],
    );
    assert_eq!(report["errors_total"], 0, "{report}");
    assert_eq!(report["pace_s"], 0.1);
    // 6 games at 10 moves a second each over 2 s (the ramp-up is not measured): about 120,
    // far fewer than flat out (thousands), and not none.
    let moves = report["make_move"]["calls"].as_u64().expect("calls");
    assert!((40..=250).contains(&moves), "{moves} moves: {report}");
    let by_ruleset = &report["make_move_by_ruleset"];
    let per_ruleset: u64 = ["frente", "tanques"]
        .iter()
        .map(|r| by_ruleset[r]["calls"].as_u64().expect("a line per ruleset"))
        .sum();
    assert_eq!(per_ruleset, moves, "{report}");
    let fan_out = &report["fan_out"];
    for missed in ["dropped", "out_of_order", "resnapshots"] {
        assert_eq!(fan_out[missed], 0, "{missed}: {report}");
    }
    latency_fields(&fan_out["latency_ms"]);
}

#[test]
fn a_curve_measures_each_size() {
    let server = Server::start();
    let user = User::new(&server);
    let report = bench(
        &user,
        &[
            "--curve",
            "2,5",
            "--watchers",
            "1",
            "--duration",
            "700ms",
            "--no-baseline",
        ],
    );
    let rows = report["curve"].as_array().expect("a report per size");
    assert_eq!(rows.len(), 2, "{report}");
    for (row, games) in rows.iter().zip([2, 5]) {
        assert_eq!(row["games"], games, "{row}");
        assert_eq!(row["fan_out"]["watchers"], games, "{row}");
        assert_eq!(row["errors_total"], 0, "{row}");
        assert!(row["make_move"]["calls"].as_u64() > Some(0), "{row}");
        assert!(
            row["server_rss_kib"]["per_game"].as_f64().is_some(),
            "{row}"
        );
    }
    let text = user.run(&[
        "bench",
        "--curve",
        "1,3",
        "--duration",
        "300ms",
        "--no-baseline",
    ]);
    assert_eq!(text.code, 0, "{text:?}");
    let rows: Vec<&str> = text
        .stdout
        .lines()
        .filter(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 2, "a row per size: {}", text.stdout);
    assert!(rows[1].trim_start().starts_with('3'), "{}", text.stdout);
    let bad = user.run(&["bench", "--curve", "2,x"]);
    assert_eq!(bad.code, 2, "{bad:?}");
}
