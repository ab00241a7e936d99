//! A whole game of any ruleset, from setup to result, behind one object-safe interface:
//! what the service holds, stores and serves.

use std::fmt;

use crate::action::Action;
use crate::cell::Cell;
use crate::conduct::Conduct;
use crate::describe::{Description, KindId};
use crate::effect::Effect;
use crate::error::NotationError;
use crate::illegal::Illegal;
use crate::outcome::{EndReason, Outcome};
use crate::rules::{Rules, Seed};
use crate::seat::{BySeat, Seat, Viewer};
use crate::setup::Setup;
use crate::view::{PieceId, PieceView, Sight, Status, View};

/// Where a game stands, as far as the rules are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Waiting for at least one seat's setup.
    Setup,
    /// Being played.
    Playing,
    /// Over: see [`Game::outcome`].
    Finished,
}

/// A legal action with its canonical notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalAction {
    /// The action in the API's shape.
    pub action: Action,
    /// Its canonical notation, accepted back by [`Game::parse_notation`].
    pub notation: String,
}

/// What a successful action did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The action's canonical notation in the position it was played in.
    pub notation: String,
    /// Its consequences, in order.
    pub effects: Vec<Effect>,
}

/// Why an action on a game was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// Setups are still missing.
    #[error("the game has not started yet: waiting for setups")]
    NotStarted,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The other seat is to move.
    #[error("it is not your turn ({0} to move)")]
    NotYourTurn(&'static str),
    /// The rules forbid the action.
    #[error(transparent)]
    Illegal(#[from] Illegal),
}

/// Why a setup was refused at this point of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupRefused {
    /// The seat places nothing in this ruleset.
    #[error("{0} places no pieces in this game")]
    NoSetup(&'static str),
    /// The seat already submitted one.
    #[error("{0} has already submitted a setup")]
    AlreadySubmitted(&'static str),
    /// Play has started or ended.
    #[error("the setup phase is over")]
    PhaseOver,
}

/// A game of any ruleset, from setup to result. Object safe: the service holds
/// `Box<dyn Game>` and never names a ruleset.
pub trait Game: fmt::Debug + Send + Sync {
    /// The ruleset's description.
    fn description(&self) -> &'static Description;

    /// Setup, playing or finished.
    fn phase(&self) -> Phase;

    /// Whether `seat` still has to submit a setup.
    fn awaits_setup(&self, seat: Seat) -> bool;

    /// The setup `seat` submitted, if any.
    fn setup(&self, seat: Seat) -> Option<&Setup>;

    /// Accepts a validated setup; play starts when every seat's setup is in.
    fn submit_setup(&mut self, setup: Setup) -> Result<(), SetupRefused>;

    /// The seat to act, while playing.
    fn to_move(&self) -> Option<Seat>;

    /// Every legal action of the seat to move, with notation; empty unless playing.
    fn legal_actions(&self) -> Vec<LegalAction>;

    /// Reads a move in this ruleset's notation (syntax and cells only).
    fn parse_notation(&self, text: &str) -> Result<Action, NotationError>;

    /// Plays `action` for `seat`; on error nothing changed.
    fn play(&mut self, seat: Seat, action: &Action) -> Result<Played, PlayError>;

    /// `seat` gives up: the other seat wins.
    fn resign(&mut self, seat: Seat) -> Result<Outcome, PlayError>;

    /// Ends the game with an outcome decided outside the rules (a server's: called off,
    /// out of time, abandoned). Refused once the game is over.
    fn end(&mut self, outcome: Outcome) -> Result<Outcome, PlayError>;

    /// The result, once finished.
    fn outcome(&self) -> Option<Outcome>;

    /// The game as `viewer` may see it (everything once it is over).
    fn view(&self, viewer: Viewer) -> View {
        let sight = if self.outcome().is_some() {
            Sight::Everything
        } else {
            Sight::Of(viewer)
        };
        self.view_in(sight)
    }

    /// The game as far as `sight` reaches, over or not (a replay of a finished game shows
    /// every step with everything revealed).
    fn view_in(&self, sight: Sight) -> View;

    /// A copy of the game.
    fn clone_box(&self) -> Box<dyn Game>;
}

impl Clone for Box<dyn Game> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The [`Game`] of a ruleset `R`: setups, then the position, plus resignation.
#[derive(Clone, Debug)]
pub struct Match<R: Rules> {
    seed: Seed,
    setups: BySeat<Option<Setup>>,
    position: Option<R>,
    /// An end decided outside the rules: a resignation or an abort.
    ended: Option<Outcome>,
}

impl<R: Rules> Match<R> {
    /// A new game; it starts at once if no seat sets up.
    pub fn new(seed: Seed) -> Self {
        let mut game = Match {
            seed,
            setups: BySeat([None, None]),
            position: None,
            ended: None,
        };
        game.start_if_ready();
        game
    }

    /// The position in play, if the game has started.
    pub fn position(&self) -> Option<&R> {
        self.position.as_ref()
    }

    fn start_if_ready(&mut self) {
        let ready = Seat::BOTH.into_iter().all(|seat| !self.awaits_setup(seat));
        if ready && self.position.is_none() {
            self.position = Some(R::start(&self.setups, self.seed));
        }
    }

    fn seat_name(seat: Seat) -> &'static str {
        R::description().seats[seat].name
    }

    /// The pieces `sight` may see before play starts: fixed pieces, public setups, and
    /// the viewer's own setup. Ids follow the starting order used in play: each seat's
    /// fixed pieces, then its placed ones, seat 0 first.
    fn setup_view(&self, sight: Sight) -> View {
        let description = R::description();
        let fixed = R::fixed_pieces();
        let mut pieces = Vec::new();
        let mut next_id = 0;
        // `revealed` as in play: whether the opponent knows the kind. Fixed pieces and
        // pieces of a public setup are known to everybody.
        let mut push = |owner: Seat, cell: Cell, kind: KindId, id: u32, revealed: bool| {
            pieces.push(PieceView {
                id: PieceId(id),
                cell: Some(cell),
                owner,
                kind: Some(kind),
                revealed,
                moved: false,
                facing: None,
                conduct: Conduct::default(),
            });
        };
        for seat in Seat::BOTH {
            for &(_, cell, kind) in fixed.iter().filter(|(owner, ..)| *owner == seat) {
                push(seat, cell, kind, next_id, true);
                next_id += 1;
            }
            let Some(zone) = description.setup_zone(seat) else {
                continue;
            };
            if let Some(setup) = self.setups[seat]
                .as_ref()
                .filter(|_| sight.sees_kind(seat, !zone.hidden))
            {
                for (&(cell, kind), id) in setup.pieces().iter().zip(next_id..) {
                    push(seat, cell, kind, id, !zone.hidden);
                }
            }
            next_id += zone
                .pieces
                .iter()
                .map(|&(_, count)| u32::from(count))
                .sum::<u32>();
        }
        View {
            to_move: None,
            pieces,
            captured: Vec::new(),
            status: Status::Setup,
        }
    }
}

impl<R: Rules> Game for Match<R> {
    fn description(&self) -> &'static Description {
        R::description()
    }

    fn phase(&self) -> Phase {
        match (&self.position, self.outcome()) {
            (_, Some(_)) => Phase::Finished,
            (Some(_), None) => Phase::Playing,
            (None, None) => Phase::Setup,
        }
    }

    fn awaits_setup(&self, seat: Seat) -> bool {
        R::description().setup_zone(seat).is_some() && self.setups[seat].is_none()
    }

    fn setup(&self, seat: Seat) -> Option<&Setup> {
        self.setups[seat].as_ref()
    }

    fn submit_setup(&mut self, setup: Setup) -> Result<(), SetupRefused> {
        let seat = setup.seat();
        if self.phase() != Phase::Setup {
            return Err(SetupRefused::PhaseOver);
        }
        if R::description().setup_zone(seat).is_none() {
            return Err(SetupRefused::NoSetup(Self::seat_name(seat)));
        }
        if self.setups[seat].is_some() {
            return Err(SetupRefused::AlreadySubmitted(Self::seat_name(seat)));
        }
        self.setups[seat] = Some(setup);
        self.start_if_ready();
        Ok(())
    }

    fn to_move(&self) -> Option<Seat> {
        match (&self.position, self.ended) {
            (Some(position), None) if position.outcome().is_none() => Some(position.to_move()),
            _ => None,
        }
    }

    fn legal_actions(&self) -> Vec<LegalAction> {
        let Some(position) = self.position.as_ref().filter(|_| self.ended.is_none()) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| LegalAction {
                action: position.action(mv),
                notation: position.notation(mv),
            })
            .collect()
    }

    fn parse_notation(&self, text: &str) -> Result<Action, NotationError> {
        R::parse_notation(text)
    }

    fn play(&mut self, seat: Seat, action: &Action) -> Result<Played, PlayError> {
        if self.outcome().is_some() {
            return Err(PlayError::GameOver);
        }
        let Some(position) = self.position.as_mut() else {
            return Err(PlayError::NotStarted);
        };
        if position.to_move() != seat {
            return Err(PlayError::NotYourTurn(Self::seat_name(!seat)));
        }
        let mv = position.check(action)?;
        let notation = position.notation(mv);
        let mut effects = Vec::new();
        position.play_in_game(mv, &mut effects);
        Ok(Played { notation, effects })
    }

    fn resign(&mut self, seat: Seat) -> Result<Outcome, PlayError> {
        if self.outcome().is_some() {
            return Err(PlayError::GameOver);
        }
        let outcome = Outcome::win(!seat, EndReason::Resigned);
        self.ended = Some(outcome);
        Ok(outcome)
    }

    fn end(&mut self, outcome: Outcome) -> Result<Outcome, PlayError> {
        if self.outcome().is_some() {
            return Err(PlayError::GameOver);
        }
        self.ended = Some(outcome);
        Ok(outcome)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.ended
            .or_else(|| self.position.as_ref().and_then(R::outcome))
    }

    fn view_in(&self, sight: Sight) -> View {
        let mut view = match &self.position {
            Some(position) => position.view(sight),
            None => self.setup_view(sight),
        };
        view.to_move = self.to_move();
        view
    }

    fn clone_box(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Outcome, PlayError, Seed, catalog};

    #[test]
    fn an_aborted_game_is_over_without_a_winner_or_a_draw() {
        for ruleset in catalog::RULESETS {
            let mut game = (ruleset.new_game)(Seed([3; 32]));
            assert_eq!(
                game.end(Outcome::ABORTED),
                Ok(Outcome::ABORTED),
                "{ruleset:?}"
            );
            assert_eq!(game.outcome(), Some(Outcome::ABORTED));
            assert!(!Outcome::ABORTED.is_draw());
            assert_eq!(game.to_move(), None);
            assert!(game.legal_actions().is_empty());
            assert_eq!(game.end(Outcome::ABORTED), Err(PlayError::GameOver));
        }
    }
}
