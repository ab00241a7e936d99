//! Counting the calls and streams running on each connection, so that an idle connection
//! can be told from one with a long-lived WatchGame stream: a tower layer takes a call
//! guard for every request and keeps it in the response body until the body ends
//! or is dropped (the client went away). A handler may also leave a [`HoldUntilSent`] in
//! its response, which the body keeps as long.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tonic::body::Body;
use tonic::codegen::http;
use tonic::transport::server::TcpConnectInfo;
use tower::{Layer, Service};

use super::Connection;

/// The layer of [`Calls`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CallsLayer;

impl<S> Layer<S> for CallsLayer {
    type Service = Calls<S>;

    fn layer(&self, inner: S) -> Calls<S> {
        Calls { inner }
    }
}

/// Notes each request as a call running on its [`Connection`] until its response body is
/// over; also gives the request tonic's [`TcpConnectInfo`], so that
/// `tonic::Request::remote_addr` works.
#[derive(Clone, Debug)]
pub(crate) struct Calls<S> {
    inner: S,
}

/// The future of a [`Calls`] call.
type CallFuture<E> = Pin<Box<dyn Future<Output = Result<http::Response<Body>, E>> + Send>>;

impl<S, B> Service<http::Request<B>> for Calls<S>
where
    S: Service<http::Request<B>, Response = http::Response<Body>>,
    S::Future: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = S::Error;
    type Future = CallFuture<S::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        let guard = request
            .extensions()
            .get::<Arc<Connection>>()
            .map(|connection| CallGuard::new(Arc::clone(connection)));
        if let Some(guard) = &guard {
            request.extensions_mut().insert(TcpConnectInfo {
                local_addr: guard.0.local(),
                remote_addr: Some(guard.0.remote()),
            });
        }
        let response = self.inner.call(request);
        Box::pin(async move {
            let mut response = response.await?;
            let held = response.extensions_mut().remove::<HoldUntilSent>();
            Ok(match guard {
                Some(guard) => response.map(|body| {
                    Body::new(Guarded {
                        body,
                        _guard: guard,
                        _held: held,
                    })
                }),
                None => response,
            })
        })
    }
}

/// A call running on a connection, for as long as this lives.
#[derive(Debug)]
struct CallGuard(Arc<Connection>);

impl CallGuard {
    fn new(connection: Arc<Connection>) -> CallGuard {
        connection.call_started();
        CallGuard(connection)
    }
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        self.0.call_ended();
    }
}

/// What a handler leaves in its response's extensions to be kept until the response has
/// been sent or the client went away: a reply's place under a cap (a replay), so that a
/// client that never reads its replies holds places, not an unbounded number of replies.
#[derive(Clone)]
pub(crate) struct HoldUntilSent {
    _value: Arc<dyn std::any::Any + Send + Sync>,
}

impl HoldUntilSent {
    /// Keeps `value` until the response carrying this has been sent.
    pub(crate) fn new(value: impl std::any::Any + Send + Sync) -> HoldUntilSent {
        HoldUntilSent {
            _value: Arc::new(value),
        }
    }
}

impl std::fmt::Debug for HoldUntilSent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HoldUntilSent")
    }
}

/// A response body that holds its call's guard, and what the handler asked to hold.
struct Guarded {
    body: Body,
    _guard: CallGuard,
    _held: Option<HoldUntilSent>,
}

impl http_body::Body for Guarded {
    type Data = <Body as http_body::Body>::Data;
    type Error = <Body as http_body::Body>::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;
    use std::sync::atomic::Ordering;

    use tonic::transport::server::Connected;
    use tower::ServiceExt;

    use super::*;
    use crate::net::conn::Conn;
    use crate::net::{Net, NetConfig};

    /// A response body with one frame still to send.
    struct Pending(Option<tonic::codegen::Bytes>);

    impl http_body::Body for Pending {
        type Data = tonic::codegen::Bytes;
        type Error = Infallible;

        fn poll_frame(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
        ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Infallible>>> {
            Poll::Ready(
                self.get_mut()
                    .0
                    .take()
                    .map(|data| Ok(http_body::Frame::data(data))),
            )
        }

        fn is_end_stream(&self) -> bool {
            self.0.is_none()
        }
    }

    #[tokio::test]
    async fn a_call_runs_until_its_body_is_dropped_and_sees_its_remote_address() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("binds");
        let _client = tokio::net::TcpStream::connect(listener.local_addr().expect("address"))
            .await
            .expect("connects");
        let (stream, remote) = listener.accept().await.expect("accepts");
        let net = Net::new(NetConfig::default());
        let local = stream.local_addr().ok();
        let slot = net.admit(remote.ip()).expect("a slot");
        let conn = Conn::new(stream, local, remote, slot, tokio::time::Instant::now());
        let connection = conn.connect_info();

        let inner = tower::service_fn(move |request: http::Request<()>| async move {
            let request = tonic::Request::from_http(request);
            assert_eq!(request.remote_addr(), Some(remote));
            let body = Body::new(Pending(Some("frame".into())));
            Ok::<_, Infallible>(http::Response::new(body))
        });
        let mut request = http::Request::new(());
        request.extensions_mut().insert(Arc::clone(&connection));
        let response = CallsLayer
            .layer(inner)
            .oneshot(request)
            .await
            .expect("answered");
        assert_eq!(
            connection.calls.load(Ordering::SeqCst),
            1,
            "the body is out"
        );
        drop(response);
        assert_eq!(
            connection.calls.load(Ordering::SeqCst),
            0,
            "the call is over"
        );
    }
}
