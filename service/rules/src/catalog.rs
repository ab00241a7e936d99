//! Every ruleset Trinchera hosts, by id: the only list a new ruleset is added to.

use crate::army::{Army, Castillos, Clasico, Frente};
use crate::asalto::{Asalto, Siege, Tacticas};
use crate::describe::Description;
use crate::error::PositionError;
use crate::game::{Game, Match};
use crate::rules::{PositionText, Rules, Seed};
use crate::tanques::Tanques;

/// Counts `perft` to a depth from a position text.
pub type PerftFn = fn(&str, u32) -> Result<u64, PositionError>;

/// One hosted ruleset: its description and how to start a game or read a position.
#[derive(Clone, Copy)]
pub struct Ruleset {
    /// The ruleset's static description.
    pub description: fn() -> &'static Description,
    /// A new game, in its setup phase (or playing, if no seat sets up).
    pub new_game: fn(Seed) -> Box<dyn Game>,
    /// `perft` from a position text, for rulesets that have position text.
    pub perft: Option<PerftFn>,
}

impl std::fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Ruleset")
            .field(&(self.description)().id)
            .finish()
    }
}

const fn entry<R: PositionText>() -> Ruleset {
    Ruleset {
        description: R::description,
        new_game: |seed| Box::new(Match::<R>::new(seed)),
        perft: Some(|text, depth| Ok(R::from_position_text(text)?.perft(depth))),
    }
}

const fn entry_without_position_text<R: Rules>() -> Ruleset {
    Ruleset {
        description: R::description,
        new_game: |seed| Box::new(Match::<R>::new(seed)),
        perft: None,
    }
}

/// Every ruleset, in the order clients list them.
pub static RULESETS: &[Ruleset] = &[
    entry::<Army<Frente>>(),
    entry::<Army<Clasico>>(),
    entry::<Army<Castillos>>(),
    entry::<Siege<Asalto>>(),
    entry::<Siege<Tacticas>>(),
    entry_without_position_text::<Tanques>(),
];

/// The ruleset with id `id`.
pub fn ruleset(id: &str) -> Option<&'static Ruleset> {
    RULESETS
        .iter()
        .find(|ruleset| (ruleset.description)().id == id)
}

/// The ids of every ruleset, for messages such as "unknown ruleset".
pub fn ids() -> Vec<&'static str> {
    RULESETS
        .iter()
        .map(|ruleset| (ruleset.description)().id)
        .collect()
}
