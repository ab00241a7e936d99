//! Writing an export: the lines of every account and every game of a store, one at a time.

use std::collections::VecDeque;
use std::sync::Arc;

use super::{AccountLine, End, GameLine, Header, Line, TokenLine};
use trinchera_store::records::AccountRecord;
use trinchera_store::{AccountId, GameId};
use trinchera_store::{ListQuery, Store, StoreError};

/// Games (and accounts) listed per store query.
const PAGE: usize = 100;

/// Where an export stands.
enum Stage {
    /// The header is next.
    Header,
    /// Accounts are next: those listed and not yet written, then those after `after`.
    Accounts {
        listed: VecDeque<(AccountId, AccountRecord)>,
        after: Option<AccountId>,
        exhausted: bool,
    },
    /// Games are next: those listed and not yet written, then those below `before`.
    Games {
        listed: VecDeque<GameId>,
        before: Option<GameId>,
        exhausted: bool,
    },
    /// Everything is written.
    Done,
}

/// The lines of an export of a store, accounts by id, then newest game first, read one at a
/// time so that an export of any size takes little memory. Each game's log is read in one
/// piece; a store that keeps serving meanwhile gives every game as of some moment during
/// the export.
pub struct Exporter {
    store: Arc<dyn Store>,
    now_ms: u64,
    running: bool,
    stage: Stage,
    games: u64,
    accounts: u64,
}

impl Exporter {
    /// An export of `store` beginning at `now_ms`; `running`: a server is serving from it
    /// (so it is alive now, whatever it last noted).
    pub fn new(store: Arc<dyn Store>, now_ms: u64, running: bool) -> Exporter {
        Exporter {
            store,
            now_ms,
            running,
            stage: Stage::Header,
            games: 0,
            accounts: 0,
        }
    }

    /// Games written so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Accounts written so far.
    pub fn accounts(&self) -> u64 {
        self.accounts
    }

    /// The next line, `None` after the end line.
    pub async fn next_line(&mut self) -> Result<Option<Line>, StoreError> {
        loop {
            match &mut self.stage {
                Stage::Header => {
                    let lifetime = self.store.lifetime().await?;
                    self.stage = Stage::Accounts {
                        listed: VecDeque::new(),
                        after: None,
                        exhausted: false,
                    };
                    return Ok(Some(Line::Header(Header {
                        format: super::FORMAT,
                        server: env!("CARGO_PKG_VERSION").to_owned(),
                        exported_ms: self.now_ms,
                        alive_ms: if self.running {
                            Some(self.now_ms)
                        } else {
                            lifetime.alive_ms
                        },
                        downtime: lifetime.downtime.0,
                    })));
                }
                Stage::Accounts {
                    listed,
                    after,
                    exhausted,
                } => {
                    if let Some((id, account)) = listed.pop_front() {
                        let tokens = self.store.account_tokens(id).await?;
                        self.accounts += 1;
                        return Ok(Some(Line::Account(AccountLine {
                            id: id.0,
                            account,
                            tokens: tokens
                                .into_iter()
                                .map(|(hash, token)| TokenLine {
                                    hash: hash.0,
                                    token,
                                })
                                .collect(),
                        })));
                    }
                    if *exhausted {
                        self.stage = Stage::Games {
                            listed: VecDeque::new(),
                            before: None,
                            exhausted: false,
                        };
                        continue;
                    }
                    let page = self.store.accounts(*after, PAGE).await?;
                    *exhausted = page.len() < PAGE;
                    *after = page.last().map(|(id, _)| *id);
                    listed.extend(page);
                }
                Stage::Games {
                    listed,
                    before,
                    exhausted,
                } => {
                    if let Some(id) = listed.pop_front() {
                        let events = self.store.log(id).await?;
                        if events.is_empty() {
                            continue;
                        }
                        self.games += 1;
                        return Ok(Some(Line::Game(GameLine { id: id.0, events })));
                    }
                    if *exhausted {
                        self.stage = Stage::Done;
                        return Ok(Some(Line::End(End {
                            games: self.games,
                            accounts: self.accounts,
                        })));
                    }
                    let query = ListQuery {
                        before: *before,
                        limit: PAGE,
                        ..ListQuery::default()
                    };
                    let page = self.store.list(&query).await?;
                    *exhausted = page.len() < PAGE;
                    *before = page.last().map(|(id, _)| *id);
                    listed.extend(page.into_iter().map(|(id, _)| id));
                }
                Stage::Done => return Ok(None),
            }
        }
    }
}
