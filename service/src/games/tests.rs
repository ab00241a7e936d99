//! The game manager's time rules with a fake server clock: clocks, increments, forfeits,
//! correspondence deadlines, late setups and first moves, downtime, abandonment claims.

use std::sync::Arc;
use std::time::Duration;
use trinchera_store::GamePhase;

use trinchera_rules::{EndReason, Seat, Viewer};

use super::{Answer, Caller, Games, Intent, Limits, MoveInput, NewGame, SetupRequest, Who};
use crate::error::ApiError;
use crate::now::{FakeTime, TimeSource};
use trinchera_game::Reason;
use trinchera_game::Snapshot;
use trinchera_game::clock::TimeControl;
use trinchera_store::GameId;
use trinchera_store::{MemoryStore, Store};

const START: u64 = 1_800_000_000_000;

fn live(minutes: u64, increment: u64) -> TimeControl {
    TimeControl::Live {
        initial: Duration::from_secs(minutes * 60),
        increment: Duration::from_secs(increment),
    }
}

/// A manager over `store` with fake `time`: each call is a start of the server.
async fn games(store: &MemoryStore, time: &Arc<FakeTime>) -> Arc<Games> {
    let limits = Limits {
        abandon_after: Duration::from_secs(7 * 86_400),
        ..Limits::default()
    };
    let time = Arc::clone(time) as Arc<dyn TimeSource>;
    Games::with_time(Arc::new(store.reopen()), limits, time)
        .await
        .expect("games")
}

/// Takes the free seat of game `id`; returns its token.
async fn join(games: &Games, id: GameId) -> String {
    let joined = games
        .act(
            id,
            Who::Client(Caller::NOBODY),
            Intent::Join {
                name: String::new(),
                account: None,
            },
            None,
            Answer::View,
        )
        .await
        .expect("joined");
    joined.token.expect("a token")
}

/// What the holder of `token` asks of game `id`.
async fn ask(games: &Games, id: GameId, token: &str, intent: Intent) -> Result<Snapshot, ApiError> {
    let acted = games
        .act(
            id,
            Who::Client(Caller::seat(token)),
            intent,
            None,
            Answer::View,
        )
        .await?;
    acted.snapshot.ok_or(ApiError::Internal("no view".into()))
}

/// A tanques game (no setups: play starts when both seats are taken) with `control`.
async fn tanques(games: &Games, control: TimeControl) -> (GameId, [String; 2]) {
    let (id, creator) = games
        .create(
            None,
            NewGame {
                ruleset: "tanques".into(),
                seat: Seat::First,
                name: String::new(),
                player: String::new(),
                bot: None,
                creator_bot: None,
                control,
                account: None,
            },
        )
        .await
        .expect("created");
    let joiner = join(games, id).await;
    (id, [creator.token.expect("a token"), joiner])
}

/// Plays the first legal action of the seat of `token`.
async fn act(games: &Games, id: GameId, token: &str) -> Result<Snapshot, ApiError> {
    let seen = games.view(id, Caller::seat(token)).await?;
    let action = seen.legal.first().expect("a legal action").action.clone();
    ask(games, id, token, Intent::Move(MoveInput::Action(action))).await
}

/// Any acting call by the seat of `token`: it settles the deadlines that passed first.
async fn poke(games: &Games, id: GameId, token: &str) -> Result<Snapshot, ApiError> {
    ask(games, id, token, Intent::Resign).await
}

/// Plays until `seat`'s turn is over (a tanques turn has several phases).
async fn turn(games: &Games, id: GameId, tokens: &[String; 2], seat: Seat) -> Snapshot {
    loop {
        let seen = act(games, id, &tokens[seat.index()]).await.expect("played");
        if seen.projection.to_move != Some(seat) {
            return seen;
        }
    }
}

fn remaining(seen: &Snapshot, seat: Seat) -> u64 {
    seen.clocks.remaining(seat, seen.at_ms).expect("a clock")
}

#[tokio::test]
async fn live_clocks_charge_the_turn_and_add_the_increment() {
    let store = MemoryStore::new();
    let time = Arc::new(FakeTime::at(START));
    let games = games(&store, &time).await;
    let (id, tokens) = tanques(&games, live(1, 2)).await;
    // First turns run on no clock.
    time.advance(Duration::from_secs(20));
    turn(&games, id, &tokens, Seat::First).await;
    time.advance(Duration::from_secs(20));
    let seen = turn(&games, id, &tokens, Seat::Second).await;
    assert_eq!(remaining(&seen, Seat::First), 60_000);
    assert_eq!(remaining(&seen, Seat::Second), 60_000);
    // Seat 0 thinks 15 s over its whole turn: 60 - 15 + 2.
    time.advance(Duration::from_secs(15));
    let seen = turn(&games, id, &tokens, Seat::First).await;
    assert_eq!(remaining(&seen, Seat::First), 47_000);
    assert_eq!(
        seen.clocks.running().map(|(seat, _)| seat),
        Some(Seat::Second)
    );
    // Seat 1 lets its minute run out: the next call finds the game lost on time.
    time.advance(Duration::from_secs(61));
    let refused = poke(&games, id, &tokens[0]).await;
    assert!(
        matches!(
            refused,
            Err(ApiError::FailedPrecondition {
                reason: Reason::GameOver,
                ..
            })
        ),
        "{refused:?}"
    );
    let seen = games.view(id, Caller::NOBODY).await.expect("view");
    let outcome = seen.outcome.expect("over");
    assert_eq!(outcome.reason, EndReason::TimeForfeit);
    assert_eq!(outcome.winner, Some(Seat::First));
}

#[tokio::test]
async fn a_first_move_that_never_comes_calls_the_game_off() {
    let store = MemoryStore::new();
    let time = Arc::new(FakeTime::at(START));
    let games = games(&store, &time).await;
    let (id, tokens) = tanques(&games, live(5, 0)).await;
    time.advance(Duration::from_secs(61));
    assert!(poke(&games, id, &tokens[1]).await.is_err());
    let outcome = games
        .view(id, Caller::NOBODY)
        .await
        .expect("view")
        .outcome
        .expect("over");
    assert_eq!((outcome.winner, outcome.reason), (None, EndReason::Aborted));
}

#[tokio::test]
async fn a_late_setup_is_made_at_random_and_play_goes_on() {
    let store = MemoryStore::new();
    let time = Arc::new(FakeTime::at(START));
    let games = games(&store, &time).await;
    let (id, creator) = games
        .create(
            None,
            NewGame {
                ruleset: "frente".into(),
                seat: Seat::First,
                name: String::new(),
                player: String::new(),
                bot: None,
                creator_bot: None,
                control: live(10, 0),
                account: None,
            },
        )
        .await
        .expect("created");
    let joiner = join(&games, id).await;
    ask(&games, id, &joiner, Intent::Setup(SetupRequest::Made))
        .await
        .expect("set up");
    let creator = creator.token.expect("a token");
    time.advance(Duration::from_secs(5 * 60 + 1));
    let seen = games.view(id, Caller::seat(&creator)).await.expect("view");
    assert_eq!(
        seen.phase,
        GamePhase::Setup,
        "nothing happens without a call or the timer"
    );
    let refused = ask(&games, id, &creator, Intent::Setup(SetupRequest::Made)).await;
    assert!(refused.is_err(), "the server already set the late seat up");
    let seen = games.view(id, Caller::seat(&creator)).await.expect("view");
    assert_eq!(seen.phase, GamePhase::Playing);
    assert!(seen.table.seats[Seat::First].commitment.is_some());
}

#[tokio::test]
async fn correspondence_gives_each_turn_its_deadline() {
    let store = MemoryStore::new();
    let time = Arc::new(FakeTime::at(START));
    let games = games(&store, &time).await;
    let day = Duration::from_secs(86_400);
    let (id, tokens) = tanques(&games, TimeControl::Correspondence { per_move: day }).await;
    time.advance(day / 2);
    turn(&games, id, &tokens, Seat::First).await;
    time.advance(day / 2);
    turn(&games, id, &tokens, Seat::Second).await;
    // Each turn has a whole day, however long the last one took.
    time.advance(day - Duration::from_secs(1));
    turn(&games, id, &tokens, Seat::First).await;
    time.advance(day + Duration::from_secs(1));
    assert!(poke(&games, id, &tokens[0]).await.is_err());
    let outcome = games
        .view(id, Caller::NOBODY)
        .await
        .expect("view")
        .outcome
        .expect("over");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::First), EndReason::TimeForfeit)
    );
}

#[tokio::test]
async fn time_while_the_server_is_down_counts_against_nobody() {
    let store = MemoryStore::new();
    let time = Arc::new(FakeTime::at(START));
    let (id, tokens) = {
        let games = games(&store, &time).await;
        let (id, tokens) = tanques(&games, live(1, 0)).await;
        turn(&games, id, &tokens, Seat::First).await;
        turn(&games, id, &tokens, Seat::Second).await;
        // Seat 0 thinks 10 s; the server notes it is alive, then goes down.
        time.advance(Duration::from_secs(10));
        games.heartbeat().await;
        games.close().await.expect("closes");
        (id, tokens)
    };
    // Down for an hour: far past seat 0's minute.
    time.advance(Duration::from_secs(3600));
    let games = games(&store, &time).await;
    let seen = games
        .view(id, Caller::seat(&tokens[0]))
        .await
        .expect("view");
    assert_eq!(seen.outcome, None);
    assert_eq!(
        remaining(&seen, Seat::First),
        50_000,
        "only the 10 s before the stop count"
    );
    time.advance(Duration::from_secs(5));
    let seen = turn(&games, id, &tokens, Seat::First).await;
    assert_eq!(remaining(&seen, Seat::First), 45_000);
}

#[tokio::test]
async fn an_absent_opponent_can_be_claimed_against_only_after_the_limit() {
    let store = MemoryStore::new();
    let time = Arc::new(FakeTime::at(START));
    let games = games(&store, &time).await;
    let (id, tokens) = tanques(&games, TimeControl::Untimed).await;
    turn(&games, id, &tokens, Seat::First).await;
    // Seat 1 is to move and stays away.
    time.advance(Duration::from_secs(6 * 86_400));
    let early = ask(&games, id, &tokens[0], Intent::Claim).await;
    match early {
        Err(ApiError::FailedPrecondition {
            reason: Reason::TooEarly,
            message,
        }) => assert!(
            message.contains("in 1 days") || message.contains("24 h"),
            "{message}"
        ),
        other => panic!("expected TOO_EARLY, got {other:?}"),
    }
    let own_turn = ask(&games, id, &tokens[1], Intent::Claim).await;
    assert!(
        matches!(
            own_turn,
            Err(ApiError::FailedPrecondition {
                reason: Reason::NotYourTurn,
                ..
            })
        ),
        "{own_turn:?}"
    );
    time.advance(Duration::from_secs(86_400));
    let seen = ask(&games, id, &tokens[0], Intent::Claim)
        .await
        .expect("claimed");
    let outcome = seen.outcome.expect("over");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Seat::First), EndReason::Abandoned)
    );
    assert_eq!(seen.viewer, Viewer::Player(Seat::First));
}

/// A frente game without clock created and joined through `games`: its tokens, creator first.
async fn frente(games: &Games) -> (GameId, [String; 2]) {
    let (id, creator) = games
        .create(
            None,
            NewGame {
                ruleset: "frente".into(),
                seat: Seat::First,
                name: String::new(),
                player: String::new(),
                bot: None,
                creator_bot: None,
                control: TimeControl::Untimed,
                account: None,
            },
        )
        .await
        .expect("created");
    let joiner = join(games, id).await;
    (id, [creator.token.expect("a token"), joiner])
}

/// Two servers on one store: each holds its own copy of a game, and the store's refusal
/// of a second append at one version keeps them from forking it. The loser reloads and
/// tries again, or, when its caller named the version it saw, says the game moved on.
#[tokio::test]
async fn two_servers_on_one_store_never_write_one_version_twice() {
    let store = MemoryStore::new();
    let time = Arc::new(FakeTime::at(START));
    let (a, b) = (games(&store, &time).await, games(&store, &time).await);
    let (id, tokens) = frente(&a).await;
    // Both hold the game at version 2; b sets seat 0 up.
    assert_eq!(
        b.view(id, Caller::seat(&tokens[0]))
            .await
            .expect("view")
            .version,
        2
    );
    ask(&b, id, &tokens[0], Intent::Setup(SetupRequest::Made))
        .await
        .expect("set up on b");
    // a's copy is at version 2: its append of seat 1's setup conflicts, a reloads and the
    // setup goes in after b's.
    let seen = ask(&a, id, &tokens[1], Intent::Setup(SetupRequest::Made))
        .await
        .expect("set up on a after a reload");
    assert_eq!(seen.version, 4);
    assert_eq!(seen.phase, GamePhase::Playing);
    // b's copy is at version 3; a caller who saw version 4 (on a) makes b reload first.
    let action = a
        .view(id, Caller::seat(&tokens[0]))
        .await
        .expect("view")
        .legal[0]
        .action
        .clone();
    let moved = b
        .act(
            id,
            Who::Client(Caller::seat(&tokens[0])),
            Intent::Move(MoveInput::Action(action)),
            Some(4),
            Answer::View,
        )
        .await
        .expect("moved on b");
    assert_eq!(moved.event.version, 5);
    // a's copy is at version 4 and so is the caller's sight: the append conflicts, and
    // the reloaded game is past what the caller saw.
    let refused = a
        .act(
            id,
            Who::Client(Caller::seat(&tokens[1])),
            Intent::Resign,
            Some(4),
            Answer::View,
        )
        .await
        .expect_err("the game moved on");
    assert!(
        matches!(
            refused,
            ApiError::VersionMismatch {
                expected: 4,
                actual: 5
            }
        ),
        "{refused:?}"
    );
    // Every version was written once, in order, and both servers agree.
    let log = store.log(id).await.expect("log");
    assert_eq!(log.len(), 5);
    for games in [&a, &b] {
        assert_eq!(
            games.view(id, Caller::NOBODY).await.expect("view").version,
            5
        );
    }
}

/// A deadline that another server settled first: the settlement's append conflicts, the
/// game reloads, and the act that came is then refused for what the store holds.
#[tokio::test]
async fn a_deadline_another_server_settled_is_not_settled_twice() {
    let store = MemoryStore::new();
    let time = Arc::new(FakeTime::at(START));
    let (a, b) = (games(&store, &time).await, games(&store, &time).await);
    let (id, tokens) = tanques(&a, live(5, 0)).await;
    assert_eq!(b.view(id, Caller::NOBODY).await.expect("view").version, 2);
    time.advance(Duration::from_secs(61));
    // The first move never came: b calls the game off.
    assert!(poke(&b, id, &tokens[1]).await.is_err());
    // a still holds the game at version 2 and would call it off again.
    let refused = poke(&a, id, &tokens[0]).await.expect_err("over");
    assert!(
        matches!(
            refused,
            ApiError::FailedPrecondition {
                reason: Reason::GameOver,
                ..
            }
        ),
        "{refused:?}"
    );
    assert_eq!(store.log(id).await.expect("log").len(), 3, "one call-off");
}

#[tokio::test]
async fn the_servers_bot_acts_only_for_a_seat_a_bot_plays() {
    let store = MemoryStore::new();
    let time = Arc::new(FakeTime::at(START));
    let games = games(&store, &time).await;
    let (id, tokens) = tanques(&games, TimeControl::Untimed).await;
    let seen = games
        .view(id, Caller::seat(&tokens[0]))
        .await
        .expect("a view");
    let action = seen.legal.first().expect("a legal action").action.clone();
    let refused = games
        .act(
            id,
            Who::Bot(Seat::First),
            Intent::Move(MoveInput::Action(action)),
            None,
            Answer::View,
        )
        .await;
    assert!(
        matches!(
            refused,
            Err(ApiError::FailedPrecondition {
                reason: Reason::BadRequest,
                ..
            })
        ),
        "a person's seat: {refused:?}"
    );
    let after = games
        .view(id, Caller::seat(&tokens[0]))
        .await
        .expect("a view");
    assert_eq!(after.version, seen.version, "nothing changed");
}

/// A sled committer's wait before each group, held while the gate is closed: appends wait
/// there, reads do not.
#[derive(Debug, Default)]
struct Gate {
    closed: std::sync::Mutex<bool>,
    opened: std::sync::Condvar,
    /// Told when a group comes to the gate while it is closed.
    reached: tokio::sync::Notify,
}

impl Gate {
    fn set(&self, closed: bool) {
        *self.closed.lock().expect("gate") = closed;
        self.opened.notify_all();
    }
}

impl trinchera_store_sled::Gather for Gate {
    fn sleep_until(&self, _deadline: std::time::Instant) -> bool {
        let mut closed = self.closed.lock().expect("gate");
        if *closed {
            self.reached.notify_one();
        }
        while *closed {
            closed = self.opened.wait(closed).expect("gate");
        }
        false
    }
}

/// A call dropped while its change waits to be durable (its client went away, or its
/// deadline passed) still commits and publishes it: the game's readers never find the copy
/// in memory ahead of the store, and its watchers hear of the change.
#[tokio::test(flavor = "multi_thread")]
async fn a_change_whose_caller_went_away_is_committed_and_published() {
    let dir = tempfile::tempdir().expect("temp dir");
    let gate = Arc::new(Gate::default());
    let options = trinchera_store_sled::SledOptions {
        gather: Arc::clone(&gate) as Arc<dyn trinchera_store_sled::Gather>,
        ..Default::default()
    };
    let store = trinchera_store_sled::SledStore::open(dir.path(), options).expect("opens");
    let games = Games::new(Arc::new(store), Limits::default())
        .await
        .expect("games");
    let (id, tokens) = frente(&games).await;
    let (_, mut watch) = games
        .watch(id, Caller::NOBODY, None, false)
        .await
        .expect("watch");

    gate.set(true);
    let setup = ask(&games, id, &tokens[0], Intent::Setup(SetupRequest::Made));
    tokio::time::timeout(Duration::from_secs(60), async {
        tokio::select! {
            _ = setup => panic!("the setup was made with the committer held"),
            () = gate.reached.notified() => {}
        }
    })
    .await
    .expect("the setup's append never reached the committer");
    // The caller is gone; the game is read while its change waits for the committer.
    let history = tokio::spawn({
        let games = Arc::clone(&games);
        async move { games.history(id, Caller::NOBODY, None, None).await }
    });
    gate.set(false);
    let (history, _permit) = history.await.expect("history ran").expect("a history");
    assert_eq!(history.events.len(), 3, "creation, join and the setup");
    let published = tokio::time::timeout(Duration::from_secs(60), watch.live.recv())
        .await
        .expect("the watcher never heard of the setup")
        .expect("an event");
    assert_eq!(published.event.version, 3);
    games.close().await.expect("closes");
}
