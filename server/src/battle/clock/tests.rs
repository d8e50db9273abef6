//! The clock's arithmetic: increments, the cap, drawing from the bank, expiries in a row.

use super::*;

fn spec() -> TimerSpec {
    TimerSpec {
        bank_ms: 10_000,
        increment_ms: 2_000,
        cap_ms: 5_000,
        forfeit_after: 2,
    }
}

fn bank(clocks: &Clocks, seat: Seat) -> u64 {
    clocks.seats[seat].bank.as_millis() as u64
}

#[test]
fn a_decision_gets_the_increment_at_most_the_cap_and_draws_what_it_takes() {
    let now = Instant::now();
    let s = Duration::from_secs(1);
    let mut clocks = Clocks::new(3, Some(spec()));
    let people = |seat: Seat| seat != 2;
    clocks.update(&[0, 2], people, None, now);
    assert_eq!(
        bank(&clocks, 0),
        12_000,
        "the increment as the decision starts"
    );
    assert_eq!(clocks.next(), Some(now + 5 * s), "at most the cap");
    assert!(
        clocks.seats[2].running.is_none(),
        "a bot's seat is not timed"
    );
    // Seat 0 acts after 3 s and is still awaited: 3 s drawn, a new decision starts.
    clocks.update(&[0], people, Some(0), now + 3 * s);
    assert_eq!(bank(&clocks, 0), 12_000 - 3_000 + 2_000);
    assert_eq!(clocks.next(), Some(now + 3 * s + 5 * s));
    // No longer awaited after 1 s more: 1 s drawn, the clock stops.
    clocks.update(&[1], people, None, now + 4 * s);
    assert_eq!(bank(&clocks, 0), 10_000);
    assert!(clocks.seats[0].running.is_none());
    assert_eq!(clocks.next(), Some(now + 4 * s + 5 * s), "seat 1's clock");
}

#[test]
fn expiries_are_counted_in_a_row_until_the_seat_decides_itself() {
    let now = Instant::now();
    let s = Duration::from_secs(1);
    let mut clocks = Clocks::new(2, Some(spec()));
    clocks.update(&[0], |_| true, None, now);
    assert_eq!(clocks.expire(now + 4 * s), None, "not yet");
    assert_eq!(clocks.expire(now + 5 * s), Some((0, 1)));
    assert_eq!(bank(&clocks, 0), 12_000 - 5_000, "the cap's time is drawn");
    clocks.update(&[0], |_| true, Some(0), now + 5 * s);
    assert_eq!(clocks.expire(now + 10 * s), Some((0, 2)), "two in a row");
    assert_eq!(clocks.forfeit_after(), 2);
    clocks.decided(0);
    clocks.update(&[0], |_| true, Some(0), now + 10 * s);
    assert_eq!(
        clocks.expire(now + 20 * s),
        Some((0, 1)),
        "the count started again"
    );
    clocks.stop();
    assert_eq!(clocks.next(), None);
}

#[test]
fn untimed_battles_never_run_a_clock_and_show_none() {
    let mut clocks = Clocks::new(2, None);
    clocks.update(&[0, 1], |_| true, None, Instant::now());
    assert_eq!(clocks.next(), None);
    assert_eq!(clocks.view(), ViewValue::Null);
    assert!(!clocks.is_on());
}
