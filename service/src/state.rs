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
    /// When asked for: a page of positions, the game after each event from the page's
    /// start (see [`GameState::history`]).
    pub positions: Vec<Seen>,
    /// Where the next page of positions starts, when more follow.
    pub next_positions_after: Option<u64>,
}

/// A page of positions of a history: those after event `after + 1`, at most `limit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionPage {
    /// The version after which the page starts.
    pub after: u64,
    /// Positions at most.
    pub limit: usize,
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
        let mut replay = Replay::new(id, log);
        while let Some(step) = replay.step() {
            let (state, event) = step?;
            each(state, &event);
        }
        replay.into_state()
    }

    /// The game that the first log entry, `record`, creates.
    fn from_creation(
        id: GameId,
        record: &EventRecord,
    ) -> Result<(GameState, GameEvent), ReplayError> {
        let fail = |problem: String| ReplayError {
            game: id,
            version: 1,
            problem,
        };
        let Some(Entry::Created(created)) = &record.entry else {
            return Err(fail("the log does not start with the creation".into()));
        };
        let seed = Seed(
            created
                .seed
                .as_slice()
                .try_into()
                .map_err(|_| fail("the seed is not 32 bytes".into()))?,
        );
        let creator = created.creator.clone().unwrap_or_default();
        let token = token_hash(&creator.token_hash).ok_or_else(|| fail("bad token".into()))?;
        let creator = Creator {
            seat: record_seat(record).ok_or_else(|| fail("no valid seat".into()))?,
            bot: bot_level(&creator.bot).map_err(fail)?,
            name: creator.name,
            token,
        };
        let (state, event, _) = GameState::create(
            id,
            &created.ruleset,
            created.name.clone(),
            creator,
            seed,
            created.created_ms,
            control_of(created.time_control.as_ref()),
        )
        .map_err(|e| fail(e.to_string()))?;
        Ok((state, event))
    }

    /// Applies log entry `record`, the next one, as it was applied when it was written.
    fn apply_record(&mut self, record: &EventRecord) -> Result<GameEvent, ReplayError> {
        let (game, version) = (self.id, self.version + 1);
        let fail = |problem: String| ReplayError {
            game,
            version,
            problem,
        };
        let seat = record_seat(record).ok_or_else(|| fail("no valid seat".into()))?;
        let moment = Moment::of(record);
        let applied = match &record.entry {
            Some(Entry::Joined(joined)) => {
                let token =
                    token_hash(&joined.token_hash).ok_or_else(|| fail("bad token".into()))?;
                let bot = bot_level(&joined.bot).map_err(fail)?;
                self.join(seat, joined.name.clone(), token, bot, moment)
            }
            Some(Entry::Setup(setup)) => {
                let description = self.game.description();
                let salt = setup
                    .salt
                    .as_slice()
                    .try_into()
                    .map_err(|_| fail("the salt is not 16 bytes".into()))?;
                Setup::parse_canonical(description, &setup.canonical)
                    .and_then(|placements| Setup::validate(description, seat, &placements))
                    .map_err(|e| setup_error(description, e))
                    .and_then(|setup| self.submit_setup(setup, salt, moment))
            }
            Some(Entry::Move(notation)) => self
                .game
                .parse_notation(notation)
                .map_err(|e| ApiError::invalid(Reason::BadNotation, e.to_string()))
                .and_then(|action| self.play(seat, &action, moment)),
            Some(Entry::Resigned(_)) => self.resign(seat, moment),
            Some(Entry::Aborted(_)) => self.abort(moment),
            Some(Entry::TimedOut(_)) => self.time_out(seat, moment),
            Some(Entry::Claimed(_)) => self.claim(seat, moment),
            Some(Entry::Created(_)) | None => {
                Err(ApiError::invalid(Reason::BadRequest, "unexpected entry"))
            }
        };
        applied
            .map(|(event, _)| event)
            .map_err(|e| fail(e.to_string()))
    }

    /// Rebuilds game `id` from its log and returns its history as `viewer` may read it;
    /// with `page`, also one page of positions (see [`ReplaySteps`]). `over`: the game is
    /// over, so the reveal is public.
    pub fn history(
        id: GameId,
        log: &[EventRecord],
        viewer: Viewer,
        page: Option<PositionPage>,
        over: bool,
    ) -> Result<History, ReplayError> {
        let mut events = Vec::with_capacity(log.len());
        let mut positions = Vec::new();
        let mut next_positions_after = None;
        let sight = ReplaySteps::<&[EventRecord]>::sight(viewer, over);
        let state = GameState::replay(id, log, |state, event| {
            events.push(event.clone());
            let Some(page) = page else { return };
            if event.version <= page.after {
                return;
            }
            if positions.len() < page.limit {
                positions.push(state.seen_past(viewer, sight));
            } else if next_positions_after.is_none() {
                next_positions_after = Some(event.version - 1);
            }
        })?;
        Ok(History {
            events,
            reveal: state.reveal(),
            seen: state.seen(viewer),
            positions,
            next_positions_after,
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

    /// Whether the game waits for `seat`'s setup.
    pub fn awaits_setup(&self, seat: Seat) -> bool {
        self.phase() == GamePhase::Setup && self.game.awaits_setup(seat)
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
            bots: self
                .meta
                .seats
                .0
                .iter()
                .map(|s| {
                    s.bot
                        .map(|level| level.name().to_owned())
                        .unwrap_or_default()
                })
                .collect(),
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
        let flagged = matches!(kind, EventKind::TimedOut(_)).then_some(seat);
        self.version += 1;
        let event = GameEvent {
            version: self.version,
            seat,
            kind,
            started: before != GamePhase::Playing && self.phase() == GamePhase::Playing,
        };
        self.last_event = Some(event.clone());
        let phase = self.phase();
        // A move charges its seat's turn; an end by anything else charges the running turn.
        let charged = moved || (phase == GamePhase::Finished && self.clocks.running.is_some());
        if moved || phase != GamePhase::Finished {
            let to_move = self.game.to_move().filter(|_| phase == GamePhase::Playing);
            let acted = moved.then_some((seat, moment.spent_ms));
            self.clocks
                .advance(acted, to_move, phase == GamePhase::Setup, moment.at_ms);
        } else {
            self.clocks.end(moment.spent_ms, flagged, moment.at_ms);
        }
        record.at_ms = moment.at_ms;
        record.spent_ms = if charged && self.clocks.timed() {
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

    /// `setup.seat()` submits a validated setup committed with `salt`.
    pub fn submit_setup(
        &mut self,
        setup: Setup,
        salt: [u8; 16],
        moment: Moment,
    ) -> Result<(GameEvent, EventRecord), ApiError> {
        let seat = setup.seat();
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

    /// Whether bots play both seats: a game nobody plays in person.
    pub fn bots_only(&self) -> bool {
        self.meta.seats.0.iter().all(|seat| seat.bot.is_some())
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
            awaits_setup: self.awaits_setup(seat),
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

/// A game's log replayed one entry at a time: the game after each event, as it was then.
/// Holds one game state, whatever the length of the log, so a long replay costs memory only
/// for what its reader keeps.
#[derive(Debug)]
pub struct Replay<L> {
    id: GameId,
    log: L,
    /// Entries applied so far.
    applied: usize,
    state: Option<GameState>,
    /// A replay that failed stops there.
    failed: bool,
}

impl<L: AsRef<[EventRecord]>> Replay<L> {
    /// A replay of game `id`'s `log`, before its first entry.
    pub fn new(id: GameId, log: L) -> Replay<L> {
        Replay {
            id,
            log,
            applied: 0,
            state: None,
            failed: false,
        }
    }

    /// Entries in the log.
    pub fn len(&self) -> usize {
        self.log.as_ref().len()
    }

    /// Whether the log is empty.
    pub fn is_empty(&self) -> bool {
        self.log.as_ref().is_empty()
    }

    /// Applies the next entry: its event and the game after it; `None` after the last (or
    /// after a failure).
    pub fn step(&mut self) -> Option<Result<(&GameState, GameEvent), ReplayError>> {
        if self.failed {
            return None;
        }
        let record = self.log.as_ref().get(self.applied)?;
        let applied = match &mut self.state {
            None => GameState::from_creation(self.id, record).map(|(state, event)| {
                self.state = Some(state);
                event
            }),
            Some(state) => state.apply_record(record),
        };
        self.applied += 1;
        match applied {
            Ok(event) => self.state.as_ref().map(|state| Ok((state, event))),
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }

    /// The game after the whole log.
    pub fn into_state(mut self) -> Result<GameState, ReplayError> {
        while let Some(step) = self.step() {
            step?;
        }
        self.state.ok_or(ReplayError {
            game: self.id,
            version: 1,
            problem: "the log is empty".into(),
        })
    }
}

/// The steps of a replay as one viewer may see them: each event after a version, with the
/// game after it as the viewer saw it then (everything revealed, once the game is over).
#[derive(Debug)]
pub struct ReplaySteps<L> {
    replay: Replay<L>,
    viewer: Viewer,
    sight: Sight,
    after: u64,
}

impl<L: AsRef<[EventRecord]>> ReplaySteps<L> {
    /// The steps of game `id`'s `log` after version `after`, for `viewer`; `over`: the
    /// game is over, so positions show everything.
    pub fn new(id: GameId, log: L, viewer: Viewer, after: u64, over: bool) -> ReplaySteps<L> {
        ReplaySteps {
            replay: Replay::new(id, log),
            viewer,
            sight: Self::sight(viewer, over),
            after,
        }
    }

    /// What a replay shows `viewer`: its own sight while the game runs, everything after.
    fn sight(viewer: Viewer, over: bool) -> Sight {
        if over {
            Sight::Everything
        } else {
            Sight::Of(viewer)
        }
    }
}

impl<L: AsRef<[EventRecord]>> Iterator for ReplaySteps<L> {
    type Item = Result<(GameEvent, Seen), ReplayError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (state, event) = match self.replay.step()? {
                Ok(step) => step,
                Err(error) => return Some(Err(error)),
            };
            if event.version > self.after {
                return Some(Ok((event, state.seen_past(self.viewer, self.sight))));
            }
        }
    }
}

/// The seat a log entry names.
fn record_seat(record: &EventRecord) -> Option<Seat> {
    record.seat.and_then(|s| Seat::from_index(s as usize))
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
