//! What a tanques position counts for each seat: tanks in reserve, tanks left and urban
//! hexes held. Numbers, not words: the sentences that show them (the counters beside a
//! board, a result decided by them) read them from here.

use trinchera_proto::v1 as pb;

/// The tanks of `seat` in reserve (off the board, not destroyed).
pub fn in_reserve(view: &pb::GameView, seat: i32) -> usize {
    view.pieces
        .iter()
        .filter(|p| p.owner == seat && p.cell.is_none())
        .count()
}

/// The tanks `seat` has left: on the board and in reserve.
pub fn tanks_left(view: &pb::GameView, seat: i32) -> usize {
    view.pieces.iter().filter(|p| p.owner == seat).count()
}

/// The urban hexes `seat` controls.
pub fn urban_held(view: &pb::GameView, seat: i32) -> usize {
    match &view.status {
        Some(pb::game_view::Status::Tanks(tanks)) => tanks
            .control
            .iter()
            .filter(|c| c.seat == Some(seat))
            .count(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tanks_are_counted_on_the_board_and_in_reserve() {
        let tank = |owner, cell: Option<pb::Cell>| pb::Piece {
            owner,
            cell,
            ..Default::default()
        };
        let on_board = Some(pb::Cell { x: 1, y: 2 });
        let control = |seat| pb::UrbanControl { cell: None, seat };
        let view = pb::GameView {
            pieces: vec![tank(0, on_board), tank(0, None), tank(1, None)],
            status: Some(pb::game_view::Status::Tanks(pb::TanksStatus {
                control: vec![control(Some(1)), control(Some(1)), control(None)],
                ..Default::default()
            })),
            ..Default::default()
        };
        assert_eq!([in_reserve(&view, 0), tanks_left(&view, 0)], [1, 2]);
        assert_eq!([in_reserve(&view, 1), tanks_left(&view, 1)], [1, 1]);
        assert_eq!([urban_held(&view, 0), urban_held(&view, 1)], [0, 2]);
        // Other rulesets hold no urban hexes.
        let asalto = pb::GameView::default();
        assert_eq!(urban_held(&asalto, 1), 0);
    }
}
