//! The one write path: every change of a game, whoever asks (a client, a bot, the server's
//! deadlines), is an [`Act`] applied under the game's lock and committed here.
//!
//! [`Games::act`]: lock → settle the passed deadlines → authorise the caller → resolve what
//! it asks into an act → apply → commit (durable) → publish. [`Games::create`] makes a new
//! game the same way, with its id from the store. An append the store refuses as a conflict
//! (another writer was first) reloads the game and tries again, or answers `ABORTED` when
//! the caller named the version it expected.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use trinchera_store::GamePhase;
use trinchera_store::{AccountId, GameId, TokenHash};

use trinchera_rules::{Cell, Description, KindId, Placement, Quoted, Seat, Seed, Setup, Viewer};

use super::auth::Caller;
use super::cache::{Held, Slot};
use super::reservations::Unfinished as Counts;
use super::{Games, MoveInput, NewGame, SetupRequest};
use crate::error::ApiError;
use crate::ids::{self, Token};
use trinchera_game::Reason;
use trinchera_game::{
    Act, Creation, EventKind, GameEvent, GameState, Moment, Occupant, Snapshot, bot_player_name,
};
use trinchera_store::{Append, StoreError, Unfinished};

/// Where a change was made: by this server, or by another one on the same database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// This server appended it.
    Here,
    /// Another server did; this one heard of it on the bus or read it from the store.
    Elsewhere,
}

/// Who asks for an act.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Who<'a> {
    /// A client, with its seat's token or its account's, if it sent one.
    Client(Caller<'a>),
    /// The server's bot of a seat.
    Bot(Seat),
    /// The server itself.
    Server,
}

/// What a caller asks of a game.
#[derive(Clone, Debug)]
pub(crate) enum Intent {
    /// Take the free seat under this name (empty: a default).
    Join {
        /// The display name, checked (an account's name for an account).
        name: String,
        /// The account that takes the seat, if one does.
        account: Option<AccountId>,
    },
    /// Submit the caller's setup.
    Setup(SetupRequest),
    /// Play a move.
    Move(MoveInput),
    /// Resign.
    Resign,
    /// In a game without clock, win against the seat to move that stayed away for the
    /// abandonment limit.
    Claim,
    /// Call off a game that waited too long for a player or for setups (the server only).
    Expire,
}

/// What the caller of an act is told besides the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The game as the acting seat sees it afterwards (a spectator's sight for the server).
    View,
    /// Nothing more: the caller learns the game from elsewhere (a bot, the server's
    /// deadlines, a MakeMove with `omit_view`), so no view is made.
    Event,
}

/// What an act did, for its caller.
#[derive(Debug)]
pub(crate) struct Acted {
    /// The event.
    pub event: GameEvent,
    /// The seat that acted, if a seat did.
    pub seat: Option<Seat>,
    /// The game's ruleset.
    pub description: &'static Description,
    /// With [`Answer::View`], the game as that seat sees it afterwards (a spectator's sight
    /// for the server).
    pub snapshot: Option<Snapshot>,
    /// The secret token of a seat just taken, to give to its holder once.
    pub token: Option<String>,
}

/// How often an act whose append lost a race is tried again on the reloaded game.
const CONFLICT_RETRIES: usize = 3;

impl Games {
    /// Applies what `who` asks of game `id` (see the module documentation); with
    /// `expected_version`, only if the game is at that version; `answer` says whether the
    /// caller wants a view of the game afterwards.
    ///
    /// An append that loses a race (another server wrote the game first, whether for this
    /// act or for a deadline settled on the way) reloads the game and tries again, unless
    /// the reloaded game is past `expected_version` or [`CONFLICT_RETRIES`] tries were
    /// made: then the caller hears that the game moved on (`ABORTED`). A caller that names
    /// a version later than the copy in memory saw what another server wrote: the copy is
    /// reloaded first.
    pub(crate) async fn act(
        &self,
        id: GameId,
        who: Who<'_>,
        intent: Intent,
        expected_version: Option<u64>,
        answer: Answer,
    ) -> Result<Acted, ApiError> {
        self.refuse_if_shutting_down()?;
        let mut conflicts = 0;
        loop {
            match self
                .attempt(id, who, &intent, expected_version, answer)
                .await
            {
                Err(ApiError::Store(StoreError::Conflict { version, .. })) => {
                    conflicts += 1;
                    crate::metrics::write_conflict();
                    // The copy that lost was dropped: this loads what the store holds.
                    let actual = self.lock(id).await?.1.state().version();
                    if expected_version.is_some_and(|expected| expected != actual)
                        || conflicts > CONFLICT_RETRIES
                    {
                        return Err(ApiError::VersionMismatch {
                            expected: expected_version.unwrap_or(version - 1),
                            actual,
                        });
                    }
                }
                acted => return acted,
            }
        }
    }

    /// One try of [`Games::act`] on the game as it is in memory (loaded if needed).
    async fn attempt(
        &self,
        id: GameId,
        who: Who<'_>,
        intent: &Intent,
        expected_version: Option<u64>,
        answer: Answer,
    ) -> Result<Acted, ApiError> {
        let (slot, held) = self.lock(id).await?;
        let held = self.settle(&slot, held).await?;
        let seat = self.authorise(held.state(), who, intent).await?;
        if let Some(expected) = expected_version {
            let actual = held.state().version();
            if expected > actual {
                held.discard();
                return Err(StoreError::Conflict {
                    game: id,
                    version: expected,
                }
                .into());
            }
            if expected != actual {
                return Err(ApiError::VersionMismatch { expected, actual });
            }
        }
        let (act, token) = self.resolve(held.state(), seat, intent.clone())?;
        // A join acts for the seat it takes.
        let seat = match &act {
            Act::Join(occupant) => Some(occupant.seat),
            _ => seat,
        };
        let (held, event) = self.commit(&slot, held, act).await?;
        let viewer = seat.map_or(Viewer::Spectator, Viewer::Player);
        let state = held.state();
        Ok(Acted {
            event,
            seat,
            description: state.description(),
            snapshot: (answer == Answer::View)
                .then(|| state.snapshot(viewer).at(self.time.now_ms())),
            token: token.map(Token::reveal),
        })
    }

    /// Applies `act` to the held game and appends its change durably, then publishes it,
    /// registers the game's next deadline and wakes its bot if one is to act. On a storage
    /// failure (a conflict among them) the game is dropped from memory, so that the next
    /// caller reloads what the store holds.
    ///
    /// The commit runs to its end on a task of its own, holding the game's lock, even if
    /// the caller is dropped meanwhile (its client went away, or its call's deadline
    /// passed): dropped halfway, the copy in memory was left ahead of the store (readers
    /// that replay the log then failed with `INTERNAL`) and the change was never published
    /// (its watchers missed it, its deadline and bot were not seen to).
    pub(super) async fn commit(
        &self,
        slot: &Arc<Slot>,
        held: Held,
        act: Act,
    ) -> Result<(Held, GameEvent), ApiError> {
        let games = self.me.upgrade().ok_or(ApiError::ShuttingDown)?;
        let slot = Arc::clone(slot);
        tokio::spawn(async move { games.commit_here(&slot, held, act).await })
            .await
            .map_err(|error| ApiError::Internal(Box::new(error)))?
    }

    /// [`Games::commit`] on the caller's task.
    async fn commit_here(
        &self,
        slot: &Slot,
        mut held: Held,
        act: Act,
    ) -> Result<(Held, GameEvent), ApiError> {
        let moment = self.moment(held.state());
        let change = held.apply(act, moment)?;
        let append = Append {
            lease: self.lease_after(held.state()),
            ..change.append()
        };
        if let Err(error) = self.store.append(held.state().id(), append).await {
            held.discard();
            return Err(error.into());
        }
        self.committed(slot, &held, change.record, &change.event, Origin::Here);
        Ok((held, change.event))
    }

    /// What follows a durable change, made here or by another server (`origin`): for one
    /// made here, the other servers hear of it and the metrics count it; for every one,
    /// the watchers hear of it, the next deadline and the bot are seen to, and a finished
    /// game frees its creator's place. The one way a change is published.
    pub(super) fn committed(
        &self,
        slot: &Slot,
        held: &Held,
        record: trinchera_store::records::EventRecord,
        event: &GameEvent,
        origin: Origin,
    ) {
        let state = held.state();
        if origin == Origin::Here {
            if let Some(bus) = self.writes.bus.get() {
                bus.publish(state.id(), state.version(), &record);
            }
            match &event.kind {
                EventKind::Move { .. } => crate::metrics::move_committed(state.description().id),
                EventKind::TimedOut(_) => crate::metrics::forfeit(),
                _ => {}
            }
        }
        if state.phase() == GamePhase::Finished {
            self.writes.reservations.finished(state.id());
        }
        slot.hub.publish(event.clone(), state);
        self.schedule(state);
        if state.bot_to_act().is_some() {
            self.wake_bot(state.id());
        }
    }

    /// Creates `game` for a client at `peer`: the caller takes its seat, and its bot, if
    /// any, the other seat; the store gives the game its id. Empty names get defaults.
    ///
    /// Like a [commit](Games::commit), a creation runs to its end on a task of its own even
    /// if the caller is dropped meanwhile: dropped halfway, its place among the unfinished
    /// games stayed taken for good, or its game was stored but never held nor published.
    pub(crate) async fn create(
        &self,
        peer: Option<IpAddr>,
        game: NewGame,
    ) -> Result<(GameId, Acted), ApiError> {
        self.refuse_if_shutting_down()?;
        let games = self.me.upgrade().ok_or(ApiError::ShuttingDown)?;
        tokio::spawn(async move { games.create_here(peer, game).await })
            .await
            .map_err(|error| ApiError::Internal(Box::new(error)))?
    }

    /// [`Games::create`] on the caller's task.
    async fn create_here(
        &self,
        peer: Option<IpAddr>,
        game: NewGame,
    ) -> Result<(GameId, Acted), ApiError> {
        let NewGame {
            ruleset,
            seat,
            name,
            player,
            bot,
            creator_bot,
            control,
            account,
        } = game;
        let default_name = trinchera_rules::catalog::ruleset(&ruleset)
            .map(|r| (r.description)().name.to_owned())
            .unwrap_or_default();
        let token = Token::generate()?;
        let creation = Creation {
            ruleset,
            name: or_default(name, default_name),
            creator: Occupant {
                seat,
                name: match creator_bot {
                    Some(level) => bot_player_name(level),
                    None => or_default(player, default_player(seat)),
                },
                token: token.hash(),
                bot: creator_bot,
                account: account.filter(|_| creator_bot.is_none()),
            },
            seed: Seed(ids::random_bytes()?),
            control,
        };
        let moment = Moment {
            at_ms: self.time.now_ms(),
            spent_ms: 0,
        };
        // The game is made (and its ruleset checked) before the store numbers it.
        let (state, change) = GameState::create(GameId(0), creation, moment)?;
        let stored = Counts {
            games: self.store.count_unfinished(Unfinished::All).await?,
            exhibitions: self.store.count_unfinished(Unfinished::Exhibitions).await?,
        };
        let exhibition = creator_bot.is_some() && bot.is_some();
        let reservation =
            self.writes
                .reservations
                .reserve(peer, exhibition, &self.limits, stored)?;
        let id = match self.store.create(change.append()).await {
            Ok(id) => id,
            Err(error) => {
                self.writes.reservations.cancel(reservation);
                return Err(error.into());
            }
        };
        let (slot, mut held) = self.hold_new(state.numbered(id)).await;
        self.committed(&slot, &held, change.record, &change.event, Origin::Here);
        let mut event = change.event;
        if let Some(level) = bot {
            let join = Act::Join(Occupant {
                bot: Some(level),
                ..Occupant::guest(
                    !seat,
                    bot_player_name(level),
                    TokenHash(ids::random_bytes()?),
                )
            });
            let joined = self.commit(&slot, held, join).await;
            // The game exists whether or not its bot took the seat.
            self.writes.reservations.created(reservation, id);
            (held, event) = joined?;
        } else {
            self.writes.reservations.created(reservation, id);
        }
        // Between two bots nobody holds a seat: the creator watches.
        let (seat, token) = match creator_bot {
            Some(_) => (None, None),
            None => (Some(seat), Some(token.reveal())),
        };
        let viewer = seat.map_or(Viewer::Spectator, Viewer::Player);
        let state = held.state();
        Ok((
            id,
            Acted {
                event,
                seat,
                description: state.description(),
                snapshot: Some(state.snapshot(viewer).at(self.time.now_ms())),
                token,
            },
        ))
    }

    /// The seat `who` acts for in `state` when it asks for `intent` (`None` where no seat
    /// acts: a join, an expiry), or the refusal.
    async fn authorise(
        &self,
        state: &GameState,
        who: Who<'_>,
        intent: &Intent,
    ) -> Result<Option<Seat>, ApiError> {
        match (who, intent) {
            (Who::Client(_) | Who::Server, Intent::Join { .. }) => Ok(None),
            (Who::Server, Intent::Expire) => Ok(None),
            (Who::Bot(seat), Intent::Setup(_) | Intent::Move(_)) => {
                match state.table().seats[seat].bot {
                    Some(_) => Ok(Some(seat)),
                    None => Err(ApiError::precondition(
                        Reason::BadRequest,
                        "the server's bot acts only for a seat a bot plays",
                    )),
                }
            }
            (Who::Client(caller), _) => self.seat_for(state, caller).await.map(Some),
            (Who::Bot(_) | Who::Server, _) => Err(ApiError::precondition(
                Reason::BadRequest,
                "the server does not act so for a seat",
            )),
        }
    }

    /// The act `intent` of `seat` stands for in `state`, and the token it issues.
    fn resolve(
        &self,
        state: &GameState,
        seat: Option<Seat>,
        intent: Intent,
    ) -> Result<(Act, Option<Token>), ApiError> {
        let seat_or_refuse = || {
            seat.ok_or(ApiError::Unauthenticated(
                "this call acts for a player: send the metadata `authorization: Bearer \
                 <player token>`",
            ))
        };
        Ok(match intent {
            Intent::Join { name, account } => {
                let Some(seat) = state.free_seat() else {
                    return Err(ApiError::precondition(
                        Reason::SeatTaken,
                        "both seats of this game are taken",
                    ));
                };
                let token = Token::generate()?;
                let act = Act::Join(Occupant {
                    account,
                    ..Occupant::guest(seat, or_default(name, default_player(seat)), token.hash())
                });
                (act, Some(token))
            }
            Intent::Setup(request) => {
                let seat = seat_or_refuse()?;
                let setup = setup_of(state, seat, request)?;
                let salt = ids::random_bytes()?;
                (Act::Setup { setup, salt }, None)
            }
            Intent::Move(input) => {
                let seat = seat_or_refuse()?;
                let action = match input {
                    MoveInput::Action(action) => action,
                    MoveInput::Notation(text) => state
                        .game()
                        .parse_notation(&text)
                        .map_err(|e| ApiError::invalid(Reason::BadNotation, e.to_string()))?,
                };
                (Act::Move { seat, action }, None)
            }
            Intent::Resign => (
                Act::Resign {
                    seat: seat_or_refuse()?,
                },
                None,
            ),
            Intent::Claim => {
                let seat = seat_or_refuse()?;
                self.check_claim(state, seat)?;
                (Act::Claim { seat }, None)
            }
            Intent::Expire => {
                if !matches!(state.phase(), GamePhase::Waiting | GamePhase::Setup) {
                    return Err(ApiError::precondition(
                        Reason::WrongPhase,
                        "the game has started since",
                    ));
                }
                (Act::Abort, None)
            }
        })
    }

    /// Whether `seat` may claim the win in `state`: a game without clock being played,
    /// the other seat to move, away for at least the abandonment limit.
    fn check_claim(&self, state: &GameState, seat: Seat) -> Result<(), ApiError> {
        let refuse = |reason, message: String| Err(ApiError::precondition(reason, message));
        if state.phase() != GamePhase::Playing {
            return refuse(
                Reason::WrongPhase,
                "only a game being played can be claimed".into(),
            );
        }
        if state.clocks().timed() {
            return refuse(
                Reason::WrongPhase,
                "this game has a clock: the server ends it when a player's time runs out".into(),
            );
        }
        if state.game().to_move() == Some(seat) {
            return refuse(
                Reason::NotYourTurn,
                "it is your turn: the absent player is you".into(),
            );
        }
        let idle = Duration::from_millis(state.clocks().idle(self.time.now_ms()));
        let limit = self.limits.abandon_after;
        if idle < limit {
            return refuse(
                Reason::TooEarly,
                format!(
                    "your opponent has been away for {}; you can claim the game after {} \
                     (in {})",
                    human(idle),
                    human(limit),
                    human(limit - idle)
                ),
            );
        }
        Ok(())
    }

    /// A setup for the caller's seat from the server's setup maker, around the pieces of
    /// `keep`, not submitted: the game does not change.
    pub(crate) async fn suggest_setup(
        &self,
        id: GameId,
        caller: Caller<'_>,
        keep: Vec<Placement>,
    ) -> Result<Vec<Placement>, ApiError> {
        let (slot, held) = self.lock(id).await?;
        let held = self.settle(&slot, held).await?;
        let seat = self.seat_for(held.state(), caller).await?;
        let description = sets_up(held.state(), seat)?;
        if !held.state().awaits_setup(seat) {
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
        SetupRequest::Made => made_setup(description, seat, &[]),
        SetupRequest::Validated(setup) if setup.seat() == seat => Ok(setup),
        SetupRequest::Validated(_) => Err(ApiError::precondition(
            Reason::BadSetup,
            "a setup for the other seat",
        )),
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
    trinchera_game::bots::suggest_setup(description, seat, kept, ids::random_bytes()?)
        .map_err(|e| ApiError::invalid(Reason::BadSetup, e.describe(description)))
}

/// A duration as a person reads it: "3 days 4 h", "12 min", "40 s".
fn human(duration: Duration) -> String {
    let secs = duration.as_secs();
    match secs {
        0..120 => format!("{secs} s"),
        120..7200 => format!("{} min", secs / 60),
        7200..172_800 => format!("{} h", secs / 3600),
        _ => format!("{} days {} h", secs / 86_400, secs % 86_400 / 3600),
    }
}
