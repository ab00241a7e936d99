//! `trinchera-server`: the Trinchera game server, and its operators' commands (export,
//! import, accounts, health, migrate).

mod accounts;
mod backup;
mod client;
mod config;
mod health;
mod store;

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use tracing_subscriber::EnvFilter;
use trinchera_service::{Games, MetricsOptions, Stopped};
use trinchera_store::Store;
use trinchera_store_postgres::{Migrated, PostgresStore};
use trinchera_store_sled::refresh_snapshot;
use trinchera_store_sled::runtime::{self, Workers};

use crate::config::{Config, FlagValues, Loaded, LogFormat};
use crate::store::Location;

/// What `trinchera-server --version` says besides the name: the build, the API it serves and
/// the storage layout it writes.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (API trinchera.v1, storage layout 4)"
);

/// mimalloc: the server allocates and frees many small buffers per call (views, HTTP/2
/// frames); measured faster than the system allocator (docs/benchmarks/throughput.md).
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
    #[arg(long, env = "TRINCHERA_CONFIG", value_name = "PATH", global = true)]
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
    #[command(subcommand)]
    command: Option<Command>,
}

/// What to do instead of serving.
#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Write every game to stdout (or --output) as JSON lines (docs/export-format.md): from
    /// the configured store, or with --from from a running server's admin service.
    Export(backup::ExportArgs),
    /// Read an export (stdin or --input) into the configured store: an empty one, or with
    /// --merge one whose games (by id) are kept. Every line is checked before anything is
    /// written.
    Import(backup::ImportArgs),
    /// List player accounts, disable or enable one, reset a password: on the configured
    /// store, or with --from through a running server's admin service.
    Accounts {
        /// What to do.
        #[command(subcommand)]
        command: accounts::AccountsCommand,
    },
    /// Ask a running server whether it serves (the gRPC health check): exit 0 if it does,
    /// 1 if not. For container and service health checks.
    Health(health::HealthArgs),
    /// Bring the schema of the storage.url database up to this build's version, then exit.
    Migrate(StoreArgs),
}

/// Which store a command works on, over the configuration's.
#[derive(Debug, clap::Args)]
struct StoreArgs {
    /// The embedded database's directory [default: storage.data_dir].
    #[arg(long, value_name = "PATH")]
    data_dir: Option<PathBuf>,
    /// A PostgreSQL database instead (postgres://…) [default: storage.url].
    #[arg(long, value_name = "URL")]
    store: Option<String>,
}

impl StoreArgs {
    /// `flags` with these given too.
    fn over(&self, mut flags: FlagValues) -> FlagValues {
        if let Some(dir) = &self.data_dir {
            flags = flags.with("data-dir", dir.display().to_string());
        }
        if let Some(url) = &self.store {
            flags = flags.with("store", url.clone());
        }
        flags
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let flags = match &cli.command {
        Some(Command::Export(args)) => args.store.over(cli.settings.clone()),
        Some(Command::Import(args)) => args.store.over(cli.settings.clone()),
        Some(Command::Accounts { command }) => command.place().store.over(cli.settings.clone()),
        Some(Command::Migrate(args)) => args.over(cli.settings.clone()),
        _ => cli.settings.clone(),
    };
    let environment = |name: &str| std::env::var(name).ok();
    let loaded = match Loaded::load(cli.config.as_deref(), &environment, &flags) {
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
        // The files it names are part of it: a certificate that does not load fails here,
        // not at the next start.
        if let Err(error) = loaded.config.serve_options() {
            eprintln!("trinchera-server: the configuration is not valid:\n{error}");
            return ExitCode::from(2);
        }
        eprintln!("trinchera-server: the configuration is valid");
        return ExitCode::SUCCESS;
    }
    let config = loaded.config;
    init_logs(&config, cli.command.is_some());
    let (runtime, workers) = match runtime::server() {
        Ok(built) => built,
        Err(error) => {
            eprintln!("trinchera-server: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let serving = cli.command.is_none();
    let done = runtime.block_on(async {
        match cli.command {
            None => serve(config, workers).await.map(|()| ExitCode::SUCCESS),
            Some(Command::Export(args)) => backup::export(&config, args).await,
            Some(Command::Import(args)) => backup::import(&config, args).await,
            Some(Command::Accounts { command }) => accounts::run(&config, command).await,
            Some(Command::Health(args)) => health::check(&config, args).await,
            Some(Command::Migrate(_)) => {
                let migrated = migrate(&config).await?;
                eprintln!(
                    "trinchera-server: the database's schema is at version {} (it was at {})",
                    migrated.to, migrated.from
                );
                Ok(ExitCode::SUCCESS)
            }
        }
    });
    match done {
        Ok(code) => code,
        Err(error) => {
            // A server's failure goes where its logs go (text or JSON); a command's is
            // its last words on stderr.
            if serving {
                tracing::error!("{error:#}");
            } else {
                eprintln!("trinchera-server: {error:#}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Logs to stderr, as text (coloured on a terminal) or JSON lines. Commands other than
/// serving log warnings and errors only unless the filter asks for more: their output is
/// their progress and summary.
fn init_logs(config: &Config, command: bool) {
    let filter = match (command, config.log.filter.as_str()) {
        (true, "info") => "warn",
        (_, filter) => filter,
    };
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info"));
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

/// Opens the store at `location`, migrating a PostgreSQL schema first when `config` asks
/// to.
async fn open_store(config: &Config, location: &Location) -> anyhow::Result<Arc<dyn Store>> {
    if config.storage.migrate_on_start {
        let migrated = migrate(config).await?;
        tracing::info!(
            from = migrated.from,
            to = migrated.to,
            "the database's schema is up to date"
        );
    }
    location
        .open()
        .await
        .with_context(|| format!("opening {}", location.describe()))
}

/// Serves `config` until a shutdown signal, on the runtime of `workers`.
async fn serve(config: Config, workers: Arc<Workers>) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut location = config.store_location();
    if let Location::Sled { options, .. } = &mut location {
        // The committer ends its gathering once every worker of this runtime is idle.
        options.gather = workers;
    }
    let store = open_store(&config, &location).await?;
    let opened = started.elapsed();
    let games = Games::new(store, config.limits())
        .await
        .context("reading the stored games")?;
    let listener = tokio::net::TcpListener::bind(config.server.listen)
        .await
        .with_context(|| format!("listening on {}", config.server.listen))?;
    let mut options = config.serve_options().context("setting up the server")?;
    if let Some(site) = &options.site {
        let (files, bytes, gzipped) = site.size();
        tracing::info!(
            files,
            bytes,
            gzipped,
            root = %config.web.root,
            "serving the browser client"
        );
    }
    if let Some(listen) = config.metrics_listen() {
        let exporter = trinchera_service::metrics::install(trinchera_store_sled::LAYOUT)
            .context("recording metrics")?;
        options.metrics = Some(MetricsOptions { listen, exporter });
    }
    tracing::info!(
        address = %listener.local_addr()?,
        store = %location.describe(),
        sync_data = config.storage.sync_data,
        tls = options.tls.is_some(),
        open_ms = opened.as_millis(),
        startup_ms = started.elapsed().as_millis(),
        version = VERSION,
        "trinchera-server ready"
    );
    let stopped = trinchera_service::run(listener, games, options, shutdown_signal()).await?;
    let Location::Sled { dir, .. } = location else {
        return Ok(());
    };
    if stopped == Stopped::DrainTimedOut {
        // Calls still hold the store: its snapshot is refreshed at the next start instead.
        return Ok(());
    }
    match refresh_snapshot(&dir, Duration::from_secs(10)) {
        Ok(took) => tracing::info!(
            took_ms = took.as_millis(),
            "wrote a database snapshot so that the next start is quick"
        ),
        Err(error) => tracing::warn!(%error, "could not write a database snapshot"),
    }
    Ok(())
}

/// Brings the schema of the storage.url database up to this build's version.
async fn migrate(config: &Config) -> anyhow::Result<Migrated> {
    let Location::Postgres { url } = config.store_location() else {
        anyhow::bail!("migrate is for a PostgreSQL database: set storage.url (--store URL)");
    };
    PostgresStore::migrate(&url)
        .await
        .context("migrating the storage.url database")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_names_the_storage_layout_this_build_writes() {
        assert!(
            VERSION.contains(&format!("storage layout {}", trinchera_store_sled::LAYOUT)),
            "{VERSION}"
        );
        assert!(VERSION.contains("API trinchera.v1"), "{VERSION}");
    }
}
