//! The keyboard shortcuts, in a window over everything (F1).

use eframe::egui::{self, RichText};

use crate::i18n::Lang;

/// Every shortcut: keys, then what they do in English and in Spanish.
const SHORTCUTS: [(&str, &str, &str); 12] = [
    ("F1", "this help", "esta ayuda"),
    (
        "F2",
        "the rules of the game or replay on screen",
        "las reglas de la partida o repetición en pantalla",
    ),
    (
        "F3",
        "replay the open game so far",
        "repasar la partida abierta",
    ),
    ("F4", "flip the board", "girar el tablero"),
    ("F5", "refresh the lobby", "actualizar la sala"),
    (
        "F6",
        "piece names or ranks on tiles",
        "nombres o rangos en las fichas",
    ),
    (
        "Esc",
        "close the help or the rules; else cancel a move or close a replay",
        "cerrar la ayuda o las reglas; si no, cancelar una jugada o cerrar una repetición",
    ),
    (
        "Left Right",
        "step back and forward in a replay",
        "retroceder y avanzar en una repetición",
    ),
    (
        "Home / End",
        "jump to a replay's start or end",
        "saltar al inicio o al final de una repetición",
    ),
    (
        "F L R",
        "tanques: forward, turn left, turn right in a maneuver",
        "tanques: avanzar, girar a la izquierda, a la derecha",
    ),
    (
        "Enter",
        "confirm a maneuver; play the move typed",
        "confirmar una maniobra; jugar la jugada escrita",
    ),
    (
        "Tab",
        "move between buttons (Space presses one)",
        "pasar de un botón a otro (Espacio lo pulsa)",
    ),
];

/// Shows the keyboard help while `open`.
pub fn window(ctx: &egui::Context, lang: Lang, open: &mut bool) {
    egui::Window::new(lang.pick("Keyboard shortcuts", "Atajos de teclado"))
        .open(open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                for (keys, en, es) in SHORTCUTS {
                    ui.label(RichText::new(keys).monospace().strong());
                    ui.label(lang.pick(en, es));
                    ui.end_row();
                }
            });
        });
}
