//! The lobby: every ruleset with its description, the games of the server (waiting for a
//! player, in progress, finished) with filters, the unfinished games to continue (the
//! signed-in account's from the server, newest first, and the seats held on this machine),
//! and the [`create`] form.

mod create;

use eframe::egui::{self, Panel, RichText, Ui};
use trinchera_client::ruleset_texts::RulesetTexts;
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

pub use self::create::{ClockChoice, CreateForm, Opponent};
use crate::action::Action;
use crate::backend::Request;
use crate::i18n::{Lang, lang, tr};
use crate::palette;

/// The speed classes a listing may be filtered by, with their names in English and Spanish.
const SPEEDS: [(pb::Speed, &str, &str); 6] = [
    (pb::Speed::Untimed, "no clock", "sin reloj"),
    (pb::Speed::Bullet, "bullet", "bullet"),
    (pb::Speed::Blitz, "blitz", "blitz"),
    (pb::Speed::Rapid, "rapid", "rápida"),
    (pb::Speed::Classical, "classical", "clásica"),
    (
        pb::Speed::Correspondence,
        "correspondence",
        "por correspondencia",
    ),
];

/// The name of a speed class in `lang` (`None` for an unspecified one).
fn speed_name(lang: Lang, speed: pb::Speed) -> Option<&'static str> {
    SPEEDS
        .iter()
        .find(|(s, _, _)| *s == speed)
        .map(|&(_, en, es)| lang.pick(en, es))
}

/// The lobby's state.
#[derive(Clone, Debug, Default)]
pub struct Lobby {
    /// The last page of games (kept while a refresh is under way: no flicker).
    pub games: Vec<pb::GameSummary>,
    /// The signed-in account's unfinished games, newest first, wherever they began.
    pub yours: Vec<pb::GameSummary>,
    /// Unfinished games with a seat held on this machine: id and ruleset.
    pub mine: Vec<(String, String)>,
    /// Only this phase (unspecified: any).
    pub phase: pb::Phase,
    /// Only this ruleset (empty: any).
    pub ruleset: String,
    /// Only this speed class (unspecified: any).
    pub speed: pb::Speed,
    /// The create form.
    pub create: CreateForm,
    /// A game id typed in.
    pub game_id: String,
    /// The path of a saved history file to replay.
    pub history_file: String,
    /// A history file being uploaded (read by the browser).
    #[cfg(target_arch = "wasm32")]
    pub history_upload: Option<crate::platform::files::Picked>,
}

/// The name of ruleset `id` among `rulesets` (the id if unknown).
fn ruleset_name(rulesets: &[pb::Ruleset], id: &str) -> String {
    rulesets
        .iter()
        .find(|r| r.id == id)
        .map_or_else(|| id.to_owned(), |r| r.name.clone())
}

impl Lobby {
    /// The request for the games matching the filters.
    pub fn request(&self) -> Request {
        Request::Games(pb::ListGamesRequest {
            phase: self.phase as i32,
            ruleset: self.ruleset.clone(),
            page_size: 100,
            speed: self.speed as i32,
            ..pb::ListGamesRequest::default()
        })
    }

    /// A page arrived, with the account's games and this machine's.
    pub fn listed(
        &mut self,
        games: Vec<pb::GameSummary>,
        yours: Vec<pb::GameSummary>,
        mine: Vec<(String, String)>,
    ) {
        self.games = games;
        self.yours = yours;
        self.mine = mine;
    }

    /// Whether the player holds a seat of `game`: by the account, or on this machine.
    fn holds(&self, game: &str) -> bool {
        self.yours.iter().any(|g| g.game_id == game) || self.mine.iter().any(|(g, _)| g == game)
    }

    /// Draws the lobby of a server hosting `rulesets`, for the `account` signed in.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        rulesets: &[pb::Ruleset],
        account: Option<&str>,
    ) -> Vec<Action> {
        let lang = lang(ui);
        let mut actions = Vec::new();
        let panel = Panel::left("rulesets");
        crate::layout::side_panel(ui, panel, 330.0, |ui| {
            if let Some(request) = self.create.ui(ui, rulesets, account) {
                actions.push(Action::Send(request));
            }
            ui.separator();
            ui.heading(lang.pick("Rulesets", "Reglamentos"));
            for ruleset in rulesets {
                ui.add_space(4.0);
                ui.horizontal(|ui| {
                    ui.label(RichText::new(&ruleset.name).strong());
                    let name = &ruleset.name;
                    if ui
                        .small_button(lang.pick("Rules", "Reglas"))
                        .on_hover_text(tr!(lang, "The rules of {name}", "Las reglas de {name}"))
                        .clicked()
                    {
                        actions.push(Action::ToggleRules(ruleset.id.clone()));
                    }
                });
                let about = RulesetTexts::new(lang, ruleset).description();
                ui.label(RichText::new(about).small());
            }
        });
        egui::CentralPanel::default().show(ui, |ui| {
            actions.extend(self.filters(ui, rulesets));
            actions.extend(self.history_file(ui));
            ui.separator();
            egui::ScrollArea::vertical().show(ui, |ui| {
                if let Some(account) = account {
                    actions.extend(self.yours(ui, rulesets, account));
                }
                actions.extend(self.mine(ui, rulesets));
                actions.extend(self.listing(ui, rulesets));
            });
        });
        actions
    }

    /// The account's unfinished games, from the server, newest first, to continue.
    fn yours(&self, ui: &mut Ui, rulesets: &[pb::Ruleset], account: &str) -> Vec<Action> {
        let lang = lang(ui);
        ui.heading(tr!(
            lang,
            "Your games ({account})",
            "Tus partidas ({account})"
        ));
        if self.yours.is_empty() {
            ui.label(lang.pick(
                "None unfinished: create one on the left, or join one below.",
                "Ninguna sin terminar: crea una a la izquierda, o únete a una de abajo.",
            ));
            ui.add_space(8.0);
            return Vec::new();
        }
        let rows = self.yours.iter().map(|game| {
            let phase = words::phase(lang, game.phase());
            (
                &game.game_id,
                ruleset_name(rulesets, &game.ruleset),
                Some(phase),
            )
        });
        continue_grid(ui, "yours", rows)
    }

    /// The games with a seat held on this machine that are not the account's, to continue.
    fn mine(&self, ui: &mut Ui, rulesets: &[pb::Ruleset]) -> Vec<Action> {
        let lang = lang(ui);
        let account = |id: &String| self.yours.iter().any(|g| g.game_id == *id);
        let mut here = self.mine.iter().filter(|(id, _)| !account(id)).peekable();
        if here.peek().is_none() {
            return Vec::new();
        }
        ui.heading(lang.pick("Your games on this machine", "Tus partidas en este equipo"));
        let rows = here.map(|(id, ruleset)| (id, ruleset_name(rulesets, ruleset), None));
        continue_grid(ui, "mine", rows)
    }

    /// The server's games by phase.
    fn listing(&self, ui: &mut Ui, rulesets: &[pb::Ruleset]) -> Vec<Action> {
        let lang = lang(ui);
        let mut actions = Vec::new();
        // The English title is also the grid's id, in every language.
        for (phase, en, es) in [
            (
                pb::Phase::Waiting,
                "Waiting for a player",
                "Esperando a un jugador",
            ),
            (pb::Phase::Setup, "Setting up", "Colocando piezas"),
            (pb::Phase::Playing, "In progress", "En curso"),
            (pb::Phase::Finished, "Finished", "Terminadas"),
        ] {
            let mut games = self.games.iter().filter(|g| g.phase() == phase).peekable();
            if games.peek().is_none() {
                continue;
            }
            ui.heading(lang.pick(en, es));
            for game in games {
                if let Some(ruleset) = rulesets.iter().find(|r| r.id == game.ruleset) {
                    egui::Frame::group(ui.style()).show(ui, |ui| {
                        ui.set_width(ui.available_width());
                        actions.extend(self.game_entry(ui, ruleset, game));
                    });
                }
            }
            ui.add_space(8.0);
        }
        if self.games.is_empty() {
            ui.label(lang.pick(
                "No games yet: create one on the left.",
                "Aún no hay partidas: crea una a la izquierda.",
            ));
        }
        actions
    }

    /// The filters, the refresh button and "open by id".
    fn filters(&mut self, ui: &mut Ui, rulesets: &[pb::Ruleset]) -> Vec<Action> {
        let lang = lang(ui);
        let any = lang.pick("any", "cualquiera");
        let mut actions = Vec::new();
        ui.horizontal_wrapped(|ui| {
            let before = (self.phase, self.ruleset.clone(), self.speed);
            let label = ui.label(lang.pick("Ruleset", "Reglamento"));
            let selected = if self.ruleset.is_empty() {
                any.to_owned()
            } else {
                ruleset_name(rulesets, &self.ruleset)
            };
            egui::ComboBox::from_id_salt("filter ruleset")
                .selected_text(selected)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.ruleset, String::new(), any);
                    for ruleset in rulesets {
                        ui.selectable_value(&mut self.ruleset, ruleset.id.clone(), &ruleset.name);
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui.label(lang.pick("Phase", "Fase"));
            egui::ComboBox::from_id_salt("filter phase")
                .selected_text(match self.phase {
                    pb::Phase::Unspecified => any,
                    phase => words::phase(lang, phase),
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.phase, pb::Phase::Unspecified, any);
                    for phase in [
                        pb::Phase::Waiting,
                        pb::Phase::Setup,
                        pb::Phase::Playing,
                        pb::Phase::Finished,
                    ] {
                        ui.selectable_value(&mut self.phase, phase, words::phase(lang, phase));
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui.label(lang.pick("Clock", "Reloj"));
            egui::ComboBox::from_id_salt("filter speed")
                .selected_text(speed_name(lang, self.speed).unwrap_or(any))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.speed, pb::Speed::Unspecified, any);
                    for (speed, en, es) in SPEEDS {
                        ui.selectable_value(&mut self.speed, speed, lang.pick(en, es));
                    }
                })
                .response
                .labelled_by(label.id);
            let now = (self.phase, self.ruleset.clone(), self.speed);
            if ui.button(lang.pick("Refresh", "Actualizar")).clicked() || before != now {
                actions.push(Action::Send(self.request()));
            }
            ui.separator();
            let label = ui.label(lang.pick("Game id", "ID de partida"));
            ui.add(egui::TextEdit::singleline(&mut self.game_id).desired_width(70.0))
                .labelled_by(label.id);
            let id = self.game_id.trim();
            for (spectate, en, es) in [(false, "Open", "Abrir"), (true, "Watch", "Mirar")] {
                if ui
                    .add_enabled(!id.is_empty(), egui::Button::new(lang.pick(en, es)))
                    .clicked()
                {
                    actions.push(Action::Open {
                        game: id.to_owned(),
                        spectate,
                    });
                }
            }
        });
        actions
    }

    /// Opening a saved `trinchera --json history` file as a replay, by its path.
    #[cfg(not(target_arch = "wasm32"))]
    fn history_file(&mut self, ui: &mut Ui) -> Option<Action> {
        let lang = lang(ui);
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(lang.pick(
                "Replay a saved history file",
                "Repetir un archivo de historial guardado",
            ));
            ui.add(
                egui::TextEdit::singleline(&mut self.history_file)
                    .hint_text(lang.pick(
                        "file written by trinchera --json history GAME",
                        "archivo de trinchera --json history PARTIDA",
                    ))
                    .desired_width(300.0),
            )
            .labelled_by(label.id);
            let path = self.history_file.trim();
            ui.add_enabled(
                !path.is_empty(),
                egui::Button::new(lang.pick("Open replay", "Abrir repetición")),
            )
            .clicked()
            .then(|| Action::ReplayFile(path.to_owned()))
        })
        .inner
    }

    /// Opening a saved `trinchera --json history` file as a replay, by upload.
    #[cfg(target_arch = "wasm32")]
    fn history_file(&mut self, ui: &mut Ui) -> Option<Action> {
        let lang = lang(ui);
        let upload = ui.button(lang.pick(
            "Replay a saved history file…",
            "Repetir un archivo de historial guardado…",
        ));
        if upload.clicked() {
            self.history_upload = Some(crate::platform::files::pick(ui.ctx()));
        }
        let read = self
            .history_upload
            .as_ref()
            .and_then(|upload| upload.lock().ok()?.take())?;
        self.history_upload = None;
        Some(match read {
            Ok((name, text)) => Action::ReplayDocument { name, text },
            Err(error) => Action::Notice(error),
        })
    }

    /// One game of the list: what it is, who plays, and what may be done with it, each on
    /// a line that wraps in a narrow window.
    fn game_entry(
        &self,
        ui: &mut Ui,
        ruleset: &pb::Ruleset,
        game: &pb::GameSummary,
    ) -> Vec<Action> {
        let lang = lang(ui);
        let names = Names::new(ruleset);
        let mut actions = Vec::new();
        let (name, id) = (&game.name, &game.game_id);
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(tr!(lang, "{name} · game {id}", "{name} · partida {id}")).strong(),
            );
            let clock = words::time_control(lang, game.time_control.as_ref()).0;
            ui.label(RichText::new(format!("{} · {clock}", ruleset.name)).weak());
        });
        ui.horizontal_wrapped(|ui| {
            for player in &game.players {
                let text = if player.joined {
                    let bot = if player.bot.is_empty() { "" } else { " (bot)" };
                    format!("{} ({}){bot}", player.name, names.seat(player.seat))
                } else {
                    let seat = names.seat(player.seat);
                    tr!(lang, "{seat}: free", "{seat}: libre")
                };
                ui.label(RichText::new(text).color(palette::seat(player.seat)));
            }
            if let Some(result) = &game.result
                && game.phase() == pb::Phase::Finished
            {
                ui.label(words::result(lang, &names, result));
            }
        });
        let mine = self.holds(id);
        let phase = game.phase();
        ui.horizontal_wrapped(|ui| {
            if phase == pb::Phase::Waiting
                && !mine
                && ui
                    .button(tr!(lang, "Join game {id}", "Unirse a la partida {id}"))
                    .clicked()
            {
                actions.push(Action::Send(Request::Join {
                    game: id.clone(),
                    name: self.create.player.trim().to_owned(),
                }));
            }
            if phase == pb::Phase::Finished {
                if ui
                    .button(tr!(lang, "Open game {id}", "Abrir la partida {id}"))
                    .clicked()
                {
                    actions.push(Action::Open {
                        game: id.clone(),
                        spectate: true,
                    });
                }
                if ui
                    .button(tr!(lang, "Replay game {id}", "Repetir la partida {id}"))
                    .clicked()
                {
                    actions.push(Action::Replay(id.clone()));
                }
            } else if mine {
                // Continued from the player's games above.
                ui.label(RichText::new(lang.pick("yours", "tuya")).weak());
            } else if ui
                .button(tr!(lang, "Watch game {id}", "Mirar la partida {id}"))
                .clicked()
            {
                actions.push(Action::Open {
                    game: id.clone(),
                    spectate: true,
                });
            }
        });
        actions
    }
}

/// A grid of games to continue, one row each: "Game 7", its ruleset, where it stands (if
/// known), "Continue game 7".
fn continue_grid<'a>(
    ui: &mut Ui,
    id: &str,
    rows: impl Iterator<Item = (&'a String, String, Option<&'static str>)>,
) -> Vec<Action> {
    let lang = lang(ui);
    let mut actions = Vec::new();
    egui::Grid::new(id).striped(true).show(ui, |ui| {
        for (id, ruleset, phase) in rows {
            ui.label(tr!(lang, "Game {id}", "Partida {id}"));
            ui.label(ruleset);
            if let Some(phase) = phase {
                ui.label(RichText::new(phase).weak());
            }
            if ui
                .button(tr!(lang, "Continue game {id}", "Continuar la partida {id}"))
                .clicked()
            {
                actions.push(Action::Open {
                    game: id.clone(),
                    spectate: false,
                });
            }
            ui.end_row();
        }
    });
    ui.add_space(8.0);
    actions
}
