//! What the server knows of every game without reading storage: its ruleset, phase and
//! speed class, in three bytes per game id (ids are dense), plus when each unstarted game
//! entered its phase, which open games have bots or clocks, and which address created each
//! open game.
//!
//! It answers "does game N exist?" without allocating anything, finds the ids of a
//! filtered listing page by walking memory (the summaries are then read by id), counts the
//! open games, and finds the games that waited too long.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::IpAddr;
use std::sync::RwLock;

use trinchera_rules::catalog;

use crate::error::ApiError;
use crate::ids::GameId;
use crate::records::SummaryRecord;
use crate::state::{BOT_NAME_PREFIX, GamePhase};
use crate::store::{Store, StoreError};
use crate::timing::Speed;

/// A listing filter: phase, ruleset and speed, each optional.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only games in this phase.
    pub phase: Option<GamePhase>,
    /// Only games of this ruleset (its index in the catalog).
    pub ruleset: Option<usize>,
    /// Only games of this speed class.
    pub speed: Option<Speed>,
}

/// Three bytes per game: ruleset index + 1, phase number and speed number; zero phase for
/// an id without a game.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    ruleset: u8,
    phase: u8,
    speed: u8,
}

impl Entry {
    fn of(summary: &SummaryRecord) -> Entry {
        Entry {
            ruleset: catalog::RULESETS
                .iter()
                .position(|r| (r.description)().id == summary.ruleset)
                .map_or(0, |index| index as u8 + 1),
            phase: summary.phase as u8,
            speed: Speed::from_number(summary.speed)
                .unwrap_or(Speed::Untimed)
                .number() as u8,
        }
    }

    fn exists(self) -> bool {
        self.phase != 0
    }

    fn open(self) -> bool {
        self.exists() && i32::from(self.phase) != GamePhase::Finished.number()
    }

    fn matches(self, filter: Filter) -> bool {
        self.exists()
            && filter
                .phase
                .is_none_or(|phase| i32::from(self.phase) == phase.number())
            && filter
                .ruleset
                .is_none_or(|index| usize::from(self.ruleset) == index + 1)
            && filter
                .speed
                .is_none_or(|speed| i32::from(self.speed) == speed.number())
    }
}

/// A game that has not started: since when it waits, and for what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unstarted {
    /// Waiting for a player, or for setups.
    pub phase: GamePhase,
    /// Since when, in ms since the Unix epoch.
    pub since_ms: u64,
}

#[derive(Debug, Default)]
struct Inner {
    entries: Vec<Entry>,
    unstarted: BTreeMap<GameId, Unstarted>,
    /// Open games with a bot in a seat.
    with_bots: BTreeSet<GameId>,
    /// Open games with a time control.
    timed: BTreeSet<GameId>,
    /// Games whose entry is open.
    open: usize,
    /// Places taken for games being created.
    reserved: usize,
    /// Open games per creating address, and each such game's creator.
    per_peer: HashMap<IpAddr, usize>,
    creators: HashMap<GameId, IpAddr>,
}

impl Inner {
    fn record(&mut self, id: GameId, summary: &SummaryRecord) {
        let index = id.0 as usize;
        if self.entries.len() <= index {
            self.entries.resize(index + 1, Entry::default());
        }
        let before = self.entries[index];
        let after = Entry::of(summary);
        self.entries[index] = after;
        match (before.open(), after.open()) {
            (false, true) => self.open += 1,
            (true, false) => {
                self.open -= 1;
                if let Some(peer) = self.creators.remove(&id) {
                    self.release_peer(peer);
                }
            }
            _ => {}
        }
        let unstarted = [GamePhase::Waiting, GamePhase::Setup]
            .into_iter()
            .find(|phase| phase.number() == summary.phase);
        let bot = summary
            .players
            .iter()
            .any(|name| name.starts_with(BOT_NAME_PREFIX));
        if after.open() && bot {
            self.with_bots.insert(id);
        } else {
            self.with_bots.remove(&id);
        }
        if after.open() && i32::from(after.speed) != Speed::Untimed.number() {
            self.timed.insert(id);
        } else {
            self.timed.remove(&id);
        }
        match unstarted {
            Some(phase) => {
                let since_ms = summary.phase_since_ms();
                self.unstarted.insert(id, Unstarted { phase, since_ms });
            }
            None => {
                self.unstarted.remove(&id);
            }
        }
    }

    fn release_peer(&mut self, peer: IpAddr) {
        if let Some(count) = self.per_peer.get_mut(&peer) {
            *count -= 1;
            if *count == 0 {
                self.per_peer.remove(&peer);
            }
        }
    }
}

/// A place among the open games, taken before a game is created: kept by
/// [`Directory::created`], given back by [`Directory::cancel`].
#[derive(Debug)]
#[must_use = "a reservation is kept by `created` or given back by `cancel`"]
pub struct Reservation {
    peer: Option<IpAddr>,
}

/// Every game's ruleset and phase, by id.
#[derive(Debug, Default)]
pub struct Directory {
    inner: RwLock<Inner>,
}

impl Directory {
    /// The directory of every game in `store`.
    pub fn load(store: &dyn Store) -> Result<Directory, StoreError> {
        let mut inner = Inner::default();
        for item in store.summaries(None) {
            let (id, summary) = item?;
            inner.record(id, &summary);
        }
        Ok(Directory {
            inner: RwLock::new(inner),
        })
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether game `id` exists.
    pub fn exists(&self, id: GameId) -> bool {
        self.read()
            .entries
            .get(id.0 as usize)
            .is_some_and(|entry| entry.exists())
    }

    /// Unfinished games (created, not counting those being created).
    pub fn open_games(&self) -> usize {
        self.read().open
    }

    /// Takes a place for a new open game created by `peer`, within `max_open` in all and
    /// `max_per_peer` for the address.
    pub fn reserve(
        &self,
        peer: Option<IpAddr>,
        max_open: usize,
        max_per_peer: usize,
    ) -> Result<Reservation, ApiError> {
        let mut inner = self.write();
        if inner.open + inner.reserved >= max_open {
            return Err(ApiError::ResourceExhausted(format!(
                "the server already holds {max_open} unfinished games, its limit \
                 (--max-open-games); finish or resign some first"
            )));
        }
        if let Some(peer) = peer {
            let count = inner.per_peer.entry(peer).or_default();
            if *count >= max_per_peer {
                return Err(ApiError::ResourceExhausted(format!(
                    "your address already created {max_per_peer} unfinished games, the limit \
                     per address (--max-open-games-per-peer); finish or resign some first"
                )));
            }
            *count += 1;
        }
        inner.reserved += 1;
        Ok(Reservation { peer })
    }

    /// Gives a reservation back: the game was not created.
    pub fn cancel(&self, reservation: Reservation) {
        let mut inner = self.write();
        inner.reserved -= 1;
        if let Some(peer) = reservation.peer {
            inner.release_peer(peer);
        }
    }

    /// Game `id` was created (and recorded) with `reservation`.
    pub fn created(&self, reservation: Reservation, id: GameId) {
        let mut inner = self.write();
        inner.reserved -= 1;
        if let Some(peer) = reservation.peer {
            inner.creators.insert(id, peer);
        }
    }

    /// Game `id`'s summary changed (durably).
    pub fn record(&self, id: GameId, summary: &SummaryRecord) {
        self.write().record(id, summary);
    }

    /// Ids below `before` (all if `None`) that pass `filter`, newest first, at most `limit`.
    pub fn page(&self, filter: Filter, before: Option<GameId>, limit: usize) -> Vec<GameId> {
        let inner = self.read();
        let end = before.map_or(inner.entries.len(), |id| {
            (id.0 as usize).min(inner.entries.len())
        });
        inner.entries[..end]
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, entry)| entry.matches(filter))
            .take(limit)
            .map(|(index, _)| GameId(index as u64))
            .collect()
    }

    /// Open games with a bot in a seat.
    pub fn open_with_bots(&self) -> Vec<GameId> {
        self.read().with_bots.iter().copied().collect()
    }

    /// Open games with a time control.
    pub fn open_timed(&self) -> Vec<GameId> {
        self.read().timed.iter().copied().collect()
    }

    /// Unstarted games that entered their phase before the given deadlines (ms since the
    /// Unix epoch), oldest first.
    pub fn overdue(&self, waiting_before_ms: u64, setup_before_ms: u64) -> Vec<GameId> {
        self.read()
            .unstarted
            .iter()
            .filter(|(_, unstarted)| match unstarted.phase {
                GamePhase::Waiting => unstarted.since_ms < waiting_before_ms,
                _ => unstarted.since_ms < setup_before_ms,
            })
            .map(|(id, _)| *id)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(ruleset: &str, phase: GamePhase, since_ms: u64) -> SummaryRecord {
        SummaryRecord {
            ruleset: ruleset.into(),
            phase: phase.number(),
            since_ms,
            ..SummaryRecord::default()
        }
    }

    #[test]
    fn pages_filter_newest_first_and_skip_missing_ids() {
        let directory = Directory::default();
        for (id, ruleset, phase) in [
            (1, "frente", GamePhase::Finished),
            (2, "asalto", GamePhase::Waiting),
            (4, "frente", GamePhase::Waiting),
            (5, "tanques", GamePhase::Playing),
        ] {
            directory.record(GameId(id), &summary(ruleset, phase, 10));
        }
        let waiting = Filter {
            phase: Some(GamePhase::Waiting),
            ..Filter::default()
        };
        assert_eq!(directory.page(waiting, None, 10), [GameId(4), GameId(2)]);
        assert_eq!(directory.page(waiting, Some(GameId(4)), 10), [GameId(2)]);
        let frente = Filter {
            ruleset: Some(0),
            ..Filter::default()
        };
        assert_eq!(directory.page(frente, None, 1), [GameId(4)]);
        assert_eq!(
            directory.page(Filter::default(), Some(GameId(99)), 10),
            [GameId(5), GameId(4), GameId(2), GameId(1)]
        );
        assert!(directory.exists(GameId(4)));
        assert!(!directory.exists(GameId(3)));
        assert!(!directory.exists(GameId(6)));
        assert!(!directory.exists(GameId(u64::MAX)));
    }

    #[test]
    fn open_games_are_counted_per_creating_address() {
        let directory = Directory::default();
        let peer: IpAddr = [127, 0, 0, 9].into();
        let first = directory.reserve(Some(peer), 10, 1).expect("room");
        assert!(directory.reserve(Some(peer), 10, 1).is_err(), "per peer");
        directory.record(GameId(1), &summary("frente", GamePhase::Waiting, 5));
        directory.created(first, GameId(1));
        assert_eq!(directory.open_games(), 1);
        let other = directory
            .reserve(None, 10, 1)
            .expect("no address, no peer limit");
        directory.cancel(other);
        assert_eq!(directory.open_games(), 1);
        directory.record(GameId(1), &summary("frente", GamePhase::Finished, 6));
        assert_eq!(directory.open_games(), 0);
        let again = directory.reserve(Some(peer), 10, 1).expect("released");
        directory.cancel(again);
        assert!(directory.reserve(None, 0, 1).is_err(), "total");
    }

    #[test]
    fn overdue_games_by_phase_deadline() {
        let directory = Directory::default();
        directory.record(GameId(1), &summary("frente", GamePhase::Waiting, 100));
        directory.record(GameId(2), &summary("frente", GamePhase::Setup, 100));
        directory.record(GameId(3), &summary("frente", GamePhase::Playing, 0));
        assert_eq!(directory.overdue(101, 100), [GameId(1)]);
        assert_eq!(directory.overdue(100, 101), [GameId(2)]);
        directory.record(GameId(2), &summary("frente", GamePhase::Finished, 200));
        assert_eq!(directory.overdue(1000, 1000), [GameId(1)]);
    }
}
