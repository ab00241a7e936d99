//! The rows that writes of games make besides their events: the `games` row of a summary,
//! the accounts seated (`game_players`), the tokens issued, the bot leases taken or ended.
//! [`Besides`] gathers them for any number of games and writes each kind in one statement
//! (`UNNEST` of one array a column), all sent before the first answer is awaited.

use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

use super::{get, int8, rows};
use trinchera_store::records::{self, SummaryRecord};
use trinchera_store::{BotLease, GamePhase, Speed, StoreError, TokenHash, Traits};

/// The `games` columns of a summary.
pub(super) struct GameColumns {
    ruleset: String,
    phase: Option<i32>,
    speed: i32,
    bots: i32,
    since_ms: i64,
    summary: Vec<u8>,
}

impl GameColumns {
    pub(super) fn of(summary: &SummaryRecord) -> GameColumns {
        let traits = Traits::of(summary);
        GameColumns {
            ruleset: summary.ruleset.clone(),
            phase: traits.phase.map(GamePhase::number),
            speed: traits.speed.unwrap_or(Speed::Untimed).number(),
            bots: i32::try_from(traits.bots).unwrap_or(i32::MAX),
            since_ms: int8(summary.phase_since_ms()),
            summary: records::encode(summary),
        }
    }

    /// Inserts them as the row of a new game with the next id; that id.
    pub(super) async fn insert(&self, client: &impl GenericClient) -> Result<i64, StoreError> {
        let sql = "INSERT INTO games (id, ruleset, phase, speed, bots, since_ms, summary) \
                   VALUES (nextval('game_ids'), $1::TEXT, $2::INT4, $3::INT4, $4::INT4, \
                           $5::INT8, $6::BYTEA) \
                   RETURNING id";
        get(&rows(client, sql, &self.params()).await?[0], 0)
    }

    /// The columns as parameters `$1` to `$6`.
    pub(super) fn params(&self) -> [&(dyn ToSql + Sync); 6] {
        [
            &self.ruleset,
            &self.phase,
            &self.speed,
            &self.bots,
            &self.since_ms,
            &self.summary,
        ]
    }
}

/// Rows of some games to write besides their events, game id first.
#[derive(Default)]
pub(super) struct Besides {
    summaries: Vec<(i64, GameColumns)>,
    /// (game, account) for each account seated.
    seats: Vec<(i64, i64)>,
    tokens: Vec<(i64, TokenHash)>,
    leases: Vec<(i64, BotLease)>,
}

impl Besides {
    /// What an append to game `id` writes besides its event: its new summary (and the
    /// accounts it seats), its token, its lease.
    pub(super) fn of_append(
        id: i64,
        summary: Option<&SummaryRecord>,
        token: Option<TokenHash>,
        lease: Option<BotLease>,
    ) -> Besides {
        let mut besides = Besides::default();
        if let Some(summary) = summary {
            besides.summaries.push((id, GameColumns::of(summary)));
            besides.seat(id, summary);
        }
        besides.tokens.extend(token.map(|token| (id, token)));
        besides.leases.extend(lease.map(|lease| (id, lease)));
        besides
    }

    /// Notes the accounts that hold seats of game `id`, from its summary.
    pub(super) fn seat(&mut self, id: i64, summary: &SummaryRecord) {
        let accounts = summary.accounts.iter().filter(|&&account| account != 0);
        self.seats
            .extend(accounts.map(|&account| (id, int8(account))));
    }

    /// Notes that `token` belongs to game `id`.
    pub(super) fn token(&mut self, id: i64, token: TokenHash) {
        self.tokens.push((id, token));
    }

    /// Whether there is no row to write.
    pub(super) fn is_empty(&self) -> bool {
        self.summaries.is_empty()
            && self.seats.is_empty()
            && self.tokens.is_empty()
            && self.leases.is_empty()
    }

    /// Writes the rows.
    pub(super) async fn write(&self, client: &impl GenericClient) -> Result<(), StoreError> {
        write_all(&[self], client, None).await
    }
}

/// Writes the rows of every one of `parts`, one statement a kind of row, and then, when
/// `last` is given, that statement (a `COMMIT`): everything is sent before the first answer
/// is awaited, so that the whole takes one round trip once the statements are prepared on
/// `client`.
pub(super) async fn write_all(
    parts: &[&Besides],
    client: &impl GenericClient,
    last: Option<&str>,
) -> Result<(), StoreError> {
    let columns = Columns::of(parts);
    let statements = columns.statements();
    let mut prepared = Vec::with_capacity(statements.len());
    for (sql, params) in &statements {
        let statement = client
            .prepare_cached(sql)
            .await
            .map_err(StoreError::backend)?;
        prepared.push((statement, params));
    }
    let writes = prepared
        .iter()
        .map(|(statement, params)| client.query(statement, params));
    let (written, finished) = tokio::join!(futures_util::future::join_all(writes), async {
        match last {
            Some(sql) => client.batch_execute(sql).await,
            None => Ok(()),
        }
    });
    for outcome in written {
        outcome.map_err(StoreError::backend)?;
    }
    finished.map_err(StoreError::backend)
}

/// [`Besides`] column by column, as the statements' array parameters.
#[derive(Default)]
struct Columns<'a> {
    summary_games: Vec<i64>,
    rulesets: Vec<&'a str>,
    phases: Vec<Option<i32>>,
    speeds: Vec<i32>,
    bots: Vec<i32>,
    since_ms: Vec<i64>,
    summaries: Vec<&'a [u8]>,
    seat_games: Vec<i64>,
    seat_accounts: Vec<i64>,
    token_games: Vec<i64>,
    token_hashes: Vec<&'a [u8]>,
    leased_games: Vec<i64>,
    holders: Vec<i64>,
    until_ms: Vec<i64>,
    unleased_games: Vec<i64>,
}

impl<'a> Columns<'a> {
    fn of(parts: &[&'a Besides]) -> Columns<'a> {
        let mut columns = Columns::default();
        for (id, summary) in parts.iter().flat_map(|besides| &besides.summaries) {
            columns.summary_games.push(*id);
            columns.rulesets.push(&summary.ruleset);
            columns.phases.push(summary.phase);
            columns.speeds.push(summary.speed);
            columns.bots.push(summary.bots);
            columns.since_ms.push(summary.since_ms);
            columns.summaries.push(&summary.summary);
        }
        for &(id, account) in parts.iter().flat_map(|besides| &besides.seats) {
            columns.seat_games.push(id);
            columns.seat_accounts.push(account);
        }
        for (id, token) in parts.iter().flat_map(|besides| &besides.tokens) {
            columns.token_games.push(*id);
            columns.token_hashes.push(token.0.as_slice());
        }
        for &(id, lease) in parts.iter().flat_map(|besides| &besides.leases) {
            match lease {
                BotLease::Take { holder, until_ms } => {
                    columns.leased_games.push(id);
                    columns.holders.push(int8(holder));
                    columns.until_ms.push(int8(until_ms));
                }
                BotLease::End => columns.unleased_games.push(id),
            }
        }
        columns
    }

    /// The statements that write the rows there are, with their parameters.
    fn statements(&self) -> Vec<(&'static str, Vec<&(dyn ToSql + Sync)>)> {
        let mut statements: Vec<(&'static str, Vec<&(dyn ToSql + Sync)>)> = Vec::new();
        if !self.summary_games.is_empty() {
            // One row a game: a group holds one append a game.
            let sql = "UPDATE games SET ruleset = s.ruleset, phase = s.phase, speed = s.speed, \
                       bots = s.bots, since_ms = s.since_ms, summary = s.summary \
                       FROM UNNEST($1::INT8[], $2::TEXT[], $3::INT4[], $4::INT4[], $5::INT4[], \
                                   $6::INT8[], $7::BYTEA[]) \
                            AS s (id, ruleset, phase, speed, bots, since_ms, summary) \
                       WHERE games.id = s.id";
            let params: Vec<&(dyn ToSql + Sync)> = vec![
                &self.summary_games,
                &self.rulesets,
                &self.phases,
                &self.speeds,
                &self.bots,
                &self.since_ms,
                &self.summaries,
            ];
            statements.push((sql, params));
        }
        if !self.seat_games.is_empty() {
            let sql = "INSERT INTO game_players (account_id, game_id) \
                       SELECT account_id, game_id \
                       FROM UNNEST($1::INT8[], $2::INT8[]) AS seats (account_id, game_id) \
                       ON CONFLICT DO NOTHING";
            statements.push((sql, vec![&self.seat_accounts, &self.seat_games]));
        }
        if !self.token_games.is_empty() {
            let sql = "INSERT INTO tokens (token_hash, game_id) \
                       SELECT token_hash, game_id \
                       FROM UNNEST($1::BYTEA[], $2::INT8[]) AS issued (token_hash, game_id)";
            statements.push((sql, vec![&self.token_hashes, &self.token_games]));
        }
        if !self.leased_games.is_empty() {
            // The writer takes the lease, over whoever held it: the append is the authority
            // on whose turn it is.
            let sql = "INSERT INTO bot_leases (game_id, holder, until_ms) \
                       SELECT game_id, holder, until_ms \
                       FROM UNNEST($1::INT8[], $2::INT8[], $3::INT8[]) \
                            AS taken (game_id, holder, until_ms) \
                       ON CONFLICT (game_id) DO UPDATE \
                       SET holder = excluded.holder, until_ms = excluded.until_ms";
            let params: Vec<&(dyn ToSql + Sync)> =
                vec![&self.leased_games, &self.holders, &self.until_ms];
            statements.push((sql, params));
        }
        if !self.unleased_games.is_empty() {
            let sql = "DELETE FROM bot_leases WHERE game_id = ANY($1::INT8[])";
            statements.push((sql, vec![&self.unleased_games]));
        }
        statements
    }
}
