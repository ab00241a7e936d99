//! Trinchera's game service as a library: [`run`] serves `trinchera.v1.GameService` and
//! `trinchera.v1.AccountService`, gRPC health and reflection on a listener until a shutdown
//! signal, over any [`trinchera_store::Store`] backend.
//!
//! The `trinchera-server` binary parses its configuration, opens a backend and calls
//! [`run`]; tests call it on port 0 with a temporary store. The public surface is what a
//! program that runs a server needs: [`run`] with its [`ServeOptions`], [`Games`] with its
//! [`Limits`], the transport's [`NetConfig`] and [`Tls`], [`metrics`], [`backup`],
//! [`web`] and [`LocalServer`]. One game's state, its bots and its wire form are the
//! `trinchera-game` crate's; storage is `trinchera-store`'s.

#![warn(unreachable_pub)]

mod accounts;
pub mod backup;
mod bus;
mod error;
mod games;
mod grpc;
mod hub;
mod ids;
mod local;
pub mod metrics;
mod names;
mod net;
mod now;
mod tasks;
mod throttle;
pub mod web;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tonic::codegen::http;
use trinchera_proto::admin::v1::admin_service_server::AdminServiceServer;
use trinchera_proto::v1::account_service_server::AccountServiceServer;
use trinchera_proto::v1::game_service_server::GameServiceServer;

pub use accounts::{AccountAdmin, AccountLimits};
pub use error::AccountError;
pub use games::{BotPace, Games, Limits};
pub use local::LocalServer;
pub use names::NameLimit;
pub use net::{NetConfig, Tls, TlsError, TlsFiles};
pub use throttle::{RateLimit, RateLimits};

/// Largest request the server decodes (setups are the biggest: about 4 KiB).
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;
/// Longest a call may take to be answered (a client that never finishes sending its
/// request is cut off here); watch streams, once answered, are not limited.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// How often idle connections are pinged, so that dead peers are noticed.
const KEEPALIVE: Duration = Duration::from_secs(30);

/// Why the server stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The transport failed.
    #[error("transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// Reflection could not be built.
    #[error("reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The admin listener was asked for on a network address without its own client
    /// certificates.
    #[error(
        "the admin service on {0} would let anyone on the network export every game: use a \
         loopback address, or set admin.client_ca (with tls.cert and tls.key)"
    )]
    AdminExposed(SocketAddr),
    /// A side listener (admin service, metrics) could not be bound.
    #[error("the {0} cannot listen on {1}: {2}")]
    SideListen(&'static str, SocketAddr, #[source] std::io::Error),
    /// The final flush failed.
    #[error("storage: {0}")]
    Store(#[from] trinchera_store::StoreError),
    /// The bus to the other servers could not be set up.
    #[error(transparent)]
    Bus(#[from] bus::BusError),
}

/// How the server serves, besides its games: the transport's limits, TLS, and how long a
/// stopping server waits for running calls.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Connection and stream limits.
    pub net: NetConfig,
    /// TLS, if the server speaks it (re-read on SIGHUP).
    pub tls: Option<Arc<net::Tls>>,
    /// How long a stopping server lets running calls finish.
    pub drain: Duration,
    /// gRPC-web for browsers, if the server answers it.
    pub web: Option<GrpcWeb>,
    /// The admin service, if the server offers it.
    pub admin: Option<AdminOptions>,
    /// The Prometheus metrics, if the server shows them.
    pub metrics: Option<MetricsOptions>,
    /// The NATS bus to the other servers that share the store, if any (`nats://…`).
    pub bus: Option<String>,
    /// The browser client, served to every request that is no gRPC call, if the server
    /// serves it.
    pub site: Option<Arc<web::Bundle>>,
}

/// Where and how the admin service listens: on a loopback address in plaintext, or behind
/// TLS with client certificates of its own CA (on any address). It never trusts the
/// players' client CA (`tls.client_ca`): a certificate issued to play opens no admin door.
#[derive(Clone, Debug)]
pub struct AdminOptions {
    /// The address.
    pub listen: SocketAddr,
    /// TLS asking for certificates of the admin CA (`admin.client_ca`), if set.
    pub tls: Option<Arc<net::Tls>>,
}

/// Where the Prometheus metrics are served (plaintext HTTP, any path).
#[derive(Clone, Debug)]
pub struct MetricsOptions {
    /// The address.
    pub listen: SocketAddr,
    /// The installed recorder ([`metrics::install`]).
    pub exporter: metrics::Exporter,
}

/// gRPC-web on the server's port: browsers reach every RPC, streams included.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrpcWeb {
    /// Origins (`https://play.example.org`) whose pages may call the server from another
    /// origin; empty: only pages of the server's own origin.
    pub cors_origins: Vec<String>,
}

impl GrpcWeb {
    /// The CORS layer of these origins, if any is allowed.
    fn cors(&self) -> Option<tower_http::cors::CorsLayer> {
        use http::header::{AUTHORIZATION, CONTENT_TYPE, HeaderName};
        use tower_http::cors::{AllowOrigin, CorsLayer};
        let origins: Vec<http::HeaderValue> = self
            .cors_origins
            .iter()
            .filter_map(|origin| http::HeaderValue::from_str(origin).ok())
            .collect();
        if origins.is_empty() {
            return None;
        }
        let header = HeaderName::from_static;
        Some(
            CorsLayer::new()
                .allow_origin(AllowOrigin::list(origins))
                .allow_methods([http::Method::POST, http::Method::OPTIONS])
                .allow_headers([
                    CONTENT_TYPE,
                    AUTHORIZATION,
                    header("x-grpc-web"),
                    header("x-user-agent"),
                    header("grpc-timeout"),
                    header("x-request-id"),
                ])
                .expose_headers([
                    header("grpc-status"),
                    header("grpc-message"),
                    header("grpc-status-details-bin"),
                    header("x-request-id"),
                ])
                .max_age(Duration::from_secs(24 * 60 * 60)),
        )
    }
}

impl ServeOptions {
    /// Plaintext under the limits `net`, draining for 10 seconds.
    pub fn plain(net: NetConfig) -> ServeOptions {
        ServeOptions {
            net,
            tls: None,
            drain: Duration::from_secs(10),
            web: None,
            admin: None,
            metrics: None,
            bus: None,
            site: None,
        }
    }
}

/// How a server stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Every call finished within the drain time.
    Drained,
    /// Calls (or streams a client kept open) were still running when the drain time was up;
    /// the store was flushed anyway, but is held until the process exits.
    DrainTimedOut,
}

/// Whether serving on `address` lets player tokens cross a network in the clear: plaintext
/// (`tls` false) on an address other machines reach.
fn exposes_tokens(address: SocketAddr, tls: bool) -> bool {
    !tls && !address.ip().is_loopback()
}

/// Serves `games` on `listener` with `options` until `shutdown` resolves; then the health
/// check turns `NOT_SERVING`, watch streams end (telling clients to reconnect), new calls
/// are refused and running calls finish, for at most `options.drain`; last the store is
/// flushed.
pub async fn run(
    listener: TcpListener,
    games: Arc<Games>,
    options: ServeOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<Stopped, ServeError> {
    let ServeOptions {
        net,
        tls,
        drain,
        web,
        admin,
        metrics,
        bus,
        site,
    } = options;
    if let Ok(address) = listener.local_addr()
        && exposes_tokens(address, tls.is_some())
    {
        tracing::warn!(
            %address,
            "serving plaintext on a network address: player tokens travel in the clear \
             (set tls.cert and tls.key)"
        );
    }
    let identities: Vec<Arc<net::Tls>> =
        [&tls, &admin.as_ref().and_then(|admin| admin.tls.clone())]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
    let mut background = tasks::Background::new(games.shutdown_signal());
    if !identities.is_empty() {
        background.spawn("reloading TLS on SIGHUP", reload_on_hangup(identities));
    }
    let transport = net::Net::new(net);
    let (health, health_service) = tonic_health::server::health_reporter();
    health.set_serving::<GameServiceServer<grpc::Api>>().await;
    // Both versions of reflection: older grpcurl and Python's client speak only v1alpha.
    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(trinchera_proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            // The admin service's descriptors are in the set, but it is not served here.
            .with_service_name("trinchera.v1.GameService")
            .with_service_name("trinchera.v1.AccountService")
            .with_service_name("grpc.health.v1.Health")
    };
    let reflection_v1alpha = reflection().build_v1alpha()?;
    let reflection = reflection().build_v1()?;
    let accounts = {
        let (store, time) = games.accounts_parts();
        let limits = games.limits();
        Arc::new(accounts::Accounts::new(
            store,
            time,
            limits.accounts,
            &limits.rates,
            limits.max_player_name,
        ))
    };
    let api = GameServiceServer::new(grpc::Api::new(Arc::clone(&games), Arc::clone(&accounts)))
        .max_decoding_message_size(MAX_REQUEST_BYTES);
    let account_api = AccountServiceServer::new(grpc::AccountApi::new(
        Arc::clone(&accounts),
        Arc::clone(&games),
    ))
    .max_decoding_message_size(MAX_REQUEST_BYTES);
    health
        .set_serving::<AccountServiceServer<grpc::AccountApi>>()
        .await;
    background.spawn("the sweep", tasks::sweep(Arc::clone(&games)));
    background.spawn("the heartbeat", tasks::heartbeat(Arc::clone(&games)));
    background.spawn("the measures", tasks::measure(Arc::clone(&games)));
    background.spawn("the deadlines", Arc::clone(&games).run_deadlines());
    background.spawn("the bot leases", Arc::clone(&games).keep_leases());
    // Servers that share the store hear of each other's events on the bus, and catch up
    // from the store where it may have missed some (or poll it, without a bus).
    let bus = match bus {
        Some(url) => Some(bus::Bus::connect(&url).await?),
        None => None,
    };
    if let Some(bus) = &bus {
        games.attach_bus(Arc::clone(bus));
        background.spawn(
            "following the bus",
            Arc::clone(&games).follow_bus(Arc::clone(bus)),
        );
    }
    if games.shared() {
        background.spawn("catching up", Arc::clone(&games).catch_up_with(bus));
    }
    background.spawn_once("resuming bots and clocks", {
        let games = Arc::clone(&games);
        async move {
            games.resume_bots().await;
            games.resume_clocks().await;
        }
    });
    let (stop_sides, sides_stop) = tokio::sync::watch::channel(false);
    if let Some(admin) = admin {
        // Loopback: plaintext (only this machine reaches it); elsewhere: certificates of
        // the admin CA.
        if admin.tls.is_none() && !admin.listen.ip().is_loopback() {
            return Err(ServeError::AdminExposed(admin.listen));
        }
        let listener = bind_side("admin service", admin.listen).await?;
        let incoming = net::incoming(
            listener,
            net::Net::new(transport.config().side()),
            admin.tls,
        );
        let served = tonic::transport::Server::builder()
            .layer(net::CallsLayer)
            .add_service(health_service.clone())
            .add_service(AdminServiceServer::new(grpc::admin::Admin::new(
                Arc::clone(&games),
                Arc::clone(&accounts),
            )))
            .serve_with_incoming_shutdown(incoming, stopped(sides_stop.clone()));
        background.spawn_once("the admin service", async move {
            if let Err(error) = served.await {
                tracing::error!(%error, "the admin service stopped");
            }
        });
    }
    if let Some(metrics) = metrics {
        let listener = bind_side("Prometheus metrics", metrics.listen).await?;
        let incoming = net::incoming(listener, net::Net::new(transport.config().side()), None);
        let served = tonic::transport::Server::builder()
            .accept_http1(true)
            .layer(net::CallsLayer)
            .add_routes(metrics.exporter.routes())
            .serve_with_incoming_shutdown(incoming, stopped(sides_stop.clone()));
        background.spawn_once("the metrics listener", async move {
            if let Err(error) = served.await {
                tracing::error!(%error, "the metrics listener stopped");
            }
        });
        background.spawn("the metrics upkeep", metrics.exporter.keep_up());
    }
    let stopping = Arc::clone(&games);
    let (draining, drained) = tokio::sync::oneshot::channel::<()>();
    let cors = web.as_ref().and_then(GrpcWeb::cors);
    let grpc_web = web.as_ref().map(|_| tonic_web::GrpcWebLayer::new());
    let served = tonic::transport::Server::builder()
        .timeout(REQUEST_TIMEOUT)
        .http2_keepalive_interval(Some(KEEPALIVE))
        .max_concurrent_streams(transport.config().max_concurrent_streams())
        // Browsers speak gRPC-web over HTTP/1.1 as well, and fetch the web client's page.
        .accept_http1(web.is_some() || site.is_some())
        .layer(tower::util::option_layer(site.map(web::SiteLayer)))
        .layer(tower::util::option_layer(cors))
        .layer(tower::util::option_layer(grpc_web))
        .layer(net::CallsLayer)
        .layer(tower::util::MapResponseLayer::new(contract_status))
        .add_service(health_service)
        .add_service(reflection)
        .add_service(reflection_v1alpha)
        .add_service(api)
        .add_service(account_api)
        .serve_with_incoming_shutdown(net::incoming(listener, transport, tls), async move {
            shutdown.await;
            tracing::info!("shutting down: ending streams, finishing calls");
            health
                .set_not_serving::<GameServiceServer<grpc::Api>>()
                .await;
            health
                .set_not_serving::<AccountServiceServer<grpc::AccountApi>>()
                .await;
            health
                .set_service_status("", tonic_health::ServingStatus::NotServing)
                .await;
            stopping.shut_down();
            let _ = stop_sides.send(true);
            let _ = draining.send(());
        });
    tokio::pin!(served);
    let (served, stopped) = tokio::select! {
        served = &mut served => (served, Stopped::Drained),
        () = async {
            if drained.await.is_ok() {
                tokio::time::sleep(drain).await;
            } else {
                std::future::pending::<()>().await;
            }
        } => {
            tracing::warn!(
                drain_secs = drain.as_secs(),
                "calls still running after the drain time: stopping anyway"
            );
            (Ok(()), Stopped::DrainTimedOut)
        }
    };
    // In order: the public port has stopped; now the side listeners and the loops, then
    // the store, once nothing else uses it.
    background.stop().await;
    games.close().await?;
    tracing::info!("storage flushed; bye");
    served?;
    Ok(stopped)
}

/// Binds the side listener `what` (the admin service, metrics) to `address`, and says so.
async fn bind_side(what: &'static str, address: SocketAddr) -> Result<TcpListener, ServeError> {
    let listener = TcpListener::bind(address)
        .await
        .map_err(|error| ServeError::SideListen(what, address, error))?;
    let address = listener.local_addr().unwrap_or(address);
    tracing::info!(%address, "{what} listening");
    Ok(listener)
}

/// Resolves once `stop` turns true (or its sender is gone).
async fn stopped(mut stop: tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|stop| *stop).await;
}

/// Re-reads the TLS files of every identity on every SIGHUP; a bad new file is reported
/// and the old identity kept.
async fn reload_on_hangup(identities: Vec<Arc<net::Tls>>) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut hangups = match signal(SignalKind::hangup()) {
            Ok(hangups) => hangups,
            Err(error) => return tracing::warn!(%error, "cannot listen for SIGHUP"),
        };
        while hangups.recv().await.is_some() {
            for tls in &identities {
                match tls.reload() {
                    Ok(()) => tracing::info!("SIGHUP: reloaded the TLS certificate and key"),
                    Err(error) => {
                        tracing::error!(%error, "SIGHUP: kept the old TLS certificate")
                    }
                }
            }
        }
    }
    #[cfg(not(unix))]
    drop(identities);
}

/// tonic answers two kinds of bad requests before any handler runs, with codes the
/// contract words differently: a request above [`MAX_REQUEST_BYTES`] (tonic: `OUT_OF_RANGE`;
/// contract: `RESOURCE_EXHAUSTED`, naming the limit) and bytes that are not the call's
/// protobuf message (tonic: `INTERNAL`; contract: `INVALID_ARGUMENT`, a malformed request).
fn contract_status(
    response: http::Response<tonic::body::Body>,
) -> http::Response<tonic::body::Body> {
    let Some(status) = response.extensions().get::<tonic::Status>() else {
        return response;
    };
    let error = match status.code() {
        tonic::Code::OutOfRange if status.message().contains("message length too large") => {
            error::ApiError::exhausted(
                "request-size",
                format!("the request is too large: the limit is {MAX_REQUEST_BYTES} bytes"),
            )
        }
        tonic::Code::Internal if status.message().starts_with("failed to decode Protobuf") => {
            error::ApiError::invalid(
                trinchera_game::Reason::BadRequest,
                format!(
                    "the request is not a valid message for this call ({})",
                    status.message()
                ),
            )
        }
        _ => return response,
    };
    tonic::Status::from(error).into_http()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plaintext_is_warned_about_on_network_addresses_only() {
        let at = |ip: [u8; 4]| SocketAddr::from((ip, 50051));
        assert!(exposes_tokens(at([0, 0, 0, 0]), false));
        assert!(exposes_tokens(at([192, 168, 1, 5]), false));
        assert!(!exposes_tokens(at([127, 0, 0, 1]), false));
        assert!(!exposes_tokens(at([0, 0, 0, 0]), true));
        assert!(!exposes_tokens(
            "[::1]:50051".parse().expect("address"),
            false
        ));
    }
}
