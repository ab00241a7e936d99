//! Reading an export into a store. Every line is checked before anything is written: each
//! game's log is replayed through the rules, ids and seat tokens must be new, and the end
//! line must be there. The checked lines wait in a temporary file; only then are the
//! games written, each in one atomic write. So a cut or corrupted export is an error naming
//! its line, and leaves the store as it was.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Seek as _, Write as _};

use super::progress::{self, Progress};
use super::{FORMAT, GameLine, Header, Line};
use crate::ids::{GameId, TokenHash};
use crate::records::{Entry, EventRecord, SummaryRecord};
use crate::state::{GamePhase, GameState};
use crate::store::{Lifetime, ListQuery, Restored, Store, StoreError};
use crate::timing::Downtime;

/// Games written at once (the store commits concurrent writes together).
const WRITES_AT_ONCE: usize = 64;

/// Which stores an import goes into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Only an empty store; it also takes over the exported server's down times.
    Empty,
    /// Any store: games it already has (by id) are skipped.
    Merge,
}

/// Why an import stopped. Nothing was written unless the error is [`ImportError::Store`]
/// during the writing, which leaves whole games only.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A line is not what an export holds there.
    #[error("line {line}: {problem}")]
    Line {
        /// The line's number, from 1.
        line: u64,
        /// What is wrong with it.
        problem: String,
    },
    /// The input ended before the end line.
    #[error(
        "the export ends after line {lines} without its end line: it was cut short (nothing \
         was imported)"
    )]
    CutShort {
        /// Lines read.
        lines: u64,
    },
    /// The store has games and the mode is [`Mode::Empty`].
    #[error(
        "the store already holds games (game {example} among them): import into an empty \
         store, or add --merge to import only the games it lacks"
    )]
    NotEmpty {
        /// One of its games.
        example: GameId,
    },
    /// The input could not be read.
    #[error("reading the export: {0}")]
    Read(#[source] std::io::Error),
    /// The temporary file of checked lines failed.
    #[error("the temporary file of checked lines: {0}")]
    Spool(#[source] std::io::Error),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What an import did.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportReport {
    /// The export's header.
    pub header: Header,
    /// Games written.
    pub imported: u64,
    /// Games skipped because the store had them ([`Mode::Merge`]).
    pub skipped: u64,
    /// Of the games written, those finished.
    pub finished: u64,
    /// Of the games written, those unfinished with a clock.
    pub timed_unfinished: u64,
    /// Bytes read.
    pub bytes: u64,
}

/// A game that passed the checks: what the store is to write.
struct Checked {
    id: GameId,
    log: Vec<EventRecord>,
    summary: SummaryRecord,
    tokens: Vec<TokenHash>,
}

impl Checked {
    fn restored(&self) -> Restored<'_> {
        Restored {
            log: &self.log,
            summary: &self.summary,
            tokens: &self.tokens,
        }
    }
}

/// Replays a game's log through the rules and rebuilds its summary (as of its last phase
/// change) and the hashes of its seats' tokens.
fn check(game: GameLine) -> Result<Checked, String> {
    let id = GameId(game.id);
    if game.id == 0 {
        return Err("game id 0: ids start at 1".into());
    }
    let log = game.events;
    if log.is_empty() {
        return Err(format!("game {id} has no events"));
    }
    let mut phase = None;
    let mut since_ms = 0;
    let state = GameState::replay(id, &log, |state, event| {
        if phase != Some(state.phase()) {
            phase = Some(state.phase());
            since_ms = log[event.version as usize - 1].at_ms;
        }
    })
    .map_err(|error| error.to_string())?;
    let tokens = log
        .iter()
        .filter_map(|record| match &record.entry {
            Some(Entry::Created(created)) => created.creator.as_ref(),
            Some(Entry::Joined(joined)) => Some(joined),
            _ => None,
        })
        .filter_map(|joined| joined.token_hash.as_slice().try_into().ok().map(TokenHash))
        .collect();
    Ok(Checked {
        id,
        summary: state.summary(since_ms),
        log,
        tokens,
    })
}

/// What the checking pass found.
struct Pass {
    header: Header,
    spooled: std::fs::File,
    report: ImportReport,
}

/// Reads the export `input` into `store`, showing `progress`.
pub async fn import(
    store: &dyn Store,
    input: impl BufRead,
    mode: Mode,
    progress: &mut Progress,
) -> Result<ImportReport, ImportError> {
    if mode == Mode::Empty {
        let any = ListQuery {
            limit: 1,
            ..ListQuery::default()
        };
        if let Some((example, _)) = store.list(&any).await?.first() {
            return Err(ImportError::NotEmpty { example: *example });
        }
    }
    let pass = check_all(store, input, mode, progress).await?;
    // The down times first: an import cut short while writing is finished with --merge,
    // which keeps the store's.
    if mode == Mode::Empty {
        store
            .restore_lifetime(&Lifetime {
                alive_ms: pass.header.alive_ms,
                downtime: Downtime(pass.header.downtime.clone()),
            })
            .await?;
    }
    write_all(store, pass.spooled, pass.report.imported, progress).await?;
    progress.clear();
    Ok(pass.report)
}

/// The checking pass: every line read and checked, the games to write spooled.
async fn check_all(
    store: &dyn Store,
    mut input: impl BufRead,
    mode: Mode,
    progress: &mut Progress,
) -> Result<Pass, ImportError> {
    let mut spooled = tempfile::tempfile().map_err(ImportError::Spool)?;
    let mut spool = std::io::BufWriter::new(&mut spooled);
    let mut header: Option<Header> = None;
    let mut ended = false;
    let mut ids = HashSet::new();
    let mut tokens: HashMap<TokenHash, GameId> = HashMap::new();
    let mut report = ImportReport {
        header: Header {
            format: FORMAT,
            server: String::new(),
            exported_ms: 0,
            alive_ms: None,
            downtime: Vec::new(),
        },
        imported: 0,
        skipped: 0,
        finished: 0,
        timed_unfinished: 0,
        bytes: 0,
    };
    let mut number = 0;
    let mut text = String::new();
    loop {
        text.clear();
        let read = match input.read_line(&mut text) {
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
                return Err(at(number + 1, "not UTF-8 text".into()));
            }
            Err(error) => return Err(ImportError::Read(error)),
        };
        if read == 0 {
            break;
        }
        number += 1;
        report.bytes += read as u64;
        let line = text.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            continue;
        }
        if ended {
            return Err(at(number, "a line after the end line".into()));
        }
        let parsed: Line = serde_json::from_str(line)
            .map_err(|error| at(number, format!("not a line of an export: {error}")))?;
        match (&header, parsed) {
            (None, Line::Header(first)) => {
                if first.format > FORMAT {
                    return Err(at(
                        number,
                        format!(
                            "export format {} is newer than this server reads ({FORMAT}): \
                             import with a newer trinchera-server",
                            first.format
                        ),
                    ));
                }
                header = Some(first);
            }
            (None, _) => {
                return Err(at(
                    number,
                    "expected the header line first ({\"header\": ...}): is this an export \
                     of trinchera-server?"
                        .into(),
                ));
            }
            (Some(_), Line::Header(_)) => return Err(at(number, "a second header line".into())),
            (Some(_), Line::Game(game)) => {
                let id = GameId(game.id);
                if !ids.insert(id) {
                    return Err(at(number, format!("game {id} is also on an earlier line")));
                }
                let checked = check(game).map_err(|problem| at(number, problem))?;
                if mode == Mode::Merge && store.exists(id).await? {
                    report.skipped += 1;
                    continue;
                }
                for token in &checked.tokens {
                    let earlier = tokens.insert(*token, id).filter(|&other| other != id);
                    let owner = match earlier {
                        Some(other) => Some(other),
                        None => store.token_owner(token).await?,
                    };
                    if let Some(owner) = owner {
                        return Err(at(
                            number,
                            format!(
                                "game {id} holds a seat token of game {owner}: the same game \
                                 under two ids?"
                            ),
                        ));
                    }
                }
                report.imported += 1;
                match GamePhase::from_number(checked.summary.phase) {
                    Some(GamePhase::Finished) => report.finished += 1,
                    _ if checked.summary.time_control.is_some() => report.timed_unfinished += 1,
                    _ => {}
                }
                writeln!(spool, "{line}").map_err(ImportError::Spool)?;
            }
            (Some(_), Line::End(end)) => {
                if end.games != ids.len() as u64 {
                    return Err(at(
                        number,
                        format!(
                            "the end line counts {} games, but {} came before it: lines are \
                             missing",
                            end.games,
                            ids.len()
                        ),
                    ));
                }
                ended = true;
            }
        }
        progress.tick(|| {
            format!(
                "checking: {} games, {} read",
                ids.len(),
                progress::size(report.bytes)
            )
        });
    }
    let header = match header {
        Some(header) if ended => header,
        _ => return Err(ImportError::CutShort { lines: number }),
    };
    spool.flush().map_err(ImportError::Spool)?;
    drop(spool);
    spooled.rewind().map_err(ImportError::Spool)?;
    report.header = header.clone();
    Ok(Pass {
        header,
        spooled,
        report,
    })
}

/// The writing pass: the spooled games, [`WRITES_AT_ONCE`] at a time.
async fn write_all(
    store: &dyn Store,
    spooled: std::fs::File,
    total: u64,
    progress: &mut Progress,
) -> Result<(), ImportError> {
    let mut written = 0;
    let mut batch = Vec::with_capacity(WRITES_AT_ONCE);
    let mut lines = BufReader::new(spooled).lines();
    loop {
        let line = lines.next().transpose().map_err(ImportError::Spool)?;
        if let Some(line) = &line {
            let Ok(Line::Game(game)) = serde_json::from_str(line) else {
                unreachable!("only checked game lines are spooled");
            };
            batch.push(check(game).expect("spooled games passed the checks"));
        }
        if batch.len() == WRITES_AT_ONCE || (line.is_none() && !batch.is_empty()) {
            let writes = batch
                .iter()
                .map(|checked| store.restore(checked.id, checked.restored()));
            futures_util::future::try_join_all(writes).await?;
            written += batch.len() as u64;
            batch.clear();
            progress.tick(|| format!("writing: {written} of {total} games"));
        }
        if line.is_none() {
            return Ok(());
        }
    }
}

fn at(line: u64, problem: String) -> ImportError {
    ImportError::Line { line, problem }
}
