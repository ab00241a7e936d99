//! Caps on concurrent WatchGame streams, per connection and per peer: a stream holds a
//! [`WatchPermit`] for its whole life, and a stream past a cap is refused at once with
//! `RESOURCE_EXHAUSTED`, never queued.

use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};

use tokio_stream::Stream;

use super::{Connection, peer_address};
use crate::error::ApiError;

/// A WatchGame stream's place under the watch caps, given back when dropped: when the
/// stream ends or the client goes away (hyper then drops the response body holding it).
#[derive(Debug)]
pub(crate) struct WatchPermit {
    /// The connection and peer counted; `None` for a request that did not come through
    /// [`run`](crate::run)'s listener, which nothing counts.
    held: Option<(Arc<Connection>, IpAddr)>,
}

impl WatchPermit {
    /// A permit for one more WatchGame stream of `request`'s connection and peer, or
    /// `RESOURCE_EXHAUSTED` naming the cap and its setting.
    pub(crate) fn admit<T>(request: &tonic::Request<T>) -> Result<WatchPermit, ApiError> {
        let (Some(connection), Some(peer)) = (
            request.extensions().get::<Arc<Connection>>(),
            peer_address(request),
        ) else {
            return Ok(WatchPermit { held: None });
        };
        let net = connection.net();
        let config = net.config();
        let mut load = net.load();
        let on_connection = connection.watches.load(Ordering::SeqCst);
        if on_connection >= config.max_watches_per_connection {
            return Err(ApiError::exhausted(
                "--max-watches-per-connection",
                format!(
                    "too many WatchGame streams on this connection: the limit is {} \
                     (--max-watches-per-connection); open another connection or close a stream",
                    config.max_watches_per_connection
                ),
            ));
        }
        let of_peer = load.peer(peer);
        if of_peer.watches >= config.max_watches_per_peer {
            load.tidy(peer);
            return Err(ApiError::exhausted(
                "--max-watches-per-peer",
                format!(
                    "too many WatchGame streams from this address: the limit is {} \
                     (--max-watches-per-peer); close a stream",
                    config.max_watches_per_peer
                ),
            ));
        }
        of_peer.watches += 1;
        connection.watches.fetch_add(1, Ordering::SeqCst);
        crate::metrics::watch_streams(1.0);
        Ok(WatchPermit {
            held: Some((Arc::clone(connection), peer)),
        })
    }

    /// `stream`, holding this permit until it is dropped.
    pub(crate) fn hold<S>(self, stream: S) -> Held<S> {
        Held {
            stream,
            _permit: self,
        }
    }
}

impl Drop for WatchPermit {
    fn drop(&mut self) {
        let Some((connection, peer)) = self.held.take() else {
            return;
        };
        crate::metrics::watch_streams(-1.0);
        let mut load = connection.net().load();
        connection.watches.fetch_sub(1, Ordering::SeqCst);
        load.peer(peer).watches -= 1;
        load.tidy(peer);
    }
}

/// A stream that holds a [`WatchPermit`] for as long as it lives.
#[derive(Debug)]
pub(crate) struct Held<S> {
    stream: S,
    _permit: WatchPermit,
}

impl<S: Stream + Unpin> Stream for Held<S> {
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        Pin::new(&mut self.get_mut().stream).poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.stream.size_hint()
    }
}
