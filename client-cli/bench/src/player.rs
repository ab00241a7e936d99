//! Simulated games: both seats of a game played by one task with random legal moves, the
//! legal moves learnt from a WatchGame stream per seat (or GetView), games restarted as
//! they end.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prost::bytes::Bytes;
use tokio::sync::watch;
use trinchera_client::Server;
use trinchera_proto::v1 as pb;

use crate::failure::{Errors, Failure};
use crate::lean::{self, Calls};
use crate::options::MovesFrom;
use crate::stats::{Rng, Samples};

/// How long a slot waits after a failed game before it starts the next.
const FAILURE_PAUSE: Duration = Duration::from_millis(200);

/// What every simulated game of a run shares.
pub struct Table {
    /// One connection per entry; game slot `i` uses entry `i % len`.
    pub servers: Vec<Server>,
    /// Rulesets, taken in turn by the slots.
    pub rulesets: Vec<String>,
    /// Where legal moves come from.
    pub moves_from: MovesFrom,
    /// The mean gap between a game's moves, when games move at a person's pace.
    pub pace: Option<Duration>,
    /// Failed calls.
    pub errors: Errors,
    /// Calls completed in the current phase (for the progress line).
    pub calls: AtomicU64,
    /// Games created so far.
    pub games: AtomicU64,
    /// Slots that have made their first game (or failed to) and wait for the measured phase.
    pub ready: AtomicU64,
    /// Watchers whose first stream is open (or failed to open).
    pub watching: AtomicU64,
    /// Whether MakeMove acknowledgements are kept to compute fan-out latency.
    pub record_acks: bool,
    /// The game each slot plays now, for the watchers.
    pub slots: Vec<watch::Sender<Option<String>>>,
}

impl Table {
    /// The connection of slot (or watcher) `index`.
    pub fn server(&self, index: usize) -> &Server {
        &self.servers[index % self.servers.len()]
    }

    /// The ruleset slot `slot` plays.
    pub fn ruleset(&self, slot: usize) -> &str {
        &self.rulesets[slot % self.rulesets.len()]
    }
}

/// When a game stops being played.
#[derive(Clone, Copy, Debug)]
pub enum Stop {
    /// At the end of the measured phase.
    At(Instant),
    /// Once the game has this many events (then it may resign).
    Events(u64),
}

/// A MakeMove acknowledgement: when the client learnt that `version` of `game` was durable.
#[derive(Clone, Copy, Debug)]
pub struct Ack {
    /// The game id.
    pub game: u64,
    /// The version the move created.
    pub version: u64,
    /// When the reply arrived.
    pub at: Instant,
}

/// What one slot measured.
#[derive(Debug, Default)]
pub struct Played {
    /// MakeMove latencies.
    pub moves: Samples,
    /// Acknowledgements, when kept.
    pub acks: Vec<Ack>,
    /// Games created.
    pub started: u64,
    /// Games played to their end.
    pub finished: u64,
}

impl Played {
    /// Counts how one game's play ended: finished, stopped, or failed (the error is counted).
    fn tally(&mut self, table: &Table, outcome: Result<End, Failure>) {
        match outcome {
            Ok(End::Finished) => self.finished += 1,
            Ok(End::Stopped) => {}
            Err(error) => table.errors.count(&error),
        }
    }
}

/// A game in play, with both seats' tokens.
struct Game {
    id: String,
    key: u64,
    tokens: [String; 2],
    /// The latest view known: its version, phase and seat to move.
    view: lean::View,
    /// Each seat's WatchGame stream, when legal moves come from them.
    streams: Option<[tonic::Streaming<lean::Watched>; 2]>,
}

/// How a game's play ended without an error.
enum End {
    /// The game is over.
    Finished,
    /// The phase ended, or the game reached its length.
    Stopped,
}

/// Plays games in slot `slot`: its first game is made at `start` (the slots' starts are
/// spread over the ramp-up), then the slot counts itself in [`Table::ready`] and waits
/// for `go` to name the end of the measured phase; it plays until then, replacing each
/// game that ends. Errors are counted and the game abandoned.
pub async fn play_slot(
    table: Arc<Table>,
    slot: usize,
    start: Instant,
    mut go: watch::Receiver<Option<Instant>>,
    mut rng: Rng,
) -> Played {
    let mut played = Played::default();
    let server = table.server(slot);
    let ruleset = table.ruleset(slot);
    tokio::time::sleep_until(start.into()).await;
    let first = new_game(&table, server, ruleset).await;
    if let Ok(game) = &first {
        // Its watchers open their streams during the ramp-up too.
        table.slots[slot].send_replace(Some(game.id.clone()));
    }
    let mut first = Some(first);
    table.ready.fetch_add(1, Ordering::Relaxed);
    let Ok(until) = go
        .wait_for(Option::is_some)
        .await
        .map(|until| until.unwrap_or(start))
    else {
        return played;
    };
    while Instant::now() < until {
        let made = match first.take() {
            Some(made) => made,
            None => new_game(&table, server, ruleset).await,
        };
        let outcome = async {
            let mut game = made?;
            played.started += 1;
            let _ = table.slots[slot].send_replace(Some(game.id.clone()));
            play(
                &table,
                server,
                &mut game,
                &mut rng,
                &mut played,
                Stop::At(until),
            )
            .await
        }
        .await;
        let failed = outcome.is_err();
        played.tally(&table, outcome);
        if failed {
            // A refusal (a server limit, say) is counted once a pause, not in a tight loop.
            tokio::time::sleep_until((Instant::now() + FAILURE_PAUSE).min(until).into()).await;
        }
    }
    played
}

/// Creates games from `next` until `total` exist, each played to a random length within
/// `events`; about half of those that get there resign, the others are left unfinished.
pub async fn fill_slot(
    table: Arc<Table>,
    slot: usize,
    next: Arc<AtomicU64>,
    total: u64,
    events: std::ops::RangeInclusive<u64>,
    mut rng: Rng,
) -> Played {
    let mut played = Played::default();
    while next.fetch_add(1, Ordering::Relaxed) < total {
        let server = table.server(slot);
        let ruleset = table.ruleset(slot);
        let target = rng.within(&events);
        let outcome = async {
            let mut game = new_game(&table, server, ruleset).await?;
            played.started += 1;
            let end = play(
                &table,
                server,
                &mut game,
                &mut rng,
                &mut played,
                Stop::Events(target),
            )
            .await?;
            if matches!(end, End::Stopped) && rng.below(2) == 0 {
                let seat = usize::try_from(game.view.to_move.unwrap_or(0)).unwrap_or(0);
                server.resign(&game.id, &game.tokens[seat % 2]).await?;
                return Ok(End::Finished);
            }
            Ok(end)
        }
        .await;
        played.tally(&table, outcome);
    }
    played
}

/// Creates a game of `ruleset`, seats both players, submits random setups where needed
/// and, when legal moves come from streams, opens both seats' streams.
async fn new_game(table: &Table, server: &Server, ruleset: &str) -> Result<Game, Failure> {
    let created = server
        .create(pb::CreateGameRequest {
            ruleset: ruleset.to_owned(),
            seat: Some(0),
            name: "bench".into(),
            player_name: "Bench 0".into(),
            ..Default::default()
        })
        .await?;
    table.games.fetch_add(1, Ordering::Relaxed);
    let id = created.game_id;
    let key = id.parse().map_err(|_| {
        Failure::Unexpected(format!("the server gave a non-numeric game id {id:?}"))
    })?;
    let joined = server
        .join(pb::JoinGameRequest {
            game_id: id.clone(),
            player_name: "Bench 1".into(),
        })
        .await?;
    let tokens = [created.player_token, joined.player_token];
    let mut view = joined.view.unwrap_or_default();
    for (seat, token) in (0..).zip(&tokens) {
        let pending = view.players.iter().any(|p| p.seat == seat && !p.setup_done);
        if view.phase() == pb::Phase::Setup && pending {
            let request = pb::SubmitSetupRequest {
                game_id: id.clone(),
                placements: Vec::new(),
                random: true,
            };
            view = server.setup(request, token).await?.view.unwrap_or_default();
        }
    }
    let streams = if table.moves_from.streams() {
        let calls = Calls::new(server);
        let (changes, lean) = (table.moves_from.piece_changes(), table.moves_from.lean());
        Some([
            calls.watch(&id, Some(&tokens[0]), changes, lean).await?,
            calls.watch(&id, Some(&tokens[1]), changes, lean).await?,
        ])
    } else {
        None
    };
    Ok(Game {
        id,
        key,
        tokens,
        view: lean::View {
            version: view.version,
            phase: view.phase,
            to_move: view.to_move,
            legal_moves: Vec::new(),
        },
        streams,
    })
}

/// The legal moves (encoded `LegalMove`s) of `seat` at the game's current version.
async fn legal_moves(server: &Server, game: &mut Game, seat: usize) -> Result<Vec<Bytes>, Failure> {
    if game.streams.is_none() {
        let reply = Calls::new(server)
            .view(&game.id, &game.tokens[seat])
            .await?;
        return Ok(reply.view.map(|v| v.legal_moves).unwrap_or_default());
    }
    let version = game.view.version;
    Ok(streamed(server, game, seat, version).await?.legal_moves)
}

/// `seat`'s view from its stream at `version` or later.
async fn streamed(
    server: &Server,
    game: &mut Game,
    seat: usize,
    version: u64,
) -> Result<lean::View, Failure> {
    let Some(streams) = game.streams.as_mut() else {
        return Err(Failure::Unexpected(format!(
            "game {} has no streams to read version {version} from",
            game.id
        )));
    };
    let stream = &mut streams[seat];
    loop {
        let message = stream.message().await.map_err(|s| server.error(s))?;
        let Some(message) = message else {
            return Err(Failure::Unexpected(format!(
                "the watch stream of game {} ended before version {version}",
                game.id
            )));
        };
        if message.version >= version {
            return Ok(message.view.unwrap_or_default());
        }
    }
}

/// Plays random legal moves for whichever seat is to move until the game ends or `stop`.
async fn play(
    table: &Table,
    server: &Server,
    game: &mut Game,
    rng: &mut Rng,
    played: &mut Played,
    stop: Stop,
) -> Result<End, Failure> {
    // The seat to move's legal moves when the view read after the last move already
    // listed them, so that no other stream message or GetView is needed.
    let mut known: Option<Vec<Bytes>> = None;
    loop {
        if game.view.phase() == pb::Phase::Finished {
            return Ok(End::Finished);
        }
        let stopped = match stop {
            Stop::At(until) => Instant::now() >= until,
            Stop::Events(target) => game.view.version >= target,
        };
        if stopped {
            return Ok(End::Stopped);
        }
        let seat = game
            .view
            .to_move
            .and_then(|s| usize::try_from(s).ok())
            .filter(|&s| s < 2)
            .ok_or_else(|| {
                Failure::Unexpected(format!(
                    "game {} is being played but no seat is to move",
                    game.id
                ))
            })?;
        if let (Some(pace), Stop::At(until)) = (table.pace, stop) {
            let next = Instant::now() + rng.exponential(pace);
            if next >= until {
                tokio::time::sleep_until(until.into()).await;
                return Ok(End::Stopped);
            }
            tokio::time::sleep_until(next.into()).await;
        }
        let legal = match known.take() {
            Some(legal) => legal,
            None => legal_moves(server, game, seat).await?,
        };
        if legal.is_empty() {
            return Err(Failure::Unexpected(format!(
                "game {} at version {} lists no legal move for seat {seat}",
                game.id, game.view.version
            )));
        }
        let chosen = lean::move_of(&legal[rng.below(legal.len())])?;
        let request = pb::MakeMoveRequest {
            game_id: game.id.clone(),
            action: Some(pb::make_move_request::Action::Move(chosen)),
            expected_version: None,
            omit_view: table.moves_from.lean(),
        };
        let sent = Instant::now();
        let reply = Calls::new(server)
            .make_move(request, &game.tokens[seat])
            .await?;
        let at = Instant::now();
        if let Stop::At(until) = stop
            && at > until
        {
            return Ok(End::Stopped);
        }
        played.moves.push(at - sent);
        table.calls.fetch_add(1, Ordering::Relaxed);
        let version = reply.event.map_or(0, |event| event.version);
        if table.record_acks {
            played.acks.push(Ack {
                game: game.key,
                version,
                at,
            });
        }
        // A lean reply has no view, and the mover's stream skips its own moves: the other
        // seat's stream, which sends every event but that seat's own moves, tells what
        // follows the move.
        let (mut view, viewer) = match reply.view {
            Some(view) => (view, seat),
            None => (streamed(server, game, 1 - seat, version).await?, 1 - seat),
        };
        if view.to_move == Some(viewer as i32) {
            known = Some(std::mem::take(&mut view.legal_moves));
        }
        game.view = view;
    }
}
