//! `trinchera-server export` and `import`: backups and moves between machines, in the
//! format of docs/export-format.md.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::config::Config;
use anyhow::Context;
use tokio_stream::StreamExt as _;
use trinchera_proto::admin::v1::ExportGamesRequest;
use trinchera_proto::admin::v1::admin_service_client::AdminServiceClient;
use trinchera_service::backup::{self, End, Exporter, ImportError, Line, Mode, Progress};
use trinchera_store::{Store, StoreError};

use crate::store::Location;

use crate::StoreArgs;
use crate::client::{ClientTls, connect};

/// Largest response of the admin service the export reads (one holds 256 KiB of lines
/// plus one game).
const MAX_RESPONSE_BYTES: usize = 64 * 1024 * 1024;

/// What to export, and where to.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Write to this file instead of stdout (written beside it, renamed once complete).
    #[arg(long, short, value_name = "PATH")]
    output: Option<PathBuf>,
    /// Export from a running server's admin service (admin.listen), e.g.
    /// http://127.0.0.1:50052, instead of from a store no server is using.
    #[arg(long, value_name = "URL", conflicts_with_all = ["data_dir", "store"])]
    from: Option<String>,
    #[command(flatten)]
    tls: ClientTls,
}

/// What to import, and how.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Read this file instead of stdin.
    #[arg(long, short, value_name = "PATH")]
    input: Option<PathBuf>,
    /// Import into a store that has games: those it has (by id) are kept and skipped.
    #[arg(long)]
    merge: bool,
}

/// The export's destination: stdout, or a file written under a temporary name and renamed
/// once complete, so that a failed export never leaves a file that looks whole.
struct Output {
    writer: BufWriter<Box<dyn Write>>,
    file: Option<(PathBuf, PathBuf)>,
    bytes: u64,
}

impl Output {
    fn open(path: Option<&Path>) -> anyhow::Result<Output> {
        let (writer, file): (Box<dyn Write>, _) = match path {
            None => (Box::new(std::io::stdout().lock()), None),
            Some(path) => {
                let mut partial = path.as_os_str().to_owned();
                partial.push(".partial");
                let partial = PathBuf::from(partial);
                let file = File::create(&partial)
                    .with_context(|| format!("creating {}", partial.display()))?;
                (Box::new(file), Some((partial, path.to_owned())))
            }
        };
        Ok(Output {
            writer: BufWriter::new(writer),
            file,
            bytes: 0,
        })
    }

    fn line(&mut self, line: &str) -> anyhow::Result<()> {
        self.bytes += line.len() as u64 + 1;
        writeln!(self.writer, "{line}").context("writing the export")
    }

    /// Removes what a failed export wrote to a file.
    fn abandon(&self) {
        if let Some((partial, _)) = &self.file {
            let _ = std::fs::remove_file(partial);
        }
    }

    /// Flushes, and puts a file in its place.
    fn finish(self) -> anyhow::Result<u64> {
        let writer = self
            .writer
            .into_inner()
            .map_err(|error| error.into_error())
            .context("writing the export")?;
        drop(writer);
        if let Some((partial, path)) = &self.file {
            File::open(partial)
                .and_then(|file| file.sync_all())
                .with_context(|| format!("syncing {}", partial.display()))?;
            std::fs::rename(partial, path)
                .with_context(|| format!("renaming {} to {}", partial.display(), path.display()))?;
        }
        Ok(self.bytes)
    }
}

/// `trinchera-server export`.
pub async fn export(config: &Config, args: ExportArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let mut output = Output::open(args.output.as_deref())?;
    let mut progress = Progress::on_terminal();
    let end = match &args.from {
        Some(url) => from_server(url, &args.tls, &mut output, &mut progress).await,
        None => from_store(config, &mut output, &mut progress).await,
    };
    let end = end.inspect_err(|_| output.abandon())?;
    let bytes = output.finish()?;
    progress.clear();
    let into = args
        .output
        .map(|path| format!(" into {}", path.display()))
        .unwrap_or_default();
    eprintln!(
        "trinchera-server: exported {} games and {} accounts ({}){into} in {:.1} s",
        end.games,
        end.accounts,
        backup::size(bytes),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Opens the configured store, explaining a directory that a running server holds.
pub(crate) async fn open(config: &Config) -> anyhow::Result<Arc<dyn Store>> {
    let location = config.store_location();
    location.open().await.map_err(|error| {
        let hint = match error {
            StoreError::Locked(_) => {
                "\na running server holds it: go through its admin service instead (set \
                 admin.listen, then add --from http://ADMIN-ADDRESS to this command), or stop \
                 it first"
            }
            _ => "",
        };
        anyhow::Error::new(error).context(format!("opening {}{hint}", location.describe()))
    })
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64)
}

/// Exports the configured store; what its end line counts.
async fn from_store(
    config: &Config,
    output: &mut Output,
    progress: &mut Progress,
) -> anyhow::Result<End> {
    if let Location::Sled { dir, .. } = config.store_location()
        && !dir.exists()
    {
        anyhow::bail!(
            "there is no data directory at {}: nothing to export (set --data-dir)",
            dir.display()
        );
    }
    let store = open(config).await?;
    let mut exporter = Exporter::new(Arc::clone(&store), now_ms(), false);
    while let Some(line) = exporter.next_line().await.context("reading the store")? {
        output.line(&line.to_json())?;
        progress.tick(|| exporting(exporter.games(), output.bytes));
    }
    store.close().await.context("closing the store")?;
    Ok(End {
        games: exporter.games(),
        accounts: exporter.accounts(),
    })
}

fn exporting(games: u64, bytes: u64) -> String {
    format!("exporting: {games} games, {}", backup::size(bytes))
}

/// Exports through the admin service at `url`; what its end line counts.
async fn from_server(
    url: &str,
    tls: &ClientTls,
    output: &mut Output,
    progress: &mut Progress,
) -> anyhow::Result<End> {
    let channel = connect(url, tls, Duration::from_secs(10)).await?;
    let mut admin = AdminServiceClient::new(channel).max_decoding_message_size(MAX_RESPONSE_BYTES);
    let mut responses = admin
        .export_games(ExportGamesRequest {})
        .await
        .with_context(|| format!("{url} refused the export"))?
        .into_inner();
    let mut lines = 0_u64;
    let mut last = String::new();
    while let Some(response) = responses.next().await {
        let response = response.with_context(|| format!("the export from {url} failed"))?;
        for line in response.lines {
            output.line(&line)?;
            lines += 1;
            last = line;
        }
        progress.tick(|| exporting(lines.saturating_sub(1), output.bytes));
    }
    match serde_json::from_str(&last) {
        Ok(Line::End(end)) => Ok(end),
        _ => anyhow::bail!("the export from {url} ended before its end line: it was cut short"),
    }
}

/// `trinchera-server import`.
pub async fn import(config: &Config, args: ImportArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let input: Box<dyn BufRead> = match &args.input {
        Some(path) => Box::new(BufReader::new(
            File::open(path).with_context(|| format!("opening {}", path.display()))?,
        )),
        None if std::io::stdin().is_terminal() => anyhow::bail!(
            "import reads an export from stdin or --input: trinchera-server import < games.jsonl"
        ),
        None => Box::new(std::io::stdin().lock()),
    };
    let mode = if args.merge { Mode::Merge } else { Mode::Empty };
    let store = open(config).await?;
    let mut progress = Progress::on_terminal();
    let limits = config.limits();
    let names = backup::Names {
        game: limits.max_game_name,
        player: limits.max_player_name,
    };
    let report = backup::import(store.as_ref(), input, mode, names, &mut progress).await;
    store.close().await.context("closing the store")?;
    let report = report.map_err(|error| {
        let what = match error {
            ImportError::Store(_) => {
                "the import stopped (the games written are whole: run it again with --merge \
                 to add the rest)"
            }
            _ => "nothing was imported",
        };
        anyhow::Error::new(error).context(what)
    })?;
    progress.clear();
    let exported = UNIX_EPOCH + Duration::from_millis(report.header.exported_ms);
    eprintln!(
        "trinchera-server: imported {} games ({} finished, {} not) and {} accounts from an \
         export of {} by trinchera-server {}{}; read {} in {:.1} s",
        report.imported,
        report.finished,
        report.imported - report.finished,
        report.accounts,
        httpdate::fmt_http_date(exported),
        report.header.server,
        match (report.skipped, report.skipped_accounts) {
            (0, 0) => String::new(),
            (games, accounts) => {
                format!("; skipped {games} games and {accounts} accounts the store already has")
            }
        },
        backup::size(report.bytes),
        started.elapsed().as_secs_f64()
    );
    if mode == Mode::Merge && report.timed_unfinished > 0 {
        eprintln!(
            "trinchera-server: note: {} unfinished games with a clock were merged: their \
             running turns are charged the time since the export (only an import into an \
             empty store carries the exported server's down times over)",
            report.timed_unfinished
        );
    }
    Ok(ExitCode::SUCCESS)
}
