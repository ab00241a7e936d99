//! One suite every backend passes: appends and reloads (across restarts), conflicting
//! appends, id allocation, listing pages and filters, the queries of unfinished and
//! unstarted games, tokens, downtime, restored games and bot leases.
//!
//! A backend's crate runs it with [`conformance_tests!`](crate::conformance_tests) in its
//! tests, given a function that runs one test on a fresh [`Backend`]:
//!
//! ```text
//! async fn on_memory<F: Future<Output = ()>>(test: impl FnOnce(Memory) -> F) {
//!     test(Memory::new()).await;
//! }
//! trinchera_store::conformance_tests!(on_memory);
//! ```

use std::sync::Arc;

use crate::ids::{GameId, TokenHash};
use crate::records::{AccountRecord, AccountTokenRecord};
use crate::records::{Entry, EventRecord, SummaryRecord};
use crate::{
    AccountId, Append, BotLease, Downtime, GamePhase, Lifetime, ListQuery, MemoryStore, Restored,
    Speed, Store, StoreError, Unfinished,
};

/// A backend under test: its store, and the store a restart would find.
pub trait Backend: Send {
    /// The store now.
    fn store(&self) -> Arc<dyn Store>;
    /// Closes the store and opens it again, as a restarted server does.
    fn restart(&mut self) -> impl Future<Output = ()> + Send;
    /// Makes the next write of log entries fail once as a serialization failure would
    /// (SQLSTATE 40001), on a backend whose transactions can fail so; nothing elsewhere.
    fn fail_to_serialize_once(&self) -> impl Future<Output = ()> + Send {
        async {}
    }
}

/// The in-memory model, as a [`Backend`].
pub struct Memory(Arc<MemoryStore>);

impl Memory {
    /// An empty store.
    pub fn new() -> Memory {
        Memory(Arc::new(MemoryStore::new()))
    }
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new()
    }
}

impl Backend for Memory {
    fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.0) as Arc<dyn Store>
    }

    async fn restart(&mut self) {
        self.0 = Arc::new(self.0.reopen());
    }
}

/// Declares one `#[tokio::test]` per test of the suite, each running the test through
/// `$run`, an async function that hands it a fresh backend (and cleans up after it), with
/// the attributes given first (e.g. `#[ignore = "why"]`) on every test.
#[macro_export]
macro_rules! conformance_tests {
    ($(#[$attr:meta])* $run:path) => {
        $crate::conformance_tests!(@each [$(#[$attr])*] $run; appends_survive_restarts, appends_out_of_turn_conflict_and_write_nothing, racing_appends_of_one_version_let_exactly_one_through, ids_are_new_and_increase_across_restarts, listings_page_newest_first_and_filter, queries_find_unfinished_and_unstarted_games, downtime_is_the_gap_before_a_start, restored_games_keep_their_ids_and_are_written_once, a_restored_lifetime_is_what_the_next_start_counts_from, log_after_gives_what_a_copy_missed, bot_leases_go_to_one_server_at_a_time, accounts_hold_their_names_and_survive_restarts, account_tokens_are_found_listed_and_removed, listings_filter_by_player, restored_accounts_keep_their_ids, conflicts_inside_a_group_refuse_their_own_appends_only, a_group_of_conflicts_writes_nothing, a_group_that_failed_to_serialize_runs_again);
    };
    (@each $attrs:tt $run:path; $($name:ident),*) => {
        $($crate::conformance_tests!(@one $attrs $run; $name);)*
    };
    (@one [$($attr:tt)*] $run:path; $name:ident) => {
        $($attr)*
        #[tokio::test(flavor = "multi_thread")]
        async fn $name() {
            $run($crate::conformance::$name).await;
        }
    };
}

fn record(notation: &str) -> EventRecord {
    EventRecord {
        seat: Some(0),
        entry: Some(Entry::Move(notation.into())),
        ..EventRecord::default()
    }
}

fn summary(ruleset: &str, phase: GamePhase) -> SummaryRecord {
    SummaryRecord {
        ruleset: ruleset.into(),
        phase: phase.number(),
        speed: Speed::Untimed.number(),
        ..SummaryRecord::default()
    }
}

/// Creates a game of `ruleset` in `phase` with the creator's `token`.
async fn create(store: &dyn Store, summary: &SummaryRecord, token: Option<TokenHash>) -> GameId {
    store
        .create(Append {
            version: 1,
            record: &record("created"),
            summary: Some(summary),
            token,
            lease: None,
        })
        .await
        .expect("creates")
}

async fn append(store: &dyn Store, game: GameId, version: u64) -> Result<(), StoreError> {
    append_leasing(store, game, version, None).await
}

/// [`append`], doing `lease` to the game's bot lease.
async fn append_leasing(
    store: &dyn Store,
    game: GameId,
    version: u64,
    lease: Option<BotLease>,
) -> Result<(), StoreError> {
    store
        .append(
            game,
            Append {
                version,
                record: &record(&format!("m{version}")),
                summary: None,
                token: None,
                lease,
            },
        )
        .await
}

fn notations(log: &[EventRecord]) -> Vec<String> {
    log.iter()
        .map(|e| match &e.entry {
            Some(Entry::Move(n)) => n.clone(),
            _ => String::new(),
        })
        .collect()
}

/// Appends survive restarts.
pub async fn appends_survive_restarts(mut backend: impl Backend) {
    let store = backend.store();
    let token = TokenHash::of("secret");
    let game = create(
        store.as_ref(),
        &summary("frente", GamePhase::Waiting),
        Some(token),
    )
    .await;
    // Past a sled chunk (32 entries) and into the next.
    for version in 2..=40 {
        append(store.as_ref(), game, version)
            .await
            .expect("appends");
    }
    let joined = SummaryRecord {
        players: vec!["Ana".into(), "Beto".into()],
        ..summary("frente", GamePhase::Setup)
    };
    let other = TokenHash::of("other");
    store
        .append(
            game,
            Append {
                version: 41,
                record: &record("joined"),
                summary: Some(&joined),
                token: Some(other),
                lease: None,
            },
        )
        .await
        .expect("appends");
    drop(store);
    backend.restart().await;
    let store = backend.store();
    let log = store.log(game).await.expect("log");
    assert_eq!(log.len(), 41);
    assert_eq!(notations(&log)[1..4], ["m2", "m3", "m4"]);
    assert_eq!(store.summary(game).await.expect("summary"), Some(joined));
    for token in [token, other] {
        assert_eq!(store.token_owner(&token).await.expect("owner"), Some(game));
    }
    assert_eq!(
        store.token_owner(&TokenHash::of("x")).await.expect("owner"),
        None
    );
    assert!(store.exists(game).await.expect("exists"));
    let missing = GameId(game.0 + 100);
    assert!(!store.exists(missing).await.expect("exists"));
    assert!(store.log(missing).await.expect("log").is_empty());
    assert_eq!(store.summary(missing).await.expect("summary"), None);
    append(store.as_ref(), game, 42)
        .await
        .expect("appends after the restart");
}

/// Appends out of turn conflict and write nothing.
pub async fn appends_out_of_turn_conflict_and_write_nothing(backend: impl Backend) {
    let store = backend.store();
    let game = create(store.as_ref(), &summary("asalto", GamePhase::Waiting), None).await;
    append(store.as_ref(), game, 2).await.expect("appends");
    for version in [0, 1, 2, 4, 33] {
        let refused = append(store.as_ref(), game, version).await;
        assert!(
            matches!(refused, Err(StoreError::Conflict { version: v, .. }) if v == version),
            "version {version}: {refused:?}"
        );
    }
    let nowhere = append(store.as_ref(), GameId(game.0 + 50), 2).await;
    assert!(
        matches!(nowhere, Err(StoreError::Conflict { .. })),
        "{nowhere:?}"
    );
    assert_eq!(
        notations(&store.log(game).await.expect("log")),
        ["created", "m2"]
    );
}

/// Racing appends of one version let exactly one through.
pub async fn racing_appends_of_one_version_let_exactly_one_through(backend: impl Backend) {
    let store = backend.store();
    let game = create(store.as_ref(), &summary("frente", GamePhase::Playing), None).await;
    for version in 2..=20 {
        let racers: Vec<_> = (0..4)
            .map(|_| {
                let store = Arc::clone(&store);
                tokio::spawn(async move { append(store.as_ref(), game, version).await })
            })
            .collect();
        let mut through = 0;
        for racer in racers {
            match racer.await.expect("task") {
                Ok(()) => through += 1,
                Err(StoreError::Conflict { .. }) => {}
                Err(other) => panic!("{other}"),
            }
        }
        assert_eq!(through, 1, "version {version}");
    }
    assert_eq!(store.log(game).await.expect("log").len(), 20);
}

/// An append to make at once with others, with what it writes besides its entry.
#[derive(Clone, Debug)]
struct Planned {
    game: GameId,
    version: u64,
    summary: Option<SummaryRecord>,
    token: Option<TokenHash>,
    lease: Option<BotLease>,
}

impl Planned {
    /// A plain move: version `version` of `game`.
    fn plain(game: GameId, version: u64) -> Planned {
        Planned {
            game,
            version,
            summary: None,
            token: None,
            lease: None,
        }
    }

    /// A move that also writes a summary of `phase` with `players`, a token named `token`
    /// and a lease of server `holder`.
    fn with_rows(self, phase: GamePhase, players: &[&str], token: &str, holder: u64) -> Planned {
        Planned {
            summary: Some(SummaryRecord {
                players: players.iter().map(|&player| player.into()).collect(),
                ..summary("frente", phase)
            }),
            token: Some(TokenHash::of(token)),
            lease: Some(BotLease::Take {
                holder,
                until_ms: 1 << 50,
            }),
            ..self
        }
    }
}

/// Makes every one of `planned` at once, so that a backend that commits in groups takes
/// several of them together; their outcomes, in order.
async fn all_at_once(store: &Arc<dyn Store>, planned: &[Planned]) -> Vec<Result<(), StoreError>> {
    let tasks: Vec<_> = planned
        .iter()
        .cloned()
        .map(|planned| {
            let store = Arc::clone(store);
            tokio::spawn(async move {
                let append = Append {
                    version: planned.version,
                    record: &record(&format!("m{}", planned.version)),
                    summary: planned.summary.as_ref(),
                    token: planned.token,
                    lease: planned.lease,
                };
                store.append(planned.game, append).await
            })
        })
        .collect();
    let mut outcomes = Vec::with_capacity(tasks.len());
    for task in tasks {
        outcomes.push(task.await.expect("task"));
    }
    outcomes
}

/// Creates `count` games in play.
async fn games_in_play(store: &dyn Store, count: usize) -> Vec<GameId> {
    let mut games = Vec::with_capacity(count);
    for _ in 0..count {
        games.push(create(store, &summary("frente", GamePhase::Playing), None).await);
    }
    games
}

/// Whether server `holder` could take game `game`'s bot lease now: no other server holds it.
async fn lease_free(store: &dyn Store, game: GameId, holder: u64) -> bool {
    store.take_lease(game, holder, 0, 1).await.expect("asks")
}

/// Appends made at once, several of them refused (out of turn, racing one another, of a
/// game that does not exist), refuse those alone: the others are in with their summaries,
/// tokens and leases, and nothing of a refused one is written.
pub async fn conflicts_inside_a_group_refuse_their_own_appends_only(mut backend: impl Backend) {
    let mut store = backend.store();
    let games = games_in_play(store.as_ref(), 8).await;
    let mut planned = Vec::new();
    for (index, &game) in games.iter().enumerate() {
        let next = Planned::plain(game, 2);
        planned.push(if index % 2 == 0 {
            next.with_rows(GamePhase::Finished, &["Ana"], &format!("in {index}"), 7)
        } else {
            next
        });
        if index % 2 == 1 {
            let gap = Planned::plain(game, 4);
            planned.push(gap.with_rows(GamePhase::Setup, &["X"], &format!("gap {index}"), 8));
        }
    }
    // A second writer of game 0's version 2, and a game that does not exist.
    let racer = Planned::plain(games[0], 2);
    planned.push(racer.with_rows(GamePhase::Finished, &["Ana"], "racer", 9));
    let nowhere = Planned::plain(GameId(games[7].0 + 100), 2);
    planned.push(nowhere.with_rows(GamePhase::Setup, &["X"], "nowhere", 8));

    let outcomes = all_at_once(&store, &planned).await;
    let mut through = 0;
    for (planned, outcome) in planned.iter().zip(&outcomes) {
        match outcome {
            Ok(()) if planned.version == 2 && planned.game <= games[7] => through += 1,
            Err(StoreError::Conflict { game, version })
                if (*game, *version) == (planned.game, planned.version)
                    && (planned.version != 2
                        || planned.game == games[0]
                        || planned.game > games[7]) => {}
            other => panic!("{planned:?}: {other:?}"),
        }
    }
    assert_eq!(
        through, 8,
        "one append of version 2 of each game: {outcomes:?}"
    );

    for round in ["before", "after"] {
        for (index, &game) in games.iter().enumerate() {
            let log = store.log(game).await.expect("log");
            assert_eq!(
                notations(&log),
                ["created", "m2"],
                "game {index} {round} the restart"
            );
            let phase = if index % 2 == 0 {
                GamePhase::Finished
            } else {
                GamePhase::Playing
            };
            let stored = store.summary(game).await.expect("summary").expect("a game");
            assert_eq!(
                stored.phase,
                phase.number(),
                "game {index} {round} the restart"
            );
            // Game 0's winner is one of two racers (below).
            if index > 0 {
                let token = TokenHash::of(&format!("in {index}"));
                let owner = store.token_owner(&token).await.expect("owner");
                assert_eq!(owner, (index % 2 == 0).then_some(game), "game {index}");
            }
            let gap = TokenHash::of(&format!("gap {index}"));
            assert_eq!(store.token_owner(&gap).await.expect("owner"), None);
        }
        let tokens = [TokenHash::of("in 0"), TokenHash::of("racer")];
        let mut owners = 0;
        for token in &tokens {
            owners += usize::from(store.token_owner(token).await.expect("owner").is_some());
        }
        assert_eq!(
            owners, 1,
            "the token of game 0's winner alone, {round} the restart"
        );
        assert_eq!(
            store
                .token_owner(&TokenHash::of("nowhere"))
                .await
                .expect("owner"),
            None
        );
        drop(store);
        backend.restart().await;
        store = backend.store();
    }
    // Server 8 wrote nothing but out-of-turn appends: it holds no lease.
    assert!(lease_free(store.as_ref(), games[1], 10).await);
}

/// Appends made at once that all conflict write nothing, and the store goes on.
pub async fn a_group_of_conflicts_writes_nothing(backend: impl Backend) {
    let store = backend.store();
    let games = games_in_play(store.as_ref(), 4).await;
    for &game in &games {
        append(store.as_ref(), game, 2).await.expect("appends");
    }
    let mut planned = Vec::new();
    for (index, &game) in games.iter().enumerate() {
        for version in [2, 4] {
            let token = format!("{index} at {version}");
            let refused = Planned::plain(game, version);
            planned.push(refused.with_rows(GamePhase::Finished, &["X"], &token, 5));
        }
    }
    for outcome in all_at_once(&store, &planned).await {
        assert!(
            matches!(outcome, Err(StoreError::Conflict { .. })),
            "{outcome:?}"
        );
    }
    for (index, &game) in games.iter().enumerate() {
        assert_eq!(store.log(game).await.expect("log").len(), 2);
        let stored = store.summary(game).await.expect("summary").expect("a game");
        assert_eq!(stored, summary("frente", GamePhase::Playing));
        for version in [2, 4] {
            let token = TokenHash::of(&format!("{index} at {version}"));
            assert_eq!(store.token_owner(&token).await.expect("owner"), None);
        }
        assert!(lease_free(store.as_ref(), game, 6).await, "game {index}");
    }
    let next: Vec<Planned> = games.iter().map(|&game| Planned::plain(game, 3)).collect();
    for outcome in all_at_once(&store, &next).await {
        outcome.expect("appends after the conflicts");
    }
}

/// Appends whose write failed to serialize (on a backend where that happens) are written
/// when it runs again: plain moves, and moves that write summaries, tokens and leases.
pub async fn a_group_that_failed_to_serialize_runs_again(backend: impl Backend) {
    let store = backend.store();
    let games = games_in_play(store.as_ref(), 4).await;
    backend.fail_to_serialize_once().await;
    let plain: Vec<Planned> = games.iter().map(|&game| Planned::plain(game, 2)).collect();
    for outcome in all_at_once(&store, &plain).await {
        outcome.expect("appends on the second attempt");
    }
    backend.fail_to_serialize_once().await;
    let with_rows: Vec<Planned> = games
        .iter()
        .enumerate()
        .map(|(index, &game)| {
            let next = Planned::plain(game, 3);
            next.with_rows(GamePhase::Finished, &["Ana"], &format!("t{index}"), 3)
        })
        .collect();
    for outcome in all_at_once(&store, &with_rows).await {
        outcome.expect("appends on the second attempt");
    }
    for (index, &game) in games.iter().enumerate() {
        let log = store.log(game).await.expect("log");
        assert_eq!(notations(&log), ["created", "m2", "m3"]);
        let stored = store.summary(game).await.expect("summary").expect("a game");
        assert_eq!(stored.phase, GamePhase::Finished.number());
        let token = TokenHash::of(&format!("t{index}"));
        assert_eq!(store.token_owner(&token).await.expect("owner"), Some(game));
        assert!(
            !lease_free(store.as_ref(), game, 4).await,
            "server 3 holds it"
        );
    }
}

/// Ids are new and increase across restarts.
pub async fn ids_are_new_and_increase_across_restarts(mut backend: impl Backend) {
    let store = backend.store();
    let first = create(store.as_ref(), &summary("frente", GamePhase::Waiting), None).await;
    let second = create(store.as_ref(), &summary("frente", GamePhase::Waiting), None).await;
    assert!(second > first && first.0 > 0);
    drop(store);
    backend.restart().await;
    let store = backend.store();
    let third = create(store.as_ref(), &summary("frente", GamePhase::Waiting), None).await;
    assert!(third > second, "{third:?} after {second:?}");
}

/// Listings page newest first and filter.
pub async fn listings_page_newest_first_and_filter(backend: impl Backend) {
    let store = backend.store();
    let mut made = Vec::new();
    for (ruleset, phase) in [
        ("frente", GamePhase::Finished),
        ("asalto", GamePhase::Waiting),
        ("frente", GamePhase::Waiting),
        ("tanques", GamePhase::Playing),
        ("frente", GamePhase::Waiting),
    ] {
        made.push(create(store.as_ref(), &summary(ruleset, phase), None).await);
    }
    let list = |query: ListQuery| {
        let store = Arc::clone(&store);
        async move {
            let page = store.list(&query).await.expect("lists");
            page.into_iter().map(|(game, _)| game).collect::<Vec<_>>()
        }
    };
    let all = ListQuery {
        limit: 10,
        ..ListQuery::default()
    };
    assert_eq!(
        list(all).await,
        made.iter().rev().copied().collect::<Vec<_>>()
    );
    let waiting = ListQuery {
        phase: Some(GamePhase::Waiting),
        ..all
    };
    assert_eq!(list(waiting).await, [made[4], made[2], made[1]]);
    let page = ListQuery {
        limit: 2,
        ..waiting
    };
    assert_eq!(list(page).await, [made[4], made[2]]);
    let next = ListQuery {
        before: Some(made[2]),
        ..page
    };
    assert_eq!(list(next).await, [made[1]]);
    let frente = ListQuery {
        ruleset: Some(0),
        ..all
    };
    assert_eq!(list(frente).await, [made[4], made[2], made[0]]);
    let bullet = ListQuery {
        speed: Some(Speed::Bullet),
        ..all
    };
    assert!(list(bullet).await.is_empty());
}

/// Queries find unfinished and unstarted games.
pub async fn queries_find_unfinished_and_unstarted_games(backend: impl Backend) {
    let store = backend.store();
    let bots = |levels: &[&str]| levels.iter().map(|l| (*l).to_owned()).collect();
    let person = create(store.as_ref(), &summary("frente", GamePhase::Playing), None).await;
    let with_bot = SummaryRecord {
        bots: bots(&["", "hard"]),
        since_ms: 50,
        ..summary("frente", GamePhase::Setup)
    };
    let against_bot = create(store.as_ref(), &with_bot, None).await;
    let exhibition = SummaryRecord {
        bots: bots(&["easy", "hard"]),
        speed: Speed::Blitz.number(),
        ..summary("tanques", GamePhase::Playing)
    };
    let exhibition = create(store.as_ref(), &exhibition, None).await;
    let waiting = SummaryRecord {
        since_ms: 10,
        ..summary("asalto", GamePhase::Waiting)
    };
    let waiting = create(store.as_ref(), &waiting, None).await;
    let over = create(
        store.as_ref(),
        &summary("frente", GamePhase::Finished),
        None,
    )
    .await;
    let unfinished = |which| {
        let store = Arc::clone(&store);
        async move { store.unfinished(which).await.expect("query") }
    };
    assert_eq!(
        unfinished(Unfinished::All).await,
        [person, against_bot, exhibition, waiting]
    );
    assert_eq!(
        unfinished(Unfinished::WithBots).await,
        [against_bot, exhibition]
    );
    assert_eq!(unfinished(Unfinished::Exhibitions).await, [exhibition]);
    assert_eq!(unfinished(Unfinished::Timed).await, [exhibition]);
    for (which, count) in [(Unfinished::All, 4), (Unfinished::Exhibitions, 1)] {
        assert_eq!(store.count_unfinished(which).await.expect("count"), count);
    }
    let unstarted = store.unstarted().await.expect("query");
    let found: Vec<(GameId, GamePhase, u64)> = unstarted
        .iter()
        .map(|u| (u.game, u.phase, u.since_ms))
        .collect();
    assert_eq!(
        found,
        [
            (waiting, GamePhase::Waiting, 10),
            (against_bot, GamePhase::Setup, 50)
        ]
    );
    // A game that ends leaves every query.
    store
        .append(
            exhibition,
            Append {
                version: 2,
                record: &record("end"),
                summary: Some(&summary("tanques", GamePhase::Finished)),
                token: None,
                lease: None,
            },
        )
        .await
        .expect("appends");
    assert_eq!(
        store
            .count_unfinished(Unfinished::Exhibitions)
            .await
            .expect("count"),
        0
    );
    assert!(!unfinished(Unfinished::All).await.contains(&over));
}

/// Downtime is the gap before a start.
pub async fn downtime_is_the_gap_before_a_start(mut backend: impl Backend) {
    let store = backend.store();
    assert!(
        store
            .record_downtime(1_000)
            .await
            .expect("first start")
            .0
            .is_empty()
    );
    store.mark_alive(5_000).await.expect("alive");
    // sled notes the time with its next group: an append makes one.
    create(store.as_ref(), &summary("frente", GamePhase::Waiting), None).await;
    drop(store);
    backend.restart().await;
    let store = backend.store();
    let downtime = store.record_downtime(9_000).await.expect("restart");
    assert_eq!(downtime.0, [(5_000, 9_000)]);
    assert_eq!(downtime.after(7_000), 2_000);
}

/// Restored games keep their ids and are written once.
pub async fn restored_games_keep_their_ids_and_are_written_once(mut backend: impl Backend) {
    let store = backend.store();
    let log: Vec<EventRecord> = (1..=70).map(|v| record(&format!("m{v}"))).collect();
    let playing = summary("clasico", GamePhase::Playing);
    let tokens = [TokenHash::of("first"), TokenHash::of("second")];
    let restored = Restored {
        log: &log,
        summary: &playing,
        tokens: &tokens,
    };
    for out_of_range in [GameId(0), GameId(GameId::MAX.0 + 1), GameId(u64::MAX)] {
        let refused = store.restore(out_of_range, restored).await;
        assert!(
            matches!(refused, Err(StoreError::IdOutOfRange(id)) if id == out_of_range),
            "{refused:?}"
        );
    }
    assert!(store.restore(GameId(40), restored).await.expect("restores"));
    let other = Restored {
        log: &log[..1],
        summary: &summary("frente", GamePhase::Waiting),
        tokens: &[],
    };
    assert!(!store.restore(GameId(40), other).await.expect("answers"));
    drop(store);
    backend.restart().await;
    let store = backend.store();
    assert_eq!(store.log(GameId(40)).await.expect("log"), log);
    assert_eq!(
        store.summary(GameId(40)).await.expect("summary"),
        Some(playing)
    );
    for token in &tokens {
        assert_eq!(
            store.token_owner(token).await.expect("owner"),
            Some(GameId(40))
        );
    }
    assert_eq!(
        store.unfinished(Unfinished::All).await.expect("unfinished"),
        [GameId(40)]
    );
    append(store.as_ref(), GameId(40), 71)
        .await
        .expect("appends after");
    let created = create(store.as_ref(), &summary("frente", GamePhase::Waiting), None).await;
    assert!(created > GameId(40), "{created:?}");
}

/// A restored lifetime is what the next start counts from.
pub async fn a_restored_lifetime_is_what_the_next_start_counts_from(mut backend: impl Backend) {
    let store = backend.store();
    let lifetime = Lifetime {
        alive_ms: Some(50_000),
        downtime: Downtime(vec![(10_000, 20_000)]),
    };
    store.restore_lifetime(&lifetime).await.expect("restores");
    assert_eq!(store.lifetime().await.expect("reads"), lifetime);
    drop(store);
    backend.restart().await;
    let store = backend.store();
    let downtime = store.record_downtime(80_000).await.expect("starts");
    assert_eq!(downtime.0, [(10_000, 20_000), (50_000, 80_000)]);
}

/// Log after gives what a copy missed.
pub async fn log_after_gives_what_a_copy_missed(backend: impl Backend) {
    let store = backend.store();
    let game = create(store.as_ref(), &summary("frente", GamePhase::Playing), None).await;
    for version in 2..=5 {
        append(store.as_ref(), game, version)
            .await
            .expect("appends");
    }
    let after = |version| {
        let store = Arc::clone(&store);
        async move { notations(&store.log_after(game, version).await.expect("reads")) }
    };
    assert_eq!(after(3).await, ["m4", "m5"]);
    assert_eq!(after(0).await.len(), 5);
    assert!(after(5).await.is_empty());
    assert!(after(99).await.is_empty());
    let missing = store.log_after(GameId(9_999), 0).await.expect("reads");
    assert!(missing.is_empty());
}

/// Bot leases go to one server at a time.
pub async fn bot_leases_go_to_one_server_at_a_time(backend: impl Backend) {
    let store = backend.store();
    let store = store.as_ref();
    let game = create(store, &summary("frente", GamePhase::Playing), None).await;
    let (a, b) = (11, 22);
    // The append that hands the turn to a bot leases it to its writer.
    let take = BotLease::Take {
        holder: a,
        until_ms: 10_000,
    };
    append_leasing(store, game, 2, Some(take))
        .await
        .expect("appends");
    let taken = |holder, now, until| store.take_lease(game, holder, now, until);
    assert!(!taken(b, 5_000, 20_000).await.expect("asks"), "a holds it");
    assert!(taken(a, 5_000, 20_000).await.expect("asks"), "a renews it");
    let expired = |now| store.expired_leases(now, 10);
    assert!(expired(15_000).await.expect("asks").is_empty());
    store
        .renew_leases(a, &[game], 30_000)
        .await
        .expect("renews");
    assert!(expired(25_000).await.expect("asks").is_empty());
    assert_eq!(expired(31_000).await.expect("asks"), [game]);
    assert!(
        taken(b, 31_000, 40_000).await.expect("asks"),
        "run out: b takes it over"
    );
    assert!(
        !taken(a, 32_000, 50_000).await.expect("asks"),
        "now b holds it"
    );
    store.give_up_leases(b).await.expect("gives up");
    assert_eq!(expired(33_000).await.expect("asks"), [game]);
    // The append that gives the turn back to a person ends the lease.
    append_leasing(store, game, 3, Some(BotLease::End))
        .await
        .expect("appends");
    assert!(expired(1 << 50).await.expect("asks").is_empty());
    let none = store
        .take_lease(GameId(9_999), a, 0, 1)
        .await
        .expect("asks");
    assert!(!none, "a game that does not exist is never leased");
}

fn account(name: &str) -> AccountRecord {
    AccountRecord {
        name: name.into(),
        folded: name.to_lowercase(),
        password: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        created_ms: 1_000,
        ..AccountRecord::default()
    }
}

fn account_token(account: AccountId, label: &str) -> AccountTokenRecord {
    AccountTokenRecord {
        account: account.0,
        scopes: 1,
        label: label.into(),
        created_ms: 2_000,
        expires_ms: 0,
        session: true,
    }
}

/// Accounts hold their names and survive restarts.
pub async fn accounts_hold_their_names_and_survive_restarts(mut backend: impl Backend) {
    let store = backend.store();
    let ana = store
        .create_account(&account("Ana"), 0)
        .await
        .expect("creates")
        .expect("a free name");
    let again = store
        .create_account(&account("ANA"), 0)
        .await
        .expect("answers");
    assert_eq!(again, None, "the folded name is taken");
    let beto = store
        .create_account(&account("Beto"), 0)
        .await
        .expect("creates")
        .expect("a free name");
    assert!(beto > ana);
    let mut disabled = account("Beto");
    disabled.disabled = true;
    store
        .update_account(beto, &disabled)
        .await
        .expect("updates");
    drop(store);
    backend.restart().await;
    let store = backend.store();
    assert_eq!(
        store.account(ana).await.expect("reads"),
        Some(account("Ana"))
    );
    assert_eq!(
        store.account_named("beto").await.expect("reads"),
        Some((beto, disabled))
    );
    assert_eq!(store.account_named("nadie").await.expect("reads"), None);
    let page: Vec<AccountId> = store
        .accounts(None, 10)
        .await
        .expect("lists")
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(page, [ana, beto]);
    let after: Vec<AccountId> = store
        .accounts(Some(ana), 10)
        .await
        .expect("lists")
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(after, [beto]);
    // A deleted account's name is reserved until the given time, then free again.
    let mut deleted = account("Ana");
    deleted.deleted_ms = 5_000;
    store.update_account(ana, &deleted).await.expect("deletes");
    let reserved = store.create_account(&account("ana"), 5_000).await;
    assert_eq!(reserved.expect("answers"), None, "still reserved");
    let taken_over = store
        .create_account(&account("ana"), 5_001)
        .await
        .expect("answers")
        .expect("free again");
    assert!(taken_over > beto, "ids are never used twice");
    assert_eq!(
        store
            .account_named("ana")
            .await
            .expect("reads")
            .map(|(id, _)| id),
        Some(taken_over)
    );
    assert_eq!(
        store.account(ana).await.expect("reads"),
        Some(deleted),
        "kept"
    );
    drop(store);
    backend.restart().await;
    let store = backend.store();
    assert_eq!(
        store
            .account_named("ana")
            .await
            .expect("reads")
            .map(|(id, _)| id),
        Some(taken_over)
    );
    let newest = store
        .create_account(&account("Cleo"), 0)
        .await
        .expect("creates")
        .expect("a free name");
    assert!(newest > taken_over, "ids go on after a restart");
}

/// Account tokens are found, listed and removed.
pub async fn account_tokens_are_found_listed_and_removed(mut backend: impl Backend) {
    let store = backend.store();
    let ana = AccountId(1);
    let hashes = [
        TokenHash::of("tra1_a"),
        TokenHash::of("tra1_b"),
        TokenHash::of("tra1_c"),
    ];
    let tokens = [
        account_token(ana, "laptop"),
        account_token(ana, "phone"),
        account_token(AccountId(2), "bot"),
    ];
    for (hash, token) in hashes.iter().zip(&tokens) {
        store.put_account_token(hash, token).await.expect("stores");
    }
    assert_eq!(
        store.account_token(&hashes[1]).await.expect("reads"),
        Some(tokens[1].clone())
    );
    assert_eq!(
        store
            .account_token(&TokenHash::of("x"))
            .await
            .expect("reads"),
        None
    );
    let mut of_ana: Vec<String> = store
        .account_tokens(ana)
        .await
        .expect("lists")
        .into_iter()
        .map(|(_, token)| token.label)
        .collect();
    of_ana.sort();
    assert_eq!(of_ana, ["laptop", "phone"]);
    assert!(
        store
            .remove_account_token(&hashes[0])
            .await
            .expect("removes")
    );
    assert!(
        !store
            .remove_account_token(&hashes[0])
            .await
            .expect("answers")
    );
    drop(store);
    backend.restart().await;
    let store = backend.store();
    assert_eq!(store.account_token(&hashes[0]).await.expect("reads"), None);
    assert_eq!(store.account_tokens(ana).await.expect("lists").len(), 1);
    assert_eq!(
        store.account_token(&hashes[2]).await.expect("reads"),
        Some(tokens[2].clone())
    );
}

/// Listings filter by player.
pub async fn listings_filter_by_player(mut backend: impl Backend) {
    let store = backend.store();
    let seated = |accounts: [u64; 2]| SummaryRecord {
        accounts: accounts.to_vec(),
        ..summary("frente", GamePhase::Playing)
    };
    let first = create(store.as_ref(), &seated([1, 0]), None).await;
    let second = create(store.as_ref(), &seated([0, 2]), None).await;
    let third = create(store.as_ref(), &seated([1, 2]), None).await;
    let _other = create(store.as_ref(), &summary("frente", GamePhase::Waiting), None).await;
    let games_of = |store: Arc<dyn Store>, player: u64| async move {
        let query = ListQuery {
            player: Some(AccountId(player)),
            limit: 10,
            ..ListQuery::default()
        };
        let listed = store.list(&query).await.expect("lists");
        listed.into_iter().map(|(id, _)| id).collect::<Vec<_>>()
    };
    assert_eq!(games_of(store.clone(), 1).await, [third, first]);
    assert_eq!(games_of(store.clone(), 2).await, [third, second]);
    assert!(games_of(store.clone(), 3).await.is_empty());
    // A seat taken later (a summary rewritten) counts too.
    append_summary(store.as_ref(), second, &seated([4, 2])).await;
    assert_eq!(games_of(store.clone(), 4).await, [second]);
    drop(store);
    backend.restart().await;
    let store = backend.store();
    assert_eq!(games_of(store.clone(), 1).await, [third, first]);
    assert_eq!(games_of(store.clone(), 4).await, [second]);
    let paged = store
        .list(&ListQuery {
            player: Some(AccountId(1)),
            before: Some(third),
            limit: 10,
            ..ListQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!(paged.len(), 1);
}

/// Appends an entry to `game` (at version 2) that rewrites its summary.
async fn append_summary(store: &dyn Store, game: GameId, summary: &SummaryRecord) {
    store
        .append(
            game,
            Append {
                version: 2,
                record: &record("joined"),
                summary: Some(summary),
                token: None,
                lease: None,
            },
        )
        .await
        .expect("appends");
}

/// Restored accounts keep their ids.
pub async fn restored_accounts_keep_their_ids(mut backend: impl Backend) {
    let store = backend.store();
    let tokens = [(TokenHash::of("tra1_x"), account_token(AccountId(40), "cli"))];
    assert!(
        store
            .restore_account(AccountId(40), &account("Dora"), &tokens)
            .await
            .expect("restores")
    );
    assert!(
        !store
            .restore_account(AccountId(40), &account("Other"), &[])
            .await
            .expect("answers")
    );
    drop(store);
    backend.restart().await;
    let store = backend.store();
    assert_eq!(
        store.account_named("dora").await.expect("reads"),
        Some((AccountId(40), account("Dora")))
    );
    assert_eq!(
        store.account_token(&tokens[0].0).await.expect("reads"),
        Some(tokens[0].1.clone())
    );
    let next = store
        .create_account(&account("Eva"), 0)
        .await
        .expect("creates")
        .expect("a free name");
    assert!(next > AccountId(40), "{next:?}");
    // Two accounts that had one name: the later holds it, in either order of restoring.
    let gone = AccountRecord {
        deleted_ms: 5,
        ..account("Flor")
    };
    for (id, record) in [(AccountId(60), &account("Flor")), (AccountId(50), &gone)] {
        store
            .restore_account(id, record, &[])
            .await
            .expect("restores");
    }
    let holder = store.account_named("flor").await.expect("reads");
    assert_eq!(holder.map(|(id, _)| id), Some(AccountId(60)));
    store
        .restore_account(AccountId(70), &account("Flor"), &[])
        .await
        .expect("restores");
    let holder = store.account_named("flor").await.expect("reads");
    assert_eq!(holder.map(|(id, _)| id), Some(AccountId(70)));
}

#[cfg(test)]
mod memory {
    use super::Memory;

    async fn on_memory<F: Future<Output = ()>>(test: impl FnOnce(Memory) -> F) {
        test(Memory::new()).await;
    }

    crate::conformance_tests!(on_memory);
}
