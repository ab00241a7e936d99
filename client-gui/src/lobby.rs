//! The lobby: every ruleset with its description, the games of the server (waiting for a
//! player, in progress, finished) with filters, the games of this machine, and the form
//! that creates a game against a person or a bot.

use eframe::egui::{self, Panel, RichText, Ui};
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

use crate::app::App;
use crate::backend::Request;
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

/// The speed classes a listing may be filtered by, with their names.
const SPEEDS: [(pb::Speed, &str); 6] = [
    (pb::Speed::Untimed, "no clock"),
    (pb::Speed::Bullet, "bullet"),
    (pb::Speed::Blitz, "blitz"),
    (pb::Speed::Rapid, "rapid"),
    (pb::Speed::Classical, "classical"),
    (pb::Speed::Correspondence, "correspondence"),
];

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
    Panel::left("rulesets")
        .resizable(true)
        .default_size(330.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                create_form(app, ui);
                ui.separator();
                ui.heading("Rulesets");
                for ruleset in &app.rulesets {
                    ui.add_space(4.0);
                    ui.label(RichText::new(&ruleset.name).strong());
                    ui.label(RichText::new(&ruleset.description).small());
                }
            });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        filters(app, ui);
        ui.separator();
        egui::ScrollArea::vertical().show(ui, |ui| {
            if !app.lobby.mine.is_empty() {
                ui.heading("Your games on this machine");
                let mine = app.lobby.mine.clone();
                egui::Grid::new("mine").striped(true).show(ui, |ui| {
                    for (id, ruleset) in mine {
                        ui.label(format!("Game {id}"));
                        ui.label(ruleset_name(app, &ruleset));
                        if ui.button(format!("Continue game {id}")).clicked() {
                            app.open(&id, false);
                        }
                        ui.end_row();
                    }
                });
                ui.add_space(8.0);
            }
            for (phase, title) in [
                (pb::Phase::Waiting, "Waiting for a player"),
                (pb::Phase::Setup, "Setting up"),
                (pb::Phase::Playing, "In progress"),
                (pb::Phase::Finished, "Finished"),
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
                ui.heading(title);
                egui::Grid::new(title)
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
                ui.label("No games yet: create one on the left.");
            }
        });
    });
}

/// The filters, the refresh button and "open by id".
fn filters(app: &mut App, ui: &mut Ui) {
    ui.horizontal(|ui| {
        let before = (app.lobby.phase, app.lobby.ruleset.clone(), app.lobby.speed);
        let label = ui.label("Ruleset");
        let selected = if app.lobby.ruleset.is_empty() {
            "any".to_owned()
        } else {
            ruleset_name(app, &app.lobby.ruleset)
        };
        egui::ComboBox::from_id_salt("filter ruleset")
            .selected_text(selected)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut app.lobby.ruleset, String::new(), "any");
                for ruleset in &app.rulesets {
                    ui.selectable_value(&mut app.lobby.ruleset, ruleset.id.clone(), &ruleset.name);
                }
            })
            .response
            .labelled_by(label.id);
        let label = ui.label("Phase");
        egui::ComboBox::from_id_salt("filter phase")
            .selected_text(match app.lobby.phase {
                pb::Phase::Unspecified => "any",
                phase => words::phase(phase),
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut app.lobby.phase, pb::Phase::Unspecified, "any");
                for phase in [
                    pb::Phase::Waiting,
                    pb::Phase::Setup,
                    pb::Phase::Playing,
                    pb::Phase::Finished,
                ] {
                    ui.selectable_value(&mut app.lobby.phase, phase, words::phase(phase));
                }
            })
            .response
            .labelled_by(label.id);
        let label = ui.label("Clock");
        egui::ComboBox::from_id_salt("filter speed")
            .selected_text(
                SPEEDS
                    .iter()
                    .find(|(speed, _)| *speed == app.lobby.speed)
                    .map_or("any", |(_, name)| name),
            )
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut app.lobby.speed, pb::Speed::Unspecified, "any");
                for (speed, name) in SPEEDS {
                    ui.selectable_value(&mut app.lobby.speed, speed, name);
                }
            })
            .response
            .labelled_by(label.id);
        let now = (app.lobby.phase, app.lobby.ruleset.clone(), app.lobby.speed);
        if ui.button("Refresh").clicked() || before != now {
            app.send(app.lobby.request());
        }
        ui.separator();
        let label = ui.label("Game id");
        ui.add(egui::TextEdit::singleline(&mut app.lobby.game_id).desired_width(70.0))
            .labelled_by(label.id);
        let id = app.lobby.game_id.trim().to_owned();
        if ui
            .add_enabled(!id.is_empty(), egui::Button::new("Open"))
            .clicked()
        {
            app.open(&id, false);
        }
        if ui
            .add_enabled(!id.is_empty(), egui::Button::new("Watch"))
            .clicked()
        {
            app.open(&id, true);
        }
    });
}

/// One game of the list with what may be done with it.
fn game_row(app: &mut App, ui: &mut Ui, game: &pb::GameSummary) {
    let Some(ruleset) = app.ruleset(&game.ruleset).cloned() else {
        return;
    };
    let names = Names::new(&ruleset);
    ui.label(RichText::new(format!("{} · game {}", game.name, game.game_id)).strong());
    ui.label(format!(
        "{} · {}",
        ruleset.name,
        words::time_control(game.time_control.as_ref()).0
    ));
    ui.horizontal(|ui| {
        for player in &game.players {
            let text = if player.joined {
                let bot = if player.bot.is_empty() { "" } else { " (bot)" };
                format!("{} ({}){bot}", player.name, names.seat(player.seat))
            } else {
                format!("{}: free", names.seat(player.seat))
            };
            ui.label(RichText::new(text).color(palette::seat(player.seat)));
        }
        if let Some(result) = &game.result
            && game.phase() == pb::Phase::Finished
        {
            ui.label(words::result(&names, result));
        }
    });
    let id = game.game_id.clone();
    let mine = app.lobby.mine.iter().any(|(g, _)| *g == id);
    ui.horizontal(|ui| {
        let phase = game.phase();
        if phase == pb::Phase::Waiting && !mine && ui.button(format!("Join game {id}")).clicked() {
            app.send(Request::Join {
                game: id.clone(),
                name: app.lobby.create.player.trim().to_owned(),
            });
        }
        if phase == pb::Phase::Finished && ui.button(format!("Open game {id}")).clicked() {
            app.open(&id, !mine);
        }
        if mine {
            // Continued from "Your games on this machine" above.
            ui.label(RichText::new("yours").weak());
        } else if game.phase() != pb::Phase::Finished
            && ui.button(format!("Watch game {id}")).clicked()
        {
            app.open(&id, true);
        }
    });
}

/// The form that creates a game.
fn create_form(app: &mut App, ui: &mut Ui) {
    ui.heading("New game");
    let form = &mut app.lobby.create;
    if form.ruleset.is_empty()
        && let Some(first) = app.rulesets.first()
    {
        form.ruleset.clone_from(&first.id);
    }
    let Some(ruleset) = app.rulesets.iter().find(|r| r.id == form.ruleset).cloned() else {
        ui.label("The server hosts no ruleset.");
        return;
    };
    let names = Names::new(&ruleset);
    egui::Grid::new("create").num_columns(2).show(ui, |ui| {
        let label = ui.label("Ruleset");
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
        ui.label("Your seat");
        ui.horizontal(|ui| {
            for seat in [0, 1] {
                ui.radio_value(&mut form.seat, seat, names.seat(seat));
            }
        });
        ui.end_row();
        ui.label("Opponent");
        ui.vertical(|ui| {
            ui.radio_value(&mut form.opponent, Opponent::Human, "A person who joins");
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
        let label = ui.label("Clock");
        clock_choice(&mut form.clock, ui, label.id);
        ui.end_row();
        let label = ui.label("Game name");
        ui.add(egui::TextEdit::singleline(&mut form.name).hint_text(&ruleset.name))
            .labelled_by(label.id);
        ui.end_row();
        let label = ui.label("Your name");
        ui.add(egui::TextEdit::singleline(&mut form.player).hint_text("Player"))
            .labelled_by(label.id);
        ui.end_row();
    });
    if let Some(seat) = ruleset.seats.iter().find(|s| s.seat == form.seat) {
        ui.label(RichText::new(&seat.role).small());
    }
    if ui.button("Create game").clicked() {
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
    ui.horizontal(|ui| {
        let kind = match clock {
            ClockChoice::None => "none",
            ClockChoice::Live { .. } => "live",
            ClockChoice::Days(_) => "days per turn",
        };
        egui::ComboBox::from_id_salt("create clock")
            .selected_text(kind)
            .show_ui(ui, |ui| {
                for (choice, name) in [
                    (ClockChoice::None, "none"),
                    (LIVE, "live"),
                    (ClockChoice::Days(3), "days per turn"),
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
                    .on_hover_text("Minutes on each clock");
                ui.label("+");
                ui.add(egui::DragValue::new(increment).range(0..=180).suffix(" s"))
                    .on_hover_text("Seconds added after each turn");
            }
            ClockChoice::Days(days) => {
                ui.add(egui::DragValue::new(days).range(1..=30).suffix(" d"))
                    .on_hover_text("Days for each turn");
            }
        }
    });
}
