//! What the prompt shows and completes: its text with the running clock or limit, when
//! that text next changes, the words Tab completes, and the low-time warning.

use std::time::Duration;

use trinchera_client::clock::clock_face;
use trinchera_client::{Lang, clock};
use trinchera_proto::v1 as pb;

use super::{Ask, Session};
use crate::commands::CONFIRM_CHOICES;

/// The commands of the move prompt (see [`MOVE_HELP`]), for Tab.
const MOVE_COMMANDS: [&str; 7] = ["moves", "board", "resign", "quit", "help", "show", "exit"];

/// The answers of the setup prompt, for Tab.
const SETUP_WORDS: [&str; 5] = ["random", "file ", "template", "template ", "quit"];

impl Session<'_> {
    /// What Tab completes while the prompt asks for `ask`.
    pub(super) fn words(&self, ask: Ask) -> Vec<String> {
        let words: Vec<&str> = match ask {
            Ask::Setup => SETUP_WORDS.to_vec(),
            Ask::Move => {
                return self
                    .view
                    .legal_moves
                    .iter()
                    .map(|m| m.notation.clone())
                    .chain(MOVE_COMMANDS.map(String::from))
                    .collect();
            }
            Ask::Confirm => vec!["yes", "no"],
            Ask::Wait(_) => MOVE_COMMANDS.to_vec(),
        };
        words.into_iter().map(String::from).collect()
    }

    /// The prompt's text; on a terminal with the running clock or limit.
    pub(super) fn prompt(&self, ask: Ask, live: bool) -> String {
        let clock = live
            .then(|| self.clock_note())
            .flatten()
            .map(|note| format!(" [{note}]"))
            .unwrap_or_default();
        match ask {
            Ask::Setup => format!("Set up{clock}: "),
            Ask::Move => format!("Your move{clock}: "),
            Ask::Confirm => format!("Really resign? {CONFIRM_CHOICES}: "),
            Ask::Wait(_) => format!("(waiting{clock}) > "),
        }
    }

    /// The clock that runs now, as the prompt shows it: the player's own time, the
    /// opponent's with its name, or the setup or first-move limit.
    pub(super) fn clock_note(&self) -> Option<String> {
        let clock = self.view.clock.as_ref()?;
        let elapsed = self.elapsed_ms();
        if let Some(seat) = clock::ticking(clock) {
            let left = clock::time_left(clock, elapsed);
            let face = clock_face(left.get(usize::try_from(seat).ok()?).copied()?);
            return Some(if seat == self.seat {
                face
            } else {
                format!("{} {face}", self.names().seat(seat))
            });
        }
        let (lapse, left) = clock::deadline(clock, elapsed)?;
        let face = clock_face(left);
        Some(match lapse {
            pb::Lapse::RandomSetup => format!("setups due in {face}"),
            _ => format!("first move due in {face}"),
        })
    }

    /// When the prompt's clock next changes its face (or the player's own clock matters
    /// for the low-time warning); `None` when nothing runs.
    pub(super) fn tick(&self) -> Option<Duration> {
        let clock = self.view.clock.as_ref()?;
        let elapsed = self.elapsed_ms();
        let live = self.console.live();
        let left = match clock::ticking(clock) {
            Some(seat) if live || seat == self.seat => {
                let left = clock::time_left(clock, elapsed);
                left.get(usize::try_from(seat).ok()?).copied()?
            }
            Some(_) => return None,
            None if live => clock::deadline(clock, elapsed)?.1,
            None => return None,
        };
        if left == 0 {
            // At zero the server decides; its event ends the wait.
            return None;
        }
        // The face shows whole steps: it changes once `left` drops below the current one.
        Some(Duration::from_millis(left % clock::refresh_ms(left) + 1))
    }

    /// Warns once a turn when the player's own time runs low.
    pub(super) fn warn_low(&mut self) {
        let Some(clock) = &self.view.clock else {
            return;
        };
        if clock::ticking(clock) != Some(self.seat) {
            self.warned = false;
            return;
        }
        let left = clock::time_left(clock, self.elapsed_ms());
        if !self.warned && clock::is_low(clock, &left, self.seat) {
            self.warned = true;
            let face = left
                .get(usize::try_from(self.seat).unwrap_or_default())
                .map(|&ms| clock_face(ms))
                .unwrap_or_default();
            let text = format!("{} {face} left.", clock::low_warning(Lang::En));
            self.say(&text);
        }
    }
}
