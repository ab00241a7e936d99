//! Reaching the database: the URL, TLS, the pool, and single connections for migrations.
//!
//! TLS follows the URL's `sslmode` as libpq's does, with one difference: `prefer` (the
//! default) and `require` both verify the server's certificate, against the system's roots
//! (or the file `SSL_CERT_FILE` names). `sslmode=disable` never starts TLS. rustls with the
//! `ring` provider: no OpenSSL.

use std::sync::Arc;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::store::StoreError;

/// Connections a store keeps open at most.
const POOL_SIZE: usize = 16;

/// Whether `url` names a PostgreSQL database (`postgres://…` or `postgresql://…`).
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// The connection settings of `url`, with the TLS connector they call for.
fn settings(url: &str) -> Result<(tokio_postgres::Config, MakeRustlsConnect), StoreError> {
    let config: tokio_postgres::Config = url.parse().map_err(StoreError::backend)?;
    let tls = tls(config.get_ssl_mode())?;
    Ok((config, tls))
}

/// A TLS connector that trusts the system's roots; none are read for `sslmode=disable`.
fn tls(mode: SslMode) -> Result<MakeRustlsConnect, StoreError> {
    let mut roots = rustls::RootCertStore::empty();
    if mode != SslMode::Disable {
        let native = rustls_native_certs::load_native_certs();
        for error in &native.errors {
            tracing::warn!(%error, "could not read some of the system's root certificates");
        }
        roots.add_parsable_certificates(native.certs);
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(StoreError::backend)?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// A pool of up to [`POOL_SIZE`] connections, opened as they are needed.
pub(super) fn pool(url: &str) -> Result<Pool, StoreError> {
    let (config, tls) = settings(url)?;
    let manager = Manager::from_config(
        config,
        tls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(POOL_SIZE)
        .build()
        .map_err(StoreError::backend)
}

/// One connection outside any pool, driven by its own task until the client is dropped.
pub(super) async fn single(url: &str) -> Result<tokio_postgres::Client, StoreError> {
    let (config, tls) = settings(url)?;
    let (client, connection) = config.connect(tls).await.map_err(StoreError::backend)?;
    tokio::spawn(async move {
        if let Err(error) = connection.await {
            tracing::warn!(%error, "database connection failed");
        }
    });
    Ok(client)
}
