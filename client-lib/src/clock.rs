//! The clocks of a game as a client shows them: counted down locally from the snapshot a
//! view carries, their faces, the limit that runs instead of a clock (a setup's, a first
//! move's), the low-time warning, and their sentences.

use trinchera_proto::v1 as pb;

use crate::lang::Lang;
use crate::tr;

/// Milliseconds as a clock face: `9:41`, `0:07.3` under ten seconds, `2d 03h` for days.
pub fn clock_face(ms: u64) -> String {
    let secs = ms / 1000;
    match secs {
        0..10 => format!("0:0{secs}.{}", ms % 1000 / 100),
        10..3600 => format!("{}:{:02}", secs / 60, secs % 60),
        3600..86_400 => format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60),
        _ => format!("{}d {:02}h", secs / 86_400, secs / 3600 % 24),
    }
}

/// Each seat's time left `elapsed_ms` after the snapshot `clock`: only the running seat's
/// clock counts down, and only while running out would lose the game (a seat's first turn
/// runs on no clock; [`deadline`] tells its limit instead).
pub fn time_left(clock: &pb::Clock, elapsed_ms: u64) -> Vec<u64> {
    let flagging = clock.lapse() == pb::Lapse::TimeForfeit;
    (0..)
        .zip(&clock.remaining_ms)
        .map(|(seat, &ms)| {
            if flagging && clock.running == Some(seat) {
                ms.saturating_sub(elapsed_ms)
            } else {
                ms
            }
        })
        .collect()
}

/// The seat whose clock counts down now, if one does.
pub fn ticking(clock: &pb::Clock) -> Option<i32> {
    clock
        .running
        .filter(|_| clock.lapse() == pb::Lapse::TimeForfeit)
}

/// The limit that runs now other than a clock, with the time left `elapsed_ms` after the
/// snapshot: the setups' (missing ones are then made at random) or a first move's (else
/// the game is called off).
pub fn deadline(clock: &pb::Clock, elapsed_ms: u64) -> Option<(pb::Lapse, u64)> {
    let lapse = clock.lapse();
    if !matches!(lapse, pb::Lapse::RandomSetup | pb::Lapse::Abort) {
        return None;
    }
    let left = clock.deadline_ms?.saturating_sub(clock.server_time_ms);
    Some((lapse, left.saturating_sub(elapsed_ms)))
}

/// A limit of [`deadline`] in words: "Setups due in 4:12, or made at random".
pub fn deadline_sentence(lang: Lang, lapse: pb::Lapse, left_ms: u64) -> String {
    let left = clock_face(left_ms);
    match lapse {
        pb::Lapse::RandomSetup => tr!(
            lang,
            "Setups due in {left}, or made at random",
            "Colocación en {left}, si no, al azar"
        ),
        _ => tr!(
            lang,
            "First move due in {left}, or the game is called off",
            "Primera jugada en {left}, si no, se anula la partida"
        ),
    }
}

/// The remaining time under which a player is warned: a tenth of a live clock's initial
/// time, between 10 s and a minute, or an hour of a correspondence deadline.
pub fn low_ms(control: Option<&pb::TimeControl>) -> u64 {
    use pb::time_control::Control;
    match control.and_then(|c| c.control.as_ref()) {
        Some(Control::Live(live)) => (u64::from(live.initial_seconds) * 100).clamp(10_000, 60_000),
        Some(Control::Correspondence(_)) => 3_600_000,
        None => 0,
    }
}

/// Whether `seat`'s own clock runs and shows less than the warning time of [`low_ms`];
/// `left` is [`time_left`]'s.
pub fn is_low(clock: &pb::Clock, left: &[u64], seat: i32) -> bool {
    ticking(clock) == Some(seat)
        && usize::try_from(seat)
            .ok()
            .and_then(|index| left.get(index))
            .is_some_and(|&ms| ms < low_ms(clock.control.as_ref()))
}

/// The low-time warning a player reads while [`is_low`].
pub fn low_warning(lang: Lang) -> &'static str {
    lang.pick("Your time is running low!", "¡Te queda poco tiempo!")
}

/// How often a clock showing `ms` changes its face ([`clock_face`]): tenths under ten
/// seconds, seconds under a day, hours beyond.
pub fn refresh_ms(ms: u64) -> u64 {
    match ms {
        0..10_000 => 100,
        10_000..86_400_000 => 1000,
        _ => 3_600_000,
    }
}

/// How long until a clock counting down from `ms` shows another face: a client redraws
/// it then, and not before.
pub fn until_change(ms: u64) -> std::time::Duration {
    std::time::Duration::from_millis(ms % refresh_ms(ms) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live(remaining: [u64; 2], running: Option<i32>, lapse: pb::Lapse) -> pb::Clock {
        pb::Clock {
            control: Some(pb::TimeControl {
                control: Some(pb::time_control::Control::Live(pb::LiveControl {
                    initial_seconds: 60,
                    increment_seconds: 0,
                })),
            }),
            remaining_ms: remaining.to_vec(),
            running,
            server_time_ms: 1_000,
            deadline_ms: Some(31_000),
            lapse: lapse as i32,
            ..Default::default()
        }
    }

    #[test]
    fn clock_faces_fit_the_time_left() {
        assert_eq!(clock_face(9_740), "0:09.7");
        assert_eq!(clock_face(581_000), "9:41");
        assert_eq!(clock_face(3_723_000), "1:02:03");
        assert_eq!(clock_face(2 * 86_400_000 + 3 * 3_600_000), "2d 03h");
    }

    #[test]
    fn only_a_running_clock_that_can_flag_counts_down() {
        let clock = live([60_000, 60_000], Some(1), pb::Lapse::TimeForfeit);
        assert_eq!(time_left(&clock, 1_500), [60_000, 58_500]);
        assert_eq!(ticking(&clock), Some(1));
        // A first move runs on no clock: its deadline counts instead.
        let first = live([60_000, 60_000], Some(0), pb::Lapse::Abort);
        assert_eq!(time_left(&first, 1_500), [60_000, 60_000]);
        assert_eq!(ticking(&first), None);
        assert_eq!(deadline(&first, 1_500), Some((pb::Lapse::Abort, 28_500)));
        assert_eq!(deadline(&clock, 1_500), None);
        assert_eq!(
            deadline_sentence(Lang::En, pb::Lapse::Abort, 28_500),
            "First move due in 0:28, or the game is called off"
        );
    }

    #[test]
    fn the_warning_is_for_the_running_seat_under_its_threshold() {
        let clock = live([9_000, 60_000], Some(0), pb::Lapse::TimeForfeit);
        let left = time_left(&clock, 0);
        assert!(is_low(&clock, &left, 0));
        assert!(!is_low(&clock, &left, 1), "only the running clock warns");
        let calm = live([11_000, 60_000], Some(0), pb::Lapse::TimeForfeit);
        assert!(!is_low(&calm, &time_left(&calm, 0), 0));
        assert!(is_low(&calm, &time_left(&calm, 1_500), 0));
        assert_eq!(refresh_ms(9_999), 100);
        assert_eq!(refresh_ms(10_000), 1000);
    }

    #[test]
    fn the_next_redraw_comes_when_the_face_changes() {
        for ms in [
            9_741,
            581_250,
            3_723_000,
            2 * 86_400_000 + 3 * 3_600_000 + 5,
        ] {
            let face = clock_face(ms);
            let wait = u64::try_from(until_change(ms).as_millis()).expect("short");
            assert_eq!(clock_face(ms - wait + 1), face, "{ms}: too early");
            assert_ne!(clock_face(ms - wait), face, "{ms}: too late");
        }
    }
}
