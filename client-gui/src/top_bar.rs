//! The bar across the top of the window: the connection, the way back, who plays ("Signed in
//! as Ana" and "Sign out", or "Sign in" for a guest), the board look, the help and the
//! language. In a narrow window everything but the connection folds into a "Menu", so
//! nothing slides under anything else. The last failure shows under it, over
//! the screen ([`notice`]).

use eframe::egui::{self, Panel, Rect, RichText, Ui};

use crate::action::Action;
use crate::backend::Request;
use crate::connection::Connection;
use crate::i18n::{Lang, tr};
use crate::palette;
use crate::settings::Settings;

/// Below this width (in points) the bar folds its controls into a menu.
const COMPACT_BELOW: f32 = 1100.0;
/// The characters of an account's name that the bar shows (names have up to 32).
const NAME_IN_BAR: usize = 16;

/// What the bar shows besides the settings.
#[derive(Clone, Copy, Debug)]
pub struct Bar<'a> {
    /// The connection.
    pub connection: &'a Connection,
    /// The server's address.
    pub url: &'a str,
    /// Whether a game is open (the way back is "Back to the lobby").
    pub in_game: bool,
    /// The account signed in, if any.
    pub account: Option<&'a str>,
    /// Whether the sign-in screen shows.
    pub signing_in: bool,
}

/// Draws the bar; the settings change in place.
pub fn show(ui: &mut Ui, settings: &mut Settings, bar: Bar<'_>) -> Vec<Action> {
    let mut actions = Vec::new();
    Panel::top("top").show(ui, |ui| {
        let lang = settings.lang;
        ui.horizontal(|ui| {
            ui.heading(RichText::new("Trinchera").strong());
            let compact = ui.available_width() < COMPACT_BELOW;
            if !compact {
                // Beside the name, away from "Change server", which the lobby shows at the
                // other end: a second click after this one lands on nothing.
                way_back(ui, lang, bar, &mut actions);
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if compact {
                    ui.menu_button(lang.pick("Menu", "Menú"), |ui| {
                        language_choice(ui, settings);
                        ui.separator();
                        who(ui, lang, bar, true, &mut actions);
                        way_back(ui, lang, bar, &mut actions);
                        controls(ui, settings, bar, &mut actions);
                    });
                } else {
                    // Right to left: the language box first, then its caption before it.
                    language_box(ui, settings);
                    controls(ui, settings, bar, &mut actions);
                    who(ui, lang, bar, false, &mut actions);
                }
                // The connection takes the room that is left, from the left.
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                    bar.connection.indicator(ui, lang, bar.url);
                });
            });
        });
    });
    actions
}

/// The last failure, over the top of `screen` (the window under the bar) until dismissed.
/// Over it, not in the bar: a row that came and went moved the board under the pointer.
pub fn notice(ctx: &egui::Context, screen: Rect, lang: Lang, notice: &str) -> Option<Action> {
    let width = (screen.width() * 0.6).max(300.0).min(screen.width());
    egui::Area::new(egui::Id::unique("notice"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::CENTER_TOP)
        .fixed_pos(screen.center_top() + egui::vec2(0.0, 4.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style())
                .show(ui, |ui| {
                    ui.set_max_width(width);
                    ui.horizontal_wrapped(|ui| {
                        ui.label(RichText::new(notice).color(palette::LAST_MOVE));
                        ui.small_button(lang.pick("Dismiss", "Cerrar"))
                            .clicked()
                            .then_some(Action::DismissNotice)
                    })
                    .inner
                })
                .inner
        })
        .inner
}

/// Who plays: for a guest "Sign in" (in the lobby); for an account "Signed in as Ana", in
/// the bar a menu with "Sign out" in it (a long name cut short: the bar has no room to
/// spare), in the folded bar's menu a line and a button.
fn who(ui: &mut Ui, lang: Lang, bar: Bar<'_>, folded: bool, actions: &mut Vec<Action>) {
    let Some(name) = bar.account else {
        let lobby = bar.connection.is_up() && !bar.in_game && !bar.signing_in;
        if lobby && ui.button(lang.pick("Sign in", "Entrar")).clicked() {
            actions.push(Action::AskToSignIn);
        }
        return;
    };
    let sign_out = |ui: &mut Ui, actions: &mut Vec<Action>| {
        if ui.button(lang.pick("Sign out", "Cerrar sesión")).clicked() {
            actions.push(Action::Send(Request::SignOut));
        }
    };
    let signed_in = |name: &str| tr!(lang, "Signed in as {name}", "Cuenta: {name}");
    if folded {
        ui.label(signed_in(name));
        sign_out(ui, actions);
        return;
    }
    let short = match name.char_indices().nth(NAME_IN_BAR) {
        Some((cut, _)) => format!("{}…", &name[..cut]),
        None => name.to_owned(),
    };
    ui.menu_button(signed_in(&short), |ui| {
        if short != name {
            ui.label(signed_in(name));
        }
        sign_out(ui, actions);
    });
}

/// "Back to the lobby" while a game is open.
fn way_back(ui: &mut Ui, lang: Lang, bar: Bar<'_>, actions: &mut Vec<Action>) {
    if bar.in_game
        && ui
            .button(lang.pick("Back to the lobby", "Volver a la sala"))
            .clicked()
    {
        actions.push(Action::Leave);
    }
}

/// Changing servers, the look of the board and the help: in the bar, or in its menu.
fn controls(ui: &mut Ui, settings: &mut Settings, bar: Bar<'_>, actions: &mut Vec<Action>) {
    let lang = settings.lang;
    if ui.button(lang.pick("Help (F1)", "Ayuda (F1)")).clicked() {
        actions.push(Action::ToggleHelp);
    }
    ui.checkbox(
        &mut settings.reduce_motion,
        lang.pick("Reduce motion", "Reducir animaciones"),
    );
    ui.checkbox(
        &mut settings.look.names,
        lang.pick("Names on tiles", "Nombres en las fichas"),
    );
    ui.checkbox(
        &mut settings.look.flipped,
        lang.pick("Flip board", "Girar tablero"),
    );
    if bar.connection.is_up()
        && !bar.in_game
        && ui
            .button(lang.pick("Change server", "Cambiar de servidor"))
            .clicked()
    {
        actions.push(Action::ChangeServer);
    }
}

/// The language as a drop-down box with its caption (the wide bar, right to left).
fn language_box(ui: &mut Ui, settings: &mut Settings) {
    let lang = settings.lang;
    let combo = egui::ComboBox::from_id_salt("language")
        .selected_text(lang.name())
        .show_ui(ui, |ui| language_options(ui, settings))
        .response;
    let caption = ui.label(lang.pick("Language", "Idioma"));
    combo.labelled_by(caption.id);
}

/// The language as a caption and a choice (the menu).
fn language_choice(ui: &mut Ui, settings: &mut Settings) {
    ui.label(settings.lang.pick("Language", "Idioma"));
    language_options(ui, settings);
}

/// One choice per language.
fn language_options(ui: &mut Ui, settings: &mut Settings) {
    for choice in Lang::ALL {
        ui.selectable_value(&mut settings.lang, choice, choice.name());
    }
}
