//! Connections to a running server, for health checks and exports over the admin service.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

/// How to reach a server that speaks TLS.
#[derive(Debug, Default, clap::Args)]
pub struct ClientTls {
    /// PEM CA certificates that sign the server's certificate, for https URLs [default: the
    /// system's roots].
    #[arg(long, value_name = "PATH")]
    pub tls_ca: Option<PathBuf>,
    /// PEM client certificate, for a server that asks for one (tls.client_ca).
    #[arg(long, value_name = "PATH", requires = "client_key")]
    pub client_cert: Option<PathBuf>,
    /// PEM private key of --client-cert.
    #[arg(long, value_name = "PATH", requires = "client_cert")]
    pub client_key: Option<PathBuf>,
}

/// Reads the file at `path`.
fn read(path: &PathBuf) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

/// A connection to the server at `url` (http:// or https://), given up after `timeout`.
pub async fn connect(url: &str, tls: &ClientTls, timeout: Duration) -> anyhow::Result<Channel> {
    let mut endpoint = Endpoint::from_shared(url.to_owned())
        .with_context(|| format!("{url:?} is not a server URL (http://host:port)"))?
        .connect_timeout(timeout);
    if url.starts_with("https://") {
        let mut config = ClientTlsConfig::new().with_native_roots();
        if let Some(ca) = &tls.tls_ca {
            config = config.ca_certificate(Certificate::from_pem(read(ca)?));
        }
        if let (Some(cert), Some(key)) = (&tls.client_cert, &tls.client_key) {
            config = config.identity(Identity::from_pem(read(cert)?, read(key)?));
        }
        endpoint = endpoint
            .tls_config(config)
            .context("setting up TLS for the connection")?;
    }
    endpoint
        .connect()
        .await
        .with_context(|| format!("cannot reach {url}"))
}
