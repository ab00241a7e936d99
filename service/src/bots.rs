//! Bots: the server playing a seat itself. A bot chooses only among its own seat's legal
//! actions, which depend only on what that seat may know, so it cannot cheat.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::{Action, Setup};

use crate::state::SeatView;

/// What a bot decided to do.
#[derive(Clone, Debug)]
pub enum Decision {
    /// Submit this setup.
    Setup(Setup),
    /// Play this action.
    Act(Action),
    /// Nothing to do (not the bot's turn).
    Nothing,
}

/// What a bot of `level` does, seeing only `view`, within `budget` of thinking, with its
/// randomness from `seed`.
pub fn decide(level: BotLevel, view: &SeatView, _budget: Duration, seed: u64) -> Decision {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if view.awaits_setup {
        return match view.description.setup_zone(view.seat) {
            Some(zone) => Decision::Setup(Setup::random(zone, rng.next_u64())),
            None => Decision::Nothing,
        };
    }
    match level {
        BotLevel::Random => match view.legal.len() {
            0 => Decision::Nothing,
            n => Decision::Act(view.legal[rng.random_range(0..n)].action.clone()),
        },
    }
}

/// How a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotLevel {
    /// A uniformly random legal action.
    Random,
}

impl BotLevel {
    /// Every level, for messages.
    pub const ALL: [BotLevel; 1] = [BotLevel::Random];

    /// The level's name in requests.
    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BotLevel {
    type Err = ();

    fn from_str(text: &str) -> Result<BotLevel, ()> {
        BotLevel::ALL
            .into_iter()
            .find(|level| level.name() == text)
            .ok_or(())
    }
}
