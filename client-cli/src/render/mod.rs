//! Drawing boards as text, from the ruleset description alone: one module per board shape,
//! sharing what a cell looks like (this module) and the colours.
//!
//! Every cell is a left mark, a middle of two characters (three on hex boards) and a right
//! mark. The outer marks show terrain (`[ ]` castle, urban hex or fortress point, `( )`
//! trench or swamp, `~~~~` lake). The middle starts with a glyph: a piece code, `?` for a
//! piece whose kind the viewer may not know, `.` for an empty cell (a seat digit in a
//! ruleset drawing's setup zone). Its second character is a tank's facing arrow, `*` on a
//! player's own piece whose kind the opponent knows, `•` on an enemy piece of unknown kind
//! that has moved (so it is not one that never moves, such as a bomb or the flag), the
//! owner's seat digit on a spectator's `?`, or the seat digit of an empty entry cell. On hex
//! boards, whose letters are no columns, an empty hex shows its whole name instead (`c6`,
//! `a11`), in the colour of the seat that enters there or controls it, and an urban hex
//! held by a side shows `●` (the upper-case side's) or `○` after its name or tank.
//!
//! Case tells the sides apart: the viewer's own pieces are in upper case and the opponent's
//! in lower case; a spectator sees seat 0 in upper case. Boards are drawn from the viewer's
//! side: seat 1 sees them turned by 180°.

mod cross;
mod hex;
mod square;

use std::collections::HashMap;
use std::io::IsTerminal;

use trinchera_client::{Geometry, Names};
use trinchera_proto::v1 as pb;

/// How text is coloured: ANSI colours on a terminal, plain otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    color: bool,
}

/// What a piece of text is, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// Nothing special.
    Plain,
    /// Something of a seat (its pieces, its name).
    Seat(i32),
    /// A lake.
    Water,
    /// Castles, trenches, fortress, urban hexes: terrain that changes the rules.
    Terrain,
    /// Swamps.
    Swamp,
    /// Labels and other secondary text.
    Dim,
    /// Headlines.
    Bold,
    /// Good news (a passed check).
    Good,
    /// Bad news (a failed check).
    Bad,
}

impl Style {
    /// Colour on standard output only if it is a terminal and `NO_COLOR` is not set.
    pub fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            color: !no_color && std::io::stdout().is_terminal(),
        }
    }

    /// Never colour.
    pub const fn plain() -> Style {
        Style { color: false }
    }

    /// `text` in the colour of `paint`.
    pub fn paint(self, text: &str, paint: Paint) -> String {
        let code = match paint {
            Paint::Plain => return text.to_owned(),
            Paint::Seat(0) => "1;31",
            Paint::Seat(_) => "1;34",
            Paint::Water => "36",
            Paint::Terrain => "33",
            Paint::Swamp => "32",
            Paint::Dim => "2",
            Paint::Bold => "1",
            Paint::Good => "32",
            Paint::Bad => "1;31",
        };
        if self.color && !text.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

/// What to draw.
#[derive(Clone, Copy, Debug)]
pub struct Drawing<'a> {
    /// The ruleset names.
    pub names: &'a Names<'a>,
    /// The game, or `None` for an empty board with its setup zones.
    pub view: Option<&'a pb::GameView>,
    /// Draw from seat 0's side whatever the viewer.
    pub no_flip: bool,
}

impl Drawing<'_> {
    /// The viewer's seat (None: spectator or a ruleset drawing).
    fn viewer(&self) -> Option<i32> {
        self.view.and_then(|view| view.viewer_seat)
    }

    /// The seat whose pieces are in upper case: the viewer's, else seat 0.
    fn upper_seat(&self) -> i32 {
        self.viewer().unwrap_or(0)
    }

    /// Whether the board is turned by 180°.
    fn flipped(&self) -> bool {
        flipped(self.no_flip, self.view)
    }

    /// Where the cells of `board` go, from the viewer's side.
    fn geometry(&self, board: &pb::Board) -> Geometry {
        Geometry::new(board, self.flipped())
    }
}

/// Whether `view`'s board is drawn turned by 180°: for seat 1, unless `no_flip`.
pub fn flipped(no_flip: bool, view: Option<&pb::GameView>) -> bool {
    !no_flip && view.and_then(|view| view.viewer_seat) == Some(1)
}

/// Draws the board of `drawing` with a legend line.
pub fn board(drawing: &Drawing<'_>, style: Style) -> String {
    let Some(board) = drawing.names.ruleset.board.as_ref() else {
        return "(the ruleset has no board)\n".to_owned();
    };
    let cells = Cells::new(drawing, board);
    let canvas = match board.shape() {
        pb::BoardShape::Hex => hex::draw(drawing, board, &cells),
        pb::BoardShape::Cross => cross::draw(drawing, board, &cells),
        pb::BoardShape::Square | pb::BoardShape::Unspecified => {
            square::draw(drawing, board, &cells)
        }
    };
    let mut text = canvas.render(style);
    text.push_str(&style.paint(&legend(drawing), Paint::Dim));
    text.push('\n');
    text
}

/// The legend under a board.
fn legend(drawing: &Drawing<'_>) -> String {
    let names = drawing.names;
    let mut parts = Vec::new();
    match (drawing.view, drawing.viewer()) {
        (None, _) => {
            // Only the zones there are: asalto's rebels set up nowhere.
            parts.extend(names.ruleset.setup_zones.iter().map(|zone| {
                format!(
                    "{}: setup zone of {}",
                    seat_digit(zone.seat),
                    names.seat(zone.seat)
                )
            }));
        }
        (Some(_), Some(seat)) => {
            parts.push(format!(
                "UPPER: yours ({}), lower: {}",
                names.seat(seat),
                names.seat(1 - seat)
            ));
            if names.hidden_setups() {
                parts.push("?: unknown kind".to_owned());
                parts.push(format!("{MOVED}: has moved"));
                parts.push("*: known to the opponent".to_owned());
            }
        }
        (Some(_), None) => {
            parts.push(format!(
                "UPPER: {}, lower: {}",
                names.seat(0),
                names.seat(1)
            ));
            if names.hidden_setups() {
                parts.push("?0/?1: unknown kind of seat 0/1".to_owned());
            }
        }
    }
    let terrains: Vec<pb::Terrain> = drawing
        .names
        .ruleset
        .board
        .iter()
        .flat_map(|b| b.cells.iter().map(|c| c.terrain()))
        .collect();
    for (terrain, text) in [
        (pb::Terrain::Lake, "~~: lake".to_owned()),
        (pb::Terrain::Castle, "[ ]: castle".to_owned()),
        (pb::Terrain::Trench, "( ): trench".to_owned()),
        (pb::Terrain::Urban, urban_legend(drawing)),
        (pb::Terrain::Swamp, "( ): swamp".to_owned()),
        (pb::Terrain::Entry, entry_legend(names)),
        (pb::Terrain::Fortress, "[ ]: fortress".to_owned()),
    ] {
        if terrains.contains(&terrain) {
            parts.push(text);
        }
    }
    let marked = names
        .ruleset
        .board
        .iter()
        .flat_map(|b| &b.links)
        .any(|l| l.kind() == pb::LinkKind::Marked);
    if marked {
        parts.push("=: marked line (officers only)".to_owned());
    }
    let hex = names.ruleset.board.as_ref().map(pb::Board::shape) == Some(pb::BoardShape::Hex);
    if hex {
        // The notation's compass is the board's, so on a turned board N points down.
        parts.push(if drawing.flipped() {
            "facings E NE NW W SW SE: the board's compass, N at the bottom for you".to_owned()
        } else {
            "facings E NE NW W SW SE: the board's compass, N at the top".to_owned()
        });
    }
    if drawing.flipped() {
        parts.push("seen from seat 1".to_owned());
    }
    parts.join(" · ")
}

/// The urban hexes' part of the legend: their marks of control, from the viewer's side.
fn urban_legend(drawing: &Drawing<'_>) -> String {
    if drawing.view.is_none() {
        return "[ ]: urban hex".to_owned();
    }
    let names = drawing.names;
    let upper = drawing.upper_seat();
    let held = |seat| {
        if drawing.viewer() == Some(seat) {
            "you".to_owned()
        } else {
            names.seat(seat)
        }
    };
    format!(
        "[ ]: urban hex, {HELD_BY_UPPER} held by {}, {HELD_BY_LOWER} by {}",
        held(upper),
        held(1 - upper)
    )
}

/// The entry cells' part of the legend: each seat's rows ("entry rows: 1 Rojo, 11 Azul").
fn entry_legend(names: &Names<'_>) -> String {
    let cells = names.ruleset.board.iter().flat_map(|board| &board.cells);
    let mut rows: Vec<(i32, String)> = Vec::new();
    for info in cells.filter(|info| info.terrain() == pb::Terrain::Entry) {
        let (Some(seat), Some(cell)) = (info.entry_seat, &info.cell) else {
            continue;
        };
        let row = (seat, names.row_label(cell.y));
        if !rows.contains(&row) {
            rows.push(row);
        }
    }
    rows.sort();
    let rows: Vec<String> = rows
        .iter()
        .map(|(seat, row)| format!("{row} {}", names.seat(*seat)))
        .collect();
    format!("entry rows: {}", rows.join(", "))
}

/// The cells of the board with what stands on them.
#[derive(Debug)]
struct Cells {
    /// The four characters and paint of each cell.
    text: HashMap<(i32, i32), CellText>,
}

/// A drawn cell: the terrain marks around a middle of two characters (three on hex boards).
#[derive(Clone, Debug, PartialEq, Eq)]
struct CellText {
    left: char,
    middle: Vec<char>,
    right: char,
    middle_paint: Paint,
    terrain_paint: Paint,
}

impl Cells {
    fn new(drawing: &Drawing<'_>, board: &pb::Board) -> Cells {
        let geometry = drawing.geometry(board);
        let mut pieces: HashMap<(i32, i32), &pb::Piece> = HashMap::new();
        if let Some(view) = drawing.view {
            for piece in &view.pieces {
                if let Some(cell) = &piece.cell {
                    pieces.insert((cell.x, cell.y), piece);
                }
            }
        }
        let control: HashMap<(i32, i32), i32> = match drawing.view.and_then(|v| v.status.as_ref()) {
            Some(pb::game_view::Status::Tanks(tanks)) => tanks
                .control
                .iter()
                .filter_map(|c| Some(((c.cell.as_ref()?.x, c.cell.as_ref()?.y), c.seat?)))
                .collect(),
            _ => HashMap::new(),
        };
        let zones: HashMap<(i32, i32), i32> = if drawing.view.is_none() {
            drawing
                .names
                .ruleset
                .setup_zones
                .iter()
                .flat_map(|zone| zone.cells.iter().map(|c| ((c.x, c.y), zone.seat)))
                .collect()
        } else {
            HashMap::new()
        };
        let mut text = HashMap::new();
        for cell_info in &board.cells {
            let Some(cell) = &cell_info.cell else {
                continue;
            };
            let key = (cell.x, cell.y);
            // Hex rows have no columns: an empty hex shows its whole name.
            let name = (board.shape() == pb::BoardShape::Hex).then_some(cell_info.label.as_str());
            let extra = EmptyMark {
                zone: zones.get(&key).copied(),
                control: control.get(&key).copied(),
                name,
            };
            text.insert(
                key,
                cell_text(
                    drawing,
                    &geometry,
                    cell_info,
                    pieces.get(&key).copied(),
                    extra,
                ),
            );
        }
        Cells { text }
    }

    /// The drawn cell at `(x, y)`, if it exists.
    fn at(&self, x: i32, y: i32) -> Option<&CellText> {
        self.text.get(&(x, y))
    }
}

/// What an empty cell may show besides its terrain.
#[derive(Clone, Copy, Debug, Default)]
struct EmptyMark<'a> {
    /// The seat whose setup zone holds it (ruleset drawings).
    zone: Option<i32>,
    /// The seat that controls it (urban hexes).
    control: Option<i32>,
    /// Its name, shown instead of a dot (hex boards).
    name: Option<&'a str>,
}

/// The mark of an enemy piece of unknown kind that has moved.
const MOVED: char = '•';

/// The marks of an urban hex held by the side in upper case, and by the other.
const HELD_BY_UPPER: char = '●';
const HELD_BY_LOWER: char = '○';

/// The width of a hex's middle: the longest name (`a11`).
pub(super) const HEX_MIDDLE: usize = 3;

/// The arrow of a facing as seen on screen.
fn facing_arrow(geometry: &Geometry, facing: pb::Facing) -> char {
    const ARROWS: [char; 6] = ['→', '↗', '↖', '←', '↙', '↘'];
    ARROWS[usize::from(geometry.facing_sixths(facing))]
}

fn seat_digit(seat: i32) -> char {
    char::from_digit(seat.unsigned_abs(), 10).unwrap_or('#')
}

/// How one cell looks.
fn cell_text(
    drawing: &Drawing<'_>,
    geometry: &Geometry,
    info: &pb::CellInfo,
    piece: Option<&pb::Piece>,
    extra: EmptyMark,
) -> CellText {
    let (left, right, terrain_paint) = match info.terrain() {
        pb::Terrain::Castle | pb::Terrain::Urban | pb::Terrain::Fortress => {
            ('[', ']', Paint::Terrain)
        }
        pb::Terrain::Trench => ('(', ')', Paint::Terrain),
        pb::Terrain::Swamp => ('(', ')', Paint::Swamp),
        pb::Terrain::Lake => {
            return CellText {
                left: '~',
                middle: vec!['~', '~'],
                right: '~',
                middle_paint: Paint::Water,
                terrain_paint: Paint::Water,
            };
        }
        pb::Terrain::Open | pb::Terrain::Entry | pb::Terrain::Unspecified => {
            (' ', ' ', Paint::Plain)
        }
    };
    let (mut middle, middle_paint) = match piece {
        Some(piece) => (
            piece_chars(drawing, geometry, piece).to_vec(),
            Paint::Seat(piece.owner),
        ),
        None => empty_chars(info, extra),
    };
    if extra.name.is_some() {
        middle = hex_middle(drawing, middle, extra.control);
    }
    CellText {
        left,
        middle,
        right,
        middle_paint,
        terrain_paint,
    }
}

/// The glyph and mark of a piece.
fn piece_chars(drawing: &Drawing<'_>, geometry: &Geometry, piece: &pb::Piece) -> [char; 2] {
    let viewer = drawing.viewer();
    let upper_seat = drawing.upper_seat();
    let code = drawing
        .names
        .kind(&piece.kind)
        .and_then(|kind| kind.code.chars().next());
    let glyph = match code {
        Some(code) if piece.owner == upper_seat => code.to_ascii_uppercase(),
        Some(code) => code.to_ascii_lowercase(),
        None => '?',
    };
    let mark = if let Some(facing) = piece.facing {
        facing_arrow(geometry, pb::Facing::try_from(facing).unwrap_or_default())
    } else if code.is_none() && viewer.is_none() {
        seat_digit(piece.owner)
    } else if viewer == Some(piece.owner) && piece.revealed && drawing.names.hidden_setups() {
        '*'
    } else if code.is_none() && piece.moved {
        MOVED
    } else {
        ' '
    };
    [glyph, mark]
}

/// The middle of an empty cell, and its paint.
fn empty_chars(info: &pb::CellInfo, extra: EmptyMark) -> (Vec<char>, Paint) {
    if let Some(seat) = extra.zone {
        return (vec![seat_digit(seat), ' '], Paint::Seat(seat));
    }
    let entry = info
        .entry_seat
        .filter(|_| info.terrain() == pb::Terrain::Entry);
    let Some(name) = extra.name else {
        return match entry {
            Some(seat) => (vec![seat_digit(seat), ' '], Paint::Seat(seat)),
            None => (vec!['.', ' '], Paint::Dim),
        };
    };
    let paint = entry.or(extra.control).map_or(Paint::Dim, Paint::Seat);
    (name.chars().collect(), paint)
}

/// The middle of a hex: what stands there or its name, then the mark of the side that
/// holds it where there is room (the colour of an empty hex tells the holder regardless).
fn hex_middle(drawing: &Drawing<'_>, mut middle: Vec<char>, control: Option<i32>) -> Vec<char> {
    if let Some(seat) = control
        && middle.len() < HEX_MIDDLE
    {
        middle.push(if seat == drawing.upper_seat() {
            HELD_BY_UPPER
        } else {
            HELD_BY_LOWER
        });
    }
    middle.resize(HEX_MIDDLE, ' ');
    middle
}

/// A grid of painted characters that shapes draw on.
#[derive(Debug)]
struct Canvas {
    lines: Vec<Vec<(char, Paint)>>,
}

impl Canvas {
    fn new() -> Canvas {
        Canvas { lines: Vec::new() }
    }

    /// Writes `text` at column `x` of line `y`, growing the canvas as needed.
    fn put(&mut self, x: usize, y: usize, text: &str, paint: Paint) {
        if self.lines.len() <= y {
            self.lines.resize_with(y + 1, Vec::new);
        }
        let line = &mut self.lines[y];
        for (i, c) in text.chars().enumerate() {
            if line.len() <= x + i {
                line.resize(x + i + 1, (' ', Paint::Plain));
            }
            line[x + i] = (c, paint);
        }
    }

    /// The character at column `x` of line `y`.
    fn get(&self, x: usize, y: usize) -> char {
        self.lines
            .get(y)
            .and_then(|line| line.get(x))
            .map_or(' ', |(c, _)| *c)
    }

    /// Writes a drawn cell with its left mark at column `x`.
    fn put_cell(&mut self, x: usize, y: usize, cell: &CellText) {
        self.put(x, y, &cell.left.to_string(), cell.terrain_paint);
        let middle: String = cell.middle.iter().collect();
        self.put(x + 1, y, &middle, cell.middle_paint);
        let right = x + 1 + cell.middle.len();
        self.put(right, y, &cell.right.to_string(), cell.terrain_paint);
    }

    /// The text, coloured by `style`, without trailing spaces.
    fn render(&self, style: Style) -> String {
        let mut text = String::new();
        for line in &self.lines {
            let end = line
                .iter()
                .rposition(|(c, _)| *c != ' ')
                .map_or(0, |i| i + 1);
            let mut run = String::new();
            let mut run_paint = Paint::Plain;
            for &(c, paint) in &line[..end] {
                if paint != run_paint && !run.is_empty() {
                    text.push_str(&style.paint(&run, run_paint));
                    run.clear();
                }
                run_paint = paint;
                run.push(c);
            }
            text.push_str(&style.paint(&run, run_paint));
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The two seats of a test ruleset, named.
    pub(crate) fn seats(names: [&str; 2]) -> Vec<pb::SeatInfo> {
        (0..)
            .zip(names)
            .map(|(seat, name)| pb::SeatInfo {
                seat,
                name: name.into(),
                role: String::new(),
            })
            .collect()
    }

    /// A test board of `shape`, `width` × `height`, with its cells and links.
    pub(crate) fn test_board(
        shape: pb::BoardShape,
        (width, height): (i32, i32),
        cells: Vec<pb::CellInfo>,
        links: Vec<pb::Link>,
    ) -> Option<pb::Board> {
        Some(pb::Board {
            shape: shape as i32,
            width,
            height,
            cells,
            links,
        })
    }

    /// `view` drawn without colour, not flipped.
    pub(crate) fn plain(names: &Names, view: &pb::GameView) -> String {
        let drawing = Drawing {
            names,
            view: Some(view),
            no_flip: false,
        };
        board(&drawing, Style::plain())
    }

    /// A tiny square ruleset: 3 columns, 2 rows, a lake at b2, one kind "soldado" S.
    pub(super) fn tiny_ruleset() -> pb::Ruleset {
        let mut cells = Vec::new();
        for y in 0..2 {
            for x in 0..3 {
                let label = format!("{}{}", (b'a' + x as u8) as char, y + 1);
                let terrain = if (x, y) == (1, 1) {
                    pb::Terrain::Lake
                } else {
                    pb::Terrain::Open
                };
                cells.push(pb::CellInfo {
                    cell: Some(pb::Cell { x, y }),
                    label,
                    terrain: terrain as i32,
                    entry_seat: None,
                });
            }
        }
        pb::Ruleset {
            id: "tiny".into(),
            seats: seats(["Rojo", "Azul"]),
            board: test_board(pb::BoardShape::Square, (3, 2), cells, vec![]),
            piece_kinds: vec![pb::PieceKind {
                id: "soldado".into(),
                name: "Soldado".into(),
                code: "S".into(),
                count: 1,
                movable: true,
                ..Default::default()
            }],
            setup_zones: vec![pb::SetupZone {
                seat: 0,
                cells: vec![pb::Cell { x: 0, y: 0 }],
                hidden: true,
                pieces: vec![],
            }],
            ..Default::default()
        }
    }

    fn piece(owner: i32, kind: &str, x: i32, y: i32, revealed: bool) -> pb::Piece {
        pb::Piece {
            id: 0,
            cell: Some(pb::Cell { x, y }),
            owner,
            kind: kind.into(),
            revealed,
            moved: false,
            facing: None,
        }
    }

    #[test]
    fn moved_enemy_pieces_of_unknown_kind_are_marked() {
        let ruleset = tiny_ruleset();
        let names = Names::new(&ruleset);
        let moved = pb::Piece {
            moved: true,
            ..piece(1, "", 2, 1, false)
        };
        let view = pb::GameView {
            viewer_seat: Some(0),
            pieces: vec![moved, piece(1, "", 0, 1, false)],
            ..Default::default()
        };
        let text = plain(&names, &view);
        assert!(text.contains(" ?• "), "{text}");
        assert_eq!(text.matches("?•").count(), 1, "only the moved one: {text}");
        assert!(text.contains("•: has moved"), "the legend says so: {text}");
    }

    #[test]
    fn pieces_show_by_side_and_knowledge() {
        let ruleset = tiny_ruleset();
        let names = Names::new(&ruleset);
        let view = pb::GameView {
            viewer_seat: Some(0),
            pieces: vec![
                piece(0, "soldado", 0, 0, true),
                piece(1, "", 2, 1, false),
                piece(1, "soldado", 2, 0, true),
            ],
            ..Default::default()
        };
        let text = plain(&names, &view);
        assert!(text.contains(" S* "), "{text}");
        assert!(text.contains(" ?  "), "{text}");
        assert!(text.contains(" s  "), "{text}");
        assert!(text.contains("~~~~"), "{text}");
    }

    #[test]
    fn spectators_see_the_owner_of_unknown_pieces() {
        let ruleset = tiny_ruleset();
        let names = Names::new(&ruleset);
        let view = pb::GameView {
            pieces: vec![piece(0, "", 0, 0, false), piece(1, "", 2, 1, false)],
            ..Default::default()
        };
        let text = plain(&names, &view);
        assert!(text.contains("?0") && text.contains("?1"), "{text}");
    }

    #[test]
    fn colour_wraps_only_when_asked() {
        let colored = Style { color: true };
        assert_eq!(colored.paint("S", Paint::Seat(1)), "\x1b[1;34mS\x1b[0m");
        assert_eq!(Style::plain().paint("S", Paint::Seat(1)), "S");
    }
}
