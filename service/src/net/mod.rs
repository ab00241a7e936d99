//! The transport's own defences: our accept loop with connection caps and back-off on
//! accept errors ([`incoming()`]), the per-connection IO wrapper that closes connections
//! that never speak HTTP/2 or stay idle ([`conn`]), the count of open calls per
//! connection ([`calls`]), caps on WatchGame streams ([`watches`]), and the peer address
//! of a request, honouring trusted proxies ([`peer_address`]).

pub(crate) mod calls;
pub(crate) mod conn;
pub(crate) mod incoming;
pub(crate) mod tls;
pub(crate) mod watches;

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

pub(crate) use self::calls::{CallsLayer, HoldUntilSent};
pub(crate) use self::conn::Connection;
pub(crate) use self::incoming::incoming;
pub use self::tls::{Tls, TlsError, TlsFiles};
pub(crate) use self::watches::WatchPermit;

/// Connection and stream limits of the transport, and the proxies whose forwarded
/// addresses are believed. Every limit is refused at once (never queued) and every refusal
/// names its setting.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// Open connections in total; at it, the connection idle the longest (no call or
    /// stream running) is closed to make room for a new one, or the new one is closed at
    /// once when every connection is busy. The default is three quarters of the soft
    /// `RLIMIT_NOFILE` (see [`default_max_connections`]).
    pub max_connections: usize,
    /// Open connections from one socket address; over it, a new connection is closed at
    /// once. Trusted proxies are exempt (they carry many clients).
    pub max_connections_per_peer: usize,
    /// Concurrent WatchGame streams on one connection.
    pub max_watches_per_connection: usize,
    /// Concurrent WatchGame streams of one peer ([`peer_address`]), over all its connections.
    pub max_watches_per_peer: usize,
    /// How long a new connection may take to start speaking: its TLS handshake, the 24-byte
    /// HTTP/2 client preface and its first call.
    pub preface_timeout: Duration,
    /// How long a connection may stay open with no call or stream running.
    pub idle_timeout: Duration,
    /// Proxies whose `x-forwarded-for` names the peer (see [`peer_address`]).
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            max_connections: default_max_connections(),
            max_connections_per_peer: 256,
            max_watches_per_connection: 256,
            max_watches_per_peer: 1024,
            preface_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(120),
            trusted_proxies: Vec::new(),
        }
    }
}

/// Streams a connection may open besides its WatchGame streams, so that a client at its
/// watch cap can still call; HTTP/2 `max_concurrent_streams` is the watch cap plus this,
/// so a client over the watch cap meets the server's explicit `RESOURCE_EXHAUSTED`, not
/// HTTP/2 flow control (which clients queue silently).
pub(crate) const UNARY_HEADROOM: usize = 64;

/// Connections a side listener (the admin service, metrics) holds at most, and from one
/// address: a scraper or an operator needs a few; the descriptors stay the game port's.
const SIDE_CONNECTIONS: usize = 32;
/// Connections a side listener holds at most from one address.
const SIDE_CONNECTIONS_PER_PEER: usize = 8;
/// How long a side listener's connection may stay without a call.
const SIDE_IDLE: Duration = Duration::from_secs(30);

impl NetConfig {
    /// The limits of a side listener (the admin service, metrics): [`SIDE_CONNECTIONS`] in
    /// all and [`SIDE_CONNECTIONS_PER_PEER`] from one address, closed after
    /// [`SIDE_IDLE`] without a call, and this preface timeout.
    pub fn side(&self) -> NetConfig {
        NetConfig {
            max_connections: SIDE_CONNECTIONS,
            max_connections_per_peer: SIDE_CONNECTIONS_PER_PEER,
            idle_timeout: SIDE_IDLE.min(self.idle_timeout),
            trusted_proxies: Vec::new(),
            ..self.clone()
        }
    }

    /// The HTTP/2 `SETTINGS_MAX_CONCURRENT_STREAMS` for these limits: the watch cap plus
    /// [`UNARY_HEADROOM`].
    pub fn max_concurrent_streams(&self) -> u32 {
        let streams = self
            .max_watches_per_connection
            .saturating_add(UNARY_HEADROOM);
        u32::try_from(streams).unwrap_or(u32::MAX)
    }
}

/// The soft limit on open file descriptors of this process, `None` if unlimited or unknown.
pub(crate) fn fd_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        rustix::process::getrlimit(rustix::process::Resource::Nofile).current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Connections allowed when the file descriptor limit is unknown or unlimited.
const UNLIMITED_FDS_CONNECTIONS: usize = 65_536;

/// Three quarters of the soft file descriptor limit ([`fd_limit`]), leaving a quarter for
/// the store, the listener and logs, so that a connection flood cannot make `accept` or
/// the store fail; 65,536 if there is no limit.
pub(crate) fn default_max_connections() -> usize {
    connections_for(fd_limit())
}

fn connections_for(fds: Option<u64>) -> usize {
    match fds {
        Some(fds) => usize::try_from(fds / 4 * 3).unwrap_or(usize::MAX).max(1),
        None => UNLIMITED_FDS_CONNECTIONS,
    }
}

/// The peer of `request`: its socket address, or when that is a trusted proxy, the last
/// address in its `x-forwarded-for` metadata that is not itself a trusted proxy (the client
/// the proxies saw). `None` for a request that did not come through [`run`](crate::run)'s
/// listener. Rate limits and per-peer caps key on this.
pub(crate) fn peer_address<T>(request: &tonic::Request<T>) -> Option<IpAddr> {
    let connection = request.extensions().get::<Arc<Connection>>()?;
    let forwarded = request
        .metadata()
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok());
    Some(connection.net().peer(connection.remote().ip(), forwarded))
}

/// What the server holds per peer address.
#[derive(Debug, Default)]
struct PeerLoad {
    /// Open connections from this socket address.
    connections: usize,
    /// Open WatchGame streams of this peer.
    watches: usize,
}

impl PeerLoad {
    fn is_empty(&self) -> bool {
        self.connections == 0 && self.watches == 0
    }
}

/// Open connections and streams, per peer and in total.
#[derive(Debug, Default)]
struct Load {
    connections: usize,
    peers: HashMap<IpAddr, PeerLoad>,
    /// The open connections, by slot number.
    open: HashMap<u64, Weak<Connection>>,
    /// The slots of connections evicted but not closed yet.
    evicted: HashSet<u64>,
    /// The last slot number given.
    next_id: u64,
}

impl Load {
    /// Closes the open connection idle the longest (no call or stream running), unless
    /// `most` evicted connections are still closing; whether it did. Each eviction lets
    /// one connection in over the cap until the evicted one is closed (a moment later), so
    /// that bound keeps the descriptors in use within the cap's margin.
    fn evict_idlest(&mut self, most: usize) -> bool {
        if self.evicted.len() >= most {
            return false;
        }
        let idlest = self
            .open
            .iter()
            .filter_map(|(id, connection)| Some((*id, connection.upgrade()?)))
            .filter_map(|(id, connection)| Some((connection.idle()?, id, connection)))
            .min_by_key(|(since, ..)| *since);
        let Some((_, id, connection)) = idlest else {
            return false;
        };
        connection.evict();
        self.evicted.insert(id);
        true
    }

    /// The entry of `peer`, dropped again by [`Load::tidy`] once empty.
    fn peer(&mut self, peer: IpAddr) -> &mut PeerLoad {
        self.peers.entry(peer).or_default()
    }

    /// Forgets `peer` if it holds nothing.
    fn tidy(&mut self, peer: IpAddr) {
        if self.peers.get(&peer).is_some_and(PeerLoad::is_empty) {
            self.peers.remove(&peer);
        }
    }
}

/// The transport's shared state: the limits and what is open.
#[derive(Debug)]
pub(crate) struct Net {
    config: NetConfig,
    load: Mutex<Load>,
}

impl Net {
    /// Shared state for `config`, with nothing open.
    pub(crate) fn new(config: NetConfig) -> Arc<Net> {
        Arc::new(Net {
            config,
            load: Mutex::default(),
        })
    }

    /// The limits.
    pub(crate) fn config(&self) -> &NetConfig {
        &self.config
    }

    fn load(&self) -> MutexGuard<'_, Load> {
        self.load
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn trusts(&self, address: IpAddr) -> bool {
        self.config
            .trusted_proxies
            .contains(&address.to_canonical())
    }

    /// The peer behind socket address `socket` given the `x-forwarded-for` values
    /// `forwarded` (in order): see [`peer_address`].
    fn peer<'a>(&self, socket: IpAddr, forwarded: impl Iterator<Item = &'a str>) -> IpAddr {
        let socket = socket.to_canonical();
        if !self.trusts(socket) {
            return socket;
        }
        let hops: Vec<&str> = forwarded.flat_map(|value| value.split(',')).collect();
        for hop in hops.into_iter().rev() {
            match parse_hop(hop) {
                Some(hop) if self.trusts(hop) => continue,
                Some(hop) => return hop,
                // What a trusted proxy appended is unreadable: nothing left of it is sure.
                None => return socket,
            }
        }
        socket
    }
}

/// One `x-forwarded-for` entry: an address, perhaps with a port.
fn parse_hop(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    let address = entry
        .parse::<IpAddr>()
        .or_else(|_| {
            entry
                .parse::<std::net::SocketAddr>()
                .map(|socket| socket.ip())
        })
        .ok()?;
    Some(address.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    fn behind(proxies: &[&str]) -> Arc<Net> {
        Net::new(NetConfig {
            trusted_proxies: proxies.iter().map(|proxy| ip(proxy)).collect(),
            ..NetConfig::default()
        })
    }

    #[test]
    fn an_untrusted_socket_is_the_peer_whatever_it_forwards() {
        let net = behind(&["10.0.0.1"]);
        assert_eq!(
            net.peer(ip("192.0.2.7"), ["203.0.113.9"].into_iter()),
            ip("192.0.2.7")
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_last_untrusted_hop() {
        let net = behind(&["10.0.0.1", "10.0.0.2"]);
        let forwarded = ["198.51.100.1, 203.0.113.9", "10.0.0.2:8080"];
        assert_eq!(
            net.peer(ip("10.0.0.1"), forwarded.into_iter()),
            ip("203.0.113.9")
        );
        assert_eq!(
            net.peer(ip("::ffff:10.0.0.1"), ["[2001:db8::5]:443"].into_iter()),
            ip("2001:db8::5")
        );
    }

    #[test]
    fn a_trusted_proxy_without_a_usable_header_is_the_peer() {
        let net = behind(&["10.0.0.1"]);
        assert_eq!(net.peer(ip("10.0.0.1"), std::iter::empty()), ip("10.0.0.1"));
        assert_eq!(
            net.peer(ip("10.0.0.1"), ["not an address"].into_iter()),
            ip("10.0.0.1")
        );
        assert_eq!(
            net.peer(ip("10.0.0.1"), ["203.0.113.9, garbage"].into_iter()),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn the_connection_cap_leaves_a_quarter_of_the_descriptors() {
        assert_eq!(connections_for(Some(1024)), 768);
        assert_eq!(connections_for(Some(1)), 1);
        assert_eq!(connections_for(None), UNLIMITED_FDS_CONNECTIONS);
    }

    #[test]
    fn streams_leave_room_for_calls_beside_the_watch_cap() {
        let config = NetConfig {
            max_watches_per_connection: 10,
            ..NetConfig::default()
        };
        assert_eq!(config.max_concurrent_streams(), 10 + UNARY_HEADROOM as u32);
    }
}
