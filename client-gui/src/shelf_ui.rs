//! The saved-setups part of the setup tray: save the setup being edited under a name, load
//! one in a click, rename, duplicate, delete, mirror, and import or export a CLI setup file.

use eframe::egui::{self, RichText, Ui};
use trinchera_client::Names;
use trinchera_client::setup_file::Zone;

use crate::i18n::{Lang, lang, tr};
use crate::palette;
use crate::setup::Draft;
use crate::shelf::Shelf;

/// What the saved-setups panel holds between frames.
#[derive(Clone, Debug, Default)]
pub struct ShelfState {
    /// The name typed for saving or renaming.
    pub name: String,
    /// The saved setup picked in the list.
    pub picked: Option<String>,
    /// The path typed for importing or exporting.
    pub path: String,
    /// A setup file being uploaded (read by the browser).
    #[cfg(target_arch = "wasm32")]
    pub upload: Option<crate::platform::files::Picked>,
    /// The outcome of the last action: whether it went well, and what happened.
    pub note: Option<(bool, String)>,
    /// The problems of the setup loaded last, against this game's tray.
    pub loaded_problems: Vec<String>,
}

/// The setup being edited, as the panel sees it.
#[derive(Debug)]
pub struct Editing<'a> {
    /// The ruleset's names.
    pub names: &'a Names<'a>,
    /// The seat setting up.
    pub seat: i32,
    /// The game, named in exported files.
    pub game: &'a str,
    /// The setup.
    pub draft: &'a mut Draft,
}

impl Editing<'_> {
    /// The seat's setup zone.
    fn zone(&self) -> Option<Zone<'_>> {
        Zone::of(self.names, self.seat)
    }

    /// Loads setup-file `text` into the editor; its problems are listed, not fixed.
    fn load_text(&mut self, text: &str, lang: Lang) -> Result<(), String> {
        let (Some(cells), Some(zone)) = (self.zone(), self.names.zone(self.seat)) else {
            return Err(no_zone(lang));
        };
        let placements = cells.read(text).map_err(|e| e.words(lang))?;
        self.draft.load(zone, &placements);
        Ok(())
    }

    /// The setup being edited as a setup file of this game.
    fn text(&self, lang: Lang) -> Result<String, String> {
        let placements = self.draft.tray().placements();
        let zone = self.zone().ok_or_else(|| no_zone(lang))?;
        Ok(zone.write(&placements, Some(self.game)))
    }

    /// Mirrors the setup left to right as the seat sees it.
    fn mirror(&mut self) {
        if let (Some(cells), Some(zone)) = (self.zone(), self.names.zone(self.seat)) {
            let mirrored = cells.mirrored(&self.draft.tray().placements());
            self.draft.load(zone, &mirrored);
        }
    }

    /// How the setup differs from a complete one, in `lang`.
    fn problems(&self, lang: Lang) -> Vec<String> {
        self.names
            .zone(self.seat)
            .map(|zone| self.draft.tray().problems(zone, self.names, lang))
            .unwrap_or_default()
    }
}

/// Why nothing can be loaded or saved: the seat places no pieces.
fn no_zone(lang: Lang) -> String {
    lang.pick("your seat has no setup", "tu asiento no coloca piezas")
        .to_owned()
}

/// A file that could not be read (`writing`: written), in `lang`.
#[cfg(not(target_arch = "wasm32"))]
fn file_error(lang: Lang, path: &str, writing: bool, error: &std::io::Error) -> String {
    match (writing, lang) {
        (false, Lang::En) => format!("cannot read {path}: {error}"),
        (false, Lang::Es) => format!("no se puede leer {path}: {error}"),
        (true, Lang::En) => format!("cannot write {path}: {error}"),
        (true, Lang::Es) => format!("no se puede escribir {path}: {error}"),
    }
}

/// The saved-setups panel of the setup tray.
pub fn show(ui: &mut Ui, state: &mut ShelfState, mut editing: Editing<'_>, shelf: &Shelf) {
    let lang = lang(ui);
    let names = editing.names;
    let ruleset = &names.ruleset.id;
    let mut outcome: Option<Result<String, String>> = None;
    // Whether the outcome is a setup loaded into the editor (its problems get listed).
    let mut loaded = false;
    egui::CollapsingHeader::new(lang.pick("Saved setups", "Colocaciones guardadas"))
        .id_salt("saved setups")
        .default_open(true)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                let label = ui.label(lang.pick("Name", "Nombre"));
                ui.add(egui::TextEdit::singleline(&mut state.name).desired_width(140.0))
                    .labelled_by(label.id);
                if ui.button(lang.pick("Save", "Guardar")).clicked() {
                    outcome = Some(editing.text(lang).and_then(|text| {
                        shelf
                            .save(ruleset, &state.name, &text)
                            .map(|name| {
                                state.picked = Some(name.clone());
                                tr!(lang, "Saved {name}.", "Guardada {name}.")
                            })
                            .map_err(|e| e.words(lang))
                    }));
                }
                if ui
                    .button(lang.pick("Mirror", "Reflejar"))
                    .on_hover_text(lang.pick(
                        "Swap left and right as you see the board",
                        "Cambia izquierda y derecha tal como ves el tablero",
                    ))
                    .clicked()
                {
                    editing.mirror();
                }
            });
            let saved = shelf.names(ruleset);
            if saved.is_empty() {
                ui.label(
                    RichText::new(lang.pick(
                        "No saved setups for this ruleset yet.",
                        "Todavía no hay colocaciones guardadas para este reglamento.",
                    ))
                    .weak(),
                );
            }
            for name in &saved {
                let picked = state.picked.as_ref() == Some(name);
                if ui.selectable_label(picked, name).clicked() {
                    state.picked = Some(name.clone());
                    state.name.clone_from(name);
                }
            }
            if let Some(name) = state.picked.clone().filter(|n| saved.contains(n)) {
                ui.horizontal_wrapped(|ui| {
                    if ui.button(lang.pick("Load", "Cargar")).clicked() {
                        loaded = true;
                        outcome = Some(
                            shelf
                                .read(ruleset, &name)
                                .map_err(|e| e.words(lang))
                                .and_then(|text| editing.load_text(&text, lang))
                                .map(|()| tr!(lang, "Loaded {name}.", "Cargada {name}.")),
                        );
                    }
                    if ui.button(lang.pick("Duplicate", "Duplicar")).clicked() {
                        outcome = Some(shelf.duplicate(ruleset, &name).map_or_else(
                            |e| Err(e.words(lang)),
                            |copy| {
                                state.picked = Some(copy.clone());
                                Ok(tr!(lang, "Copied as {copy}.", "Copiada como {copy}."))
                            },
                        ));
                    }
                    if ui
                        .button(lang.pick(
                            "Rename to the name above",
                            "Renombrar con el nombre de arriba",
                        ))
                        .clicked()
                    {
                        outcome = Some(shelf.rename(ruleset, &name, &state.name).map_or_else(
                            |e| Err(e.words(lang)),
                            |new| {
                                state.picked = Some(new.clone());
                                Ok(tr!(lang, "Renamed to {new}.", "Renombrada a {new}."))
                            },
                        ));
                    }
                    if ui.button(lang.pick("Delete", "Borrar")).clicked() {
                        outcome = Some(
                            shelf
                                .delete(ruleset, &name)
                                .map(|()| tr!(lang, "Deleted {name}.", "Borrada {name}."))
                                .map_err(|e| e.words(lang)),
                        );
                        state.picked = None;
                    }
                });
            }
            ui.horizontal_wrapped(|ui| {
                if let Some(filed) = file_row(ui, state, &mut editing, lang) {
                    loaded = filed.loaded;
                    outcome = Some(filed.outcome);
                }
            });
            if let Some((ok, note)) = &state.note {
                let color = if *ok {
                    palette::TARGET
                } else {
                    palette::seat(0)
                };
                ui.label(RichText::new(note).color(color));
            }
            if !state.loaded_problems.is_empty() {
                ui.label(
                    RichText::new(lang.pick(
                        "The loaded setup does not fit this game:",
                        "La colocación cargada no encaja en esta partida:",
                    ))
                    .color(palette::seat(0)),
                );
                for problem in &state.loaded_problems {
                    ui.label(format!("- {problem}"));
                }
            }
        });
    if let Some(outcome) = outcome {
        if loaded && outcome.is_ok() {
            state.loaded_problems = editing.problems(lang);
        }
        state.note = Some(match outcome {
            Ok(text) => (true, text),
            Err(text) => (false, text),
        });
    }
    // Problems of a load are settled once the tray is placed in full.
    if editing.problems(lang).is_empty() {
        state.loaded_problems.clear();
    }
}

/// What an import or export of a setup file did.
struct Filed {
    /// Whether a setup was loaded into the editor.
    loaded: bool,
    /// What to tell.
    outcome: Result<String, String>,
}

/// Imports a setup file into the editor, or exports the setup being edited, by the path
/// typed (a desktop's files).
#[cfg(not(target_arch = "wasm32"))]
fn file_row(
    ui: &mut Ui,
    state: &mut ShelfState,
    editing: &mut Editing<'_>,
    lang: Lang,
) -> Option<Filed> {
    let label = ui.label(lang.pick("File", "Archivo"));
    ui.add(
        egui::TextEdit::singleline(&mut state.path)
            .hint_text(lang.pick("path of a setup file", "ruta de un archivo de colocación"))
            .desired_width(180.0),
    )
    .labelled_by(label.id);
    let path = state.path.trim().to_owned();
    if ui
        .add_enabled(
            !path.is_empty(),
            egui::Button::new(lang.pick("Import", "Importar")),
        )
        .clicked()
    {
        let outcome = std::fs::read_to_string(&path)
            .map_err(|e| file_error(lang, &path, false, &e))
            .and_then(|text| editing.load_text(&text, lang))
            .map(|()| tr!(lang, "Imported {path}.", "Importado {path}."));
        return Some(Filed {
            loaded: true,
            outcome,
        });
    }
    let export = ui
        .add_enabled(
            !path.is_empty(),
            egui::Button::new(lang.pick("Export", "Exportar")),
        )
        .on_hover_text(lang.pick(
            "Write the setup as a file for `trinchera setup --file`",
            "Escribe la colocación como archivo para `trinchera setup --file`",
        ));
    export.clicked().then(|| Filed {
        loaded: false,
        outcome: editing.text(lang).and_then(|text| {
            std::fs::write(&path, text)
                .map(|()| tr!(lang, "Exported to {path}.", "Exportada a {path}."))
                .map_err(|e| file_error(lang, &path, true, &e))
        }),
    })
}

/// Imports a setup file into the editor by upload, or exports the setup being edited as a
/// download (a browser's files).
#[cfg(target_arch = "wasm32")]
fn file_row(
    ui: &mut Ui,
    state: &mut ShelfState,
    editing: &mut Editing<'_>,
    lang: Lang,
) -> Option<Filed> {
    use crate::platform::files;
    if ui
        .button(lang.pick("Upload a setup file…", "Subir un archivo de colocación…"))
        .clicked()
    {
        state.upload = Some(files::pick(ui.ctx()));
    }
    let download = ui
        .button(lang.pick("Download", "Descargar"))
        .on_hover_text(lang.pick(
            "Save the setup as a file for `trinchera setup --file`",
            "Guarda la colocación como archivo para `trinchera setup --file`",
        ));
    if download.clicked() {
        let name = format!("setup-{}.txt", editing.game);
        let outcome = editing.text(lang).and_then(|text| {
            files::download(&name, &text)
                .map(|()| tr!(lang, "Downloaded {name}.", "Descargada {name}."))
        });
        return Some(Filed {
            loaded: false,
            outcome,
        });
    }
    let read = state
        .upload
        .as_ref()
        .and_then(|upload| upload.lock().ok()?.take())?;
    state.upload = None;
    let outcome = read.and_then(|(name, text)| {
        editing
            .load_text(&text, lang)
            .map(|()| tr!(lang, "Imported {name}.", "Importado {name}."))
    });
    Some(Filed {
        loaded: true,
        outcome,
    })
}
