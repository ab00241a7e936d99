//! The load client behind `trinchera bench`: drives a running server with concurrent games
//! and measures it against the trivial health-check RPC at the same concurrency. The
//! command line takes its options whole ([`BenchArgs`]), calls [`run`] and prints the
//! [`Findings`] as a table or one JSON document. Its latency [`Samples`] measure the bots
//! of `trinchera arena` too.
//!
//! Protocol of the simulated players (the cheapest correct one measured, docs/benchmarks/):
//! each game is played by one task holding both seats' tokens; a WatchGame stream per seat
//! brings that seat's view, with its legal moves, after every event, so a move costs one
//! unary call (MakeMove). When the seat that moved is to move again, the MakeMove reply
//! already lists its legal moves. `--moves-from get-view` calls GetView before each move
//! instead. Only MakeMove calls are timed.

mod failure;
mod flood;
mod lean;
mod machine;
mod options;
mod player;
mod report;
mod stats;
mod watchers;

pub use options::{BenchArgs, MovesFrom};
pub use report::{Failed, Findings};
pub use stats::{Samples, Summary};

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::task::JoinSet;
use trinchera_client::{ClientError, Server, Trust};

use self::failure::{Errors, Failure};
use self::player::{Played, Table};
use self::report::{Phase, Report};
use self::stats::Rng;
use self::watchers::Watched;

/// Long-lived streams one connection carries at most (servers commonly allow 100–200).
const STREAMS_PER_CONNECTION: u32 = 100;
/// The longest time paced games take to start.
const MAX_RAMP: Duration = Duration::from_secs(5);

/// Measures the server at `url` (trusted as `trust` says, and every `--replica` beside
/// it) as `args` describe: one measurement, or with `--curve` one per size (each row's
/// size said on stderr as it starts). A progress line goes to stderr meanwhile. Fails only
/// when no measurement could start (a server that cannot be reached or refuses the health
/// check); failed calls during one are counted in the findings ([`Findings::verdict`]).
pub async fn run(url: &str, trust: &Trust, args: &BenchArgs) -> Result<Findings, ClientError> {
    if args.curve.is_empty() {
        return Ok(Findings::one(measure(url, trust, args).await?));
    }
    let mut reports = Vec::new();
    for (row, &games) in args.curve.iter().enumerate() {
        let sized = BenchArgs {
            games,
            watchers: games.saturating_mul(args.watchers),
            curve: Vec::new(),
            ..args.clone()
        };
        eprintln!(
            "curve {}/{}: {} games, {} watchers",
            row + 1,
            args.curve.len(),
            sized.games,
            sized.watchers
        );
        reports.push(measure(url, trust, &sized).await?);
    }
    Ok(Findings::curve(args, reports))
}

/// One measurement of `args.games` games (or the fill, or the baseline alone).
async fn measure(url: &str, trust: &Trust, args: &BenchArgs) -> Result<Report, ClientError> {
    let streams = match (args.moves_from.streams(), args.baseline_only) {
        (true, false) => 2 * args.games + args.watchers,
        _ => args.watchers,
    };
    // Connections go to the servers in turn, as many to each: slot n uses connection
    // n mod connections, so each game stays on one server.
    let urls: Vec<&str> = std::iter::once(url)
        .chain(args.replica.iter().map(String::as_str))
        .collect();
    let connections = args
        .connections
        .max(streams.div_ceil(STREAMS_PER_CONNECTION))
        .next_multiple_of(urls.len() as u32);
    let mut servers = Vec::new();
    for n in 0..connections as usize {
        servers.push(Server::connect(urls[n % urls.len()], trust).await?);
    }
    servers[0].health().await?;
    let server_pid = args.server_pid.or_else(|| machine::local_server_pid(url));
    let slots = (0..args.games)
        .map(|_| tokio::sync::watch::Sender::new(None))
        .collect();
    let table = Arc::new(Table {
        servers,
        rulesets: args.ruleset.clone(),
        moves_from: args.moves_from,
        pace: args.pace,
        errors: Errors::default(),
        calls: AtomicU64::new(0),
        games: AtomicU64::new(0),
        ready: AtomicU64::new(0),
        watching: AtomicU64::new(0),
        record_acks: args.watchers > 0,
        slots,
    });
    let mut report = Report {
        url: url.to_owned(),
        args: args.clone(),
        connections,
        server_pid,
        load_before: machine::load_average(),
        load_after: None,
        rss_before: server_pid.and_then(machine::rss_kib),
        rss_after: None,
        moves_cpu: None,
        client_cpu: None,
        baseline: None,
        moves: None,
        by_ruleset: Vec::new(),
        fill: None,
        games_started: 0,
        games_finished: 0,
        fan_out: None,
        login_flood: None,
        errors: Default::default(),
        first_error: None,
    };
    if let Some(total) = args.fill {
        let started = Instant::now();
        let played = fill(&table, args, total).await;
        report.fill = Some((total, started.elapsed(), played.moves.len() as u64));
        report.games_started = played.started;
        report.games_finished = played.finished;
    } else {
        if !args.no_baseline {
            report.baseline = Some(baseline(&table, args).await);
        }
        if !args.baseline_only {
            let Measured {
                played,
                by_ruleset,
                watched,
                cpu,
                client_cpu,
                flooded,
            } = games(&table, args, server_pid).await;
            report.login_flood = flooded;
            report.moves_cpu = cpu;
            report.client_cpu = client_cpu;
            report.games_started = played.started;
            report.games_finished = played.finished;
            if by_ruleset.len() > 1 {
                report.by_ruleset = by_ruleset
                    .into_iter()
                    .map(|(ruleset, samples)| (ruleset, Phase::of(args.duration, samples)))
                    .collect();
            }
            let phase = Phase::of(args.duration, played.moves);
            if let Some(mut watched) = watched {
                let latency = watchers::fan_out(&played.acks, &watched.receipts);
                watched.receipts = Vec::new();
                report.fan_out = Some((watched, Phase::of(args.duration, latency)));
            }
            report.moves = Some(phase);
        }
    }
    report.rss_after = server_pid.and_then(machine::rss_kib);
    report.load_after = machine::load_average();
    report.errors = table.errors.counts();
    report.first_error = table.errors.first();
    Ok(report)
}

/// The baseline: `games` loops of `grpc.health.v1.Health/Check` for the duration.
async fn baseline(table: &Arc<Table>, args: &BenchArgs) -> Phase {
    table.calls.store(0, Ordering::Relaxed);
    let until = Instant::now() + args.duration;
    let mut tasks = JoinSet::new();
    for slot in 0..args.games as usize {
        let table = Arc::clone(table);
        tasks.spawn(async move {
            let server = table.server(slot);
            let mut samples = Samples::default();
            while Instant::now() < until {
                let sent = Instant::now();
                let result = server.health().await;
                let at = Instant::now();
                if at > until {
                    break;
                }
                match result {
                    Ok(()) => {
                        samples.push(at - sent);
                        table.calls.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(error) => table.errors.count(&Failure::from(error)),
                }
            }
            samples
        });
    }
    let ticker = progress(Arc::clone(table), "baseline", Some(until), None);
    let mut all = Samples::default();
    while let Some(samples) = tasks.join_next().await {
        all.merge(samples.unwrap_or_default());
    }
    ticker.abort();
    finish_progress();
    Phase::of(args.duration, all)
}

/// The games, with the watchers if any: every move's latency, also by ruleset. The games
/// are made first (spread over the ramp-up when paced), then measured for the duration.
async fn games(table: &Arc<Table>, args: &BenchArgs, server_pid: Option<u32>) -> Measured {
    let start = Instant::now();
    // Paced games start spread out, as players arrive; flat-out ones all at once.
    let ramp = args
        .pace
        .map_or(Duration::ZERO, |_| (args.duration / 4).min(MAX_RAMP));
    let (go, waiting) = tokio::sync::watch::channel(None);
    let mut players = JoinSet::new();
    for slot in 0..args.games as usize {
        let rng = Rng::new(args.seed, slot as u64);
        let at = start + ramp.mul_f64(slot as f64 / f64::from(args.games));
        let (table, waiting) = (Arc::clone(table), waiting.clone());
        players
            .spawn(async move { (slot, player::play_slot(table, slot, at, waiting, rng).await) });
    }
    let mut watchers = JoinSet::new();
    for index in 0..args.watchers as usize {
        let slot = index % args.games as usize;
        // Watchers use the connections after the players' streams.
        let connection = args.games as usize + index;
        watchers.spawn(watchers::watch_slot(
            Arc::clone(table),
            connection,
            slot,
            waiting.clone(),
        ));
    }
    let ticker = progress(
        Arc::clone(table),
        "ramp-up",
        None,
        Some(u64::from(args.games)),
    );
    let pause = || tokio::time::sleep(Duration::from_millis(20));
    while table.ready.load(Ordering::Relaxed) < u64::from(args.games) {
        pause().await;
    }
    // The watchers of games that were made; a slot whose first game failed gets its
    // watchers once it makes one.
    let made = |index: u32| {
        table.slots[(index % args.games) as usize]
            .borrow()
            .is_some()
    };
    let watchers_ready = (0..args.watchers).filter(|&index| made(index)).count() as u64;
    while table.watching.load(Ordering::Relaxed) < watchers_ready {
        pause().await;
    }
    ticker.abort();
    finish_progress();
    table.calls.store(0, Ordering::Relaxed);
    let cpu_before = server_pid.and_then(machine::cpu_seconds);
    let client_before = machine::cpu_seconds(std::process::id());
    let until = Instant::now() + args.duration;
    go.send_replace(Some(until));
    let flooding = (args.login_flood > 0)
        .then(|| tokio::spawn(flood::flood(Arc::clone(table), args.login_flood, until)));
    let ticker = progress(Arc::clone(table), "MakeMove", Some(until), None);
    let mut played = Played::default();
    let mut by_ruleset: BTreeMap<String, Samples> = BTreeMap::new();
    while let Some(joined) = players.join_next().await {
        let Ok((index, slot)) = joined else { continue };
        // A line per ruleset only when there are several.
        if args.ruleset.len() > 1 {
            by_ruleset
                .entry(table.ruleset(index).to_owned())
                .or_default()
                .merge(slot.moves.clone());
        }
        played.moves.merge(slot.moves);
        played.acks.extend(slot.acks);
        played.started += slot.started;
        played.finished += slot.finished;
    }
    // Players are done: tell watchers waiting for a next game that there is none.
    for slot in &table.slots {
        slot.send_replace(None);
    }
    let watched = (args.watchers > 0).then(Watched::default);
    let watched = {
        let mut total = watched;
        while let Some(one) = watchers.join_next().await {
            if let (Some(total), Ok(one)) = (total.as_mut(), one) {
                total.streams += one.streams;
                total.events += one.events;
                total.dropped += one.dropped;
                total.out_of_order += one.out_of_order;
                total.resnapshots += one.resnapshots;
                total.receipts.extend(one.receipts);
            }
        }
        total
    };
    ticker.abort();
    finish_progress();
    let flooded = match flooding {
        Some(flooding) => flooding.await.ok(),
        None => None,
    };
    let spent = |before: Option<f64>, pid: Option<u32>| {
        before
            .zip(pid.and_then(machine::cpu_seconds))
            .map(|(before, after)| after - before)
    };
    Measured {
        played,
        by_ruleset,
        watched,
        cpu: spent(cpu_before, server_pid),
        client_cpu: spent(client_before, Some(std::process::id())),
        flooded,
    }
}

/// What the measured phase of the games found.
struct Measured {
    /// Every game's moves, acknowledgements and counts.
    played: Played,
    /// The moves' latencies by ruleset.
    by_ruleset: BTreeMap<String, Samples>,
    /// The watchers' findings, when there were watchers.
    watched: Option<Watched>,
    /// The server's CPU seconds over the phase, when it runs here.
    cpu: Option<f64>,
    /// This client's CPU seconds over the phase.
    client_cpu: Option<f64>,
    /// What the login flood did, when there was one.
    flooded: Option<flood::Flooded>,
}

/// `--fill`: creates `total` games of realistic lengths.
async fn fill(table: &Arc<Table>, args: &BenchArgs, total: u32) -> Played {
    let next = Arc::new(AtomicU64::new(0));
    let mut tasks = JoinSet::new();
    for slot in 0..args.games.min(total) as usize {
        let rng = Rng::new(args.seed, slot as u64);
        tasks.spawn(player::fill_slot(
            Arc::clone(table),
            slot,
            Arc::clone(&next),
            u64::from(total),
            args.fill_events.clone(),
            rng,
        ));
    }
    let ticker = progress(Arc::clone(table), "fill", None, Some(u64::from(total)));
    let mut played = Played::default();
    while let Some(slot) = tasks.join_next().await {
        let slot = slot.unwrap_or_default();
        played.moves.merge(slot.moves);
        played.started += slot.started;
        played.finished += slot.finished;
    }
    ticker.abort();
    finish_progress();
    played
}

/// Whether the progress line is redrawn in place (stderr is a terminal).
fn redraws() -> bool {
    std::io::stderr().is_terminal()
}

/// Prints a progress line on stderr every second on a terminal, every 5 seconds otherwise.
fn progress(
    table: Arc<Table>,
    label: &'static str,
    until: Option<Instant>,
    games: Option<u64>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let started = Instant::now();
        let period = if redraws() {
            Duration::from_secs(1)
        } else {
            Duration::from_secs(5)
        };
        let mut ticks = tokio::time::interval_at((started + period).into(), period);
        let mut last = (started, 0);
        loop {
            ticks.tick().await;
            let now = Instant::now();
            let calls = table.calls.load(Ordering::Relaxed);
            let rate = (calls - last.1) as f64 / (now - last.0).as_secs_f64();
            last = (now, calls);
            let elapsed = now - started;
            let position = match (until, games) {
                (Some(until), _) => format!(
                    "{:>4.0}s/{:.0}s",
                    elapsed.as_secs_f64(),
                    (until - started).as_secs_f64()
                ),
                (None, Some(total)) => format!(
                    "{:>4.0}s games {}/{total}",
                    elapsed.as_secs_f64(),
                    table.games.load(Ordering::Relaxed).min(total)
                ),
                (None, None) => format!("{:>4.0}s", elapsed.as_secs_f64()),
            };
            let line = format!(
                "{label}: {position}  {calls} calls  {rate:.0}/s  errors {}",
                table.errors.total()
            );
            let mut stderr = std::io::stderr().lock();
            let _ = if redraws() {
                write!(stderr, "\r\x1b[2K{line}")
            } else {
                writeln!(stderr, "{line}")
            };
            let _ = stderr.flush();
        }
    })
}

/// Ends a redrawn progress line.
fn finish_progress() {
    if redraws() {
        eprint!("\r\x1b[2K");
    }
}
