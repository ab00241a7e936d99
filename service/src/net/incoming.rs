//! Our accept loop: each accepted socket gets Nagle's algorithm off and a [`Slot`] under
//! the connection caps, or is closed at once; accept errors such as `EMFILE` back off
//! instead of spinning (tonic's own loop retries them at once), with a rate-limited warning.
//! With TLS, each connection's handshake runs on its own task, within the preface timeout,
//! so that a slow client holds up nobody else; the HTTP/2 preface and the first call are
//! then watched in decrypted bytes.

use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_stream::{Stream, StreamExt as _};
use tonic::transport::server::Connected;

use super::Net;
use super::conn::{Conn, Connection, Refusal, Slot};
use super::tls::Tls;

/// The first pause after an accept error.
const FIRST_BACKOFF: Duration = Duration::from_millis(10);
/// The longest pause after accept errors.
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// Refused connections and accept errors are reported at warn level at most this often (at
/// debug otherwise).
const REFUSAL_REPORT: Duration = Duration::from_secs(10);

/// The connections `listener` accepts, admitted under `net`'s caps (logged here, once), and
/// with `tls`, past their TLS handshake.
pub(crate) fn incoming(
    listener: TcpListener,
    net: Arc<Net>,
    tls: Option<Arc<Tls>>,
) -> Pin<Box<dyn Stream<Item = Result<Io, Infallible>> + Send>> {
    let config = net.config();
    tracing::info!(
        max_connections = config.max_connections,
        fd_limit = super::fd_limit(),
        max_connections_per_peer = config.max_connections_per_peer,
        max_watches_per_connection = config.max_watches_per_connection,
        max_watches_per_peer = config.max_watches_per_peer,
        "connection limits"
    );
    let handshake_time = config.preface_timeout;
    let mut accept = Accept {
        listener,
        net,
        backoff: Backoff::default(),
        refusals: Refusals::default(),
    };
    let Some(tls) = tls else {
        return Box::pin(futures_util::stream::unfold(
            accept,
            |mut accept| async move {
                let admitted = accept.next().await;
                let local = admitted.stream.local_addr().ok();
                let conn = Conn::new(
                    admitted.stream,
                    local,
                    admitted.remote,
                    admitted.slot,
                    admitted.at,
                );
                Some((Ok(Io::Plain(conn)), accept))
            },
        ));
    };
    let (ready, handshaken) = tokio::sync::mpsc::channel(HANDSHAKEN);
    tokio::spawn(async move {
        loop {
            let admitted = tokio::select! {
                admitted = accept.next() => admitted,
                () = ready.closed() => return,
            };
            let acceptor = tls.acceptor();
            let ready = ready.clone();
            tokio::spawn(async move {
                let Admitted {
                    stream,
                    remote,
                    slot,
                    at,
                } = admitted;
                let local = stream.local_addr().ok();
                let deadline = at + handshake_time;
                match tokio::time::timeout_at(deadline, acceptor.accept(stream)).await {
                    Ok(Ok(stream)) => {
                        // The preface and the first call are counted in decrypted bytes,
                        // from the same moment: the handshake spent part of the time.
                        let conn = Conn::new(stream, local, remote, slot, at);
                        let _ = ready.send(Io::Tls(Box::new(conn))).await;
                    }
                    Ok(Err(error)) => {
                        tracing::debug!(peer = %remote, %error, "TLS handshake failed")
                    }
                    Err(_) => {
                        tracing::debug!(peer = %remote, "no TLS handshake in time (--preface-timeout-secs)")
                    }
                }
            });
        }
    });
    Box::pin(tokio_stream::wrappers::ReceiverStream::new(handshaken).map(Ok))
}

/// Connections past their handshake waiting for the server to take them.
const HANDSHAKEN: usize = 64;

/// A connection as the server serves it: plain, or TLS over it.
pub(crate) enum Io {
    /// Plaintext HTTP/2.
    Plain(Conn),
    /// HTTP/2 over TLS.
    Tls(Box<Conn<tokio_rustls::server::TlsStream<TcpStream>>>),
}

impl Connected for Io {
    type ConnectInfo = Arc<Connection>;

    fn connect_info(&self) -> Arc<Connection> {
        match self {
            Io::Plain(conn) => conn.connect_info(),
            Io::Tls(conn) => conn.connect_info(),
        }
    }
}

impl AsyncRead for Io {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Io::Plain(conn) => Pin::new(conn).poll_read(cx, buf),
            Io::Tls(conn) => Pin::new(conn.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Io {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Io::Plain(conn) => Pin::new(conn).poll_write(cx, buf),
            Io::Tls(conn) => Pin::new(conn.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Io::Plain(conn) => Pin::new(conn).poll_write_vectored(cx, bufs),
            Io::Tls(conn) => Pin::new(conn.as_mut()).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Io::Plain(conn) => conn.is_write_vectored(),
            Io::Tls(conn) => conn.is_write_vectored(),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Io::Plain(conn) => Pin::new(conn).poll_flush(cx),
            Io::Tls(conn) => Pin::new(conn.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Io::Plain(conn) => Pin::new(conn).poll_shutdown(cx),
            Io::Tls(conn) => Pin::new(conn.as_mut()).poll_shutdown(cx),
        }
    }
}

/// The accept loop's state.
struct Accept {
    listener: TcpListener,
    net: Arc<Net>,
    backoff: Backoff,
    refusals: Refusals,
}

/// A socket accepted under the connection caps.
struct Admitted {
    stream: TcpStream,
    remote: std::net::SocketAddr,
    slot: Slot,
    /// When it was accepted.
    at: tokio::time::Instant,
}

impl Accept {
    /// The next admitted connection.
    async fn next(&mut self) -> Admitted {
        loop {
            let (stream, remote) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                // The peer gave up before we accepted: nothing wrong with us.
                Err(error) if is_peer_error(&error) => continue,
                Err(error) => {
                    let pause = self.backoff.next(&error, Instant::now());
                    tokio::time::sleep(pause).await;
                    continue;
                }
            };
            self.backoff.reset();
            match self.net.admit(remote.ip()) {
                Ok(slot) => {
                    // Replies are small and must not wait for the peer's delayed ACK (40 ms
                    // per call).
                    if let Err(error) = stream.set_nodelay(true) {
                        tracing::debug!(%error, "cannot set TCP_NODELAY");
                    }
                    let at = tokio::time::Instant::now();
                    return Admitted {
                        stream,
                        remote,
                        slot,
                        at,
                    };
                }
                // Dropping the socket closes it.
                Err(refusal) => self.refusals.note(&refusal, Instant::now()),
            }
        }
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

/// Pauses after consecutive accept errors (10 ms, doubling up to 1 s), and reports them
/// at warn level at most once per [`REFUSAL_REPORT`] (at debug otherwise), so that a
/// listener at the descriptor limit neither spins nor floods the log.
#[derive(Debug, Default)]
struct Backoff {
    last: Option<Duration>,
    /// When the last warning went out.
    reported: Option<Instant>,
    /// Errors since then.
    since: u64,
}

impl Backoff {
    /// The pause after one more error, `error` at `now`.
    fn next(&mut self, error: &io::Error, now: Instant) -> Duration {
        let pause = self
            .last
            .map_or(FIRST_BACKOFF, |last| (last * 2).min(MAX_BACKOFF));
        self.last = Some(pause);
        self.since += 1;
        if self
            .reported
            .is_some_and(|reported| now < reported + REFUSAL_REPORT)
        {
            tracing::debug!(%error, "cannot accept connections; backing off");
        } else {
            tracing::warn!(%error, errors = self.since, "cannot accept connections; backing off");
            self.reported = Some(now);
            self.since = 0;
        }
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
        crate::metrics::refused(refusal.limit());
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
        let emfile = io::Error::from_raw_os_error(24);
        let start = Instant::now();
        let pauses: Vec<u64> = (0..10)
            .map(|_| backoff.next(&emfile, start).as_millis() as u64)
            .collect();
        assert_eq!(pauses, [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000]);
        assert_eq!(backoff.since, 9, "one warning, the others counted");
        backoff.reset();
        assert_eq!(backoff.next(&emfile, start), FIRST_BACKOFF);
        assert_eq!(
            backoff.since, 10,
            "a new burst within the period is not warned of"
        );
        backoff.next(&emfile, start + REFUSAL_REPORT);
        assert_eq!(backoff.since, 0, "warned of, with the count");
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
