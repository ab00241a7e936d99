//! Replays: a log read back one entry at a time ([`Replay`]), the steps of a replay as one
//! viewer may see them ([`ReplaySteps`]), a whole history with a page of positions
//! ([`GameState::history`]), and the fairness reveal after the end.

use trinchera_rules::{Placement, Seat, Seed, Sight, Viewer};
use trinchera_store::GamePhase;

use super::{Act, Creation, GameEvent, GameState, Moment, Snapshot};
use trinchera_store::GameId;
use trinchera_store::records::EventRecord;

/// A log that cannot be replayed: corrupt or written by an incompatible build.
#[derive(Debug, thiserror::Error)]
#[error("game {game}: log entry {version} cannot be replayed: {problem}")]
pub struct ReplayError {
    /// The game.
    pub game: GameId,
    /// The offending entry.
    pub version: u64,
    /// What went wrong.
    pub problem: String,
}

/// Everything a finished game reveals for the fairness check: each seat's committed setup
/// and the seed of the dice.
#[derive(Clone, Debug)]
pub struct Reveal {
    /// Each submitted setup, by seat.
    pub setups: Vec<SetupReveal>,
    /// The secret seed of the game's chance.
    pub seed: Seed,
}

/// One seat's revealed setup.
#[derive(Clone, Debug)]
pub struct SetupReveal {
    /// The seat.
    pub seat: Seat,
    /// The commitment's salt.
    pub salt: [u8; 16],
    /// The canonical setup text that was committed to.
    pub canonical: String,
    /// The commitment shown during play.
    pub commitment: String,
    /// The setup's placements.
    pub placements: Vec<Placement>,
}

/// A game's history as one viewer may read it.
#[derive(Clone, Debug)]
pub struct History {
    /// Every event, oldest first (events hold only public facts).
    pub events: Vec<GameEvent>,
    /// The fairness reveal, once the game is over.
    pub reveal: Option<Reveal>,
    /// What the viewer sees now.
    pub now: Snapshot,
    /// When asked for: a page of positions, the game after each event from the page's
    /// start (see [`GameState::history`]).
    pub positions: Vec<Snapshot>,
    /// Where the next page of positions starts, when more follow.
    pub next_positions_after: Option<u64>,
}

/// A page of positions of a history: those after event `after + 1`, at most `limit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionPage {
    /// The version after which the page starts.
    pub after: u64,
    /// Positions at most.
    pub limit: usize,
}

/// What a replay shows `viewer`: its own sight while the game runs, everything after.
fn sight(viewer: Viewer, over: bool) -> Sight {
    if over {
        Sight::Everything
    } else {
        Sight::Of(viewer)
    }
}

impl GameState {
    /// Rebuilds game `id` from its log and returns its history as `viewer` may read it;
    /// with `page`, also one page of positions (see [`ReplaySteps`]). `over`: the game is
    /// over, so the reveal is public.
    pub fn history(
        id: GameId,
        log: &[EventRecord],
        viewer: Viewer,
        page: Option<PositionPage>,
        over: bool,
    ) -> Result<History, ReplayError> {
        let mut events = Vec::with_capacity(log.len());
        let mut positions = Vec::new();
        let mut next_positions_after = None;
        let sight = sight(viewer, over);
        let state = GameState::replay(id, log, |state, event| {
            events.push(event.clone());
            let Some(page) = page else { return };
            if event.version <= page.after {
                return;
            }
            if positions.len() < page.limit {
                positions.push(state.snapshot_past(viewer, sight));
            } else if next_positions_after.is_none() {
                next_positions_after = Some(event.version - 1);
            }
        })?;
        Ok(History {
            events,
            reveal: state.reveal(),
            now: state.snapshot(viewer),
            positions,
            next_positions_after,
        })
    }

    /// The fairness reveal, once the game is over (`None` before: setups stay secret).
    pub fn reveal(&self) -> Option<Reveal> {
        if self.phase() != GamePhase::Finished {
            return None;
        }
        let description = self.description();
        let setups = self
            .secrets
            .setups
            .iter()
            .filter_map(|(seat, committed)| {
                let committed = committed.as_ref()?;
                Some(SetupReveal {
                    seat,
                    salt: committed.salt,
                    canonical: committed.canonical.clone(),
                    commitment: committed.commitment(),
                    placements: self.game.setup(seat)?.placements(description),
                })
            })
            .collect();
        Some(Reveal {
            setups,
            seed: self.secrets.seed,
        })
    }
}

/// A game's log replayed one entry at a time: the game after each event, as it was then.
/// Holds one game state, whatever the length of the log, so a long replay costs memory only
/// for what its reader keeps.
#[derive(Debug)]
pub struct Replay<L> {
    id: GameId,
    log: L,
    /// Entries applied so far.
    applied: usize,
    state: Option<GameState>,
    /// A replay that failed stops there.
    failed: bool,
}

impl<L: AsRef<[EventRecord]>> Replay<L> {
    /// A replay of game `id`'s `log`, before its first entry.
    pub fn new(id: GameId, log: L) -> Replay<L> {
        Replay {
            id,
            log,
            applied: 0,
            state: None,
            failed: false,
        }
    }

    /// Applies the next entry: its event and the game after it; `None` after the last (or
    /// after a failure).
    pub fn step(&mut self) -> Option<Result<(&GameState, GameEvent), ReplayError>> {
        if self.failed {
            return None;
        }
        let record = self.log.as_ref().get(self.applied)?;
        let applied = match &mut self.state {
            None => create(self.id, record).map(|(state, event)| {
                self.state = Some(state);
                event
            }),
            Some(state) => apply(state, record),
        };
        self.applied += 1;
        match applied {
            Ok(event) => self.state.as_ref().map(|state| Ok((state, event))),
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }

    /// The game after the whole log.
    pub fn into_state(mut self) -> Result<GameState, ReplayError> {
        while let Some(step) = self.step() {
            step?;
        }
        self.state.ok_or(ReplayError {
            game: self.id,
            version: 1,
            problem: "the log is empty".into(),
        })
    }
}

impl GameState {
    /// Applies `record`, the next entry of this game's log written by another server, as
    /// it was applied when it was written; its event.
    pub fn follow(&mut self, record: &EventRecord) -> Result<GameEvent, ReplayError> {
        apply(self, record)
    }
}

/// The game the first log entry of game `id`, `record`, creates.
fn create(id: GameId, record: &EventRecord) -> Result<(GameState, GameEvent), ReplayError> {
    let creation = Creation::from_record(id, record)?;
    let (state, change) =
        GameState::create(id, creation, Moment::of(record)).map_err(|e| ReplayError {
            game: id,
            version: 1,
            problem: e.to_string(),
        })?;
    Ok((state, change.event))
}

/// Applies the next log entry of `state`, as it was applied when it was written.
fn apply(state: &mut GameState, record: &EventRecord) -> Result<GameEvent, ReplayError> {
    let act = Act::from_record(state, record)?;
    let version = state.version() + 1;
    state
        .apply(act, Moment::of(record))
        .map(|change| change.event)
        .map_err(|e| ReplayError {
            game: state.id(),
            version,
            problem: e.to_string(),
        })
}

/// The steps of a replay as one viewer may see them: each event after a version, with the
/// game after it as the viewer saw it then (everything revealed, once the game is over).
#[derive(Debug)]
pub struct ReplaySteps<L> {
    replay: Replay<L>,
    viewer: Viewer,
    sight: Sight,
    after: u64,
}

impl<L: AsRef<[EventRecord]>> ReplaySteps<L> {
    /// The steps of game `id`'s `log` after version `after`, for `viewer`; `over`: the
    /// game is over, so positions show everything.
    pub fn new(id: GameId, log: L, viewer: Viewer, after: u64, over: bool) -> ReplaySteps<L> {
        ReplaySteps {
            replay: Replay::new(id, log),
            viewer,
            sight: sight(viewer, over),
            after,
        }
    }
}

impl<L: AsRef<[EventRecord]>> Iterator for ReplaySteps<L> {
    type Item = Result<(GameEvent, Snapshot), ReplayError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (state, event) = match self.replay.step()? {
                Ok(step) => step,
                Err(error) => return Some(Err(error)),
            };
            if event.version > self.after {
                return Some(Ok((event, state.snapshot_past(self.viewer, self.sight))));
            }
        }
    }
}
/// What a replay shows first.
#[derive(Debug)]
pub struct ReplayOpening {
    /// What the caller sees now.
    pub now: Snapshot,
    /// The fairness reveal, once the game is over.
    pub reveal: Option<Reveal>,
    /// How many steps follow.
    pub steps: u64,
}
