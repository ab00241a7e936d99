//! The connect screen: the server address, what went wrong when nobody answers, and "Retry
//! now" (the app also tries again by itself every few seconds).

use eframe::egui::{self, RichText, Ui};

use crate::action::Action;
use crate::connection::Connection;
use crate::i18n::{lang, tr};
use crate::palette;

/// The connect screen's state.
#[derive(Clone, Debug, Default)]
pub struct ConnectScreen {
    /// The address being typed.
    pub address: String,
}

impl ConnectScreen {
    /// Draws the screen for `connection` to `url`.
    pub fn ui(&mut self, ui: &mut Ui, connection: &Connection, url: &str) -> Vec<Action> {
        let lang = lang(ui);
        let mut actions = Vec::new();
        egui::CentralPanel::default().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(80.0);
                ui.heading(lang.pick(
                    "Connect to a Trinchera server",
                    "Conéctate a un servidor de Trinchera",
                ));
                ui.add_space(12.0);
                let row = egui::Layout::left_to_right(egui::Align::Center);
                let width = ui.available_width().min(520.0);
                ui.allocate_ui_with_layout(egui::vec2(width, 28.0), row, |ui| {
                    let label = ui.label(lang.pick("Server address", "Dirección del servidor"));
                    let edit = ui
                        .add(
                            egui::TextEdit::singleline(&mut self.address)
                                .desired_width((width - 200.0).max(120.0)),
                        )
                        .labelled_by(label.id);
                    let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    if ui.button(lang.pick("Connect", "Conectar")).clicked() || enter {
                        actions.push(Action::Connect(self.address.clone()));
                    }
                });
                ui.add_space(12.0);
                match connection {
                    Connection::Connecting => {
                        ui.label(tr!(lang, "Connecting to {url}…", "Conectando a {url}…"));
                    }
                    Connection::Down { detail, .. } => {
                        ui.label(
                            RichText::new(lang.pick(
                                "Cannot reach the server.",
                                "No se puede llegar al servidor.",
                            ))
                            .color(palette::seat(0))
                            .strong(),
                        );
                        // The top bar says where and when the next attempt is.
                        ui.label(RichText::new(detail).weak());
                        if ui.button(lang.pick("Retry now", "Reintentar ya")).clicked() {
                            actions.push(Action::Connect(url.to_owned()));
                        }
                        ui.add_space(8.0);
                        ui.label(
                            RichText::new(lang.pick(
                                "Start a local server with: cargo run --release -p \
                                 trinchera-service --bin trinchera-server",
                                "Arranca un servidor local con: cargo run --release -p \
                                 trinchera-service --bin trinchera-server",
                            ))
                            .weak(),
                        );
                    }
                    Connection::Idle | Connection::Up => {}
                }
            });
        });
        actions
    }
}
