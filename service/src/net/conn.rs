//! One accepted connection: its slot under the connection caps, its state shared with the
//! calls it carries ([`Connection`], the tonic connect info), and the IO wrapper ([`Conn`])
//! that closes it when the HTTP/2 preface does not come in time or when it stays idle.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};
use tonic::transport::server::Connected;

use super::Net;

/// Length of the HTTP/2 client connection preface (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`).
const PREFACE_LEN: usize = 24;

impl Refusal {
    /// The setting of the limit met.
    pub fn limit(&self) -> &'static str {
        match self {
            Refusal::Total(_) => "--max-connections",
            Refusal::Peer { .. } => "--max-connections-per-peer",
        }
    }
}

/// Why a new connection was closed at once.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Refusal {
    /// The server holds its most connections.
    #[error("the server holds {0} connections, its limit (--max-connections)")]
    Total(usize),
    /// The peer holds its most connections.
    #[error("{peer} holds {held} connections, the limit per peer (--max-connections-per-peer)")]
    Peer {
        /// The socket address of the peer.
        peer: IpAddr,
        /// Its open connections.
        held: usize,
    },
}

/// A connection's place under the connection caps, given back when dropped.
#[derive(Debug)]
pub struct Slot {
    net: Arc<Net>,
    peer: IpAddr,
}

impl Net {
    /// A slot for a new connection from socket address `peer`, or which cap is full.
    /// Trusted proxies are held to the total cap only.
    pub fn admit(self: &Arc<Net>, peer: IpAddr) -> Result<Slot, Refusal> {
        let peer = peer.to_canonical();
        let trusted = self.trusts(peer);
        let mut load = self.load();
        if load.connections >= self.config.max_connections {
            return Err(Refusal::Total(load.connections));
        }
        let held = load.peers.get(&peer).map_or(0, |peer| peer.connections);
        if !trusted && held >= self.config.max_connections_per_peer {
            return Err(Refusal::Peer { peer, held });
        }
        load.connections += 1;
        load.peer(peer).connections += 1;
        crate::metrics::connections(1.0);
        Ok(Slot {
            net: Arc::clone(self),
            peer,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        crate::metrics::connections(-1.0);
        let mut load = self.net.load();
        load.connections -= 1;
        load.peer(self.peer).connections -= 1;
        load.tidy(self.peer);
    }
}

/// What the server knows of one connection; every request it carries has it as an
/// extension (`Arc<Connection>`, tonic's connect info).
#[derive(Debug)]
pub struct Connection {
    net: Arc<Net>,
    remote: SocketAddr,
    local: Option<SocketAddr>,
    /// Calls and streams running on it.
    pub(super) calls: AtomicUsize,
    /// Since when no call has been running (meaningful while `calls` is 0).
    idle_since: Mutex<Instant>,
    /// WatchGame streams open on it; changed only under the [`Net`]'s lock.
    pub(super) watches: AtomicUsize,
}

impl Connection {
    /// The socket address of the other end (a proxy's, if there is one).
    pub fn remote(&self) -> SocketAddr {
        self.remote
    }

    /// The local address the connection came in on.
    pub fn local(&self) -> Option<SocketAddr> {
        self.local
    }

    /// The transport's shared state.
    pub fn net(&self) -> &Arc<Net> {
        &self.net
    }

    /// Notes a call starting on this connection.
    pub(super) fn call_started(&self) {
        self.calls.fetch_add(1, Ordering::SeqCst);
    }

    /// Notes a call ending on this connection.
    pub(super) fn call_ended(&self) {
        let mut idle_since = self.idle_since();
        if self.calls.fetch_sub(1, Ordering::SeqCst) == 1 {
            *idle_since = Instant::now();
        }
    }

    fn idle_since(&self) -> std::sync::MutexGuard<'_, Instant> {
        self.idle_since
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// When the connection counts as idle for too long, `None` while a call runs.
    fn idle_deadline(&self) -> Option<Instant> {
        let idle_since = self.idle_since();
        (self.calls.load(Ordering::SeqCst) == 0).then(|| *idle_since + self.net.config.idle_timeout)
    }
}

/// Why [`Conn`] ended its connection.
#[derive(Clone, Copy, Debug)]
enum Closing {
    /// The HTTP/2 preface did not come in time.
    Preface,
    /// No call ran for the idle timeout.
    Idle,
}

/// An accepted TCP stream under watch: reads fail once the preface timeout passes without
/// the full HTTP/2 preface, and end (EOF, which makes hyper close the connection) once no
/// call has run for the idle timeout. Writes pass through.
pub struct Conn {
    stream: TcpStream,
    connection: Arc<Connection>,
    _slot: Slot,
    /// Preface bytes not received yet.
    preface_left: usize,
    /// The next check: the preface deadline, then idle deadlines.
    deadline: Pin<Box<Sleep>>,
    closing: Option<Closing>,
}

impl Conn {
    /// Watches `stream`, accepted from `remote` into `slot`.
    pub fn new(stream: TcpStream, remote: SocketAddr, slot: Slot) -> Conn {
        let net = Arc::clone(&slot.net);
        let now = Instant::now();
        let deadline = Box::pin(tokio::time::sleep_until(now + net.config.preface_timeout));
        let connection = Arc::new(Connection {
            local: stream.local_addr().ok(),
            net,
            remote,
            calls: AtomicUsize::new(0),
            idle_since: Mutex::new(now),
            watches: AtomicUsize::new(0),
        });
        Conn {
            stream,
            connection,
            _slot: slot,
            preface_left: PREFACE_LEN,
            deadline,
            closing: None,
        }
    }

    /// Whether the connection must end now; otherwise sets the next deadline.
    fn due(&mut self) -> Option<Closing> {
        if self.preface_left > 0 {
            return Some(Closing::Preface);
        }
        let now = Instant::now();
        let next = match self.connection.idle_deadline() {
            Some(deadline) if deadline <= now => return Some(Closing::Idle),
            Some(deadline) => deadline,
            // A call runs: look again one idle timeout from now.
            None => now + self.connection.net.config.idle_timeout,
        };
        self.deadline.as_mut().reset(next);
        None
    }

    /// Polls the deadline; once it says so, the connection is closing for good.
    fn poll_closing(&mut self, cx: &mut Context<'_>) -> Option<Closing> {
        while self.closing.is_none() && self.deadline.as_mut().poll(cx).is_ready() {
            self.closing = self.due();
            if let Some(closing) = self.closing {
                let peer = self.connection.remote;
                match closing {
                    Closing::Preface => tracing::debug!(
                        %peer,
                        "closing a connection that sent no HTTP/2 preface in time (--preface-timeout-secs)"
                    ),
                    Closing::Idle => tracing::debug!(
                        %peer,
                        "closing a connection idle with no call (--connection-idle-secs)"
                    ),
                }
            }
        }
        self.closing
    }
}

impl Connected for Conn {
    type ConnectInfo = Arc<Connection>;

    fn connect_info(&self) -> Arc<Connection> {
        Arc::clone(&self.connection)
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.poll_closing(cx) {
            Some(Closing::Preface) => {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "no HTTP/2 preface in time",
                )));
            }
            Some(Closing::Idle) => return Poll::Ready(Ok(())),
            None => {}
        }
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if this.preface_left > 0 && matches!(polled, Poll::Ready(Ok(()))) {
            let read = buf.filled().len() - before;
            this.preface_left = this.preface_left.saturating_sub(read);
            if this.preface_left == 0 {
                // From now on the deadline is the idle one.
                let idle = this.connection.net.config.idle_timeout;
                this.deadline.as_mut().reset(Instant::now() + idle);
            }
        }
        polled
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::NetConfig;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn connection_caps_refuse_and_slots_give_back() {
        let net = Net::new(NetConfig {
            max_connections: 3,
            max_connections_per_peer: 2,
            trusted_proxies: vec![ip("10.0.0.9")],
            ..NetConfig::default()
        });
        let first = net.admit(ip("10.0.0.1")).expect("first");
        let _second = net.admit(ip("10.0.0.1")).expect("second");
        assert_eq!(
            net.admit(ip("::ffff:10.0.0.1"))
                .expect_err("over the peer cap"),
            Refusal::Peer {
                peer: ip("10.0.0.1"),
                held: 2
            }
        );
        let _other = net.admit(ip("10.0.0.2")).expect("another peer");
        assert_eq!(
            net.admit(ip("10.0.0.3")).expect_err("over the total cap"),
            Refusal::Total(3)
        );
        drop(first);
        let _again = net.admit(ip("10.0.0.1")).expect("a slot came back");
        assert_eq!(net.load().connections, 3);
    }

    #[test]
    fn trusted_proxies_meet_only_the_total_cap() {
        let net = Net::new(NetConfig {
            max_connections: 3,
            max_connections_per_peer: 1,
            trusted_proxies: vec![ip("10.0.0.9")],
            ..NetConfig::default()
        });
        let slots: Vec<Slot> = (0..3)
            .map(|_| net.admit(ip("10.0.0.9")).expect("a proxy connection"))
            .collect();
        assert!(net.admit(ip("10.0.0.9")).is_err());
        drop(slots);
        assert!(net.load().peers.is_empty(), "nothing left behind");
    }
}
