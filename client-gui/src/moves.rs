//! Turning clicks into actions, from `GameView.legal_moves` alone: pick a piece and one of
//! its destinations; build an asalto capture chain landing by landing; pick a tanques entry
//! hex and a facing, a maneuver letter by letter, or a target and its attackers.

use std::collections::HashMap;

use trinchera_proto::v1 as pb;
use trinchera_proto::v1::r#move::Action;

use trinchera_client::actions::maneuver_path;
pub use trinchera_client::actions::{letters, move_cells};

use crate::board::Mark;

/// What the player has picked so far of the next action.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Pending {
    /// Nothing.
    #[default]
    Nothing,
    /// A piece, and the landings of a capture chain so far.
    Piece {
        /// Where it stands.
        from: pb::Cell,
        /// The landings clicked so far.
        path: Vec<pb::Cell>,
    },
    /// An entry hex; the facing comes next.
    Enter {
        /// The hex.
        cell: pb::Cell,
    },
    /// A tank and the maneuver letters so far.
    Maneuver {
        /// Where it stands.
        from: pb::Cell,
        /// The steps and turns so far.
        actions: Vec<pb::TankAction>,
    },
    /// An enemy tank and the attackers chosen against it.
    Attack {
        /// The target.
        target: pb::Cell,
        /// The attackers chosen.
        attackers: Vec<pb::Cell>,
        /// Who moves in if the attack succeeds.
        advance: Option<pb::Cell>,
        /// Who is lost if it fails (`None`: the first attacker).
        casualty: Option<pb::Cell>,
    },
}

fn key(cell: pb::Cell) -> (i32, i32) {
    (cell.x, cell.y)
}

/// The legal actions, typed.
fn actions(legal: &[pb::LegalMove]) -> impl Iterator<Item = &Action> {
    legal
        .iter()
        .filter_map(|m| m.r#move.as_ref()?.action.as_ref())
}

/// Whether a piece on `cell` has a step or a capture chain.
fn moves_from(legal: &[pb::LegalMove], cell: pb::Cell) -> bool {
    actions(legal).any(|a| match a {
        Action::Step(step) => step.from == Some(cell),
        Action::Jump(jump) => jump.from == Some(cell),
        _ => false,
    })
}

/// The capture chains from `from` that begin with `path`.
fn chains<'a>(
    legal: &'a [pb::LegalMove],
    from: pb::Cell,
    path: &'a [pb::Cell],
) -> impl Iterator<Item = &'a pb::Jump> {
    actions(legal).filter_map(move |a| match a {
        Action::Jump(jump) if jump.from == Some(from) && jump.landings.starts_with(path) => {
            Some(jump)
        }
        _ => None,
    })
}

/// The maneuver sequences of the tank on `from` that begin with `actions`.
fn maneuvers<'a>(
    legal: &'a [pb::LegalMove],
    from: pb::Cell,
    done: &'a [pb::TankAction],
) -> impl Iterator<Item = Vec<pb::TankAction>> + 'a {
    actions(legal).filter_map(move |a| match a {
        Action::Maneuver(m) if m.cell == Some(from) => {
            let steps: Vec<pb::TankAction> = m.actions().collect();
            steps.starts_with(done).then_some(steps)
        }
        _ => None,
    })
}

/// The attacker sets the server lists against `target`.
fn attacks(legal: &[pb::LegalMove], target: pb::Cell) -> impl Iterator<Item = &pb::Attack> {
    actions(legal).filter_map(move |a| match a {
        Action::Attack(attack) if attack.target == Some(target) => Some(attack),
        _ => None,
    })
}

impl Pending {
    /// Handles a click on `cell`; returns the action when the click completes one.
    pub fn click(&mut self, cell: pb::Cell, legal: &[pb::LegalMove]) -> Option<pb::Move> {
        match self {
            Pending::Piece { from, path } => {
                let (from, path) = (*from, path.clone());
                if cell == from && path.is_empty() {
                    *self = Pending::Nothing;
                    return None;
                }
                if path.is_empty()
                    && actions(legal).any(
                        |a| matches!(a, Action::Step(s) if s.from == Some(from) && s.to == Some(cell)),
                    )
                {
                    *self = Pending::Nothing;
                    return Some(action(Action::Step(pb::Step {
                        from: Some(from),
                        to: Some(cell),
                    })));
                }
                let mut longer = path.clone();
                longer.push(cell);
                if chains(legal, from, &longer).next().is_some() {
                    let complete = chains(legal, from, &longer).any(|j| j.landings == longer);
                    let more =
                        chains(legal, from, &longer).any(|j| j.landings.len() > longer.len());
                    if complete && !more {
                        *self = Pending::Nothing;
                        return Some(jump(from, longer));
                    }
                    *self = Pending::Piece { from, path: longer };
                    return None;
                }
                self.pick(cell, legal);
                None
            }
            Pending::Attack {
                target, attackers, ..
            } if cell != *target
                && attacks(legal, *target).any(|a| a.attackers.contains(&cell)) =>
            {
                if let Some(at) = attackers.iter().position(|a| *a == cell) {
                    attackers.remove(at);
                } else {
                    attackers.push(cell);
                }
                None
            }
            Pending::Nothing
            | Pending::Enter { .. }
            | Pending::Maneuver { .. }
            | Pending::Attack { .. } => {
                if self.selected() == Some(cell) {
                    *self = Pending::Nothing;
                } else {
                    self.pick(cell, legal);
                }
                None
            }
        }
    }

    /// Starts over from `cell`: a piece to move, an entry hex, a tank, a target.
    fn pick(&mut self, cell: pb::Cell, legal: &[pb::LegalMove]) {
        *self = if moves_from(legal, cell) {
            Pending::Piece {
                from: cell,
                path: Vec::new(),
            }
        } else if actions(legal).any(|a| matches!(a, Action::Enter(e) if e.cell == Some(cell))) {
            Pending::Enter { cell }
        } else if maneuvers(legal, cell, &[]).next().is_some() {
            Pending::Maneuver {
                from: cell,
                actions: Vec::new(),
            }
        } else if let Some(first) = attacks(legal, cell).next() {
            Pending::Attack {
                target: cell,
                attackers: first.attackers.clone(),
                advance: None,
                casualty: None,
            }
        } else {
            Pending::Nothing
        };
    }

    /// The cell picked first, if any.
    pub fn selected(&self) -> Option<pb::Cell> {
        match self {
            Pending::Nothing => None,
            Pending::Piece { from, .. } | Pending::Maneuver { from, .. } => Some(*from),
            Pending::Enter { cell } => Some(*cell),
            Pending::Attack { target, .. } => Some(*target),
        }
    }

    /// The highlights of the board: what is picked, where it may go, the last move.
    pub fn marks(
        &self,
        legal: &[pb::LegalMove],
        pieces: &[pb::Piece],
        last: &[pb::Cell],
    ) -> HashMap<(i32, i32), Mark> {
        let mut marks: HashMap<(i32, i32), Mark> =
            last.iter().map(|c| (key(*c), Mark::LastMove)).collect();
        match self {
            Pending::Nothing => {}
            Pending::Piece { from, path } => {
                marks.insert(key(*from), Mark::Selected);
                for landing in path {
                    marks.insert(key(*landing), Mark::Path);
                }
                if path.is_empty() {
                    for a in actions(legal) {
                        if let Action::Step(step) = a
                            && step.from == Some(*from)
                            && let Some(to) = step.to
                        {
                            marks.insert(key(to), Mark::Target);
                        }
                    }
                }
                for chain in chains(legal, *from, path) {
                    if let Some(next) = chain.landings.get(path.len()) {
                        marks.insert(key(*next), Mark::Target);
                    }
                }
            }
            Pending::Enter { cell } => {
                marks.insert(key(*cell), Mark::Selected);
            }
            Pending::Maneuver {
                from,
                actions: done,
            } => {
                marks.insert(key(*from), Mark::Selected);
                let facing = pieces
                    .iter()
                    .find(|p| p.cell == Some(*from))
                    .and_then(|p| p.facing)
                    .and_then(|f| pb::Facing::try_from(f).ok())
                    .unwrap_or_default();
                let (path, _) = maneuver_path(*from, facing, done);
                for cell in &path {
                    marks.insert(key(*cell), Mark::Path);
                }
                for sequence in maneuvers(legal, *from, done) {
                    let (ends, _) = maneuver_path(*from, facing, &sequence);
                    if let Some(end) = ends.last()
                        && !marks.contains_key(&key(*end))
                    {
                        marks.insert(key(*end), Mark::Target);
                    }
                }
            }
            Pending::Attack {
                target, attackers, ..
            } => {
                marks.insert(key(*target), Mark::Selected);
                for attack in attacks(legal, *target) {
                    for cell in &attack.attackers {
                        marks.insert(key(*cell), Mark::Target);
                    }
                }
                for cell in attackers {
                    marks.insert(key(*cell), Mark::Path);
                }
            }
        }
        marks
    }

    /// A chain that may stop where it is: the action that stops it.
    pub fn stop_here(&self, legal: &[pb::LegalMove]) -> Option<pb::Move> {
        let Pending::Piece { from, path } = self else {
            return None;
        };
        (!path.is_empty() && chains(legal, *from, path).any(|j| j.landings == *path))
            .then(|| jump(*from, path.clone()))
    }

    /// The facings a tank may enter with on the picked entry hex.
    pub fn entry_facings(&self, legal: &[pb::LegalMove]) -> Vec<(pb::Move, pb::Facing)> {
        let Pending::Enter { cell } = self else {
            return Vec::new();
        };
        actions(legal)
            .filter_map(|a| match a {
                Action::Enter(enter) if enter.cell == Some(*cell) => {
                    Some((action(a.clone()), enter.facing()))
                }
                _ => None,
            })
            .collect()
    }

    /// The maneuver letters that may come next, and the picked maneuver if it is complete.
    pub fn maneuver_options(
        &self,
        legal: &[pb::LegalMove],
    ) -> Option<(Vec<pb::TankAction>, Option<pb::Move>)> {
        let Pending::Maneuver {
            from,
            actions: done,
        } = self
        else {
            return None;
        };
        let mut next = Vec::new();
        let mut complete = None;
        for sequence in maneuvers(legal, *from, done) {
            if sequence.len() == done.len() {
                complete = Some(action(Action::Maneuver(pb::Maneuver {
                    cell: Some(*from),
                    actions: sequence.iter().map(|a| *a as i32).collect(),
                })));
            } else if !next.contains(&sequence[done.len()]) {
                next.push(sequence[done.len()]);
            }
        }
        Some((next, complete))
    }

    /// Adds a letter to the maneuver being built (if it may come next).
    pub fn push_maneuver(&mut self, step: pb::TankAction, legal: &[pb::LegalMove]) {
        let allowed = self
            .maneuver_options(legal)
            .is_some_and(|(next, _)| next.contains(&step));
        if let Pending::Maneuver { actions: done, .. } = self
            && allowed
        {
            done.push(step);
        }
    }

    /// The picked attack, if its attackers form a listed set: with its advance and casualty.
    pub fn attack(&self, legal: &[pb::LegalMove]) -> Option<pb::Move> {
        let Pending::Attack {
            target,
            attackers,
            advance,
            casualty,
        } = self
        else {
            return None;
        };
        let listed = attacks(legal, *target).find(|a| {
            a.attackers.len() == attackers.len()
                && a.attackers.iter().all(|c| attackers.contains(c))
        })?;
        Some(action(Action::Attack(pb::Attack {
            target: Some(*target),
            attackers: listed.attackers.clone(),
            advance: advance.filter(|c| listed.attackers.contains(c)),
            casualty: casualty.filter(|c| listed.attackers.contains(c)),
        })))
    }
}

/// The huffs the rebels may make now.
pub fn huffs(legal: &[pb::LegalMove]) -> Vec<(pb::Move, pb::Cell)> {
    actions(legal)
        .filter_map(|a| match a {
            Action::Huff(huff) => Some((action(a.clone()), huff.officer?)),
            _ => None,
        })
        .collect()
}

/// The "end phase" action, if legal now.
pub fn end_phase(legal: &[pb::LegalMove]) -> Option<pb::Move> {
    actions(legal)
        .find(|a| matches!(a, Action::EndPhase(_)))
        .map(|a| action(a.clone()))
}

fn action(action: Action) -> pb::Move {
    pb::Move {
        action: Some(action),
    }
}

fn jump(from: pb::Cell, landings: Vec<pb::Cell>) -> pb::Move {
    action(Action::Jump(pb::Jump {
        from: Some(from),
        landings,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: i32, y: i32) -> pb::Cell {
        pb::Cell { x, y }
    }

    fn legal(actions: Vec<Action>) -> Vec<pb::LegalMove> {
        actions
            .into_iter()
            .map(|a| pb::LegalMove {
                r#move: Some(action(a)),
                notation: String::new(),
            })
            .collect()
    }

    #[test]
    fn a_piece_then_a_destination_is_a_step() {
        let legal = legal(vec![Action::Step(pb::Step {
            from: Some(c(0, 0)),
            to: Some(c(0, 1)),
        })]);
        let mut pending = Pending::Nothing;
        assert_eq!(pending.click(c(0, 0), &legal), None);
        assert_eq!(
            pending.marks(&legal, &[], &[]).get(&(0, 1)),
            Some(&Mark::Target)
        );
        let played = pending.click(c(0, 1), &legal);
        assert!(matches!(
            played.and_then(|m| m.action),
            Some(Action::Step(pb::Step { to: Some(to), .. })) if to == c(0, 1)
        ));
        assert_eq!(pending, Pending::Nothing);
    }

    #[test]
    fn chains_are_built_landing_by_landing_and_may_stop_early() {
        let legal = legal(vec![
            Action::Jump(pb::Jump {
                from: Some(c(3, 4)),
                landings: vec![c(3, 2)],
            }),
            Action::Jump(pb::Jump {
                from: Some(c(3, 4)),
                landings: vec![c(3, 2), c(5, 2)],
            }),
        ]);
        let mut pending = Pending::Nothing;
        pending.click(c(3, 4), &legal);
        assert_eq!(pending.click(c(3, 2), &legal), None);
        assert!(pending.stop_here(&legal).is_some());
        let played = pending.click(c(5, 2), &legal);
        assert!(matches!(
            played.and_then(|m| m.action),
            Some(Action::Jump(jump)) if jump.landings.len() == 2
        ));
    }

    #[test]
    fn maneuvers_offer_only_listed_letters_and_preview_the_path() {
        use pb::TankAction::{Forward, TurnLeft};
        let legal = legal(vec![Action::Maneuver(pb::Maneuver {
            cell: Some(c(0, 0)),
            actions: vec![TurnLeft as i32, Forward as i32],
        })]);
        let mut pending = Pending::Nothing;
        pending.click(c(0, 0), &legal);
        pending.push_maneuver(Forward, &legal);
        pending.push_maneuver(TurnLeft, &legal);
        let (next, complete) = pending.maneuver_options(&legal).expect("a maneuver");
        assert_eq!((next, complete), (vec![Forward], None));
        pending.push_maneuver(Forward, &legal);
        assert!(
            pending
                .maneuver_options(&legal)
                .expect("maneuver")
                .1
                .is_some()
        );
        // Facing E, turn left to NE, one hex forward: (0, 1).
        let (path, facing) = maneuver_path(c(0, 0), pb::Facing::E, &[TurnLeft, Forward]);
        assert_eq!((path, facing), (vec![c(0, 1)], pb::Facing::Ne));
    }

    #[test]
    fn attackers_are_toggled_until_they_form_a_listed_set() {
        let legal = legal(vec![
            Action::Attack(pb::Attack {
                target: Some(c(1, 0)),
                attackers: vec![c(0, 0)],
                ..Default::default()
            }),
            Action::Attack(pb::Attack {
                target: Some(c(1, 0)),
                attackers: vec![c(0, 0), c(2, -1)],
                ..Default::default()
            }),
        ]);
        let mut pending = Pending::Nothing;
        pending.click(c(1, 0), &legal);
        assert!(pending.attack(&legal).is_some());
        pending.click(c(2, -1), &legal);
        let attack = pending.attack(&legal).and_then(|m| m.action);
        assert!(matches!(attack, Some(Action::Attack(a)) if a.attackers.len() == 2));
        pending.click(c(0, 0), &legal);
        assert!(pending.attack(&legal).is_none());
    }
}
