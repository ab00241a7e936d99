//! The setup tray: the buttons that submit, fill at random or clear the setup (first, so
//! that nothing above them moves them while the player places pieces), the pieces left by
//! kind (click one to take it in hand, or drag it onto a cell), what a refused setup lacked,
//! and the saved setups.

use eframe::egui::{self, RichText, Ui};
use trinchera_client::Names;
use trinchera_client::tray::Tray;
use trinchera_proto::v1 as pb;

use super::GameScreen;
use crate::action::Action;
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
    pub draft: Draft,
    /// The last setup refused, until one is accepted.
    refused: Option<Refused>,
    /// The saved-setups panel.
    pub shelf: ShelfState,
    /// Whether "Random setup" keeps the pieces placed.
    pub keep: bool,
}

impl SetupEditor {
    /// An empty editor with the first kind of `zone` in hand.
    pub fn new(zone: Option<&pb::SetupZone>) -> SetupEditor {
        SetupEditor {
            draft: Draft::new(zone),
            ..SetupEditor::default()
        }
    }

    /// The server refused the setup `sent`, naming `problems`.
    pub fn refused(&mut self, sent: Tray, problems: Vec<String>) {
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
}

/// Draws the tray of `game`'s seat.
pub fn ui(game: &mut GameScreen, ui: &mut Ui, shelf: &Shelf, actions: &mut Vec<Action>) {
    let (Some(seat), Some(zone)) = (game.seat, game.zone().cloned()) else {
        return;
    };
    let ruleset = game.ruleset.clone();
    let names = Names::new(&ruleset);
    let lang = lang(ui);
    ui.label(RichText::new(lang.pick("Your pieces", "Tus piezas")).strong());
    ui.horizontal_wrapped(|ui| {
        // An incomplete setup may be sent too: the server lists everything missing.
        let ready = !game.setup.draft.tray().is_empty() && !game.in_flight;
        if ui
            .add_enabled(
                ready,
                egui::Button::new(lang.pick("Submit setup", "Enviar colocación")),
            )
            .clicked()
            && let Some(request) = game.submit()
        {
            actions.push(Action::Send(request));
        }
        if ui
            .add_enabled(
                !game.in_flight,
                egui::Button::new(lang.pick("Random setup", "Colocación al azar")),
            )
            .on_hover_text(lang.pick(
                "The server fills the board as its bots set up; adjust it, then submit",
                "El servidor llena el tablero como colocan sus bots; ajústalo y envía",
            ))
            .clicked()
            && let Some(request) = game.suggest(game.setup.keep)
        {
            actions.push(Action::Send(request));
        }
        if ui.button(lang.pick("Clear", "Vaciar")).clicked() {
            game.setup.draft.clear();
        }
    });
    ui.checkbox(
        &mut game.setup.keep,
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
    kinds(&mut game.setup.draft, ui, &names, &zone);
    if let Some(refused) = &game.setup.refused {
        ui.label(
            RichText::new(lang.pick(
                "The server refused the setup:",
                "El servidor rechazó la colocación:",
            ))
            .color(palette::seat(0)),
        );
        // Said in the window's language where the tray tells what differs; the server's
        // words for what only the rules know.
        let ours = refused.sent.problems(&zone, &names, lang);
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
        draft: &mut game.setup.draft,
    };
    shelf_ui::show(ui, &mut game.setup.shelf, editing, shelf);
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
