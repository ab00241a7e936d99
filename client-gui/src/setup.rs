//! A setup being put together: the seat's tray of pieces by kind, and where each placed
//! piece stands. The server checks the rules and lists every problem of a submission.

use std::collections::BTreeMap;

use trinchera_client::{Lang, Names, tr};
use trinchera_proto::v1 as pb;

/// The placements so far and the kind in hand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    /// Kind id by cell.
    placed: BTreeMap<(i32, i32), String>,
    /// The kind the next click places.
    pub kind: Option<String>,
}

impl Draft {
    /// How many pieces of `kind` are still in the tray.
    pub fn left(&self, zone: &pb::SetupZone, kind: &str) -> i32 {
        let total = zone
            .pieces
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| p.count)
            .sum::<i32>();
        total - self.placed.values().filter(|k| *k == kind).count() as i32
    }

    /// A click on `cell`: takes a placed piece back into the hand, else places the kind in
    /// hand (the hand moves on to the next kind left once a kind runs out).
    pub fn click(&mut self, zone: &pb::SetupZone, cell: pb::Cell) {
        if !zone.cells.contains(&cell) {
            return;
        }
        let key = (cell.x, cell.y);
        if let Some(kind) = self.placed.remove(&key) {
            self.kind = Some(kind);
            return;
        }
        let Some(kind) = self.kind.clone() else {
            return;
        };
        if self.left(zone, &kind) > 0 {
            self.placed.insert(key, kind.clone());
        }
        if self.left(zone, &kind) <= 0 {
            self.kind = zone
                .pieces
                .iter()
                .find(|p| self.left(zone, &p.kind) > 0)
                .map(|p| p.kind.clone());
        }
    }

    /// A kind dropped on `cell`: it replaces what stands there, if any is left in the tray.
    pub fn drop_on(&mut self, zone: &pb::SetupZone, cell: pb::Cell, kind: &str) {
        if !zone.cells.contains(&cell) {
            return;
        }
        let key = (cell.x, cell.y);
        let before = self.placed.remove(&key);
        if self.left(zone, kind) > 0 {
            self.placed.insert(key, kind.to_owned());
        } else if let Some(before) = before {
            self.placed.insert(key, before);
        }
    }

    /// Empties the board back into the tray.
    pub fn clear(&mut self) {
        self.placed.clear();
    }

    /// Replaces the placements with `placements` as they are (a loaded setup may not fit:
    /// [`Draft::problems`] lists how); the hand takes the first kind left.
    pub fn load(&mut self, zone: &pb::SetupZone, placements: &[pb::Placement]) {
        self.placed = placements
            .iter()
            .filter_map(|p| Some(((p.cell?.x, p.cell?.y), p.kind.clone())))
            .collect();
        self.kind = zone
            .pieces
            .iter()
            .find(|p| self.left(zone, &p.kind) > 0)
            .map(|p| p.kind.clone());
    }

    /// How the placements differ from the tray: kinds missing, too many, or not in it,
    /// and pieces outside the zone. Empty when the setup is complete.
    pub fn problems(&self, zone: &pb::SetupZone, names: &Names<'_>, lang: Lang) -> Vec<String> {
        let mut problems = Vec::new();
        for (&(x, y), kind) in &self.placed {
            if !zone.cells.contains(&pb::Cell { x, y }) {
                let at = names.label(Some(&pb::Cell { x, y }));
                problems.push(tr!(
                    lang,
                    "{at} is outside your zone",
                    "{at} está fuera de tu zona"
                ));
            }
            if !zone.pieces.iter().any(|p| &p.kind == kind) {
                let kind = names.kind_name(kind);
                problems.push(tr!(
                    lang,
                    "{kind} is not in your tray",
                    "{kind} no está en tu bandeja"
                ));
            }
        }
        for count in &zone.pieces {
            let (left, kind) = (self.left(zone, &count.kind), names.kind_name(&count.kind));
            if left > 0 {
                problems.push(tr!(lang, "{left} {kind} missing", "faltan {left} {kind}"));
            } else if left < 0 {
                let extra = -left;
                problems.push(tr!(
                    lang,
                    "{extra} {kind} too many",
                    "sobran {extra} {kind}"
                ));
            }
        }
        problems
    }

    /// Whether every piece of the tray is placed.
    pub fn complete(&self, zone: &pb::SetupZone) -> bool {
        zone.pieces.iter().all(|p| self.left(zone, &p.kind) <= 0)
    }

    /// The placements to submit.
    pub fn placements(&self) -> Vec<pb::Placement> {
        self.placed
            .iter()
            .map(|(&(x, y), kind)| pb::Placement {
                cell: Some(pb::Cell { x, y }),
                kind: kind.clone(),
            })
            .collect()
    }

    /// The placed pieces as `seat` sees them, to draw on the board.
    pub fn pieces(&self, seat: i32) -> Vec<pb::Piece> {
        self.placed
            .iter()
            .map(|(&(x, y), kind)| pb::Piece {
                cell: Some(pb::Cell { x, y }),
                owner: seat,
                kind: kind.clone(),
                ..Default::default()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placing_runs_the_tray_down_and_a_click_takes_a_piece_back() {
        let zone = pb::SetupZone {
            seat: 1,
            cells: vec![pb::Cell { x: 2, y: 4 }, pb::Cell { x: 3, y: 4 }],
            hidden: false,
            pieces: vec![pb::PieceCount {
                kind: "oficial".into(),
                count: 2,
            }],
        };
        let mut draft = Draft {
            kind: Some("oficial".into()),
            ..Default::default()
        };
        draft.click(&zone, pb::Cell { x: 2, y: 4 });
        draft.click(&zone, pb::Cell { x: 0, y: 0 });
        assert_eq!(draft.left(&zone, "oficial"), 1);
        draft.click(&zone, pb::Cell { x: 3, y: 4 });
        assert!(draft.complete(&zone));
        assert_eq!(draft.kind, None);
        draft.click(&zone, pb::Cell { x: 2, y: 4 });
        assert_eq!(draft.left(&zone, "oficial"), 1);
        assert_eq!(draft.kind.as_deref(), Some("oficial"));
        assert_eq!(draft.placements().len(), 1);
        // Dropped on the free cell: placed; on a full tray: nothing changes.
        draft.drop_on(&zone, pb::Cell { x: 2, y: 4 }, "oficial");
        assert!(draft.complete(&zone));
        draft.drop_on(&zone, pb::Cell { x: 0, y: 0 }, "oficial");
        assert_eq!(draft.placements().len(), 2);
    }
}
