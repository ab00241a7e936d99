//! What listings and the server's periodic queries ask the store about games: the phase
//! and speed class a summary records, a page of a listing, the unfinished and unstarted
//! games, and the [`Traits`] every backend indexes.

use crate::ids::{AccountId, GameId};
use crate::records::SummaryRecord;

/// Where a game stands: what its summary records and listings filter by.
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
    /// Every phase, in order.
    pub const ALL: [GamePhase; 4] = [
        GamePhase::Waiting,
        GamePhase::Setup,
        GamePhase::Playing,
        GamePhase::Finished,
    ];

    /// The `trinchera.v1.Phase` number, also stored in summaries.
    pub const fn number(self) -> i32 {
        match self {
            GamePhase::Waiting => 1,
            GamePhase::Setup => 2,
            GamePhase::Playing => 3,
            GamePhase::Finished => 4,
        }
    }

    /// The phase of a `trinchera.v1.Phase` number.
    pub fn from_number(number: i32) -> Option<GamePhase> {
        GamePhase::ALL
            .into_iter()
            .find(|phase| phase.number() == number)
    }
}

/// A speed class, for listings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Speed {
    /// No clock.
    Untimed,
    /// Live, expected under 3 minutes a seat.
    Bullet,
    /// Live, under 8 minutes.
    Blitz,
    /// Live, under 25 minutes.
    Rapid,
    /// Live, longer.
    Classical,
    /// A deadline per turn.
    Correspondence,
}

impl Speed {
    /// Every class, in the order of `trinchera.v1.Speed` (from 1).
    pub const ALL: [Speed; 6] = [
        Speed::Untimed,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The `trinchera.v1.Speed` number, also kept in summaries.
    pub fn number(self) -> i32 {
        Speed::ALL
            .iter()
            .position(|&s| s == self)
            .map_or(0, |i| i as i32 + 1)
    }

    /// The class of a `trinchera.v1.Speed` number.
    pub fn from_number(number: i32) -> Option<Speed> {
        usize::try_from(number - 1)
            .ok()
            .and_then(|i| Speed::ALL.get(i).copied())
    }
}

/// A page of a game listing: games below `before` (newest first) that pass the filters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListQuery {
    /// Only games in this phase.
    pub phase: Option<GamePhase>,
    /// Only games of this ruleset (its index in the catalog).
    pub ruleset: Option<usize>,
    /// Only games of this speed class.
    pub speed: Option<Speed>,
    /// Only games in which this account holds a seat (see [`SummaryRecord::accounts`]).
    pub player: Option<AccountId>,
    /// Only games with ids below this one (the previous page's last); `None`: from the
    /// newest.
    pub before: Option<GameId>,
    /// Games at most.
    pub limit: usize,
}

/// Which unfinished games a query asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfinished {
    /// Every one.
    All,
    /// Those with a bot in a seat.
    WithBots,
    /// Those between two bots.
    Exhibitions,
    /// Those with a time control.
    Timed,
}

/// A game that has not started: since when it waits, and for what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unstarted {
    /// The game.
    pub game: GameId,
    /// Waiting for a player, or for setups.
    pub phase: GamePhase,
    /// Since when, in ms since the Unix epoch.
    pub since_ms: u64,
}

/// Which of a game's traits the listing and the queries of unfinished games look at, read
/// from its summary: what every backend indexes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits {
    /// The ruleset's index in the catalog, `None` for a ruleset this build does not host.
    pub ruleset: Option<usize>,
    /// The phase.
    pub phase: Option<GamePhase>,
    /// The speed class.
    pub speed: Option<Speed>,
    /// Seats played by the server's bots.
    pub bots: usize,
}

impl Traits {
    /// The traits `summary` shows.
    pub fn of(summary: &SummaryRecord) -> Traits {
        Traits {
            ruleset: trinchera_rules::catalog::RULESETS
                .iter()
                .position(|r| (r.description)().id == summary.ruleset),
            phase: GamePhase::from_number(summary.phase),
            speed: Some(Speed::from_number(summary.speed).unwrap_or(Speed::Untimed)),
            bots: summary.bot_seats(),
        }
    }

    /// Whether the game is not over.
    pub fn unfinished(self) -> bool {
        self.phase.is_some_and(|phase| phase != GamePhase::Finished)
    }

    /// Whether the game is an unfinished game of kind `which`.
    pub fn is(self, which: Unfinished) -> bool {
        self.unfinished()
            && match which {
                Unfinished::All => true,
                Unfinished::WithBots => self.bots > 0,
                Unfinished::Exhibitions => self.bots >= 2,
                Unfinished::Timed => self.speed.is_some_and(|speed| speed != Speed::Untimed),
            }
    }

    /// Whether the game passes the filters of `query`.
    pub fn matches(self, query: &ListQuery) -> bool {
        self.phase.is_some()
            && query.phase.is_none_or(|phase| self.phase == Some(phase))
            && query
                .ruleset
                .is_none_or(|index| self.ruleset == Some(index))
            && query.speed.is_none_or(|speed| self.speed == Some(speed))
    }

    /// When a game that has not started entered its phase, from its summary.
    pub fn unstarted(game: GameId, summary: &SummaryRecord) -> Option<Unstarted> {
        let phase = GamePhase::from_number(summary.phase)?;
        matches!(phase, GamePhase::Waiting | GamePhase::Setup).then(|| Unstarted {
            game,
            phase,
            since_ms: summary.phase_since_ms(),
        })
    }
}
