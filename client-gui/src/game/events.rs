//! The events of the open game, told in the window's language when drawn, and the last
//! die rolled (tanques shows it beside the round).

use eframe::egui::{self, RichText, Ui};
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

use crate::i18n::{Lang, lang, tr};

/// A line of the events list.
#[derive(Clone, Debug, PartialEq)]
pub enum LogLine {
    /// An event.
    Event(pb::Event),
    /// The stream skipped events after a break (the board is up to date).
    Skipped,
}

impl LogLine {
    /// The line in words.
    pub fn text(&self, lang: Lang, names: &Names<'_>, view: &pb::GameView) -> String {
        match self {
            LogLine::Event(event) => words::event(lang, names, Some(view), event),
            LogLine::Skipped => tr!(
                lang,
                "(Some events were skipped; the board is up to date.)",
                "(Se saltaron algunos eventos; el tablero está al día.)"
            ),
        }
    }
}

/// Every event so far.
#[derive(Clone, Debug, Default)]
pub struct Events {
    lines: Vec<LogLine>,
    /// The version of the last event logged.
    logged: u64,
    /// The last die rolled.
    dice: Option<pb::DiceRoll>,
}

impl Events {
    /// The events of `history`, in order.
    pub fn of(history: &[pb::Event]) -> Events {
        let mut events = Events::default();
        for event in history {
            events.push(event);
        }
        events
    }

    /// Adds `event` unless it is logged already.
    pub fn push(&mut self, event: &pb::Event) {
        if event.version <= self.logged {
            return;
        }
        self.lines.push(LogLine::Event(event.clone()));
        self.logged = event.version;
        for effect in &event.effects {
            if let Some(pb::effect::Effect::Dice(dice)) = &effect.effect {
                self.dice = Some(*dice);
            }
        }
    }

    /// A snapshot of `version` arrived: the events between the last logged and it were
    /// skipped (the stream broke and resumed past them).
    pub fn snapshot(&mut self, version: u64) {
        if version > self.logged + 1 && self.logged > 0 {
            self.lines.push(LogLine::Skipped);
        }
    }

    /// The last die rolled.
    pub fn dice(&self) -> Option<&pb::DiceRoll> {
        self.dice.as_ref()
    }

    /// Every line in `lang`.
    pub fn text(&self, lang: Lang, names: &Names<'_>, view: &pb::GameView) -> Vec<String> {
        self.lines
            .iter()
            .map(|line| line.text(lang, names, view))
            .collect()
    }

    /// The list, the newest at the bottom and in sight.
    pub fn ui(&self, ui: &mut Ui, names: &Names<'_>, view: &pb::GameView) {
        let lang = lang(ui);
        ui.label(RichText::new(lang.pick("Events", "Eventos")).strong());
        let row_height = ui.text_style_height(&egui::TextStyle::Body);
        egui::ScrollArea::vertical()
            .id_salt("events")
            .max_height(220.0)
            .stick_to_bottom(true)
            .show_rows(ui, row_height, self.lines.len(), |ui, rows| {
                for line in &self.lines[rows] {
                    ui.add(egui::Label::new(line.text(lang, names, view)).wrap());
                }
            });
    }
}
