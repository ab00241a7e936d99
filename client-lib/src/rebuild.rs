//! Whole views from a WatchGame stream with `piece_changes_only`: such a stream sends, after
//! its first message, only the pieces that changed since its previous message. [`Rebuild`]
//! keeps the pieces of the last message and puts each view back together, so that callers
//! see whole views while the server and the network carry a few pieces a move.

use std::collections::BTreeMap;

use trinchera_proto::v1 as pb;

/// The pieces of a stream's last message, by id (the order whole views list them in).
#[derive(Debug, Default)]
pub struct Rebuild {
    in_play: BTreeMap<u32, pb::Piece>,
    captured: BTreeMap<u32, pb::Piece>,
}

impl Rebuild {
    /// Makes `message`, the stream's next, whole: its view lists every piece again and
    /// `removed_pieces` is emptied. A snapshot starts over (as does the first message,
    /// both being whole already).
    pub fn whole(&mut self, message: &mut pb::WatchGameResponse) {
        let Some(view) = message.view.as_mut() else {
            return;
        };
        if message.snapshot {
            *self = Rebuild::default();
        }
        for id in message.removed_pieces.drain(..) {
            self.in_play.remove(&id);
        }
        self.in_play
            .extend(view.pieces.drain(..).map(|piece| (piece.id, piece)));
        self.captured
            .extend(view.captured.drain(..).map(|piece| (piece.id, piece)));
        view.pieces = self.in_play.values().cloned().collect();
        view.captured = self.captured.values().cloned().collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(id: u32, x: i32) -> pb::Piece {
        pb::Piece {
            id,
            cell: Some(pb::Cell { x, y: 0 }),
            ..pb::Piece::default()
        }
    }

    fn message(snapshot: bool, pieces: Vec<pb::Piece>, removed: Vec<u32>) -> pb::WatchGameResponse {
        pb::WatchGameResponse {
            view: Some(pb::GameView {
                pieces,
                ..pb::GameView::default()
            }),
            snapshot,
            removed_pieces: removed,
            ..pb::WatchGameResponse::default()
        }
    }

    fn ids_and_cells(message: &pb::WatchGameResponse) -> Vec<(u32, i32)> {
        let view = message.view.as_ref().expect("a view");
        view.pieces
            .iter()
            .map(|p| (p.id, p.cell.map_or(-1, |c| c.x)))
            .collect()
    }

    #[test]
    fn changes_are_merged_removals_dropped_and_snapshots_start_over() {
        let mut rebuild = Rebuild::default();
        let mut first = message(false, vec![piece(2, 0), piece(0, 1), piece(1, 2)], vec![]);
        rebuild.whole(&mut first);
        assert_eq!(ids_and_cells(&first), [(0, 1), (1, 2), (2, 0)]);
        let mut moved = message(false, vec![piece(1, 5)], vec![2]);
        rebuild.whole(&mut moved);
        assert_eq!(ids_and_cells(&moved), [(0, 1), (1, 5)]);
        assert!(moved.removed_pieces.is_empty());
        let mut snapshot = message(true, vec![piece(3, 7)], vec![]);
        rebuild.whole(&mut snapshot);
        assert_eq!(ids_and_cells(&snapshot), [(3, 7)]);
    }
}
