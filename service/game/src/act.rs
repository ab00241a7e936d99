//! The one way a game changes: an [`Act`] applied by [`GameState::apply`] at a [`Moment`],
//! which yields the [`Change`] to append to the log. A game's first entry is its
//! [`Creation`]. Replaying a log reads each entry back as the act it recorded
//! ([`Act::from_record`]) and applies it the same way, so a reloaded game is identical to the
//! one that was played.

use std::sync::Arc;
use trinchera_store::GamePhase;

use trinchera_rules::{Action, BySeat, Outcome, PlayError, Quoted, Seat, Seed, Setup, catalog};

use super::people::{Committed, SeatCard, Secrets, Table};
use super::{Change, EventKind, GameState, Moment, ReplayError};
use crate::bots::BotLevel;
use crate::clock::{Clocks, TimeControl};
use crate::refusal::{Reason, Refusal};
use trinchera_store::records::{
    Created, Ended, Entry, EventRecord, Joined, Resigned, SetupRecord, TimeControlRecord,
};
use trinchera_store::{AccountId, GameId, TokenHash};

/// A new game: its ruleset, name, creator, chance and clock.
#[derive(Clone, Debug)]
pub struct Creation {
    /// Ruleset id (checked when the game is made).
    pub ruleset: String,
    /// The game's display name.
    pub name: String,
    /// Who takes the first seat.
    pub creator: Occupant,
    /// The secret seed of the game's chance.
    pub seed: Seed,
    /// The time control.
    pub control: TimeControl,
}

/// Who takes a seat: the creator of a game, or who joins it.
#[derive(Clone, Debug)]
pub struct Occupant {
    /// The seat taken.
    pub seat: Seat,
    /// The display name.
    pub name: String,
    /// The hash of the seat's token.
    pub token: TokenHash,
    /// The bot that plays the seat, if a bot does.
    pub bot: Option<BotLevel>,
    /// The account that takes the seat; `None` for a guest or a bot.
    pub account: Option<AccountId>,
}

impl Occupant {
    /// A guest: a person without an account, known by the seat's token.
    pub fn guest(seat: Seat, name: impl Into<String>, token: TokenHash) -> Occupant {
        Occupant {
            seat,
            name: name.into(),
            token,
            bot: None,
            account: None,
        }
    }

    /// The seat as everybody sees it once taken.
    fn card(&self) -> SeatCard {
        SeatCard {
            name: self.name.clone(),
            joined: true,
            commitment: None,
            bot: self.bot,
            account: self.account,
        }
    }

    /// The seat as the log records it.
    fn record(&self) -> Joined {
        Joined {
            name: self.name.clone(),
            token_hash: self.token.0.to_vec(),
            bot: bot_name(self.bot),
            account: self.account.map_or(0, |account| account.0),
        }
    }

    /// The occupant the log recorded as `joined` for `seat`.
    fn from_record(seat: Seat, joined: &Joined) -> Result<Occupant, String> {
        Ok(Occupant {
            seat,
            name: joined.name.clone(),
            token: token_hash(&joined.token_hash).ok_or("bad token")?,
            bot: bot_level(&joined.bot)?,
            account: (joined.account != 0).then_some(AccountId(joined.account)),
        })
    }
}

/// One change of a game after its creation.
#[derive(Clone, Debug)]
pub enum Act {
    /// A player (or a bot) takes a seat, which must be free.
    Join(Occupant),
    /// A seat submits its setup, committed with `salt`.
    Setup {
        /// The validated setup (it names its seat).
        setup: Setup,
        /// The commitment's salt.
        salt: [u8; 16],
    },
    /// `seat` plays `action`.
    Move {
        /// The acting seat.
        seat: Seat,
        /// The action.
        action: Action,
    },
    /// `seat` resigns.
    Resign {
        /// The resigning seat.
        seat: Seat,
    },
    /// `seat` claims the win against an opponent who stayed away (checked by the caller).
    Claim {
        /// The claiming seat.
        seat: Seat,
    },
    /// `seat`'s time ran out: the other seat wins.
    TimeOut {
        /// The seat whose time ran out.
        seat: Seat,
    },
    /// The server calls off a game that has not started.
    Abort,
}

/// The refusal of an action the rules do not allow.
pub(crate) fn play_error(error: PlayError) -> Refusal {
    use trinchera_rules::Illegal;
    match error {
        PlayError::NotStarted => Refusal::precondition(Reason::WrongPhase, error.to_string()),
        PlayError::GameOver => Refusal::precondition(Reason::GameOver, error.to_string()),
        PlayError::NotYourTurn(_) => Refusal::precondition(Reason::NotYourTurn, error.to_string()),
        PlayError::Illegal(Illegal::OffBoard(_)) => {
            Refusal::invalid(Reason::OffBoard, error.to_string())
        }
        PlayError::Illegal(_) => Refusal::precondition(Reason::IllegalMove, error.to_string()),
    }
}

fn game_over() -> Refusal {
    Refusal::precondition(Reason::GameOver, "the game is over")
}

impl GameState {
    /// The game `creation` makes at `moment`, numbered `id`, and its first log entry.
    pub fn create(
        id: GameId,
        creation: Creation,
        moment: Moment,
    ) -> Result<(GameState, Change), Refusal> {
        let Creation {
            ruleset,
            name,
            creator,
            seed,
            control,
        } = creation;
        let Some(entry) = catalog::ruleset(&ruleset) else {
            return Err(Refusal::invalid(
                Reason::UnknownRuleset,
                format!(
                    "there is no ruleset {}; the server hosts: {}",
                    Quoted(&ruleset),
                    catalog::ids().join(", ")
                ),
            ));
        };
        let (seat, token) = (creator.seat, creator.token);
        let mut table = Table {
            name: name.clone(),
            seats: BySeat::default(),
        };
        table.seats[seat] = creator.card();
        let mut tokens = BySeat::default();
        tokens[seat] = Some(token);
        let mut state = GameState {
            id,
            game: (entry.new_game)(seed),
            table: Arc::new(table),
            secrets: Arc::new(Secrets {
                seed,
                tokens,
                setups: BySeat::default(),
            }),
            created_ms: moment.at_ms,
            version: 0,
            last_event: None,
            clocks: Clocks::new(control),
        };
        let record = EventRecord {
            seat: Some(seat.index() as u32),
            entry: Some(Entry::Created(Created {
                ruleset,
                name,
                seed: seed.0.to_vec(),
                created_ms: moment.at_ms,
                creator: Some(creator.record()),
                time_control: control_record(control),
            })),
            ..EventRecord::default()
        };
        let change = state.advance(seat, EventKind::Created, None, record, moment, Some(token));
        Ok((state, change))
    }

    /// Applies `act` at `moment`: either refuses it and changes nothing, or changes the game
    /// and returns the change to append to its log.
    pub fn apply(&mut self, act: Act, moment: Moment) -> Result<Change, Refusal> {
        let before = self.phase();
        let (seat, kind, entry, token) = match act {
            Act::Join(occupant) => {
                if before == GamePhase::Finished {
                    return Err(game_over());
                }
                let seat = occupant.seat;
                if self.table.seats[seat].joined {
                    return Err(Refusal::precondition(
                        Reason::SeatTaken,
                        "both seats of this game are taken",
                    ));
                }
                if occupant
                    .account
                    .is_some_and(|account| self.seat_of_account(account).is_some())
                {
                    return Err(Refusal::precondition(
                        Reason::SeatTaken,
                        "your account holds the other seat: an account plays against somebody \
                         else",
                    ));
                }
                Arc::make_mut(&mut self.table).seats[seat] = occupant.card();
                Arc::make_mut(&mut self.secrets).tokens[seat] = Some(occupant.token);
                let joined = Entry::Joined(occupant.record());
                (seat, EventKind::Joined, joined, Some(occupant.token))
            }
            Act::Setup { setup, salt } => {
                if before == GamePhase::Finished {
                    return Err(game_over());
                }
                let seat = setup.seat();
                let canonical = setup.canonical_text(self.description());
                self.game
                    .submit_setup(setup)
                    .map_err(|e| Refusal::precondition(Reason::WrongPhase, e.to_string()))?;
                let committed = Committed {
                    salt,
                    canonical: canonical.clone(),
                };
                Arc::make_mut(&mut self.table).seats[seat].commitment =
                    Some(committed.commitment());
                Arc::make_mut(&mut self.secrets).setups[seat] = Some(committed);
                let entry = Entry::Setup(SetupRecord {
                    canonical,
                    salt: salt.to_vec(),
                });
                (seat, EventKind::SetupSubmitted, entry, None)
            }
            Act::Move { seat, action } => {
                if before == GamePhase::Waiting {
                    return Err(Refusal::precondition(
                        Reason::WrongPhase,
                        "the game has not started: waiting for a player to join",
                    ));
                }
                let played = self.game.play(seat, &action).map_err(play_error)?;
                let entry = Entry::Move(played.notation.clone());
                (seat, EventKind::Move { action, played }, entry, None)
            }
            Act::Resign { seat } => {
                let outcome = self.game.resign(seat).map_err(play_error)?;
                let entry = Entry::Resigned(Resigned {});
                (seat, EventKind::Resigned(outcome), entry, None)
            }
            Act::Claim { seat } => {
                let end = Outcome::win(seat, trinchera_rules::EndReason::Abandoned);
                let outcome = self.game.end(end).map_err(play_error)?;
                (
                    seat,
                    EventKind::Claimed(outcome),
                    Entry::Claimed(Ended {}),
                    None,
                )
            }
            Act::TimeOut { seat } => {
                let end = Outcome::win(!seat, trinchera_rules::EndReason::TimeForfeit);
                let outcome = self.game.end(end).map_err(play_error)?;
                (
                    seat,
                    EventKind::TimedOut(outcome),
                    Entry::TimedOut(Ended {}),
                    None,
                )
            }
            Act::Abort => {
                let Some(seat) = self.awaited() else {
                    return Err(Refusal::precondition(
                        Reason::WrongPhase,
                        "only a game that has not started can be called off",
                    ));
                };
                self.game.end(Outcome::ABORTED).map_err(play_error)?;
                (seat, EventKind::Aborted, Entry::Aborted(Ended {}), None)
            }
        };
        let record = EventRecord {
            seat: Some(seat.index() as u32),
            entry: Some(entry),
            ..EventRecord::default()
        };
        Ok(self.advance(seat, kind, Some(before), record, moment, token))
    }

    /// The seat a game that has not started waits for: the free one, or else the first
    /// whose setup is missing, or the first to move whose first action has not come.
    fn awaited(&self) -> Option<Seat> {
        match self.phase() {
            GamePhase::Waiting => self.free_seat(),
            GamePhase::Setup => Seat::BOTH
                .into_iter()
                .find(|&seat| self.game.awaits_setup(seat)),
            GamePhase::Playing => self.clocks.unstarted_running(),
            GamePhase::Finished => None,
        }
    }
}

impl Creation {
    /// The creation the first log entry `record` recorded.
    pub fn from_record(game: GameId, record: &EventRecord) -> Result<Creation, ReplayError> {
        let fail = |problem: String| ReplayError {
            game,
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
        let seat = record_seat(record).ok_or_else(|| fail("no valid seat".into()))?;
        let creator = created.creator.clone().unwrap_or_default();
        Ok(Creation {
            ruleset: created.ruleset.clone(),
            name: created.name.clone(),
            creator: Occupant::from_record(seat, &creator).map_err(fail)?,
            seed,
            control: control_of(created.time_control.as_ref()),
        })
    }
}

impl Act {
    /// The act the log entry `record`, the next one of `state`, recorded.
    pub fn from_record(state: &GameState, record: &EventRecord) -> Result<Act, ReplayError> {
        let fail = |problem: String| ReplayError {
            game: state.id,
            version: state.version + 1,
            problem,
        };
        let seat = record_seat(record).ok_or_else(|| fail("no valid seat".into()))?;
        let description = state.description();
        Ok(match &record.entry {
            Some(Entry::Joined(joined)) => {
                Act::Join(Occupant::from_record(seat, joined).map_err(fail)?)
            }
            Some(Entry::Setup(setup)) => Act::Setup {
                salt: setup
                    .salt
                    .as_slice()
                    .try_into()
                    .map_err(|_| fail("the salt is not 16 bytes".into()))?,
                setup: Setup::parse_canonical(description, &setup.canonical)
                    .and_then(|placements| Setup::validate(description, seat, &placements))
                    .map_err(|e| fail(e.describe(description)))?,
            },
            Some(Entry::Move(notation)) => Act::Move {
                seat,
                action: state
                    .game
                    .parse_notation(notation)
                    .map_err(|e| fail(e.to_string()))?,
            },
            Some(Entry::Resigned(_)) => Act::Resign { seat },
            Some(Entry::Aborted(_)) => Act::Abort,
            Some(Entry::TimedOut(_)) => Act::TimeOut { seat },
            Some(Entry::Claimed(_)) => Act::Claim { seat },
            Some(Entry::Created(_)) | None => return Err(fail("unexpected entry".into())),
        })
    }
}

/// The seat a log entry names.
fn record_seat(record: &EventRecord) -> Option<Seat> {
    record.seat.and_then(|s| Seat::from_index(s as usize))
}

fn token_hash(bytes: &[u8]) -> Option<TokenHash> {
    bytes.try_into().ok().map(TokenHash)
}

/// A bot level as logs name it ("" for a person).
fn bot_name(bot: Option<BotLevel>) -> String {
    bot.map(|level| level.name().to_owned()).unwrap_or_default()
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

/// A time control as stored (`None`: no clock).
pub fn control_record(control: TimeControl) -> Option<TimeControlRecord> {
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
