//! The accessible labels of a board's cells in the window's language: the cell's name, then
//! what stands on it or what it is, then its highlight ("e5, empty, may be picked"), so that
//! a screen reader can read the board and tests can click it.

use trinchera_client::Names;
use trinchera_proto::v1 as pb;

use super::model::{Mark, PieceModel};
use crate::i18n::{Lang, tr};

/// The highlight `mark` in words, after a cell's label ("e5, empty, may be picked").
pub(super) fn mark_words(mark: Mark, lang: Lang) -> &'static str {
    match mark {
        Mark::Selected => lang.pick("selected", "elegida"),
        Mark::Target => lang.pick("may be picked", "se puede elegir"),
        Mark::Path => lang.pick("on the way", "en el recorrido"),
        Mark::LastMove => lang.pick("last move", "última jugada"),
    }
}

/// The accessible label of a cell in `lang`: its name, then what is on it or what it is.
pub(super) fn cell_label(
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
