//! The options of a run, as `trinchera bench` takes them on its command line.

use clap::{Args, ValueEnum};

/// The options of a run: `trinchera bench`'s flags, which the command line takes whole.
#[derive(Clone, Debug, Args)]
pub struct BenchArgs {
    /// Concurrent games (and, in the baseline, concurrent health-check loops).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// How long each measured phase lasts, e.g. `20s`, `1500ms`, `2m`.
    #[arg(long, default_value = "20s", value_parser = parse_duration)]
    pub duration: std::time::Duration,
    /// Rulesets of the games, comma-separated; games take them in turn (the report adds
    /// a line per ruleset when there are several).
    #[arg(long, default_value = "frente", value_delimiter = ',')]
    pub ruleset: Vec<String>,
    /// Play at a person's pace: each game moves on average every PACE (exponential gaps),
    /// so that G games make about G/PACE moves a second; the games start spread over the
    /// first quarter of the phase (at most 5 s). Without it every game moves flat out.
    #[arg(long, value_name = "PACE", value_parser = parse_duration)]
    pub pace: Option<std::time::Duration>,
    /// Run the measurement once for each of these game counts (e.g. `128,1000,10000`),
    /// in this order, and print one table row each: throughput, latencies, server memory
    /// per game and CPU per move side by side. With it `--watchers` counts spectators
    /// per game (`--watchers 1`: as many spectator streams as games in each row).
    #[arg(long, value_name = "GAMES,...", value_delimiter = ',', conflicts_with_all = ["fill", "baseline_only"],
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub curve: Vec<u32>,
    /// Measure only the health-check baseline.
    #[arg(long, conflicts_with_all = ["no_baseline", "fill", "watchers"])]
    pub baseline_only: bool,
    /// Skip the health-check baseline.
    #[arg(long)]
    pub no_baseline: bool,
    /// Sign-ins with a wrong password kept in flight while the games are measured (the
    /// server hashes each one): do the moves keep their latency? Start the server with
    /// `--no-rate-limits`, or its limit on failed sign-ins refuses most before hashing.
    #[arg(long, default_value_t = 0, value_name = "CALLS", conflicts_with_all = ["fill", "baseline_only"],
          value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub login_flood: u32,
    /// Spectator WatchGame streams spread over the active games, to measure fan-out.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub watchers: u32,
    /// How the simulated players learn their legal moves: from a WatchGame stream per
    /// seat, or from a GetView call before each move.
    #[arg(long, value_enum, default_value_t = MovesFrom::Watch)]
    pub moves_from: MovesFrom,
    /// HTTP/2 connections to spread the calls over (more are opened when the streams
    /// need them: at most 100 streams a connection).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub connections: u32,
    /// Worker threads of the benchmark client.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub client_threads: u32,
    /// Another server of the same games (a replica on the same database): the games are
    /// spread over --server and every --replica, each game's calls and streams on one.
    #[arg(long, value_name = "URL")]
    pub replica: Vec<String>,
    /// The server's process id, for its memory use (found by its listening port when the
    /// server runs on this machine).
    #[arg(long, value_name = "PID")]
    pub server_pid: Option<u32>,
    /// Seed of the random move choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Instead of measuring: create this many games and play each to a random length
    /// within --fill-events; about half of those that reach it resign, the rest stay
    /// unfinished.
    #[arg(long, value_name = "GAMES", conflicts_with = "watchers")]
    pub fill: Option<u32>,
    /// Event counts of filled games, as MIN..MAX.
    #[arg(long, default_value = "100..1000", value_parser = parse_range, value_name = "MIN..MAX")]
    pub fill_events: std::ops::RangeInclusive<u64>,
}

/// Where `bench` players find their legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MovesFrom {
    /// A WatchGame stream per seat, as the GUI and the CLI watch: the streams send only the
    /// pieces that changed (`piece_changes_only`); one unary call per move.
    Watch,
    /// As `watch`, with every view whole: a client that does not ask for piece changes.
    WatchWhole,
    /// As `watch`, but as a client that keeps its own board: the streams also leave out
    /// each seat's own moves (`skip_own_moves`), and MakeMove replies carry no view
    /// (`omit_view`).
    WatchLean,
    /// GetView before each move: two unary calls per move.
    GetView,
}

impl MovesFrom {
    /// Whether the simulated players watch a stream per seat.
    pub fn streams(self) -> bool {
        self != MovesFrom::GetView
    }

    /// Whether the streams (the spectators' too) send only the pieces that changed.
    pub fn piece_changes(self) -> bool {
        matches!(self, MovesFrom::Watch | MovesFrom::WatchLean)
    }

    /// Whether the simulated players keep their own board (see [`MovesFrom::WatchLean`]).
    pub fn lean(self) -> bool {
        self == MovesFrom::WatchLean
    }
}

/// A duration such as `20s`, `1500ms`, `2m` or `20` (seconds).
fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration like 20s, 1500ms or 2m"))?;
    let seconds = match unit {
        "" | "s" => number,
        "ms" => number / 1000.0,
        "m" | "min" => number * 60.0,
        _ => return Err(format!("unknown unit {unit:?}: use ms, s or m")),
    };
    std::time::Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
}

/// `MIN..MAX`, both included.
fn parse_range(text: &str) -> Result<std::ops::RangeInclusive<u64>, String> {
    let bad = || format!("{text:?} is not a range like 100..1000");
    let (min, max) = text.split_once("..").ok_or_else(bad)?;
    let min: u64 = min.trim().parse().map_err(|_| bad())?;
    let max: u64 = max.trim().parse().map_err(|_| bad())?;
    if min == 0 || min > max {
        return Err(format!("{text:?}: MIN must be at least 1 and at most MAX"));
    }
    Ok(min..=max)
}
