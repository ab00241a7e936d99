//! The setup being edited on the board: the seat's [`Tray`] (shared with the CLI's setup
//! files) and the kind in hand, which clicks on cells place.

use trinchera_client::tray::Tray;
use trinchera_proto::v1 as pb;

/// The placements so far and the kind in hand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    tray: Tray,
    /// The kind the next click places.
    pub kind: Option<String>,
}

impl Draft {
    /// An empty draft with the first kind of `zone` in hand.
    pub fn new(zone: Option<&pb::SetupZone>) -> Draft {
        Draft {
            tray: Tray::default(),
            kind: zone.and_then(|z| z.pieces.first()).map(|p| p.kind.clone()),
        }
    }

    /// The placements.
    pub fn tray(&self) -> &Tray {
        &self.tray
    }

    /// A click on `cell`: takes a placed piece back into the hand, else places the kind in
    /// hand (the hand moves on to the next kind left once a kind runs out).
    pub fn click(&mut self, zone: &pb::SetupZone, cell: pb::Cell) {
        if !zone.cells.contains(&cell) {
            return;
        }
        if let Some(kind) = self.tray.take(cell) {
            self.kind = Some(kind);
            return;
        }
        let Some(kind) = self.kind.clone() else {
            return;
        };
        self.tray.place(zone, cell, &kind);
        if self.tray.left(zone, &kind) <= 0 {
            self.take_next(zone);
        }
    }

    /// A kind dropped on `cell`: it replaces what stands there, if any is left in the tray.
    pub fn drop_on(&mut self, zone: &pb::SetupZone, cell: pb::Cell, kind: &str) {
        self.tray.place(zone, cell, kind);
    }

    /// Empties the board back into the tray.
    pub fn clear(&mut self) {
        self.tray = Tray::default();
    }

    /// Replaces the placements with `placements` as they are (a loaded setup may not fit:
    /// [`Tray::problems`] lists how); the hand takes the first kind left.
    pub fn load(&mut self, zone: &pb::SetupZone, placements: &[pb::Placement]) {
        self.tray = Tray::of(placements);
        self.take_next(zone);
    }

    /// Takes the first kind with pieces left into the hand.
    fn take_next(&mut self, zone: &pb::SetupZone) {
        self.kind = self.tray.first_left(zone).map(str::to_owned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_place_the_kind_in_hand_which_moves_on_when_it_runs_out() {
        let (a, b, c) = (
            pb::Cell { x: 0, y: 0 },
            pb::Cell { x: 1, y: 0 },
            pb::Cell { x: 2, y: 0 },
        );
        let zone = pb::SetupZone {
            seat: 0,
            cells: vec![a, b],
            hidden: true,
            pieces: ["bandera", "bomba"]
                .map(|kind| pb::PieceCount {
                    kind: kind.into(),
                    count: 1,
                })
                .to_vec(),
        };
        let mut draft = Draft::new(Some(&zone));
        assert_eq!(draft.kind.as_deref(), Some("bandera"));
        draft.click(&zone, a);
        assert_eq!(draft.kind.as_deref(), Some("bomba"), "the flag ran out");
        draft.click(&zone, c);
        assert_eq!(draft.tray().at(c), None, "outside the zone");
        draft.click(&zone, b);
        assert!(draft.tray().complete(&zone));
        assert_eq!(draft.kind, None);
        // A click on a placed piece takes it back into the hand.
        draft.click(&zone, a);
        assert_eq!(draft.kind.as_deref(), Some("bandera"));
        assert_eq!(draft.tray().at(a), None);
        // Dropped on a free cell: placed; dropped where nothing is left: no change.
        draft.drop_on(&zone, a, "bandera");
        assert_eq!(draft.tray().at(a), Some("bandera"));
        draft.drop_on(&zone, a, "bomba");
        assert_eq!(draft.tray().at(a), Some("bandera"));
    }
}
