//! The sign-in screen: a name and a password to sign in with, or to make an account with
//! (the password typed twice), or "Play as a guest", which goes on as without accounts. It
//! says what the server refused in the window's language, counts down the wait after too
//! many failed tries, and tells a person whose session ended why they are asked again.

use web_time::Instant;

use eframe::egui::{self, RichText, Ui};

use crate::account::{Entry, Password};
use crate::action::Action;
use crate::backend::Request;
use crate::failure::{self, Failure};
use crate::i18n::{Lang, lang, tr};
use crate::layout::captions_width;
use crate::palette;

/// Why the screen shows something besides its fields.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Trouble {
    /// The server refused the last try.
    Refused(Failure),
    /// Too many failed tries: none is sent before this moment.
    Wait(Instant),
    /// The two passwords of a new account differ.
    Mismatch,
    /// The session of the account named in the form ended.
    Ended(Failure),
}

/// The sign-in screen's state.
#[derive(Clone, Debug, Default)]
pub struct SignInScreen {
    /// Into an existing account, or a new one.
    pub entry: Entry,
    /// The account's name.
    pub name: String,
    password: Password,
    /// The password again, for a new account.
    repeat: Password,
    /// Whether a try is on its way.
    busy: bool,
    trouble: Option<Trouble>,
}

impl SignInScreen {
    /// The screen of a person whose session as `name` ended, saying why.
    pub fn ended(name: String, why: Failure) -> SignInScreen {
        SignInScreen {
            name,
            trouble: Some(Trouble::Ended(why)),
            ..SignInScreen::default()
        }
    }

    /// The server refused the try.
    pub fn refused(&mut self, failure: Failure) {
        self.busy = false;
        self.password = Password::default();
        self.repeat = Password::default();
        self.trouble = Some(match failure {
            Failure::Refused {
                retry_after: Some(wait),
                ..
            } => Trouble::Wait(Instant::now() + wait),
            failure => Trouble::Refused(failure),
        });
    }

    /// The try came to nothing without an answer (the server went away).
    pub fn unanswered(&mut self) {
        self.busy = false;
    }

    /// Whether a try is on its way.
    pub fn busy(&self) -> bool {
        self.busy
    }

    /// Draws the screen.
    pub fn ui(&mut self, ui: &mut Ui) -> Vec<Action> {
        let lang = lang(ui);
        let mut actions = Vec::new();
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    let width = ui.available_width().min(440.0);
                    ui.set_max_width(width);
                    ui.add_space((ui.available_height() * 0.08).clamp(8.0, 60.0));
                    ui.heading(lang.pick(
                        "Play with your account, or as a guest",
                        "Juega con tu cuenta, o como invitado",
                    ));
                    ui.add_space(12.0);
                    self.entry_choice(ui, lang);
                    ui.add_space(8.0);
                    actions.extend(self.form(ui, lang, width));
                    ui.add_space(16.0);
                    ui.separator();
                    ui.add_space(8.0);
                    ui.label(lang.pick(
                        "With an account your games follow you: sign in on another computer \
                         or in a browser and go on with them.",
                        "Con una cuenta tus partidas te siguen: entra desde otro ordenador o \
                         en un navegador y sigue con ellas.",
                    ));
                    ui.add_space(8.0);
                    if ui
                        .button(lang.pick("Play as a guest", "Jugar como invitado"))
                        .clicked()
                    {
                        actions.push(Action::PlayAsGuest);
                    }
                    ui.label(
                        RichText::new(lang.pick(
                            "A guest picks a name for each game; the games stay on this device.",
                            "Un invitado elige un nombre en cada partida; las partidas se quedan \
                             en este dispositivo.",
                        ))
                        .weak(),
                    );
                });
            });
        });
        actions
    }

    /// Signing in, or making an account.
    fn entry_choice(&mut self, ui: &mut Ui, lang: Lang) {
        ui.horizontal(|ui| {
            // Centred: the two choices take their own width in the middle of the column.
            let choices = [
                (
                    Entry::SignIn,
                    lang.pick("I have an account", "Ya tengo una cuenta"),
                ),
                (
                    Entry::Register,
                    lang.pick("Create a new account", "Crear una cuenta nueva"),
                ),
            ];
            let spacing = ui.spacing().item_spacing.x;
            let padding = 2.0 * ui.spacing().button_padding.x;
            let wide: f32 = choices
                .iter()
                .map(|(_, text)| captions_width(ui, [*text]) + padding)
                .sum::<f32>()
                + spacing;
            ui.add_space(((ui.available_width() - wide) / 2.0).max(0.0));
            for (entry, text) in choices {
                let chosen = ui.selectable_label(self.entry == entry, text);
                if chosen.clicked() && self.entry != entry {
                    self.entry = entry;
                    self.trouble = None;
                }
            }
        });
    }

    /// The fields, the button and what the last try came to.
    fn form(&mut self, ui: &mut Ui, lang: Lang, width: f32) -> Option<Action> {
        let register = self.entry == Entry::Register;
        let mut enter = false;
        let captions = [
            lang.pick("Name", "Nombre"),
            lang.pick("Password", "Contraseña"),
            lang.pick("Password again", "Repite la contraseña"),
        ];
        let caption_width = captions_width(ui, captions);
        let field_width = (width - caption_width - 3.0 * ui.spacing().item_spacing.x).max(120.0);
        let grid = egui::Grid::new("sign in")
            .num_columns(2)
            .min_col_width(caption_width);
        // The grid sits at the left of the centred column: its rows line up.
        ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
            grid.show(ui, |ui| {
                let row = |ui: &mut Ui, caption: &str, edit: egui::TextEdit<'_>| {
                    let label = ui.label(caption);
                    let edit = ui
                        .add(edit.desired_width(field_width))
                        .labelled_by(label.id);
                    ui.end_row();
                    edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))
                };
                let name = egui::TextEdit::singleline(&mut self.name).char_limit(64);
                enter |= row(ui, captions[0], name);
                let password = egui::TextEdit::singleline(&mut self.password.0).password(true);
                enter |= row(ui, captions[1], password);
                if register {
                    let repeat = egui::TextEdit::singleline(&mut self.repeat.0).password(true);
                    enter |= row(ui, captions[2], repeat);
                }
            });
        });
        if register {
            ui.label(
                RichText::new(lang.pick(
                    "A name of up to 32 characters, yours alone; a password of 8 characters \
                     or more.",
                    "Un nombre de hasta 32 caracteres, solo tuyo; una contraseña de 8 \
                     caracteres o más.",
                ))
                .small(),
            );
        }
        ui.add_space(6.0);
        let waiting = self.waiting(ui);
        let ready = !self.busy
            && waiting.is_none()
            && !self.name.trim().is_empty()
            && !self.password.0.is_empty()
            && (!register || !self.repeat.0.is_empty());
        let text = if register {
            lang.pick("Create account", "Crear la cuenta")
        } else {
            lang.pick("Sign in", "Entrar")
        };
        let clicked = ui.add_enabled(ready, egui::Button::new(text)).clicked();
        if self.busy {
            ui.label(lang.pick("Asking the server…", "Preguntando al servidor…"));
        }
        if let Some(words) = waiting.or_else(|| self.trouble_words(lang)) {
            ui.label(RichText::new(words).color(palette::seat(0)));
        }
        if !(clicked || enter && ready) {
            return None;
        }
        if register && self.password != self.repeat {
            self.trouble = Some(Trouble::Mismatch);
            return None;
        }
        self.busy = true;
        self.trouble = None;
        Some(Action::Send(Request::SignIn {
            entry: self.entry,
            name: self.name.trim().to_owned(),
            password: std::mem::take(&mut self.password),
        }))
    }

    /// While a wait after too many failed tries runs, what it says (the seconds left),
    /// waking the window when they change; none once it is over.
    fn waiting(&mut self, ui: &Ui) -> Option<String> {
        let Some(Trouble::Wait(until)) = self.trouble else {
            return None;
        };
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            self.trouble = None;
            return None;
        }
        let to_next_second = left - std::time::Duration::from_secs(left.as_secs());
        ui.ctx().request_repaint_after(to_next_second);
        Some(failure::wait_words(lang(ui), left))
    }

    /// What the last try came to, or why the screen asks again.
    fn trouble_words(&self, lang: Lang) -> Option<String> {
        let name = &self.name;
        Some(match self.trouble.as_ref()? {
            Trouble::Refused(failure) => failure.words(lang),
            Trouble::Wait(_) => return None,
            Trouble::Mismatch => lang
                .pick(
                    "the two passwords differ: type the same one twice",
                    "las dos contraseñas no coinciden: escribe la misma dos veces",
                )
                .to_owned(),
            Trouble::Ended(why) => {
                let why = why.session_words(lang);
                tr!(
                    lang,
                    "Your session as {name} has ended ({why}): sign in again, or play as a guest.",
                    "Tu sesión como {name} ha terminado ({why}): vuelve a entrar, o juega como \
                     invitado."
                )
            }
        })
    }
}
