//! The colours of the game: one per seat, used for everything of that seat, and calm
//! terrain colours that tell water, castle, trench, swamp, urban and fortress apart.

use eframe::egui::Color32;
use trinchera_proto::v1 as pb;

/// The paper the boards lie on.
pub const BOARD: Color32 = Color32::from_rgb(0x3b, 0x41, 0x47);
/// Plain ground of square and cross boards.
pub const GROUND: Color32 = Color32::from_rgb(0xe8, 0xe0, 0xc8);
/// Plain ground of hex boards.
pub const FIELD: Color32 = Color32::from_rgb(0xcf, 0xd8, 0xb0);
/// Lakes.
pub const WATER: Color32 = Color32::from_rgb(0x86, 0xb4, 0xcf);
/// Castles: light stone.
pub const CASTLE: Color32 = Color32::from_rgb(0xc9, 0xb6, 0x8e);
/// Trenches: dug earth.
pub const TRENCH: Color32 = Color32::from_rgb(0xa4, 0x82, 0x5a);
/// Swamps: olive.
pub const SWAMP: Color32 = Color32::from_rgb(0x8f, 0x9e, 0x63);
/// Urban hexes: grey stone.
pub const URBAN: Color32 = Color32::from_rgb(0xb4, 0xb0, 0xa8);
/// The fortress of the cross.
pub const FORTRESS: Color32 = Color32::from_rgb(0xd2, 0xbf, 0x95);
/// Lines of the cross.
pub const LINE: Color32 = Color32::from_rgb(0x6c, 0x63, 0x55);
/// German Tactics' marked lines, only officers may use them.
pub const MARKED_LINE: Color32 = Color32::from_rgb(0x9b, 0x3d, 0x2e);
/// Edge coordinates.
pub const COORDINATE: Color32 = Color32::from_rgb(0xc8, 0xc4, 0xb8);
/// The selected piece.
pub const SELECTED: Color32 = Color32::from_rgb(0xf2, 0xc1, 0x3b);
/// Where the selected piece may go.
pub const TARGET: Color32 = Color32::from_rgb(0x3f, 0x9b, 0x5f);
/// The cells of the last move.
pub const LAST_MOVE: Color32 = Color32::from_rgb(0xe0, 0x8a, 0x2c);
/// Behind the clock that runs.
pub const CLOCK_RUNNING: Color32 = Color32::from_rgb(0xfb, 0xec, 0xb5);
/// Behind a warning that must not be missed (a failed fairness check).
pub const ALARM: Color32 = Color32::from_rgb(0xff, 0xe1, 0xdc);
/// Text on light ground.
pub const INK: Color32 = Color32::from_rgb(0x2b, 0x2b, 0x2b);

/// The colour of a seat: seat 0 (Rojo, Rebeldes) warm red, seat 1 (Azul, Oficiales) blue.
pub fn seat(seat: i32) -> Color32 {
    if seat == 0 {
        Color32::from_rgb(0xb8, 0x3b, 0x32)
    } else {
        Color32::from_rgb(0x2f, 0x62, 0xa8)
    }
}

/// A lighter tint of a seat's colour (entry hexes, setup zones).
pub fn seat_tint(seat: i32) -> Color32 {
    if seat == 0 {
        Color32::from_rgb(0xe9, 0xc4, 0xb8)
    } else {
        Color32::from_rgb(0xbc, 0xcd, 0xe6)
    }
}

/// The fill of a terrain on a board of `shape`.
pub fn terrain(terrain: pb::Terrain, shape: pb::BoardShape) -> Color32 {
    match terrain {
        pb::Terrain::Lake => WATER,
        pb::Terrain::Castle => CASTLE,
        pb::Terrain::Trench => TRENCH,
        pb::Terrain::Swamp => SWAMP,
        pb::Terrain::Urban => URBAN,
        pb::Terrain::Fortress => FORTRESS,
        pb::Terrain::Open | pb::Terrain::Entry | pb::Terrain::Unspecified => {
            if shape == pb::BoardShape::Hex {
                FIELD
            } else {
                GROUND
            }
        }
    }
}
