//! One game as the service holds it: the rules state rebuilt from the log, the game's people,
//! its clocks, and the one way it changes: an [`Act`] applied by [`GameState::apply`], which
//! yields the [`Change`] to append to the log (or a [`Refusal`]). Beside it: the server's
//! [`bots`], the [`clock`] arithmetic, and the [`wire`] form of everything a game shows.
//!
//! Hidden information lives here and leaves only through [`GameState::snapshot`] and its
//! kin, which project the game for one viewer: a [`Snapshot`] holds only what that viewer
//! may know, and the bots' [`SeatKnowledge`] only what their seat may.
//!
//! No I/O, no clock of its own and no async: the service passes the time in, and storage
//! is the store's ([`trinchera_store`] gives the records a game is replayed from).

#![warn(unreachable_pub)]

mod act;
pub mod bots;
pub mod clock;
mod people;
mod refusal;
mod replay;
mod snapshot;
pub mod wire;

use std::sync::Arc;
use trinchera_store::{Downtime, GamePhase};

use trinchera_rules::{Action, Description, Game, Outcome, Phase, Played, Seat, Viewer};

pub use self::act::{Act, Creation, Occupant, control_of, control_record};
use self::people::Secrets;
pub use self::people::{BOT_NAME_PREFIX, Table, bot_player_name};
pub use self::refusal::{Reason, Refusal};
pub use self::replay::{
    History, PositionPage, Replay, ReplayError, ReplayOpening, ReplaySteps, Reveal,
};
pub use self::snapshot::Snapshot;
use crate::bots::{BotLevel, SeatKnowledge};
use crate::clock::Clocks;
use trinchera_store::Append;
use trinchera_store::records::{EventRecord, SummaryRecord};
use trinchera_store::{AccountId, GameId, TokenHash};

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

/// When an action happens, by the server's clock, and what the running turn has cost until
/// then: the two times every log entry records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moment {
    /// ms since the Unix epoch.
    pub at_ms: u64,
    /// Time spent on the running turn, in ms (charged to its seat's clock).
    pub spent_ms: u64,
}

impl Moment {
    /// The moment a log entry records.
    pub fn of(record: &EventRecord) -> Moment {
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

/// What one applied act changed: the event, the log entry that records it, the new listing
/// summary when the phase changed, and the token it issued, if any.
#[derive(Clone, Debug)]
pub struct Change {
    /// The event.
    pub event: GameEvent,
    /// Its log entry.
    pub record: EventRecord,
    /// The listing summary, when it changed.
    pub summary: Option<SummaryRecord>,
    /// A token issued by the act (a seat taken).
    pub token: Option<TokenHash>,
}

impl Change {
    /// What the store is to append.
    pub fn append(&self) -> Append<'_> {
        Append {
            version: self.event.version,
            record: &self.record,
            summary: self.summary.as_ref(),
            token: self.token,
            lease: None,
        }
    }
}

/// A game in memory. Cheap to clone (the rules state is a few KB; the people are shared).
///
/// Its fields are private: nothing changes a game except [`GameState::apply`], which yields
/// the log entry that records the change.
#[derive(Clone, Debug)]
pub struct GameState {
    id: GameId,
    game: Box<dyn Game>,
    table: Arc<Table>,
    secrets: Arc<Secrets>,
    created_ms: u64,
    version: u64,
    last_event: Option<GameEvent>,
    clocks: Clocks,
}

impl GameState {
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

    /// The same game numbered `id`: a new game gets its number from the store once its
    /// creation is stored.
    pub fn numbered(mut self, id: GameId) -> GameState {
        self.id = id;
        self
    }

    /// The game's id.
    pub fn id(&self) -> GameId {
        self.id
    }

    /// The rules state, to read.
    pub fn game(&self) -> &dyn Game {
        self.game.as_ref()
    }

    /// What everybody may know of the game's people.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Events so far: the version of the latest.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The game's phase.
    pub fn phase(&self) -> GamePhase {
        if self.game.outcome().is_some() {
            GamePhase::Finished
        } else if !self.table.seats.0.iter().all(|seat| seat.joined) {
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
        self.secrets.seat_of(token)
    }

    /// The seat account `account` holds, if it holds one.
    pub fn seat_of_account(&self, account: AccountId) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&seat| self.table.seats[seat].account == Some(account))
    }

    /// The free seat, if any.
    pub fn free_seat(&self) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&seat| !self.table.seats[seat].joined)
    }

    /// The listing summary at `now_ms` (written when the phase changes).
    pub fn summary(&self, now_ms: u64) -> SummaryRecord {
        let outcome = self.game.outcome();
        let seats = &self.table.seats.0;
        SummaryRecord {
            ruleset: self.description().id.to_owned(),
            name: self.table.name.clone(),
            phase: self.phase().number(),
            players: seats.iter().map(|s| s.name.clone()).collect(),
            winner: outcome.and_then(|o| o.winner).map(|s| s.index() as u32),
            reason: outcome
                .map(|o| o.reason.code().to_owned())
                .unwrap_or_default(),
            created_ms: self.created_ms,
            since_ms: now_ms,
            speed: self.clocks.control().speed().number(),
            time_control: control_record(self.clocks.control()),
            bots: seats
                .iter()
                .map(|s| {
                    s.bot
                        .map(|level| level.name().to_owned())
                        .unwrap_or_default()
                })
                .collect(),
            accounts: if seats.iter().any(|s| s.account.is_some()) {
                seats
                    .iter()
                    .map(|s| s.account.map_or(0, |account| account.0))
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    /// The clocks.
    pub fn clocks(&self) -> &Clocks {
        &self.clocks
    }

    /// Moves the running clocks later by the time the server was down since they began.
    pub fn credit_downtime(&mut self, downtime: &Downtime) {
        self.clocks.credit(downtime);
    }

    /// Records `kind`, made at `moment` by `seat`, as the next event with its log entry
    /// `record` (`before`: the phase before it, `None` for the creation): notes whether play
    /// started with it and moves the clocks on. The one place a change is made.
    fn advance(
        &mut self,
        seat: Seat,
        kind: EventKind,
        before: Option<GamePhase>,
        mut record: EventRecord,
        moment: Moment,
        token: Option<TokenHash>,
    ) -> Change {
        let moved = matches!(kind, EventKind::Move { .. });
        let flagged = matches!(kind, EventKind::TimedOut(_)).then_some(seat);
        self.version += 1;
        let phase = self.phase();
        let event = GameEvent {
            version: self.version,
            seat,
            kind,
            started: before.is_some_and(|b| b != GamePhase::Playing) && phase == GamePhase::Playing,
        };
        self.last_event = Some(event.clone());
        // A move charges its seat's turn; an end by anything else charges the running turn.
        let charged = moved || (phase == GamePhase::Finished && self.clocks.running().is_some());
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
        Change {
            summary: (before != Some(phase)).then(|| self.summary(moment.at_ms)),
            event,
            record,
            token,
        }
    }

    /// The bot seat whose action is awaited, if a bot is to act (setup or move).
    pub fn bot_to_act(&self) -> Option<(Seat, BotLevel)> {
        let seat = match self.phase() {
            GamePhase::Setup => Seat::BOTH.into_iter().find(|&seat| {
                self.table.seats[seat].bot.is_some() && self.game.awaits_setup(seat)
            })?,
            GamePhase::Playing => self.game.to_move()?,
            GamePhase::Waiting | GamePhase::Finished => return None,
        };
        Some((seat, self.table.seats[seat].bot?))
    }

    /// What a bot playing `seat` may know now: the seat's own view and legal actions,
    /// nothing else (no people, so no setup text or seed of the game).
    pub fn seat_knowledge(&self, seat: Seat) -> SeatKnowledge {
        let snapshot = self.snapshot(Viewer::Player(seat));
        SeatKnowledge {
            seat,
            version: self.version,
            description: self.description(),
            awaits_setup: self.awaits_setup(seat),
            projection: snapshot.projection,
            legal: snapshot.legal,
        }
    }
}
