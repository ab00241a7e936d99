//! The per-address limits on unfinished games: how many each client address has created
//! (counted since the server started, per server), and places taken for games being created,
//! so that the caps on unfinished games and exhibitions hold while creations run.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard};

use super::Limits;
use crate::error::ApiError;
use trinchera_store::GameId;

/// A place among the unfinished games, taken before a game is created: kept by
/// [`Reservations::created`], given back by [`Reservations::cancel`].
#[derive(Clone, Copy, Debug)]
#[must_use = "a reservation is kept by `created` or given back by `cancel`"]
pub(super) struct Reservation {
    peer: Option<IpAddr>,
    /// Whether the game is to be played by two bots.
    exhibition: bool,
}

/// The unfinished games one address created.
#[derive(Clone, Copy, Debug, Default)]
struct PeerGames {
    open: usize,
    exhibitions: usize,
}

#[derive(Debug, Default)]
struct Inner {
    /// Places taken for games being created.
    in_flight: usize,
    /// Of those, for games between two bots.
    in_flight_exhibitions: usize,
    by_peer: HashMap<IpAddr, PeerGames>,
    /// The creator's reservation of each unfinished game an address created.
    creators: HashMap<GameId, Reservation>,
}

impl Inner {
    /// Gives back what `reservation`'s address counted for its game.
    fn release(&mut self, reservation: Reservation) {
        let Some(peer) = reservation.peer else { return };
        if let Some(games) = self.by_peer.get_mut(&peer) {
            games.open -= 1;
            games.exhibitions -= usize::from(reservation.exhibition);
            if games.open == 0 {
                self.by_peer.remove(&peer);
            }
        }
    }
}

/// The reservations and per-address counts of unfinished games.
#[derive(Debug, Default)]
pub(super) struct Reservations {
    inner: Mutex<Inner>,
}

/// How many unfinished games the store holds now.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Unfinished {
    /// Games in all.
    pub games: usize,
    /// Games between two bots.
    pub exhibitions: usize,
}

impl Reservations {
    fn inner(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a place for a new unfinished game created by `peer` (an exhibition between
    /// two bots if `exhibition`), within the caps of `limits` given the `stored` ones.
    pub(super) fn reserve(
        &self,
        peer: Option<IpAddr>,
        exhibition: bool,
        limits: &Limits,
        stored: Unfinished,
    ) -> Result<Reservation, ApiError> {
        let mut inner = self.inner();
        if stored.games + inner.in_flight >= limits.max_open_games {
            return Err(ApiError::exhausted(
                "--max-open-games",
                format!(
                    "the server already holds {} unfinished games, its limit \
                 (--max-open-games); finish or resign some first",
                    limits.max_open_games
                ),
            ));
        }
        if exhibition && stored.exhibitions + inner.in_flight_exhibitions >= limits.max_exhibitions
        {
            return Err(ApiError::exhausted(
                "--max-exhibitions",
                format!(
                    "the server already holds {} unfinished games between two bots, its limit \
                 (--max-exhibitions); watch one of them, or try again later",
                    limits.max_exhibitions
                ),
            ));
        }
        if let Some(peer) = peer {
            let games = inner.by_peer.entry(peer).or_default();
            if games.open >= limits.max_open_games_per_peer {
                return Err(ApiError::exhausted(
                    "--max-open-games-per-peer",
                    format!(
                        "your address already created {} unfinished games, the limit per address \
                     (--max-open-games-per-peer); finish or resign some first",
                        limits.max_open_games_per_peer
                    ),
                ));
            }
            if exhibition && games.exhibitions >= limits.max_exhibitions_per_peer {
                return Err(ApiError::exhausted(
                    "--max-exhibitions-per-peer",
                    format!(
                        "your address already created {} unfinished games between two bots, the \
                     limit per address (--max-exhibitions-per-peer); let one finish first",
                        limits.max_exhibitions_per_peer
                    ),
                ));
            }
            games.open += 1;
            games.exhibitions += usize::from(exhibition);
        }
        inner.in_flight += 1;
        inner.in_flight_exhibitions += usize::from(exhibition);
        Ok(Reservation { peer, exhibition })
    }

    /// Gives a reservation back: the game was not created.
    pub(super) fn cancel(&self, reservation: Reservation) {
        let mut inner = self.inner();
        inner.in_flight -= 1;
        inner.in_flight_exhibitions -= usize::from(reservation.exhibition);
        inner.release(reservation);
    }

    /// Game `id` was created (stored, its seats taken) with `reservation`.
    pub(super) fn created(&self, reservation: Reservation, id: GameId) {
        let mut inner = self.inner();
        inner.in_flight -= 1;
        inner.in_flight_exhibitions -= usize::from(reservation.exhibition);
        if reservation.peer.is_some() {
            inner.creators.insert(id, reservation);
        }
    }

    /// Game `id` is over: its creator's address may create another.
    pub(super) fn finished(&self, id: GameId) {
        let mut inner = self.inner();
        if let Some(reservation) = inner.creators.remove(&id) {
            inner.release(reservation);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    const NONE: Unfinished = Unfinished {
        games: 0,
        exhibitions: 0,
    };

    #[test]
    fn open_games_are_counted_per_creating_address() {
        let reservations = Reservations::default();
        let peer: IpAddr = [127, 0, 0, 9].into();
        let limits = caps(10, 1, 10, 10);
        let first = reservations
            .reserve(Some(peer), false, &limits, NONE)
            .expect("room");
        assert!(
            reservations
                .reserve(Some(peer), false, &limits, NONE)
                .is_err(),
            "per peer"
        );
        reservations.created(first, GameId(1));
        let stored = Unfinished {
            games: 1,
            exhibitions: 0,
        };
        let other = reservations
            .reserve(None, false, &limits, stored)
            .expect("no address, no peer limit");
        reservations.cancel(other);
        reservations.finished(GameId(1));
        let again = reservations
            .reserve(Some(peer), false, &limits, NONE)
            .expect("released");
        reservations.cancel(again);
        let full = Unfinished {
            games: 10,
            exhibitions: 0,
        };
        let refused = reservations
            .reserve(None, false, &limits, full)
            .expect_err("total");
        assert!(
            refused.to_string().contains("(--max-open-games)"),
            "{refused}"
        );
    }

    #[test]
    fn exhibitions_are_capped_per_address_and_in_total() {
        let reservations = Reservations::default();
        let ana: IpAddr = [10, 0, 0, 1].into();
        let beto: IpAddr = [10, 0, 0, 2].into();
        let limits = caps(100, 100, 2, 1);
        let first = reservations
            .reserve(Some(ana), true, &limits, NONE)
            .expect("room");
        let refused = reservations
            .reserve(Some(ana), true, &limits, NONE)
            .expect_err("per peer");
        assert!(
            refused.to_string().contains("--max-exhibitions-per-peer"),
            "{refused}"
        );
        let person = reservations
            .reserve(Some(ana), false, &limits, NONE)
            .expect("not an exhibition");
        reservations.cancel(person);
        reservations.created(first, GameId(1));
        let stored = Unfinished {
            games: 1,
            exhibitions: 1,
        };
        let second = reservations
            .reserve(Some(beto), true, &limits, stored)
            .expect("room");
        let refused = reservations
            .reserve(None, true, &limits, stored)
            .expect_err("total");
        assert!(
            refused.to_string().contains("(--max-exhibitions)"),
            "{refused}"
        );
        reservations.cancel(second);
        reservations.finished(GameId(1));
        let again = reservations
            .reserve(Some(ana), true, &limits, NONE)
            .expect("released");
        reservations.cancel(again);
    }
}
