//! `trinchera arena`: bot against bot through a running server, to measure the bots.
//!
//! Each game is created with a bot in both seats (`CreateGameRequest.creator_bot`), seats
//! alternated between the two levels, and followed on `WatchGame` to its end. The report
//! gives wins, draws and losses of level A per seat and in all, with a 95% Wilson interval
//! on A's share of wins, the average game length in moves, and the time per move of each
//! level as the stream shows it: from the event before to the bot's move, which is its
//! thinking plus the server's commit (start the server with `--bot-delay-ms 0`, or the
//! bots' minimum delay is measured too).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use futures_util::stream::FuturesUnordered;
use trinchera_bench::Samples;
use trinchera_client::{Names, Server};
use trinchera_proto::v1 as pb;

use crate::cli::ArenaArgs;
use crate::context::Ctx;
use crate::error::CliError;

/// What one game between the two levels gave.
#[derive(Debug)]
struct Played {
    /// The seat level A played.
    a_seat: i32,
    /// The winner, if any.
    winner: Option<i32>,
    /// Moves played.
    moves: u32,
    /// Time per move, by seat, as the stream showed it.
    per_move: [Vec<Duration>; 2],
}

/// Wins, draws and losses of level A.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Tally {
    fn add(&mut self, played: &Played) {
        match played.winner {
            Some(winner) if winner == played.a_seat => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
    }

    fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// The 95% Wilson score interval of `wins` out of `n`, as fractions.
fn wilson(wins: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (f64::from(n), f64::from(wins) / f64::from(n), 1.96_f64);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z * z / n;
    (
        ((centre - spread) / denominator).max(0.0),
        ((centre + spread) / denominator).min(1.0),
    )
}

/// Plays one game between `a` (in `a_seat`) and `b` and follows it to the end.
async fn play_one(
    server: &Server,
    args: &ArenaArgs,
    a_seat: i32,
    index: u32,
) -> Result<Played, CliError> {
    let (creator, other) = (args.a.clone(), args.b.clone());
    let created = server
        .create(pb::CreateGameRequest {
            ruleset: args.ruleset.clone(),
            seat: Some(a_seat),
            name: format!("arena {index}: {} v {}", args.a, args.b),
            player_name: String::new(),
            bot: other,
            time_control: None,
            creator_bot: creator,
        })
        .await?;
    let mut stream = server.watch(&created.game_id, None, Some(1)).await?;
    let mut played = Played {
        a_seat,
        winner: None,
        moves: 0,
        per_move: [Vec::new(), Vec::new()],
    };
    let mut last = Instant::now();
    let mut live = false;
    let mut version = 1;
    loop {
        let message = match stream.message().await? {
            Some(message) => message,
            // The stream ended early (a server restart): resume where it broke.
            None => {
                stream = server.watch(&created.game_id, None, Some(version)).await?;
                continue;
            }
        };
        version = message.version;
        let now = Instant::now();
        if let Some(event) = &message.event
            && event.r#type() == pb::EventType::Move
        {
            played.moves += 1;
            // The first moves may arrive in a burst before the stream is live.
            if live && let Some(seat) = event.seat.and_then(|s| usize::try_from(s).ok()) {
                played.per_move[seat.min(1)].push(now - last);
            }
            live = true;
        }
        last = now;
        if let Some(view) = &message.view
            && view.phase() == pb::Phase::Finished
        {
            played.winner = view.result.as_ref().and_then(|r| r.winner);
            return Ok(played);
        }
    }
}

/// `arena`: plays the games, `parallel` at a time, and prints the report.
pub async fn arena(ctx: &Ctx, args: &ArenaArgs) -> Result<(), CliError> {
    let server = ctx.server().await?;
    let ruleset = server.ruleset(&args.ruleset).await?;
    for level in [&args.a, &args.b] {
        if !ruleset.bot_levels.iter().any(|l| l.name == *level) {
            let known: Vec<&str> = ruleset.bot_levels.iter().map(|l| l.name.as_str()).collect();
            return Err(CliError::Usage(format!(
                "{} has no bot level {level:?}; levels: {}",
                args.ruleset,
                known.join(", ")
            )));
        }
    }
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut results = Vec::new();
    let mut running = FuturesUnordered::new();
    let mut next = 0;
    while results.len() < args.games as usize {
        while next < args.games && running.len() < args.parallel as usize {
            running.push(play_one(server, args, i32::from(next % 2 == 1), next));
            next += 1;
        }
        let Some(played) = running.next().await else {
            break;
        };
        results.push(played?);
        if !ctx.json {
            let line = format!(
                "{} of {} games played ({:.0} s)",
                results.len(),
                args.games,
                started.elapsed().as_secs_f64()
            );
            // On a terminal one line counts up; in a log, a line a game.
            if terminal {
                eprint!("\r{line}");
            } else {
                eprintln!("{line}");
            }
        }
    }
    if !ctx.json && terminal {
        eprintln!();
    }
    report(ctx, args, &ruleset, &results)
}

/// Prints the tallies per seat and in all, lengths and move times.
fn report(
    ctx: &Ctx,
    args: &ArenaArgs,
    ruleset: &pb::Ruleset,
    results: &[Played],
) -> Result<(), CliError> {
    let names = Names::new(ruleset);
    let mut by_seat: BTreeMap<i32, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    let (mut a_times, mut b_times) = (Samples::default(), Samples::default());
    let mut moves = 0_u64;
    for played in results {
        by_seat.entry(played.a_seat).or_default().add(played);
        total.add(played);
        moves += u64::from(played.moves);
        for (seat, times) in (0..).zip(&played.per_move) {
            let samples = if seat == played.a_seat {
                &mut a_times
            } else {
                &mut b_times
            };
            times.iter().for_each(|&t| samples.push(t));
        }
    }
    let average = moves as f64 / results.len().max(1) as f64;
    let ms = |ns: u64| ns as f64 / 1e6;
    let times = |samples: &mut Samples| {
        samples
            .summary()
            .map(|s| (ms(s.p50), ms(s.p99)))
            .unwrap_or_default()
    };
    let (a_time, b_time) = (times(&mut a_times), times(&mut b_times));
    let mut rows: Vec<(String, Tally)> = by_seat
        .iter()
        .map(|(&seat, &tally)| (format!("{} as {}", args.a, names.seat(seat)), tally))
        .collect();
    rows.push((format!("{} in all", args.a), total));
    if ctx.json {
        let rows: Vec<serde_json::Value> = rows
            .iter()
            .map(|(what, t)| {
                let (low, high) = wilson(t.wins, t.games());
                serde_json::json!({
                    "what": what, "games": t.games(), "wins": t.wins, "draws": t.draws,
                    "losses": t.losses, "win_ci95": [low, high],
                })
            })
            .collect();
        return ctx.print_json(&serde_json::json!({
            "ruleset": args.ruleset, "a": args.a, "b": args.b, "rows": rows,
            "average_moves": average,
            "move_ms": {
                "a": {"p50": a_time.0, "p99": a_time.1},
                "b": {"p50": b_time.0, "p99": b_time.1},
            },
        }));
    }
    println!("{}: {} against {}", ruleset.name, args.a, args.b);
    println!(
        "{:<28} {:>5} {:>5} {:>5} {:>6} {:>6}  95% interval",
        "", "games", "wins", "draws", "losses", "win%"
    );
    for (what, t) in &rows {
        let (low, high) = wilson(t.wins, t.games());
        println!(
            "{what:<28} {:>5} {:>5} {:>5} {:>6} {:>5.1}%  {:.1}–{:.1}%",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            100.0 * f64::from(t.wins) / f64::from(t.games().max(1)),
            100.0 * low,
            100.0 * high
        );
    }
    println!("average length: {average:.1} moves");
    println!(
        "time per move (median / p99): {} {:.1} / {:.1} ms, {} {:.1} / {:.1} ms",
        args.a, a_time.0, a_time.1, args.b, b_time.0, b_time.1
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::wilson;

    #[test]
    fn wilson_intervals_stay_inside_zero_and_one() {
        let (low, high) = wilson(200, 200);
        assert!(low > 0.98 && (high - 1.0).abs() < 1e-9, "{low} {high}");
        let (low, high) = wilson(0, 10);
        assert!(
            low.abs() < 1e-9 && high > 0.2 && high < 0.35,
            "{low} {high}"
        );
        let (low, high) = wilson(50, 100);
        assert!((low - 0.404).abs() < 0.01 && (high - 0.596).abs() < 0.01);
    }
}
