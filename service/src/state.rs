//! A game as the service holds it: the rules state rebuilt from the log, the seats' metadata,
//! and the operations that turn a validated request into a new log entry.
//!
//! Every operation either fails and changes nothing, or changes the state and returns the
//! [`GameEvent`] that describes it together with the [`EventRecord`] to append to the log.
//! Replaying a log applies the same operations to the records, so a reloaded game is
//! identical to the one that was played.

use std::sync::Arc;

use sha2::{Digest, Sha256};
use trinchera_rules::{
    Action, BySeat, Description, Game, LegalAction, Outcome, Phase, PlayError, Played, Quoted,
    Seat, Seed, Setup, Sight, View, Viewer, catalog,
};

use crate::bots::{BotLevel, SeatView};
use crate::error::{ApiError, Reason};
use crate::ids::{GameId, TokenHash};
use crate::records::{
    Created, Ended, Entry, EventRecord, Joined, Resigned, SetupRecord, SummaryRecord,
    TimeControlRecord,
};
use crate::timing::{Clocks, TimeControl};

/// Where a game stands, as the service sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamePhase {
    /// A seat is free.
    Waiting,
    /// Waiting for setups.
    Setup,
    /// Being played.
    Playing,
    /// Over.
    Finished,
}

impl GamePhase {
    /// The `trinchera.v1.Phase` number, also stored in summaries.
    pub const fn number(self) -> i32 {
        match self {
            GamePhase::Waiting => 1,
            GamePhase::Setup => 2,
            GamePhase::Playing => 3,
            GamePhase::Finished => 4,
        }
    }
}

/// One seat's metadata.
#[derive(Clone, Debug, Default)]
pub struct SeatMeta {
    /// Display name; empty while free.
    pub name: String,
    /// Hash of the seat's token, once taken.
    pub token: Option<TokenHash>,
    /// Salt and canonical text of the submitted setup.
    pub setup: Option<([u8; 16], String)>,
    /// The fairness commitment of that setup, hex of SHA-256(salt ‖ canonical text):
    /// computed once, since every view shows it.
    pub commitment: Option<String>,
    /// Whether the server plays this seat, and how.
    pub bot: Option<BotLevel>,
}

impl SeatMeta {
    /// Whether somebody took the seat.
    pub fn joined(&self) -> bool {
        self.token.is_some()
    }

    /// Records the submitted setup and its commitment.
    pub fn set_setup(&mut self, salt: [u8; 16], canonical: String) {
        let mut hasher = Sha256::new();
        hasher.update(salt);
        hasher.update(canonical.as_bytes());
        self.commitment = Some(hex::encode(hasher.finalize()));
        self.setup = Some((salt, canonical));
    }

    /// The fairness commitment of the submitted setup, if any.
    pub fn commitment(&self) -> Option<&str> {
        self.commitment.as_deref()
    }
}

/// Who creates a game.
#[derive(Clone, Debug)]
pub struct Creator {
    /// The seat taken.
    pub seat: Seat,
    /// The display name.
    pub name: String,
    /// The hash of the seat's token.
    pub token: TokenHash,
    /// The bot that plays the seat, if a bot does.
    pub bot: Option<BotLevel>,
}

impl Creator {
    /// A person creating a game from `seat`.
    pub fn person(seat: Seat, name: String, token: TokenHash) -> Creator {
        Creator {
            seat,
            name,
            token,
            bot: None,
        }
    }
}

/// The bot level a log names for a seat ("" for a person).
fn bot_level(name: &str) -> Result<Option<BotLevel>, String> {
    match name {
        "" => Ok(None),
        level => level
            .parse()
            .map(Some)
            .map_err(|()| format!("unknown bot level {level:?}")),
    }
}

/// The name a bot of `level` plays under; people may not take a name of this form.
pub fn bot_player_name(level: BotLevel) -> String {
    format!("{BOT_NAME_PREFIX}{level})")
}

/// How every bot's name starts.
pub const BOT_NAME_PREFIX: &str = "Bot (";

/// Game-level metadata.
#[derive(Clone, Debug)]
pub struct Meta {
    /// Display name.
    pub name: String,
    /// The secret seed of the game's chance, revealed after the end.
    pub seed: Seed,
    /// Creation time, ms since the Unix epoch.
    pub created_ms: u64,
    /// Both seats.
    pub seats: BySeat<SeatMeta>,
}

/// What an event was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The game was created (the creator took `seat`).
    Created,
    /// A player took `seat`.
    Joined,
    /// `seat` submitted its setup.
    SetupSubmitted,
    /// `seat` played.
    Move {
        /// The action.
        action: Action,
        /// Its notation and effects.
        played: Played,
    },
    /// `seat` resigned.
    Resigned(Outcome),
    /// The server called the game off while it waited for `seat` (to join, to set up or
    /// to make its first move).
    Aborted,
    /// `seat` ran out of time.
    TimedOut(Outcome),
    /// `seat` claimed the win against an opponent who stayed away.
    Claimed(Outcome),
}

/// When an action happens, by the server's clock, and what the acting seat's turn has
/// cost it until then: the two times every log entry records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moment {
    /// ms since the Unix epoch.
    pub at_ms: u64,
    /// Time spent on the acting seat's turn, in ms (charged to its clock).
    pub spent_ms: u64,
}

impl Moment {
    /// The moment a log entry records.
    fn of(record: &EventRecord) -> Moment {
        Moment {
            at_ms: record.at_ms,
            spent_ms: record.spent_ms,
        }
    }
}

/// One event of a game. Everything in it is public: setups are never part of an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEvent {
    /// The version this event created.
    pub version: u64,
    /// The acting seat.
    pub seat: Seat,
    /// What happened.
    pub kind: EventKind,
    /// Whether play started with this event.
    pub started: bool,
}

/// A game in memory. Cheap to clone (the rules state is a few KB; metadata is shared).
///
/// Its fields are private: nothing changes a game except an operation below, and each
/// operation yields the log entry that records it.
#[derive(Clone, Debug)]
pub struct GameState {
    id: GameId,
    game: Box<dyn Game>,
    meta: Arc<Meta>,
    version: u64,
    last_event: Option<GameEvent>,
    clocks: Clocks,
}

/// Everything a finished game reveals for the fairness check: each seat's committed setup
/// and the seed of the dice.
#[derive(Clone, Debug)]
pub struct Reveal {
    /// Each submitted setup, by seat.
    pub setups: Vec<SetupReveal>,
    /// The secret seed of the game's chance.
    pub seed: Seed,
}

/// One seat's revealed setup.
#[derive(Clone, Debug)]
pub struct SetupReveal {
    /// The seat.
    pub seat: Seat,
    /// The commitment's salt.
    pub salt: [u8; 16],
    /// The canonical setup text that was committed to.
    pub canonical: String,
    /// The commitment shown during play.
    pub commitment: String,
    /// The setup's placements.
    pub placements: Vec<trinchera_rules::Placement>,
}

/// A game's history as one viewer may read it.
#[derive(Clone, Debug)]
pub struct History {
    /// Every event, oldest first (events hold only public facts).
    pub events: Vec<GameEvent>,
    /// The fairness reveal, once the game is over.
    pub reveal: Option<Reveal>,
    /// What the viewer sees now.
    pub seen: Seen,
    /// When asked for: the game after each event (see [`GameState::history`]).
    pub positions: Vec<Seen>,
}

/// A log that cannot be replayed: corrupt or written by an incompatible build.
#[derive(Debug, thiserror::Error)]
#[error("game {game}: log entry {version} cannot be replayed: {problem}")]
pub struct ReplayError {
    /// The game.
    pub game: GameId,
    /// The offending entry.
    pub version: u64,
    /// What went wrong.
    pub problem: String,
}

/// Why a setup request failed.
fn setup_error(description: &Description, error: trinchera_rules::SetupError) -> ApiError {
    ApiError::invalid(Reason::BadSetup, error.describe(description))
}

/// The gRPC-facing error of a refused action.
pub fn play_error(error: PlayError) -> ApiError {
    use trinchera_rules::Illegal;
    match error {
        PlayError::NotStarted => ApiError::precondition(Reason::WrongPhase, error.to_string()),
        PlayError::GameOver => ApiError::precondition(Reason::GameOver, error.to_string()),
        PlayError::NotYourTurn(_) => ApiError::precondition(Reason::NotYourTurn, error.to_string()),
        PlayError::Illegal(Illegal::OffBoard(_)) => {
            ApiError::invalid(Reason::OffBoard, error.to_string())
        }
        PlayError::Illegal(_) => ApiError::precondition(Reason::IllegalMove, error.to_string()),
    }
}

impl GameState {
    /// A new game of `ruleset` whose creator (a person, or a bot) takes a seat.
    pub fn create(
        id: GameId,
        ruleset: &str,
        name: String,
        creator: Creator,
        seed: Seed,
        created_ms: u64,
        control: TimeControl,
    ) -> Result<(GameState, GameEvent, EventRecord), ApiError> {
        let Some(entry) = catalog::ruleset(ruleset) else {
            return Err(ApiError::invalid(
                Reason::UnknownRuleset,
                format!(
                    "there is no ruleset {}; the server hosts: {}",
                    Quoted(ruleset),
                    catalog::ids().join(", ")
                ),
            ));
        };
        let Creator {
            seat,
            name: player,
            token,
            bot,
        } = creator;
        let mut seats = BySeat::<SeatMeta>::default();
        seats[seat] = SeatMeta {
            name: player.clone(),
            token: Some(token),
            bot,
            ..SeatMeta::default()
        };
        let event = GameEvent {
            version: 1,
            seat,
            kind: EventKind::Created,
            started: false,
        };
        let state = GameState {
            id,
            game: (entry.new_game)(seed),
            meta: Arc::new(Meta {
                name: name.clone(),
                seed,
                created_ms,
                seats,
            }),
            version: 1,
            last_event: Some(event.clone()),
            clocks: Clocks {
                last_event: created_ms,
                ..Clocks::new(control)
            },
        };
        let record = EventRecord {
            seat: Some(seat.index() as u32),
            entry: Some(Entry::Created(Created {
                ruleset: ruleset.to_owned(),
                name,
                seed: seed.0.to_vec(),
                created_ms,
                creator: Some(Joined {
                    name: player,
                    token_hash: token.0.to_vec(),
                    bot: bot.map(|level| level.name().to_owned()).unwrap_or_default(),
                }),
                time_control: control_record(control),
            })),
            at_ms: created_ms,
            spent_ms: 0,
        };
        Ok((state, event, record))
    }

    /// Rebuilds a game from its log, calling `each` after every event.
    pub fn replay(
        id: GameId,
        log: &[EventRecord],
        mut each: impl FnMut(&GameState, &GameEvent),
    ) -> Result<GameState, ReplayError> {
        let fail = |version: u64, problem: String| ReplayError {
            game: id,
            version,
            problem,
        };
        let Some((first, rest)) = log.split_first() else {
            return Err(fail(1, "the log is empty".into()));
        };
        let seat_of = |record: &EventRecord, version: u64| {
            record
                .seat
                .and_then(|s| Seat::from_index(s as usize))
                .ok_or_else(|| fail(version, "no valid seat".into()))
        };
        let Some(Entry::Created(created)) = &first.entry else {
            return Err(fail(1, "the log does not start with the creation".into()));
        };
        let seed = Seed(
            created
                .seed
                .as_slice()
                .try_into()
                .map_err(|_| fail(1, "the seed is not 32 bytes".into()))?,
        );
        let creator = created.creator.clone().unwrap_or_default();
        let token = token_hash(&creator.token_hash).ok_or_else(|| fail(1, "bad token".into()))?;
        let creator = Creator {
            seat: seat_of(first, 1)?,
            bot: bot_level(&creator.bot).map_err(|e| fail(1, e))?,
            name: creator.name,
            token,
        };
        let (mut state, created, _) = GameState::create(
            id,
            &created.ruleset,
            created.name.clone(),
            creator,
            seed,
            created.created_ms,
            control_of(created.time_control.as_ref()),
        )
        .map_err(|e| fail(1, e.to_string()))?;
        each(&state, &created);
        for (record, version) in rest.iter().zip(2..) {
            let seat = seat_of(record, version)?;
            let moment = Moment::of(record);
            let event = match &record.entry {
                Some(Entry::Joined(joined)) => {
                    let token = token_hash(&joined.token_hash)
                        .ok_or_else(|| fail(version, "bad token".into()))?;
                    let bot = bot_level(&joined.bot).map_err(|e| fail(version, e))?;
                    state
                        .join(seat, joined.name.clone(), token, bot, moment)
                        .map(|(e, _)| e)
                }
                Some(Entry::Setup(setup)) => {
                    let description = state.game.description();
                    let salt = setup
                        .salt
                        .as_slice()
                        .try_into()
                        .map_err(|_| fail(version, "the salt is not 16 bytes".into()))?;
                    Setup::parse_canonical(description, &setup.canonical)
                        .and_then(|placements| Setup::validate(description, seat, &placements))
                        .map_err(|e| setup_error(description, e))
                        .and_then(|setup| state.submit_setup(setup, salt, moment).map(|(e, _)| e))
                }
                Some(Entry::Move(notation)) => state
                    .game
                    .parse_notation(notation)
                    .map_err(|e| ApiError::invalid(Reason::BadNotation, e.to_string()))
                    .and_then(|action| state.play(seat, &action, moment).map(|(e, _)| e)),
                Some(Entry::Resigned(_)) => state.resign(seat, moment).map(|(e, _)| e),
                Some(Entry::Aborted(_)) => state.abort(moment).map(|(e, _)| e),
                Some(Entry::TimedOut(_)) => state.time_out(seat, moment).map(|(e, _)| e),
                Some(Entry::Claimed(_)) => state.claim(seat, moment).map(|(e, _)| e),
                Some(Entry::Created(_)) | None => {
                    Err(ApiError::invalid(Reason::BadRequest, "unexpected entry"))
                }
            }
            .map_err(|e| fail(version, e.to_string()))?;
            each(&state, &event);
        }
        Ok(state)
    }

    /// Rebuilds game `id` from its log and returns its history as `viewer` may read it;
    /// with `positions`, also the game after every event: as `viewer` saw it then while the
    /// game runs, with everything revealed once it is over (`over`: the reveal is public).
    pub fn history(
        id: GameId,
        log: &[EventRecord],
        viewer: Viewer,
        positions: bool,
        over: bool,
    ) -> Result<History, ReplayError> {
        let mut events = Vec::with_capacity(log.len());
        let mut steps = Vec::with_capacity(if positions { log.len() } else { 0 });
        let sight = if over {
            Sight::Everything
        } else {
            Sight::Of(viewer)
        };
        let state = GameState::replay(id, log, |state, event| {
            events.push(event.clone());
            if positions {
                steps.push(state.seen_past(viewer, sight));
            }
        })?;
        Ok(History {
            events,
            reveal: state.reveal(),
            seen: state.seen(viewer),
            positions: steps,
        })
    }

    /// The fairness reveal, once the game is over (`None` before: setups stay secret).
    pub fn reveal(&self) -> Option<Reveal> {
        if self.phase() != GamePhase::Finished {
            return None;
        }
        let description = self.description();
        let setups = self
            .meta
            .seats
            .iter()
            .filter_map(|(seat, meta)| {
                let (salt, canonical) = meta.setup.as_ref()?;
                Some(SetupReveal {
                    seat,
                    salt: *salt,
                    canonical: canonical.clone(),
                    commitment: meta.commitment().unwrap_or_default().to_owned(),
                    placements: self.game.setup(seat)?.placements(description),
                })
            })
            .collect();
        Some(Reveal {
            setups,
            seed: self.meta.seed,
        })
    }

    /// The game's id.
    pub fn id(&self) -> GameId {
        self.id
    }

    /// The rules state, to read.
    pub fn game(&self) -> &dyn Game {
        self.game.as_ref()
    }

    /// Names, tokens, setups and seed.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// Events so far: the version of the latest.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The game's phase.
    pub fn phase(&self) -> GamePhase {
        if self.game.outcome().is_some() {
            GamePhase::Finished
        } else if !self.meta.seats.0.iter().all(SeatMeta::joined) {
            GamePhase::Waiting
        } else if self.game.phase() == Phase::Setup {
            GamePhase::Setup
        } else {
            GamePhase::Playing
        }
    }

    /// The ruleset's description.
    pub fn description(&self) -> &'static Description {
        self.game.description()
    }

    /// The seat whose token hashes to `token` (compared in constant time).
    pub fn seat_of(&self, token: &TokenHash) -> Option<Seat> {
        let mut found = None;
        for (seat, meta) in self.meta.seats.iter() {
            if meta.token.is_some_and(|own| own.matches(token)) {
                found = Some(seat);
            }
        }
        found
    }

    /// The listing summary, written when the phase changes at `now_ms`.
    pub fn summary(&self, now_ms: u64) -> SummaryRecord {
        let outcome = self.game.outcome();
        SummaryRecord {
            ruleset: self.description().id.to_owned(),
            name: self.meta.name.clone(),
            phase: self.phase().number(),
            players: self.meta.seats.0.iter().map(|s| s.name.clone()).collect(),
            winner: outcome.and_then(|o| o.winner).map(|s| s.index() as u32),
            reason: outcome
                .map(|o| o.reason.code().to_owned())
                .unwrap_or_default(),
            created_ms: self.meta.created_ms,
            since_ms: now_ms,
            speed: self.clocks.control.speed().number(),
            time_control: control_record(self.clocks.control),
        }
    }

    /// The clocks.
    pub fn clocks(&self) -> &Clocks {
        &self.clocks
    }

    /// Moves the running clocks later by the time the server was down since they began.
    pub fn credit_downtime(&mut self, downtime: &crate::timing::Downtime) {
        self.clocks.credit(downtime);
    }

    /// Records `kind`, made at `moment`, as the next event with its log entry `record`:
    /// notes whether play started with it and moves the clocks on.
    fn advance(
        &mut self,
        seat: Seat,
        kind: EventKind,
        before: GamePhase,
        mut record: EventRecord,
        moment: Moment,
    ) -> (GameEvent, EventRecord) {
        let moved = matches!(kind, EventKind::Move { .. });
        self.version += 1;
        let event = GameEvent {
            version: self.version,
            seat,
            kind,
            started: before != GamePhase::Playing && self.phase() == GamePhase::Playing,
        };
        self.last_event = Some(event.clone());
        let phase = self.phase();
        let to_move = self.game.to_move().filter(|_| phase == GamePhase::Playing);
        let acted = moved.then_some((seat, moment.spent_ms));
        self.clocks
            .advance(acted, to_move, phase == GamePhase::Setup, moment.at_ms);
        record.at_ms = moment.at_ms;
        record.spent_ms = if moved && self.clocks.timed() {
            moment.spent_ms
        } else {
            0
        };
        (event, record)
    }

    /// The free seat, if any.
    pub fn free_seat(&self) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&seat| !self.meta.seats[seat].joined())
    }

    /// A player (or a bot) takes `seat`.
    pub fn join(
        &mut self,
        seat: Seat,
        name: String,
        token: TokenHash,
        bot: Option<BotLevel>,
        moment: Moment,
    ) -> Result<(GameEvent, EventRecord), ApiError> {
        if self.phase() == GamePhase::Finished {
            return Err(ApiError::precondition(Reason::GameOver, "the game is over"));
        }
        if self.meta.seats[seat].joined() {
            return Err(ApiError::precondition(
                Reason::SeatTaken,
                "both seats of this game are taken",
            ));
        }
        let before = self.phase();
        Arc::make_mut(&mut self.meta).seats[seat] = SeatMeta {
            name: name.clone(),
            token: Some(token),
            bot,
            ..SeatMeta::default()
        };
        let record = EventRecord {
            seat: Some(seat.index() as u32),
            entry: Some(Entry::Joined(Joined {
                name,
                token_hash: token.0.to_vec(),
                bot: bot.map(|level| level.name().to_owned()).unwrap_or_default(),
            })),
            ..EventRecord::default()
        };
        Ok(self.advance(seat, EventKind::Joined, before, record, moment))
    }

    /// `setup.seat` submits a validated setup committed with `salt`.
    pub fn submit_setup(
        &mut self,
        setup: Setup,
        salt: [u8; 16],
        moment: Moment,
    ) -> Result<(GameEvent, EventRecord), ApiError> {
        let seat = setup.seat;
        if self.phase() == GamePhase::Finished {
            return Err(ApiError::precondition(Reason::GameOver, "the game is over"));
        }
        let before = self.phase();
        let canonical = setup.canonical_text(self.description());
        self.game
            .submit_setup(setup)
            .map_err(|e| ApiError::precondition(Reason::WrongPhase, e.to_string()))?;
        Arc::make_mut(&mut self.meta).seats[seat].set_setup(salt, canonical.clone());
        let record = EventRecord {
            seat: Some(seat.index() as u32),
            entry: Some(Entry::Setup(SetupRecord {
                canonical,
                salt: salt.to_vec(),
            })),
            ..EventRecord::default()
        };
        Ok(self.advance(seat, EventKind::SetupSubmitted, before, record, moment))
    }

    /// `seat` plays `action`.
    pub fn play(
        &mut self,
        seat: Seat,
        action: &Action,
        moment: Moment,
    ) -> Result<(GameEvent, EventRecord), ApiError> {
        let before = self.phase();
        if before == GamePhase::Waiting {
            return Err(ApiError::precondition(
                Reason::WrongPhase,
                "the game has not started: waiting for a player to join",
            ));
        }
        let played = self.game.play(seat, action).map_err(play_error)?;
        let record = EventRecord {
            seat: Some(seat.index() as u32),
            entry: Some(Entry::Move(played.notation.clone())),
            ..EventRecord::default()
        };
        let kind = EventKind::Move {
            action: action.clone(),
            played,
        };
        Ok(self.advance(seat, kind, before, record, moment))
    }

    /// `seat` resigns.
    pub fn resign(
        &mut self,
        seat: Seat,
        moment: Moment,
    ) -> Result<(GameEvent, EventRecord), ApiError> {
        let before = self.phase();
        let outcome = self.game.resign(seat).map_err(play_error)?;
        let record = EventRecord {
            seat: Some(seat.index() as u32),
            entry: Some(Entry::Resigned(Resigned {})),
            ..EventRecord::default()
        };
        Ok(self.advance(seat, EventKind::Resigned(outcome), before, record, moment))
    }

    /// The server calls off a game that has not started: the seat it waited for is the free
    /// one, or else the first whose setup is missing.
    pub fn abort(&mut self, moment: Moment) -> Result<(GameEvent, EventRecord), ApiError> {
        let before = self.phase();
        let awaited = match before {
            GamePhase::Waiting => self.free_seat(),
            GamePhase::Setup => Seat::BOTH
                .into_iter()
                .find(|&seat| self.game.awaits_setup(seat)),
            // A game whose first moves never came.
            GamePhase::Playing => self
                .clocks
                .running
                .filter(|&(seat, _)| !self.clocks.seats[seat].started)
                .map(|(seat, _)| seat),
            GamePhase::Finished => None,
        };
        let Some(seat) = awaited else {
            return Err(ApiError::precondition(
                Reason::WrongPhase,
                "only a game that has not started can be called off",
            ));
        };
        self.game.end(Outcome::ABORTED).map_err(play_error)?;
        let record = EventRecord {
            seat: Some(seat.index() as u32),
            entry: Some(Entry::Aborted(Ended {})),
            ..EventRecord::default()
        };
        Ok(self.advance(seat, EventKind::Aborted, before, record, moment))
    }

    /// `seat`'s time ran out: the other seat wins.
    pub fn time_out(
        &mut self,
        seat: Seat,
        moment: Moment,
    ) -> Result<(GameEvent, EventRecord), ApiError> {
        let end = Outcome::win(!seat, trinchera_rules::EndReason::TimeForfeit);
        let entry = Entry::TimedOut(Ended {});
        self.end_as(seat, end, entry, EventKind::TimedOut, moment)
    }

    /// `seat` claims the win against an opponent who stayed away (checked by the caller).
    pub fn claim(
        &mut self,
        seat: Seat,
        moment: Moment,
    ) -> Result<(GameEvent, EventRecord), ApiError> {
        let end = Outcome::win(seat, trinchera_rules::EndReason::Abandoned);
        let entry = Entry::Claimed(Ended {});
        self.end_as(seat, end, entry, EventKind::Claimed, moment)
    }

    /// Ends the game with `end` for an event of `seat`, recorded as `entry` and told as
    /// `kind`.
    fn end_as(
        &mut self,
        seat: Seat,
        end: Outcome,
        entry: Entry,
        kind: fn(Outcome) -> EventKind,
        moment: Moment,
    ) -> Result<(GameEvent, EventRecord), ApiError> {
        let before = self.phase();
        let outcome = self.game.end(end).map_err(play_error)?;
        let record = EventRecord {
            seat: Some(seat.index() as u32),
            entry: Some(entry),
            ..EventRecord::default()
        };
        Ok(self.advance(seat, kind(outcome), before, record, moment))
    }

    /// The bot seat whose action is awaited, if a bot is to act (setup or move).
    pub fn bot_to_act(&self) -> Option<(Seat, BotLevel)> {
        let seat = match self.phase() {
            GamePhase::Setup => Seat::BOTH.into_iter().find(|&seat| {
                self.meta.seats[seat].bot.is_some() && self.game.awaits_setup(seat)
            })?,
            GamePhase::Playing => self.game.to_move()?,
            GamePhase::Waiting | GamePhase::Finished => return None,
        };
        Some((seat, self.meta.seats[seat].bot?))
    }

    /// What a bot playing `seat` may know now: the seat's own view, nothing else (no
    /// metadata, so no setup text or seed of the game).
    pub fn seat_view(&self, seat: Seat) -> SeatView {
        let seen = self.seen(Viewer::Player(seat));
        SeatView {
            seat,
            version: self.version,
            description: self.description(),
            awaits_setup: self.phase() == GamePhase::Setup && self.game.awaits_setup(seat),
            view: seen.view,
            legal: seen.legal,
        }
    }

    /// The game as `sight` reaches, for `viewer`'s replay: no legal actions.
    fn seen_past(&self, viewer: Viewer, sight: Sight) -> Seen {
        self.seen_with(viewer, self.game.view_in(sight), Vec::new())
    }

    /// What `viewer` sees now.
    pub fn seen(&self, viewer: Viewer) -> Seen {
        let view = self.game.view(viewer);
        let legal = match (viewer.seat(), view.to_move) {
            (Some(seat), Some(to_move))
                if seat == to_move && self.phase() == GamePhase::Playing =>
            {
                self.game.legal_actions()
            }
            _ => Vec::new(),
        };
        self.seen_with(viewer, view, legal)
    }

    /// What `viewer` sees, given the rules' projection and the viewer's legal actions.
    fn seen_with(&self, viewer: Viewer, view: View, legal: Vec<LegalAction>) -> Seen {
        Seen {
            id: self.id,
            version: self.version,
            phase: self.phase(),
            viewer,
            description: self.description(),
            view,
            legal,
            meta: Arc::clone(&self.meta),
            outcome: self.game.outcome(),
            last_event: self.last_event.clone(),
            clocks: self.clocks.clone(),
            at_ms: self.clocks.last_event,
        }
    }
}

fn token_hash(bytes: &[u8]) -> Option<TokenHash> {
    bytes.try_into().ok().map(TokenHash)
}

/// Everything one viewer may see of a game at one version: the makings of a `GameView`.
#[derive(Clone, Debug)]
pub struct Seen {
    /// The game.
    pub id: GameId,
    /// Its version.
    pub version: u64,
    /// Its phase.
    pub phase: GamePhase,
    /// Who looks.
    pub viewer: Viewer,
    /// The ruleset.
    pub description: &'static Description,
    /// The rules' projection for this viewer.
    pub view: View,
    /// The viewer's legal actions, when it is their turn.
    pub legal: Vec<LegalAction>,
    /// Names and commitments.
    pub meta: Arc<Meta>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
    /// The latest event.
    pub last_event: Option<GameEvent>,
    /// The clocks.
    pub clocks: Clocks,
    /// The instant this view shows the clocks at (ms since the Unix epoch): the time of the
    /// latest event, or of the request.
    pub at_ms: u64,
}

impl Seen {
    /// The view with its clocks shown at `now`.
    pub fn at(mut self, now: u64) -> Seen {
        self.at_ms = now;
        self
    }
}

/// A time control as stored (`None`: no clock).
fn control_record(control: TimeControl) -> Option<TimeControlRecord> {
    let ms = |d: std::time::Duration| d.as_millis() as u64;
    match control {
        TimeControl::Untimed => None,
        TimeControl::Live { initial, increment } => Some(TimeControlRecord {
            initial_ms: ms(initial),
            increment_ms: ms(increment),
            per_move_ms: 0,
        }),
        TimeControl::Correspondence { per_move } => Some(TimeControlRecord {
            per_move_ms: ms(per_move),
            ..TimeControlRecord::default()
        }),
    }
}

/// The time control of a stored record.
pub fn control_of(record: Option<&TimeControlRecord>) -> TimeControl {
    use std::time::Duration;
    match record {
        None => TimeControl::Untimed,
        Some(record) if record.per_move_ms > 0 => TimeControl::Correspondence {
            per_move: Duration::from_millis(record.per_move_ms),
        },
        Some(record) => TimeControl::Live {
            initial: Duration::from_millis(record.initial_ms),
            increment: Duration::from_millis(record.increment_ms),
        },
    }
}
