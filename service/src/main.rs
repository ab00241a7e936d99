//! `trinchera-server`: the Trinchera game server.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use tracing_subscriber::EnvFilter;
use trinchera_service::config::{Config, FlagValues, Loaded, LogFormat};
use trinchera_service::store::{SledStore, refresh_snapshot};
use trinchera_service::{Games, ServeOptions, Stopped, VERSION};

/// mimalloc: the server allocates and frees many small buffers per call (views, HTTP/2
/// frames); measured faster than the system allocator, see README "Benchmarks".
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Trinchera's gRPC game server: hosts frente, clasico, castillos, asalto, tacticas and
/// tanques games for any client built from `proto/trinchera/v1`.
///
/// Every setting is a key of the TOML file (--config), an environment variable and a flag;
/// flags win over the environment, which wins over the file, which wins over the defaults.
/// `--print-config` shows the result and where each value came from. Logs go to stderr.
/// Stop with Ctrl-C or SIGTERM: the health check turns NOT_SERVING, new calls are refused,
/// running calls finish (at most --drain-secs), streams end, storage is flushed.
#[derive(Debug, Parser)]
#[command(name = "trinchera-server", version = VERSION, about, long_about)]
struct Cli {
    /// TOML configuration file (deploy/trinchera.toml lists every key at its default).
    #[arg(long, env = "TRINCHERA_CONFIG", value_name = "PATH")]
    config: Option<PathBuf>,
    /// Print the effective configuration as TOML, each value's source in a comment, and
    /// exit.
    #[arg(long)]
    print_config: bool,
    /// Check the configuration and exit: 0 when it is valid, 2 (with every problem) when
    /// not.
    #[arg(long, conflicts_with = "print_config")]
    check_config: bool,
    #[command(flatten)]
    settings: FlagValues,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let environment = |name: &str| std::env::var(name).ok();
    let loaded = match Loaded::load(cli.config.as_deref(), &environment, &cli.settings) {
        Ok(loaded) => loaded,
        Err(error) => {
            eprintln!("trinchera-server: the configuration is not valid:\n{error}");
            return ExitCode::from(2);
        }
    };
    if cli.print_config {
        print!("{}", loaded.to_toml());
        return ExitCode::SUCCESS;
    }
    if cli.check_config {
        eprintln!("trinchera-server: the configuration is valid");
        return ExitCode::SUCCESS;
    }
    init_logs(&loaded.config);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!(%error, "cannot start the runtime");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(loaded.config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!("{error:#}");
            eprintln!("trinchera-server: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Logs to stderr, as text (coloured on a terminal) or JSON lines.
fn init_logs(config: &Config) {
    let filter = EnvFilter::try_new(&config.log.filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match config.log.format {
        LogFormat::Text => logs.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => logs
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .init(),
    }
}

/// Serves `config` until a shutdown signal.
async fn serve(config: Config) -> anyhow::Result<()> {
    let started = Instant::now();
    let data_dir = &config.storage.data_dir;
    let store = SledStore::open(data_dir, config.sled())
        .with_context(|| format!("opening the data directory {}", data_dir.display()))?;
    let opened = started.elapsed();
    let games = Games::new(Arc::new(store), config.limits())
        .await
        .context("reading the stored games")?;
    let listener = tokio::net::TcpListener::bind(config.server.listen)
        .await
        .with_context(|| format!("listening on {}", config.server.listen))?;
    let options = ServeOptions::from_config(&config).context("setting up TLS")?;
    if let Some(listen) = config.metrics_listen() {
        trinchera_service::metrics::install(listen)
            .with_context(|| format!("serving metrics on {listen}"))?;
        tracing::info!(%listen, "Prometheus metrics at /metrics");
    }
    tracing::info!(
        address = %listener.local_addr()?,
        data_dir = %data_dir.display(),
        sync_data = config.storage.sync_data,
        tls = options.tls.is_some(),
        open_ms = opened.as_millis(),
        startup_ms = started.elapsed().as_millis(),
        version = VERSION,
        "trinchera-server ready"
    );
    let stopped = trinchera_service::run(listener, games, options, shutdown_signal()).await?;
    if stopped == Stopped::DrainTimedOut {
        // Calls still hold the store: its snapshot is refreshed at the next start instead.
        return Ok(());
    }
    match refresh_snapshot(data_dir, Duration::from_secs(10)) {
        Ok(took) => tracing::info!(
            took_ms = took.as_millis(),
            "wrote a database snapshot so that the next start is quick"
        ),
        Err(error) => tracing::warn!(%error, "could not write a database snapshot"),
    }
    Ok(())
}

/// Resolves on Ctrl-C (SIGINT) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(error) => {
                    tracing::warn!(%error, "cannot listen for SIGTERM");
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}
