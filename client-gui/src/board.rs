//! Boards drawn from the ruleset description alone: square grids with lakes, castles and
//! trenches, the asalto cross with its lines and fortress, and tanques' hexes with terrain
//! and facing tanks. Every cell is its own interact rect with an accessible label ("e4, your
//! Capitán"), so a screen reader can read the board and tests can click it.

use std::collections::HashMap;

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Pos2, Rect, Response, Sense, Shape, Stroke,
    StrokeKind, Ui, Vec2, pos2, vec2,
};
use trinchera_client::{Geometry, Names};
use trinchera_proto::v1 as pb;

use crate::i18n::{Lang, lang, tr};
use crate::{palette, tile_text};

/// The corner radius of tiles, in points. Up to 2 a corner is drawn with three points, above
/// it with five: with the anti-aliasing fringe a rounder tile took twice the triangles, and a
/// software renderer's time follows the triangles as much as the pixels (a frente board was
/// 35 000 triangles, half of them tiles' outlines, which are gone too).
const TILE_CORNER: u8 = 2;

/// How a cell is highlighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The selected piece (or the cell picked first).
    Selected,
    /// A place the selection may go or act on.
    Target,
    /// Part of a path being built (a capture chain, a maneuver preview).
    Path,
    /// A cell of the last move.
    LastMove,
}

impl Mark {
    /// The highlight in words, after a cell's label ("e5, empty, may be picked").
    fn words(self, lang: Lang) -> &'static str {
        match self {
            Mark::Selected => lang.pick("selected", "elegida"),
            Mark::Target => lang.pick("may be picked", "se puede elegir"),
            Mark::Path => lang.pick("on the way", "en el recorrido"),
            Mark::LastMove => lang.pick("last move", "última jugada"),
        }
    }
}

/// A piece as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceModel {
    /// The owning seat.
    pub owner: i32,
    /// Whether the viewer owns it.
    pub own: bool,
    /// The kind's name, if the viewer knows it.
    pub name: Option<String>,
    /// The kind's one-letter code, if known.
    pub code: Option<String>,
    /// The rank, if known and ranked.
    pub rank: Option<i32>,
    /// Whether it has moved (shown on hidden enemy pieces).
    pub moved: bool,
    /// Whether the opponent knows its kind (shown on the viewer's own pieces).
    pub revealed: bool,
    /// A tank's facing on screen, in sixths of a turn counter-clockwise from the right.
    pub facing: Option<u8>,
    /// A tank that has maneuvered or attacked this turn (drawn faded).
    pub spent: bool,
}

/// One cell as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct CellModel {
    /// Its coordinates.
    pub cell: pb::Cell,
    /// Its accessible label, e.g. "e4, your Capitán, selected".
    pub label: String,
    /// What it is made of.
    pub terrain: pb::Terrain,
    /// The seat whose colour tints it: an entry hex's, a setup zone's, an urban hex's
    /// controller.
    pub tint: Option<i32>,
    /// What stands on it.
    pub piece: Option<PieceModel>,
    /// Its highlight.
    pub mark: Option<Mark>,
    /// The letters of its label, drawn inside it (hex boards: their letters count from the
    /// left end of each row, so no edge can carry them).
    pub caption: Option<String>,
}

/// A row's name, drawn beyond both ends of the row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowLabel {
    /// The screen row.
    pub row: i32,
    /// The screen column of the row's first cell.
    pub first: i32,
    /// The screen column of the row's last cell.
    pub last: i32,
    /// The name, e.g. "5".
    pub text: String,
}

/// Everything [`board_ui`] draws: plain data, built from the ruleset and a view.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardModel {
    /// Where the cells go.
    pub geometry: Geometry,
    /// Every cell.
    pub cells: Vec<CellModel>,
    /// Lines of a cross board.
    pub links: Vec<(pb::Cell, pb::Cell, pb::LinkKind)>,
    /// Column names along the top and bottom edges, by screen column.
    pub columns: Vec<(i32, String)>,
    /// Row names along the side edges.
    pub rows: Vec<RowLabel>,
    /// How strongly the last move flashes, from 1 (just played) to 0.
    pub flash: f32,
    /// How the player likes the board drawn.
    pub look: Look,
}

/// How the player likes boards drawn (a setting kept between runs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// Turned by 180° from the usual side (the viewer's own, seat 0's for a spectator).
    pub flipped: bool,
    /// Piece names on the tiles instead of rank numbers.
    pub names: bool,
}

impl Look {
    /// The look as a stored setting: `flipped,names`, either, or empty.
    pub fn to_setting(self) -> String {
        let mut parts = Vec::new();
        if self.flipped {
            parts.push("flipped");
        }
        if self.names {
            parts.push("names");
        }
        parts.join(",")
    }

    /// The look of a stored setting (unknown words are ignored).
    pub fn of_setting(text: &str) -> Look {
        let words: Vec<&str> = text.split(',').map(str::trim).collect();
        Look {
            flipped: words.contains(&"flipped"),
            names: words.contains(&"names"),
        }
    }
}

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
                    label = format!("{label}, {}", mark.words(lang));
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

/// The accessible label of a cell in `lang`: its name, then what is on it or what it is.
fn cell_label(
    lang: Lang,
    names: &Names<'_>,
    info: &pb::CellInfo,
    piece: Option<&PieceModel>,
    tint: Option<i32>,
    viewer: Option<i32>,
) -> String {
    let what = match piece {
        Some(piece) => {
            let kind = piece
                .name
                .as_deref()
                .unwrap_or(lang.pick("hidden piece", "pieza oculta"));
            let moved = if piece.name.is_none() && piece.moved {
                lang.pick(" (moved)", " (movida)")
            } else {
                ""
            };
            let spent = if piece.spent {
                lang.pick(", done this turn", ", ya actuó en este turno")
            } else {
                ""
            };
            if piece.own {
                let known = if piece.revealed && names.hidden_setups() {
                    lang.pick(", known to your opponent", ", conocida por tu rival")
                } else {
                    ""
                };
                tr!(lang, "your {kind}{known}{spent}", "tu {kind}{known}{spent}")
            } else {
                let seat = names.seat(piece.owner);
                tr!(
                    lang,
                    "{seat}'s {kind}{moved}{spent}",
                    "{kind} de {seat}{moved}{spent}"
                )
            }
        }
        None => lang.pick("empty", "vacía").to_owned(),
    };
    let terrain = match info.terrain() {
        pb::Terrain::Lake => Some(lang.pick("lake", "lago").to_owned()),
        pb::Terrain::Castle => Some(lang.pick("castle", "castillo").to_owned()),
        pb::Terrain::Trench => Some(lang.pick("trench", "trinchera").to_owned()),
        pb::Terrain::Swamp => Some(lang.pick("swamp", "pantano").to_owned()),
        pb::Terrain::Fortress => Some(lang.pick("fortress", "fortaleza").to_owned()),
        pb::Terrain::Urban => Some(match tint {
            Some(seat) if viewer == Some(seat) => {
                lang.pick("urban, yours", "urbano, tuyo").to_owned()
            }
            Some(seat) => {
                let seat = names.seat(seat);
                tr!(lang, "urban, {seat}'s", "urbano, de {seat}")
            }
            None => lang.pick("urban", "urbano").to_owned(),
        }),
        pb::Terrain::Entry => info.entry_seat.map(|seat| {
            let seat = names.seat(seat);
            tr!(lang, "entry of {seat}", "entrada de {seat}")
        }),
        pb::Terrain::Open | pb::Terrain::Unspecified => None,
    };
    match (terrain, info.terrain() == pb::Terrain::Lake) {
        (Some(terrain), true) => format!("{}, {terrain}", info.label),
        (Some(terrain), false) => format!("{}, {what}, {terrain}", info.label),
        (None, _) => format!("{}, {what}", info.label),
    }
}

/// Where the board's cells land in pixels.
#[derive(Clone, Copy, Debug)]
struct Layout {
    origin: Pos2,
    /// Pixels per abstract column and per row.
    unit: Vec2,
    /// Hexes: the circumradius; grids: half a cell.
    size: f32,
    shape: pb::BoardShape,
}

impl Layout {
    /// Fits `model` into `available`, leaving a margin for the coordinates.
    fn fit(model: &BoardModel, available: Vec2) -> (Layout, Vec2) {
        let (columns, rows) = model.geometry.extent();
        let (columns, rows) = (columns.max(1) as f32, rows.max(1) as f32);
        let shape = model.geometry.shape();
        if shape == pb::BoardShape::Hex {
            // Pointy-top: a hex is √3·s wide (two columns) and rows are 1.5·s apart.
            let margin = 2.0;
            let by_width = available.x / ((columns + margin) * 3f32.sqrt() / 2.0);
            let by_height = available.y / ((rows - 1.0) * 1.5 + 2.0 + margin);
            let size = by_width.min(by_height).clamp(8.0, 60.0);
            let unit = vec2(size * 3f32.sqrt() / 2.0, size * 1.5);
            let total = vec2(
                (columns + margin) * unit.x,
                (rows - 1.0) * unit.y + 2.0 * size + margin * size,
            );
            let origin = pos2(unit.x * (1.0 + margin / 2.0), size * (1.0 + margin / 2.0));
            (
                Layout {
                    origin,
                    unit,
                    size,
                    shape,
                },
                total,
            )
        } else {
            let cell = (available.x / (columns + 1.2))
                .min(available.y / (rows + 1.2))
                .clamp(16.0, 96.0);
            let total = vec2((columns + 1.2) * cell, (rows + 1.2) * cell);
            let origin = pos2(cell * 1.1, cell * 1.1);
            (
                Layout {
                    origin,
                    unit: vec2(cell, cell),
                    size: cell / 2.0,
                    shape,
                },
                total,
            )
        }
    }

    /// The centre of the cell at `(x, y)`.
    fn centre(&self, geometry: &Geometry, top_left: Pos2, cell: pb::Cell) -> Pos2 {
        let spot = geometry.spot(cell.x, cell.y);
        top_left
            + self.origin.to_vec2()
            + vec2(
                spot.column as f32 * self.unit.x,
                spot.row as f32 * self.unit.y,
            )
    }

    /// The clickable rect of a cell around `centre`.
    fn cell_rect(&self, centre: Pos2) -> Rect {
        match self.shape {
            pb::BoardShape::Hex => {
                Rect::from_center_size(centre, vec2(self.unit.x * 2.0 * 0.92, self.size * 1.5))
            }
            pb::BoardShape::Cross => Rect::from_center_size(centre, self.unit * 0.8),
            pb::BoardShape::Square | pb::BoardShape::Unspecified => {
                Rect::from_center_size(centre, self.unit * 0.97)
            }
        }
    }

    /// The corners of a pointy-top hex around `centre`.
    fn hex(&self, centre: Pos2, scale: f32) -> Vec<Pos2> {
        (0..6)
            .map(|i| {
                let angle = std::f32::consts::FRAC_PI_6 + i as f32 * std::f32::consts::FRAC_PI_3;
                centre + vec2(angle.cos(), angle.sin()) * self.size * scale
            })
            .collect()
    }
}

/// A piece kind being dragged onto the board (from the setup tray): its `PieceKind.id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraggedKind(pub String);

/// What the pointer does over the board besides clicks (see [`clicked`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// A kind dropped on a cell in this frame, if any.
    pub dropped: Option<(pb::Cell, String)>,
    /// The cell under the pointer.
    pub hovered: Option<pb::Cell>,
}

/// The id of the widget of board cell `cell`.
fn cell_id(cell: pb::Cell) -> egui::Id {
    egui::Id::unique(("board cell", cell.x, cell.y))
}

/// The cell among `cells` clicked in this frame, if any. egui tells a click from where the
/// widgets were in the last frame, so this may be asked before the board is drawn: what the
/// click changes (a piece picked, its targets lit) then shows in the same frame.
pub fn clicked<'a>(
    ctx: &egui::Context,
    cells: impl IntoIterator<Item = &'a pb::CellInfo>,
) -> Option<pb::Cell> {
    cells
        .into_iter()
        .filter_map(|info| info.cell)
        .find(|&cell| {
            ctx.read_response(cell_id(cell))
                .is_some_and(|response| response.clicked())
        })
}

/// Draws `model` to fill the space left in `ui`; drops and the pointer land in `selection`,
/// clicks are for [`clicked`].
pub fn board_ui(ui: &mut Ui, model: &BoardModel, selection: &mut Selection) -> Response {
    let available = ui.available_size().max(vec2(120.0, 120.0));
    let (layout, size) = Layout::fit(model, available);
    // A piece dragged from the tray is drawn at this size.
    ui.ctx()
        .data_mut(|data| data.insert_temp(tile_size_id(), layout.size));
    let (rect, mut response) = ui.allocate_exact_size(size, Sense::hover());
    let top_left = rect.min;
    let painter = ui.painter_at(rect.expand(2.0));
    let geometry = &model.geometry;
    draw_paper(&painter, &layout, geometry, rect);
    let centre = |cell: pb::Cell| layout.centre(geometry, top_left, cell);
    let coordinate_font = FontId::proportional((layout.size * 0.42).clamp(9.0, 15.0));

    if geometry.shape() == pb::BoardShape::Cross {
        draw_fortress(&painter, model, &layout, &centre);
        for (a, b, kind) in &model.links {
            let stroke = match kind {
                pb::LinkKind::Marked => Stroke::new(layout.size * 0.16, palette::MARKED_LINE),
                _ => Stroke::new(layout.size * 0.06, palette::LINE),
            };
            painter.line_segment([centre(*a), centre(*b)], stroke);
        }
    }

    selection.dropped = None;
    selection.hovered = None;
    for cell in &model.cells {
        let at = centre(cell.cell);
        let cell_rect = layout.cell_rect(at);
        let cell_response = ui.interact(cell_rect, cell_id(cell.cell), Sense::click());
        cell_response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &cell.label));
        if let Some(kind) = cell_response.dnd_release_payload::<DraggedKind>() {
            selection.dropped = Some((cell.cell, kind.0.clone()));
            response.mark_changed();
        }
        let hovered =
            cell_response.hovered() || cell_response.dnd_hover_payload::<DraggedKind>().is_some();
        if hovered {
            selection.hovered = Some(cell.cell);
        }
        draw_cell(&painter, &layout, at, cell, hovered, model.flash);
        if let Some(piece) = &cell.piece {
            draw_piece(&painter, &layout, at, piece, model.look.names);
        }
        if let Some(caption) = &cell.caption {
            draw_caption(&painter, &layout, at, caption, cell.piece.is_some());
        }
    }

    // How far beyond a row's end cell its name stands, in columns.
    let beyond = if geometry.shape() == pb::BoardShape::Hex {
        1.6
    } else {
        0.8
    };
    for label in &model.rows {
        let y = top_left.y + layout.origin.y + label.row as f32 * layout.unit.y;
        for column in [label.first as f32 - beyond, label.last as f32 + beyond] {
            painter.text(
                pos2(top_left.x + layout.origin.x + column * layout.unit.x, y),
                Align2::CENTER_CENTER,
                &label.text,
                coordinate_font.clone(),
                palette::COORDINATE,
            );
        }
    }
    let (_, rows) = geometry.extent();
    for (column, label) in &model.columns {
        let x = top_left.x + layout.origin.x + *column as f32 * layout.unit.x;
        let top = top_left.y + layout.origin.y - layout.unit.y * 0.8;
        let bottom = top_left.y
            + layout.origin.y
            + (rows as f32 - 1.0) * layout.unit.y
            + layout.unit.y * 0.8;
        for y in [top, bottom] {
            painter.text(
                pos2(x, y),
                Align2::CENTER_CENTER,
                label,
                coordinate_font.clone(),
                palette::COORDINATE,
            );
        }
    }
    response
}

/// The paper the board lies on, over `rect`. A square board's cells cover most of it, so
/// only what shows around and between them is painted: a software renderer paints every
/// pixel of every shape, and the paper under the cells was a third of a board's pixels.
fn draw_paper(painter: &egui::Painter, layout: &Layout, geometry: &Geometry, rect: Rect) {
    const CORNER: u8 = 8;
    if !matches!(
        layout.shape,
        pb::BoardShape::Square | pb::BoardShape::Unspecified
    ) {
        painter.rect_filled(rect, CornerRadius::same(CORNER), palette::BOARD);
        return;
    }
    let (columns, rows) = geometry.extent();
    let start = rect.min + layout.origin.to_vec2() - layout.unit / 2.0;
    let block = Rect::from_min_size(
        start,
        vec2(columns as f32 * layout.unit.x, rows as f32 * layout.unit.y),
    );
    // Each band and strip reaches a point under the cells beside it (so that no seam shows
    // between them) past the gap of a cell's width less its rect's (`Layout::cell_rect`).
    let reach = (layout.unit.x - layout.cell_rect(Pos2::ZERO).width()) / 2.0 + 1.0;
    let top = CornerRadius {
        nw: CORNER,
        ne: CORNER,
        ..CornerRadius::ZERO
    };
    let bottom = CornerRadius {
        sw: CORNER,
        se: CORNER,
        ..CornerRadius::ZERO
    };
    let bands = [
        (rect.with_max_y(block.min.y + reach), top),
        (rect.with_min_y(block.max.y - reach), bottom),
        (
            block.with_min_x(rect.min.x).with_max_x(block.min.x + reach),
            CornerRadius::ZERO,
        ),
        (
            block.with_max_x(rect.max.x).with_min_x(block.max.x - reach),
            CornerRadius::ZERO,
        ),
    ];
    for (band, corners) in bands {
        painter.rect_filled(band, corners, palette::BOARD);
    }
    for column in 1..columns {
        let x = block.min.x + column as f32 * layout.unit.x;
        let strip = block.with_min_x(x - reach).with_max_x(x + reach);
        painter.rect_filled(strip, CornerRadius::ZERO, palette::BOARD);
    }
    for row in 1..rows {
        let y = block.min.y + row as f32 * layout.unit.y;
        let strip = block.with_min_y(y - reach).with_max_y(y + reach);
        painter.rect_filled(strip, CornerRadius::ZERO, palette::BOARD);
    }
}

/// The fortress of a cross board: one stone patch behind its points.
fn draw_fortress(
    painter: &egui::Painter,
    model: &BoardModel,
    layout: &Layout,
    centre: &impl Fn(pb::Cell) -> Pos2,
) {
    let points: Vec<Pos2> = model
        .cells
        .iter()
        .filter(|c| c.terrain == pb::Terrain::Fortress)
        .map(|c| centre(c.cell))
        .collect();
    if let Some(first) = points.first() {
        let bounds = points
            .iter()
            .fold(Rect::from_center_size(*first, Vec2::ZERO), |r, p| {
                r.union(Rect::from_center_size(*p, Vec2::ZERO))
            });
        painter.rect_filled(
            bounds.expand(layout.size * 0.7),
            CornerRadius::same(6),
            palette::FORTRESS.gamma_multiply(0.55),
        );
    }
}

/// A cell's ground, terrain marks and highlight.
fn draw_cell(
    painter: &egui::Painter,
    layout: &Layout,
    at: Pos2,
    cell: &CellModel,
    hovered: bool,
    flash: f32,
) {
    let mut fill = palette::terrain(cell.terrain, layout.shape);
    if cell.terrain == pb::Terrain::Entry
        && let Some(seat) = cell.tint
    {
        fill = palette::seat_tint(seat);
    }
    if cell.terrain != pb::Terrain::Urban
        && cell.terrain != pb::Terrain::Entry
        && let Some(seat) = cell.tint
    {
        // A setup zone.
        fill = lerp_color(fill, palette::seat_tint(seat), 0.6);
    }
    if hovered {
        fill = lerp_color(fill, Color32::WHITE, 0.25);
    }
    let mark_color = cell.mark.map(|mark| match mark {
        Mark::Selected => palette::SELECTED,
        Mark::Target => palette::TARGET,
        Mark::Path => palette::SELECTED.gamma_multiply(0.8),
        Mark::LastMove => palette::LAST_MOVE,
    });
    if cell.mark == Some(Mark::LastMove) && flash > 0.0 {
        fill = lerp_color(fill, palette::LAST_MOVE, 0.6 * flash);
    }
    match layout.shape {
        pb::BoardShape::Hex => {
            painter.add(Shape::convex_polygon(
                layout.hex(at, 0.97),
                fill,
                Stroke::new(1.0, palette::BOARD.gamma_multiply(0.6)),
            ));
            if cell.terrain == pb::Terrain::Urban {
                let ring = cell.tint.map_or(palette::LINE, palette::seat);
                painter.add(Shape::closed_line(
                    layout.hex(at, 0.82),
                    Stroke::new(layout.size * 0.12, ring),
                ));
            }
            if cell.terrain == pb::Terrain::Swamp {
                for dy in [-0.3f32, 0.3] {
                    let y = at.y + dy * layout.size;
                    let half = layout.size * 0.45;
                    painter.line_segment(
                        [pos2(at.x - half, y), pos2(at.x + half, y)],
                        Stroke::new(1.5, palette::SWAMP.gamma_multiply(0.6)),
                    );
                }
            }
            if let Some(color) = mark_color {
                painter.add(Shape::closed_line(
                    layout.hex(at, 0.9),
                    Stroke::new(layout.size * 0.14, color),
                ));
            }
        }
        pb::BoardShape::Cross => {
            let radius = layout.size * 0.36;
            painter.circle_filled(at, radius, fill);
            painter.circle_stroke(at, radius, Stroke::new(1.5, palette::LINE));
            if let Some(color) = mark_color {
                painter.circle_stroke(at, radius * 1.45, Stroke::new(layout.size * 0.12, color));
            }
        }
        pb::BoardShape::Square | pb::BoardShape::Unspecified => {
            let rect = layout.cell_rect(at);
            // Square, so that the paper between cells is all that shows of it (`draw_paper`).
            painter.rect_filled(rect, CornerRadius::ZERO, fill);
            match cell.terrain {
                pb::Terrain::Castle => {
                    // Battlements along the top edge.
                    let step = rect.width() / 5.0;
                    for i in [0.0f32, 2.0, 4.0] {
                        let merlon = Rect::from_min_size(
                            rect.min + vec2(i * step, 0.0),
                            vec2(step, rect.height() * 0.14),
                        );
                        painter.rect_filled(merlon, CornerRadius::ZERO, palette::TRENCH);
                    }
                    painter.rect_stroke(
                        rect.shrink(1.0),
                        CornerRadius::same(3),
                        Stroke::new(2.0, palette::TRENCH),
                        StrokeKind::Inside,
                    );
                }
                pb::Terrain::Trench => {
                    let stroke = Stroke::new(1.5, palette::BOARD.gamma_multiply(0.45));
                    for i in 1..5 {
                        let t = i as f32 / 5.0;
                        painter.line_segment(
                            [
                                pos2(rect.left() + t * rect.width(), rect.bottom()),
                                pos2(rect.left(), rect.bottom() - t * rect.height()),
                            ],
                            stroke,
                        );
                    }
                }
                _ => {}
            }
            if let Some(color) = mark_color {
                painter.rect_stroke(
                    rect.shrink(1.0),
                    CornerRadius::same(3),
                    Stroke::new(layout.size * 0.12, color),
                    StrokeKind::Inside,
                );
            }
        }
    }
    if cell.mark == Some(Mark::Target) && cell.piece.is_none() {
        painter.circle_filled(at, layout.size * 0.16, palette::TARGET);
    }
}

/// A piece: a tile (army games), a disc (the cross) or a tank with its gun (hexes).
fn draw_piece(
    painter: &egui::Painter,
    layout: &Layout,
    at: Pos2,
    piece: &PieceModel,
    names_only: bool,
) {
    let color = palette::seat(piece.owner);
    let ink = Color32::from_rgb(0xfa, 0xf7, 0xf0);
    match layout.shape {
        pb::BoardShape::Square | pb::BoardShape::Unspecified => {
            let tile = Rect::from_center_size(at, Vec2::splat(layout.size * 1.62));
            let fill = if piece.name.is_some() {
                color
            } else {
                color.gamma_multiply(0.75)
            };
            painter.rect_filled(tile, CornerRadius::same(TILE_CORNER), fill);
            if let Some(name) = piece.name.as_ref().filter(|_| names_only) {
                // The name alone, as large as the tile allows.
                let area = tile.size() * vec2(0.92, 0.84);
                let largest = (layout.size * 0.42).max(8.0);
                tile_text::draw(painter, at, name, area, largest, 2, ink);
            } else if let Some(name) = &piece.name {
                let big = piece
                    .rank
                    .map_or_else(|| piece.code.clone().unwrap_or_default(), |r| r.to_string());
                painter.text(
                    at - vec2(0.0, layout.size * 0.36),
                    Align2::CENTER_CENTER,
                    big,
                    FontId::proportional(layout.size * 0.62),
                    ink,
                );
                // Room under the rank for a name of two words on two lines.
                let area = vec2(tile.width() * 0.94, layout.size * 0.76);
                let largest = (layout.size * 0.32).max(8.0);
                let under = at + vec2(0.0, layout.size * 0.36);
                tile_text::draw(painter, under, name, area, largest, 2, ink);
            }
            if piece.own && piece.revealed {
                // Known to the opponent: an open eye in the corner.
                painter.circle_stroke(
                    tile.right_top() + vec2(-layout.size * 0.22, layout.size * 0.22),
                    layout.size * 0.1,
                    Stroke::new(1.5, ink),
                );
            }
            if piece.name.is_none() && piece.moved {
                painter.circle_filled(
                    tile.right_bottom() - Vec2::splat(layout.size * 0.24),
                    layout.size * 0.1,
                    ink,
                );
            }
        }
        pb::BoardShape::Cross => {
            // No outline, as on tiles: a disc's took 300 triangles.
            painter.circle_filled(at, layout.size * 0.5, color);
            let code = piece.code.clone().unwrap_or_else(|| "?".to_owned());
            painter.text(
                at,
                Align2::CENTER_CENTER,
                code,
                FontId::proportional(layout.size * 0.55),
                ink,
            );
        }
        pb::BoardShape::Hex => {
            let radius = layout.size * 0.5;
            let color = if piece.spent {
                color.gamma_multiply(0.55)
            } else {
                color
            };
            if let Some(sixths) = piece.facing {
                let angle = f32::from(sixths) * std::f32::consts::FRAC_PI_3;
                let direction = vec2(angle.cos(), -angle.sin());
                let tip = at + direction * layout.size * 0.85;
                painter.line_segment([at, tip], Stroke::new(layout.size * 0.16, color));
                let side = vec2(-direction.y, direction.x) * layout.size * 0.18;
                painter.add(Shape::convex_polygon(
                    vec![tip + direction * layout.size * 0.12, tip + side, tip - side],
                    color,
                    Stroke::NONE,
                ));
            }
            let body = Rect::from_center_size(at, Vec2::splat(radius * 1.6));
            painter.rect_filled(body, CornerRadius::same(4), color);
            painter.rect_stroke(
                body,
                CornerRadius::same(4),
                Stroke::new(1.0, Color32::from_black_alpha(110)),
                StrokeKind::Inside,
            );
            let code = piece.code.clone().unwrap_or_else(|| "?".to_owned());
            painter.text(
                at,
                Align2::CENTER_CENTER,
                code,
                FontId::proportional(layout.size * 0.45),
                ink,
            );
        }
    }
}

/// A cell's letters inside it: in the middle of an empty hex, small at the top of a hex
/// with a tank (whose body fills the middle).
fn draw_caption(painter: &egui::Painter, layout: &Layout, at: Pos2, caption: &str, under: bool) {
    let (at, size) = if under {
        (at - vec2(0.0, layout.size * 0.66), layout.size * 0.26)
    } else {
        (at, layout.size * 0.42)
    };
    painter.text(
        at,
        Align2::CENTER_CENTER,
        caption,
        FontId::proportional(size.max(7.0)),
        palette::BOARD.gamma_multiply(0.55),
    );
}

/// Where the board keeps the size of its tiles for [`dragged_piece`].
fn tile_size_id() -> egui::Id {
    egui::Id::unique("board tile size")
}

/// A tile of `kind`, a piece of `owner`'s, under the pointer while it is dragged from the
/// setup tray, as large as the board's (labelled for screen readers and tests: "Espía,
/// dragged").
pub fn dragged_piece(ui: &Ui, names: &Names<'_>, kind: &str, owner: i32) {
    let Some(pointer) = ui.ctx().pointer_interact_pos() else {
        return;
    };
    let lang = lang(ui);
    let known = names.kind(kind);
    let piece = PieceModel {
        owner,
        own: true,
        name: Some(names.kind_name(kind)),
        code: known.map(|k| k.code.clone()),
        rank: known.and_then(|k| k.rank),
        moved: false,
        revealed: false,
        facing: None,
        spent: false,
    };
    let size = ui
        .ctx()
        .data(|data| data.get_temp(tile_size_id()))
        .unwrap_or(27.0_f32);
    let tile = Layout {
        origin: Pos2::ZERO,
        unit: Vec2::splat(size * 1.7),
        size,
        shape: pb::BoardShape::Square,
    };
    egui::Area::new(egui::Id::unique("dragged piece"))
        .order(egui::Order::Tooltip)
        .interactable(false)
        .fixed_pos(pointer - tile.unit / 2.0)
        .show(ui.ctx(), |ui| {
            let (rect, response) = ui.allocate_exact_size(tile.unit, Sense::hover());
            draw_piece(ui.painter(), &tile, rect.center(), &piece, false);
            let name = piece.name.clone().unwrap_or_default();
            let label = tr!(lang, "{name}, dragged", "{name}, arrastrada");
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
        });
}

/// What the marks on the tiles of a hidden army mean, each beside a small tile that shows
/// it: the ring on a piece of `viewer`'s, and the dot on an enemy piece.
pub fn legend(ui: &mut Ui, viewer: i32) {
    let lang = lang(ui);
    let known = PieceModel {
        owner: viewer,
        own: true,
        name: Some(String::new()),
        code: None,
        rank: None,
        moved: false,
        revealed: true,
        facing: None,
        spent: false,
    };
    let moved = PieceModel {
        owner: 1 - viewer,
        own: false,
        name: None,
        moved: true,
        revealed: false,
        ..known.clone()
    };
    // Half the size of a tile on a board that fills a window: the marks still show.
    let tile = Layout {
        origin: Pos2::ZERO,
        unit: Vec2::splat(34.0),
        size: 20.0,
        shape: pb::BoardShape::Square,
    };
    for (piece, en, es) in [
        (
            known,
            "ring: your piece, known to your opponent",
            "anillo: tu pieza, conocida por tu rival",
        ),
        (
            moved,
            "dot: a hidden enemy piece that has moved",
            "punto: una pieza enemiga oculta que se ha movido",
        ),
    ] {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(tile.unit, Sense::hover());
            draw_piece(ui.painter(), &tile, rect.center(), &piece, false);
            ui.label(lang.pick(en, es));
        });
    }
}

/// Mixes `a` towards `b` by `t`.
fn lerp_color(a: Color32, b: Color32, t: f32) -> Color32 {
    let mix = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ruleset() -> pb::Ruleset {
        let cells = (0..2)
            .flat_map(|y| {
                (0..2).map(move |x| pb::CellInfo {
                    cell: Some(pb::Cell { x, y }),
                    label: format!("{}{}", (b'a' + x as u8) as char, y + 1),
                    terrain: if (x, y) == (1, 1) {
                        pb::Terrain::Lake as i32
                    } else {
                        pb::Terrain::Open as i32
                    },
                    entry_seat: None,
                })
            })
            .collect();
        pb::Ruleset {
            seats: vec![
                pb::SeatInfo {
                    seat: 0,
                    name: "Rojo".into(),
                    ..Default::default()
                },
                pb::SeatInfo {
                    seat: 1,
                    name: "Azul".into(),
                    ..Default::default()
                },
            ],
            board: Some(pb::Board {
                shape: pb::BoardShape::Square as i32,
                width: 2,
                height: 2,
                cells,
                links: vec![],
            }),
            piece_kinds: vec![pb::PieceKind {
                id: "capitan".into(),
                name: "Capitán".into(),
                code: "C".into(),
                rank: Some(6),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    /// The cells' labels in `lang` of the board of `ruleset` with `pieces`, seen by seat 0.
    fn labels(lang: Lang, ruleset: &pb::Ruleset, pieces: &[pb::Piece]) -> Vec<String> {
        let names = Names::new(ruleset);
        let scene = Scene {
            names: &names,
            pieces,
            viewer: Some(0),
            status: None,
            zone: None,
            look: Default::default(),
        };
        let model = BoardModel::new(lang, scene, &HashMap::new());
        model.cells.into_iter().map(|c| c.label).collect()
    }

    #[test]
    fn labels_say_whose_piece_and_what_terrain() {
        let ruleset = ruleset();
        let pieces = [
            pb::Piece {
                cell: Some(pb::Cell { x: 0, y: 0 }),
                owner: 0,
                kind: "capitan".into(),
                ..Default::default()
            },
            pb::Piece {
                cell: Some(pb::Cell { x: 1, y: 0 }),
                owner: 1,
                moved: true,
                ..Default::default()
            },
        ];
        assert_eq!(
            labels(Lang::En, &ruleset, &pieces),
            [
                "a1, your Capitán",
                "b1, Azul's hidden piece (moved)",
                "a2, empty",
                "b2, lake",
            ]
        );
        assert_eq!(
            labels(Lang::Es, &ruleset, &pieces),
            [
                "a1, tu Capitán",
                "b1, pieza oculta de Azul (movida)",
                "a2, vacía",
                "b2, lago",
            ]
        );
    }

    #[test]
    fn an_own_piece_the_opponent_knows_says_so_in_a_hidden_army_game() {
        let mut ruleset = ruleset();
        let pieces = [pb::Piece {
            cell: Some(pb::Cell { x: 0, y: 0 }),
            owner: 0,
            kind: "capitan".into(),
            revealed: true,
            ..Default::default()
        }];
        assert_eq!(labels(Lang::En, &ruleset, &pieces)[0], "a1, your Capitán");
        ruleset.setup_zones = vec![pb::SetupZone {
            seat: 0,
            hidden: true,
            ..Default::default()
        }];
        assert_eq!(
            labels(Lang::En, &ruleset, &pieces)[0],
            "a1, your Capitán, known to your opponent"
        );
    }

    #[test]
    fn every_cell_is_a_labelled_button_and_a_click_is_known_before_the_board_is_drawn() {
        let ruleset = ruleset();
        let names = Names::new(&ruleset);
        let scene = Scene {
            names: &names,
            pieces: &[],
            viewer: Some(1),
            status: None,
            zone: None,
            look: Default::default(),
        };
        let marks = HashMap::from([((1, 0), Mark::Target)]);
        let model = BoardModel::new(Lang::En, scene, &marks);
        let cells = ruleset.board.clone().expect("a board").cells;
        let mut harness = egui_kittest::Harness::new_ui_state(
            |ui, seen: &mut Vec<Option<pb::Cell>>| {
                // As a screen asks, before it draws the board.
                seen.push(clicked(ui.ctx(), &cells));
                board_ui(ui, &model, &mut Selection::default());
            },
            Vec::new(),
        );
        harness.run();
        use egui_kittest::kittest::Queryable as _;
        assert!(harness.query_by_label("b1, empty, may be picked").is_some());
        harness.get_by_label("a2, empty").click();
        harness.step();
        assert_eq!(harness.state().last(), Some(&Some(pb::Cell { x: 0, y: 1 })));
        harness.step();
        assert_eq!(harness.state().last(), Some(&None), "one click, once");
    }
}
