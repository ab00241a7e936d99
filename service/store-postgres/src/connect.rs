//! Reaching the database: the URL, TLS, the pool, and single connections for migrations.
//!
//! TLS follows the URL's `sslmode` as libpq's does, with one difference: `prefer` (the
//! default) and `require` both verify the server's certificate, against the certificates
//! in the file the URL's `sslrootcert` names, or else the system's roots (or the file
//! `SSL_CERT_FILE` names). `sslmode=disable` never starts TLS. rustls with the `ring`
//! provider: no OpenSSL.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

use trinchera_store::{BackendError, StoreError};

/// Connections a store keeps open at most.
const POOL_SIZE: usize = 16;

/// Whether `url` names a PostgreSQL database (`postgres://…` or `postgresql://…`).
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// The certificates of an `sslrootcert` file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("sslrootcert {}: {source}", .path.display())]
struct RootCertError {
    path: PathBuf,
    source: BackendError,
}

/// The connection settings of `url`, with the TLS connector they call for.
fn settings(url: &str) -> Result<(tokio_postgres::Config, MakeRustlsConnect), StoreError> {
    let (url, root_file) = without_root_file(url);
    let config: tokio_postgres::Config = url.parse().map_err(StoreError::backend)?;
    let roots = match (config.get_ssl_mode(), root_file) {
        (SslMode::Disable, _) => rustls::RootCertStore::empty(),
        (_, Some(path)) => {
            roots_in(&path).map_err(|source| StoreError::backend(RootCertError { path, source }))?
        }
        (_, None) => system_roots(),
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(StoreError::backend)?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok((config, MakeRustlsConnect::new(tls)))
}

/// `url` without its `sslrootcert` parameter (libpq's, which tokio-postgres does not know),
/// and that parameter's path.
fn without_root_file(url: &str) -> (String, Option<PathBuf>) {
    let Some((address, query)) = url.split_once('?') else {
        return (url.to_owned(), None);
    };
    let mut root_file = None;
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| match pair.strip_prefix("sslrootcert=") {
            Some(path) => {
                let path = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
                root_file = Some(PathBuf::from(path.as_ref()));
                false
            }
            None => true,
        })
        .collect();
    let url = match kept.as_slice() {
        [] => address.to_owned(),
        _ => format!("{address}?{}", kept.join("&")),
    };
    (url, root_file)
}

/// The certificates in the PEM file `path`.
fn roots_in(path: &Path) -> Result<rustls::RootCertStore, BackendError> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject as _;
    let mut roots = rustls::RootCertStore::empty();
    for certificate in CertificateDer::pem_file_iter(path)? {
        roots.add(certificate?)?;
    }
    if roots.is_empty() {
        return Err("no certificate in it".into());
    }
    Ok(roots)
}

/// The system's root certificates.
fn system_roots() -> rustls::RootCertStore {
    let native = rustls_native_certs::load_native_certs();
    for error in &native.errors {
        tracing::warn!(%error, "could not read some of the system's root certificates");
    }
    let mut roots = rustls::RootCertStore::empty();
    roots.add_parsable_certificates(native.certs);
    roots
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
