//! A store in memory: the model every backend is held to (the conformance suite runs
//! against it), and a backend for tests that need no disk. Everything acknowledged is
//! "durable" at once; [`MemoryStore::reopen`] simulates a restart: a new store over the same
//! data, as a restarted server would find it (or, beside the first, a second server on the
//! same database: bot leases live with the data, as in a shared database).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::ids::{AccountId, GameId, TokenHash};
use crate::leases::Leases;
use crate::records::{AccountRecord, AccountTokenRecord, EventRecord, SummaryRecord};
use crate::{
    Append, Downtime, Lifetime, ListQuery, Restored, Store, StoreError, Traits, Unfinished,
    Unstarted,
};

/// What a [`MemoryStore`] holds.
#[derive(Debug, Default)]
struct Data {
    logs: BTreeMap<GameId, Vec<EventRecord>>,
    summaries: BTreeMap<GameId, SummaryRecord>,
    tokens: HashMap<TokenHash, GameId>,
    last_game: u64,
    alive: Option<u64>,
    downtime: Downtime,
    leases: Leases,
    accounts: BTreeMap<AccountId, AccountRecord>,
    /// Folded names, by the account that holds each.
    names: HashMap<String, AccountId>,
    account_tokens: HashMap<TokenHash, AccountTokenRecord>,
    last_account: u64,
}

impl Data {
    fn write(&mut self, game: GameId, append: Append<'_>) {
        self.logs
            .entry(game)
            .or_default()
            .push(append.record.clone());
        if let Some(summary) = append.summary {
            self.summaries.insert(game, summary.clone());
        }
        if let Some(token) = append.token {
            self.tokens.insert(token, game);
        }
        self.leases.write(game, append.lease);
    }

    fn traits(&self) -> impl DoubleEndedIterator<Item = (GameId, Traits)> + '_ {
        self.summaries
            .iter()
            .map(|(&game, summary)| (game, Traits::of(summary)))
    }
}

/// A [`Store`] in memory.
#[derive(Debug, Default)]
pub struct MemoryStore {
    data: Arc<Mutex<Data>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// A new store over this one's data: what a server finds when it starts again.
    pub fn reopen(&self) -> MemoryStore {
        MemoryStore {
            data: Arc::clone(&self.data),
        }
    }

    fn data(&self) -> MutexGuard<'_, Data> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[async_trait::async_trait]
impl Store for MemoryStore {
    async fn create(&self, creation: Append<'_>) -> Result<GameId, StoreError> {
        let mut data = self.data();
        let game = GameId(data.last_game + 1);
        if creation.version != 1 {
            return Err(StoreError::Conflict {
                game,
                version: creation.version,
            });
        }
        data.last_game = game.0;
        data.write(game, creation);
        Ok(game)
    }

    async fn append(&self, game: GameId, append: Append<'_>) -> Result<(), StoreError> {
        let mut data = self.data();
        let next = data.logs.get(&game).map(|log| log.len() as u64 + 1);
        if next != Some(append.version) {
            return Err(StoreError::Conflict {
                game,
                version: append.version,
            });
        }
        data.write(game, append);
        Ok(())
    }

    async fn log(&self, game: GameId) -> Result<Vec<EventRecord>, StoreError> {
        Ok(self.data().logs.get(&game).cloned().unwrap_or_default())
    }

    async fn exists(&self, game: GameId) -> Result<bool, StoreError> {
        Ok(self.data().summaries.contains_key(&game))
    }

    async fn summary(&self, game: GameId) -> Result<Option<SummaryRecord>, StoreError> {
        Ok(self.data().summaries.get(&game).cloned())
    }

    async fn list(&self, query: &ListQuery) -> Result<Vec<(GameId, SummaryRecord)>, StoreError> {
        let data = self.data();
        let below = query.before.unwrap_or(GameId(u64::MAX));
        Ok(data
            .summaries
            .range(..below)
            .rev()
            .filter(|(_, summary)| Traits::of(summary).matches(query))
            .filter(|(_, summary)| query.player.is_none_or(|a| summary.has_account(a)))
            .take(query.limit)
            .map(|(&game, summary)| (game, summary.clone()))
            .collect())
    }

    async fn unfinished(&self, which: Unfinished) -> Result<Vec<GameId>, StoreError> {
        let data = self.data();
        Ok(data
            .traits()
            .filter(|(_, traits)| traits.is(which))
            .map(|(game, _)| game)
            .collect())
    }

    async fn count_unfinished(&self, which: Unfinished) -> Result<usize, StoreError> {
        Ok(self.data().traits().filter(|(_, t)| t.is(which)).count())
    }

    async fn unstarted(&self) -> Result<Vec<Unstarted>, StoreError> {
        let data = self.data();
        let mut unstarted: Vec<Unstarted> = data
            .summaries
            .iter()
            .filter_map(|(&game, summary)| Traits::unstarted(game, summary))
            .collect();
        unstarted.sort_by_key(|u| (u.since_ms, u.game));
        Ok(unstarted)
    }

    async fn token_owner(&self, token: &TokenHash) -> Result<Option<GameId>, StoreError> {
        Ok(self.data().tokens.get(token).copied())
    }

    async fn mark_alive(&self, now_ms: u64) -> Result<(), StoreError> {
        self.data().alive = Some(now_ms);
        Ok(())
    }

    async fn record_downtime(&self, now_ms: u64) -> Result<Downtime, StoreError> {
        let mut data = self.data();
        let alive = data.alive;
        data.downtime.note_start(alive, now_ms);
        data.alive = Some(now_ms);
        Ok(data.downtime.clone())
    }

    async fn restore(&self, game: GameId, restored: Restored<'_>) -> Result<bool, StoreError> {
        crate::restorable(game)?;
        let mut data = self.data();
        if data.logs.contains_key(&game) {
            return Ok(false);
        }
        data.logs.insert(game, restored.log.to_vec());
        data.summaries.insert(game, restored.summary.clone());
        for token in restored.tokens {
            data.tokens.insert(*token, game);
        }
        data.last_game = data.last_game.max(game.0);
        Ok(true)
    }

    async fn lifetime(&self) -> Result<Lifetime, StoreError> {
        let data = self.data();
        Ok(Lifetime {
            alive_ms: data.alive,
            downtime: data.downtime.clone(),
        })
    }

    async fn restore_lifetime(&self, lifetime: &Lifetime) -> Result<(), StoreError> {
        let mut data = self.data();
        data.alive = lifetime.alive_ms;
        data.downtime = lifetime.downtime.clone();
        Ok(())
    }

    async fn take_lease(
        &self,
        game: GameId,
        holder: u64,
        now_ms: u64,
        until_ms: u64,
    ) -> Result<bool, StoreError> {
        let mut data = self.data();
        Ok(data.summaries.contains_key(&game) && data.leases.take(game, holder, now_ms, until_ms))
    }

    async fn renew_leases(
        &self,
        holder: u64,
        games: &[GameId],
        until_ms: u64,
    ) -> Result<(), StoreError> {
        self.data().leases.renew(holder, games, until_ms);
        Ok(())
    }

    async fn expired_leases(&self, now_ms: u64, limit: usize) -> Result<Vec<GameId>, StoreError> {
        Ok(self.data().leases.expired(now_ms, limit))
    }

    async fn give_up_leases(&self, holder: u64) -> Result<(), StoreError> {
        self.data().leases.give_up(holder);
        Ok(())
    }

    async fn create_account(
        &self,
        account: &AccountRecord,
        reusable_before_ms: u64,
    ) -> Result<Option<AccountId>, StoreError> {
        let mut data = self.data();
        let holder = data
            .names
            .get(&account.folded)
            .and_then(|id| data.accounts.get(id));
        if !crate::name_is_free(holder, reusable_before_ms) {
            return Ok(None);
        }
        data.last_account += 1;
        let id = AccountId(data.last_account);
        data.accounts.insert(id, account.clone());
        data.names.insert(account.folded.clone(), id);
        Ok(Some(id))
    }

    async fn account(&self, id: AccountId) -> Result<Option<AccountRecord>, StoreError> {
        Ok(self.data().accounts.get(&id).cloned())
    }

    async fn account_named(
        &self,
        folded: &str,
    ) -> Result<Option<(AccountId, AccountRecord)>, StoreError> {
        let data = self.data();
        let Some(&id) = data.names.get(folded) else {
            return Ok(None);
        };
        Ok(data.accounts.get(&id).map(|account| (id, account.clone())))
    }

    async fn update_account(
        &self,
        id: AccountId,
        account: &AccountRecord,
    ) -> Result<(), StoreError> {
        if let Some(stored) = self.data().accounts.get_mut(&id) {
            *stored = account.clone();
        }
        Ok(())
    }

    async fn accounts(
        &self,
        after: Option<AccountId>,
        limit: usize,
    ) -> Result<Vec<(AccountId, AccountRecord)>, StoreError> {
        let data = self.data();
        let from = after.map_or(AccountId(0), |id| AccountId(id.0 + 1));
        Ok(data
            .accounts
            .range(from..)
            .take(limit)
            .map(|(&id, account)| (id, account.clone()))
            .collect())
    }

    async fn put_account_token(
        &self,
        hash: &TokenHash,
        token: &AccountTokenRecord,
    ) -> Result<(), StoreError> {
        self.data().account_tokens.insert(*hash, token.clone());
        Ok(())
    }

    async fn account_token(
        &self,
        hash: &TokenHash,
    ) -> Result<Option<AccountTokenRecord>, StoreError> {
        Ok(self.data().account_tokens.get(hash).cloned())
    }

    async fn account_tokens(
        &self,
        account: AccountId,
    ) -> Result<Vec<(TokenHash, AccountTokenRecord)>, StoreError> {
        let data = self.data();
        let mut tokens: Vec<(TokenHash, AccountTokenRecord)> = data
            .account_tokens
            .iter()
            .filter(|(_, token)| token.account == account.0)
            .map(|(hash, token)| (*hash, token.clone()))
            .collect();
        tokens.sort_by_key(|(hash, _)| hash.0);
        Ok(tokens)
    }

    async fn remove_account_token(&self, hash: &TokenHash) -> Result<bool, StoreError> {
        Ok(self.data().account_tokens.remove(hash).is_some())
    }

    async fn restore_account(
        &self,
        id: AccountId,
        account: &AccountRecord,
        tokens: &[(TokenHash, AccountTokenRecord)],
    ) -> Result<bool, StoreError> {
        let mut data = self.data();
        if data.accounts.contains_key(&id) {
            return Ok(false);
        }
        data.accounts.insert(id, account.clone());
        let holder = data.names.entry(account.folded.clone()).or_insert(id);
        *holder = (*holder).max(id);
        data.account_tokens.extend(tokens.iter().cloned());
        data.last_account = data.last_account.max(id.0);
        Ok(true)
    }

    async fn close(&self) -> Result<(), StoreError> {
        Ok(())
    }
}
