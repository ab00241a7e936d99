//! A seat's setup being put together: the tray of pieces its zone takes (kinds and
//! counts, `SetupZone.pieces`), where the placed ones stand, and how the placements differ
//! from a complete setup. The desktop client's setup editor and the setup files' templates
//! both count pieces here; the server checks the rules when a setup is submitted.

use std::collections::BTreeMap;

use trinchera_proto::v1 as pb;

use crate::lang::Lang;
use crate::names::Names;
use crate::tr;

/// Every piece of `zone`'s tray, one kind id per piece, in the zone's order.
pub fn pieces(zone: &pb::SetupZone) -> Vec<String> {
    zone.pieces
        .iter()
        .flat_map(|count| std::iter::repeat_n(count.kind.clone(), count.count.max(0) as usize))
        .collect()
}

/// The placements of one seat's setup so far, by cell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tray {
    /// Kind id by `(x, y)`.
    placed: BTreeMap<(i32, i32), String>,
}

impl Tray {
    /// A tray holding `placements` as they are (they may not fit a zone: see
    /// [`Tray::problems`]).
    pub fn of(placements: &[pb::Placement]) -> Tray {
        Tray {
            placed: placements
                .iter()
                .filter_map(|p| Some(((p.cell?.x, p.cell?.y), p.kind.clone())))
                .collect(),
        }
    }

    /// How many pieces of `kind` are still to be placed (negative: too many placed).
    pub fn left(&self, zone: &pb::SetupZone, kind: &str) -> i32 {
        let total: i32 = zone
            .pieces
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| p.count)
            .sum();
        let placed = self.placed.values().filter(|k| *k == kind).count();
        total - i32::try_from(placed).unwrap_or(i32::MAX)
    }

    /// The first kind of the zone's tray with pieces still to be placed.
    pub fn first_left<'z>(&self, zone: &'z pb::SetupZone) -> Option<&'z str> {
        zone.pieces
            .iter()
            .find(|p| self.left(zone, &p.kind) > 0)
            .map(|p| p.kind.as_str())
    }

    /// The kind placed on `cell`, if any.
    pub fn at(&self, cell: pb::Cell) -> Option<&str> {
        self.placed.get(&(cell.x, cell.y)).map(String::as_str)
    }

    /// Places a `kind` on `cell` if the cell is in the zone and a piece of that kind is
    /// left; what stood there goes back to the tray first. Returns whether it was placed.
    pub fn place(&mut self, zone: &pb::SetupZone, cell: pb::Cell, kind: &str) -> bool {
        if !zone.cells.contains(&cell) {
            return false;
        }
        let before = self.placed.remove(&(cell.x, cell.y));
        if self.left(zone, kind) > 0 {
            self.placed.insert((cell.x, cell.y), kind.to_owned());
            return true;
        }
        if let Some(before) = before {
            self.placed.insert((cell.x, cell.y), before);
        }
        false
    }

    /// Takes the piece on `cell` back into the tray; returns its kind.
    pub fn take(&mut self, cell: pb::Cell) -> Option<String> {
        self.placed.remove(&(cell.x, cell.y))
    }

    /// Whether nothing is placed.
    pub fn is_empty(&self) -> bool {
        self.placed.is_empty()
    }

    /// How the placements differ from the tray of `zone`: kinds missing, too many, or not
    /// in it, and pieces outside the zone, in `lang`. Empty when the setup is complete.
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

    /// Whether every piece of the tray of `zone` is placed.
    pub fn complete(&self, zone: &pb::SetupZone) -> bool {
        zone.pieces.iter().all(|p| self.left(zone, &p.kind) <= 0)
    }

    /// The placements, to submit or to write to a file.
    pub fn placements(&self) -> Vec<pb::Placement> {
        self.placed
            .iter()
            .map(|(&(x, y), kind)| pb::Placement {
                cell: Some(pb::Cell { x, y }),
                kind: kind.clone(),
            })
            .collect()
    }

    /// The placed pieces as pieces of `seat`, to draw on a board.
    pub fn board_pieces(&self, seat: i32) -> Vec<pb::Piece> {
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

    fn zone() -> pb::SetupZone {
        pb::SetupZone {
            seat: 1,
            cells: vec![pb::Cell { x: 2, y: 4 }, pb::Cell { x: 3, y: 4 }],
            hidden: false,
            pieces: vec![pb::PieceCount {
                kind: "oficial".into(),
                count: 2,
            }],
        }
    }

    #[test]
    fn placing_runs_the_tray_down_and_problems_name_what_differs() {
        let (zone, ruleset) = (zone(), pb::Ruleset::default());
        let names = Names::new(&ruleset);
        let mut tray = Tray::default();
        assert_eq!(pieces(&zone), ["oficial", "oficial"]);
        assert!(!tray.place(&zone, pb::Cell { x: 0, y: 0 }, "oficial"));
        assert!(tray.place(&zone, pb::Cell { x: 2, y: 4 }, "oficial"));
        assert_eq!(tray.left(&zone, "oficial"), 1);
        assert_eq!(
            tray.problems(&zone, &names, Lang::En),
            ["1 oficial missing"]
        );
        assert!(tray.place(&zone, pb::Cell { x: 3, y: 4 }, "oficial"));
        assert!(tray.complete(&zone) && tray.problems(&zone, &names, Lang::Es).is_empty());
        assert_eq!(tray.first_left(&zone), None);
        assert_eq!(
            tray.take(pb::Cell { x: 2, y: 4 }).as_deref(),
            Some("oficial")
        );
        assert_eq!(tray.first_left(&zone), Some("oficial"));
        // A loaded setup keeps what does not fit, and says so.
        let loaded = Tray::of(&[pb::Placement {
            cell: Some(pb::Cell { x: 0, y: 0 }),
            kind: "rebelde".into(),
        }]);
        assert_eq!(
            loaded.problems(&zone, &names, Lang::Es),
            [
                "(0,0) está fuera de tu zona",
                "rebelde no está en tu bandeja",
                "faltan 2 oficial"
            ]
        );
    }
}
