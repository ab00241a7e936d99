//! What the board shows and to whom ([`Scene`]): the pieces of a view, the viewer's side,
//! urban control and spent tanks, a setup zone, and the highlights, made into the
//! [`BoardModel`] every family is drawn from.

use std::collections::HashMap;

use trinchera_client::{Geometry, Names};
use trinchera_proto::v1 as pb;

use super::labels::{cell_label, mark_words};
use super::model::{BoardModel, CellModel, Look, Mark, PieceModel, RowLabel};
use crate::i18n::Lang;

/// What the board shows and to whom.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// The ruleset names.
    pub names: &'a Names<'a>,
    /// The pieces on the board (and in reserve, which are not drawn).
    pub pieces: &'a [pb::Piece],
    /// The viewer's seat; `None` for a spectator.
    pub viewer: Option<i32>,
    /// The game's public status (urban control).
    pub status: Option<&'a pb::game_view::Status>,
    /// Setup zones to tint (during setup).
    pub zone: Option<&'a pb::SetupZone>,
    /// How the player likes the board drawn.
    pub look: Look,
}

impl BoardModel {
    /// The board of `scene` with `marks` on its cells, its cells labelled in `lang`.
    pub fn new(lang: Lang, scene: Scene<'_>, marks: &HashMap<(i32, i32), Mark>) -> BoardModel {
        let names = scene.names;
        let board = names.ruleset.board.clone().unwrap_or_default();
        let geometry = Geometry::new(&board, (scene.viewer == Some(1)) != scene.look.flipped);
        let pieces: HashMap<(i32, i32), &pb::Piece> = scene
            .pieces
            .iter()
            .filter_map(|p| Some(((p.cell?.x, p.cell?.y), p)))
            .collect();
        let control: HashMap<(i32, i32), i32> = match scene.status {
            Some(pb::game_view::Status::Tanks(tanks)) => tanks
                .control
                .iter()
                .filter_map(|c| Some(((c.cell?.x, c.cell?.y), c.seat?)))
                .collect(),
            _ => HashMap::new(),
        };
        let spent: Vec<(i32, i32)> = match scene.status {
            Some(pb::game_view::Status::Tanks(tanks)) => tanks
                .maneuvered
                .iter()
                .chain(&tanks.attacked)
                .map(|c| (c.x, c.y))
                .collect(),
            _ => Vec::new(),
        };
        let zone: Vec<(i32, i32)> = scene
            .zone
            .map(|z| z.cells.iter().map(|c| (c.x, c.y)).collect())
            .unwrap_or_default();
        let cells = board
            .cells
            .iter()
            .filter_map(|info| {
                let cell = info.cell?;
                let key = (cell.x, cell.y);
                let piece = pieces.get(&key).map(|p| PieceModel {
                    spent: spent.contains(&key),
                    ..piece_model(names, &geometry, scene.viewer, p)
                });
                let tint = if zone.contains(&key) {
                    scene.zone.map(|z| z.seat)
                } else {
                    control.get(&key).copied().or(info.entry_seat)
                };
                let caption = (geometry.shape() == pb::BoardShape::Hex).then(|| {
                    let letters = info.label.trim_end_matches(|c: char| c.is_ascii_digit());
                    letters.to_owned()
                });
                let mark = marks.get(&key).copied();
                let mut label = cell_label(lang, names, info, piece.as_ref(), tint, scene.viewer);
                if let Some(mark) = mark {
                    label = format!("{label}, {}", mark_words(mark, lang));
                }
                Some(CellModel {
                    cell,
                    label,
                    terrain: info.terrain(),
                    tint,
                    piece,
                    mark,
                    caption,
                })
            })
            .collect();
        let links = board
            .links
            .iter()
            .filter_map(|l| Some((l.a?, l.b?, l.kind())))
            .collect();
        let mut columns = Vec::new();
        let mut rows = Vec::new();
        if geometry.shape() == pb::BoardShape::Hex {
            // Each row's first and last screen column.
            let mut ends: HashMap<i32, (i32, i32)> = HashMap::new();
            for info in &board.cells {
                let Some(cell) = info.cell else { continue };
                let column = geometry.spot(cell.x, cell.y).column;
                let (first, last) = ends.entry(cell.y).or_insert((column, column));
                (*first, *last) = ((*first).min(column), (*last).max(column));
            }
            for (y, (first, last)) in ends {
                rows.push(RowLabel {
                    row: geometry.spot(0, y).row,
                    first,
                    last,
                    text: names.row_label(y),
                });
            }
        } else {
            for x in 0..board.width {
                columns.push((geometry.spot(x, 0).column, names.column_label(x)));
            }
            for y in 0..board.height {
                rows.push(RowLabel {
                    row: geometry.spot(0, y).row,
                    first: 0,
                    last: geometry.extent().0 - 1,
                    text: names.row_label(y),
                });
            }
        }
        BoardModel {
            geometry,
            cells,
            links,
            columns,
            rows,
            flash: 0.0,
            look: scene.look,
        }
    }
}

/// The piece `piece` as `viewer` sees it.
fn piece_model(
    names: &Names<'_>,
    geometry: &Geometry,
    viewer: Option<i32>,
    piece: &pb::Piece,
) -> PieceModel {
    let kind = names.kind(&piece.kind);
    PieceModel {
        owner: piece.owner,
        own: viewer == Some(piece.owner),
        name: kind.map(|k| k.name.clone()),
        code: kind.map(|k| k.code.clone()),
        rank: kind.and_then(|k| k.rank),
        moved: piece.moved,
        revealed: piece.revealed,
        facing: piece
            .facing
            .map(|f| geometry.facing_sixths(pb::Facing::try_from(f).unwrap_or_default())),
        spent: false,
    }
}
