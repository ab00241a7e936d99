//! The lobby: every ruleset with its description, the games of the server (waiting for a
//! player, in progress, finished) with filters, the games of this machine, and the form
//! that creates a game against a person or a bot.

use eframe::egui::{self, Panel, RichText, Ui};
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

use crate::app::App;
use crate::backend::Request;
use crate::i18n::{Lang, lang, tr};
use crate::palette;

/// Who plays the other seat of a new game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Opponent {
    /// A person who joins.
    #[default]
    Human,
    /// The server, at this level.
    Bot(String),
}

/// The time control picked for a new game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClockChoice {
    /// No clock.
    #[default]
    None,
    /// A live clock: minutes each plus seconds added per turn.
    Live {
        /// Initial minutes per seat.
        minutes: u32,
        /// Fischer increment, in seconds.
        increment: u32,
    },
    /// A deadline of this many days per turn.
    Days(u32),
}

impl ClockChoice {
    /// The control as the API takes it (`None` for an untimed game).
    pub fn control(self) -> Option<pb::TimeControl> {
        use pb::time_control::Control;
        let control = match self {
            ClockChoice::None => return None,
            ClockChoice::Live { minutes, increment } => Control::Live(pb::LiveControl {
                initial_seconds: minutes * 60,
                increment_seconds: increment,
            }),
            ClockChoice::Days(days) => Control::Correspondence(pb::CorrespondenceControl {
                days_per_move: days,
            }),
        };
        Some(pb::TimeControl {
            control: Some(control),
        })
    }
}

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

/// The create form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CreateForm {
    /// Ruleset id.
    pub ruleset: String,
    /// The creator's seat.
    pub seat: i32,
    /// Who plays the other seat.
    pub opponent: Opponent,
    /// The game's name.
    pub name: String,
    /// The creator's name.
    pub player: String,
    /// The time control.
    pub clock: ClockChoice,
}

/// The lobby's state.
#[derive(Clone, Debug, Default)]
pub struct Lobby {
    /// The last page of games (kept while a refresh is under way: no flicker).
    pub games: Vec<pb::GameSummary>,
    /// Games with a seat held on this machine: id and ruleset.
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
    /// The ruleset whose rules window is open.
    pub rules: Option<String>,
}

impl Lobby {
    /// The request for the games matching the filters.
    pub fn request(&self) -> Request {
        Request::Games(pb::ListGamesRequest {
            phase: self.phase as i32,
            ruleset: self.ruleset.clone(),
            page_size: 100,
            page_token: String::new(),
            speed: self.speed as i32,
        })
    }

    /// A page arrived.
    pub fn listed(&mut self, games: Vec<pb::GameSummary>, mine: Vec<(String, String)>) {
        self.games = games;
        self.mine = mine;
    }
}

/// The name of a ruleset by id (the id if unknown).
fn ruleset_name(app: &App, id: &str) -> String {
    app.ruleset(id)
        .map_or_else(|| id.to_owned(), |r| r.name.clone())
}

/// Draws the lobby.
pub fn show(app: &mut App, ui: &mut Ui) {
    let lang = lang(ui);
    Panel::left("rulesets")
        .resizable(true)
        .default_size(330.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                create_form(app, ui);
                ui.separator();
                ui.heading(lang.pick("Rulesets", "Reglamentos"));
                for ruleset in &app.rulesets {
                    ui.add_space(4.0);
                    ui.horizontal(|ui| {
                        ui.label(RichText::new(&ruleset.name).strong());
                        let name = &ruleset.name;
                        if ui
                            .small_button(lang.pick("Rules", "Reglas"))
                            .on_hover_text(tr!(lang, "The rules of {name}", "Las reglas de {name}"))
                            .clicked()
                        {
                            app.lobby.rules = Some(ruleset.id.clone());
                        }
                    });
                    ui.label(RichText::new(&ruleset.description).small());
                }
            });
        });
    if let Some(id) = app.lobby.rules.clone()
        && let Some(ruleset) = app.ruleset(&id).cloned()
    {
        let mut open = true;
        crate::rules::window(ui.ctx(), lang, &ruleset, &mut open);
        if !open {
            app.lobby.rules = None;
        }
    }
    egui::CentralPanel::default().show(ui, |ui| {
        filters(app, ui);
        history_file(app, ui);
        ui.separator();
        egui::ScrollArea::vertical().show(ui, |ui| {
            if !app.lobby.mine.is_empty() {
                ui.heading(lang.pick("Your games on this machine", "Tus partidas en este equipo"));
                let mine = app.lobby.mine.clone();
                egui::Grid::new("mine").striped(true).show(ui, |ui| {
                    for (id, ruleset) in mine {
                        ui.label(tr!(lang, "Game {id}", "Partida {id}"));
                        ui.label(ruleset_name(app, &ruleset));
                        if ui
                            .button(tr!(lang, "Continue game {id}", "Continuar la partida {id}"))
                            .clicked()
                        {
                            app.open(&id, false);
                        }
                        ui.end_row();
                    }
                });
                ui.add_space(8.0);
            }
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
                let games: Vec<pb::GameSummary> = app
                    .lobby
                    .games
                    .iter()
                    .filter(|g| g.phase() == phase)
                    .cloned()
                    .collect();
                if games.is_empty() {
                    continue;
                }
                ui.heading(lang.pick(en, es));
                egui::Grid::new(en)
                    .striped(true)
                    .num_columns(4)
                    .show(ui, |ui| {
                        for game in games {
                            game_row(app, ui, &game);
                            ui.end_row();
                        }
                    });
                ui.add_space(8.0);
            }
            if app.lobby.games.is_empty() {
                ui.label(lang.pick(
                    "No games yet: create one on the left.",
                    "Aún no hay partidas: crea una a la izquierda.",
                ));
            }
        });
    });
}

/// The filters, the refresh button and "open by id".
fn filters(app: &mut App, ui: &mut Ui) {
    let lang = lang(ui);
    let any = lang.pick("any", "cualquiera");
    ui.horizontal(|ui| {
        let before = (app.lobby.phase, app.lobby.ruleset.clone(), app.lobby.speed);
        let label = ui.label(lang.pick("Ruleset", "Reglamento"));
        let selected = if app.lobby.ruleset.is_empty() {
            any.to_owned()
        } else {
            ruleset_name(app, &app.lobby.ruleset)
        };
        egui::ComboBox::from_id_salt("filter ruleset")
            .selected_text(selected)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut app.lobby.ruleset, String::new(), any);
                for ruleset in &app.rulesets {
                    ui.selectable_value(&mut app.lobby.ruleset, ruleset.id.clone(), &ruleset.name);
                }
            })
            .response
            .labelled_by(label.id);
        let label = ui.label(lang.pick("Phase", "Fase"));
        egui::ComboBox::from_id_salt("filter phase")
            .selected_text(match app.lobby.phase {
                pb::Phase::Unspecified => any,
                phase => words::phase(lang, phase),
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut app.lobby.phase, pb::Phase::Unspecified, any);
                for phase in [
                    pb::Phase::Waiting,
                    pb::Phase::Setup,
                    pb::Phase::Playing,
                    pb::Phase::Finished,
                ] {
                    ui.selectable_value(&mut app.lobby.phase, phase, words::phase(lang, phase));
                }
            })
            .response
            .labelled_by(label.id);
        let label = ui.label(lang.pick("Clock", "Reloj"));
        egui::ComboBox::from_id_salt("filter speed")
            .selected_text(speed_name(lang, app.lobby.speed).unwrap_or(any))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut app.lobby.speed, pb::Speed::Unspecified, any);
                for (speed, en, es) in SPEEDS {
                    ui.selectable_value(&mut app.lobby.speed, speed, lang.pick(en, es));
                }
            })
            .response
            .labelled_by(label.id);
        let now = (app.lobby.phase, app.lobby.ruleset.clone(), app.lobby.speed);
        if ui.button(lang.pick("Refresh", "Actualizar")).clicked() || before != now {
            app.send(app.lobby.request());
        }
        ui.separator();
        let label = ui.label(lang.pick("Game id", "ID de partida"));
        ui.add(egui::TextEdit::singleline(&mut app.lobby.game_id).desired_width(70.0))
            .labelled_by(label.id);
        let id = app.lobby.game_id.trim().to_owned();
        if ui
            .add_enabled(
                !id.is_empty(),
                egui::Button::new(lang.pick("Open", "Abrir")),
            )
            .clicked()
        {
            app.open(&id, false);
        }
        if ui
            .add_enabled(
                !id.is_empty(),
                egui::Button::new(lang.pick("Watch", "Mirar")),
            )
            .clicked()
        {
            app.open(&id, true);
        }
    });
}

/// Opening a saved `trinchera --json history` file as a replay.
fn history_file(app: &mut App, ui: &mut Ui) {
    let lang = lang(ui);
    ui.horizontal(|ui| {
        let label = ui.label(lang.pick(
            "Replay a saved history file",
            "Repetir un archivo de historial guardado",
        ));
        ui.add(
            egui::TextEdit::singleline(&mut app.lobby.history_file)
                .hint_text(lang.pick(
                    "file written by trinchera --json history GAME",
                    "archivo de trinchera --json history PARTIDA",
                ))
                .desired_width(300.0),
        )
        .labelled_by(label.id);
        let path = app.lobby.history_file.trim().to_owned();
        if ui
            .add_enabled(
                !path.is_empty(),
                egui::Button::new(lang.pick("Open replay", "Abrir repetición")),
            )
            .clicked()
        {
            app.replay_file(&path);
        }
    });
}

/// One game of the list with what may be done with it.
fn game_row(app: &mut App, ui: &mut Ui, game: &pb::GameSummary) {
    let Some(ruleset) = app.ruleset(&game.ruleset).cloned() else {
        return;
    };
    let lang = lang(ui);
    let names = Names::new(&ruleset);
    let (name, id) = (&game.name, &game.game_id);
    ui.label(RichText::new(tr!(lang, "{name} · game {id}", "{name} · partida {id}")).strong());
    ui.label(format!(
        "{} · {}",
        ruleset.name,
        words::time_control(lang, game.time_control.as_ref()).0
    ));
    ui.horizontal(|ui| {
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
    let id = game.game_id.clone();
    let mine = app.lobby.mine.iter().any(|(g, _)| *g == id);
    ui.horizontal(|ui| {
        let phase = game.phase();
        if phase == pb::Phase::Waiting
            && !mine
            && ui
                .button(tr!(lang, "Join game {id}", "Unirse a la partida {id}"))
                .clicked()
        {
            app.send(Request::Join {
                game: id.clone(),
                name: app.lobby.create.player.trim().to_owned(),
            });
        }
        if phase == pb::Phase::Finished
            && ui
                .button(tr!(lang, "Open game {id}", "Abrir la partida {id}"))
                .clicked()
        {
            app.open(&id, !mine);
        }
        if phase == pb::Phase::Finished
            && ui
                .button(tr!(lang, "Replay game {id}", "Repetir la partida {id}"))
                .clicked()
        {
            app.replay(&id);
        }
        if mine {
            // Continued from "Your games on this machine" above.
            ui.label(RichText::new(lang.pick("yours", "tuya")).weak());
        } else if game.phase() != pb::Phase::Finished
            && ui
                .button(tr!(lang, "Watch game {id}", "Mirar la partida {id}"))
                .clicked()
        {
            app.open(&id, true);
        }
    });
}

/// The form that creates a game.
fn create_form(app: &mut App, ui: &mut Ui) {
    let lang = lang(ui);
    ui.heading(lang.pick("New game", "Nueva partida"));
    let form = &mut app.lobby.create;
    if form.ruleset.is_empty()
        && let Some(first) = app.rulesets.first()
    {
        form.ruleset.clone_from(&first.id);
    }
    let Some(ruleset) = app.rulesets.iter().find(|r| r.id == form.ruleset).cloned() else {
        ui.label(lang.pick(
            "The server hosts no ruleset.",
            "El servidor no ofrece ningún reglamento.",
        ));
        return;
    };
    let names = Names::new(&ruleset);
    egui::Grid::new("create").num_columns(2).show(ui, |ui| {
        let label = ui.label(lang.pick("Ruleset", "Reglamento"));
        egui::ComboBox::from_id_salt("create ruleset")
            .selected_text(&ruleset.name)
            .show_ui(ui, |ui| {
                for r in &app.rulesets {
                    ui.selectable_value(&mut form.ruleset, r.id.clone(), &r.name);
                }
            })
            .response
            .labelled_by(label.id);
        ui.end_row();
        ui.label(lang.pick("Your seat", "Tu asiento"));
        ui.horizontal(|ui| {
            for seat in [0, 1] {
                ui.radio_value(&mut form.seat, seat, names.seat(seat));
            }
        });
        ui.end_row();
        ui.label(lang.pick("Opponent", "Rival"));
        ui.vertical(|ui| {
            ui.radio_value(
                &mut form.opponent,
                Opponent::Human,
                lang.pick("A person who joins", "Una persona que se una"),
            );
            for level in &ruleset.bot_levels {
                ui.radio_value(
                    &mut form.opponent,
                    Opponent::Bot(level.name.clone()),
                    format!("Bot: {}", level.name),
                )
                .on_hover_text(&level.description);
            }
        });
        ui.end_row();
        let label = ui.label(lang.pick("Clock", "Reloj"));
        clock_choice(&mut form.clock, ui, label.id);
        ui.end_row();
        let label = ui.label(lang.pick("Game name", "Nombre de la partida"));
        ui.add(egui::TextEdit::singleline(&mut form.name).hint_text(&ruleset.name))
            .labelled_by(label.id);
        ui.end_row();
        let label = ui.label(lang.pick("Your name", "Tu nombre"));
        ui.add(
            egui::TextEdit::singleline(&mut form.player).hint_text(lang.pick("Player", "Jugador")),
        )
        .labelled_by(label.id);
        ui.end_row();
    });
    if let Some(seat) = ruleset.seats.iter().find(|s| s.seat == form.seat) {
        ui.label(RichText::new(&seat.role).small());
    }
    if ui
        .button(lang.pick("Create game", "Crear partida"))
        .clicked()
    {
        let request = pb::CreateGameRequest {
            ruleset: form.ruleset.clone(),
            seat: Some(form.seat),
            name: form.name.trim().to_owned(),
            player_name: form.player.trim().to_owned(),
            bot: match &form.opponent {
                Opponent::Human => String::new(),
                Opponent::Bot(level) => level.clone(),
            },
            time_control: form.clock.control(),
            creator_bot: String::new(),
        };
        app.send(Request::Create(request));
    }
}

/// The time control of the create form in one row: none, live (minutes + increment) or
/// days per turn.
fn clock_choice(clock: &mut ClockChoice, ui: &mut Ui, label: egui::Id) {
    const LIVE: ClockChoice = ClockChoice::Live {
        minutes: 10,
        increment: 5,
    };
    let lang = lang(ui);
    let none = lang.pick("none", "ninguno");
    let live = lang.pick("live", "en vivo");
    let days_per_turn = lang.pick("days per turn", "días por turno");
    ui.horizontal(|ui| {
        let kind = match clock {
            ClockChoice::None => none,
            ClockChoice::Live { .. } => live,
            ClockChoice::Days(_) => days_per_turn,
        };
        egui::ComboBox::from_id_salt("create clock")
            .selected_text(kind)
            .show_ui(ui, |ui| {
                for (choice, name) in [
                    (ClockChoice::None, none),
                    (LIVE, live),
                    (ClockChoice::Days(3), days_per_turn),
                ] {
                    let same = std::mem::discriminant(clock) == std::mem::discriminant(&choice);
                    if ui.selectable_label(same, name).clicked() && !same {
                        *clock = choice;
                    }
                }
            })
            .response
            .labelled_by(label);
        match clock {
            ClockChoice::None => {}
            ClockChoice::Live { minutes, increment } => {
                ui.add(egui::DragValue::new(minutes).range(1..=180).suffix(" min"))
                    .on_hover_text(lang.pick("Minutes on each clock", "Minutos en cada reloj"));
                ui.label("+");
                ui.add(egui::DragValue::new(increment).range(0..=180).suffix(" s"))
                    .on_hover_text(lang.pick(
                        "Seconds added after each turn",
                        "Segundos que se añaden tras cada turno",
                    ));
            }
            ClockChoice::Days(days) => {
                ui.add(egui::DragValue::new(days).range(1..=30).suffix(" d"))
                    .on_hover_text(lang.pick("Days for each turn", "Días para cada turno"));
            }
        }
    });
}
