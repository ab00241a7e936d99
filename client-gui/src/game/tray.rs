//! The setup tray ([`SetupEditor`]): the buttons that submit, fill at random or clear the
//! setup (first, so that nothing above them moves them while the player places pieces), the
//! pieces left by kind (click one to take it in hand, or drag it onto a cell), what a
//! refused setup lacked, and the saved setups.

use eframe::egui::{self, RichText, Ui};
use trinchera_client::Names;
use trinchera_client::tray::Tray;
use trinchera_proto::v1 as pb;

use super::command::Command;
use super::state::Game;
use crate::board::{self, DraggedKind};
use crate::i18n::{lang, tr};
use crate::palette;
use crate::setup::Draft;
use crate::shelf::Shelf;
use crate::shelf_ui::{self, Editing, ShelfState};

/// A setup the server refused: what was sent, and the problems the server named.
#[derive(Clone, Debug)]
struct Refused {
    sent: Tray,
    problems: Vec<String>,
}

/// The setup being put together in an open game.
#[derive(Clone, Debug, Default)]
pub struct SetupEditor {
    /// The placements and the kind in hand.
    draft: Draft,
    /// The last setup refused, until one is accepted.
    refused: Option<Refused>,
    /// The saved-setups panel.
    shelf: ShelfState,
    /// Whether "Random setup" keeps the pieces placed.
    keep: bool,
}

impl SetupEditor {
    /// An empty editor with the first kind of `zone` in hand.
    pub fn new(zone: Option<&pb::SetupZone>) -> SetupEditor {
        SetupEditor {
            draft: Draft::new(zone),
            ..SetupEditor::default()
        }
    }

    /// The placements and the kind in hand.
    pub fn draft(&self) -> &Draft {
        &self.draft
    }

    /// A click on `cell` of the board: places the kind in hand there, or takes back the
    /// piece placed there.
    pub fn click(&mut self, zone: &pb::SetupZone, cell: pb::Cell) {
        self.draft.click(zone, cell);
    }

    /// A piece of `kind` dragged from the tray and dropped on `cell`.
    pub fn drop_on(&mut self, zone: &pb::SetupZone, cell: pb::Cell, kind: &str) {
        self.draft.drop_on(zone, cell, kind);
    }

    /// A setup the server made for `zone`: it goes on the board to adjust.
    pub fn suggested(&mut self, zone: &pb::SetupZone, placements: &[pb::Placement]) {
        self.draft.load(zone, placements);
    }

    /// The server refused the setup on the board, naming `problems`.
    pub fn refused(&mut self, problems: Vec<String>) {
        let sent = self.draft.tray().clone();
        self.refused = Some(Refused { sent, problems });
    }

    /// A setup was accepted.
    pub fn accepted(&mut self) {
        self.refused = None;
    }

    /// The problems the server named in the last refusal.
    pub fn server_problems(&self) -> &[String] {
        self.refused.as_ref().map_or(&[], |r| &r.problems)
    }

    /// Draws the tray of `game`'s seat, its saved setups those of `shelf`; the setup to
    /// submit or the one to ask the server for.
    pub fn ui(&mut self, ui: &mut Ui, game: &Game, shelf: &Shelf) -> Vec<Command> {
        let mut commands = Vec::new();
        let (Some(seat), Some(zone)) = (game.seat, game.zone()) else {
            return commands;
        };
        let names = Names::new(&game.ruleset);
        // No second request in the frame of the first.
        let mut busy = game.in_flight;
        let lang = lang(ui);
        ui.label(RichText::new(lang.pick("Your pieces", "Tus piezas")).strong());
        ui.horizontal_wrapped(|ui| {
            // An incomplete setup may be sent too: the server lists everything missing.
            let ready = !self.draft.tray().is_empty() && !busy;
            if ui
                .add_enabled(
                    ready,
                    egui::Button::new(lang.pick("Submit setup", "Enviar colocación")),
                )
                .clicked()
            {
                commands.push(Command::Submit(self.draft.tray().placements()));
                busy = true;
            }
            if ui
                .add_enabled(
                    !busy,
                    egui::Button::new(lang.pick("Random setup", "Colocación al azar")),
                )
                .on_hover_text(lang.pick(
                    "The server fills the board as its bots set up; adjust it, then submit",
                    "El servidor llena el tablero como colocan sus bots; ajústalo y envía",
                ))
                .clicked()
            {
                let keep = if self.keep {
                    self.draft.tray().placements()
                } else {
                    Vec::new()
                };
                commands.push(Command::Suggest(keep));
            }
            if ui.button(lang.pick("Clear", "Vaciar")).clicked() {
                self.draft.clear();
            }
        });
        ui.checkbox(
            &mut self.keep,
            lang.pick(
                "Random setup keeps the pieces placed",
                "La colocación al azar conserva las piezas colocadas",
            ),
        );
        ui.label(
            RichText::new(lang.pick(
                "Pick a kind and click cells of your zone, or drag a kind onto a cell; click a \
                 placed piece to take it back.",
                "Elige un tipo y pulsa casillas de tu zona, o arrastra un tipo a una casilla; \
                 pulsa una pieza colocada para recogerla.",
            ))
            .small(),
        );
        kinds(&mut self.draft, ui, &names, zone);
        if let Some(refused) = &self.refused {
            ui.label(
                RichText::new(lang.pick(
                    "The server refused the setup:",
                    "El servidor rechazó la colocación:",
                ))
                .color(palette::seat(0)),
            );
            // Said in the window's language where the tray tells what differs; the server's
            // words for what only the rules know.
            let ours = refused.sent.problems(zone, &names, lang);
            let problems = if ours.is_empty() {
                &refused.problems
            } else {
                &ours
            };
            for problem in problems {
                ui.label(format!("- {problem}"));
            }
        }
        ui.separator();
        let editing = Editing {
            names: &names,
            seat,
            game: &game.view.game_id,
            draft: &mut self.draft,
        };
        shelf_ui::show(ui, &mut self.shelf, editing, shelf);
        commands
    }
}

/// The pieces left by kind, and whether the setup is complete.
fn kinds(draft: &mut Draft, ui: &mut Ui, names: &Names<'_>, zone: &pb::SetupZone) {
    let lang = lang(ui);
    ui.horizontal_wrapped(|ui| {
        for count in &zone.pieces {
            let left = draft.tray().left(zone, &count.kind);
            let rank = names
                .kind(&count.kind)
                .and_then(|k| k.rank)
                .map_or_else(String::new, |r| format!(" {r}"));
            let text = format!("{}{rank} ×{left}", names.kind_name(&count.kind));
            let selected = draft.kind.as_deref() == Some(count.kind.as_str());
            let button = egui::Button::selectable(selected, text);
            // Click to take the kind in hand, or drag it onto a cell.
            let response = ui.add_enabled(left > 0, button.sense(egui::Sense::click_and_drag()));
            response.dnd_set_drag_payload(DraggedKind(count.kind.clone()));
            if response.dragged() {
                board::dragged_piece(ui, names, &count.kind, zone.seat);
            }
            if response.clicked() {
                draft.kind = Some(count.kind.clone());
            }
        }
    });
    let left: i32 = zone
        .pieces
        .iter()
        .map(|count| draft.tray().left(zone, &count.kind).max(0))
        .sum();
    ui.label(if left == 0 {
        lang.pick(
            "Every piece is placed: submit when ready.",
            "Todas las piezas están colocadas: envía cuando quieras.",
        )
        .to_owned()
    } else {
        tr!(
            lang,
            "{left} piece(s) left to place.",
            "Quedan {left} pieza(s) por colocar."
        )
    });
}
