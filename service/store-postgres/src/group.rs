//! Group commit: the appends waiting at one moment, of many games, go to the database
//! together, and each learns alone whether it got in.
//!
//! One task, the committer, takes what is queued (one append a game: a second one of the
//! same game waits for the next group) and writes it with one statement,
//!
//! ```sql
//! INSERT INTO events (game_id, version, record)
//! SELECT … FROM UNNEST($1::INT8[], $2::INT8[], $3::BYTEA[]) AS a (game_id, version, record)
//! WHERE EXISTS (the previous version of the game)
//! ON CONFLICT DO NOTHING RETURNING game_id, version
//! ```
//!
//! An append whose row does not come back conflicted ([`StoreError::Conflict`]: its version
//! is taken or does not follow its log); the others are in, whatever happened to the rest
//! of the group. A group of plain moves is that statement alone, its own transaction: one
//! round trip. When some append also writes other rows (a summary, a seat's token, a bot
//! lease) the group is a transaction of two round trips: `BEGIN` with the insert, then the
//! other rows of the appends that got in ([`Besides`]) with `COMMIT`. The rows of an
//! append that conflicted are not written: which those are is only known from the insert's
//! answer (a statement sent with it could not tell, under READ COMMITTED, a row this
//! transaction inserted from one another transaction committed meanwhile, and
//! data-modifying CTEs are outside the SQL subset).
//!
//! One group is on its way at a time, on one connection of the pool, and the next one
//! gathers meanwhile; the committer waits for no timer (a lone append goes at once). Two or
//! four groups at once were measured too, at 128 games flat out on two cores: their groups
//! were smaller (23 and 11 appends on average, against 43) and cost the database more CPU a
//! move, for no more moves a second (`docs/benchmarks/saturation.md`). A serialization
//! failure runs the whole group again ([`retrying`]); any other failure fails every append
//! of the group.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use deadpool_postgres::Pool;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::besides::{self, Besides};
use super::retry::retrying;
use super::{get, unpooled};
use trinchera_store::StoreError;

/// Appends in one group at most (one statement's arrays).
const MAX_GROUP: usize = 1024;

/// Why one append of a group is not in.
#[derive(Clone, Debug)]
pub(super) enum Refusal {
    /// Its version was taken, or does not follow its log.
    Conflict,
    /// The group could not be written.
    Failed(GroupFailed),
}

/// The group an append was in could not be written: the error each of its appends reports.
#[derive(Clone, Debug, thiserror::Error)]
#[error("the group of appends it was in could not be written")]
pub(super) struct GroupFailed(#[source] pub(super) Arc<StoreError>);

/// One append as the committer receives it, encoded.
pub(super) struct Queued {
    /// The game.
    pub(super) id: i64,
    /// The version the append writes.
    pub(super) version: i64,
    /// The encoded log entry.
    pub(super) record: Vec<u8>,
    /// What it writes besides its event.
    pub(super) besides: Besides,
    /// Told whether the append is in, once it is durable.
    pub(super) answer: oneshot::Sender<Result<(), Refusal>>,
}

/// The queue to the committer task, and the task.
pub(super) struct Committer {
    queue: Mutex<Option<mpsc::UnboundedSender<Queued>>>,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl Committer {
    /// Starts the committer, writing groups through `pool`.
    pub(super) fn start(pool: Pool) -> Committer {
        let (queue, queued) = mpsc::unbounded_channel();
        Committer {
            queue: Mutex::new(Some(queue)),
            task: Mutex::new(Some(tokio::spawn(commit_loop(pool, queued)))),
        }
    }

    /// Queues `append` and waits until it is durable, or refused.
    pub(super) async fn commit(
        &self,
        append: impl FnOnce(oneshot::Sender<Result<(), Refusal>>) -> Queued,
    ) -> Result<Result<(), Refusal>, StoreError> {
        let (answer, answered) = oneshot::channel();
        {
            let queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            let queue = queue.as_ref().ok_or(StoreError::Closed)?;
            queue.send(append(answer)).map_err(|_| StoreError::Closed)?;
        }
        answered.await.map_err(|_| StoreError::Closed)
    }

    /// Takes no more appends and waits until every queued one is answered.
    pub(super) async fn close(&self) {
        drop(self.queue.lock().unwrap_or_else(|e| e.into_inner()).take());
        let task = self.task.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(task) = task
            && let Err(error) = task.await
        {
            tracing::error!(%error, "the group committer failed");
        }
    }
}

/// Takes what is queued as groups and writes them one after the other, until the queue is
/// closed and everything is answered.
async fn commit_loop(pool: Pool, mut queued: mpsc::UnboundedReceiver<Queued>) {
    let mut waiting = VecDeque::new();
    loop {
        if waiting.is_empty() {
            match queued.recv().await {
                Some(append) => waiting.push_back(append),
                None => break,
            }
        }
        while let Ok(append) = queued.try_recv() {
            waiting.push_back(append);
        }
        write(&pool, take_group(&mut waiting)).await;
    }
}

/// The next group: the first waiting append of each game, [`MAX_GROUP`] at most, by game
/// (so that groups of servers sharing the database take the rows of the games they share
/// in one order); the others keep waiting, in order.
fn take_group(waiting: &mut VecDeque<Queued>) -> Vec<Queued> {
    let mut games = HashSet::new();
    let mut group = Vec::new();
    let mut rest = VecDeque::new();
    for append in waiting.drain(..) {
        if group.len() < MAX_GROUP && games.insert(append.id) {
            group.push(append);
        } else {
            rest.push_back(append);
        }
    }
    *waiting = rest;
    group.sort_by_key(|append| append.id);
    group
}

/// Writes `group` (again after a serialization failure) and answers each of its appends.
async fn write(pool: &Pool, group: Vec<Queued>) {
    let started = Instant::now();
    let outcome = retrying(|| attempt(pool, &group)).await;
    trinchera_store::metrics::group_commit(group.len(), started.elapsed().as_secs_f64());
    let outcome = outcome.map_err(|error| {
        tracing::error!(%error, appends = group.len(), "group commit failed");
        Arc::new(error)
    });
    for (index, append) in group.into_iter().enumerate() {
        let answer = match &outcome {
            Ok(inside) if inside[index] => Ok(()),
            Ok(_) => Err(Refusal::Conflict),
            Err(error) => Err(Refusal::Failed(GroupFailed(Arc::clone(error)))),
        };
        // A waiter that gave up is fine: its append is durable anyway.
        let _ = append.answer.send(answer);
    }
}

/// One attempt at writing `group`: for each append, whether it is in.
async fn attempt(pool: &Pool, group: &[Queued]) -> Result<Vec<bool>, StoreError> {
    let client = pool.get().await.map_err(unpooled)?;
    let sql = "INSERT INTO events (game_id, version, record) \
               SELECT a.game_id, a.version, a.record \
               FROM UNNEST($1::INT8[], $2::INT8[], $3::BYTEA[]) AS a (game_id, version, record) \
               WHERE EXISTS (SELECT 1 FROM events e \
                             WHERE e.game_id = a.game_id AND e.version = a.version - 1) \
               ON CONFLICT DO NOTHING RETURNING game_id, version";
    let insert = client
        .prepare_cached(sql)
        .await
        .map_err(StoreError::backend)?;
    let games: Vec<i64> = group.iter().map(|append| append.id).collect();
    let versions: Vec<i64> = group.iter().map(|append| append.version).collect();
    let records: Vec<&[u8]> = group
        .iter()
        .map(|append| append.record.as_slice())
        .collect();
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 3] = [&games, &versions, &records];
    if group.iter().all(|append| append.besides.is_empty()) {
        let inserted = client
            .query(&insert, &params)
            .await
            .map_err(StoreError::backend)?;
        return inside(group, &inserted);
    }
    let outcome = async {
        let (began, inserted) = tokio::join!(
            client.batch_execute("BEGIN"),
            client.query(&insert, &params)
        );
        began.map_err(StoreError::backend)?;
        let inside = inside(group, &inserted.map_err(StoreError::backend)?)?;
        let besides: Vec<&Besides> = group
            .iter()
            .zip(&inside)
            .filter(|&(_, &inside)| inside)
            .map(|(append, _)| &append.besides)
            .collect();
        besides::write_all(&besides, &client, Some("COMMIT")).await?;
        Ok(inside)
    }
    .await;
    if outcome.is_err() {
        // Ends the transaction if it is still open (nothing to do after a failed COMMIT),
        // so that the connection goes back to the pool outside of any.
        let _ = client.batch_execute("ROLLBACK").await;
    }
    outcome
}

/// Which appends of `group` the insert's rows `inserted` (game, version) name.
fn inside(group: &[Queued], inserted: &[tokio_postgres::Row]) -> Result<Vec<bool>, StoreError> {
    let mut rows = HashSet::with_capacity(inserted.len());
    for row in inserted {
        rows.insert((get::<i64>(row, 0)?, get::<i64>(row, 1)?));
    }
    Ok(group
        .iter()
        .map(|append| rows.contains(&(append.id, append.version)))
        .collect())
}
