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

use super::Limits;
use crate::error::ApiError;
use crate::ids::GameId;
use crate::records::SummaryRecord;
use crate::state::GamePhase;
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

/// Four bytes per game: ruleset index + 1, phase number, speed number and seats played by
/// bots; zero phase for an id without a game.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    ruleset: u8,
    phase: u8,
    speed: u8,
    bots: u8,
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
            bots: summary.bot_seats().min(2) as u8,
        }
    }

    /// An unfinished game between two bots.
    fn open_exhibition(self) -> bool {
        self.open() && self.bots == 2
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
    /// Of those, games between two bots.
    exhibitions: usize,
    /// Places taken for games being created.
    reserved: usize,
    /// Of those, for games between two bots.
    reserved_exhibitions: usize,
    /// Open games and open exhibitions per creating address, and each such game's creator.
    per_peer: HashMap<IpAddr, PeerGames>,
    creators: HashMap<GameId, Reservation>,
}

/// The unfinished games one address created.
#[derive(Clone, Copy, Debug, Default)]
struct PeerGames {
    open: usize,
    exhibitions: usize,
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
                if let Some(reservation) = self.creators.remove(&id) {
                    self.release(reservation);
                }
            }
            _ => {}
        }
        match (before.open_exhibition(), after.open_exhibition()) {
            (false, true) => self.exhibitions += 1,
            (true, false) => self.exhibitions -= 1,
            _ => {}
        }
        let unstarted = [GamePhase::Waiting, GamePhase::Setup]
            .into_iter()
            .find(|phase| phase.number() == summary.phase);
        if after.open() && after.bots > 0 {
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

    /// Gives back what `reservation`'s creator counted for its game.
    fn release(&mut self, reservation: Reservation) {
        let Some(peer) = reservation.peer else { return };
        if let Some(games) = self.per_peer.get_mut(&peer) {
            games.open -= 1;
            games.exhibitions -= usize::from(reservation.exhibition);
            if games.open == 0 {
                self.per_peer.remove(&peer);
            }
        }
    }
}

/// A place among the open games, taken before a game is created: kept by
/// [`Directory::created`], given back by [`Directory::cancel`].
#[derive(Clone, Copy, Debug)]
#[must_use = "a reservation is kept by `created` or given back by `cancel`"]
pub struct Reservation {
    peer: Option<IpAddr>,
    /// Whether the game is to be played by two bots.
    exhibition: bool,
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

    /// Unfinished games between two bots.
    pub fn open_exhibitions(&self) -> usize {
        self.read().exhibitions
    }

    /// Takes a place for a new open game created by `peer` (an exhibition between two bots
    /// if `exhibition`), within the caps of `limits`, in all and for the address.
    pub fn reserve(
        &self,
        peer: Option<IpAddr>,
        exhibition: bool,
        limits: &Limits,
    ) -> Result<Reservation, ApiError> {
        let mut inner = self.write();
        if inner.open + inner.reserved >= limits.max_open_games {
            return Err(ApiError::ResourceExhausted(format!(
                "the server already holds {} unfinished games, its limit \
                 (--max-open-games); finish or resign some first",
                limits.max_open_games
            )));
        }
        if exhibition && inner.exhibitions + inner.reserved_exhibitions >= limits.max_exhibitions {
            return Err(ApiError::ResourceExhausted(format!(
                "the server already holds {} unfinished games between two bots, its limit \
                 (--max-exhibitions); watch one of them, or try again later",
                limits.max_exhibitions
            )));
        }
        if let Some(peer) = peer {
            let games = inner.per_peer.entry(peer).or_default();
            if games.open >= limits.max_open_games_per_peer {
                return Err(ApiError::ResourceExhausted(format!(
                    "your address already created {} unfinished games, the limit per address \
                     (--max-open-games-per-peer); finish or resign some first",
                    limits.max_open_games_per_peer
                )));
            }
            if exhibition && games.exhibitions >= limits.max_exhibitions_per_peer {
                return Err(ApiError::ResourceExhausted(format!(
                    "your address already created {} unfinished games between two bots, the \
                     limit per address (--max-exhibitions-per-peer); let one finish first",
                    limits.max_exhibitions_per_peer
                )));
            }
            games.open += 1;
            games.exhibitions += usize::from(exhibition);
        }
        inner.reserved += 1;
        inner.reserved_exhibitions += usize::from(exhibition);
        Ok(Reservation { peer, exhibition })
    }

    /// Gives a reservation back: the game was not created.
    pub fn cancel(&self, reservation: Reservation) {
        let mut inner = self.write();
        inner.reserved -= 1;
        inner.reserved_exhibitions -= usize::from(reservation.exhibition);
        inner.release(reservation);
    }

    /// Game `id` was created (and recorded, its seats taken) with `reservation`.
    pub fn created(&self, reservation: Reservation, id: GameId) {
        let mut inner = self.write();
        inner.reserved -= 1;
        inner.reserved_exhibitions -= usize::from(reservation.exhibition);
        if reservation.peer.is_some() {
            inner.creators.insert(id, reservation);
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

    fn caps(
        open: usize,
        per_peer: usize,
        exhibitions: usize,
        per_peer_exhibitions: usize,
    ) -> Limits {
        Limits {
            max_open_games: open,
            max_open_games_per_peer: per_peer,
            max_exhibitions: exhibitions,
            max_exhibitions_per_peer: per_peer_exhibitions,
            ..Limits::default()
        }
    }

    #[test]
    fn open_games_are_counted_per_creating_address() {
        let directory = Directory::default();
        let peer: IpAddr = [127, 0, 0, 9].into();
        let limits = caps(10, 1, 10, 10);
        let first = directory.reserve(Some(peer), false, &limits).expect("room");
        assert!(
            directory.reserve(Some(peer), false, &limits).is_err(),
            "per peer"
        );
        directory.record(GameId(1), &summary("frente", GamePhase::Waiting, 5));
        directory.created(first, GameId(1));
        assert_eq!(directory.open_games(), 1);
        let other = directory
            .reserve(None, false, &limits)
            .expect("no address, no peer limit");
        directory.cancel(other);
        assert_eq!(directory.open_games(), 1);
        directory.record(GameId(1), &summary("frente", GamePhase::Finished, 6));
        assert_eq!(directory.open_games(), 0);
        let again = directory
            .reserve(Some(peer), false, &limits)
            .expect("released");
        directory.cancel(again);
        assert!(
            directory.reserve(None, false, &caps(0, 1, 1, 1)).is_err(),
            "total"
        );
    }

    fn exhibition(phase: GamePhase) -> SummaryRecord {
        SummaryRecord {
            bots: vec!["hard".into(), "hard".into()],
            ..summary("frente", phase, 5)
        }
    }

    #[test]
    fn exhibitions_are_capped_per_address_and_in_total() {
        let directory = Directory::default();
        let ana: IpAddr = [10, 0, 0, 1].into();
        let beto: IpAddr = [10, 0, 0, 2].into();
        let limits = caps(100, 100, 2, 1);
        let first = directory.reserve(Some(ana), true, &limits).expect("room");
        let refused = directory
            .reserve(Some(ana), true, &limits)
            .expect_err("per peer");
        assert!(
            refused.to_string().contains("--max-exhibitions-per-peer"),
            "{refused}"
        );
        let person = directory
            .reserve(Some(ana), false, &limits)
            .expect("not an exhibition");
        directory.cancel(person);
        directory.record(GameId(1), &exhibition(GamePhase::Setup));
        directory.created(first, GameId(1));
        let second = directory.reserve(Some(beto), true, &limits).expect("room");
        let refused = directory.reserve(None, true, &limits).expect_err("total");
        assert!(
            refused.to_string().contains("(--max-exhibitions)"),
            "{refused}"
        );
        directory.cancel(second);
        assert_eq!(directory.open_exhibitions(), 1);
        directory.record(GameId(1), &exhibition(GamePhase::Finished));
        assert_eq!(directory.open_exhibitions(), 0);
        let again = directory
            .reserve(Some(ana), true, &limits)
            .expect("released");
        directory.cancel(again);
        // Summaries written before bots were stored: the bots' names tell.
        let old = SummaryRecord {
            players: vec!["Bot (easy)".into(), "Bot (hard)".into()],
            ..summary("frente", GamePhase::Playing, 5)
        };
        directory.record(GameId(2), &old);
        assert_eq!(directory.open_exhibitions(), 1);
        assert_eq!(directory.open_with_bots(), [GameId(2)]);
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
