//! A whole server on its own thread and runtime, for programs that embed one: the clients'
//! test suites start one per test, on a free loopback port and a temporary directory.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::oneshot;

use crate::throttle::RateLimits;
use crate::{BotPace, Games, Limits, NetConfig, ServeOptions};
use trinchera_store::Store;

impl Limits {
    /// Limits for a server that only tests talk to: no rate limits, and bots that think
    /// for 50 ms and answer at once.
    pub fn for_tests() -> Limits {
        Limits {
            rates: RateLimits::OFF,
            bots: BotPace {
                think: Duration::from_millis(50),
                min_delay: Duration::ZERO,
                threads: BotPace::default_threads(),
                ..BotPace::default()
            },
            ..Limits::default()
        }
    }
}

/// A server on its own thread, serving a store (sled in a directory, or any backend) until
/// stopped or dropped.
pub struct LocalServer {
    address: SocketAddr,
    running: Option<(oneshot::Sender<()>, JoinHandle<()>)>,
}

impl LocalServer {
    /// Starts a server over `store` (any backend: a [`MemoryStore`](trinchera_store::MemoryStore)
    /// for a server that keeps nothing), listening on `address`, and returns once it
    /// accepts connections.
    pub fn start_with_store(
        store: Arc<dyn Store>,
        address: SocketAddr,
        limits: Limits,
    ) -> io::Result<LocalServer> {
        let options = ServeOptions::plain(NetConfig::default());
        LocalServer::start_serving(store, address, limits, options)
    }

    /// Starts a server over `store` on `address` served as `options` say (TLS, say), and
    /// returns once it accepts connections.
    pub fn start_serving(
        store: Arc<dyn Store>,
        address: SocketAddr,
        limits: Limits,
        options: ServeOptions,
    ) -> io::Result<LocalServer> {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<io::Result<SocketAddr>>();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => return drop(ready_tx.send(Err(e))),
            };
            runtime.block_on(async move {
                let started = async {
                    let games = Games::new(store, limits).await.map_err(io::Error::other)?;
                    let listener = tokio::net::TcpListener::bind(address).await?;
                    Ok::<_, io::Error>((games, listener))
                };
                let (games, listener) = match started.await {
                    Ok(started) => started,
                    Err(e) => return drop(ready_tx.send(Err(e))),
                };
                let _ = ready_tx.send(listener.local_addr());
                let served = crate::run(listener, games, options, async {
                    let _ = stopped.await;
                })
                .await;
                if let Err(e) = served {
                    tracing::error!("local server stopped: {e}");
                }
            });
        });
        let address = ready_rx
            .recv()
            .map_err(|_| io::Error::other("the server thread ended before it started"))??;
        Ok(LocalServer {
            address,
            running: Some((stop, thread)),
        })
    }

    /// The address it listens on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Its URL for clients: `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Shuts it down gracefully (streams end, calls finish, the store is flushed) and waits.
    pub fn stop(&mut self) {
        if let Some((stop, thread)) = self.running.take() {
            let _ = stop.send(());
            let _ = thread.join();
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.stop();
    }
}
