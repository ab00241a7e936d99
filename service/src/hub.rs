//! The broadcast of one game's events to its watchers.
//!
//! Each loaded game has a [`Hub`]. Its channel is made by the first watcher, so a game
//! that nobody watches (most of them, and every lookup of a game that turns out not to
//! exist) costs no channel buffer.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::broadcast;
use trinchera_rules::{Seat, Viewer};

use crate::state::{GameEvent, GameState, Snapshot};

/// The live buffer's length at most: a watcher further behind gets a fresh snapshot. Its
/// slots exist for as long as the game is watched, so it is kept short (resumption with
/// `after_version` reads the store and is not bound by it).
const MAX_LIVE_BUFFER: usize = 32;

/// An event with the game right after it, as sent to watchers: each watcher gets the
/// event and its own snapshot of the game, never the game itself.
///
/// The game after the event is kept only until every watcher the event was sent to has
/// taken its snapshot (or passed the event by): a message waiting in the broadcast
/// buffer for a slow watcher keeps its state, one that everybody read keeps only its event.
#[derive(Debug)]
pub struct Published {
    /// The event.
    pub event: GameEvent,
    /// Watchers the event was sent to that have not taken their snapshot yet.
    unread: AtomicUsize,
    /// The game after the event, until nobody needs it.
    after: Mutex<Option<After>>,
}

/// What the watchers of one event make their snapshots from.
#[derive(Debug)]
struct After {
    state: GameState,
    /// What spectators see: made for the first spectator that asks, shared by the others.
    spectators: Option<Arc<Snapshot>>,
}

impl Published {
    fn after(&self) -> MutexGuard<'_, Option<After>> {
        self.after.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What `viewer` sees after the event. Each receiver of the event calls this or
    /// [`Published::pass`] once; `None` only if the event was already read by as many
    /// receivers as it was sent to (then the caller takes a fresh snapshot).
    pub fn snapshot(&self, viewer: Viewer) -> Option<Arc<Snapshot>> {
        let mut after = self.after();
        let taken = after.as_mut().map(|after| match viewer {
            Viewer::Spectator => Arc::clone(
                after
                    .spectators
                    .get_or_insert_with(|| Arc::new(after.state.snapshot(viewer))),
            ),
            Viewer::Player(_) => Arc::new(after.state.snapshot(viewer)),
        });
        self.read(&mut after);
        taken
    }

    /// A receiver that does not need the event (it has seen its version already).
    pub fn pass(&self) {
        self.read(&mut self.after());
    }

    /// One receiver is done with the event: the last one frees the game after it.
    fn read(&self, after: &mut Option<After>) {
        if self.unread.fetch_sub(1, Ordering::AcqRel) <= 1 {
            *after = None;
        }
    }

    /// The seat to act after the event; `None` once the game is over (or the game after
    /// the event was already freed, which a receiver that has not read it never sees).
    pub fn to_move(&self) -> Option<Seat> {
        self.after()
            .as_ref()
            .and_then(|after| after.state.game().to_move())
    }

    /// The game's version after the event.
    pub fn version(&self) -> u64 {
        self.event.version
    }
}

/// One game's watchers.
#[derive(Debug)]
pub struct Hub {
    /// Messages a watcher may fall behind before it gets a fresh snapshot.
    capacity: usize,
    sender: Mutex<Option<broadcast::Sender<Arc<Published>>>>,
}

impl Hub {
    /// A hub whose watchers may fall `capacity` events behind (at most
    /// [`MAX_LIVE_BUFFER`]).
    pub fn new(capacity: usize) -> Hub {
        Hub {
            capacity: capacity.clamp(1, MAX_LIVE_BUFFER),
            sender: Mutex::new(None),
        }
    }

    fn sender(&self) -> std::sync::MutexGuard<'_, Option<broadcast::Sender<Arc<Published>>>> {
        self.sender.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new watcher's receiver of every later event.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Published>> {
        self.sender()
            .get_or_insert_with(|| broadcast::Sender::new(self.capacity))
            .subscribe()
    }

    /// Watchers now.
    pub fn watchers(&self) -> usize {
        self.sender()
            .as_ref()
            .map_or(0, broadcast::Sender::receiver_count)
    }

    /// Sends `event` and the game after it to every watcher, if there is any.
    pub fn publish(&self, event: GameEvent, state: &GameState) {
        let mut sender = self.sender();
        match sender.as_ref() {
            Some(channel) if channel.receiver_count() > 0 => {
                // Subscriptions wait for this lock: the count is the receivers it reaches.
                let _ = channel.send(Arc::new(Published {
                    event,
                    unread: AtomicUsize::new(channel.receiver_count()),
                    after: Mutex::new(Some(After {
                        state: state.clone(),
                        spectators: None,
                    })),
                }));
            }
            // The last watcher left: free the buffer until somebody watches again.
            Some(_) => *sender = None,
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use trinchera_rules::{Seat, Seed};

    use super::*;
    use crate::ids::{GameId, TokenHash};
    use crate::state::{Creation, Creator, Moment};
    use crate::timing::TimeControl;

    /// A new frente game and the event that made it.
    fn created() -> (GameState, GameEvent) {
        let creation = Creation {
            ruleset: "frente".into(),
            name: "hub".into(),
            creator: Creator {
                seat: Seat::First,
                name: "Ana".into(),
                token: TokenHash::of("ana"),
                bot: None,
            },
            seed: Seed([7; 32]),
            control: TimeControl::Untimed,
        };
        let moment = Moment {
            at_ms: 1,
            spent_ms: 0,
        };
        let (state, change) = GameState::create(GameId(1), creation, moment).expect("created");
        (state, change.event)
    }

    #[test]
    fn the_game_after_an_event_is_freed_once_every_receiver_read_it() {
        let (state, event) = created();
        let hub = Hub::new(8);
        let (mut player, mut spectator, mut skipping) =
            (hub.subscribe(), hub.subscribe(), hub.subscribe());
        hub.publish(event, &state);
        let (first, second, third) = (
            player.try_recv().expect("sent"),
            spectator.try_recv().expect("sent"),
            skipping.try_recv().expect("sent"),
        );
        assert!(first.after().is_some());
        let seen = first
            .snapshot(Viewer::Player(Seat::First))
            .expect("the player's view");
        assert_eq!(seen.version, state.version());
        let shared = second.snapshot(Viewer::Spectator).expect("the spectators' view");
        assert!(third.after().is_some(), "one receiver has not read it yet");
        third.pass();
        assert!(third.after().is_none(), "read by all: only the event is kept");
        assert_eq!(shared.version, state.version());
        // A receiver beyond those counted finds nothing and takes a fresh snapshot instead.
        assert!(third.snapshot(Viewer::Spectator).is_none());
    }

    #[test]
    fn nothing_is_kept_for_a_game_nobody_watches_and_the_live_buffer_is_short() {
        let (state, event) = created();
        let hub = Hub::new(256);
        assert_eq!(hub.capacity, MAX_LIVE_BUFFER);
        hub.publish(event.clone(), &state);
        assert!(hub.sender().is_none(), "no channel without a watcher");
        let watcher = hub.subscribe();
        drop(watcher);
        hub.publish(event, &state);
        assert!(hub.sender().is_none(), "the last watcher gone, the buffer is freed");
    }
}
