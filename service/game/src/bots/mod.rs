//! Bots: the server playing a seat itself.
//!
//! Honest by construction: a [`Bot`] only ever receives a [`SeatKnowledge`], the projection its
//! own seat would get (the rules' [`View`] for that seat, the seat's legal actions and the
//! event number), never the game state; this module does not reach the game state at all
//! (the state builds the `SeatKnowledge`, see `GameState::seat_knowledge`). The search modules
//! rebuild playable positions from that view plus guesses for every hidden enemy piece
//! ([`Determinize`]), so they run on the rules engine itself.
//!
//! Decisions are reproducible: all chance comes from the bot's seed and the view's event
//! number; a node budget bounds the work, and an optional time budget cuts it short (then
//! the decision depends on the machine's speed).

mod army;
mod asalto;
#[cfg(test)]
mod beginner;
mod random;
mod search;
mod tanques;
#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::army::{Castillos, Clasico, Frente};
use trinchera_rules::asalto::{Asalto, Tacticas};
use trinchera_rules::{
    Action, Cell, Description, Determinize, KindId, LegalAction, Seat, Setup, SetupError, View,
    WorldError,
};

/// What one seat knows of its game at one version: the only input a bot gets.
#[derive(Clone, Debug)]
pub struct SeatKnowledge {
    /// The seat.
    pub seat: Seat,
    /// The game's version: with the bot's seed, it picks the decision's chance.
    pub version: u64,
    /// The ruleset.
    pub description: &'static Description,
    /// Whether the game waits for this seat's setup.
    pub awaits_setup: bool,
    /// The rules' projection for this seat.
    pub projection: View,
    /// The seat's legal actions (empty unless it is to move).
    pub legal: Vec<LegalAction>,
}

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

/// What a bot of `level` does, seeing only `view`, thinking at most `think` (and within its
/// level's node budget), with its chance drawn from `seed`.
pub fn decide(level: BotLevel, view: &SeatKnowledge, think: Duration, seed: u64) -> Decision {
    let mut bytes = [0; 32];
    ChaCha8Rng::seed_from_u64(seed).fill_bytes(&mut bytes);
    let default = level.default_budget();
    let budget = Budget {
        nodes: default.nodes,
        time: Some(default.time.map_or(think, |time| time.min(think))),
    };
    let mut bot = level.bot(view.description, view.seat, bytes, budget);
    if view.awaits_setup {
        return bot.setup().map_or(Decision::Nothing, Decision::Setup);
    }
    bot.choose(view).map_or(Decision::Nothing, Decision::Act)
}

/// A sensible setup of `seat` in a game of `description` around the pieces of `kept`,
/// which stay where they are: the setup the hard bots make (in the army games a flag at
/// the back with bombs on its every side as far as they go; in Asalto the officers on the
/// fortress's front points), different for every `seed`. Refused when `kept` does not fit
/// the seat's zone, or the seat places no pieces.
pub fn suggest_setup(
    description: &'static Description,
    seat: Seat,
    kept: &[(Cell, KindId)],
    seed: [u8; 32],
) -> Result<Setup, SetupError> {
    let mut rng = ChaCha8Rng::from_seed(seed);
    match description.id {
        "frente" => army::army_setup::<Frente>(seat, kept, &mut rng),
        "clasico" => army::army_setup::<Clasico>(seat, kept, &mut rng),
        "castillos" => army::army_setup::<Castillos>(seat, kept, &mut rng),
        "asalto" | "tacticas" => asalto::officers_setup(description, seat, kept, &mut rng),
        _ => Setup::complete(description, seat, kept, rng.random()),
    }
}

/// How a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotLevel {
    /// A uniformly random legal action.
    Random,
    /// Plausible and beatable: looks one move ahead, with some noise.
    Easy,
    /// The strongest within the think-time budget: search over guessed worlds.
    Hard,
}

impl BotLevel {
    /// Every level, for messages.
    pub const ALL: [BotLevel; 3] = [BotLevel::Random, BotLevel::Easy, BotLevel::Hard];

    /// The level's name in requests.
    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Easy => "easy",
            BotLevel::Hard => "hard",
        }
    }

    /// One line for players choosing an opponent.
    pub const fn description(self) -> &'static str {
        match self {
            BotLevel::Random => "plays a random legal move: for testing, not for fun",
            BotLevel::Easy => "a beginner's opponent: takes what it sees, looks one move ahead",
            BotLevel::Hard => "searches every move over the positions its view allows",
        }
    }

    /// The server's default think budget for the level.
    pub const fn default_budget(self) -> Budget {
        match self {
            BotLevel::Random => Budget {
                nodes: 0,
                time: None,
            },
            BotLevel::Easy => Budget {
                nodes: 20_000,
                time: Some(Duration::from_millis(20)),
            },
            BotLevel::Hard => Budget {
                nodes: 400_000,
                time: Some(Duration::from_millis(800)),
            },
        }
    }

    /// A bot of this level for `seat` of a game of `description`, drawing its chance from
    /// `seed`. Rulesets without a dedicated bot get the random one.
    pub fn bot(
        self,
        description: &'static Description,
        seat: Seat,
        seed: [u8; 32],
        budget: Budget,
    ) -> Box<dyn Bot> {
        let level = match self {
            BotLevel::Random => return Box::new(random::RandomBot::new(description, seat, seed)),
            BotLevel::Easy => Level::Easy,
            BotLevel::Hard => Level::Hard,
        };
        let config = Config {
            level,
            seat,
            seed,
            budget,
        };
        match description.id {
            "frente" => Box::new(army::ArmyBot::<Frente>::new(config)),
            "clasico" => Box::new(army::ArmyBot::<Clasico>::new(config)),
            "castillos" => Box::new(army::ArmyBot::<Castillos>::new(config)),
            "asalto" => Box::new(asalto::SiegeBot::<Asalto>::new(config)),
            "tacticas" => Box::new(asalto::SiegeBot::<Tacticas>::new(config)),
            "tanques" => Box::new(tanques::TanquesBot::new(config)),
            _ => Box::new(random::RandomBot::new(description, seat, seed)),
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

/// How much a bot may think per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Positions searched at most (the reproducible bound).
    pub nodes: u64,
    /// Wall-clock time at most, if bounded.
    pub time: Option<Duration>,
}

/// A computer player of one seat of one game.
pub trait Bot: Send {
    /// The seat's setup, if it places pieces before play.
    fn setup(&mut self) -> Option<Setup>;

    /// The action to play, one of `view.legal`; `None` when nothing is legal.
    fn choose(&mut self, view: &SeatKnowledge) -> Option<Action>;
}

/// The levels that think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Easy,
    Hard,
}

/// What every thinking bot is made with.
#[derive(Clone, Copy, Debug)]
struct Config {
    level: Level,
    seat: Seat,
    seed: [u8; 32],
    budget: Budget,
}

impl Config {
    /// The chance of the decision at event `version`.
    fn rng(&self, version: u64) -> ChaCha8Rng {
        decision_rng(&self.seed, version)
    }
}

/// The chance of a bot with `seed` for its decision at event `version` (the setup: 0).
fn decision_rng(seed: &[u8; 32], version: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::from_seed(*seed);
    rng.set_stream(version);
    rng
}

/// The listed actions of a view, in the rules' shape.
fn legal_actions(view: &SeatKnowledge) -> Vec<Action> {
    view.legal
        .iter()
        .map(|legal| legal.action.clone())
        .collect()
}

/// `choice` if it is listed, otherwise the first listed action: a search never plays what
/// the rules did not offer. An attack may declare its own advance and casualty (tanques):
/// the list names each attack once, with the defaults.
fn listed(view: &SeatKnowledge, choice: Option<Action>) -> Option<Action> {
    let offered = |action: &Action| {
        view.legal
            .iter()
            .any(|legal| match (&legal.action, action) {
                (
                    Action::Attack {
                        target, attackers, ..
                    },
                    Action::Attack {
                        target: chosen,
                        attackers: by,
                        advance,
                        casualty,
                    },
                ) => {
                    target == chosen
                        && attackers == by
                        && [advance, casualty]
                            .into_iter()
                            .flatten()
                            .all(|cell| by.contains(cell))
                }
                (listed, action) => listed == action,
            })
    };
    match choice {
        Some(action) if offered(&action) => Some(action),
        _ => view.legal.first().map(|legal| legal.action.clone()),
    }
}

/// The position `view` shows, for rulesets with nothing hidden but chance.
fn world<R: Determinize>(view: &SeatKnowledge, seed: [u8; 32]) -> Result<R, WorldError> {
    R::from_view(
        &view.projection,
        &legal_actions(view),
        trinchera_rules::Seed(seed),
    )
}
