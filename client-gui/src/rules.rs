//! Rules at hand: a window per ruleset with what the server describes of it — the game in
//! a paragraph, the seats, every piece (rank, count, how it moves, what is special about
//! it), the special squares of its board, how moves are written — and tanques' combat
//! table, in the window's language ([`RulesetTexts`]). A newcomer learns a game without
//! leaving the window.

use std::collections::BTreeSet;

use eframe::egui::{self, RichText, Ui};
use trinchera_client::ruleset_texts::RulesetTexts;
use trinchera_client::verify;
use trinchera_proto::v1 as pb;

use crate::i18n::{Lang, lang, tr};
use crate::palette;

/// Shows the rules window of `ruleset` while `open`, inside `screen`: under the top bar,
/// whose connection it covered otherwise.
pub fn window(
    ctx: &egui::Context,
    screen: egui::Rect,
    lang: Lang,
    ruleset: &pb::Ruleset,
    open: &mut bool,
) {
    let name = &ruleset.name;
    egui::Window::new(tr!(lang, "Rules: {name}", "Reglas: {name}"))
        .id(egui::Id::unique(("rules", &ruleset.id)))
        .open(open)
        .constrain_to(screen)
        .default_size([560.0, 620.0])
        .vscroll(true)
        .show(ctx, |ui| contents(ui, ruleset));
}

/// The rules of `ruleset`.
pub fn contents(ui: &mut Ui, ruleset: &pb::Ruleset) {
    let lang = lang(ui);
    let texts = RulesetTexts::new(lang, ruleset);
    ui.label(texts.description());
    ui.add_space(6.0);
    ui.label(RichText::new(lang.pick("Sides", "Bandos")).strong());
    for seat in &ruleset.seats {
        let (name, role) = (&seat.name, texts.role(seat.seat));
        let first = if seat.seat == 0 {
            lang.pick(" (moves first)", " (empieza)")
        } else {
            ""
        };
        ui.label(RichText::new(format!("{name}{first}: {role}")).color(palette::seat(seat.seat)));
    }
    ui.add_space(6.0);
    pieces(ui, texts, ruleset);
    ui.add_space(6.0);
    terrain(ui, lang, ruleset);
    if ruleset.board.as_ref().map(pb::Board::shape) == Some(pb::BoardShape::Hex) {
        ui.add_space(6.0);
        combat_table(ui, lang);
    }
    ui.add_space(6.0);
    ui.label(RichText::new(lang.pick("Writing moves", "Cómo se escriben las jugadas")).strong());
    ui.label(texts.notation());
}

/// Every piece kind: name, code, rank, count, whether it moves, and its note.
fn pieces(ui: &mut Ui, texts: RulesetTexts<'_>, ruleset: &pb::Ruleset) {
    let lang = lang(ui);
    ui.label(RichText::new(lang.pick("Pieces", "Piezas")).strong());
    if ruleset.piece_kinds.iter().any(|k| k.rank.is_some()) {
        ui.label(lang.pick(
            "In a battle the higher rank wins and equal ranks both fall, except where a \
             piece's note says otherwise.",
            "En un combate gana el rango mayor y con rangos iguales caen los dos, salvo \
             donde la nota de una pieza diga otra cosa.",
        ));
    }
    for kind in &ruleset.piece_kinds {
        let (code, count) = (&kind.code, kind.count);
        let mut facts = vec![code.clone(), format!("×{count}")];
        if let Some(rank) = kind.rank {
            facts.push(tr!(lang, "rank {rank}", "rango {rank}"));
        }
        facts.push(if kind.movable {
            lang.pick("moves", "se mueve").to_owned()
        } else {
            lang.pick("never moves", "nunca se mueve").to_owned()
        });
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(&kind.name).strong());
            ui.label(RichText::new(facts.join(" · ")).weak());
        });
        let note = texts.note(&kind.id);
        if !note.is_empty() {
            ui.indent(("note", &kind.id), |ui| {
                ui.add(egui::Label::new(note).wrap());
            });
        }
    }
}

/// The special squares of the board, each kind once.
fn terrain(ui: &mut Ui, lang: Lang, ruleset: &pb::Ruleset) {
    let kinds: BTreeSet<i32> = ruleset
        .board
        .iter()
        .flat_map(|b| &b.cells)
        .map(|c| c.terrain)
        .collect();
    let special: Vec<&str> = kinds
        .into_iter()
        .filter_map(|t| pb::Terrain::try_from(t).ok())
        .filter_map(|t| meaning(lang, t))
        .collect();
    let marked = ruleset
        .board
        .iter()
        .flat_map(|b| &b.links)
        .any(|l| l.kind() == pb::LinkKind::Marked);
    if special.is_empty() && !marked {
        return;
    }
    ui.label(RichText::new(lang.pick("Special squares", "Casillas especiales")).strong());
    for line in special {
        ui.label(format!("• {line}"));
    }
    if marked {
        ui.label(format!(
            "• {}",
            lang.pick(
                "Marked line (drawn red): only officers may move along it.",
                "Línea marcada (en rojo): solo los oficiales pueden moverse por ella.",
            )
        ));
    }
}

/// What a special terrain does; `None` for open ground.
fn meaning(lang: Lang, terrain: pb::Terrain) -> Option<&'static str> {
    let (en, es) = match terrain {
        pb::Terrain::Lake => (
            "Lake: no piece may enter it.",
            "Lago: ninguna pieza puede entrar.",
        ),
        pb::Terrain::Castle => (
            "Castle: a piece that ends its owner's third turn in a row there is removed.",
            "Castillo: la pieza que acaba ahí el tercer turno seguido de su dueño se retira.",
        ),
        pb::Terrain::Trench => (
            "Trench: its occupant cannot be attacked.",
            "Trinchera: quien la ocupa no puede ser atacado.",
        ),
        pb::Terrain::Swamp => (
            "Swamp: a tank there cannot turn.",
            "Pantano: un tanque ahí no puede girar.",
        ),
        pb::Terrain::Urban => (
            "Urban hex: counts for victory and for the maneuvers of a turn.",
            "Hexágono urbano: cuenta para la victoria y para las maniobras de un turno.",
        ),
        pb::Terrain::Entry => (
            "Entry hex: where a side brings its tanks onto the board.",
            "Hexágono de entrada: por donde un bando mete sus tanques en el tablero.",
        ),
        pb::Terrain::Fortress => (
            "Fortress: the rebels win by filling it; the officers defend it.",
            "Fortaleza: los rebeldes ganan llenándola; los oficiales la defienden.",
        ),
        pb::Terrain::Open | pb::Terrain::Unspecified => return None,
    };
    Some(lang.pick(en, es))
}

/// Tanques' combat table: the die rolls that destroy the target, by number of attackers.
fn combat_table(ui: &mut Ui, lang: Lang) {
    ui.label(RichText::new(lang.pick("Combat table", "Tabla de combate")).strong());
    ui.label(lang.pick(
        "Roll one die; the target is destroyed on the rolls marked X.",
        "Se tira un dado; el objetivo queda destruido con las tiradas marcadas X.",
    ));
    egui::Grid::new("combat table")
        .striped(true)
        .show(ui, |ui| {
            ui.label(RichText::new(lang.pick("Attackers", "Atacantes")).strong());
            for roll in 1..=6 {
                ui.label(RichText::new(roll.to_string()).strong());
            }
            ui.end_row();
            for column in 1..=4 {
                ui.label(if column == 4 {
                    "4+".to_owned()
                } else {
                    column.to_string()
                });
                for roll in 1..=6 {
                    ui.label(if verify::attacker_wins(column, roll) {
                        "X"
                    } else {
                        "·"
                    });
                }
                ui.end_row();
            }
        });
}
