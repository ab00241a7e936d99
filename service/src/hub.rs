//! The broadcast of one game's events to its watchers.
//!
//! Each loaded game has a [`Hub`]. Its channels are made by their first watcher, so a
//! game that nobody watches (most of them, and every lookup of a game that turns out not
//! to exist) costs no channel buffer.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::broadcast;
use trinchera_rules::{BySeat, Seat, Viewer};

use trinchera_game::{EventKind, GameEvent, GameState, Snapshot};

/// The live buffer's length at most: a watcher further behind gets a fresh snapshot. Its
/// slots exist for as long as the game is watched, so it is kept short (resumption with
/// `after_version` reads the store and is not bound by it).
const MAX_LIVE_BUFFER: usize = 32;

/// An event with the game right after it, as sent to watchers: each watcher gets the
/// event and its own snapshot of the game, never the game itself.
///
/// The game after the event is kept only until every watcher the event was sent to has
/// taken its snapshot (or passed the event by): a message waiting in the broadcast
/// buffer for a slow watcher keeps its state, one that everybody read keeps only its event.
#[derive(Debug)]
pub(crate) struct Published {
    /// The event.
    pub event: GameEvent,
    /// Watchers the event was sent to that have not taken their snapshot yet.
    unread: AtomicUsize,
    /// The game after the event, until nobody needs it.
    after: Mutex<Option<After>>,
}

/// What the watchers of one event make their snapshots from.
#[derive(Debug)]
struct After {
    state: GameState,
    /// What spectators see: made for the first spectator that asks, shared by the others.
    spectators: Option<Arc<Snapshot>>,
}

impl Published {
    fn after(&self) -> MutexGuard<'_, Option<After>> {
        self.after.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What `viewer` sees after the event. Each receiver of the event calls this or
    /// [`Published::pass`] once; `None` only if the event was already read by as many
    /// receivers as it was sent to (then the caller takes a fresh snapshot).
    pub(crate) fn snapshot(&self, viewer: Viewer) -> Option<Arc<Snapshot>> {
        let mut after = self.after();
        let taken = after.as_mut().map(|after| match viewer {
            Viewer::Spectator => Arc::clone(
                after
                    .spectators
                    .get_or_insert_with(|| Arc::new(after.state.snapshot(viewer))),
            ),
            Viewer::Player(_) => Arc::new(after.state.snapshot(viewer)),
        });
        self.read(&mut after);
        taken
    }

    /// A receiver that does not need the event (it has seen its version already).
    pub(crate) fn pass(&self) {
        self.read(&mut self.after());
    }

    /// One receiver is done with the event: the last one frees the game after it.
    fn read(&self, after: &mut Option<After>) {
        if self.unread.fetch_sub(1, Ordering::AcqRel) <= 1 {
            *after = None;
        }
    }

    /// The game's version after the event.
    pub(crate) fn version(&self) -> u64 {
        self.event.version
    }
}

type Sender = broadcast::Sender<Arc<Published>>;

/// One game's watchers.
#[derive(Debug)]
pub(crate) struct Hub {
    /// Messages a watcher may fall behind before it gets a fresh snapshot.
    capacity: usize,
    channels: Mutex<Channels>,
}

/// The live channels of one game, each made by its first watcher and dropped with its last.
#[derive(Debug, Default)]
struct Channels {
    /// For the watchers that are sent every event.
    every: Option<Sender>,
    /// For each seat, its watchers that leave out the seat's own moves ([`left_out`]): those
    /// are not sent to them at all, so that such a watcher is not even woken for them.
    skipping: BySeat<Option<Sender>>,
}

impl Channels {
    /// Each channel with the seat whose own moves it leaves out, if any.
    fn each(&mut self) -> impl Iterator<Item = (Option<Seat>, &mut Option<Sender>)> {
        let [first, second] = &mut self.skipping.0;
        std::iter::once((None, &mut self.every))
            .chain([(Some(Seat::First), first), (Some(Seat::Second), second)])
    }
}

impl Hub {
    /// A hub whose watchers may fall `capacity` events behind (at most
    /// [`MAX_LIVE_BUFFER`]).
    pub(crate) fn new(capacity: usize) -> Hub {
        Hub {
            capacity: capacity.clamp(1, MAX_LIVE_BUFFER),
            channels: Mutex::new(Channels::default()),
        }
    }

    fn channels(&self) -> MutexGuard<'_, Channels> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new watcher's receiver of every later event, but the own moves of `skipped` (if
    /// any) that [`left_out`] leaves out.
    ///
    /// A skipping channel has half the slots: it carries about half the game's events (in
    /// the games of two alternating seats), so its watchers may fall as far behind in the
    /// game as the others before they get a fresh snapshot, for half the memory.
    pub(crate) fn subscribe(&self, skipped: Option<Seat>) -> broadcast::Receiver<Arc<Published>> {
        let mut channels = self.channels();
        let (channel, capacity) = match skipped {
            None => (&mut channels.every, self.capacity),
            Some(seat) => (&mut channels.skipping[seat], self.capacity.div_ceil(2)),
        };
        channel
            .get_or_insert_with(|| broadcast::Sender::new(capacity))
            .subscribe()
    }

    /// Watchers now.
    pub(crate) fn watchers(&self) -> usize {
        self.channels()
            .each()
            .filter_map(|(_, channel)| channel.as_ref())
            .map(broadcast::Sender::receiver_count)
            .sum()
    }

    /// Sends `event` and the game after it, `state`, to every watcher that is sent it, if
    /// there is any.
    pub(crate) fn publish(&self, event: GameEvent, state: &GameState) {
        let to_move = state.game().to_move();
        let mut channels = self.channels();
        let mut reached = Vec::new();
        for (skipped, channel) in channels.each() {
            match channel {
                // The last watcher left: free the buffer until somebody watches again.
                Some(sender) if sender.receiver_count() == 0 => *channel = None,
                Some(sender) if !left_out(skipped, &event, to_move) => reached.push(sender),
                _ => {}
            }
        }
        // Subscriptions wait for the lock: the count is the receivers the event reaches.
        let unread = reached.iter().map(|sender| sender.receiver_count()).sum();
        if unread == 0 {
            return;
        }
        let published = Arc::new(Published {
            event,
            unread: AtomicUsize::new(unread),
            after: Mutex::new(Some(After {
                state: state.clone(),
                spectators: None,
            })),
        });
        for sender in reached {
            let _ = sender.send(Arc::clone(&published));
        }
    }
}

/// Whether a stream that leaves out the own moves of `skipped` (if any) leaves out
/// `event`, after which `to_move` acts (`None` once the game is over): a move of that seat
/// after which the game goes on with the other seat to act.
pub(crate) fn left_out(skipped: Option<Seat>, event: &GameEvent, to_move: Option<Seat>) -> bool {
    skipped.is_some_and(|seat| {
        event.seat == seat
            && matches!(event.kind, EventKind::Move { .. })
            && to_move.is_some_and(|next| next != seat)
    })
}

#[cfg(test)]
mod tests {
    use trinchera_rules::{Action, Cell, EndReason, Outcome, Played, Seed, Setup};

    use super::*;
    use trinchera_game::clock::TimeControl;
    use trinchera_game::{Act, Creation, Moment, Occupant};
    use trinchera_store::{GameId, TokenHash};

    const MOMENT: Moment = Moment {
        at_ms: 1,
        spent_ms: 0,
    };

    /// A new game of `ruleset` and the event that made it.
    fn created(ruleset: &str) -> (GameState, GameEvent) {
        let creation = Creation {
            ruleset: ruleset.into(),
            name: "hub".into(),
            creator: Occupant::guest(Seat::First, "Ana", TokenHash::of("ana")),
            seed: Seed([7; 32]),
            control: TimeControl::Untimed,
        };
        let (state, change) = GameState::create(GameId(1), creation, MOMENT).expect("created");
        (state, change.event)
    }

    /// `act` applied to `state`: its event.
    fn apply(state: &mut GameState, act: Act) -> GameEvent {
        state.apply(act, MOMENT).expect("applied").event
    }

    /// The first legal move of the seat to move.
    fn first_move(state: &GameState) -> Act {
        let seat = state.game().to_move().expect("a seat to move");
        let legal = state.game().legal_actions();
        Act::Move {
            seat,
            action: legal[0].action.clone(),
        }
    }

    #[test]
    fn the_game_after_an_event_is_freed_once_every_receiver_read_it() {
        let (state, event) = created("frente");
        let hub = Hub::new(8);
        let (mut player, mut spectator, mut skipping) = (
            hub.subscribe(None),
            hub.subscribe(None),
            hub.subscribe(Some(Seat::First)),
        );
        hub.publish(event, &state);
        let (first, second, third) = (
            player.try_recv().expect("sent"),
            spectator.try_recv().expect("sent"),
            skipping.try_recv().expect("sent"),
        );
        assert!(first.after().is_some());
        let seen = first
            .snapshot(Viewer::Player(Seat::First))
            .expect("the player's view");
        assert_eq!(seen.version, state.version());
        let shared = second
            .snapshot(Viewer::Spectator)
            .expect("the spectators' view");
        assert!(third.after().is_some(), "one receiver has not read it yet");
        third.pass();
        assert!(
            third.after().is_none(),
            "read by all: only the event is kept"
        );
        assert_eq!(shared.version, state.version());
        // A receiver beyond those counted finds nothing and takes a fresh snapshot instead.
        assert!(third.snapshot(Viewer::Spectator).is_none());
    }

    #[test]
    fn nothing_is_kept_for_a_game_nobody_watches_and_the_live_buffer_is_short() {
        let (state, event) = created("frente");
        let hub = Hub::new(256);
        assert_eq!(hub.capacity, MAX_LIVE_BUFFER);
        hub.publish(event.clone(), &state);
        let unused = |hub: &Hub| hub.channels().each().all(|(_, channel)| channel.is_none());
        assert!(unused(&hub), "no channel without a watcher");
        let watchers = [hub.subscribe(None), hub.subscribe(Some(Seat::Second))];
        assert_eq!(hub.watchers(), 2);
        drop(watchers);
        hub.publish(event, &state);
        assert!(
            unused(&hub),
            "the last watchers gone, the buffers are freed"
        );
    }

    #[test]
    fn a_watcher_skipping_its_own_moves_is_not_sent_those_handing_the_turn_over() {
        let (mut state, _) = created("asalto");
        let joined = apply(
            &mut state,
            Act::Join(Occupant::guest(Seat::Second, "Bea", TokenHash::of("bea"))),
        );
        for seat in Seat::BOTH {
            if let Some(zone) = state.description().setup_zone(seat) {
                let setup = Setup::random(zone, 5);
                apply(
                    &mut state,
                    Act::Setup {
                        setup,
                        salt: [0; 16],
                    },
                );
            }
        }
        let hub = Hub::new(8);
        let mut every = hub.subscribe(None);
        let mut skipping = BySeat::new_with(|seat| hub.subscribe(Some(seat)));
        hub.publish(joined, &state);
        let mover = state.game().to_move().expect("playing after the join");
        let act = first_move(&state);
        let moved = apply(&mut state, act);
        assert_eq!(state.game().to_move(), Some(!mover), "the turn passed");
        hub.publish(moved, &state);
        // Everybody gets the join; the move reaches all but the mover's skipping watcher.
        let [first, second] = &mut skipping.0;
        for receiver in [&mut every, first, second] {
            let first = receiver.try_recv().expect("the join");
            assert_eq!(first.version(), 2);
            first.pass();
        }
        let sent = [every.try_recv(), skipping[!mover].try_recv()];
        assert!(skipping[mover].try_recv().is_err(), "not sent to the mover");
        let [a, b] = sent.map(|received| received.expect("the move"));
        assert!(Arc::ptr_eq(&a, &b), "one message for both channels");
        a.pass();
        assert!(
            b.after().is_some(),
            "counted for the receivers it reached only"
        );
        b.pass();
        assert!(b.after().is_none());
    }

    fn event(seat: Seat, kind: EventKind) -> GameEvent {
        GameEvent {
            version: 7,
            seat,
            kind,
            started: false,
        }
    }

    fn a_move() -> EventKind {
        EventKind::Move {
            action: Action::Step {
                from: Cell::new(0, 0),
                to: Cell::new(0, 1),
            },
            played: Played {
                notation: "a1-a2".into(),
                effects: Vec::new(),
            },
        }
    }

    #[test]
    fn only_own_moves_handing_the_turn_over_are_left_out() {
        let (me, other) = (Some(Seat::First), Some(Seat::Second));
        let mine = || event(Seat::First, a_move());
        // The seat moved and the other acts: left out.
        assert!(left_out(me, &mine(), other));
        // The seat acts again, or the game is over: sent.
        assert!(!left_out(me, &mine(), me));
        assert!(!left_out(me, &mine(), None));
        // The other seat's move, a stream that skips nothing (a spectator's): sent.
        assert!(!left_out(me, &event(Seat::Second, a_move()), me));
        assert!(!left_out(None, &mine(), other));
        // The seat's events that are not moves: sent.
        let resigned = EventKind::Resigned(Outcome::win(Seat::Second, EndReason::Resigned));
        for kind in [EventKind::SetupSubmitted, EventKind::Joined, resigned] {
            assert!(!left_out(me, &event(Seat::First, kind), other));
        }
    }
}
