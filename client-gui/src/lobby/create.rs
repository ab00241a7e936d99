//! The form that creates a game: ruleset, seat, opponent (a person who joins, or a bot
//! level), clock and names (a guest's; the account's when signed in). The form keeps its choices from one game to the next, and says
//! above its button what it will create, clock included, so nothing is kept unnoticed.

use eframe::egui::{self, RichText, Ui};
use serde::{Deserialize, Serialize};
use trinchera_client::ruleset_texts::{self, RulesetTexts};
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

use crate::backend::Request;
use crate::i18n::{Lang, lang, tr};

/// The captions of the form's rows, in English and Spanish.
const RULESET: (&str, &str) = ("Ruleset", "Reglamento");
const SEAT: (&str, &str) = ("Your seat", "Tu asiento");
const OPPONENT: (&str, &str) = ("Opponent", "Rival");
const CLOCK: (&str, &str) = ("Clock", "Reloj");
const TIME: (&str, &str) = ("Time", "Tiempo");
const GAME_NAME: (&str, &str) = ("Game name", "Nombre de la partida");
const YOUR_NAME: (&str, &str) = ("Your name", "Tu nombre");
const CAPTIONS: [(&str, &str); 7] = [RULESET, SEAT, OPPONENT, CLOCK, TIME, GAME_NAME, YOUR_NAME];

/// Who plays the other seat of a new game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Opponent {
    /// A person who joins.
    #[default]
    Human,
    /// The server, at this level.
    Bot(String),
}

/// The time control picked for a new game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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

/// The create form, kept between runs ([`crate::settings::Kept`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateForm {
    /// Ruleset id.
    pub ruleset: String,
    /// The creator's seat.
    pub seat: i32,
    /// Who plays the other seat.
    pub opponent: Opponent,
    /// The game's name.
    #[serde(skip)]
    pub name: String,
    /// The creator's name.
    pub player: String,
    /// The time control.
    pub clock: ClockChoice,
}

impl CreateForm {
    /// The request that creates the game of the form.
    fn request(&self) -> Request {
        Request::Create(pb::CreateGameRequest {
            ruleset: self.ruleset.clone(),
            seat: Some(self.seat),
            name: self.name.trim().to_owned(),
            player_name: self.player.trim().to_owned(),
            bot: match &self.opponent {
                Opponent::Human => String::new(),
                Opponent::Bot(level) => level.clone(),
            },
            time_control: self.clock.control(),
            creator_bot: String::new(),
        })
    }

    /// What the form will create, in a line: "Clásico · Rojo · against the bot (easy) ·
    /// clock 10+5" (or "no clock", "3 days a move").
    fn summary(&self, lang: Lang, ruleset: &pb::Ruleset) -> String {
        let names = Names::new(ruleset);
        let opponent = match &self.opponent {
            Opponent::Human => lang
                .pick("against a person", "contra una persona")
                .to_owned(),
            Opponent::Bot(level) => {
                let level = ruleset_texts::bot_name(lang, level);
                tr!(lang, "against the bot ({level})", "contra el bot ({level})")
            }
        };
        let control = self.clock.control();
        let clock = words::time_control(lang, control.as_ref()).0;
        let clock = match self.clock {
            ClockChoice::Live { .. } => tr!(lang, "clock {clock}", "reloj {clock}"),
            ClockChoice::None | ClockChoice::Days(_) => clock,
        };
        let (name, seat) = (&ruleset.name, names.seat(self.seat));
        format!("{name} · {seat} · {opponent} · {clock}")
    }

    /// Draws the form for the hosted `rulesets`, for the `account` signed in (which plays
    /// under its own name); the request when "Create game" is pressed.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        rulesets: &[pb::Ruleset],
        account: Option<&str>,
    ) -> Option<Request> {
        let lang = lang(ui);
        ui.heading(lang.pick("New game", "Nueva partida"));
        if self.ruleset.is_empty()
            && let Some(first) = rulesets.first()
        {
            self.ruleset.clone_from(&first.id);
        }
        let Some(ruleset) = rulesets.iter().find(|r| r.id == self.ruleset) else {
            ui.label(lang.pick(
                "The server hosts no ruleset.",
                "El servidor no ofrece ningún reglamento.",
            ));
            return None;
        };
        let names = Names::new(ruleset);
        let texts = RulesetTexts::new(lang, ruleset);
        // The captions' column is as wide as its widest caption in this frame's language,
        // and the text fields take the rest of the panel: a grid otherwise lays a frame out
        // with the widths of the last one, and a field as wide as its column was in English
        // widened the panel for good beside the Spanish captions.
        let captions = CAPTIONS.iter().map(|&(en, es)| lang.pick(en, es));
        let caption_width = crate::layout::captions_width(ui, captions);
        let field_width = ui.available_width() - caption_width - ui.spacing().item_spacing.x;
        let grid = egui::Grid::new("create")
            .num_columns(2)
            .min_col_width(caption_width);
        grid.show(ui, |ui| {
            let label = ui.label(lang.pick(RULESET.0, RULESET.1));
            egui::ComboBox::from_id_salt("create ruleset")
                .selected_text(&ruleset.name)
                .show_ui(ui, |ui| {
                    for r in rulesets {
                        ui.selectable_value(&mut self.ruleset, r.id.clone(), &r.name);
                    }
                })
                .response
                .labelled_by(label.id);
            ui.end_row();
            ui.label(lang.pick(SEAT.0, SEAT.1));
            ui.horizontal(|ui| {
                for seat in [0, 1] {
                    ui.radio_value(&mut self.seat, seat, names.seat(seat));
                }
            });
            ui.end_row();
            ui.label(lang.pick(OPPONENT.0, OPPONENT.1));
            ui.vertical(|ui| {
                ui.radio_value(
                    &mut self.opponent,
                    Opponent::Human,
                    lang.pick("A person who joins", "Una persona que se una"),
                );
                for level in &ruleset.bot_levels {
                    let name = ruleset_texts::bot_name(lang, &level.name);
                    let about = ruleset_texts::bot_about(lang, level);
                    ui.radio_value(
                        &mut self.opponent,
                        Opponent::Bot(level.name.clone()),
                        format!("Bot: {name}"),
                    )
                    .on_hover_text(about);
                }
            });
            ui.end_row();
            let label = ui.label(lang.pick(CLOCK.0, CLOCK.1));
            clock_kind(&mut self.clock, ui, label.id);
            ui.end_row();
            clock_time(&mut self.clock, ui);
            let label = ui.label(lang.pick(GAME_NAME.0, GAME_NAME.1));
            ui.add(
                egui::TextEdit::singleline(&mut self.name)
                    .hint_text(&ruleset.name)
                    .desired_width(field_width),
            )
            .labelled_by(label.id);
            ui.end_row();
            let label = ui.label(lang.pick(YOUR_NAME.0, YOUR_NAME.1));
            match account {
                Some(name) => {
                    ui.label(tr!(lang, "{name} (your account)", "{name} (tu cuenta)"))
                        .labelled_by(label.id);
                }
                None => {
                    ui.add(
                        egui::TextEdit::singleline(&mut self.player)
                            .hint_text(lang.pick("Player", "Jugador"))
                            .desired_width(field_width),
                    )
                    .labelled_by(label.id);
                }
            }
            ui.end_row();
        });
        ui.label(RichText::new(texts.role(self.seat)).small());
        ui.label(RichText::new(self.summary(lang, ruleset)).strong());
        ui.button(lang.pick("Create game", "Crear partida"))
            .clicked()
            .then(|| self.request())
    }
}

/// The kind of time control of the create form: none, live or days per turn.
fn clock_kind(clock: &mut ClockChoice, ui: &mut Ui, label: egui::Id) {
    const LIVE: ClockChoice = ClockChoice::Live {
        minutes: 10,
        increment: 5,
    };
    let lang = lang(ui);
    let none = lang.pick("none", "ninguno");
    let live = lang.pick("live", "en vivo");
    let days_per_turn = lang.pick("days per turn", "días por turno");
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
}

/// The time of a live clock (minutes, then seconds added per turn) or of a turn in days,
/// on a grid row of its own under the kind: beside the kind, in a row that wrapped, the
/// seconds fell under the next row and moved again as the minutes changed width.
fn clock_time(clock: &mut ClockChoice, ui: &mut Ui) {
    if *clock == ClockChoice::None {
        return;
    }
    let lang = lang(ui);
    let label = ui.label(lang.pick(TIME.0, TIME.1)).id;
    match clock {
        ClockChoice::None => {}
        ClockChoice::Live { minutes, increment } => {
            ui.horizontal(|ui| {
                ui.add(egui::DragValue::new(minutes).range(1..=180).suffix(" min"))
                    .labelled_by(label)
                    .on_hover_text(lang.pick("Minutes on each clock", "Minutos en cada reloj"));
                ui.label("+");
                ui.add(egui::DragValue::new(increment).range(0..=180).suffix(" s"))
                    .labelled_by(label)
                    .on_hover_text(lang.pick(
                        "Seconds added after each turn",
                        "Segundos que se añaden tras cada turno",
                    ));
            });
        }
        ClockChoice::Days(days) => {
            ui.add(egui::DragValue::new(days).range(1..=30).suffix(" d"))
                .labelled_by(label)
                .on_hover_text(lang.pick("Days for each turn", "Días para cada turno"));
        }
    }
    ui.end_row();
}
