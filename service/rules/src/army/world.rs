//! Army positions rebuilt from a view with every kind filled in (see [`crate::world`]).

use super::spec::Mobility;
use super::{Army, ArmyMove, EMPTY, Piece, Shuttle, Variant};
use crate::action::Action;
use crate::rules::{Rules, Seed};
use crate::seat::Seat;
use crate::view::{Status, View};
use crate::world::{Determinize, WorldError, pieces_by_id};

impl<V: Variant> Determinize for Army<V> {
    fn from_view(view: &View, legal: &[Action], _seed: Seed) -> Result<Self, WorldError> {
        let spec = V::spec();
        let Status::Army(status) = &view.status else {
            return Err(WorldError::WrongRuleset);
        };
        let to_move = view.to_move.ok_or(WorldError::NotPlaying)?;
        let mut army = Army::empty(to_move);
        let mut last_owner = Seat::First;
        for (piece, in_play) in pieces_by_id(view)? {
            let kind = piece.kind.ok_or(WorldError::UnknownKind(piece.id))?;
            if kind.index() >= spec.data.kinds.len() {
                return Err(WorldError::Inconsistent("a kind of another ruleset"));
            }
            if piece.owner < last_owner {
                return Err(WorldError::Inconsistent("seat 0's pieces come first"));
            }
            last_owner = piece.owner;
            let mobility = spec.kind(kind.0).mobility;
            if piece.moved && mobility == Mobility::Immovable {
                return Err(WorldError::Inconsistent("a piece that moved is immovable"));
            }
            match piece.cell.filter(|_| in_play) {
                Some(cell) => {
                    let square = spec
                        .board_square(cell)
                        .ok_or(WorldError::Inconsistent("a piece off the board"))?;
                    if army.board[square] != EMPTY {
                        return Err(WorldError::Inconsistent(
                            "a piece on a lake or on another piece",
                        ));
                    }
                    army.add(cell, kind, piece.owner);
                }
                None => {
                    army.pieces[usize::from(army.len)] = Piece {
                        kind: kind.0,
                        mobility,
                        owner: piece.owner,
                        ..Piece::NONE
                    };
                    army.len += 1;
                }
            }
            let added = &mut army.pieces[usize::from(army.len - 1)];
            added.revealed = piece.revealed;
            added.moved = piece.moved;
            added.conduct = piece.conduct;
        }
        army.quiet_turns = status.turns_without_battle;
        for &(cell, turns) in &status.castle_turns {
            let square = spec.square(cell) as u8;
            let castle = spec
                .castles
                .iter()
                .position(|&c| c == square)
                .ok_or(WorldError::Inconsistent("a castle count off the castles"))?;
            army.castle_turns[castle] = turns;
        }
        army.settle();
        if !legal.is_empty() {
            army.forbid_missing(legal)?;
        }
        Ok(army)
    }
}

impl<V: Variant> Army<V> {
    /// Sets the mover's repetition counter so that exactly the `legal` actions remain: the
    /// one move the view's list leaves out, if any, is the one the limit forbids.
    fn forbid_missing(&mut self, legal: &[Action]) -> Result<(), WorldError> {
        let not_listed = || WorldError::Inconsistent("the listed actions are not the legal ones");
        let listed = legal
            .iter()
            .map(|action| self.check(action).map_err(|_| not_listed()))
            .collect::<Result<Vec<ArmyMove>, _>>()?;
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let missing: Vec<ArmyMove> = moves
            .into_iter()
            .filter(|mv| !listed.contains(mv))
            .collect();
        match missing.as_slice() {
            [] if listed.len() == legal.len() => Ok(()),
            &[mv] if self.board[usize::from(mv.to)] == EMPTY => {
                self.shuttle[self.to_move] = Some(Shuttle {
                    slot: self.board[usize::from(mv.from)],
                    from: mv.to,
                    to: mv.from,
                    count: V::spec().data.repetition_limit,
                });
                Ok(())
            }
            _ => Err(not_listed()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::Frente;
    use crate::rules::PositionText;
    use crate::view::Sight;

    fn shuttled() -> Army<Frente> {
        let mut army =
            Army::<Frente>::from_position_text("f8r/91/91/91/2~~2~~2/2~~2~~2/91/91/91/F8R 0")
                .expect("a legal position");
        let mut effects = Vec::new();
        for action in ["j1-j2", "j10-j9", "j2-j1", "j9-j10", "j1-j2", "j10-j9"] {
            let action = Army::<Frente>::parse_notation(action).expect("notation");
            let mv = army.check(&action).expect("legal");
            army.play_unchecked(mv, &mut effects);
        }
        army
    }

    fn legal_actions(army: &Army<Frente>) -> Vec<Action> {
        let mut moves = Vec::new();
        army.legal_moves(&mut moves);
        moves.into_iter().map(|mv| army.action(mv)).collect()
    }

    #[test]
    fn the_forbidden_shuttle_is_rebuilt_from_the_legal_list() {
        let army = shuttled();
        let legal = legal_actions(&army);
        assert!(!legal.contains(&Action::Step {
            from: crate::cell::Cell::new(9, 1),
            to: crate::cell::Cell::new(9, 0),
        }));
        let view = army.view(Sight::Everything);
        let rebuilt = Army::<Frente>::from_view(&view, &legal, Seed([0; 32])).expect("a world");
        assert_eq!(legal_actions(&rebuilt), legal);
        let forgetful = Army::<Frente>::from_view(&view, &[], Seed([0; 32])).expect("a world");
        assert_eq!(legal_actions(&forgetful).len(), legal.len() + 1);
    }

    #[test]
    fn a_hidden_kind_must_be_guessed() {
        let army = shuttled();
        let view = army.view(Sight::Of(crate::seat::Viewer::Player(Seat::First)));
        assert!(matches!(
            Army::<Frente>::from_view(&view, &[], Seed([0; 32])),
            Err(WorldError::UnknownKind(_))
        ));
    }

    #[test]
    fn a_list_that_is_not_the_legal_one_is_refused() {
        let army = shuttled();
        let view = army.view(Sight::Everything);
        let mut legal = legal_actions(&army);
        legal.truncate(1);
        assert_eq!(
            Army::<Frente>::from_view(&view, &legal, Seed([0; 32])).err(),
            Some(WorldError::Inconsistent(
                "the listed actions are not the legal ones"
            ))
        );
    }
}
