//! Hex boards (pointy-top, axial coordinates): each row shifted by half a hex from the next,
//! the row number at both ends of each row. Letters count from the left end of each row as
//! seat 0 sees it (rules.md), so they are no columns: each empty hex shows its whole name
//! (`e4`), and a tank's hex reads off its neighbours' names.

use trinchera_proto::v1 as pb;

use super::{Canvas, Cells, Drawing, HEX_MIDDLE, Paint};

/// Columns per half hex: a hex is five characters and a space wide.
const HALF: i32 = 3;
/// Columns before the leftmost hex (its row number).
const MARGIN: i32 = 4;

/// Draws a hex board.
pub(super) fn draw(drawing: &Drawing<'_>, board: &pb::Board, cells: &Cells) -> Canvas {
    let geometry = drawing.geometry(board);
    let mut canvas = Canvas::new();
    let mut rows: std::collections::BTreeMap<i32, (i32, i32, i32)> = Default::default();
    for cell in board.cells.iter().filter_map(|info| info.cell.as_ref()) {
        let (q, r) = (cell.x, cell.y);
        let Some(drawn) = cells.at(q, r) else {
            continue;
        };
        let spot = geometry.spot(q, r);
        let column = MARGIN + spot.column * HALF;
        let line = spot.row;
        canvas.put_cell(column as usize, line as usize, drawn);
        let row = rows.entry(r).or_insert((line, column, column));
        row.1 = row.1.min(column);
        row.2 = row.2.max(column);
    }
    for (r, (line, first, last)) in rows {
        let label = drawing.names.row_label(r);
        canvas.put(
            (first - MARGIN).max(0) as usize,
            line as usize,
            &format!("{label:>3}"),
            Paint::Dim,
        );
        // After the hex's two marks and its middle, and a space.
        let after = last as usize + HEX_MIDDLE + 3;
        canvas.put(after, line as usize, &label, Paint::Dim);
    }
    canvas
}

#[cfg(test)]
mod tests {
    use super::super::tests::{plain, test_board};
    use trinchera_client::Names;
    use trinchera_proto::v1 as pb;

    /// A hexagon of side 2 (7 hexes): centre b2, an entry hex of seat 0 at a1.
    fn small_hexagon() -> pb::Ruleset {
        let mut cells = Vec::new();
        for r in -1..=1 {
            let qs: Vec<i32> = (-1..=1).filter(|q: &i32| (q + r).abs() <= 1).collect();
            for (i, q) in qs.iter().enumerate() {
                let label = format!("{}{}", (b'a' + i as u8) as char, r + 2);
                let (terrain, entry_seat) = if label == "a1" {
                    (pb::Terrain::Entry, Some(0))
                } else if label == "b2" {
                    (pb::Terrain::Urban, None)
                } else {
                    (pb::Terrain::Open, None)
                };
                cells.push(pb::CellInfo {
                    cell: Some(pb::Cell { x: *q, y: r }),
                    label,
                    terrain: terrain as i32,
                    entry_seat,
                });
            }
        }
        pb::Ruleset {
            id: "hexes".into(),
            board: test_board(pb::BoardShape::Hex, (3, 3), cells, vec![]),
            piece_kinds: vec![pb::PieceKind {
                id: "tanque".into(),
                name: "Tanque".into(),
                code: "T".into(),
                count: 1,
                movable: true,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn rows_are_offset_and_tanks_show_their_facing() {
        let ruleset = small_hexagon();
        let names = Names::new(&ruleset);
        let mut view = pb::GameView {
            viewer_seat: Some(0),
            pieces: vec![pb::Piece {
                cell: Some(pb::Cell { x: 1, y: 0 }),
                owner: 1,
                kind: "tanque".into(),
                revealed: true,
                facing: Some(pb::Facing::W as i32),
                ..Default::default()
            }],
            status: Some(pb::game_view::Status::Tanks(pb::TanksStatus {
                control: vec![pb::UrbanControl {
                    cell: Some(pb::Cell { x: 0, y: 0 }),
                    seat: Some(1),
                }],
                ..Default::default()
            })),
            ..Default::default()
        };
        let text = plain(&names, &view);
        // Each empty hex shows its name; b2, held by the side in lower case, says so.
        let expected = concat!(
            "     3  a3    b3   3\n",
            "  2  a2   [b2○]  t←   2\n",
            "     1  a1    b1   1\n",
        );
        assert!(text.starts_with(expected), "{text}");
        assert!(text.contains("● held by you, ○ by seat 1"), "{text}");
        // Seat 1 sees its own hex marked as the upper-case side's, and its name unturned.
        view.viewer_seat = Some(1);
        let text = plain(&names, &view);
        assert!(text.contains("  2  T→   [b2●]  a2   2\n"), "{text}");
    }
}
