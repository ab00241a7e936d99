//! The broadcast of one game's events to its watchers.
//!
//! Each loaded game has a [`Hub`]. Its channel is made by the first watcher, so a game
//! that nobody watches (most of them, and every lookup of a game that turns out not to
//! exist) costs no channel buffer.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::broadcast;
use trinchera_rules::Viewer;

use crate::state::{GameEvent, GameState, Snapshot};

/// An event with the game right after it, as sent to watchers: each watcher gets the
/// event and its own snapshot of the game, never the game itself.
#[derive(Debug)]
pub struct Published {
    /// The event.
    pub event: GameEvent,
    /// The game after it.
    state: GameState,
    /// What spectators see after it: made for the first spectator stream that asks and
    /// shared by the others, since they all see the same.
    spectators: OnceLock<Snapshot>,
}

impl Published {
    /// What `viewer` sees after the event.
    pub fn snapshot(&self, viewer: Viewer) -> Cow<'_, Snapshot> {
        match viewer {
            Viewer::Spectator => {
                Cow::Borrowed(self.spectators.get_or_init(|| self.state.snapshot(viewer)))
            }
            Viewer::Player(_) => Cow::Owned(self.state.snapshot(viewer)),
        }
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
    /// A hub whose watchers may fall `capacity` events behind.
    pub fn new(capacity: usize) -> Hub {
        Hub {
            capacity,
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
                let _ = channel.send(Arc::new(Published {
                    event,
                    state: state.clone(),
                    spectators: OnceLock::new(),
                }));
            }
            // The last watcher left: free the buffer until somebody watches again.
            Some(_) => *sender = None,
            None => {}
        }
    }
}
