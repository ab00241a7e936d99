//! TLS for the server (rustls, no OpenSSL): the certificate chain and key read from PEM
//! files, optionally client certificates checked against a CA, re-read on demand (SIGHUP)
//! without dropping open connections: a reload only changes what new handshakes use, and
//! a bad new file is reported and the old identity kept.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use rustls::RootCertStore;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use tokio_rustls::TlsAcceptor;

/// The files of a server's TLS identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// PEM certificate chain, the server's first.
    pub cert: PathBuf,
    /// PEM private key of the first certificate.
    pub key: PathBuf,
    /// PEM CA certificates that sign the clients' certificates; `None`: clients present none.
    pub client_ca: Option<PathBuf>,
}

/// Why a TLS identity could not be made.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read or holds no usable PEM.
    #[error("{}: {problem}", .path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// rustls refused the certificate, the key or the CA.
    #[error("{0}")]
    Rustls(String),
}

/// The server's current TLS identity.
#[derive(Debug)]
pub struct Tls {
    files: TlsFiles,
    config: RwLock<Arc<rustls::ServerConfig>>,
}

impl Tls {
    /// The identity in `files`.
    pub fn load(files: TlsFiles) -> Result<Tls, TlsError> {
        let config = RwLock::new(Arc::new(server_config(&files)?));
        Ok(Tls { files, config })
    }

    /// Reads the files again; on success new handshakes use them, on failure nothing
    /// changes.
    pub fn reload(&self) -> Result<(), TlsError> {
        let config = Arc::new(server_config(&self.files)?);
        *self.config.write().unwrap_or_else(|e| e.into_inner()) = config;
        Ok(())
    }

    /// An acceptor with the current identity.
    pub fn acceptor(&self) -> TlsAcceptor {
        let config = self.config.read().unwrap_or_else(|e| e.into_inner());
        TlsAcceptor::from(Arc::clone(&config))
    }

    /// Whether clients must present a certificate.
    pub fn verifies_clients(&self) -> bool {
        self.files.client_ca.is_some()
    }
}

/// The rustls configuration of `files`, speaking HTTP/2 only (ALPN `h2`).
fn server_config(files: &TlsFiles) -> Result<rustls::ServerConfig, TlsError> {
    let chain = certificates(&files.cert)?;
    let key = PrivateKeyDer::from_pem_file(&files.key).map_err(|error| TlsError::File {
        path: files.key.clone(),
        problem: format!("no PEM private key ({error})"),
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Rustls(e.to_string()))?;
    let builder = match &files.client_ca {
        None => builder.with_no_client_auth(),
        Some(path) => {
            let mut roots = RootCertStore::empty();
            for certificate in certificates(path)? {
                roots.add(certificate).map_err(|e| TlsError::File {
                    path: path.clone(),
                    problem: e.to_string(),
                })?;
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|e| TlsError::Rustls(e.to_string()))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut config = builder
        .with_single_cert(chain, key)
        .map_err(|e| TlsError::Rustls(format!("the certificate and key do not fit: {e}")))?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(config)
}

/// Every certificate of the PEM file at `path` (at least one).
fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let fail = |problem: String| TlsError::File {
        path: path.to_owned(),
        problem,
    };
    let certificates = CertificateDer::pem_file_iter(path)
        .map_err(|e| fail(e.to_string()))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| fail(e.to_string()))?;
    if certificates.is_empty() {
        return Err(fail("no PEM certificate in it".into()));
    }
    Ok(certificates)
}

impl From<TlsError> for io::Error {
    fn from(error: TlsError) -> io::Error {
        io::Error::other(error)
    }
}
