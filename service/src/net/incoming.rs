//! Our accept loop: each accepted socket gets Nagle's algorithm off and a [`Slot`] under
//! the connection caps, or is closed at once; accept errors such as `EMFILE` back off
//! instead of spinning (tonic's own loop retries them at once).

use std::convert::Infallible;
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::TcpListener;
use tokio_stream::Stream;

use super::Net;
use super::conn::{Conn, Refusal, Slot};

/// The first pause after an accept error.
const FIRST_BACKOFF: Duration = Duration::from_millis(10);
/// The longest pause after accept errors.
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// Refused connections are reported at warn level at most this often (at debug otherwise).
const REFUSAL_REPORT: Duration = Duration::from_secs(10);

/// The connections `listener` accepts, admitted under `net`'s caps (logged here, once).
pub fn incoming(
    listener: TcpListener,
    net: Arc<Net>,
) -> impl Stream<Item = Result<Conn, Infallible>> {
    let config = net.config();
    tracing::info!(
        max_connections = config.max_connections,
        fd_limit = super::fd_limit(),
        max_connections_per_peer = config.max_connections_per_peer,
        max_watches_per_connection = config.max_watches_per_connection,
        max_watches_per_peer = config.max_watches_per_peer,
        "connection limits"
    );
    let accept = Accept {
        listener,
        net,
        backoff: Backoff::default(),
        refusals: Refusals::default(),
    };
    futures_util::stream::unfold(accept, |mut accept| async move {
        let conn = accept.next().await;
        Some((Ok(conn), accept))
    })
}

/// The accept loop's state.
struct Accept {
    listener: TcpListener,
    net: Arc<Net>,
    backoff: Backoff,
    refusals: Refusals,
}

impl Accept {
    /// The next admitted connection.
    async fn next(&mut self) -> Conn {
        loop {
            let (stream, remote) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                // The peer gave up before we accepted: nothing wrong with us.
                Err(error) if is_peer_error(&error) => continue,
                Err(error) => {
                    let pause = self.backoff.next();
                    if pause == FIRST_BACKOFF {
                        tracing::warn!(%error, "cannot accept connections; backing off");
                    }
                    tokio::time::sleep(pause).await;
                    continue;
                }
            };
            self.backoff.reset();
            match self.net.admit(remote.ip()) {
                Ok(slot) => return self.admitted(stream, remote, slot),
                // Dropping the socket closes it.
                Err(refusal) => self.refusals.note(&refusal, Instant::now()),
            }
        }
    }

    fn admitted(
        &self,
        stream: tokio::net::TcpStream,
        remote: std::net::SocketAddr,
        slot: Slot,
    ) -> Conn {
        // Replies are small and must not wait for the peer's delayed ACK (40 ms per call).
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
        Conn::new(stream, remote, slot)
    }
}

/// Accept errors that concern one connection, not the listener.
fn is_peer_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
    )
}

/// Pauses after consecutive accept errors: 10 ms, doubling up to 1 s.
#[derive(Debug, Default)]
struct Backoff {
    last: Option<Duration>,
}

impl Backoff {
    /// The pause after one more error.
    fn next(&mut self) -> Duration {
        let pause = self
            .last
            .map_or(FIRST_BACKOFF, |last| (last * 2).min(MAX_BACKOFF));
        self.last = Some(pause);
        pause
    }

    /// A connection came in: the burst of errors is over.
    fn reset(&mut self) {
        self.last = None;
    }
}

/// Reports refused connections without flooding the log.
#[derive(Debug, Default)]
struct Refusals {
    /// When the last warning went out.
    reported: Option<Instant>,
    /// Refusals since then.
    since: u64,
}

impl Refusals {
    /// Notes `refusal`, at `now`.
    fn note(&mut self, refusal: &Refusal, now: Instant) {
        self.since += 1;
        if self
            .reported
            .is_some_and(|reported| now < reported + REFUSAL_REPORT)
        {
            tracing::debug!(%refusal, "closed a new connection");
            return;
        }
        tracing::warn!(
            %refusal,
            refused = self.since,
            "closing new connections over the limit"
        );
        self.reported = Some(now);
        self.since = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_errors_back_off_doubling_to_a_second_then_start_over() {
        let mut backoff = Backoff::default();
        let pauses: Vec<u64> = (0..10).map(|_| backoff.next().as_millis() as u64).collect();
        assert_eq!(pauses, [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000]);
        backoff.reset();
        assert_eq!(backoff.next(), FIRST_BACKOFF);
    }

    #[test]
    fn only_connection_errors_are_retried_at_once() {
        assert!(is_peer_error(&io::ErrorKind::ConnectionAborted.into()));
        let emfile = io::Error::from_raw_os_error(24);
        assert!(!is_peer_error(&emfile));
    }

    #[test]
    fn refusals_warn_once_per_period() {
        let mut refusals = Refusals::default();
        let refusal = Refusal::Total(1);
        let start = Instant::now();
        refusals.note(&refusal, start);
        refusals.note(&refusal, start + REFUSAL_REPORT / 2);
        assert_eq!(refusals.since, 1, "the second only counted");
        refusals.note(&refusal, start + REFUSAL_REPORT);
        assert_eq!(refusals.since, 0, "reported with the one before");
    }
}
