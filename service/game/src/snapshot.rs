//! What one viewer may see of a game at one version: a [`Snapshot`], the makings of a
//! `GameView`. The rules project the position for the viewer; the people come as the public
//! [`Table`] only.

use std::sync::Arc;
use trinchera_store::GamePhase;

use trinchera_rules::{Description, LegalAction, Outcome, Sight, View, Viewer};

use super::{GameEvent, GameState, Table};
use crate::clock::Clocks;
use trinchera_store::GameId;

/// Everything one viewer may see of a game at one version.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The game.
    pub id: GameId,
    /// Its version.
    pub version: u64,
    /// Its phase.
    pub phase: GamePhase,
    /// Who looks.
    pub viewer: Viewer,
    /// The ruleset.
    pub description: &'static Description,
    /// The rules' projection of the position for this viewer.
    pub projection: View,
    /// The viewer's legal actions, when it is their turn.
    pub legal: Vec<LegalAction>,
    /// Names, who joined, commitments and bots.
    pub table: Arc<Table>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
    /// The latest event.
    pub last_event: Option<GameEvent>,
    /// The clocks.
    pub clocks: Clocks,
    /// The instant this snapshot shows the clocks at (ms since the Unix epoch): the time of
    /// the latest event, or of the request.
    pub at_ms: u64,
}

impl Snapshot {
    /// The snapshot with its clocks shown at `now`.
    pub fn at(mut self, now: u64) -> Snapshot {
        self.at_ms = now;
        self
    }
}

impl GameState {
    /// What `viewer` sees now.
    pub fn snapshot(&self, viewer: Viewer) -> Snapshot {
        let projection = self.game.view(viewer);
        let legal = match (viewer.seat(), projection.to_move) {
            (Some(seat), Some(to_move))
                if seat == to_move && self.phase() == GamePhase::Playing =>
            {
                self.game.legal_actions()
            }
            _ => Vec::new(),
        };
        self.snapshot_with(viewer, projection, legal)
    }

    /// The game as `sight` reaches, for `viewer`'s replay: no legal actions.
    pub(super) fn snapshot_past(&self, viewer: Viewer, sight: Sight) -> Snapshot {
        self.snapshot_with(viewer, self.game.view_in(sight), Vec::new())
    }

    fn snapshot_with(&self, viewer: Viewer, projection: View, legal: Vec<LegalAction>) -> Snapshot {
        Snapshot {
            id: self.id,
            version: self.version,
            phase: self.phase(),
            viewer,
            description: self.description(),
            projection,
            legal,
            table: Arc::clone(&self.table),
            outcome: self.game.outcome(),
            last_event: self.last_event.clone(),
            clocks: self.clocks.clone(),
            at_ms: self.clocks.last_event(),
        }
    }
}
