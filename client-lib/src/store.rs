//! What this machine remembers about games: the player token of every seat taken from here
//! (both seats of a game may be held on one machine), and the fairness commitments seen in that game's views while it was played
//! (so that `verify` can hold the final reveal against what was published at the time).
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

/// The whole file.
#[derive(Debug, Default, Serialize, Deserialize)]
struct StateFile {
    /// Server URL → game id → record.
    #[serde(default)]
    servers: BTreeMap<String, BTreeMap<String, GameRecord>>,
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
        StateFile { servers }
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
        let _lock = self
            .place
            .lock(LOCK)
            .map_err(|e| ClientError::file("cannot lock", self.place.shown(LOCK), e))?;
        let mut state = self.read()?;
        let record = state
            .servers
            .entry(server_key(server))
            .or_default()
            .entry(game.to_owned())
            .or_default();
        if change(record) {
            self.write(&state)?;
        }
        Ok(())
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
