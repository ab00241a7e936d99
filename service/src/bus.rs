//! The bus between servers that share a database (`bus.url`, NATS): each server publishes
//! every event it commits on the game's subject, and hears the events of the others
//! ([`Bus::events`]), which the games manager applies to the games it holds in memory, so
//! that its watchers see every move whichever server made it.
//!
//! Core NATS delivers at most once. Nothing depends on it for correctness: the store is
//! the truth, an append names its version and a gap is filled from the store. What the bus
//! may lose is caught up from the store: after a reconnect or a slow-consumer warning,
//! every game in memory; every few seconds, every watched game; and while the bus is down
//! (or when there is none), the watched games are polled twice a second (slower, logged,
//! counted by `trinchera_bus_polls_total`).
//!
//! A message is one event: the subject `trinchera.v1.games.<game id>`, the payload the
//! game's version after it (8 bytes, big-endian) followed by its log entry in the stored
//! encoding ([`records::encode`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::Bytes;
use futures_util::{Stream, StreamExt as _};
use tokio::sync::{Notify, mpsc};

use trinchera_store::GameId;
use trinchera_store::records::{self, EventRecord};

/// The subjects of every game's events.
const SUBJECTS: &str = "trinchera.v1.games.*";

/// Events waiting to be published at most; past that they are dropped (the others catch
/// up from the store).
const OUTBOX: usize = 8192;

/// How long a subscription that failed waits before it is tried again.
const POLL: Duration = Duration::from_millis(500);

/// A subject of one game.
fn subject(game: GameId) -> String {
    format!("trinchera.v1.games.{}", game.0)
}

/// Why the bus could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("the bus at {url}: {source}")]
pub struct BusError {
    url: String,
    #[source]
    source: Box<dyn std::error::Error + Send + Sync>,
}

/// A connection to the bus.
pub(crate) struct Bus {
    client: async_nats::Client,
    outbox: mpsc::Sender<(GameId, Bytes)>,
    up: Arc<AtomicBool>,
    /// Woken when what the bus delivered may have gaps (a reconnect, a slow consumer).
    resync: Arc<Notify>,
}

impl Bus {
    /// Connects to the NATS server(s) at `url` (`nats://host:4222`, several separated by
    /// commas). A bus that is not up yet is connected to in the background: the server
    /// starts anyway and polls the store until it is.
    pub(crate) async fn connect(url: &str) -> Result<Arc<Bus>, BusError> {
        let failed = |source: Box<dyn std::error::Error + Send + Sync>| BusError {
            url: url.to_owned(),
            source,
        };
        let up = Arc::new(AtomicBool::new(false));
        let resync = Arc::new(Notify::new());
        let events = {
            let (up, resync) = (Arc::clone(&up), Arc::clone(&resync));
            move |event: async_nats::Event| {
                let (up, resync) = (Arc::clone(&up), Arc::clone(&resync));
                async move {
                    match event {
                        async_nats::Event::Connected => {
                            up.store(true, Ordering::Relaxed);
                            tracing::info!("the bus is up");
                            resync.notify_one();
                        }
                        async_nats::Event::Disconnected => {
                            up.store(false, Ordering::Relaxed);
                            tracing::warn!("the bus is down: polling the store meanwhile");
                        }
                        async_nats::Event::SlowConsumer(_) => {
                            tracing::warn!("the bus dropped messages for this server");
                            resync.notify_one();
                        }
                        other => tracing::info!(event = %other, "bus"),
                    }
                    crate::metrics::bus_up(up.load(Ordering::Relaxed));
                }
            }
        };
        let addresses: Vec<async_nats::ServerAddr> = url
            .split(',')
            .map(|address| address.trim().parse())
            .collect::<Result<_, _>>()
            .map_err(|error| failed(Box::new(error)))?;
        let client = async_nats::ConnectOptions::new()
            .name("trinchera-server")
            .no_echo()
            .retry_on_initial_connect()
            .event_callback(events)
            .connect(addresses)
            .await
            .map_err(|error| failed(Box::new(error)))?;
        let (outbox, queued) = mpsc::channel(OUTBOX);
        tokio::spawn(send(client.clone(), queued));
        crate::metrics::bus_up(false);
        Ok(Arc::new(Bus {
            client,
            outbox,
            up,
            resync,
        }))
    }

    /// Publishes version `version` of game `game`, written as `record` (never waits: past
    /// [`OUTBOX`] queued events, the event is dropped and the others catch up).
    pub(crate) fn publish(&self, game: GameId, version: u64, record: &EventRecord) {
        let mut payload = version.to_be_bytes().to_vec();
        payload.extend(records::encode(record));
        if self.outbox.try_send((game, payload.into())).is_err() {
            crate::metrics::bus_dropped();
        }
    }

    /// Whether the bus is connected now.
    pub(crate) fn up(&self) -> bool {
        self.up.load(Ordering::Relaxed)
    }

    /// Resolves when what the bus delivered may have gaps (after a reconnect, or when it
    /// dropped messages for this server): time to catch up from the store.
    pub(crate) async fn resynced(&self) {
        self.resync.notified().await;
    }

    /// The other servers' events, as they come: each game, its version after the event,
    /// and the entry. Subscribes (again and again, while it cannot) first.
    pub(crate) async fn events(&self) -> impl Stream<Item = (GameId, u64, EventRecord)> + use<> {
        let subscriber = loop {
            match self.client.subscribe(SUBJECTS).await {
                Ok(subscriber) => break subscriber,
                Err(error) => {
                    tracing::warn!(%error, "cannot subscribe to the bus: trying again");
                    tokio::time::sleep(POLL).await;
                }
            }
        };
        subscriber.filter_map(|message| {
            let event = event_of(&message);
            if event.is_none() {
                tracing::debug!(subject = %message.subject, "not an event of this build");
            }
            std::future::ready(event)
        })
    }
}

/// Publishes what is queued, in order.
async fn send(client: async_nats::Client, mut queued: mpsc::Receiver<(GameId, Bytes)>) {
    while let Some((game, payload)) = queued.recv().await {
        if let Err(error) = client.publish(subject(game), payload).await {
            tracing::debug!(%error, "could not publish an event");
        }
    }
}

/// An event from the bus: the game, its version after the event, the entry.
fn event_of(message: &async_nats::Message) -> Option<(GameId, u64, EventRecord)> {
    let game = message
        .subject
        .as_str()
        .strip_prefix("trinchera.v1.games.")?
        .parse()
        .ok()?;
    let (version, record) = message.payload.split_at_checked(8)?;
    let version = u64::from_be_bytes(version.try_into().ok()?);
    Some((GameId(game), version, records::decode(record).ok()?))
}
