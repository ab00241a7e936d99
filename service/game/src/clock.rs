//! Time controls and clocks: pure arithmetic over event times, no I/O and no clock of its
//! own (the game manager passes the time in, so tests use fake times).
//!
//! Live games give each seat a clock (initial time plus a Fischer increment per turn) that
//! runs only while that seat is to act; correspondence games give each turn a deadline.
//! A seat's first turn runs on no clock but must come within [`TimeControl::first_move`],
//! or the game is called off. Setups have their own limit; a seat that misses it gets a
//! random setup made by the server. Time while the server was down is not counted: a game
//! loaded after a restart has its running turn moved later by the [`Downtime`] since the
//! turn began ([`Clocks::credit`]), so all other arithmetic is plain wall time.

use std::fmt;
use std::time::Duration;
use trinchera_store::{Downtime, Speed};

use trinchera_rules::{BySeat, Seat};

/// How much time the players have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock (a seat to move that stays away long can be claimed against).
    #[default]
    Untimed,
    /// A clock per seat.
    Live {
        /// Each seat's time at the start.
        initial: Duration,
        /// Added to a seat's clock after each of its turns.
        increment: Duration,
    },
    /// A deadline per turn.
    Correspondence {
        /// Time for each turn.
        per_move: Duration,
    },
}

/// Turns a live game is expected to last per seat, to class its speed (as online boards
/// estimate a game's length from initial time + 40 × increment).
const EXPECTED_TURNS: u32 = 40;

impl TimeControl {
    /// The control's speed class.
    pub fn speed(self) -> Speed {
        match self {
            TimeControl::Untimed => Speed::Untimed,
            TimeControl::Correspondence { .. } => Speed::Correspondence,
            TimeControl::Live { initial, increment } => {
                let expected = initial + increment * EXPECTED_TURNS;
                match expected.as_secs() {
                    0..180 => Speed::Bullet,
                    180..480 => Speed::Blitz,
                    480..1500 => Speed::Rapid,
                    _ => Speed::Classical,
                }
            }
        }
    }

    /// How long a seat may take for its setup.
    pub fn setup_limit(self) -> Option<Duration> {
        match self {
            TimeControl::Untimed => None,
            TimeControl::Live { .. } => Some(Duration::from_secs(5 * 60)),
            TimeControl::Correspondence { per_move } => Some(per_move),
        }
    }

    /// How long a seat may take for its first action (no clock runs on it).
    pub fn first_move(self) -> Option<Duration> {
        match self {
            TimeControl::Untimed => None,
            TimeControl::Live { .. } => Some(Duration::from_secs(60)),
            TimeControl::Correspondence { per_move } => Some(per_move),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Untimed => f.write_str("no clock"),
            TimeControl::Live { initial, increment } => {
                write!(f, "{}+{}", initial.as_secs() / 60, increment.as_secs())
            }
            TimeControl::Correspondence { per_move } => {
                write!(f, "{} days a move", per_move.as_secs() / 86_400)
            }
        }
    }
}

/// Where a seat's time stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatClock {
    /// Live: the time left at the start of the seat's current turn (or after its last).
    pub remaining_ms: u64,
    /// Whether the seat has acted in play (its first turn runs on no clock).
    pub started: bool,
}

/// Why a deadline passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lapse {
    /// A seat's setup did not come in time: the server sets it up at random.
    Setup(Seat),
    /// A seat's first action did not come in time: the game is called off.
    FirstMove(Seat),
    /// A seat's clock ran out, or its correspondence deadline passed: it loses.
    Flag(Seat),
}

/// The clocks of one game. Its fields are private: only the events of the game move them
/// ([`Clocks::advance`], [`Clocks::end`]), and a restart's downtime ([`Clocks::credit`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    control: TimeControl,
    seats: BySeat<SeatClock>,
    /// The seat whose time runs and since when (ms since the Unix epoch): the seat to act
    /// in play, or `None`.
    running: Option<(Seat, u64)>,
    /// Since when setups are awaited (both seats present), if they are.
    setup_since: Option<u64>,
    /// When the last event happened (for claims against an absent player).
    last_event: u64,
    /// The seat whose time ran out, once the game ended on time: its time shows 0.
    flagged: Option<Seat>,
}

impl Clocks {
    /// Fresh clocks for `control`.
    pub fn new(control: TimeControl) -> Clocks {
        let initial = match control {
            TimeControl::Live { initial, .. } => initial.as_millis() as u64,
            _ => 0,
        };
        let seat = SeatClock {
            remaining_ms: initial,
            started: false,
        };
        Clocks {
            control,
            seats: BySeat([seat, seat]),
            running: None,
            setup_since: None,
            last_event: 0,
            flagged: None,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The seat whose time runs and since when (ms since the Unix epoch).
    pub fn running(&self) -> Option<(Seat, u64)> {
        self.running
    }

    /// When the last event happened, ms since the Unix epoch.
    pub fn last_event(&self) -> u64 {
        self.last_event
    }

    /// The seat to act if its first action (which runs on no clock) has not come yet.
    pub fn unstarted_running(&self) -> Option<Seat> {
        self.running
            .filter(|&(seat, _)| !self.seats[seat].started)
            .map(|(seat, _)| seat)
    }

    /// Whether any deadline applies.
    pub fn timed(&self) -> bool {
        self.control != TimeControl::Untimed
    }

    /// Records what a game's next state awaits at `now`: setups (`awaiting_setups`), the
    /// action of `to_move`, or nothing (over, or waiting for a player). `acted` is the seat
    /// that just acted in play, after spending `spent_ms` counted time on its turn.
    pub fn advance(
        &mut self,
        acted: Option<(Seat, u64)>,
        to_move: Option<Seat>,
        awaiting_setups: bool,
        now: u64,
    ) {
        if let Some((seat, spent_ms)) = acted {
            let clock = &mut self.seats[seat];
            if clock.started
                && let TimeControl::Live { increment, .. } = self.control
            {
                clock.remaining_ms = clock.remaining_ms.saturating_sub(spent_ms);
                if to_move != Some(seat) {
                    clock.remaining_ms += increment.as_millis() as u64;
                }
            }
            if to_move != Some(seat) {
                clock.started = true;
            }
        }
        self.setup_since = match (awaiting_setups, self.setup_since) {
            (true, Some(since)) => Some(since),
            (true, None) => Some(now),
            (false, _) => None,
        };
        self.last_event = now;
        // When the same seat goes on (an Asalto huff, a tanques phase), its turn goes on
        // as one clock turn: what it spent so far was charged above, and the rest counts
        // from now.
        self.running = to_move.map(|seat| (seat, now));
    }

    /// Records the end of the game at `now` by an event that is no move (a resignation, a
    /// claim, a time forfeit of `flagged`, a call-off): the running turn is charged the
    /// `spent_ms` it took, without increment, and no clock runs any more.
    pub fn end(&mut self, spent_ms: u64, flagged: Option<Seat>, now: u64) {
        if let Some((seat, _)) = self.running
            && let TimeControl::Live { .. } = self.control
        {
            let clock = &mut self.seats[seat];
            if clock.started {
                clock.remaining_ms = clock.remaining_ms.saturating_sub(spent_ms);
            }
        }
        self.flagged = flagged;
        self.setup_since = None;
        self.last_event = now;
        self.running = None;
    }

    /// Moves the running turn (and the awaited setups) later by the time the server was
    /// down since they began, so that downtime counts against nobody.
    pub fn credit(&mut self, downtime: &Downtime) {
        if let Some((_, since)) = &mut self.running {
            *since += downtime.after(*since);
        }
        if let Some(since) = &mut self.setup_since {
            *since += downtime.after(*since);
        }
        self.last_event += downtime.after(self.last_event);
    }

    /// How long nothing has happened at `now`.
    pub fn idle(&self, now: u64) -> u64 {
        now.saturating_sub(self.last_event)
    }

    /// Time the running seat has spent on its turn at `now`.
    pub fn spent(&self, now: u64) -> u64 {
        self.running
            .map_or(0, |(_, since)| now.saturating_sub(since))
    }

    /// Time left for `seat` at `now` (live: its clock; correspondence: until its deadline).
    pub fn remaining(&self, seat: Seat, now: u64) -> Option<u64> {
        let running = self.running.filter(|&(s, _)| s == seat);
        match self.control {
            TimeControl::Untimed => None,
            _ if self.flagged == Some(seat) => Some(0),
            TimeControl::Live { .. } => {
                let spent = running.map_or(0, |_| self.spent(now));
                let clock = self.seats[seat];
                Some(if clock.started {
                    clock.remaining_ms.saturating_sub(spent)
                } else {
                    clock.remaining_ms
                })
            }
            TimeControl::Correspondence { per_move } => {
                let per_move = per_move.as_millis() as u64;
                Some(per_move.saturating_sub(running.map_or(0, |_| self.spent(now))))
            }
        }
    }

    /// The next deadline (ms since the Unix epoch) and what passes then.
    pub fn next_deadline(&self) -> Option<(u64, Lapse)> {
        if !self.timed() {
            return None;
        }
        if let Some(since) = self.setup_since {
            let limit = self.control.setup_limit()?.as_millis() as u64;
            // Both seats' setups share the limit; the manager picks the seat that lacks one.
            return Some((since + limit, Lapse::Setup(Seat::First)));
        }
        let (seat, since) = self.running?;
        let clock = self.seats[seat];
        if !clock.started {
            let limit = self.control.first_move()?.as_millis() as u64;
            return Some((since + limit, Lapse::FirstMove(seat)));
        }
        let budget = match self.control {
            TimeControl::Live { .. } => clock.remaining_ms,
            TimeControl::Correspondence { per_move } => per_move.as_millis() as u64,
            TimeControl::Untimed => return None,
        };
        Some((since + budget, Lapse::Flag(seat)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60_000;

    fn live(minutes: u64, increment_secs: u64) -> Clocks {
        Clocks::new(TimeControl::Live {
            initial: Duration::from_millis(minutes * MIN),
            increment: Duration::from_secs(increment_secs),
        })
    }

    #[test]
    fn speed_classes_follow_the_expected_length() {
        let class = |minutes: u64, increment: u64| {
            TimeControl::Live {
                initial: Duration::from_secs(minutes * 60),
                increment: Duration::from_secs(increment),
            }
            .speed()
        };
        assert_eq!(class(1, 0), Speed::Bullet);
        assert_eq!(class(3, 2), Speed::Blitz);
        assert_eq!(class(10, 5), Speed::Rapid);
        assert_eq!(class(30, 20), Speed::Classical);
        for speed in Speed::ALL {
            assert_eq!(Speed::from_number(speed.number()), Some(speed));
        }
        assert_eq!(Speed::from_number(0), None);
    }

    #[test]
    fn the_clock_runs_only_for_the_seat_to_act_and_gains_the_increment() {
        let mut clocks = live(10, 5);
        // Play starts at t = 0 with seat 0 to move: its first turn is on no clock.
        clocks.advance(None, Some(Seat::First), false, 0);
        assert_eq!(
            clocks.next_deadline(),
            Some((MIN, Lapse::FirstMove(Seat::First)))
        );
        clocks.advance(
            Some((Seat::First, 30_000)),
            Some(Seat::Second),
            false,
            30_000,
        );
        assert_eq!(clocks.remaining(Seat::First, 40_000), Some(10 * MIN));
        clocks.advance(
            Some((Seat::Second, 1_000)),
            Some(Seat::First),
            false,
            31_000,
        );
        // Seat 0's clock runs from 31 s: 12 s spent, then 5 s back.
        assert_eq!(
            clocks.remaining(Seat::First, 43_000),
            Some(10 * MIN - 12_000)
        );
        assert_eq!(clocks.remaining(Seat::Second, 43_000), Some(10 * MIN));
        clocks.advance(
            Some((Seat::First, 12_000)),
            Some(Seat::Second),
            false,
            43_000,
        );
        assert_eq!(
            clocks.seats[Seat::First].remaining_ms,
            10 * MIN - 12_000 + 5_000
        );
        assert_eq!(
            clocks.next_deadline(),
            Some((43_000 + 10 * MIN, Lapse::Flag(Seat::Second)))
        );
    }

    #[test]
    fn a_turn_of_several_actions_is_one_clock_turn_with_one_increment() {
        let mut clocks = live(1, 2);
        clocks.seats[Seat::First].started = true;
        clocks.advance(None, Some(Seat::First), false, 0);
        // A huff, then the step: the same seat acts twice in one turn.
        clocks.advance(Some((Seat::First, 1_000)), Some(Seat::First), false, 1_000);
        clocks.advance(Some((Seat::First, 500)), Some(Seat::Second), false, 1_500);
        assert_eq!(clocks.seats[Seat::First].remaining_ms, MIN - 1_500 + 2_000);
    }

    #[test]
    fn an_end_charges_the_running_turn_and_a_fallen_flag_shows_zero() {
        let mut clocks = live(1, 5);
        clocks.seats[Seat::First].started = true;
        clocks.seats[Seat::Second].started = true;
        clocks.advance(None, Some(Seat::First), false, 0);
        // Seat 1 resigns while seat 0 thinks: seat 0 is charged its 7 s, no increment.
        let mut resigned = clocks.clone();
        resigned.end(7_000, None, 7_000);
        assert_eq!(resigned.remaining(Seat::First, 9_000), Some(MIN - 7_000));
        assert_eq!(resigned.remaining(Seat::Second, 9_000), Some(MIN));
        assert_eq!(resigned.next_deadline(), None);
        // Seat 0's flag falls: its time is 0, also in correspondence.
        clocks.end(MIN + 20, Some(Seat::First), MIN + 20);
        assert_eq!(clocks.remaining(Seat::First, MIN + 30), Some(0));
        assert_eq!(clocks.seats[Seat::First].remaining_ms, 0);
        let mut mail = Clocks::new(TimeControl::Correspondence {
            per_move: Duration::from_secs(86_400),
        });
        mail.advance(None, Some(Seat::Second), false, 0);
        mail.end(86_400_000, Some(Seat::Second), 86_400_000);
        assert_eq!(mail.remaining(Seat::Second, 86_400_001), Some(0));
        assert_eq!(mail.remaining(Seat::First, 86_400_001), Some(86_400_000));
    }

    #[test]
    fn downtime_is_not_counted() {
        let downtime = Downtime(vec![(10_000, 70_000)]);
        assert_eq!(downtime.after(0), 60_000);
        assert_eq!(downtime.after(40_000), 30_000);
        assert_eq!(downtime.after(80_000), 0);
        let mut clocks = live(1, 0);
        clocks.seats[Seat::Second].started = true;
        clocks.advance(None, Some(Seat::Second), false, 0);
        clocks.credit(&downtime);
        // 100 s of wall time, 60 s of it down: 40 s spent, and the flag falls at 120 s.
        assert_eq!(clocks.remaining(Seat::Second, 100_000), Some(MIN - 40_000));
        assert_eq!(
            clocks.next_deadline(),
            Some((120_000, Lapse::Flag(Seat::Second)))
        );
    }

    #[test]
    fn correspondence_gives_each_turn_its_deadline() {
        let day = 86_400_000;
        let mut clocks = Clocks::new(TimeControl::Correspondence {
            per_move: Duration::from_millis(3 * day),
        });
        clocks.advance(None, None, true, 0);
        assert_eq!(
            clocks.next_deadline(),
            Some((3 * day, Lapse::Setup(Seat::First)))
        );
        clocks.advance(None, Some(Seat::First), false, day);
        clocks.advance(Some((Seat::First, 10)), Some(Seat::Second), false, day + 10);
        clocks.advance(Some((Seat::Second, 10)), Some(Seat::First), false, day + 20);
        assert_eq!(
            clocks.next_deadline(),
            Some((4 * day + 20, Lapse::Flag(Seat::First)))
        );
        assert_eq!(clocks.remaining(Seat::First, 2 * day + 20), Some(2 * day));
    }
}
