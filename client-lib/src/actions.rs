//! What a player's actions do on the board, from the public contract alone: the piece or
//! tank an action starts from, where a tank's maneuver ends and which way it then faces
//! (axial hex steps, board.proto), maneuvers in letters, and the cells an event's move
//! touched. Both clients use it to draw and to list moves.

use trinchera_proto::v1 as pb;
use trinchera_proto::v1::r#move::Action;

/// The axial step forward of a facing (board.proto).
fn forward(facing: pb::Facing) -> (i32, i32) {
    match facing {
        pb::Facing::E | pb::Facing::Unspecified => (1, 0),
        pb::Facing::Ne => (0, 1),
        pb::Facing::Nw => (-1, 1),
        pb::Facing::W => (-1, 0),
        pb::Facing::Sw => (0, -1),
        pb::Facing::Se => (1, -1),
    }
}

/// `facing` turned by `sixths` counter-clockwise.
fn turned(facing: pb::Facing, sixths: i32) -> pb::Facing {
    let index = (facing as i32 - 1 + sixths).rem_euclid(6);
    pb::Facing::try_from(index + 1).unwrap_or_default()
}

/// The hexes a maneuver passes and ends on, from a tank on `from` facing `facing`.
pub fn maneuver_path(
    from: pb::Cell,
    facing: pb::Facing,
    steps: &[pb::TankAction],
) -> (Vec<pb::Cell>, pb::Facing) {
    let (mut at, mut facing) = (from, facing);
    let mut path = Vec::new();
    for step in steps {
        match step {
            pb::TankAction::Forward => {
                let (dq, dr) = forward(facing);
                at = pb::Cell {
                    x: at.x + dq,
                    y: at.y + dr,
                };
                path.push(at);
            }
            pb::TankAction::TurnLeft => facing = turned(facing, 1),
            pb::TankAction::TurnRight => facing = turned(facing, -1),
            pb::TankAction::Unspecified => {}
        }
    }
    (path, facing)
}

/// A maneuver in letters: "FLF".
pub fn letters(steps: &[pb::TankAction]) -> String {
    steps
        .iter()
        .map(|s| match s {
            pb::TankAction::Forward => 'F',
            pb::TankAction::TurnLeft => 'L',
            pb::TankAction::TurnRight => 'R',
            pb::TankAction::Unspecified => '?',
        })
        .collect()
}

/// The cells of `event`'s move, to highlight as the last move.
pub fn move_cells(event: &pb::Event) -> Vec<pb::Cell> {
    let Some(action) = event.r#move.as_ref().and_then(|m| m.action.as_ref()) else {
        return Vec::new();
    };
    match action {
        Action::Step(step) => step.from.into_iter().chain(step.to).collect(),
        Action::Jump(jump) => jump.from.into_iter().chain(jump.landings.clone()).collect(),
        Action::Huff(huff) => huff.officer.into_iter().collect(),
        Action::Enter(enter) => enter.cell.into_iter().collect(),
        Action::Maneuver(m) => m.cell.into_iter().collect(),
        Action::Attack(attack) => attack
            .target
            .into_iter()
            .chain(attack.attackers.clone())
            .collect(),
        Action::EndPhase(_) => Vec::new(),
    }
}

/// The cell of the piece or tank that acts (a tank entering: its entry hex; an attack: the
/// target); `None` for ending a phase.
pub fn origin(action: &Action) -> Option<pb::Cell> {
    match action {
        Action::Step(step) => step.from,
        Action::Jump(jump) => jump.from,
        Action::Huff(huff) => huff.officer,
        Action::Enter(enter) => enter.cell,
        Action::Maneuver(maneuver) => maneuver.cell,
        Action::Attack(attack) => attack.target,
        Action::EndPhase(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_maneuver_turns_then_steps_forward() {
        use pb::TankAction::{Forward, TurnLeft, TurnRight};
        let at = |x, y| pb::Cell { x, y };
        // Facing E, turn left to NE, one hex forward: (0, 1).
        let (path, facing) = maneuver_path(at(0, 0), pb::Facing::E, &[TurnLeft, Forward]);
        assert_eq!((path, facing), (vec![at(0, 1)], pb::Facing::Ne));
        let (path, facing) = maneuver_path(at(0, 0), pb::Facing::E, &[TurnRight, Forward]);
        assert_eq!((path, facing), (vec![at(1, -1)], pb::Facing::Se));
        assert_eq!(letters(&[Forward, TurnLeft]), "FL");
    }
}
