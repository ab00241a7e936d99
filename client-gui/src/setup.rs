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
    fn clicks_place_the_kind_in_hand_and_take_pieces_back() {
        let zone = pb::SetupZone {
            seat: 1,
            cells: vec![pb::Cell { x: 2, y: 4 }, pb::Cell { x: 3, y: 4 }],
            hidden: false,
            pieces: vec![pb::PieceCount {
                kind: "oficial".into(),
                count: 2,
            }],
        };
        let mut draft = Draft::new(Some(&zone));
        draft.click(&zone, pb::Cell { x: 2, y: 4 });
        draft.click(&zone, pb::Cell { x: 0, y: 0 });
        assert_eq!(draft.tray().left(&zone, "oficial"), 1);
        draft.click(&zone, pb::Cell { x: 3, y: 4 });
        assert!(draft.tray().complete(&zone));
        assert_eq!(draft.kind, None);
        draft.click(&zone, pb::Cell { x: 2, y: 4 });
        assert_eq!(draft.tray().left(&zone, "oficial"), 1);
        assert_eq!(draft.kind.as_deref(), Some("oficial"));
        assert_eq!(draft.tray().placements().len(), 1);
        // Dropped on the free cell: placed; on a full tray: nothing changes.
        draft.drop_on(&zone, pb::Cell { x: 2, y: 4 }, "oficial");
        assert!(draft.tray().complete(&zone));
        draft.drop_on(&zone, pb::Cell { x: 0, y: 0 }, "oficial");
        assert_eq!(draft.tray().placements().len(), 2);
    }
}
