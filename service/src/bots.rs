//! Bots: the server playing a seat itself. A bot chooses only among its own seat's legal
//! actions, which depend only on what that seat may know, so it cannot cheat.

use std::fmt;
use std::str::FromStr;

use trinchera_rules::LegalAction;

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

    /// The bot's choice among `legal` (never empty when the bot is to move).
    pub fn choose(self, legal: &[LegalAction]) -> Result<Option<&LegalAction>, getrandom::Error> {
        if legal.is_empty() {
            return Ok(None);
        }
        match self {
            BotLevel::Random => {
                let index = getrandom::u64()? % legal.len() as u64;
                Ok(legal.get(index as usize))
            }
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
