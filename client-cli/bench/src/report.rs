//! The benchmark's findings: the table on stdout, or one JSON document with `--json`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

use clap::ValueEnum;
use serde_json::{Value, json};

use crate::flood::Flooded;
use crate::options::BenchArgs;
use crate::stats::{Samples, Summary};
use crate::watchers::Watched;

/// One measured kind of call.
#[derive(Debug)]
pub struct Phase {
    /// Calls completed within the phase.
    pub calls: u64,
    /// Calls per second of the phase.
    pub per_second: f64,
    /// Their latencies.
    pub latency: Option<Summary>,
}

impl Phase {
    /// The phase of `duration` whose calls took `samples`.
    pub fn of(duration: Duration, mut samples: Samples) -> Phase {
        let calls = samples.len() as u64;
        Phase {
            calls,
            per_second: calls as f64 / duration.as_secs_f64(),
            latency: samples.summary(),
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "calls": self.calls,
            "per_second": round(self.per_second, 1),
            "latency_ms": latency_json(self.latency.as_ref()),
        })
    }
}

/// The servers measured, for a title.
fn servers(args: &BenchArgs, url: &str) -> String {
    std::iter::once(url)
        .chain(args.replica.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// How fast the games move, for a title.
fn pace(args: &BenchArgs) -> String {
    args.pace.map_or("moving flat out".to_owned(), |pace| {
        format!("a move every {:.2} s per game", pace.as_secs_f64())
    })
}

/// `--curve --json`: every size's report.
fn curve_json(reports: &[Report]) -> Value {
    json!({ "curve": reports.iter().map(Report::to_json).collect::<Vec<_>>() })
}

/// `--curve`: a row per size, so that the cost of more games shows.
fn curve_text(args: &BenchArgs, reports: &[Report]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "trinchera bench --curve: {} — {}, {}, {:.1} s per size, {} spectator(s) per game\n",
        servers(args, reports.first().map_or("", |r| r.url.as_str())),
        args.ruleset.join(","),
        pace(args),
        args.duration.as_secs_f64(),
        args.watchers
    );
    let _ = writeln!(
        out,
        "{:>7} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7}",
        "games",
        "streams",
        "moves/s",
        "move p50",
        "move p99",
        "fan p50",
        "fan p99",
        "RSS MiB",
        "KiB/game",
        "µs/move",
        "ratio",
        "errors"
    );
    let ms = |summary: Option<Summary>, pick: fn(&Summary) -> u64| {
        summary.map_or("-".to_owned(), |s| format!("{:.2}", pick(&s) as f64 / 1e6))
    };
    let or_dash = |value: Option<f64>, digits: usize| {
        value.map_or("-".to_owned(), |v| format!("{v:.digits$}"))
    };
    for report in reports {
        let moves = report.moves.as_ref().and_then(|p| p.latency);
        let fan = report.fan_out.as_ref().and_then(|(_, p)| p.latency);
        let streams = report.args.watchers
            + if report.args.moves_from.streams() {
                2 * report.args.games
            } else {
                0
            };
        let errors: u64 = report.errors.values().sum::<u64>() + report.missed();
        let _ = writeln!(
            out,
            "{:>7} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7}",
            report.args.games,
            streams,
            or_dash(report.moves.as_ref().map(|p| p.per_second), 0),
            ms(moves, |s| s.p50),
            ms(moves, |s| s.p99),
            ms(fan, |s| s.p50),
            ms(fan, |s| s.p99),
            or_dash(report.rss_after.map(|kib| kib as f64 / 1024.0), 0),
            or_dash(report.rss_per_game(), 1),
            or_dash(report.cpu_per_move_us(), 1),
            or_dash(report.ratio(), 3),
            errors
        );
    }
    out.push_str(
        "\nmove: MakeMove latency, fan: a spectator's event after the mover's ack (ms); \
         KiB/game: the server's RSS growth over the row over its games; \
         ratio: MakeMove/s over Health/Check/s; errors: failed calls and missed events\n",
    );
    out
}

/// `cpu` seconds over the calls of `moves`, in µs a call.
fn per_move_us(moves: &Phase, cpu: f64) -> Option<f64> {
    (moves.calls > 0).then(|| cpu * 1e6 / moves.calls as f64)
}

fn round(value: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (value * scale).round() / scale
}

fn latency_json(latency: Option<&Summary>) -> Value {
    latency.map_or(Value::Null, |summary| {
        summary
            .millis()
            .into_iter()
            .map(|(key, ms)| (key.to_owned(), json!(round(ms, 3))))
            .collect::<serde_json::Map<_, _>>()
            .into()
    })
}

/// Everything one measurement found.
#[derive(Debug)]
pub struct Report {
    /// The server.
    pub url: String,
    /// The options of the measurement (with `--curve`, of its size).
    pub args: BenchArgs,
    /// Connections used.
    pub connections: u32,
    /// The server's process, when known.
    pub server_pid: Option<u32>,
    /// Load averages when the run started.
    pub load_before: Option<[f64; 3]>,
    /// Load averages when it ended.
    pub load_after: Option<[f64; 3]>,
    /// Server RSS in KiB before the run.
    pub rss_before: Option<u64>,
    /// Server RSS in KiB after it.
    pub rss_after: Option<u64>,
    /// Server CPU seconds over the MakeMove phase.
    pub moves_cpu: Option<f64>,
    /// The bench client's own CPU seconds over the MakeMove phase.
    pub client_cpu: Option<f64>,
    /// Health checks.
    pub baseline: Option<Phase>,
    /// MakeMove calls.
    pub moves: Option<Phase>,
    /// MakeMove calls by ruleset, when the games were of several.
    pub by_ruleset: Vec<(String, Phase)>,
    /// `--fill`: games asked for, time taken, moves played.
    pub fill: Option<(u32, Duration, u64)>,
    /// Games created.
    pub games_started: u64,
    /// Games played to their end.
    pub games_finished: u64,
    /// The watchers' findings and fan-out latencies.
    pub fan_out: Option<(Watched, Phase)>,
    /// What the login flood did, when there was one.
    pub login_flood: Option<Flooded>,
    /// Failed calls by status code.
    pub errors: BTreeMap<String, u64>,
    /// The first failure's message.
    pub first_error: Option<String>,
}

impl Report {
    /// MakeMove throughput over health-check throughput.
    fn ratio(&self) -> Option<f64> {
        match (&self.moves, &self.baseline) {
            (Some(moves), Some(base)) if base.per_second > 0.0 => {
                Some(moves.per_second / base.per_second)
            }
            _ => None,
        }
    }

    /// Server CPU per move over the MakeMove phase, in µs.
    fn cpu_per_move_us(&self) -> Option<f64> {
        per_move_us(self.moves.as_ref()?, self.moves_cpu?)
    }

    /// The client's CPU per move over the MakeMove phase, in µs.
    fn client_cpu_per_move_us(&self) -> Option<f64> {
        per_move_us(self.moves.as_ref()?, self.client_cpu?)
    }

    /// Server RSS growth per game played at once, in KiB.
    fn rss_per_game(&self) -> Option<f64> {
        let (before, after) = (self.rss_before?, self.rss_after?);
        let games = self.fill.map_or(self.args.games, |(total, _, _)| total);
        Some((after as f64 - before as f64) / f64::from(games))
    }

    fn moves_from(&self) -> String {
        self.args
            .moves_from
            .to_possible_value()
            .map_or_else(String::new, |value| value.get_name().to_owned())
    }

    /// The `--json` document.
    pub fn to_json(&self) -> Value {
        let load = |load: Option<[f64; 3]>| load.map_or(Value::Null, |l| json!(l));
        json!({
            "server": self.url,
            "replicas": self.args.replica,
            "server_pid": self.server_pid,
            "games": self.args.games,
            "rulesets": self.args.ruleset,
            "duration_s": self.args.duration.as_secs_f64(),
            "connections": self.connections,
            "client_threads": self.args.client_threads,
            "moves_from": self.moves_from(),
            "pace_s": self.args.pace.map(|pace| pace.as_secs_f64()),
            "load_average": {"before": load(self.load_before), "after": load(self.load_after)},
            "make_move": self.moves.as_ref().map(Phase::to_json),
            "make_move_by_ruleset": self
                .by_ruleset
                .iter()
                .map(|(ruleset, phase)| (ruleset.clone(), phase.to_json()))
                .collect::<serde_json::Map<_, _>>(),
            "baseline": self.baseline.as_ref().map(Phase::to_json),
            "ratio": self.ratio().map(|r| round(r, 3)),
            "games_started": self.games_started,
            "games_finished": self.games_finished,
            "server_cpu_us_per_move": self.cpu_per_move_us().map(|us| round(us, 1)),
            "client_cpu_us_per_move": self.client_cpu_per_move_us().map(|us| round(us, 1)),
            "server_rss_kib": match (self.rss_before, self.rss_after) {
                (Some(before), Some(after)) => json!({
                    "before": before,
                    "after": after,
                    "per_game": self.rss_per_game().map(|r| round(r, 1)),
                }),
                _ => Value::Null,
            },
            "fan_out": self.fan_out.as_ref().map(|(watched, latency)| json!({
                "watchers": self.args.watchers,
                "streams": watched.streams,
                "events": watched.events,
                "dropped": watched.dropped,
                "out_of_order": watched.out_of_order,
                "resnapshots": watched.resnapshots,
                "latency_ms": latency_json(latency.latency.as_ref()),
            })),
            "login_flood": self.login_flood.map(|flooded| json!({
                "calls": flooded.calls,
                "answered": flooded.answered,
                "other": flooded.other,
                "per_second": round(flooded.answered as f64 / self.args.duration.as_secs_f64(), 1),
            })),
            "fill": self.fill.map(|(games, took, moves)| json!({
                "games": games,
                "seconds": round(took.as_secs_f64(), 1),
                "moves": moves,
            })),
            "errors": self.errors,
            "errors_total": self.errors.values().sum::<u64>(),
        })
    }

    /// The table for people.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let args = &self.args;
        let _ = writeln!(
            out,
            "trinchera bench: {} — {} games of {}, {}, {:.1} s per phase, {} connections, {} client threads, legal moves from {}",
            servers(args, &self.url),
            args.games,
            args.ruleset.join(","),
            pace(args),
            args.duration.as_secs_f64(),
            self.connections,
            args.client_threads,
            self.moves_from()
        );
        let load = |l: Option<[f64; 3]>| {
            l.map_or("?".to_owned(), |l| {
                format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2])
            })
        };
        let _ = writeln!(
            out,
            "load average: {} at start, {} at end\n",
            load(self.load_before),
            load(self.load_after)
        );
        if let Some((games, took, moves)) = self.fill {
            let _ = writeln!(
                out,
                "filled {games} games ({} played to their end) with {moves} moves in {:.1} s",
                self.games_finished,
                took.as_secs_f64()
            );
        }
        let by_ruleset = self
            .by_ruleset
            .iter()
            .map(|(ruleset, phase)| (format!("  {ruleset}"), Some(phase)));
        let phases: Vec<(String, Option<&Phase>)> =
            std::iter::once(("MakeMove".to_owned(), self.moves.as_ref()))
                .chain(by_ruleset)
                .chain([("Health/Check".to_owned(), self.baseline.as_ref())])
                .collect();
        if phases.iter().any(|(_, p)| p.is_some()) {
            let _ = writeln!(
                out,
                "{:<14} {:>10} {:>10} {:>8} {:>8} {:>8} {:>8}  (latency, ms)",
                "", "calls", "per s", "p50", "p90", "p99", "max"
            );
        }
        for (name, phase) in &phases {
            let Some(phase) = phase else { continue };
            let _ = write!(
                out,
                "{name:<14} {:>10} {:>10.1}",
                phase.calls, phase.per_second
            );
            if let Some(l) = phase.latency {
                let ms = |ns: u64| ns as f64 / 1e6;
                let _ = write!(
                    out,
                    " {:>8.3} {:>8.3} {:>8.3} {:>8.3}",
                    ms(l.p50),
                    ms(l.p90),
                    ms(l.p99),
                    ms(l.max)
                );
            }
            out.push('\n');
        }
        if let Some(ratio) = self.ratio() {
            let _ = writeln!(out, "MakeMove/baseline throughput: {ratio:.3}");
        }
        if self.moves.is_some() {
            let _ = writeln!(
                out,
                "games: {} started, {} played to their end",
                self.games_started, self.games_finished
            );
        }
        if let Some(us) = self.cpu_per_move_us() {
            let _ = write!(out, "server CPU: {us:.1} µs per move (user + system)");
            if let Some(client) = self.client_cpu_per_move_us() {
                let _ = write!(out, "; this client: {client:.1} µs per move");
            }
            out.push('\n');
        }
        match (self.server_pid, self.rss_before, self.rss_after) {
            (Some(pid), Some(before), Some(after)) => {
                let _ = writeln!(
                    out,
                    "server RSS (pid {pid}): {:.1} MiB before, {:.1} MiB after, {:+.1} KiB per game",
                    before as f64 / 1024.0,
                    after as f64 / 1024.0,
                    self.rss_per_game().unwrap_or_default()
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    "server RSS: unknown (not a local server; pass --server-pid)"
                );
            }
        }
        if let Some((watched, latency)) = &self.fan_out {
            let _ = write!(
                out,
                "fan-out: {} watchers, {} streams, {} events, {} dropped, {} out of order, {} snapshots after lag",
                args.watchers,
                watched.streams,
                watched.events,
                watched.dropped,
                watched.out_of_order,
                watched.resnapshots
            );
            if let Some(l) = latency.latency {
                let ms = |ns: u64| ns as f64 / 1e6;
                let _ = write!(
                    out,
                    "; latency after the ack p50 {:.3} p90 {:.3} p99 {:.3} max {:.3} ms",
                    ms(l.p50),
                    ms(l.p90),
                    ms(l.p99),
                    ms(l.max)
                );
            }
            out.push('\n');
        }
        if let Some(flooded) = self.login_flood {
            let _ = writeln!(
                out,
                "login flood: {} wrong sign-ins in flight, {} answered ({:.1} a second), {} refused otherwise (a rate limit?)",
                flooded.calls,
                flooded.answered,
                flooded.answered as f64 / args.duration.as_secs_f64(),
                flooded.other
            );
        }
        if self.errors.is_empty() {
            out.push_str("errors: none\n");
        } else {
            let list: Vec<String> = self
                .errors
                .iter()
                .map(|(code, n)| format!("{code} {n}"))
                .collect();
            let _ = writeln!(
                out,
                "errors: {} (first: {})",
                list.join(", "),
                self.first_error.as_deref().unwrap_or("?")
            );
        }
        out
    }

    /// Events the watchers missed: streams dropped, events out of order, snapshots after lag.
    fn missed(&self) -> u64 {
        self.fan_out
            .as_ref()
            .map_or(0, |(w, _)| w.dropped + w.out_of_order + w.resnapshots)
    }

    /// Whether the measurement was clean: no call failed and no watcher missed anything.
    fn verdict(&self) -> Result<(), Failed> {
        let failed = Failed {
            calls: self.errors.values().sum(),
            missed: self.missed(),
        };
        if failed.calls == 0 && failed.missed == 0 {
            return Ok(());
        }
        Err(failed)
    }
}

/// What a run found: one measurement's report, or with `--curve` one per size.
#[derive(Debug)]
pub struct Findings(Measured);

/// The reports of [`Findings`].
#[derive(Debug)]
enum Measured {
    /// One measurement (boxed: a report is large beside a curve's list of them).
    One(Box<Report>),
    /// `--curve`: the run's options and a measurement per size.
    Curve(BenchArgs, Vec<Report>),
}

impl Findings {
    /// The findings of one measurement.
    pub(crate) fn one(report: Report) -> Findings {
        Findings(Measured::One(Box::new(report)))
    }

    /// The findings of a `--curve` run of `args`, a report per size.
    pub(crate) fn curve(args: &BenchArgs, reports: Vec<Report>) -> Findings {
        Findings(Measured::Curve(args.clone(), reports))
    }

    /// The table for people: the phases measured with their latencies, or with `--curve`
    /// a row per size.
    pub fn to_text(&self) -> String {
        match &self.0 {
            Measured::One(report) => report.to_text(),
            Measured::Curve(args, reports) => curve_text(args, reports),
        }
    }

    /// The `--json` document: the report, or with `--curve` `{"curve": [report, …]}`.
    pub fn to_json(&self) -> Value {
        match &self.0 {
            Measured::One(report) => report.to_json(),
            Measured::Curve(_, reports) => curve_json(reports),
        }
    }

    /// Whether the run was clean; otherwise (a call failed, a watcher missed events) what
    /// went wrong, for the first measurement that was not.
    pub fn verdict(&self) -> Result<(), Failed> {
        match &self.0 {
            Measured::One(report) => report.verdict(),
            Measured::Curve(_, reports) => reports.iter().try_for_each(Report::verdict),
        }
    }
}

/// A measurement that was not clean, counted.
#[derive(Debug, thiserror::Error)]
#[error("{calls} calls failed and watchers missed {missed} times")]
pub struct Failed {
    /// Calls that failed, whatever their status.
    pub calls: u64,
    /// Events the watchers missed: streams dropped, events out of order, snapshots after
    /// lag.
    pub missed: u64,
}
