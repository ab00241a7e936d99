//! The one state of the connection to the server, told in the same words wherever it
//! shows: the top bar, the panel of an open game, the connect screen. The network thread
//! keeps it current by itself (a lost stream or a failed health probe), so it never says
//! "connected" to a server that is gone.

use web_time::Instant;

use eframe::egui::{self, Color32, Response, Ui};

use crate::i18n::{Lang, tr};
use crate::palette;

/// The state of the connection.
#[derive(Clone, Debug, PartialEq)]
pub enum Connection {
    /// Waiting for the server to answer.
    Connecting,
    /// Connected.
    Up,
    /// Not connected: the person is choosing a server.
    Idle,
    /// No server answered; trying again at `retry_at`.
    Down {
        /// What the transport said.
        detail: String,
        /// When the next attempt starts.
        retry_at: Instant,
    },
}

impl Connection {
    /// Whether the server answers.
    pub fn is_up(&self) -> bool {
        *self == Connection::Up
    }

    /// The colour of its dot and its words, e.g. "no Trinchera server at http://…: trying
    /// again in 3 s".
    pub fn words(&self, lang: Lang, url: &str) -> (Color32, String) {
        match self {
            Connection::Up => (
                palette::TARGET,
                tr!(lang, "connected to {url}", "conectado a {url}"),
            ),
            Connection::Connecting => (
                palette::SELECTED,
                tr!(lang, "connecting to {url}…", "conectando a {url}…"),
            ),
            Connection::Down { retry_at, .. } => {
                let left = retry_at.saturating_duration_since(Instant::now()).as_secs() + 1;
                (
                    palette::seat(0),
                    tr!(
                        lang,
                        "no Trinchera server at {url}: trying again in {left} s",
                        "no hay servidor de Trinchera en {url}: nuevo intento en {left} s"
                    ),
                )
            }
            Connection::Idle => (
                palette::COORDINATE,
                tr!(lang, "not connected", "sin conexión"),
            ),
        }
    }

    /// Its dot and words in one line, cut to the width there is (the top bar).
    pub fn indicator(&self, ui: &mut Ui, lang: Lang, url: &str) -> Response {
        let (colour, text) = self.words(lang, url);
        ui.horizontal(|ui| {
            dot(ui, colour);
            ui.add(egui::Label::new(text).truncate());
        })
        .response
    }

    /// Its dot and words, wrapped to the width there is (beside a board).
    pub fn notice(&self, ui: &mut Ui, lang: Lang, url: &str) -> Response {
        let (colour, text) = self.words(lang, url);
        ui.horizontal_top(|ui| {
            dot(ui, colour);
            ui.add(egui::Label::new(text).wrap());
        })
        .response
    }
}

/// The coloured dot before the words.
fn dot(ui: &mut Ui, colour: Color32) {
    let (spot, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().circle_filled(spot.center(), 5.0, colour);
}
