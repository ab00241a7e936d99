//! The write path: read → play → commit → publish, under the game's lock.
//!
//! Every change to a game goes through [`Games::commit`]: the log entry (and the summary,
//! when the phase changed) is made durable before anyone is answered, then published to
//! watchers and noted in the directory.

use std::net::IpAddr;
use std::time::Duration;

use trinchera_rules::{Cell, Description, KindId, Placement, Quoted, Seat, Seed, Setup, Viewer};

use super::cache::{Held, Slot};
use super::{Games, MoveInput, NewGame, Seated, SetupRequest};
use crate::error::{ApiError, Reason};
use crate::ids::{self, GameId, Token, TokenHash};
use crate::records::EventRecord;
use crate::state::{Creator, GameEvent, GamePhase, GameState, Seen, bot_player_name};
use crate::store::Write;

/// A change to commit: the event, its log entry, and what else it wrote.
pub(super) struct Change {
    event: GameEvent,
    record: EventRecord,
    /// A token issued by this change.
    token: Option<TokenHash>,
    /// Whether the phase changed, so that the summary is rewritten.
    phase_changed: bool,
}

impl Change {
    /// The change `event` made to `state`, which was in phase `before`.
    pub(super) fn new(
        event: GameEvent,
        record: EventRecord,
        before: GamePhase,
        state: &GameState,
    ) -> Change {
        Change {
            event,
            record,
            token: None,
            phase_changed: state.phase() != before,
        }
    }
}

impl Games {
    /// Appends `change` durably, then publishes it, registers the game's next deadline and
    /// wakes its bot if one is to act. On a storage failure the game is dropped from
    /// memory, so that it is reloaded from what the store holds.
    pub(super) async fn commit(
        &self,
        slot: &Slot,
        mut held: Held,
        change: Change,
    ) -> Result<Held, ApiError> {
        let summary = change
            .phase_changed
            .then(|| held.state.summary(self.time.now_ms()));
        let write = Write {
            game: held.state.id(),
            version: change.event.version,
            event: &change.record,
            summary: summary.as_ref(),
            token: change.token,
        };
        let result = match self.store.write(&write) {
            Ok(()) => self.store.durable().await,
            Err(error) => Err(error),
        };
        if let Err(error) = result {
            held.discard();
            return Err(error.into());
        }
        held.log.push(change.record);
        if let Some(summary) = &summary {
            self.directory.record(held.state.id(), summary);
        }
        slot.hub.publish(change.event, &held.state);
        self.schedule(&held.state);
        if held.state.bot_to_act().is_some() {
            self.wake_bot(held.state.id());
        }
        Ok(held)
    }

    /// Creates `game` for a client at `peer`: the caller takes its seat, and its bot, if
    /// any, the other seat. Empty names get defaults.
    pub async fn create(
        &self,
        peer: Option<IpAddr>,
        game: NewGame,
    ) -> Result<(GameId, Seated), ApiError> {
        self.refuse_if_shutting_down()?;
        let NewGame {
            ruleset,
            seat,
            name,
            player,
            bot,
            creator_bot,
            control,
        } = game;
        let ruleset = ruleset.as_str();
        let default_name = trinchera_rules::catalog::ruleset(ruleset)
            .map(|r| (r.description)().name.to_owned())
            .unwrap_or_default();
        let name = or_default(name, default_name);
        let player = match creator_bot {
            Some(level) => bot_player_name(level),
            None => or_default(player, default_player(seat)),
        };
        let exhibition = creator_bot.is_some() && bot.is_some();
        let reservation = self.directory.reserve(peer, exhibition, &self.limits)?;
        let token = Token::generate()?;
        let hash = token.hash();
        let created = match self.store.next_game_id() {
            Ok(id) => GameState::create(
                id,
                ruleset,
                name,
                Creator {
                    seat,
                    name: player,
                    token: hash,
                    bot: creator_bot,
                },
                Seed(ids::random_bytes()?),
                self.time.now_ms(),
                control,
            ),
            Err(error) => Err(error.into()),
        };
        let (state, event, record) = match created {
            Ok(created) => created,
            Err(error) => {
                self.directory.cancel(reservation);
                return Err(error);
            }
        };
        let id = state.id();
        let (slot, held) = self.hold_new(state).await;
        let change = Change {
            event,
            record,
            token: Some(hash),
            phase_changed: true,
        };
        let mut held = match self.commit(&slot, held, change).await {
            Ok(held) => held,
            Err(error) => {
                self.directory.cancel(reservation);
                return Err(error);
            }
        };
        if let Some(level) = bot {
            let seated = async {
                let name = bot_player_name(level);
                let unknowable = TokenHash(ids::random_bytes()?);
                let before = held.state.phase();
                let moment = self.moment(&held.state);
                let (event, record) =
                    held.state
                        .join(!seat, name, unknowable, Some(level), moment)?;
                let change = Change::new(event, record, before, &held.state);
                self.commit(&slot, held, change).await
            };
            let seated = seated.await;
            // The game exists whether or not its bot took the seat.
            self.directory.created(reservation, id);
            held = seated?;
        } else {
            self.directory.created(reservation, id);
        }
        // Between two bots nobody holds a seat: the creator watches.
        let (viewer, token) = match creator_bot {
            Some(_) => (Viewer::Spectator, String::new()),
            None => (Viewer::Player(seat), token.reveal()),
        };
        let seen = held.state.seen(viewer).at(self.time.now_ms());
        Ok((id, Seated { seat, token, seen }))
    }

    /// Takes the free seat of game `id`; an empty name gets a default.
    pub async fn join(&self, id: GameId, player: String) -> Result<Seated, ApiError> {
        self.refuse_if_shutting_down()?;
        let (slot, held) = self.lock(id).await?;
        let mut held = self.settle(&slot, held).await?;
        let Some(seat) = held.state.free_seat() else {
            return Err(ApiError::precondition(
                Reason::SeatTaken,
                "both seats of this game are taken",
            ));
        };
        let player = or_default(player, default_player(seat));
        let token = Token::generate()?;
        let hash = token.hash();
        let before = held.state.phase();
        let moment = self.moment(&held.state);
        let (event, record) = held.state.join(seat, player, hash, None, moment)?;
        let seen = held.state.seen(Viewer::Player(seat)).at(moment.at_ms);
        let mut change = Change::new(event, record, before, &held.state);
        change.token = Some(hash);
        self.commit(&slot, held, change).await?;
        Ok(Seated {
            seat,
            token: token.reveal(),
            seen,
        })
    }

    /// The caller submits a setup.
    pub async fn submit_setup(
        &self,
        id: GameId,
        token: Option<&str>,
        request: SetupRequest,
    ) -> Result<Seen, ApiError> {
        self.refuse_if_shutting_down()?;
        let (slot, held) = self.lock(id).await?;
        let mut held = self.settle(&slot, held).await?;
        let seat = self.seat_for(&held.state, token)?;
        let setup = setup_of(&held.state, seat, request)?;
        let before = held.state.phase();
        let moment = self.moment(&held.state);
        let (event, record) = held
            .state
            .submit_setup(setup, ids::random_bytes()?, moment)?;
        let seen = held.state.seen(Viewer::Player(seat)).at(moment.at_ms);
        let change = Change::new(event, record, before, &held.state);
        self.commit(&slot, held, change).await?;
        Ok(seen)
    }

    /// A setup for the caller's seat from the server's setup maker, around the pieces of
    /// `keep`, not submitted: the game does not change.
    pub async fn suggest_setup(
        &self,
        id: GameId,
        token: Option<&str>,
        keep: Vec<Placement>,
    ) -> Result<Vec<Placement>, ApiError> {
        let (slot, held) = self.lock(id).await?;
        let held = self.settle(&slot, held).await?;
        let seat = self.seat_for(&held.state, token)?;
        let description = sets_up(&held.state, seat)?;
        if !held.state.awaits_setup(seat) {
            return Err(ApiError::precondition(
                Reason::WrongPhase,
                "only a seat that has yet to set up gets a suggestion",
            ));
        }
        drop(held);
        let mut kept = Vec::with_capacity(keep.len());
        for placement in &keep {
            let kind = description.kind_by_id(&placement.kind).ok_or_else(|| {
                ApiError::invalid(
                    Reason::BadSetup,
                    format!("there is no piece kind {}", Quoted(&placement.kind)),
                )
            })?;
            kept.push((placement.cell, kind));
        }
        Ok(made_setup(description, seat, &kept)?.placements(description))
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
        let (slot, held) = self.lock(id).await?;
        let mut held = self.settle(&slot, held).await?;
        let seat = self.seat_for(&held.state, token)?;
        if let Some(expected) = expected_version
            && expected != held.state.version()
        {
            return Err(ApiError::VersionMismatch {
                expected,
                actual: held.state.version(),
            });
        }
        let action = match action {
            MoveInput::Action(action) => action,
            MoveInput::Notation(text) => held
                .state
                .game()
                .parse_notation(&text)
                .map_err(|e| ApiError::invalid(Reason::BadNotation, e.to_string()))?,
        };
        let before = held.state.phase();
        let moment = self.moment(&held.state);
        let (event, record) = held.state.play(seat, &action, moment)?;
        let seen = held.state.seen(Viewer::Player(seat)).at(moment.at_ms);
        let change = Change::new(event.clone(), record, before, &held.state);
        self.commit(&slot, held, change).await?;
        Ok((event, seen))
    }

    /// The caller resigns.
    pub async fn resign(&self, id: GameId, token: Option<&str>) -> Result<Seen, ApiError> {
        self.refuse_if_shutting_down()?;
        let (slot, held) = self.lock(id).await?;
        let mut held = self.settle(&slot, held).await?;
        let seat = self.seat_for(&held.state, token)?;
        let before = held.state.phase();
        let moment = self.moment(&held.state);
        let (event, record) = held.state.resign(seat, moment)?;
        let seen = held.state.seen(Viewer::Player(seat)).at(moment.at_ms);
        let change = Change::new(event, record, before, &held.state);
        self.commit(&slot, held, change).await?;
        Ok(seen)
    }

    /// Calls off every game that waited for a player or for setups longer than the limits;
    /// returns how many.
    pub async fn expire_overdue(&self) -> Result<usize, ApiError> {
        let now = self.time.now_ms();
        let before = |limit: Duration| now.saturating_sub(limit.as_millis() as u64);
        let overdue = self.directory.overdue(
            before(self.limits.waiting_expiry),
            before(self.limits.setup_expiry),
        );
        let mut expired = 0;
        for id in overdue {
            let (slot, mut held) = self.lock(id).await?;
            let phase = held.state.phase();
            // The game may have moved on since the directory was read.
            if !matches!(phase, GamePhase::Waiting | GamePhase::Setup) {
                continue;
            }
            let moment = self.moment(&held.state);
            let (event, record) = held.state.abort(moment)?;
            let change = Change::new(event, record, phase, &held.state);
            self.commit(&slot, held, change).await?;
            tracing::info!(game_id = %id, ?phase, "called off a game that never started");
            expired += 1;
        }
        Ok(expired)
    }
}

/// `text`, or `default` if it is empty.
fn or_default(text: String, default: String) -> String {
    if text.is_empty() { default } else { text }
}

/// The name of a player who gave none.
fn default_player(seat: Seat) -> String {
    format!("Player {}", seat.index() + 1)
}

/// The setup `seat` asks for, validated.
fn setup_of(state: &GameState, seat: Seat, request: SetupRequest) -> Result<Setup, ApiError> {
    let description = sets_up(state, seat)?;
    match request {
        SetupRequest::Random => made_setup(description, seat, &[]),
        SetupRequest::Placements(placements) => Setup::validate(description, seat, &placements)
            .map_err(|e| ApiError::invalid(Reason::BadSetup, e.describe(description))),
    }
}

/// The ruleset of `state`, if `seat` places pieces in it.
fn sets_up(state: &GameState, seat: Seat) -> Result<&'static Description, ApiError> {
    let description = state.description();
    if description.setup_zone(seat).is_none() {
        return Err(ApiError::precondition(
            Reason::WrongPhase,
            format!(
                "{} places no pieces in {}",
                description.seats[seat].name, description.name
            ),
        ));
    }
    Ok(description)
}

/// A setup of `seat` from the server's setup maker (the bots'), around `kept`.
pub(super) fn made_setup(
    description: &'static Description,
    seat: Seat,
    kept: &[(Cell, KindId)],
) -> Result<Setup, ApiError> {
    crate::bots::suggest_setup(description, seat, kept, ids::random_bytes()?)
        .map_err(|e| ApiError::invalid(Reason::BadSetup, e.describe(description)))
}
