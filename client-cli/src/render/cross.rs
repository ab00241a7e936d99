//! Line boards (the asalto cross): points on a grid joined by the board's links, drawn with
//! `-` and `|` (orthogonal), `\` and `/` (diagonal, `X` where two cross) and `=` for marked
//! lines. A point is its glyph between its terrain marks, e.g. `[R]` on a fortress point.

use trinchera_proto::v1 as pb;

use super::{Canvas, Cells, Drawing, Paint};

/// Columns from one point to the next.
const PITCH: usize = 6;
/// Column of the leftmost glyph (after the row numbers).
const MARGIN: usize = 5;

/// Draws a line board.
pub(super) fn draw(drawing: &Drawing<'_>, board: &pb::Board, cells: &Cells) -> Canvas {
    let (width, height) = (board.width, board.height);
    let geometry = drawing.geometry(board);
    // Canvas position of the glyph of (x, y).
    let at = |x: i32, y: i32| {
        let spot = geometry.spot(x, y);
        (
            MARGIN + spot.column as usize * PITCH,
            1 + spot.row as usize * 2,
        )
    };
    let mut canvas = Canvas::new();
    let footer = 1 + (height as usize - 1) * 2 + 1;
    for x in 0..width {
        let (column, _) = at(x, 0);
        let label = drawing.names.column_label(x);
        canvas.put(column, 0, &label, Paint::Dim);
        canvas.put(column, footer, &label, Paint::Dim);
    }
    for y in 0..height {
        let (_, line) = at(0, y);
        let label = drawing.names.row_label(y);
        canvas.put(0, line, &format!("{label:>3}"), Paint::Dim);
        canvas.put(
            MARGIN + (width as usize - 1) * PITCH + 3,
            line,
            &label,
            Paint::Dim,
        );
        for x in 0..width {
            let Some(cell) = cells.at(x, y) else { continue };
            let (column, line) = at(x, y);
            canvas.put(column - 1, line, &cell.left.to_string(), cell.terrain_paint);
            canvas.put(column, line, &cell.middle[0].to_string(), cell.middle_paint);
            let right = if cell.middle[1] == ' ' {
                (cell.right, cell.terrain_paint)
            } else {
                (cell.middle[1], cell.middle_paint)
            };
            canvas.put(column + 1, line, &right.0.to_string(), right.1);
        }
    }
    for link in &board.links {
        let (Some(a), Some(b)) = (&link.a, &link.b) else {
            continue;
        };
        let marked = link.kind() == pb::LinkKind::Marked;
        let (a, b) = (at(a.x, a.y), at(b.x, b.y));
        let (left, right) = if a.0 <= b.0 { (a, b) } else { (b, a) };
        if left.1 == right.1 {
            let fill = if marked { "=" } else { "-" };
            for column in left.0 + 1..right.0 {
                if canvas.get(column, left.1) == ' ' {
                    canvas.put(column, left.1, fill, Paint::Dim);
                }
            }
        } else if left.0 == right.0 {
            let line = left.1.min(right.1) + 1;
            canvas.put(left.0, line, if marked { "‖" } else { "|" }, Paint::Dim);
        } else {
            let (column, line) = ((left.0 + right.0) / 2, left.1.min(right.1) + 1);
            let stroke = if left.1 < right.1 { '\\' } else { '/' };
            let existing = canvas.get(column, line);
            let drawn = if existing != ' ' && existing != stroke {
                'X'
            } else {
                stroke
            };
            canvas.put(column, line, &drawn.to_string(), Paint::Dim);
        }
    }
    canvas
}

#[cfg(test)]
mod tests {
    use super::super::tests::{plain, seats, test_board};
    use trinchera_client::Names;
    use trinchera_proto::v1 as pb;

    /// The 33-point cross of asalto, built as rules.md describes it, with a synthetic
    /// description: fortress c5–e7, diagonals where column + row is even, marked horizontal
    /// lines on rows 1–4 when `marked`.
    pub(crate) fn cross_ruleset(marked: bool) -> pb::Ruleset {
        let exists = |x: i32, y: i32| {
            (0..7).contains(&x)
                && (0..7).contains(&y)
                && ((2..=4).contains(&x) || (2..=4).contains(&y))
        };
        let mut cells = Vec::new();
        let mut links = Vec::new();
        for y in 0..7 {
            for x in 0..7 {
                if !exists(x, y) {
                    continue;
                }
                let terrain = if (2..=4).contains(&x) && y >= 4 {
                    pb::Terrain::Fortress
                } else {
                    pb::Terrain::Open
                };
                cells.push(pb::CellInfo {
                    cell: Some(pb::Cell { x, y }),
                    label: format!("{}{}", (b'a' + x as u8) as char, y + 1),
                    terrain: terrain as i32,
                    entry_seat: None,
                });
                let mut link = |dx: i32, dy: i32, kind: pb::LinkKind| {
                    if exists(x + dx, y + dy) {
                        links.push(pb::Link {
                            a: Some(pb::Cell { x, y }),
                            b: Some(pb::Cell {
                                x: x + dx,
                                y: y + dy,
                            }),
                            kind: kind as i32,
                        });
                    }
                };
                let horizontal = if marked && y <= 3 {
                    pb::LinkKind::Marked
                } else {
                    pb::LinkKind::Orthogonal
                };
                link(1, 0, horizontal);
                link(0, 1, pb::LinkKind::Orthogonal);
                if (x + y) % 2 == 0 {
                    link(1, 1, pb::LinkKind::Diagonal);
                    link(-1, 1, pb::LinkKind::Diagonal);
                }
            }
        }
        pb::Ruleset {
            id: "cross".into(),
            seats: seats(["Rebeldes", "Oficiales"]),
            board: test_board(pb::BoardShape::Cross, (7, 7), cells, links),
            piece_kinds: vec![
                pb::PieceKind {
                    id: "rebelde".into(),
                    name: "Rebelde".into(),
                    code: "R".into(),
                    count: 24,
                    movable: true,
                    seat: Some(0),
                    ..Default::default()
                },
                pb::PieceKind {
                    id: "oficial".into(),
                    name: "Oficial".into(),
                    code: "O".into(),
                    count: 2,
                    movable: true,
                    seat: Some(1),
                    ..Default::default()
                },
            ],
            setup_zones: vec![pb::SetupZone {
                seat: 1,
                cells: (2..=4)
                    .flat_map(|x| (4..=6).map(move |y| pb::Cell { x, y }))
                    .collect(),
                hidden: false,
                pieces: vec![pb::PieceCount {
                    kind: "oficial".into(),
                    count: 2,
                }],
            }],
            ..Default::default()
        }
    }

    #[test]
    fn the_cross_is_drawn_with_its_lines() {
        let ruleset = cross_ruleset(true);
        let names = Names::new(&ruleset);
        let view = pb::GameView {
            viewer_seat: Some(0),
            pieces: vec![
                pb::Piece {
                    cell: Some(pb::Cell { x: 2, y: 5 }),
                    owner: 1,
                    kind: "oficial".into(),
                    revealed: true,
                    ..Default::default()
                },
                pb::Piece {
                    cell: Some(pb::Cell { x: 0, y: 2 }),
                    owner: 0,
                    kind: "rebelde".into(),
                    revealed: true,
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        let text = plain(&names, &view);
        let expected = concat!(
            "     a     b     c     d     e     f     g\n",
            "  7             [.]---[.]---[.]             7\n",
            "                 |  \\  |  /  |\n",
            "  6             [o]---[.]---[.]             6\n",
            "                 |  /  |  \\  |\n",
            "  5  .-----.----[.]---[.]---[.]----.-----.  5\n",
            "     |  \\  |  /  |  \\  |  /  |  \\  |  /  |\n",
            "  4  .=====.=====.=====.=====.=====.=====.  4\n",
            "     |  /  |  \\  |  /  |  \\  |  /  |  \\  |\n",
            "  3  R=====.=====.=====.=====.=====.=====.  3\n",
        );
        assert!(text.starts_with(expected), "{text}");
    }
}
