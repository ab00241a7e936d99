//! Replays: step through every event of a game and see the board after it, from either
//! seat's side or with everything revealed once the game is over, with the move list beside
//! the board and, after the end, the fairness verdict of the shared client library (the
//! same checks as `trinchera verify`). A replay comes from the server (`GetHistory` with
//! positions) or from a saved `trinchera --json history` file.

use eframe::egui::{self, Key, Panel, RichText, Ui};
use trinchera_client::verify::{self, Evidence, Report};
use trinchera_client::{GameRecord, Names, words};
use trinchera_proto::v1 as pb;

use crate::action::Action;
use crate::board::{BoardModel, Look, Scene, Selection, board_ui};
use crate::i18n::{Lang, lang, tr};
use crate::{moves, palette, status};

/// Whose knowledge a replay's board shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The positions as the server gave them: the caller's side while the game runs.
    AsGiven,
    /// Every piece's kind (after the end).
    Everything,
    /// What this seat knew at each step (after the end).
    Seat(i32),
}

/// Where a replay came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A game of the server.
    Game(String),
    /// A saved history file.
    File(String),
}

/// A replay being stepped through.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game's ruleset.
    pub ruleset: pb::Ruleset,
    /// Every event, the position after each, the reveal after the end.
    pub history: pb::GetHistoryResponse,
    /// The event shown: an index into the history's events.
    pub step: usize,
    /// Whose knowledge the board shows.
    pub side: Side,
    /// The commitments recorded on this machine while the game was played.
    pub seen: Option<GameRecord>,
    /// The fairness verdict once the game is over, in the language it was made in.
    fairness: Option<(Lang, Result<Report, String>)>,
    /// Whether the game is open live behind the replay ("Return to live").
    pub live: bool,
    /// Where it came from.
    pub source: Source,
    selection: Selection,
    /// The step the move list was last scrolled to.
    scrolled_to: Option<usize>,
}

impl Replay {
    /// A replay of `history` showing its last step; a finished game is shown with everything
    /// revealed and verified against `seen`, the commitments recorded here during play.
    pub fn new(
        ruleset: pb::Ruleset,
        history: pb::GetHistoryResponse,
        seen: Option<GameRecord>,
        live: bool,
        source: Source,
    ) -> Replay {
        let over = history.reveal.is_some();
        Replay {
            step: history.events.len().saturating_sub(1),
            side: if over {
                Side::Everything
            } else {
                Side::AsGiven
            },
            ruleset,
            history,
            seen,
            fairness: None,
            live,
            source,
            selection: Selection::default(),
            scrolled_to: None,
        }
    }

    /// The fairness verdict in `lang` once the game is over (the same checks as
    /// `trinchera verify`), `None` before.
    pub fn fairness(&mut self, lang: Lang) -> Option<&Result<Report, String>> {
        self.history.reveal.as_ref()?;
        if self.fairness.as_ref().is_none_or(|(made, _)| *made != lang) {
            let report = verify::verify(Evidence {
                history: &self.history,
                ruleset: &self.ruleset,
                seen: self.seen.as_ref(),
                lang,
            });
            self.fairness = Some((lang, report));
        }
        self.fairness.as_ref().map(|(_, report)| report)
    }

    /// Whether the history carries a position for every event (files saved by older
    /// clients carry none: the board shows the end).
    pub fn has_positions(&self) -> bool {
        self.history.positions.len() == self.history.events.len()
    }

    /// The board after the event of this step, as the chosen side knew it.
    pub fn position(&self) -> pb::GameView {
        let mut view = self
            .history
            .positions
            .get(self.step)
            .filter(|_| self.has_positions())
            .or(self.history.view.as_ref())
            .cloned()
            .unwrap_or_default();
        if let Side::Seat(seat) = self.side {
            for piece in view.pieces.iter_mut().chain(view.captured.iter_mut()) {
                if piece.owner != seat && !piece.revealed {
                    piece.kind.clear();
                }
            }
        }
        view
    }

    /// The seat whose side of the board is at the bottom.
    fn viewer(&self) -> Option<i32> {
        match self.side {
            Side::Seat(seat) => Some(seat),
            _ => self.history.view.as_ref().and_then(|v| v.viewer_seat),
        }
    }

    /// Moves to step `step` (clamped to the history).
    pub fn go(&mut self, step: usize) {
        self.step = step.min(self.history.events.len().saturating_sub(1));
    }

    /// Draws the replay, its panel beside the board.
    pub fn ui(&mut self, ui: &mut Ui, look: Look) -> Vec<Action> {
        let mut actions = Vec::new();
        keys(self, ui);
        let panel = Panel::right("replay side");
        crate::layout::side_panel(ui, panel, 400.0, |ui| {
            if side(self, ui) {
                actions.push(Action::CloseReplay);
            }
        });
        egui::CentralPanel::default().show(ui, |ui| board(self, ui, look));
        actions
    }
}

/// Arrow keys step, Home and End jump (unless a text field has the keyboard).
fn keys(replay: &mut Replay, ui: &Ui) {
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    let last = replay.history.events.len().saturating_sub(1);
    let (back, forward, home, end) = ui.input(|i| {
        (
            i.key_pressed(Key::ArrowLeft),
            i.key_pressed(Key::ArrowRight),
            i.key_pressed(Key::Home),
            i.key_pressed(Key::End),
        )
    });
    if back {
        replay.go(replay.step.saturating_sub(1));
    }
    if forward {
        replay.go(replay.step + 1);
    }
    if home {
        replay.go(0);
    }
    if end {
        replay.go(last);
    }
}

/// The board after the step, with the step's move marked.
fn board(replay: &mut Replay, ui: &mut Ui, look: Look) {
    let names = Names::new(&replay.ruleset);
    let position = replay.position();
    let last: Vec<pb::Cell> = replay
        .history
        .events
        .get(replay.step)
        .map(moves::move_cells)
        .unwrap_or_default();
    let marks = moves::Pending::Nothing.marks(&[], &position.pieces, &last);
    let scene = Scene {
        names: &names,
        pieces: &position.pieces,
        viewer: replay.viewer(),
        status: position.status.as_ref(),
        zone: None,
        look,
    };
    let model = BoardModel::new(lang(ui), scene, &marks);
    ui.centered_and_justified(|ui| {
        board_ui(ui, &model, &mut replay.selection);
    });
}

/// The panel beside the board; `true` when the replay is to close.
fn side(replay: &mut Replay, ui: &mut Ui) -> bool {
    let lang = lang(ui);
    let ruleset = replay.ruleset.clone();
    let names = Names::new(&ruleset);
    let title = match &replay.source {
        Source::Game(id) => tr!(lang, "Replay of game {id}", "Repetición de la partida {id}"),
        Source::File(path) => tr!(lang, "Replay of {path}", "Repetición de {path}"),
    };
    ui.heading(title);
    ui.label(RichText::new(&ruleset.name).weak());
    let close = if replay.live {
        lang.pick("Return to live", "Volver al directo")
    } else {
        lang.pick("Close the replay", "Cerrar la repetición")
    };
    // Esc closes the replay unless the app took it for a window over it.
    let closing = ui.button(close).clicked()
        || ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Escape));
    #[cfg(target_arch = "wasm32")]
    download_history(replay, ui, lang);
    if !replay.has_positions() {
        ui.label(
            RichText::new(lang.pick(
                "This history has no positions (saved by an older trinchera): the board shows \
                 the end.",
                "Este historial no trae posiciones (lo guardó un trinchera antiguo): el \
                 tablero muestra el final.",
            ))
            .color(palette::LAST_MOVE),
        );
    }
    side_choice(replay, ui, &names);
    ui.separator();
    steps(replay, ui);
    let position = replay.position();
    if let Some(event) = replay.history.events.get(replay.step) {
        ui.label(RichText::new(words::event(lang, &names, Some(&position), event)).strong());
    }
    let dice = replay.history.events.get(replay.step).and_then(|event| {
        event.effects.iter().find_map(|e| match &e.effect {
            Some(pb::effect::Effect::Dice(dice)) => Some(*dice),
            _ => None,
        })
    });
    status::status(ui, &names, &position, dice.as_ref());
    status::captured(ui, &names, &position);
    if let Some(fairness) = replay.fairness(lang) {
        ui.separator();
        fairness_panel(ui, lang, fairness);
    }
    ui.separator();
    move_list(replay, ui, &names);
    closing
}

/// Offers the history replayed as a `trinchera --json history` file, to replay or verify
/// later without a server (a browser's download; on a desktop the CLI writes one).
#[cfg(target_arch = "wasm32")]
fn download_history(replay: &Replay, ui: &mut Ui, lang: Lang) {
    let download = ui.button(lang.pick("Download the history", "Descargar el historial"));
    if !download.clicked() {
        return;
    }
    let name = match &replay.source {
        Source::Game(id) => format!("trinchera-{id}.json"),
        Source::File(name) => name.clone(),
    };
    let saved = trinchera_client::json::history_document(&replay.history, &replay.ruleset)
        .and_then(|doc| crate::platform::files::download(&name, &doc.to_string()));
    if let Err(error) = saved {
        ui.label(RichText::new(error).color(palette::seat(0)));
    }
}

/// The sides a finished game can be shown from.
fn side_choice(replay: &mut Replay, ui: &mut Ui, names: &Names<'_>) {
    if replay.side == Side::AsGiven {
        return;
    }
    let lang = lang(ui);
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.pick("Show:", "Mostrar:"));
        ui.selectable_value(
            &mut replay.side,
            Side::Everything,
            lang.pick("everything revealed", "todo a la vista"),
        );
        for seat in [0, 1] {
            let name = names.seat(seat);
            ui.selectable_value(
                &mut replay.side,
                Side::Seat(seat),
                tr!(lang, "as {name} saw it", "como lo vio {name}"),
            );
        }
    });
}

/// The step buttons, the slider and where the replay stands.
fn steps(replay: &mut Replay, ui: &mut Ui) {
    let lang = lang(ui);
    let count = replay.history.events.len();
    let last = count.saturating_sub(1);
    let mut step = replay.step;
    ui.horizontal_wrapped(|ui| {
        if ui.button(lang.pick("|< Start", "|< Inicio")).clicked() {
            step = 0;
        }
        if ui.button(lang.pick("< Back", "< Atrás")).clicked() {
            step = step.saturating_sub(1);
        }
        if ui.button(lang.pick("Forward >", "Adelante >")).clicked() {
            step += 1;
        }
        if ui.button(lang.pick("End >|", "Final >|")).clicked() {
            step = last;
        }
    });
    ui.add(
        egui::Slider::new(&mut step, 0..=last)
            .show_value(false)
            .text(lang.pick("step", "paso")),
    );
    replay.go(step);
    let (shown, version) = (
        replay.step + 1,
        replay
            .history
            .events
            .get(replay.step)
            .map_or(0, |e| e.version),
    );
    ui.label(tr!(
        lang,
        "Step {shown} of {count} · version {version} · arrow keys step, Home/End jump",
        "Paso {shown} de {count} · versión {version} · flechas para avanzar, Inicio/Fin para saltar"
    ));
}

/// The verdict of the fairness checks, loud when one fails.
fn fairness_panel(ui: &mut Ui, lang: Lang, fairness: &Result<Report, String>) {
    ui.label(RichText::new(lang.pick("Fairness", "Juego limpio")).strong());
    let report = match fairness {
        Ok(report) => report,
        Err(error) => {
            ui.label(
                RichText::new(tr!(
                    lang,
                    "Cannot verify this game: {error}",
                    "No se puede verificar esta partida: {error}"
                ))
                .color(palette::seat(0)),
            );
            return;
        }
    };
    if report.fair() {
        ui.label(
            RichText::new(lang.pick(
                "Fair: every check below holds.",
                "Limpia: todas las comprobaciones de abajo se cumplen.",
            ))
            .color(palette::TARGET)
            .size(18.0)
            .strong(),
        );
    } else {
        ui.label(
            RichText::new(lang.pick(
                "NOT fair: the server's reveal does not match what it committed to.",
                "NO es limpia: lo que revela el servidor no cuadra con lo que comprometió.",
            ))
            .color(palette::seat(0))
            .size(20.0)
            .strong()
            .background_color(palette::ALARM),
        );
    }
    let from = &report.commitments_from;
    ui.label(RichText::new(tr!(lang, "Commitments: {from}", "Compromisos: {from}")).weak());
    for check in &report.checks {
        let (mark, color) = if check.ok {
            (lang.pick("[ok]", "[bien]"), palette::TARGET)
        } else {
            (lang.pick("[FAILED]", "[FALLA]"), palette::seat(0))
        };
        ui.label(RichText::new(format!("{mark} {}", check.name)).color(color));
        ui.label(
            RichText::new(format!("    {}", check.detail))
                .small()
                .weak(),
        );
    }
}

/// Every event, clickable, scrolled to show the step whenever it moves by other means.
fn move_list(replay: &mut Replay, ui: &mut Ui, names: &Names<'_>) {
    const HEIGHT: f32 = 320.0;
    let lang = lang(ui);
    ui.label(RichText::new(lang.pick("Moves", "Jugadas")).strong());
    let view = replay.history.view.clone().unwrap_or_default();
    let row_height = ui.spacing().interact_size.y;
    let mut list = egui::ScrollArea::vertical()
        .id_salt("replay moves")
        .max_height(HEIGHT);
    if replay.scrolled_to != Some(replay.step) {
        let row = (row_height + ui.spacing().item_spacing.y) * replay.step as f32;
        list = list.vertical_scroll_offset((row - (HEIGHT - row_height) / 2.0).max(0.0));
        replay.scrolled_to = Some(replay.step);
    }
    let mut picked = None;
    list.show_rows(ui, row_height, replay.history.events.len(), |ui, rows| {
        for index in rows {
            let event = &replay.history.events[index];
            let text = format!(
                "{}. {}",
                event.version,
                words::event(lang, names, Some(&view), event)
            );
            let shown = index == replay.step;
            if ui
                .add(egui::Button::selectable(shown, text).truncate())
                .clicked()
            {
                picked = Some(index);
            }
        }
    });
    if let Some(index) = picked {
        // In sight already: no scrolling.
        replay.go(index);
        replay.scrolled_to = Some(replay.step);
    }
}
