//! What this machine remembers about games: the player token of every seat taken from here
//! (both seats of a game may be held on one machine), and the fairness commitments seen in that game's views while it was played
//! (so that `verify` can hold the final reveal against what was published at the time);
//! and the account signed in on each server ([`Session`]), whose token acts in every game
//! the account plays ([`Hands`]).
//! Both clients use it, so a game started in `trinchera` continues in `trinchera-gui`.
//!
//! One JSON file, `games.json`, in `$TRINCHERA_CONFIG_DIR` or the platform's config
//! directory (`~/.config/trinchera/` on Linux), readable by its owner only (mode 0600);
//! in a browser, the same text under the `localStorage` key `trinchera/games.json`.
//! Writers take an exclusive lock on `games.lock` and replace the file atomically, so two
//! `trinchera` processes (one per seat, say) never lose each other's tokens.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use trinchera_proto::v1 as pb;

use crate::error::ClientError;
use crate::place::Place;

/// The environment variable that overrides the config directory.
pub const CONFIG_DIR_ENV: &str = "TRINCHERA_CONFIG_DIR";

/// What is known here about one game of one server.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The secret token of each seat taken from this machine.
    #[serde(default)]
    pub tokens: BTreeMap<i32, String>,
    /// The ruleset id.
    #[serde(default)]
    pub ruleset: String,
    /// The first setup commitment seen for each seat.
    #[serde(default)]
    pub setup_commitments: BTreeMap<i32, String>,
    /// The first dice commitment seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice_commitment: Option<String>,
    /// Whether a view of the game was seen finished (it stays finished).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub finished: bool,
}

impl GameRecord {
    /// Adds the commitments of `view` not yet known (the first ones seen are kept, so a
    /// commitment that changed during play shows up in `verify`) and whether the game is
    /// over. Returns whether the record changed.
    pub fn remember(&mut self, view: &pb::GameView) -> bool {
        let mut changed = false;
        if !self.finished && view.phase() == pb::Phase::Finished {
            self.finished = true;
            changed = true;
        }
        if self.ruleset.is_empty() && !view.ruleset.is_empty() {
            self.ruleset.clone_from(&view.ruleset);
            changed = true;
        }
        for player in &view.players {
            if !player.setup_commitment.is_empty() {
                self.setup_commitments
                    .entry(player.seat)
                    .or_insert_with(|| {
                        changed = true;
                        player.setup_commitment.clone()
                    });
            }
        }
        if let Some(pb::game_view::Status::Tanks(tanks)) = &view.status
            && !tanks.dice_commitment.is_empty()
            && self.dice_commitment.is_none()
        {
            self.dice_commitment = Some(tanks.dice_commitment.clone());
            changed = true;
        }
        changed
    }
}

/// The account signed in on a server from this machine.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// The account's name, as registered.
    pub name: String,
    /// The session's secret token (`tra1_…`).
    pub token: String,
    /// The token's id (`TokenInfo.id`, not a secret), which tells this session apart in the
    /// account's list of tokens.
    #[serde(default)]
    pub id: String,
}

/// Without the token, which must not end up in a log.
impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("name", &self.name)
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// What may act for this machine in one game: the tokens of the seats taken from here and
/// the account signed in on the game's server.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hands {
    /// The seats' own tokens, by seat.
    pub seats: BTreeMap<i32, String>,
    /// The account signed in, if any.
    pub account: Option<Session>,
}

impl Hands {
    /// The token that acts for `seat` (`None`: for the one seat held here): the seat's own
    /// token, else the account's (the server knows which seat the account holds). `None`
    /// when nothing here acts, or when `seat` is `None` and both seats' tokens are here
    /// (the caller picks one).
    pub fn token(&self, seat: Option<i32>) -> Option<&str> {
        let own = match seat {
            Some(seat) => self.seats.get(&seat),
            None if self.seats.len() == 1 => self.seats.values().next(),
            None if self.seats.len() > 1 => return None,
            None => None,
        };
        own.or(self.account.as_ref().map(|session| &session.token))
            .map(String::as_str)
    }
}

/// The whole file.
#[derive(Debug, Default, Serialize, Deserialize)]
struct StateFile {
    /// Server URL → game id → record.
    #[serde(default)]
    servers: BTreeMap<String, BTreeMap<String, GameRecord>>,
    /// Server URL → the account signed in there (files written before accounts have none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    accounts: BTreeMap<String, Session>,
}

/// The key of a server address in the store: with a scheme, the host in lower case, any
/// loopback name (`localhost`, `[::1]`, `127.0.0.1`) as `127.0.0.1`, no trailing slash —
/// so `localhost:50999` and `http://127.0.0.1:50999/` are one server.
pub fn server_key(url: &str) -> String {
    let url = crate::connection::normalize_url(url.trim());
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", &url));
    let (authority, path) = rest.split_once('/').map_or((rest, ""), |(a, p)| (a, p));
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => {
            (host, Some(port))
        }
        _ => (authority, None),
    };
    let host = host.to_ascii_lowercase();
    let host = match host.as_str() {
        "localhost" | "[::1]" | "127.0.0.1" => "127.0.0.1",
        other => other,
    };
    let mut key = format!("{}://{host}", scheme.to_ascii_lowercase());
    if let Some(port) = port {
        key.push(':');
        key.push_str(port);
    }
    if !path.is_empty() {
        key.push('/');
        key.push_str(path);
    }
    key
}

impl StateFile {
    /// The records under normalised server keys (files written before merge into them).
    fn normalised(self) -> StateFile {
        let mut servers: BTreeMap<String, BTreeMap<String, GameRecord>> = BTreeMap::new();
        for (server, games) in self.servers {
            let known = servers.entry(server_key(&server)).or_default();
            for (id, record) in games {
                match known.get_mut(&id) {
                    Some(existing) => {
                        for (seat, token) in record.tokens {
                            existing.tokens.entry(seat).or_insert(token);
                        }
                        existing.finished |= record.finished;
                    }
                    None => {
                        known.insert(id, record);
                    }
                }
            }
        }
        let mut accounts = BTreeMap::new();
        for (server, session) in self.accounts {
            accounts.entry(server_key(&server)).or_insert(session);
        }
        StateFile { servers, accounts }
    }
}

/// The games this client remembers: `games.json` in its [`Place`].
#[derive(Clone, Debug)]
pub struct Store {
    place: Place,
}

/// The file of the records, and the lock of its writers.
const FILE: &str = "games.json";
const LOCK: &str = "games.lock";

impl Store {
    /// The store in `$TRINCHERA_CONFIG_DIR`, else `<config dir>/trinchera`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open() -> Result<Store, ClientError> {
        let dir = match std::env::var_os(CONFIG_DIR_ENV) {
            Some(dir) if !dir.is_empty() => std::path::PathBuf::from(dir),
            _ => dirs::config_dir()
                .ok_or_else(|| {
                    ClientError::State(format!(
                        "cannot find a config directory; set {CONFIG_DIR_ENV}"
                    ))
                })?
                .join("trinchera"),
        };
        Ok(Store::at(&dir))
    }

    /// The store of this browser (its `localStorage`).
    #[cfg(target_arch = "wasm32")]
    pub fn open() -> Result<Store, ClientError> {
        Ok(Store::browser())
    }

    /// The store of this browser (its `localStorage`; a browser without one shows at the
    /// first write, as a desktop's unwritable directory does).
    #[cfg(target_arch = "wasm32")]
    pub fn browser() -> Store {
        Store {
            place: Place::browser(),
        }
    }

    /// The store in `dir`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn at(dir: &std::path::Path) -> Store {
        Store {
            place: Place::at(dir),
        }
    }

    /// Where the store keeps its files (other client files go beside it).
    pub fn place(&self) -> &Place {
        &self.place
    }

    /// The record of `game` on `server`, if any.
    pub fn game(&self, server: &str, game: &str) -> Result<Option<GameRecord>, ClientError> {
        Ok(self
            .read()?
            .servers
            .get(&server_key(server))
            .and_then(|games| games.get(game))
            .cloned())
    }

    /// The games of `server` known here.
    pub fn games(&self, server: &str) -> Result<BTreeMap<String, GameRecord>, ClientError> {
        Ok(self
            .read()?
            .servers
            .remove(&server_key(server))
            .unwrap_or_default())
    }

    /// Changes the record of `game` on `server` under the lock; writes only if `change`
    /// says it changed something.
    pub fn update(
        &self,
        server: &str,
        game: &str,
        change: impl FnOnce(&mut GameRecord) -> bool,
    ) -> Result<(), ClientError> {
        self.change(|state| {
            change(
                state
                    .servers
                    .entry(server_key(server))
                    .or_default()
                    .entry(game.to_owned())
                    .or_default(),
            )
        })
    }

    /// Changes the file under the lock; writes only if `change` says it changed something.
    fn change(&self, change: impl FnOnce(&mut StateFile) -> bool) -> Result<(), ClientError> {
        let _lock = self
            .place
            .lock(LOCK)
            .map_err(|e| ClientError::file("cannot lock", self.place.shown(LOCK), e))?;
        let mut state = self.read()?;
        if change(&mut state) {
            self.write(&state)?;
        }
        Ok(())
    }

    /// The account signed in on `server` from here, if any.
    pub fn signed_in(&self, server: &str) -> Result<Option<Session>, ClientError> {
        Ok(self.read()?.accounts.remove(&server_key(server)))
    }

    /// Keeps `session` as the account signed in on `server` (in place of any other).
    pub fn sign_in(&self, server: &str, session: Session) -> Result<(), ClientError> {
        self.change(|state| {
            state.accounts.insert(server_key(server), session);
            true
        })
    }

    /// Forgets the account signed in on `server`; the session forgotten, if there was one.
    pub fn sign_out(&self, server: &str) -> Result<Option<Session>, ClientError> {
        let mut forgotten = None;
        self.change(|state| {
            forgotten = state.accounts.remove(&server_key(server));
            forgotten.is_some()
        })?;
        Ok(forgotten)
    }

    /// What may act for this machine in `game` on `server`.
    pub fn hands(&self, server: &str, game: &str) -> Result<Hands, ClientError> {
        let mut state = self.read()?;
        let key = server_key(server);
        let seats = state
            .servers
            .get_mut(&key)
            .and_then(|games| games.remove(game))
            .map(|record| record.tokens)
            .unwrap_or_default();
        Ok(Hands {
            seats,
            account: state.accounts.remove(&key),
        })
    }

    /// Records the commitments visible in `view`.
    pub fn remember_view(&self, server: &str, view: &pb::GameView) -> Result<(), ClientError> {
        let known = self.game(server, &view.game_id)?.unwrap_or_default();
        if known.clone().remember(view) {
            self.update(server, &view.game_id, |record| record.remember(view))?;
        }
        Ok(())
    }

    fn read(&self) -> Result<StateFile, ClientError> {
        let shown = || self.place.shown(FILE);
        match self.place.read(FILE) {
            Ok(Some(text)) => serde_json::from_str::<StateFile>(&text)
                .map(StateFile::normalised)
                .map_err(|e| {
                    ClientError::State(format!(
                        "{} is not a valid trinchera state file: {e}",
                        shown().display()
                    ))
                }),
            Ok(None) => Ok(StateFile::default()),
            Err(e) => Err(ClientError::file("cannot read", shown(), e)),
        }
    }

    fn write(&self, state: &StateFile) -> Result<(), ClientError> {
        let text = serde_json::to_string_pretty(state)
            .map_err(|e| ClientError::State(format!("cannot encode the state file: {e}")))?;
        self.place
            .write(FILE, &text)
            .map_err(|e| ClientError::file("cannot write", self.place.shown(FILE), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view_with_commitment(commitment: &str) -> pb::GameView {
        pb::GameView {
            game_id: "g".into(),
            ruleset: "frente".into(),
            players: vec![pb::Player {
                seat: 1,
                setup_commitment: commitment.into(),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn records_survive_and_keep_the_first_commitment() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::at(dir.path());
        store
            .update("http://s", "g", |record| {
                record.tokens.insert(0, "secret".into());
                true
            })
            .expect("writes");
        store
            .remember_view("http://s", &view_with_commitment("aa"))
            .expect("remembers");
        store
            .remember_view("http://s", &view_with_commitment("bb"))
            .expect("remembers");
        let record = store.game("http://s", "g").expect("reads").expect("known");
        assert_eq!(record.tokens.get(&0).map(String::as_str), Some("secret"));
        assert_eq!(record.ruleset, "frente");
        assert_eq!(
            record.setup_commitments.get(&1).map(String::as_str),
            Some("aa")
        );
        assert!(store.game("http://other", "g").expect("reads").is_none());
    }

    #[test]
    fn one_server_under_every_spelling_of_its_address() {
        for (a, b) in [
            ("localhost:50999", "http://127.0.0.1:50999"),
            ("http://LOCALHOST:50999/", "127.0.0.1:50999"),
            ("http://[::1]:50999", "http://localhost:50999"),
            ("Example.org:1", "http://example.org:1"),
        ] {
            assert_eq!(server_key(a), server_key(b), "{a} and {b}");
        }
        assert_ne!(server_key("localhost:1"), server_key("localhost:2"));
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::at(dir.path());
        // A file written before the keys were normalised: both spellings merge.
        std::fs::write(
            store.place().shown(FILE),
            r#"{"servers": {"http://localhost:7": {"3": {"tokens": {"0": "a"}}},
                            "http://127.0.0.1:7": {"3": {"tokens": {"1": "b"}}}}}"#,
        )
        .expect("writes");
        let record = store
            .game("localhost:7", "3")
            .expect("reads")
            .expect("known");
        assert_eq!(record.tokens.len(), 2, "{record:?}");
        store
            .update("127.0.0.1:7", "4", |record| {
                record.tokens.insert(0, "c".into());
                true
            })
            .expect("writes");
        assert!(
            store
                .game("http://localhost:7/", "4")
                .expect("reads")
                .is_some()
        );
    }

    fn session(name: &str) -> Session {
        Session {
            name: name.into(),
            token: format!("tra1_{name}"),
            id: "00000000000000aa".into(),
        }
    }

    #[test]
    fn a_file_from_before_accounts_loads_and_keeps_its_games_through_a_sign_in() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::at(dir.path());
        // What a client without accounts wrote.
        let old = r#"{"servers": {"http://127.0.0.1:7": {"3": {"tokens": {"0": "tr1_a"},
                        "ruleset": "frente", "setup_commitments": {"0": "cc"}}}}}"#;
        std::fs::write(store.place().shown(FILE), old).expect("writes");
        assert_eq!(store.signed_in("localhost:7").expect("reads"), None);
        let hands = store.hands("localhost:7", "3").expect("reads");
        assert_eq!(hands.token(None), Some("tr1_a"));
        assert_eq!(hands.account, None);
        store
            .sign_in("localhost:7", session("Ana"))
            .expect("writes");
        let record = store
            .game("localhost:7", "3")
            .expect("reads")
            .expect("known");
        assert_eq!(record.tokens.get(&0).map(String::as_str), Some("tr1_a"));
        assert_eq!(record.setup_commitments.len(), 1);
        assert_eq!(
            store.signed_in("http://127.0.0.1:7/").expect("reads"),
            Some(session("Ana"))
        );
        assert_eq!(store.signed_in("localhost:8").expect("reads"), None);
        // Signed out, the file is again one that a client without accounts wrote.
        assert_eq!(
            store.sign_out("localhost:7").expect("writes"),
            Some(session("Ana"))
        );
        assert_eq!(store.sign_out("localhost:7").expect("writes"), None);
        let text = std::fs::read_to_string(store.place().shown(FILE)).expect("reads");
        assert!(!text.contains("accounts"), "{text}");
    }

    #[test]
    fn a_seats_own_token_acts_before_the_accounts() {
        let account = Some(session("Ana"));
        let none = Hands::default();
        assert_eq!(none.token(None), None);
        assert_eq!(none.token(Some(0)), None);
        let signed = Hands {
            seats: BTreeMap::new(),
            account: account.clone(),
        };
        assert_eq!(signed.token(None), Some("tra1_Ana"));
        assert_eq!(signed.token(Some(1)), Some("tra1_Ana"));
        let one = Hands {
            seats: BTreeMap::from([(1, "tr1_b".to_owned())]),
            account: account.clone(),
        };
        assert_eq!(one.token(None), Some("tr1_b"));
        assert_eq!(one.token(Some(1)), Some("tr1_b"));
        assert_eq!(one.token(Some(0)), Some("tra1_Ana"));
        let both = Hands {
            seats: BTreeMap::from([(0, "tr1_a".to_owned()), (1, "tr1_b".to_owned())]),
            account,
        };
        assert_eq!(both.token(None), None, "the caller picks a seat");
        assert_eq!(both.token(Some(0)), Some("tr1_a"));
    }

    #[test]
    fn a_session_never_shows_its_token_in_debug_output() {
        let shown = format!("{:?}", session("Ana"));
        assert!(shown.contains("Ana") && !shown.contains("tra1_"), "{shown}");
    }

    #[cfg(unix)]
    #[test]
    fn the_file_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::at(&dir.path().join("nested"));
        store
            .update("http://s", "g", |record| {
                record.tokens.insert(1, "secret".into());
                true
            })
            .expect("writes");
        let mode = std::fs::metadata(store.place().shown(FILE))
            .expect("exists")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
