//! One accepted connection: its slot under the connection caps, its state shared with the
//! calls it carries ([`Connection`], the tonic connect info), and the IO wrapper ([`Conn`])
//! that closes it when it does not start speaking in time (TLS handshake, HTTP/2 preface,
//! first call), when it stays idle, or when its place is needed for a new connection.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use futures_util::task::AtomicWaker;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};
use tonic::transport::server::Connected;

use super::Net;

/// Length of the HTTP/2 client connection preface (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`).
const PREFACE_LEN: usize = 24;

impl Refusal {
    /// The setting of the limit met.
    pub(crate) fn limit(&self) -> &'static str {
        match self {
            Refusal::Total(_) => "--max-connections",
            Refusal::Peer { .. } => "--max-connections-per-peer",
        }
    }
}

/// Why a new connection was closed at once.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum Refusal {
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

/// At the connection cap, one evicted connection may be closing for every this many
/// connections of the cap (at least one): what the cap may be exceeded by for a moment.
const MAX_CONNECTIONS_PER_EVICTION: usize = 32;

/// A connection's place under the connection caps, given back when dropped.
#[derive(Debug)]
pub(crate) struct Slot {
    net: Arc<Net>,
    peer: IpAddr,
    /// The connection's number among those open.
    id: u64,
}

impl Net {
    /// A slot for a new connection from socket address `peer`, or which cap is full.
    /// Trusted proxies are held to the total cap only. At the total cap, the connection
    /// that has gone longest without a call or stream is closed to make room, if there is
    /// one: a new client is served rather than refused for the sake of an idle one.
    pub(crate) fn admit(self: &Arc<Net>, peer: IpAddr) -> Result<Slot, Refusal> {
        let peer = peer.to_canonical();
        let trusted = self.trusts(peer);
        let mut load = self.load();
        let closing = self
            .config
            .max_connections
            .div_ceil(MAX_CONNECTIONS_PER_EVICTION);
        if load.connections >= self.config.max_connections && !load.evict_idlest(closing) {
            return Err(Refusal::Total(load.connections));
        }
        let held = load.peers.get(&peer).map_or(0, |peer| peer.connections);
        if !trusted && held >= self.config.max_connections_per_peer {
            return Err(Refusal::Peer { peer, held });
        }
        load.connections += 1;
        load.peer(peer).connections += 1;
        load.next_id += 1;
        crate::metrics::connections(1.0);
        Ok(Slot {
            net: Arc::clone(self),
            peer,
            id: load.next_id,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        crate::metrics::connections(-1.0);
        let mut load = self.net.load();
        load.connections -= 1;
        load.open.remove(&self.id);
        load.evicted.remove(&self.id);
        load.peer(self.peer).connections -= 1;
        load.tidy(self.peer);
    }
}

/// What the server knows of one connection; every request it carries has it as an
/// extension (`Arc<Connection>`, tonic's connect info).
#[derive(Debug)]
pub(crate) struct Connection {
    net: Arc<Net>,
    remote: SocketAddr,
    local: Option<SocketAddr>,
    /// When it was accepted.
    opened: Instant,
    /// Calls and streams running on it.
    pub(super) calls: AtomicUsize,
    /// Whether it ever carried a call.
    served: AtomicBool,
    /// Since when no call has been running (meaningful while `calls` is 0).
    idle_since: Mutex<Instant>,
    /// WatchGame streams open on it; changed only under the [`Net`]'s lock.
    pub(super) watches: AtomicUsize,
    /// Whether the server closes it to make room for a new one (see [`Net::admit`]).
    evicted: AtomicBool,
    /// Wakes the connection's reads when it is evicted.
    waker: AtomicWaker,
}

impl Connection {
    /// The socket address of the other end (a proxy's, if there is one).
    pub(crate) fn remote(&self) -> SocketAddr {
        self.remote
    }

    /// The local address the connection came in on.
    pub(crate) fn local(&self) -> Option<SocketAddr> {
        self.local
    }

    /// The transport's shared state.
    pub(crate) fn net(&self) -> &Arc<Net> {
        &self.net
    }

    /// Notes a call starting on this connection.
    pub(super) fn call_started(&self) {
        self.served.store(true, Ordering::SeqCst);
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

    /// Since when it has been idle: `None` while a call runs or once it is evicted.
    pub(super) fn idle(&self) -> Option<Instant> {
        let idle_since = self.idle_since();
        (self.calls.load(Ordering::SeqCst) == 0 && !self.evicted.load(Ordering::SeqCst))
            .then_some(*idle_since)
    }

    /// Closes it to make room for a new connection.
    pub(super) fn evict(&self) {
        self.evicted.store(true, Ordering::SeqCst);
        self.waker.wake();
    }

    /// Why the connection must end at `now`, or the next time to ask again.
    fn due(&self, now: Instant, preface_done: bool) -> Result<Instant, Closing> {
        let config = &self.net.config;
        if self.evicted.load(Ordering::SeqCst) {
            return Err(Closing::Evicted);
        }
        let speaking_by = self.opened + config.preface_timeout;
        let silent = !preface_done || !self.served.load(Ordering::SeqCst);
        if silent && now >= speaking_by {
            return Err(Closing::Silent);
        }
        let idle_since = self.idle_since();
        let next = match self.calls.load(Ordering::SeqCst) {
            0 if *idle_since + config.idle_timeout <= now => return Err(Closing::Idle),
            0 => *idle_since + config.idle_timeout,
            // A call runs: look again one idle timeout from now.
            _ => now + config.idle_timeout,
        };
        Ok(if silent { next.min(speaking_by) } else { next })
    }
}

/// Why [`Conn`] ended its connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closing {
    /// It did not finish its TLS handshake, send the HTTP/2 preface and start its first
    /// call within the preface timeout.
    Silent,
    /// No call ran for the idle timeout.
    Idle,
    /// It was idle when the server needed its place for a new connection.
    Evicted,
}

/// An accepted stream under watch (TCP, or TLS over it, counted after decryption): reads
/// fail once the preface timeout passes without the full HTTP/2 preface, and end (EOF,
/// which makes hyper close the connection) once it has carried no call within the preface
/// timeout, no call for the idle timeout, or when it is evicted. Writes pass through.
pub(crate) struct Conn<S = TcpStream> {
    stream: S,
    connection: Arc<Connection>,
    _slot: Slot,
    /// Preface bytes not received yet.
    preface_left: usize,
    /// The next check.
    deadline: Pin<Box<Sleep>>,
    closing: Option<Closing>,
}

impl<S> Conn<S> {
    /// Watches `stream`, accepted at `opened` from `remote` on `local` into `slot`.
    pub(crate) fn new(
        stream: S,
        local: Option<SocketAddr>,
        remote: SocketAddr,
        slot: Slot,
        opened: Instant,
    ) -> Conn<S> {
        let net = Arc::clone(&slot.net);
        // The first check: the end of the preface timeout, or of the idle timeout if that
        // is shorter (a connection that never calls is idle from the start).
        let first = opened + net.config.preface_timeout.min(net.config.idle_timeout);
        let deadline = Box::pin(tokio::time::sleep_until(first));
        let connection = Arc::new(Connection {
            local,
            net: Arc::clone(&net),
            remote,
            opened,
            calls: AtomicUsize::new(0),
            served: AtomicBool::new(false),
            idle_since: Mutex::new(opened),
            watches: AtomicUsize::new(0),
            evicted: AtomicBool::new(false),
            waker: AtomicWaker::new(),
        });
        net.load().open.insert(slot.id, Arc::downgrade(&connection));
        Conn {
            stream,
            connection,
            _slot: slot,
            preface_left: PREFACE_LEN,
            deadline,
            closing: None,
        }
    }

    /// Polls the deadline and the eviction; once either says so, the connection is closing
    /// for good.
    fn poll_closing(&mut self, cx: &mut Context<'_>) -> Option<Closing> {
        if self.closing.is_some() {
            return self.closing;
        }
        self.connection.waker.register(cx.waker());
        loop {
            let evicted = self.connection.evicted.load(Ordering::SeqCst);
            if !evicted && self.deadline.as_mut().poll(cx).is_pending() {
                return None;
            }
            match self.connection.due(Instant::now(), self.preface_left == 0) {
                Ok(next) => self.deadline.as_mut().reset(next),
                Err(closing) => {
                    self.closing = Some(closing);
                    let peer = self.connection.remote;
                    match closing {
                        Closing::Silent => tracing::debug!(
                            %peer,
                            "closing a connection that did not speak in time (--preface-timeout-secs)"
                        ),
                        Closing::Idle => tracing::debug!(
                            %peer,
                            "closing a connection idle with no call (--connection-idle-secs)"
                        ),
                        Closing::Evicted => tracing::debug!(
                            %peer,
                            "closing the longest idle connection to make room (--max-connections)"
                        ),
                    }
                    return self.closing;
                }
            }
        }
    }
}

impl<S> Connected for Conn<S> {
    type ConnectInfo = Arc<Connection>;

    fn connect_info(&self) -> Arc<Connection> {
        Arc::clone(&self.connection)
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Conn<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.poll_closing(cx) {
            Some(Closing::Silent) if this.preface_left > 0 => {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "no HTTP/2 preface in time",
                )));
            }
            Some(_) => return Poll::Ready(Ok(())),
            None => {}
        }
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if this.preface_left > 0 && matches!(polled, Poll::Ready(Ok(()))) {
            let read = buf.filled().len() - before;
            this.preface_left = this.preface_left.saturating_sub(read);
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Conn<S> {
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
    use std::time::Duration;

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

    /// A connection of `net` with no stream behind it, accepted at `at`.
    fn opened(net: &Arc<Net>, at: Instant) -> Conn<()> {
        let remote = SocketAddr::from(([10, 0, 0, 1], 4000));
        let slot = net.admit(remote.ip()).expect("a slot");
        Conn::new((), None, remote, slot, at)
    }

    #[tokio::test]
    async fn of_two_idle_connections_the_one_idle_longer_goes() {
        let net = Net::new(NetConfig {
            max_connections: 2,
            ..NetConfig::default()
        });
        let start = Instant::now();
        let first_conn = opened(&net, start);
        let second_conn = opened(&net, start);
        let [first, second] = [&first_conn, &second_conn].map(Conn::connect_info);
        *second.idle_since() = start + Duration::from_millis(5);
        *first.idle_since() = start + Duration::from_millis(9);
        let _third = net.admit(ip("10.0.0.2")).expect("room made");
        assert!(second.evicted.load(Ordering::SeqCst), "idle since earlier");
        assert!(!first.evicted.load(Ordering::SeqCst));
    }

    #[tokio::test]
    async fn at_the_cap_the_longest_idle_connection_makes_room() {
        let net = Net::new(NetConfig {
            max_connections: 2,
            ..NetConfig::default()
        });
        let start = Instant::now();
        let older_conn = opened(&net, start);
        let newer_conn = opened(&net, start + Duration::from_millis(5));
        let [older, newer] = [&older_conn, &newer_conn].map(Conn::connect_info);
        older.call_started();
        let _third = net.admit(ip("10.0.0.2")).expect("room made");
        assert!(newer.evicted.load(Ordering::SeqCst), "the idle one goes");
        assert!(!older.evicted.load(Ordering::SeqCst), "not one with a call");
        older.call_ended();
        assert_eq!(
            net.admit(ip("10.0.0.2"))
                .expect_err("one eviction at a time at this cap"),
            Refusal::Total(3)
        );
        drop(newer_conn);
        let _fourth = net.admit(ip("10.0.0.2")).expect("room made again");
        assert!(older.evicted.load(Ordering::SeqCst), "idle now");
        drop(older_conn);
        assert_eq!(
            net.admit(ip("10.0.0.2")).expect_err("nobody idle is left"),
            Refusal::Total(2)
        );
    }

    #[tokio::test]
    async fn the_first_check_is_due_at_the_shorter_of_the_preface_and_idle_timeouts() {
        let start = Instant::now();
        for (preface, idle) in [(10, 120), (10, 1)] {
            let net = Net::new(NetConfig {
                preface_timeout: Duration::from_secs(preface),
                idle_timeout: Duration::from_secs(idle),
                ..NetConfig::default()
            });
            let conn = opened(&net, start);
            assert_eq!(
                conn.deadline.deadline(),
                start + Duration::from_secs(preface.min(idle)),
                "preface {preface} s, idle {idle} s"
            );
        }
    }

    #[tokio::test]
    async fn a_connection_must_call_within_the_preface_timeout_then_stay_busy() {
        let preface = Duration::from_secs(10);
        let idle = Duration::from_secs(120);
        let net = Net::new(NetConfig {
            preface_timeout: preface,
            idle_timeout: idle,
            ..NetConfig::default()
        });
        let start = Instant::now();
        let conn = opened(&net, start);
        let connection = conn.connect_info();
        assert_eq!(connection.due(start, false), Ok(start + preface));
        assert_eq!(connection.due(start, true), Ok(start + preface));
        assert_eq!(connection.due(start + preface, true), Err(Closing::Silent));
        connection.call_started();
        let later = start + preface * 2;
        assert_eq!(connection.due(later, true), Ok(later + idle), "a call runs");
        connection.call_ended();
        let ended = *connection.idle_since();
        assert_eq!(connection.due(ended, true), Ok(ended + idle));
        assert_eq!(connection.due(ended + idle, true), Err(Closing::Idle));
        connection.evict();
        assert_eq!(connection.due(ended, true), Err(Closing::Evicted));
    }
}
