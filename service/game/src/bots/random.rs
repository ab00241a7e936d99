//! The random level: any legal action, uniformly, from the bot's seed.

use rand::RngExt;
use trinchera_rules::{Action, Description, Seat, Setup};

use super::{Bot, SeatKnowledge, decision_rng};

/// Plays a uniformly random legal action and sets up at random.
pub(super) struct RandomBot {
    description: &'static Description,
    seat: Seat,
    seed: [u8; 32],
}

impl RandomBot {
    pub(super) fn new(description: &'static Description, seat: Seat, seed: [u8; 32]) -> Self {
        RandomBot {
            description,
            seat,
            seed,
        }
    }
}

impl Bot for RandomBot {
    fn setup(&mut self) -> Option<Setup> {
        let zone = self.description.setup_zone(self.seat)?;
        Some(Setup::random(zone, decision_rng(&self.seed, 0).random()))
    }

    fn choose(&mut self, view: &SeatKnowledge) -> Option<Action> {
        if view.legal.is_empty() {
            return None;
        }
        let index = decision_rng(&self.seed, view.version).random_range(0..view.legal.len());
        Some(view.legal[index].action.clone())
    }
}
