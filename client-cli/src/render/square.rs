//! Square boards: a grid with column letters above and below and row numbers on both sides.

use trinchera_proto::v1 as pb;

use super::{Canvas, Cells, Drawing, Paint};

/// Columns per cell: four characters and a space.
const PITCH: usize = 5;
/// Columns before the first cell (the row numbers).
const MARGIN: usize = 4;

/// Draws a square board.
pub(super) fn draw(drawing: &Drawing<'_>, board: &pb::Board, cells: &Cells) -> Canvas {
    let (width, height) = (board.width, board.height);
    let geometry = drawing.geometry(board);
    let mut canvas = Canvas::new();
    let last_line = height as usize + 1;
    for x in 0..width {
        let column = geometry.spot(x, 0).column;
        let left = MARGIN + column as usize * PITCH + 1;
        let label = drawing.names.column_label(x);
        canvas.put(left, 0, &label, Paint::Dim);
        canvas.put(left, last_line, &label, Paint::Dim);
    }
    for y in 0..height {
        let line = geometry.spot(0, y).row as usize + 1;
        let label = drawing.names.row_label(y);
        canvas.put(0, line, &format!("{label:>3}"), Paint::Dim);
        canvas.put(MARGIN + width as usize * PITCH, line, &label, Paint::Dim);
        for x in 0..width {
            let Some(cell) = cells.at(x, y) else { continue };
            let column = geometry.spot(x, y).column;
            let left = MARGIN + column as usize * PITCH;
            canvas.put_cell(left, line, cell);
        }
        // Neighbouring lake cells run together into one lake.
        for column in 1..width as usize {
            let gap = MARGIN + column * PITCH - 1;
            if canvas.get(gap - 1, line) == '~' && canvas.get(gap + 1, line) == '~' {
                canvas.put(gap, line, "~", Paint::Water);
            }
        }
    }
    canvas
}

#[cfg(test)]
mod tests {
    use super::super::tests::{plain, tiny_ruleset};
    use trinchera_client::Names;
    use trinchera_proto::v1 as pb;

    #[test]
    fn seat_0_sees_row_1_at_the_bottom_and_seat_1_the_board_turned() {
        let ruleset = tiny_ruleset();
        let names = Names::new(&ruleset);
        let mut view = pb::GameView {
            viewer_seat: Some(0),
            pieces: vec![pb::Piece {
                cell: Some(pb::Cell { x: 0, y: 0 }),
                owner: 0,
                kind: "soldado".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let drawn = |view: &pb::GameView| plain(&names, view);
        let seat0 = drawn(&view);
        let expected0 = concat!(
            "     a    b    c\n",
            "  2  .   ~~~~  .   2\n",
            "  1  S    .    .   1\n",
            "     a    b    c\n",
        );
        assert!(seat0.starts_with(expected0), "{seat0}");
        view.viewer_seat = Some(1);
        let seat1 = drawn(&view);
        let expected1 = concat!(
            "     c    b    a\n",
            "  1  .    .    s   1\n",
            "  2  .   ~~~~  .   2\n",
            "     c    b    a\n",
        );
        assert!(seat1.starts_with(expected1), "{seat1}");
        assert!(seat1.contains("seen from seat 1"), "{seat1}");
    }
}
