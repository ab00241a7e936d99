//! Tanques positions rebuilt from a view (see [`crate::world`]): everything is public but
//! the dice seed, which the caller guesses.

use super::board::{self, BOARD, HEXES};
use super::{EMPTY, GONE, RESERVE, TANKS, Tank, Tanques, bit, ids};
use crate::action::{Action, Facing};
use crate::cell::Cell;
use crate::rules::Seed;
use crate::seat::{BySeat, Seat};
use crate::view::{Status, View};
use crate::world::{Determinize, WorldError, pieces_by_id};

/// The 32 bytes written as 64 lowercase hex digits.
fn parse_commitment(text: &str) -> Option<[u8; 32]> {
    let mut bytes = [0; 32];
    if text.len() != 64 {
        return None;
    }
    for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(bytes)
}

impl Determinize for Tanques {
    fn from_view(view: &View, _legal: &[Action], seed: Seed) -> Result<Self, WorldError> {
        let Status::Tanques(status) = &view.status else {
            return Err(WorldError::WrongRuleset);
        };
        let to_move = view.to_move.ok_or(WorldError::NotPlaying)?;
        let pieces = pieces_by_id(view)?;
        if pieces.len() != 2 * usize::from(TANKS) {
            return Err(WorldError::Inconsistent("each seat has 12 tanks"));
        }
        let mut tanques = Tanques {
            board: [EMPTY; HEXES + 1],
            tanks: [Tank {
                hex: RESERVE,
                facing: Facing::E,
            }; 2 * TANKS as usize],
            reserve: BySeat([0; 2]),
            control: [None; board::URBAN_HEXES],
            round: status.round,
            to_move,
            phase: status.phase,
            maneuvers_left: status.maneuvers_left,
            maneuvered: 0,
            attacked: 0,
            moved: 0,
            quiet_final_turns: status.final_turns_without_attack,
            rolls: status.rolls,
            seed,
            commitment: parse_commitment(&status.dice_commitment).ok_or(
                WorldError::Inconsistent("a dice commitment that is not hex"),
            )?,
            outcome: None,
        };
        for (id, (piece, in_play)) in pieces.into_iter().enumerate() {
            let id = id as u8;
            let owner = Tanques::owner(id);
            if piece.owner != owner {
                return Err(WorldError::Inconsistent("seat 0's tanks come first"));
            }
            if piece.moved {
                tanques.moved |= bit(id);
            }
            let tank = &mut tanques.tanks[usize::from(id)];
            tank.facing = piece.facing.unwrap_or(Facing::E);
            tank.hex = match (in_play, piece.cell) {
                (false, _) => GONE,
                (true, None) => {
                    // Reserve tanks enter in id order: they are the seat's last ids.
                    tanques.reserve[owner] += 1;
                    RESERVE
                }
                (true, Some(cell)) => {
                    let hex =
                        board::hex(cell).ok_or(WorldError::Inconsistent("a tank off the board"))?;
                    if tanques.board[usize::from(hex)] != EMPTY {
                        return Err(WorldError::Inconsistent("two tanks on one hex"));
                    }
                    tanques.board[usize::from(hex)] = id;
                    hex
                }
            };
        }
        for seat in Seat::BOTH {
            let first_reserve = ids(seat).end - tanques.reserve[seat];
            if ids(seat)
                .any(|id| (tanques.tanks[usize::from(id)].hex == RESERVE) != (id >= first_reserve))
            {
                return Err(WorldError::Inconsistent(
                    "reserve tanks are a seat's last ids",
                ));
            }
        }
        if status.control.len() != BOARD.urban.len() {
            return Err(WorldError::Inconsistent("the urban hexes are the board's"));
        }
        for ((control, &hex), &(cell, seat)) in tanques
            .control
            .iter_mut()
            .zip(&BOARD.urban)
            .zip(&status.control)
        {
            if board::cell(hex) != cell {
                return Err(WorldError::Inconsistent("the urban hexes are the board's"));
            }
            *control = seat;
        }
        tanques.maneuvered = tanques.mask(&status.maneuvered)?;
        tanques.attacked = tanques.mask(&status.attacked)?;
        Ok(tanques)
    }
}

impl Tanques {
    /// The mask of the tanks on `cells`.
    fn mask(&self, cells: &[Cell]) -> Result<u32, WorldError> {
        cells.iter().try_fold(0, |mask, &cell| {
            let id = board::hex(cell)
                .map(|hex| self.board[usize::from(hex)])
                .filter(|&id| id != EMPTY)
                .ok_or(WorldError::Inconsistent("a marked tank that is not there"))?;
            Ok(mask | bit(id))
        })
    }
}
