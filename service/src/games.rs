//! The game manager: loads games on demand, serializes the actions on each game, persists
//! them durably before answering, and publishes them to watchers.
//!
//! Each game lives in a [`Slot`] with its own async lock: read → play → append → flush →
//! publish happens under that lock, so one game's actions are strictly ordered while many
//! games proceed in parallel and share flushes. Idle games are dropped from memory and
//! reloaded from their log when needed again, so memory grows with active games only.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tokio::sync::{OwnedMutexGuard, broadcast, watch};
use trinchera_rules::{Action, Placement, Seat, Seed, Setup, Viewer};

use crate::bots::BotLevel;
use crate::error::{ApiError, Reason};
use crate::ids::{self, GameId, Token, TokenHash};
use crate::records::EventRecord;
use crate::state::{GameEvent, GamePhase, GameState, ReplayError, Seen};
use crate::store::{Store, StoreError, Write};

/// Limits that protect the server; each refusal names the limit.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Unfinished games the server holds at most.
    pub max_open_games: usize,
    /// Longest game name, in characters.
    pub max_game_name: usize,
    /// Longest player name, in characters.
    pub max_player_name: usize,
    /// Largest ListGames page.
    pub max_page_size: usize,
    /// ListGames page when none is asked for.
    pub default_page_size: usize,
    /// Longest move notation, in bytes.
    pub max_notation: usize,
    /// Events a watcher may fall behind before it gets a fresh snapshot.
    pub watch_buffer: usize,
    /// How long an untouched game stays in memory.
    pub idle_eviction: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_open_games: 100_000,
            max_game_name: 64,
            max_player_name: 32,
            max_page_size: 100,
            default_page_size: 20,
            max_notation: 200,
            watch_buffer: 256,
            idle_eviction: Duration::from_secs(300),
        }
    }
}

/// An event with the game right after it, as sent to watchers.
#[derive(Debug)]
pub struct Published {
    /// The event.
    pub event: GameEvent,
    /// The game after it.
    pub state: GameState,
    /// What spectators see after it: made for the first spectator stream that asks and
    /// shared by the others, since they all see the same.
    pub spectators: OnceLock<Seen>,
}

impl Published {
    /// What `viewer` sees after the event.
    pub fn seen(&self, viewer: Viewer) -> Cow<'_, Seen> {
        match viewer {
            Viewer::Spectator => {
                Cow::Borrowed(self.spectators.get_or_init(|| self.state.seen(viewer)))
            }
            Viewer::Player(_) => Cow::Owned(self.state.seen(viewer)),
        }
    }
}

/// A game in memory with its log.
struct Loaded {
    state: GameState,
    log: Vec<EventRecord>,
}

/// One game's place in memory: its lock, its watchers' channel, when it was last used.
struct Slot {
    game: Arc<tokio::sync::Mutex<Option<Loaded>>>,
    hub: broadcast::Sender<Arc<Published>>,
    touched: AtomicU64,
}

/// What a player gets when taking a seat.
#[derive(Debug)]
pub struct Seated {
    /// The seat.
    pub seat: Seat,
    /// The secret token, shown once.
    pub token: String,
    /// The game as the player sees it.
    pub seen: Seen,
}

/// How a player wants to set up.
#[derive(Debug)]
pub enum SetupRequest {
    /// Explicit placements.
    Placements(Vec<Placement>),
    /// A server-made uniformly random legal setup.
    Random,
}

/// The first messages of a watch and the channel of the rest.
pub struct Watch {
    /// What to send first: a snapshot, or the events after the requested version.
    pub initial: Vec<WatchItem>,
    /// Live events.
    pub live: broadcast::Receiver<Arc<Published>>,
    /// Whether the game was already over: then the stream ends after `initial`.
    pub finished: bool,
}

/// One message of a watch stream.
#[derive(Debug)]
pub struct WatchItem {
    /// The event; `None` in a snapshot.
    pub event: Option<GameEvent>,
    /// What the watcher sees after it.
    pub seen: Seen,
}

/// Every game of the server.
pub struct Games {
    store: Arc<dyn Store>,
    limits: Limits,
    slots: Mutex<HashMap<GameId, Arc<Slot>>>,
    open_games: AtomicUsize,
    epoch: Instant,
    shutdown: watch::Sender<bool>,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Checks a display name: trimmed, at most `max` characters, no control characters.
fn clean_name(text: &str, max: usize, what: &str, default: String) -> Result<String, ApiError> {
    let text = text.trim();
    if text.chars().count() > max {
        return Err(ApiError::invalid(
            Reason::BadName,
            format!("the {what} may be at most {max} characters long"),
        ));
    }
    if text.chars().any(char::is_control) {
        return Err(ApiError::invalid(
            Reason::BadName,
            format!("the {what} may not contain control characters"),
        ));
    }
    Ok(if text.is_empty() {
        default
    } else {
        text.to_owned()
    })
}

impl Games {
    /// The manager of every game in `store`. Counts the unfinished games once.
    pub fn new(store: Arc<dyn Store>, limits: Limits) -> Result<Arc<Games>, StoreError> {
        let mut open = 0;
        for summary in store.summaries(None) {
            if summary?.1.phase != GamePhase::Finished.number() {
                open += 1;
            }
        }
        Ok(Arc::new(Games {
            store,
            limits,
            slots: Mutex::new(HashMap::new()),
            open_games: AtomicUsize::new(open),
            epoch: Instant::now(),
            shutdown: watch::Sender::new(false),
        }))
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Tells watchers to end their streams; later actions are refused.
    pub fn shut_down(&self) {
        self.shutdown.send_replace(true);
    }

    /// Resolves when [`Games::shut_down`] is called.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    fn refuse_if_shutting_down(&self) -> Result<(), ApiError> {
        if *self.shutdown.borrow() {
            return Err(ApiError::ShuttingDown);
        }
        Ok(())
    }

    fn elapsed_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn slot(&self, id: GameId) -> Arc<Slot> {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let slot = slots.entry(id).or_insert_with(|| {
            Arc::new(Slot {
                game: Arc::new(tokio::sync::Mutex::new(None)),
                hub: broadcast::Sender::new(self.limits.watch_buffer),
                touched: AtomicU64::new(0),
            })
        });
        slot.touched.store(self.elapsed_ms(), Ordering::Relaxed);
        Arc::clone(slot)
    }

    /// Locks game `id`, loading it from the store if needed.
    async fn lock(
        &self,
        id: GameId,
    ) -> Result<(Arc<Slot>, OwnedMutexGuard<Option<Loaded>>), ApiError> {
        let slot = self.slot(id);
        let mut guard = Arc::clone(&slot.game).lock_owned().await;
        if guard.is_none() {
            let store = Arc::clone(&self.store);
            let log = tokio::task::spawn_blocking(move || store.log(id))
                .await
                .map_err(|e| StoreError::Backend(e.to_string()))??;
            if log.is_empty() {
                return Err(ApiError::NotFound(id.to_string()));
            }
            let state = GameState::replay(id, &log, |_, _| {}).map_err(|e: ReplayError| {
                tracing::error!(error = %e, "a stored game cannot be replayed");
                StoreError::Backend(e.to_string())
            })?;
            *guard = Some(Loaded { state, log });
        }
        Ok((slot, guard))
    }

    /// A checked player name for `seat` ("Player N" if empty).
    fn player_name(&self, name: &str, seat: Seat) -> Result<String, ApiError> {
        let default = format!("Player {}", seat.index() + 1);
        clean_name(name, self.limits.max_player_name, "player name", default)
    }

    /// Parses a game id from a request.
    pub fn parse_id(text: &str) -> Result<GameId, ApiError> {
        if text.is_empty() {
            return Err(ApiError::invalid(Reason::BadRequest, "game_id is required"));
        }
        text.parse()
            .map_err(|()| ApiError::NotFound(text.chars().take(40).collect()))
    }

    /// The seat a token acts for in `state`, or the right refusal.
    fn seat_for(&self, state: &GameState, token: Option<&str>) -> Result<Seat, ApiError> {
        let Some(token) = token else {
            return Err(ApiError::Unauthenticated(
                "this call acts for a player: send the metadata `authorization: Bearer <player token>`",
            ));
        };
        let hash = TokenHash::of(token);
        if let Some(seat) = state.seat_of(&hash) {
            tracing::Span::current().record("seat", seat.index());
            return Ok(seat);
        }
        match self.store.token_owner(&hash)? {
            Some(owner) if owner != state.id => {
                tracing::warn!("refused a token of another game");
                Err(ApiError::PermissionDenied)
            }
            _ => {
                tracing::warn!("refused an unknown player token");
                Err(ApiError::Unauthenticated("the player token is not valid"))
            }
        }
    }

    /// Who the caller is for a read: a player with a valid token, a spectator without one.
    fn viewer_for(&self, state: &GameState, token: Option<&str>) -> Result<Viewer, ApiError> {
        match token {
            None => Ok(Viewer::Spectator),
            Some(_) => self.seat_for(state, token).map(Viewer::Player),
        }
    }

    /// Appends `record` durably, then publishes `event`. On a storage failure the game is
    /// dropped from memory, so that it is reloaded from what the store holds.
    async fn commit(
        &self,
        slot: &Slot,
        guard: &mut Option<Loaded>,
        event: GameEvent,
        record: EventRecord,
        token: Option<TokenHash>,
        summary_changed: bool,
    ) -> Result<(), ApiError> {
        let Some(loaded) = guard.as_mut() else {
            return Err(StoreError::Closed.into());
        };
        let summary = summary_changed.then(|| loaded.state.summary());
        let write = Write {
            game: loaded.state.id,
            version: event.version,
            event: &record,
            summary: summary.as_ref(),
            token,
        };
        let result = match self.store.write(&write) {
            Ok(()) => self.store.durable().await,
            Err(error) => Err(error),
        };
        if let Err(error) = result {
            *guard = None;
            return Err(error.into());
        }
        loaded.log.push(record);
        if loaded.state.phase() == GamePhase::Finished && summary_changed {
            self.open_games.fetch_sub(1, Ordering::Relaxed);
        }
        if slot.hub.receiver_count() > 0 {
            let _ = slot.hub.send(Arc::new(Published {
                event,
                state: loaded.state.clone(),
                spectators: OnceLock::new(),
            }));
        }
        Ok(())
    }

    /// Creates a game of `ruleset`; the caller takes `seat`, and a bot of `bot` level, if
    /// any, the other seat.
    pub async fn create(
        &self,
        ruleset: &str,
        seat: Seat,
        name: &str,
        player: &str,
        bot: Option<BotLevel>,
    ) -> Result<(GameId, Seated), ApiError> {
        self.refuse_if_shutting_down()?;
        let default_name = trinchera_rules::catalog::ruleset(ruleset)
            .map(|r| (r.description)().name.to_owned())
            .unwrap_or_default();
        let name = clean_name(name, self.limits.max_game_name, "game name", default_name)?;
        let player = self.player_name(player, seat)?;
        let open = self.open_games.fetch_add(1, Ordering::Relaxed);
        if open >= self.limits.max_open_games {
            self.open_games.fetch_sub(1, Ordering::Relaxed);
            return Err(ApiError::ResourceExhausted(format!(
                "the server already holds {} unfinished games, its limit; finish or resign some first",
                self.limits.max_open_games
            )));
        }
        let created = self.create_counted(ruleset, seat, name, player, bot).await;
        if created.is_err() {
            self.open_games.fetch_sub(1, Ordering::Relaxed);
        }
        created
    }

    async fn create_counted(
        &self,
        ruleset: &str,
        seat: Seat,
        name: String,
        player: String,
        bot: Option<BotLevel>,
    ) -> Result<(GameId, Seated), ApiError> {
        let token = Token::generate()?;
        let hash = token.hash();
        let id = self.store.next_game_id()?;
        let seed = Seed(ids::random_bytes()?);
        let (state, event, record) =
            GameState::create(id, ruleset, name, (seat, player, hash), seed, now_ms())?;
        let slot = self.slot(id);
        let mut guard = Arc::clone(&slot.game).lock_owned().await;
        *guard = Some(Loaded {
            state,
            log: Vec::new(),
        });
        self.commit(&slot, &mut guard, event, record, Some(hash), true)
            .await?;
        if let Some(level) = bot {
            let loaded = guard.as_mut().ok_or(StoreError::Closed)?;
            let name = format!("Bot ({level})");
            let unknowable = TokenHash(ids::random_bytes()?);
            let (event, record) = loaded.state.join(!seat, name, unknowable, Some(level))?;
            self.commit(&slot, &mut guard, event, record, None, true)
                .await?;
            self.run_bots(&slot, &mut guard).await?;
        }
        let seen = guard
            .as_ref()
            .ok_or(StoreError::Closed)?
            .state
            .seen(Viewer::Player(seat));
        Ok((
            id,
            Seated {
                seat,
                token: token.reveal(),
                seen,
            },
        ))
    }

    /// Takes the free seat of game `id`.
    pub async fn join(&self, id: GameId, player: &str) -> Result<Seated, ApiError> {
        self.refuse_if_shutting_down()?;
        let (slot, mut guard) = self.lock(id).await?;
        let loaded = guard.as_mut().ok_or(StoreError::Closed)?;
        let Some(seat) = loaded.state.free_seat() else {
            return Err(ApiError::precondition(
                Reason::SeatTaken,
                "both seats of this game are taken",
            ));
        };
        let player = self.player_name(player, seat)?;
        let token = Token::generate()?;
        let hash = token.hash();
        let (event, record) = loaded.state.join(seat, player, hash, None)?;
        let seen = loaded.state.seen(Viewer::Player(seat));
        self.commit(&slot, &mut guard, event, record, Some(hash), true)
            .await?;
        self.run_bots(&slot, &mut guard).await?;
        Ok(Seated {
            seat,
            token: token.reveal(),
            seen,
        })
    }

    /// What the caller sees of game `id` now.
    pub async fn view(&self, id: GameId, token: Option<&str>) -> Result<Seen, ApiError> {
        let (_slot, guard) = self.lock(id).await?;
        let state = &guard.as_ref().ok_or(StoreError::Closed)?.state;
        let viewer = self.viewer_for(state, token)?;
        Ok(state.seen(viewer))
    }

    /// What `viewer` sees of game `id` now.
    pub async fn seen(&self, id: GameId, viewer: Viewer) -> Result<Seen, ApiError> {
        let (_slot, guard) = self.lock(id).await?;
        Ok(guard.as_ref().ok_or(StoreError::Closed)?.state.seen(viewer))
    }

    /// The caller submits a setup.
    pub async fn submit_setup(
        &self,
        id: GameId,
        token: Option<&str>,
        request: SetupRequest,
    ) -> Result<Seen, ApiError> {
        self.refuse_if_shutting_down()?;
        let (slot, mut guard) = self.lock(id).await?;
        let loaded = guard.as_mut().ok_or(StoreError::Closed)?;
        let seat = self.seat_for(&loaded.state, token)?;
        let setup = setup_of(&loaded.state, seat, request)?;
        let before = loaded.state.phase();
        let (event, record) = loaded.state.submit_setup(setup, ids::random_bytes()?)?;
        let changed = loaded.state.phase() != before;
        let seen = loaded.state.seen(Viewer::Player(seat));
        self.commit(&slot, &mut guard, event, record, None, changed)
            .await?;
        self.run_bots(&slot, &mut guard).await?;
        Ok(seen)
    }

    /// Lets bots act while it is their turn (or their setup is awaited).
    async fn run_bots(&self, slot: &Slot, guard: &mut Option<Loaded>) -> Result<(), ApiError> {
        while let Some(loaded) = guard.as_mut() {
            let Some((seat, level)) = loaded.state.bot_to_act() else {
                break;
            };
            let before = loaded.state.phase();
            let (event, record) = if before == GamePhase::Setup {
                let setup = setup_of(&loaded.state, seat, SetupRequest::Random)?;
                loaded.state.submit_setup(setup, ids::random_bytes()?)?
            } else {
                let legal = loaded.state.game.legal_actions();
                let Some(choice) = level.choose(&legal)? else {
                    break;
                };
                loaded.state.play(seat, &choice.action)?
            };
            let changed = loaded.state.phase() != before;
            self.commit(slot, guard, event, record, None, changed)
                .await?;
        }
        Ok(())
    }

    /// The caller plays an action, given structured or in notation.
    pub async fn play(
        &self,
        id: GameId,
        token: Option<&str>,
        action: MoveInput,
        expected_version: Option<u64>,
    ) -> Result<(GameEvent, Seen), ApiError> {
        self.refuse_if_shutting_down()?;
        let (slot, mut guard) = self.lock(id).await?;
        let loaded = guard.as_mut().ok_or(StoreError::Closed)?;
        let seat = self.seat_for(&loaded.state, token)?;
        if let Some(expected) = expected_version
            && expected != loaded.state.version
        {
            return Err(ApiError::VersionMismatch {
                expected,
                actual: loaded.state.version,
            });
        }
        let action = match action {
            MoveInput::Action(action) => action,
            MoveInput::Notation(text) => {
                if text.len() > self.limits.max_notation {
                    return Err(ApiError::invalid(
                        Reason::BadNotation,
                        format!(
                            "a move's notation may be at most {} bytes long",
                            self.limits.max_notation
                        ),
                    ));
                }
                loaded
                    .state
                    .game
                    .parse_notation(&text)
                    .map_err(|e| ApiError::invalid(Reason::BadNotation, e.to_string()))?
            }
        };
        let before = loaded.state.phase();
        let (event, record) = loaded.state.play(seat, &action)?;
        let changed = loaded.state.phase() != before;
        let seen = loaded.state.seen(Viewer::Player(seat));
        self.commit(&slot, &mut guard, event.clone(), record, None, changed)
            .await?;
        self.run_bots(&slot, &mut guard).await?;
        Ok((event, seen))
    }

    /// The caller resigns.
    pub async fn resign(&self, id: GameId, token: Option<&str>) -> Result<Seen, ApiError> {
        self.refuse_if_shutting_down()?;
        let (slot, mut guard) = self.lock(id).await?;
        let loaded = guard.as_mut().ok_or(StoreError::Closed)?;
        let seat = self.seat_for(&loaded.state, token)?;
        let (event, record) = loaded.state.resign(seat)?;
        let seen = loaded.state.seen(Viewer::Player(seat));
        self.commit(&slot, &mut guard, event, record, None, true)
            .await?;
        Ok(seen)
    }

    /// Every event of game `id` and what the caller sees now.
    pub async fn history(
        &self,
        id: GameId,
        token: Option<&str>,
    ) -> Result<(Vec<GameEvent>, GameState, Seen), ApiError> {
        let (_slot, guard) = self.lock(id).await?;
        let loaded = guard.as_ref().ok_or(StoreError::Closed)?;
        let viewer = self.viewer_for(&loaded.state, token)?;
        let mut events = Vec::with_capacity(loaded.log.len());
        GameState::replay(id, &loaded.log, |_, event| events.push(event.clone()))
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        Ok((events, loaded.state.clone(), loaded.state.seen(viewer)))
    }

    /// Starts watching game `id`: a snapshot (or the events after `after`), then live events.
    pub async fn watch(
        &self,
        id: GameId,
        token: Option<&str>,
        after: Option<u64>,
    ) -> Result<(Viewer, Watch), ApiError> {
        let (slot, guard) = self.lock(id).await?;
        let loaded = guard.as_ref().ok_or(StoreError::Closed)?;
        let viewer = self.viewer_for(&loaded.state, token)?;
        let live = slot.hub.subscribe();
        let initial = match after {
            None => vec![WatchItem {
                event: None,
                seen: loaded.state.seen(viewer),
            }],
            Some(after) if after > loaded.state.version => {
                return Err(ApiError::invalid(
                    Reason::BadRequest,
                    format!(
                        "after_version {after} is ahead of the game, which is at version {}",
                        loaded.state.version
                    ),
                ));
            }
            Some(after) => {
                let mut items = Vec::new();
                GameState::replay(id, &loaded.log, |state, event| {
                    if event.version > after {
                        items.push(WatchItem {
                            event: Some(event.clone()),
                            seen: state.seen(viewer),
                        });
                    }
                })
                .map_err(|e| StoreError::Backend(e.to_string()))?;
                items
            }
        };
        let finished = loaded.state.phase() == GamePhase::Finished;
        Ok((
            viewer,
            Watch {
                initial,
                live,
                finished,
            },
        ))
    }

    /// Summaries of games below `before`, newest first, that pass `filter`; at most `limit`.
    pub fn list(
        &self,
        before: Option<GameId>,
        limit: usize,
        filter: impl Fn(&crate::records::SummaryRecord) -> bool,
    ) -> Result<Vec<(GameId, crate::records::SummaryRecord)>, ApiError> {
        let mut games = Vec::new();
        for item in self.store.summaries(before) {
            let (id, summary) = item?;
            if filter(&summary) {
                games.push((id, summary));
                if games.len() == limit {
                    break;
                }
            }
        }
        Ok(games)
    }

    /// Drops games idle for longer than the limit and without watchers from memory.
    pub fn evict_idle(&self) -> usize {
        let now = self.elapsed_ms();
        let idle = self.limits.idle_eviction.as_millis() as u64;
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let before = slots.len();
        // Only the map holds a slot that nobody is using: then nobody can be about to
        // change it, and the next request loads a fresh copy from the store.
        slots.retain(|_, slot| {
            Arc::strong_count(slot) > 1
                || slot.hub.receiver_count() > 0
                || now.saturating_sub(slot.touched.load(Ordering::Relaxed)) < idle
        });
        before - slots.len()
    }

    /// Games held in memory.
    pub fn loaded(&self) -> usize {
        self.slots.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Flushes the store one last time.
    pub fn close(&self) -> Result<(), StoreError> {
        self.store.close()
    }
}

/// The setup `seat` asks for, validated.
fn setup_of(state: &GameState, seat: Seat, request: SetupRequest) -> Result<Setup, ApiError> {
    let description = state.description();
    let Some(zone) = description.setup_zone(seat) else {
        return Err(ApiError::precondition(
            Reason::WrongPhase,
            format!(
                "{} places no pieces in {}",
                description.seats[seat].name, description.name
            ),
        ));
    };
    match request {
        SetupRequest::Random => Ok(Setup::random(
            zone,
            u64::from_le_bytes(ids::random_bytes()?),
        )),
        SetupRequest::Placements(placements) => Setup::validate(description, seat, &placements)
            .map_err(|e| ApiError::invalid(Reason::BadSetup, e.describe(description))),
    }
}

/// A move as the client sent it.
#[derive(Debug)]
pub enum MoveInput {
    /// Structured.
    Action(Action),
    /// In notation.
    Notation(String),
}
