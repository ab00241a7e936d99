//! Bot leases in memory, for the stores of one process (the embedded backend, and the
//! memory model): the same rules as a shared database's, where servers arbitrate.

use std::collections::HashMap;

use crate::BotLease;
use crate::ids::GameId;

/// Who holds each game's bot turn, and until when.
#[derive(Debug, Default)]
pub struct Leases(HashMap<GameId, Held>);

#[derive(Clone, Copy, Debug)]
struct Held {
    holder: u64,
    until_ms: u64,
}

impl Leases {
    /// What an append of game `game` does to its lease.
    pub fn write(&mut self, game: GameId, lease: Option<BotLease>) {
        match lease {
            Some(BotLease::Take { holder, until_ms }) => {
                self.0.insert(game, Held { holder, until_ms });
            }
            Some(BotLease::End) => {
                self.0.remove(&game);
            }
            None => {}
        }
    }

    /// Gives `holder` game `game`'s lease until `until_ms` unless another holder's lease
    /// runs past `now_ms`; whether `holder` holds it.
    pub fn take(&mut self, game: GameId, holder: u64, now_ms: u64, until_ms: u64) -> bool {
        let free = self
            .0
            .get(&game)
            .is_none_or(|held| held.holder == holder || held.until_ms < now_ms);
        if free {
            self.0.insert(game, Held { holder, until_ms });
        }
        free
    }

    /// Extends the leases of `holder` on `games` to `until_ms`.
    pub fn renew(&mut self, holder: u64, games: &[GameId], until_ms: u64) {
        for game in games {
            if let Some(held) = self.0.get_mut(game).filter(|held| held.holder == holder) {
                held.until_ms = until_ms;
            }
        }
    }

    /// Games whose lease ran out before `now_ms`, soonest run out first, `limit` at most.
    pub fn expired(&self, now_ms: u64, limit: usize) -> Vec<GameId> {
        let mut expired: Vec<(u64, GameId)> = self
            .0
            .iter()
            .filter(|(_, held)| held.until_ms < now_ms)
            .map(|(&game, held)| (held.until_ms, game))
            .collect();
        expired.sort_unstable();
        expired
            .into_iter()
            .take(limit)
            .map(|(_, game)| game)
            .collect()
    }

    /// Lets every lease of `holder` run out now.
    pub fn give_up(&mut self, holder: u64) {
        for held in self.0.values_mut().filter(|held| held.holder == holder) {
            held.until_ms = 0;
        }
    }
}
