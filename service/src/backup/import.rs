//! Reading an export into a store. Every line is checked before anything is written: each
//! game's log is replayed through the rules, its id must be in range and new, its names
//! must pass the API's checks, its seat tokens must be new and one a seat, the accounts its
//! seats name must be in the export or the store; each account's name must pass the checks
//! of account names and be free, its password must be an argon2 hash, its tokens new;
//! lines are at most [`MAX_LINE_BYTES`] long, and the end line must be there. The checked
//! lines wait in a temporary file; only then are the accounts and games written, each in
//! one atomic write. So a cut or corrupted export is an error naming its line, and leaves
//! the store as it was.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read as _, Seek as _, Write as _};
use trinchera_store::Downtime;
use trinchera_store::GamePhase;

use trinchera_rules::Quoted;

use super::progress::{self, Progress};
use super::{AccountLine, FORMAT, GameLine, Header, Line};
use crate::accounts::MINE;
use crate::names::{self, NameLimit};
use trinchera_game::bots::BotLevel;
use trinchera_game::{GameState, bot_player_name};
use trinchera_store::records::{
    AccountRecord, AccountTokenRecord, Entry, EventRecord, Joined, SummaryRecord,
};
use trinchera_store::{AccountId, GameId, TokenHash};
use trinchera_store::{Lifetime, ListQuery, Restored, Store, StoreError};

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
    /// Accounts written.
    pub accounts: u64,
    /// Accounts skipped because the store had them ([`Mode::Merge`]).
    pub skipped_accounts: u64,
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
    /// The accounts its seats name.
    accounts: Vec<AccountId>,
}

/// An account that passed the checks: what the store is to write.
struct CheckedAccount {
    id: AccountId,
    account: AccountRecord,
    tokens: Vec<(TokenHash, AccountTokenRecord)>,
}

/// Checks an account line alone: its id in range, its name as the API stores account
/// names, its password an argon2 hash, its tokens its own and not twice.
fn check_account(line: AccountLine, names: &Names) -> Result<CheckedAccount, String> {
    let id = AccountId(line.id);
    if !(1..=GameId::MAX.0).contains(&id.0) {
        return Err(format!(
            "account id {id} is out of range: ids run from 1 to {}",
            GameId::MAX
        ));
    }
    let account = line.account;
    stored_as_given(&account.name, names.player, "account name")
        .map_err(|e| format!("account {id}: {e}"))?;
    if account.name.is_empty() || account.folded != names::folded(&account.name) {
        return Err(format!(
            "account {id}: its folded name {} is not its name {} as names compare",
            Quoted(&account.folded),
            Quoted(&account.name)
        ));
    }
    if account.folded == MINE {
        return Err(format!("account {id}: {MINE:?} is no account name"));
    }
    let argon2 = argon2::password_hash::phc::PasswordHash::new(&account.password)
        .is_ok_and(|hash| hash.algorithm.as_str().starts_with("argon2"));
    if !argon2 {
        return Err(format!(
            "account {id}: its password is not an argon2 hash in PHC form"
        ));
    }
    let mut tokens: Vec<(TokenHash, AccountTokenRecord)> = Vec::new();
    for token in line.tokens {
        if token.token.account != id.0 {
            return Err(format!(
                "account {id} lists a token of account {}",
                token.token.account
            ));
        }
        let hash = TokenHash(token.hash);
        if tokens.iter().any(|(other, _)| *other == hash) {
            return Err(format!("account {id} lists one token twice"));
        }
        tokens.push((hash, token.token));
    }
    Ok(CheckedAccount {
        id,
        account,
        tokens,
    })
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

/// The longest line an import reads, in bytes: a game line holds a whole log (a long game's
/// is a few hundred KiB), and a line is parsed in memory, so a bound keeps a hostile file
/// from taking the machine's memory.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Replays a game's log through the rules and rebuilds its summary (as of its last phase
/// change) and the hashes of its seats' tokens; refuses what the API would not have let
/// in: an id no store holds, names the API refuses, one token on both seats.
fn check(game: GameLine, names: &Names) -> Result<Checked, String> {
    let id = GameId(game.id);
    if !id.storable() {
        return Err(format!(
            "game id {id} is out of range: ids run from 1 to {}",
            GameId::MAX
        ));
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
    let mut tokens = Vec::new();
    let mut accounts = Vec::new();
    for record in &log {
        let joined = match &record.entry {
            Some(Entry::Created(created)) => {
                names
                    .game(&created.name)
                    .map_err(|e| format!("game {id}: {e}"))?;
                created.creator.as_ref()
            }
            Some(Entry::Joined(joined)) => Some(joined),
            _ => None,
        };
        let Some(joined) = joined else { continue };
        names
            .player(joined)
            .map_err(|e| format!("game {id}: {e}"))?;
        if joined.account != 0 {
            accounts.push(AccountId(joined.account));
        }
        if let Ok(hash) = joined.token_hash.as_slice().try_into().map(TokenHash) {
            if tokens.contains(&hash) {
                return Err(format!("game {id} gives both seats one token"));
            }
            tokens.push(hash);
        }
    }
    Ok(Checked {
        id,
        summary: state.summary(since_ms),
        log,
        tokens,
        accounts,
    })
}

/// How long the names of an import may be: the importing server's own limits.
#[derive(Clone, Copy, Debug)]
pub struct Names {
    /// Game names.
    pub game: NameLimit,
    /// Player names.
    pub player: NameLimit,
}

impl Names {
    /// Whether `name` is a game name the API takes, as it would store it.
    fn game(&self, name: &str) -> Result<(), String> {
        stored_as_given(name, self.game, "game name")
    }

    /// Whether a seat's name is one the API gives: a bot's own name, or a person's name the
    /// API takes.
    fn player(&self, joined: &Joined) -> Result<(), String> {
        if joined.bot.is_empty() {
            return stored_as_given(&joined.name, self.player, "player name");
        }
        let level: BotLevel = joined
            .bot
            .parse()
            .map_err(|()| format!("there is no bot level {}", Quoted(&joined.bot)))?;
        if joined.name == bot_player_name(level) {
            Ok(())
        } else {
            Err(format!(
                "a bot of level {level} plays as {}, not {}",
                Quoted(&bot_player_name(level)),
                Quoted(&joined.name)
            ))
        }
    }
}

/// Whether `name` passes the API's checks unchanged (the API stores names checked, so an
/// export holds them so).
fn stored_as_given(name: &str, limit: NameLimit, what: &str) -> Result<(), String> {
    match names::check(name, limit, what) {
        Ok(checked) if checked == name => Ok(()),
        Ok(_) => Err(format!(
            "the {what} {} is not as the server stores names (trimmed, in Unicode NFC)",
            Quoted(name)
        )),
        Err(error) => Err(error.to_string()),
    }
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
    names: Names,
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
    let pass = check_all(store, input, mode, names, progress).await?;
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
    let total = pass.report.accounts + pass.report.imported;
    write_all(store, pass.spooled, total, names, progress).await?;
    progress.clear();
    Ok(pass.report)
}

/// The checking pass: every line read and checked, the games to write spooled.
async fn check_all(
    store: &dyn Store,
    mut input: impl BufRead,
    mode: Mode,
    names: Names,
    progress: &mut Progress,
) -> Result<Pass, ImportError> {
    let mut spooled = tempfile::tempfile().map_err(ImportError::Spool)?;
    let mut spool = std::io::BufWriter::new(&mut spooled);
    let mut header: Option<Header> = None;
    let mut ended = false;
    let mut ids = HashSet::new();
    let mut tokens: HashMap<TokenHash, GameId> = HashMap::new();
    let mut accounts = HashSet::new();
    let mut account_tokens = HashSet::new();
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
        accounts: 0,
        skipped_accounts: 0,
        finished: 0,
        timed_unfinished: 0,
        bytes: 0,
    };
    let mut number = 0;
    let mut text = String::new();
    loop {
        text.clear();
        let read = match (&mut input)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_line(&mut text)
        {
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
        if read > MAX_LINE_BYTES {
            return Err(at(
                number,
                format!(
                    "longer than an import reads ({}): not a line of an export",
                    progress::size(MAX_LINE_BYTES as u64)
                ),
            ));
        }
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
            (Some(_), Line::Account(account)) => {
                if !ids.is_empty() {
                    return Err(at(
                        number,
                        "an account line after a game line: accounts come first".into(),
                    ));
                }
                let checked =
                    check_account(account, &names).map_err(|problem| at(number, problem))?;
                let id = checked.id;
                if !accounts.insert(id) {
                    return Err(at(
                        number,
                        format!("account {id} is also on an earlier line"),
                    ));
                }
                if mode == Mode::Merge && store.account(id).await?.is_some() {
                    report.skipped_accounts += 1;
                    continue;
                }
                if let Some((holder, _)) = store.account_named(&checked.account.folded).await?
                    && holder != id
                {
                    return Err(at(
                        number,
                        format!(
                            "account {id}'s name {} is account {holder}'s in this store",
                            Quoted(&checked.account.name)
                        ),
                    ));
                }
                for (hash, _) in &checked.tokens {
                    if !account_tokens.insert(*hash) || store.account_token(hash).await?.is_some() {
                        return Err(at(
                            number,
                            format!("account {id} holds a token of another account"),
                        ));
                    }
                }
                report.accounts += 1;
                writeln!(spool, "{line}").map_err(ImportError::Spool)?;
            }
            (Some(_), Line::Game(game)) => {
                let id = GameId(game.id);
                if !ids.insert(id) {
                    return Err(at(number, format!("game {id} is also on an earlier line")));
                }
                let checked = check(game, &names).map_err(|problem| at(number, problem))?;
                for account in &checked.accounts {
                    if !accounts.contains(account) && store.account(*account).await?.is_none() {
                        return Err(at(
                            number,
                            format!(
                                "game {id} names account {account}, which neither the export \
                                 nor the store holds"
                            ),
                        ));
                    }
                }
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
                if end.accounts != accounts.len() as u64 {
                    return Err(at(
                        number,
                        format!(
                            "the end line counts {} accounts, but {} came before it: lines are \
                             missing",
                            end.accounts,
                            accounts.len()
                        ),
                    ));
                }
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

/// What the writing pass writes: an account, or a game.
enum Write {
    Account(CheckedAccount),
    Game(Checked),
}

impl Write {
    /// The checked write of a spooled line.
    fn of(line: &str, names: &Names) -> Write {
        match serde_json::from_str(line) {
            Ok(Line::Account(account)) => Write::Account(
                check_account(account, names).expect("spooled accounts passed the checks"),
            ),
            Ok(Line::Game(game)) => {
                Write::Game(check(game, names).expect("spooled games passed the checks"))
            }
            _ => unreachable!("only checked account and game lines are spooled"),
        }
    }

    /// Writes it, in one atomic write.
    async fn to(&self, store: &dyn Store) -> Result<(), StoreError> {
        match self {
            Write::Account(checked) => store
                .restore_account(checked.id, &checked.account, &checked.tokens)
                .await
                .map(drop),
            Write::Game(checked) => store
                .restore(checked.id, checked.restored())
                .await
                .map(drop),
        }
    }
}

/// The writing pass: the spooled accounts, then games, [`WRITES_AT_ONCE`] at a time.
async fn write_all(
    store: &dyn Store,
    spooled: std::fs::File,
    total: u64,
    names: Names,
    progress: &mut Progress,
) -> Result<(), ImportError> {
    let mut written = 0;
    let mut batch = Vec::with_capacity(WRITES_AT_ONCE);
    let mut lines = BufReader::new(spooled).lines();
    loop {
        let line = lines.next().transpose().map_err(ImportError::Spool)?;
        if let Some(line) = &line {
            batch.push(Write::of(line, &names));
        }
        if batch.len() == WRITES_AT_ONCE || (line.is_none() && !batch.is_empty()) {
            futures_util::future::try_join_all(batch.iter().map(|write| write.to(store))).await?;
            written += batch.len() as u64;
            batch.clear();
            progress.tick(|| format!("writing: {written} of {total} accounts and games"));
        }
        if line.is_none() {
            return Ok(());
        }
    }
}

fn at(line: u64, problem: String) -> ImportError {
    ImportError::Line { line, problem }
}
