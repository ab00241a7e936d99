//! WatchGame's `piece_changes_only`: the pieces a watcher's previous message showed, and
//! what changed in them since.

use trinchera_rules::{Conduct, PieceView, View};

/// The pieces and captured pieces a watcher was last sent, by id.
#[derive(Debug)]
pub struct Seen {
    pieces: Vec<Option<PieceView>>,
    captured: Vec<Option<PieceView>>,
}

/// What changed in the pieces from one message to the next.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Pieces in play that are new or differ.
    pub pieces: Vec<PieceView>,
    /// Captured pieces that are new or differ.
    pub captured: Vec<PieceView>,
    /// Ids of the pieces no longer in play.
    pub removed: Vec<u32>,
}

/// `list` indexed by piece id.
fn by_id(list: &[PieceView]) -> Vec<Option<PieceView>> {
    let mut indexed = Vec::new();
    update(&mut indexed, list);
    indexed
}

/// Brings `seen` (indexed by piece id) to `now` in place: returns the entries of `now`
/// that are new or differ, and the ids `seen` held that `now` lacks.
fn update(seen: &mut Vec<Option<PieceView>>, now: &[PieceView]) -> (Vec<PieceView>, Vec<u32>) {
    let mut present = vec![false; seen.len()];
    let mut changed = Vec::new();
    for piece in now {
        // The wire carries no conduct: a change in it alone is nothing to send.
        let piece = &PieceView {
            conduct: Conduct::NONE,
            ..*piece
        };
        let id = piece.id.0 as usize;
        if id >= seen.len() {
            seen.resize(id + 1, None);
            present.resize(id + 1, false);
        }
        present[id] = true;
        if seen[id] != Some(*piece) {
            seen[id] = Some(*piece);
            changed.push(*piece);
        }
    }
    let mut gone = Vec::new();
    for ((id, slot), present) in (0..).zip(seen.iter_mut()).zip(present) {
        if slot.is_some() && !present {
            *slot = None;
            gone.push(id);
        }
    }
    (changed, gone)
}

impl Seen {
    /// A watcher that was sent `view` whole.
    pub fn whole(view: &View) -> Seen {
        Seen::of(&view.pieces, &view.captured)
    }

    fn of(pieces: &[PieceView], captured: &[PieceView]) -> Seen {
        Seen {
            pieces: by_id(pieces),
            captured: by_id(captured),
        }
    }

    /// What changed from the pieces seen to `view`'s, which become the ones seen.
    pub fn advance(&mut self, view: &View) -> Changes {
        self.advance_to(&view.pieces, &view.captured)
    }

    fn advance_to(&mut self, pieces: &[PieceView], captured: &[PieceView]) -> Changes {
        let (pieces, removed) = update(&mut self.pieces, pieces);
        // A captured piece stays captured: none leaves that list.
        let (captured, _) = update(&mut self.captured, captured);
        Changes {
            pieces,
            captured,
            removed,
        }
    }
}

#[cfg(test)]
mod tests {
    use trinchera_rules::{Cell, KindId, PieceId, Seat};

    use super::*;

    fn piece(id: u32, x: i8) -> PieceView {
        PieceView {
            id: PieceId(id),
            cell: Some(Cell { x, y: 0 }),
            owner: Seat::First,
            kind: None,
            revealed: false,
            moved: false,
            facing: None,
            conduct: Conduct::default(),
        }
    }

    #[test]
    fn only_new_and_changed_pieces_are_sent_and_those_gone_are_named() {
        let mut seen = Seen::of(&[piece(0, 0), piece(1, 1), piece(5, 2)], &[]);
        let mut moved = piece(1, 3);
        moved.moved = true;
        let mut taken = piece(5, 2);
        taken.cell = None;
        let changes = seen.advance_to(&[piece(0, 0), moved], &[taken]);
        assert_eq!(
            changes,
            Changes {
                pieces: vec![moved],
                captured: vec![taken],
                removed: vec![5],
            }
        );
        let unchanged = seen.advance_to(&[piece(0, 0), moved], &[taken]);
        assert_eq!(unchanged, Changes::default());
        let revealed = PieceView {
            revealed: true,
            ..taken
        };
        let changes = seen.advance_to(&[piece(0, 0), moved, piece(7, 4)], &[revealed]);
        assert_eq!(changes.pieces, vec![piece(7, 4)]);
        assert_eq!(changes.captured, vec![revealed]);
        assert!(changes.removed.is_empty());
        let mut declined = piece(0, 0);
        declined.conduct.declined.insert(KindId(3));
        let unsent = seen.advance_to(&[declined, moved, piece(7, 4)], &[revealed]);
        assert_eq!(unsent, Changes::default(), "the wire carries no conduct");
    }
}
