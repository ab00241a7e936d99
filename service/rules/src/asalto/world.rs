//! Asalto positions rebuilt from a view (see [`crate::world`]): nothing is hidden, so the
//! rebuilt position is the real one but for whether the rebels already huffed this turn.

use std::marker::PhantomData;

use super::board::{self, bit};
use super::{GONE, MAX_PIECES, OFFICER, REBEL, Siege, Variant};
use crate::action::Action;
use crate::rules::Seed;
use crate::seat::Seat;
use crate::view::{Status, View};
use crate::world::{Determinize, WorldError, pieces_by_id};

impl<V: Variant> Determinize for Siege<V> {
    fn from_view(view: &View, _legal: &[Action], _seed: Seed) -> Result<Self, WorldError> {
        let Status::Asalto(status) = &view.status else {
            return Err(WorldError::WrongRuleset);
        };
        let to_move = view.to_move.ok_or(WorldError::NotPlaying)?;
        let pieces = pieces_by_id(view)?;
        if pieces.len() > MAX_PIECES {
            return Err(WorldError::Inconsistent("more pieces than the game has"));
        }
        let first_officer = pieces
            .iter()
            .take_while(|(piece, _)| piece.owner == Seat::First)
            .count() as u8;
        let mut position = Siege {
            rebels: 0,
            officers: 0,
            huffable: 0,
            capturers: 0,
            rebel_count: 0,
            to_move,
            huffed: false,
            quiet_turns: status.turns_without_progress,
            outcome: None,
            first_officer,
            piece_count: pieces.len() as u8,
            moved: 0,
            id_at: [GONE; board::SQUARES],
            square_of: [GONE; MAX_PIECES],
            variant: PhantomData,
        };
        for (id, (piece, in_play)) in pieces.into_iter().enumerate() {
            let rebel = (id as u8) < first_officer;
            let (owner, kind) = if rebel {
                (Seat::First, REBEL)
            } else {
                (Seat::Second, OFFICER)
            };
            if piece.owner != owner || piece.kind.is_some_and(|k| k != kind) {
                return Err(WorldError::Inconsistent("rebels come first, then officers"));
            }
            if piece.moved {
                position.moved |= 1 << id;
            }
            let Some(cell) = piece.cell.filter(|_| in_play) else {
                continue;
            };
            let s = board::square(cell).ok_or(WorldError::Inconsistent("a piece off the board"))?;
            if (position.rebels | position.officers) & bit(s) != 0 {
                return Err(WorldError::Inconsistent("two pieces on one point"));
            }
            if rebel {
                position.rebels |= bit(s);
                position.rebel_count += 1;
            } else {
                position.officers |= bit(s);
            }
            position.id_at[usize::from(s)] = id as u8;
            position.square_of[id] = s;
        }
        for &cell in &status.huffable {
            match board::square(cell) {
                Some(s) if position.officers & bit(s) != 0 => position.huffable |= bit(s),
                _ => {
                    return Err(WorldError::Inconsistent(
                        "a huffable point without an officer",
                    ));
                }
            }
        }
        position.settle();
        Ok(position)
    }
}
