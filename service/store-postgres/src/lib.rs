//! A store in PostgreSQL, for servers that share one database (and, with the same SQL,
//! CockroachDB or YugabyteDB: `docs/sql-subset.md` lists what is used and avoided).
//!
//! Tables (`migrations/`): `games` (one row per game: the traits listings filter on, indexed,
//! beside the encoded [`SummaryRecord`]), `events` (the log, one row per entry keyed by
//! `(game_id, version)`), `tokens` (token hash → game), `liveness`, `downtime` and
//! `bot_leases` (which server acts for a game's bot, until when). Stored values use the
//! versioned encoding of [`records`].
//!
//! Writes:
//! - Appends are written in groups ([`group`]): the entries of many games in one statement,
//!   `INSERT … SELECT … FROM UNNEST(…) WHERE` each one's previous version exists `ON
//!   CONFLICT DO NOTHING RETURNING game_id, version`, then the summary, token and lease
//!   rows of those that came back, in the same transaction. An append whose row does not
//!   come back is refused: its version is taken or does not follow the log
//!   ([`StoreError::Conflict`], nothing of it written), whatever happened to the others.
//!   The primary key makes two writers of one version impossible (the second waits for the
//!   first and then inserts nothing), and "the previous version exists" makes gaps
//!   impossible, under any isolation level. An append returns once its group has
//!   committed.
//! - Serialization failures (SQLSTATE 40001, what CockroachDB answers to any collision of
//!   two transactions) are retried with capped backoff ([`retry`]).
//! - Game ids come from the sequence `game_ids` (`CACHE 1`): short decimal numbers,
//!   increasing in the order games were created, which listings page by, on every engine,
//!   and never handed out twice. Random ids retried on conflict would be long (to be rare
//!   to collide) and would not say which game is newer; `MAX(id) + 1` would make every two
//!   concurrent creations collide. A creation that fails leaves a gap, as in sled.
//!
//! A store refuses a database whose schema is not its build's ([`SchemaMismatch`]);
//! [`PostgresStore::migrate`] brings it up to date.

#![warn(unreachable_pub)]

mod besides;
mod connect;
mod group;
mod retry;
mod schema;
pub mod scratch;
#[cfg(test)]
mod tests;

use deadpool_postgres::{GenericClient, Pool, PoolError};
use tokio_postgres::Row;
use tokio_postgres::types::{FromSql, ToSql};

use self::besides::{Besides, GameColumns};
pub use self::connect::is_postgres_url;
use self::group::{Committer, Queued, Refusal};
use self::retry::retrying;
pub use self::schema::{Migrated, SchemaMismatch};
use trinchera_store::records::{
    self, AccountRecord, AccountTokenRecord, EventRecord, SummaryRecord,
};
use trinchera_store::{
    AccountId, Append, Downtime, GameId, GamePhase, Lifetime, ListQuery, Restored, Speed, Store,
    StoreError, TokenHash, Unfinished, Unstarted,
};

/// A [`Store`] in a PostgreSQL database.
pub struct PostgresStore {
    pool: Pool,
    /// Writes the appends, in groups.
    committer: Committer,
}

impl PostgresStore {
    /// Connects to the database `url` names (`postgres://user:password@host:port/db`, with
    /// `?sslmode=disable|prefer|require&sslrootcert=FILE` as [`connect`] says) and checks
    /// that its schema is this build's.
    pub async fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let pool = connect::pool(url)?;
        schema::check(&*pool.get().await.map_err(unpooled)?).await?;
        let committer = Committer::start(pool.clone());
        Ok(PostgresStore { pool, committer })
    }

    /// Brings the schema of the database `url` names up to this build's version: what
    /// `trinchera-server migrate` runs. One job at a time (it takes no lock).
    pub async fn migrate(url: &str) -> Result<Migrated, StoreError> {
        schema::migrate(&mut connect::single(url).await?).await
    }

    async fn client(&self) -> Result<deadpool_postgres::Client, StoreError> {
        self.pool.get().await.map_err(unpooled)
    }

    /// Runs `sql` with `params` on a connection of the pool, outside a transaction.
    async fn read(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        rows(&self.client().await?, sql, params).await
    }
}

/// A failure to get a connection from the pool.
fn unpooled(error: PoolError) -> StoreError {
    match error {
        PoolError::Closed => StoreError::Closed,
        PoolError::Backend(error) => StoreError::backend(error),
        other => StoreError::backend(other),
    }
}

/// Runs `sql` (prepared once per connection) with `params`; its rows.
async fn rows(
    client: &impl GenericClient,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>, StoreError> {
    let statement = client
        .prepare_cached(sql)
        .await
        .map_err(StoreError::backend)?;
    client
        .query(&statement, params)
        .await
        .map_err(StoreError::backend)
}

/// Column `index` of `row`.
fn get<'a, T: FromSql<'a>>(row: &'a Row, index: usize) -> Result<T, StoreError> {
    row.try_get(index).map_err(StoreError::backend)
}

/// Column `index` of `row`, a value in the stored encoding.
fn decoded<M: prost::Message + Default>(row: &Row, index: usize) -> Result<M, StoreError> {
    Ok(records::decode(get(row, index)?)?)
}

/// Column `index` of `row`, a game's id.
fn game_id(row: &Row, index: usize) -> Result<GameId, StoreError> {
    Ok(GameId(unsigned(get(row, index)?)?))
}

/// Records a creation made durable since `started`: each is a transaction of its own, a
/// commit of one in the group-commit metrics.
fn committed_one(started: std::time::Instant) {
    trinchera_store::metrics::group_commit(1, started.elapsed().as_secs_f64());
}

/// A number as an `INT8`; past `i64::MAX` it becomes -1, which no id, version or time is,
/// so that such a game is found nowhere and an append of such a version conflicts.
fn int8(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(-1)
}

/// An `INT8` read back as the number it stores.
fn unsigned(value: i64) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(StoreError::backend)
}

/// The phase numbers of `phases`, as an SQL list.
fn phase_list(phases: &[GamePhase]) -> String {
    let numbers: Vec<String> = phases.iter().map(|p| p.number().to_string()).collect();
    numbers.join(", ")
}

/// The condition on `games` rows that selects the unfinished games of kind `which`.
fn unfinished_filter(which: Unfinished) -> String {
    let unfinished = [GamePhase::Waiting, GamePhase::Setup, GamePhase::Playing];
    let phases = format!("phase IN ({})", phase_list(&unfinished));
    match which {
        Unfinished::All => phases,
        Unfinished::WithBots => format!("{phases} AND bots > 0"),
        Unfinished::Exhibitions => format!("{phases} AND bots >= 2"),
        Unfinished::Timed => format!("{phases} AND speed <> {}", Speed::Untimed.number()),
    }
}

/// Column `index` of `row`, an account's id.
fn account_id(row: &Row, index: usize) -> Result<AccountId, StoreError> {
    Ok(AccountId(unsigned(get(row, index)?)?))
}

impl PostgresStore {
    /// One attempt at creating a game: its row with the next id, its first entry, its
    /// token.
    async fn try_create(&self, creation: Append<'_>) -> Result<GameId, StoreError> {
        let summary = creation
            .summary
            .ok_or_else(|| StoreError::backend("a game is created with its summary"))?;
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(StoreError::backend)?;
        let id = GameColumns::of(summary).insert(&transaction).await?;
        let game = GameId(unsigned(id)?);
        if creation.version != 1 {
            return Err(StoreError::Conflict {
                game,
                version: creation.version,
            });
        }
        let sql = "INSERT INTO events (game_id, version, record) VALUES ($1::INT8, 1, $2::BYTEA)";
        rows(&transaction, sql, &[&id, &records::encode(creation.record)]).await?;
        let mut besides = Besides::default();
        besides.seat(id, summary);
        if let Some(token) = creation.token {
            besides.token(id, token);
        }
        besides.write(&transaction).await?;
        transaction.commit().await.map_err(StoreError::backend)?;
        Ok(game)
    }

    /// One attempt at noting a start at `now_ms`.
    async fn try_record_downtime(&self, now_ms: u64) -> Result<Downtime, StoreError> {
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(StoreError::backend)?;
        let sql = "SELECT alive_ms FROM liveness WHERE id = 1 FOR UPDATE";
        let alive: Option<i64> = get(&rows(&transaction, sql, &[]).await?[0], 0)?;
        let sql = "SELECT from_ms, to_ms FROM downtime ORDER BY from_ms, to_ms";
        let stored = rows(&transaction, sql, &[])
            .await?
            .iter()
            .map(|row| Ok((unsigned(get(row, 0)?)?, unsigned(get(row, 1)?)?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        let mut downtime = Downtime(stored.clone());
        let alive = alive.map(unsigned).transpose()?;
        let alone = alive.is_none_or(|alive| now_ms.saturating_sub(alive) >= ANOTHER_SERVER_MS);
        if alone {
            downtime.note_start(alive, now_ms);
        }
        let added = downtime.0.last() != stored.last();
        if let (true, Some(&(from, to))) = (added, downtime.0.last()) {
            let sql = "INSERT INTO downtime (from_ms, to_ms) VALUES ($1::INT8, $2::INT8) \
                       ON CONFLICT DO NOTHING";
            rows(&transaction, sql, &[&int8(from), &int8(to)]).await?;
        }
        if let Some(&(from, to)) = downtime.0.first()
            && stored.len() + usize::from(added) > downtime.0.len()
        {
            let sql = "DELETE FROM downtime WHERE (from_ms, to_ms) < ($1::INT8, $2::INT8)";
            rows(&transaction, sql, &[&int8(from), &int8(to)]).await?;
        }
        mark_alive(&transaction, now_ms).await?;
        transaction.commit().await.map_err(StoreError::backend)?;
        Ok(downtime)
    }
}

/// Stores an account's token under its hash (replacing one stored before).
async fn insert_account_token(
    client: &impl GenericClient,
    hash: &TokenHash,
    account: i64,
    record: &[u8],
) -> Result<(), StoreError> {
    let sql = "INSERT INTO account_tokens (token_hash, account_id, record) \
               VALUES ($1::BYTEA, $2::INT8, $3::BYTEA) \
               ON CONFLICT (token_hash) DO UPDATE \
               SET account_id = excluded.account_id, record = excluded.record";
    rows(client, sql, &[&hash.0.as_slice(), &account, &record])
        .await
        .map(drop)
}

impl PostgresStore {
    /// One attempt at creating an account: its name is claimed in the same transaction,
    /// taken over from a deleted account only when that one's reservation has passed.
    async fn try_create_account(
        &self,
        account: &AccountRecord,
        reusable_before_ms: u64,
    ) -> Result<Option<AccountId>, StoreError> {
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(StoreError::backend)?;
        let sql = "SELECT a.id, a.record FROM account_names n \
                   JOIN accounts a ON a.id = n.account_id WHERE n.folded = $1::TEXT FOR UPDATE";
        let holder = rows(&transaction, sql, &[&account.folded]).await?;
        let holder = match holder.first() {
            Some(row) => Some((get::<i64>(row, 0)?, decoded::<AccountRecord>(row, 1)?)),
            None => None,
        };
        if !trinchera_store::name_is_free(holder.as_ref().map(|(_, held)| held), reusable_before_ms)
        {
            return Ok(None);
        }
        let sql = "INSERT INTO accounts (id, record) VALUES (nextval('account_ids'), $1::BYTEA) \
                   RETURNING id";
        let id: i64 = get(
            &rows(&transaction, sql, &[&records::encode(account)]).await?[0],
            0,
        )?;
        let claimed = match holder {
            // A concurrent registration of the same new name takes it first: no row back.
            None => {
                let sql = "INSERT INTO account_names (folded, account_id) \
                           VALUES ($1::TEXT, $2::INT8) ON CONFLICT DO NOTHING RETURNING folded";
                rows(&transaction, sql, &[&account.folded, &id]).await?
            }
            Some((old, _)) => {
                let sql = "UPDATE account_names SET account_id = $2::INT8 \
                           WHERE folded = $1::TEXT AND account_id = $3::INT8 RETURNING folded";
                rows(&transaction, sql, &[&account.folded, &id, &old]).await?
            }
        };
        if claimed.is_empty() {
            return Ok(None);
        }
        transaction.commit().await.map_err(StoreError::backend)?;
        Ok(Some(AccountId(unsigned(id)?)))
    }

    /// One attempt at restoring an account under its own id, with its tokens.
    async fn try_restore_account(
        &self,
        id: AccountId,
        account: &AccountRecord,
        tokens: &[(TokenHash, AccountTokenRecord)],
    ) -> Result<bool, StoreError> {
        let id = int8(id.0);
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(StoreError::backend)?;
        let sql = "INSERT INTO accounts (id, record) VALUES ($1::INT8, $2::BYTEA) \
                   ON CONFLICT DO NOTHING RETURNING id";
        if rows(&transaction, sql, &[&id, &records::encode(account)])
            .await?
            .is_empty()
        {
            return Ok(false);
        }
        let sql = "INSERT INTO account_names (folded, account_id) VALUES ($1::TEXT, $2::INT8) \
                   ON CONFLICT (folded) DO UPDATE SET account_id = EXCLUDED.account_id \
                   WHERE account_names.account_id < EXCLUDED.account_id";
        rows(&transaction, sql, &[&account.folded, &id]).await?;
        for (hash, token) in tokens {
            insert_account_token(
                &transaction,
                hash,
                int8(token.account),
                &records::encode(token),
            )
            .await?;
        }
        // Only ever forward: a sequence behind the restored id would hand it out again.
        let sql = "SELECT CASE WHEN nextval('account_ids') < $1::INT8 \
                   THEN setval('account_ids', $1::INT8) END";
        rows(&transaction, sql, &[&id]).await?;
        transaction.commit().await.map_err(StoreError::backend)?;
        Ok(true)
    }

    /// One attempt at restoring a whole game: its row under its own id unless one exists,
    /// its log in one statement, its tokens; the id sequence moved past it.
    async fn try_restore(&self, game: GameId, restored: Restored<'_>) -> Result<bool, StoreError> {
        let id = int8(game.0);
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(StoreError::backend)?;
        let columns = GameColumns::of(restored.summary);
        let sql = "INSERT INTO games (ruleset, phase, speed, bots, since_ms, summary, id) \
                   VALUES ($1::TEXT, $2::INT4, $3::INT4, $4::INT4, $5::INT8, $6::BYTEA, \
                           $7::INT8) \
                   ON CONFLICT DO NOTHING RETURNING id";
        let mut params = columns.params().to_vec();
        params.push(&id);
        if rows(&transaction, sql, &params).await?.is_empty() {
            return Ok(false);
        }
        let versions: Vec<i64> = (1..).take(restored.log.len()).collect();
        let records: Vec<Vec<u8>> = restored.log.iter().map(records::encode).collect();
        let sql = "INSERT INTO events (game_id, version, record) \
                   SELECT $1::INT8, version, record \
                   FROM UNNEST($2::INT8[], $3::BYTEA[]) AS log (version, record)";
        rows(&transaction, sql, &[&id, &versions, &records]).await?;
        let mut besides = Besides::default();
        for &token in restored.tokens {
            besides.token(id, token);
        }
        besides.seat(id, restored.summary);
        besides.write(&transaction).await?;
        // Only ever forward: a sequence behind the restored id would hand it out again.
        let sql = "SELECT CASE WHEN nextval('game_ids') < $1::INT8 \
                   THEN setval('game_ids', $1::INT8) END";
        rows(&transaction, sql, &[&id]).await?;
        transaction.commit().await.map_err(StoreError::backend)?;
        Ok(true)
    }

    /// One attempt at replacing the recorded life.
    async fn try_restore_lifetime(&self, lifetime: &Lifetime) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(StoreError::backend)?;
        rows(&transaction, "DELETE FROM downtime WHERE TRUE", &[]).await?;
        let (from, to): (Vec<i64>, Vec<i64>) = lifetime
            .downtime
            .0
            .iter()
            .map(|&(from, to)| (int8(from), int8(to)))
            .unzip();
        let sql = "INSERT INTO downtime (from_ms, to_ms) \
                   SELECT from_ms, to_ms FROM UNNEST($1::INT8[], $2::INT8[]) AS d (from_ms, to_ms) \
                   ON CONFLICT DO NOTHING";
        rows(&transaction, sql, &[&from, &to]).await?;
        let sql = "UPDATE liveness SET alive_ms = $1::INT8 WHERE id = 1";
        rows(&transaction, sql, &[&lifetime.alive_ms.map(int8)]).await?;
        transaction.commit().await.map_err(StoreError::backend)
    }
}

/// A start within this many milliseconds of the last sign of life of any server on the
/// database counts as no downtime: with several servers on one database, another one was
/// serving meanwhile (they note their life every second).
const ANOTHER_SERVER_MS: u64 = 3_000;

/// Notes a sign of life at `now_ms`. The latest one counts: with several servers on one
/// database, the store is down only when none of them is alive.
async fn mark_alive(client: &impl GenericClient, now_ms: u64) -> Result<(), StoreError> {
    let sql = "UPDATE liveness SET alive_ms = GREATEST(COALESCE(alive_ms, 0), $1::INT8) \
               WHERE id = 1";
    rows(client, sql, &[&int8(now_ms)]).await.map(drop)
}

#[async_trait::async_trait]
impl Store for PostgresStore {
    async fn create(&self, creation: Append<'_>) -> Result<GameId, StoreError> {
        let started = std::time::Instant::now();
        let id = retrying(|| self.try_create(creation)).await?;
        committed_one(started);
        Ok(id)
    }

    async fn append(&self, game: GameId, append: Append<'_>) -> Result<(), StoreError> {
        let (id, version) = (int8(game.0), int8(append.version));
        let queued = |answer| Queued {
            id,
            version,
            record: records::encode(append.record),
            besides: Besides::of_append(id, append.summary, append.token, append.lease),
            answer,
        };
        match self.committer.commit(queued).await? {
            Ok(()) => Ok(()),
            Err(Refusal::Conflict) => Err(StoreError::Conflict {
                game,
                version: append.version,
            }),
            Err(Refusal::Failed(failed)) => Err(match *failed.0 {
                StoreError::Closed => StoreError::Closed,
                _ => StoreError::backend(failed),
            }),
        }
    }

    async fn log(&self, game: GameId) -> Result<Vec<EventRecord>, StoreError> {
        let sql = "SELECT record FROM events WHERE game_id = $1::INT8 ORDER BY version";
        self.read(sql, &[&int8(game.0)])
            .await?
            .iter()
            .map(|row| decoded(row, 0))
            .collect()
    }

    async fn log_after(&self, game: GameId, after: u64) -> Result<Vec<EventRecord>, StoreError> {
        let sql = "SELECT record FROM events WHERE game_id = $1::INT8 AND version > $2::INT8 \
                   ORDER BY version";
        self.read(sql, &[&int8(game.0), &int8(after)])
            .await?
            .iter()
            .map(|row| decoded(row, 0))
            .collect()
    }

    async fn exists(&self, game: GameId) -> Result<bool, StoreError> {
        let sql = "SELECT 1 FROM games WHERE id = $1::INT8";
        let found = self.read(sql, &[&int8(game.0)]).await?;
        Ok(!found.is_empty())
    }

    async fn summary(&self, game: GameId) -> Result<Option<SummaryRecord>, StoreError> {
        let sql = "SELECT summary FROM games WHERE id = $1::INT8";
        self.read(sql, &[&int8(game.0)])
            .await?
            .first()
            .map(|row| decoded(row, 0))
            .transpose()
    }

    async fn list(&self, query: &ListQuery) -> Result<Vec<(GameId, SummaryRecord)>, StoreError> {
        let ruleset = match query.ruleset {
            Some(index) => match trinchera_rules::catalog::RULESETS.get(index) {
                Some(ruleset) => Some((ruleset.description)().id),
                // No game is of a ruleset this build does not host.
                None => return Ok(Vec::new()),
            },
            None => None,
        };
        let before = query.before.map_or(i64::MAX, |game| int8(game.0).max(0));
        let phase = query.phase.map(GamePhase::number);
        let speed = query.speed.map(Speed::number);
        let limit = i64::try_from(query.limit).unwrap_or(i64::MAX);
        let mut sql = String::from("SELECT id, summary FROM games WHERE id < $1::INT8");
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&before];
        match &phase {
            Some(phase) => {
                params.push(phase);
                sql += &format!(" AND phase = ${}::INT4", params.len());
            }
            None => sql += " AND phase IS NOT NULL",
        }
        if let Some(ruleset) = &ruleset {
            params.push(ruleset);
            sql += &format!(" AND ruleset = ${}::TEXT", params.len());
        }
        if let Some(speed) = &speed {
            params.push(speed);
            sql += &format!(" AND speed = ${}::INT4", params.len());
        }
        let player = query.player.map(|account| int8(account.0));
        if let Some(player) = &player {
            params.push(player);
            sql += &format!(
                " AND id IN (SELECT game_id FROM game_players WHERE account_id = ${}::INT8)",
                params.len()
            );
        }
        params.push(&limit);
        sql += &format!(" ORDER BY id DESC LIMIT ${}::INT8", params.len());
        self.read(&sql, &params)
            .await?
            .iter()
            .map(|row| Ok((game_id(row, 0)?, decoded(row, 1)?)))
            .collect()
    }

    async fn unfinished(&self, which: Unfinished) -> Result<Vec<GameId>, StoreError> {
        let sql = format!(
            "SELECT id FROM games WHERE {} ORDER BY id",
            unfinished_filter(which)
        );
        self.read(&sql, &[])
            .await?
            .iter()
            .map(|row| game_id(row, 0))
            .collect()
    }

    async fn count_unfinished(&self, which: Unfinished) -> Result<usize, StoreError> {
        let sql = format!(
            "SELECT COUNT(*)::INT8 FROM games WHERE {}",
            unfinished_filter(which)
        );
        let count: i64 = get(&self.read(&sql, &[]).await?[0], 0)?;
        usize::try_from(count).map_err(StoreError::backend)
    }

    async fn unstarted(&self) -> Result<Vec<Unstarted>, StoreError> {
        let sql = format!(
            "SELECT id, phase, since_ms FROM games WHERE phase IN ({}) ORDER BY since_ms, id",
            phase_list(&[GamePhase::Waiting, GamePhase::Setup])
        );
        self.read(&sql, &[])
            .await?
            .iter()
            .map(|row| {
                let phase = get(row, 1)?;
                Ok(Unstarted {
                    game: game_id(row, 0)?,
                    phase: GamePhase::from_number(phase).ok_or_else(|| {
                        StoreError::backend(format!("unknown phase {phase} of a waiting game"))
                    })?,
                    since_ms: unsigned(get(row, 2)?)?,
                })
            })
            .collect()
    }

    async fn token_owner(&self, token: &TokenHash) -> Result<Option<GameId>, StoreError> {
        let sql = "SELECT game_id FROM tokens WHERE token_hash = $1::BYTEA";
        self.read(sql, &[&token.0.as_slice()])
            .await?
            .first()
            .map(|row| game_id(row, 0))
            .transpose()
    }

    async fn mark_alive(&self, now_ms: u64) -> Result<(), StoreError> {
        mark_alive(&self.client().await?, now_ms).await
    }

    async fn record_downtime(&self, now_ms: u64) -> Result<Downtime, StoreError> {
        retrying(|| self.try_record_downtime(now_ms)).await
    }

    async fn restore(&self, game: GameId, restored: Restored<'_>) -> Result<bool, StoreError> {
        trinchera_store::restorable(game)?;
        retrying(|| self.try_restore(game, restored)).await
    }

    async fn lifetime(&self) -> Result<Lifetime, StoreError> {
        let sql = "SELECT alive_ms FROM liveness WHERE id = 1";
        let alive: Option<i64> = get(&self.read(sql, &[]).await?[0], 0)?;
        let sql = "SELECT from_ms, to_ms FROM downtime ORDER BY from_ms, to_ms";
        let downtime = self
            .read(sql, &[])
            .await?
            .iter()
            .map(|row| Ok((unsigned(get(row, 0)?)?, unsigned(get(row, 1)?)?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Lifetime {
            alive_ms: alive.map(unsigned).transpose()?,
            downtime: Downtime(downtime),
        })
    }

    async fn restore_lifetime(&self, lifetime: &Lifetime) -> Result<(), StoreError> {
        retrying(|| self.try_restore_lifetime(lifetime)).await
    }

    async fn take_lease(
        &self,
        game: GameId,
        holder: u64,
        now_ms: u64,
        until_ms: u64,
    ) -> Result<bool, StoreError> {
        // A row comes back when the lease was free, ran out, or was the holder's already.
        let sql = "INSERT INTO bot_leases (game_id, holder, until_ms) \
                   SELECT id, $2::INT8, $4::INT8 FROM games WHERE id = $1::INT8 \
                   ON CONFLICT (game_id) DO UPDATE \
                   SET holder = excluded.holder, until_ms = excluded.until_ms \
                   WHERE bot_leases.holder = excluded.holder OR bot_leases.until_ms < $3::INT8 \
                   RETURNING holder";
        let (id, holder, now, until) = (int8(game.0), int8(holder), int8(now_ms), int8(until_ms));
        let params: [&(dyn ToSql + Sync); 4] = [&id, &holder, &now, &until];
        let taken = retrying(|| async { self.read(sql, &params).await }).await?;
        Ok(!taken.is_empty())
    }

    async fn renew_leases(
        &self,
        holder: u64,
        games: &[GameId],
        until_ms: u64,
    ) -> Result<(), StoreError> {
        let sql = "UPDATE bot_leases SET until_ms = $3::INT8 \
                   WHERE holder = $1::INT8 AND game_id = ANY($2::INT8[])";
        let ids: Vec<i64> = games.iter().map(|game| int8(game.0)).collect();
        let (holder, until) = (int8(holder), int8(until_ms));
        retrying(|| async { self.read(sql, &[&holder, &ids, &until]).await })
            .await
            .map(drop)
    }

    async fn expired_leases(&self, now_ms: u64, limit: usize) -> Result<Vec<GameId>, StoreError> {
        let sql = "SELECT game_id FROM bot_leases WHERE until_ms < $1::INT8 \
                   ORDER BY until_ms, game_id LIMIT $2::INT8";
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(sql, &[&int8(now_ms), &limit])
            .await?
            .iter()
            .map(|row| game_id(row, 0))
            .collect()
    }

    async fn give_up_leases(&self, holder: u64) -> Result<(), StoreError> {
        let sql = "UPDATE bot_leases SET until_ms = 0 WHERE holder = $1::INT8";
        let holder = int8(holder);
        retrying(|| async { self.read(sql, &[&holder]).await })
            .await
            .map(drop)
    }

    async fn create_account(
        &self,
        account: &AccountRecord,
        reusable_before_ms: u64,
    ) -> Result<Option<AccountId>, StoreError> {
        retrying(|| self.try_create_account(account, reusable_before_ms)).await
    }

    async fn account(&self, id: AccountId) -> Result<Option<AccountRecord>, StoreError> {
        let sql = "SELECT record FROM accounts WHERE id = $1::INT8";
        self.read(sql, &[&int8(id.0)])
            .await?
            .first()
            .map(|row| decoded(row, 0))
            .transpose()
    }

    async fn account_named(
        &self,
        folded: &str,
    ) -> Result<Option<(AccountId, AccountRecord)>, StoreError> {
        let sql = "SELECT a.id, a.record FROM account_names n \
                   JOIN accounts a ON a.id = n.account_id WHERE n.folded = $1::TEXT";
        self.read(sql, &[&folded])
            .await?
            .first()
            .map(|row| Ok((account_id(row, 0)?, decoded(row, 1)?)))
            .transpose()
    }

    async fn update_account(
        &self,
        id: AccountId,
        account: &AccountRecord,
    ) -> Result<(), StoreError> {
        let sql = "UPDATE accounts SET record = $2::BYTEA WHERE id = $1::INT8";
        let (id, record) = (int8(id.0), records::encode(account));
        retrying(|| async { self.read(sql, &[&id, &record]).await })
            .await
            .map(drop)
    }

    async fn accounts(
        &self,
        after: Option<AccountId>,
        limit: usize,
    ) -> Result<Vec<(AccountId, AccountRecord)>, StoreError> {
        let sql = "SELECT id, record FROM accounts WHERE id > $1::INT8 ORDER BY id LIMIT $2::INT8";
        let after = after.map_or(0, |id| int8(id.0));
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(sql, &[&after, &limit])
            .await?
            .iter()
            .map(|row| Ok((account_id(row, 0)?, decoded(row, 1)?)))
            .collect()
    }

    async fn put_account_token(
        &self,
        hash: &TokenHash,
        token: &AccountTokenRecord,
    ) -> Result<(), StoreError> {
        let (account, record) = (int8(token.account), records::encode(token));
        retrying(|| async {
            insert_account_token(&self.client().await?, hash, account, &record).await
        })
        .await
    }

    async fn account_token(
        &self,
        hash: &TokenHash,
    ) -> Result<Option<AccountTokenRecord>, StoreError> {
        let sql = "SELECT record FROM account_tokens WHERE token_hash = $1::BYTEA";
        self.read(sql, &[&hash.0.as_slice()])
            .await?
            .first()
            .map(|row| decoded(row, 0))
            .transpose()
    }

    async fn account_tokens(
        &self,
        account: AccountId,
    ) -> Result<Vec<(TokenHash, AccountTokenRecord)>, StoreError> {
        let sql = "SELECT token_hash, record FROM account_tokens WHERE account_id = $1::INT8 \
                   ORDER BY token_hash";
        self.read(sql, &[&int8(account.0)])
            .await?
            .iter()
            .map(|row| {
                let hash: &[u8] = get(row, 0)?;
                let hash = hash.try_into().map_err(StoreError::backend)?;
                Ok((TokenHash(hash), decoded(row, 1)?))
            })
            .collect()
    }

    async fn remove_account_token(&self, hash: &TokenHash) -> Result<bool, StoreError> {
        let sql = "DELETE FROM account_tokens WHERE token_hash = $1::BYTEA RETURNING account_id";
        let removed = retrying(|| async { self.read(sql, &[&hash.0.as_slice()]).await }).await?;
        Ok(!removed.is_empty())
    }

    async fn restore_account(
        &self,
        id: AccountId,
        account: &AccountRecord,
        tokens: &[(TokenHash, AccountTokenRecord)],
    ) -> Result<bool, StoreError> {
        retrying(|| self.try_restore_account(id, account, tokens)).await
    }

    fn shared(&self) -> bool {
        true
    }

    async fn close(&self) -> Result<(), StoreError> {
        self.committer.close().await;
        self.pool.close();
        Ok(())
    }
}
