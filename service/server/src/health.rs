//! `trinchera-server health`: the gRPC health check, for container and service managers
//! (so that an image needs no extra probe tool).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

use crate::config::Config;
use anyhow::Context;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::client::{ClientTls, connect};

/// What to ask.
#[derive(Debug, clap::Args)]
pub struct HealthArgs {
    /// The server to ask [default: the admin service when admin.listen is a loopback
    /// address, else server.listen (on loopback when it listens on every address), https
    /// when tls.cert is set].
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// The service to ask about (empty: the whole server).
    #[arg(long, default_value = "", value_name = "NAME")]
    service: String,
    /// Seconds to wait for the answer.
    #[arg(long, default_value_t = 5, value_name = "SECS")]
    timeout_secs: u64,
    #[command(flatten)]
    tls: ClientTls,
}

/// Asks; exit 0 when the server serves, 1 otherwise (with why on stderr).
pub async fn check(config: &Config, args: HealthArgs) -> anyhow::Result<ExitCode> {
    let url = args.url.clone().unwrap_or_else(|| default_url(config));
    let timeout = Duration::from_secs(args.timeout_secs.max(1));
    let channel = connect(&url, &args.tls, timeout).await.map_err(|error| {
        let words = format!("{error:#}");
        if args.url.is_none() && url.starts_with("https://") && words.contains("certificate") {
            anyhow::anyhow!("{words}; {TLS_HINT}")
        } else {
            error
        }
    })?;
    let request = HealthCheckRequest {
        service: args.service.clone(),
    };
    let answer = tokio::time::timeout(timeout, HealthClient::new(channel).check(request))
        .await
        .with_context(|| format!("{url} did not answer within {} s", timeout.as_secs()))?
        .with_context(|| format!("{url} refused the health check"))?;
    let status = answer.into_inner().status();
    println!("{}", status.as_str_name());
    Ok(if status == ServingStatus::Serving {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Why a check of the configured server over TLS may fail on this machine, and the remedy.
const TLS_HINT: &str = "a certificate issued for the server's host name does not match \
    this machine's own address: set admin.listen to a loopback address (say \
    127.0.0.1:50052) and the health check asks the admin service there, in plaintext";

/// Where the configured server answers health checks from this machine.
fn default_url(config: &Config) -> String {
    if let Some(admin) = config.admin_listen()
        && admin.ip().is_loopback()
    {
        return format!("http://{admin}");
    }
    let listen = config.server.listen;
    let ip = match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    let scheme = if config.tls.cert.is_empty() {
        "http"
    } else {
        "https"
    };
    format!("{scheme}://{}", SocketAddr::new(ip, listen.port()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_url_is_reachable_from_this_machine() {
        let mut config = Config::default();
        config.server.listen = "0.0.0.0:7000".parse().expect("an address");
        assert_eq!(default_url(&config), "http://127.0.0.1:7000");
        config.tls.cert = "cert.pem".into();
        assert_eq!(default_url(&config), "https://127.0.0.1:7000");
        config.admin.listen = "127.0.0.1:7001".into();
        assert_eq!(default_url(&config), "http://127.0.0.1:7001");
        config.admin.listen = "10.0.0.5:7001".into();
        config.server.listen = "[::]:7000".parse().expect("an address");
        assert_eq!(default_url(&config), "https://[::1]:7000");
    }
}
