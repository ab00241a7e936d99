//! What the sled store keeps in memory of every game, so that listings, existence checks
//! and the queries of unfinished games read no summaries they do not show: four bytes of
//! traits for each game, by id (a sorted map, so that memory follows the games there are,
//! not the highest id), counts of unfinished games and exhibitions, and when each game that
//! has not started entered its phase, and the games of each account. Built from the
//! summaries at open; updated as summaries are durably written.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use trinchera_store::records::SummaryRecord;
use trinchera_store::{
    AccountId, GameId, GamePhase, ListQuery, Speed, Traits, Unfinished, Unstarted,
};

/// A game's [`Traits`] in four bytes: ruleset index + 1, phase number, speed number and
/// seats played by bots; all zero for an id without a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Packed([u8; 4]);

impl Packed {
    fn of(traits: Traits) -> Packed {
        let byte = |value: Option<usize>| value.map_or(0, |v| (v + 1).min(255) as u8);
        Packed([
            byte(traits.ruleset),
            traits.phase.map_or(0, |phase| phase.number() as u8),
            traits.speed.map_or(0, |speed| speed.number() as u8),
            traits.bots.min(2) as u8,
        ])
    }

    fn traits(self) -> Traits {
        let [ruleset, phase, speed, bots] = self.0;
        Traits {
            ruleset: usize::from(ruleset).checked_sub(1),
            phase: GamePhase::from_number(i32::from(phase)),
            speed: Speed::from_number(i32::from(speed)),
            bots: usize::from(bots),
        }
    }
}

#[derive(Debug, Default)]
struct Inner {
    games: BTreeMap<GameId, Packed>,
    /// The games each account holds a seat of (seats are taken, never given back).
    players: BTreeMap<AccountId, BTreeSet<GameId>>,
    unstarted: BTreeMap<GameId, Unstarted>,
    unfinished: usize,
    exhibitions: usize,
}

/// Every game's traits, by id.
#[derive(Debug, Default)]
pub(super) struct Index {
    inner: RwLock<Inner>,
}

impl Index {
    fn read(&self) -> RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Game `game`'s summary is now `summary` (durably).
    pub(super) fn record(&self, game: GameId, summary: &SummaryRecord) {
        let mut inner = self.write();
        for &account in summary.accounts.iter().filter(|&&account| account != 0) {
            inner
                .players
                .entry(AccountId(account))
                .or_default()
                .insert(game);
        }
        let after = Traits::of(summary);
        let before = inner
            .games
            .insert(game, Packed::of(after))
            .unwrap_or_default()
            .traits();
        let change = |which| match (before.is(which), after.is(which)) {
            (false, true) => 1,
            (true, false) => -1,
            _ => 0,
        };
        inner.unfinished = inner
            .unfinished
            .saturating_add_signed(change(Unfinished::All));
        inner.exhibitions = inner
            .exhibitions
            .saturating_add_signed(change(Unfinished::Exhibitions));
        match Traits::unstarted(game, summary) {
            Some(unstarted) => inner.unstarted.insert(game, unstarted),
            None => inner.unstarted.remove(&game),
        };
    }

    /// Whether game `game` exists.
    pub(super) fn exists(&self, game: GameId) -> bool {
        self.read()
            .games
            .get(&game)
            .is_some_and(|packed| packed.traits().phase.is_some())
    }

    /// The highest id of a game, 0 if there is none.
    pub(super) fn last(&self) -> u64 {
        self.read()
            .games
            .last_key_value()
            .map_or(0, |(game, _)| game.0)
    }

    /// The ids of the page `query` asks for, newest first.
    pub(super) fn page(&self, query: &ListQuery) -> Vec<GameId> {
        let inner = self.read();
        let below = query.before.map_or(Bound::Unbounded, Bound::Excluded);
        let matches = |game: &GameId| {
            inner
                .games
                .get(game)
                .is_some_and(|packed| packed.traits().matches(query))
        };
        let candidates: Box<dyn Iterator<Item = &GameId>> = match query.player {
            Some(player) => match inner.players.get(&player) {
                Some(games) => Box::new(games.range((Bound::Unbounded, below)).rev()),
                None => Box::new(std::iter::empty()),
            },
            None => Box::new(
                inner
                    .games
                    .range((Bound::Unbounded, below))
                    .rev()
                    .map(|(game, _)| game),
            ),
        };
        candidates
            .filter(|game| matches(game))
            .take(query.limit)
            .copied()
            .collect()
    }

    /// The unfinished games of kind `which`, by id.
    pub(super) fn unfinished(&self, which: Unfinished) -> Vec<GameId> {
        self.read()
            .games
            .iter()
            .filter(|(_, packed)| packed.traits().is(which))
            .map(|(&game, _)| game)
            .collect()
    }

    /// How many unfinished games of kind `which` there are.
    pub(super) fn count_unfinished(&self, which: Unfinished) -> usize {
        let inner = self.read();
        match which {
            Unfinished::All => inner.unfinished,
            Unfinished::Exhibitions => inner.exhibitions,
            Unfinished::WithBots | Unfinished::Timed => inner
                .games
                .values()
                .filter(|packed| packed.traits().is(which))
                .count(),
        }
    }

    /// Every game that has not started, oldest first.
    pub(super) fn unstarted(&self) -> Vec<Unstarted> {
        let mut unstarted: Vec<Unstarted> = self.read().unstarted.values().copied().collect();
        unstarted.sort_by_key(|u| (u.since_ms, u.game));
        unstarted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(ruleset: &str, phase: GamePhase, bots: usize) -> SummaryRecord {
        SummaryRecord {
            ruleset: ruleset.into(),
            phase: phase.number(),
            bots: vec!["hard".into(); bots],
            speed: Speed::Blitz.number(),
            ..SummaryRecord::default()
        }
    }

    #[test]
    fn traits_survive_packing() {
        for phase in GamePhase::ALL {
            for bots in 0..3 {
                let traits = Traits::of(&summary("castillos", phase, bots));
                assert_eq!(Packed::of(traits).traits(), traits);
            }
        }
        let unknown = Traits::of(&summary("ajedrez", GamePhase::Playing, 0));
        assert_eq!(Packed::of(unknown).traits().ruleset, None);
    }

    #[test]
    fn counts_follow_the_summaries() {
        let index = Index::default();
        index.record(GameId(1), &summary("frente", GamePhase::Waiting, 0));
        index.record(GameId(3), &summary("frente", GamePhase::Playing, 2));
        assert_eq!(index.count_unfinished(Unfinished::All), 2);
        assert_eq!(index.count_unfinished(Unfinished::Exhibitions), 1);
        assert!(index.exists(GameId(3)) && !index.exists(GameId(2)));
        assert_eq!(index.last(), 3);
        index.record(GameId(3), &summary("frente", GamePhase::Finished, 2));
        assert_eq!(index.count_unfinished(Unfinished::Exhibitions), 0);
        assert_eq!(index.unfinished(Unfinished::All), [GameId(1)]);
        assert_eq!(index.unstarted().len(), 1);
    }

    #[test]
    fn memory_follows_the_games_not_the_highest_id() {
        let index = Index::default();
        let far = GameId(u64::MAX);
        index.record(GameId(2), &summary("frente", GamePhase::Playing, 0));
        index.record(far, &summary("tanques", GamePhase::Waiting, 0));
        assert_eq!(index.read().games.len(), 2);
        assert_eq!(index.last(), u64::MAX);
        assert!(index.exists(far) && index.exists(GameId(2)) && !index.exists(GameId(3)));
        let page = |before| {
            index.page(&ListQuery {
                before,
                limit: 10,
                ..ListQuery::default()
            })
        };
        assert_eq!(page(None), [far, GameId(2)]);
        assert_eq!(page(Some(far)), [GameId(2)]);
        assert_eq!(page(Some(GameId(2))), []);
    }
}
