//! Per-seat turn clocks: a time bank, an increment per decision and a cap per decision
//! ([`TimerSpec`]). Timers live here, in the actor, never in the ruleset.
//!
//! A person's seat whose decision the battle awaits has a running clock: when it starts, the
//! bank gets the increment and the deadline is the bank's time, at most the cap, from then.
//! When the seat acts or stops being awaited, the time taken is drawn from the bank. When a
//! deadline passes the actor has the bot decide for the seat (an input like any other) and
//! counts it; a seat that decides for itself starts the count again. Without a timer no clock
//! ever runs.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use battle_protocol::Seat;
use battle_rules::view::ViewValue;
use battle_rules::TimerSpec;
use tokio::time::Instant;

/// One seat's clock.
#[derive(Debug, Clone, Default)]
struct SeatClock {
    /// What is left in the bank (the running decision's time not drawn yet).
    bank: Duration,
    /// The running decision: when it started, its deadline, and that deadline as Unix
    /// milliseconds for clients.
    running: Option<(Instant, Instant, u64)>,
    /// Decisions the bot made in a row because this seat's time ran out.
    expired_in_row: u32,
}

/// The clocks of one battle's seats.
#[derive(Debug)]
pub struct Clocks {
    spec: Option<TimerSpec>,
    seats: Vec<SeatClock>,
}

impl Clocks {
    /// Clocks for `seats` seats timed by `spec` (`None`: untimed).
    pub fn new(seats: usize, spec: Option<TimerSpec>) -> Clocks {
        let bank = spec.map_or(Duration::ZERO, |s| Duration::from_millis(s.bank_ms));
        Clocks {
            spec,
            seats: vec![
                SeatClock {
                    bank,
                    ..SeatClock::default()
                };
                seats
            ],
        }
    }

    /// Whether decisions are timed at all.
    pub fn is_on(&self) -> bool {
        self.spec.is_some()
    }

    /// How many decisions in a row the bot may make for a seat before it forfeits.
    pub fn forfeit_after(&self) -> u32 {
        self.spec.map_or(u32::MAX, |s| s.forfeit_after)
    }

    /// After a change: `awaited` seats played by people (`timed(seat)`) have a running clock
    /// (started afresh for `acted`, which just decided); the others' clocks stop.
    pub fn update(
        &mut self,
        awaited: &[Seat],
        timed: impl Fn(Seat) -> bool,
        acted: Option<Seat>,
        now: Instant,
    ) {
        let Some(spec) = self.spec else {
            return;
        };
        for (seat, clock) in self.seats.iter_mut().enumerate() {
            let runs = awaited.contains(&seat) && timed(seat);
            if clock.running.is_some() && (!runs || acted == Some(seat)) {
                stop(clock, now);
            }
            if runs && clock.running.is_none() {
                clock.bank += Duration::from_millis(spec.increment_ms);
                let allowed = clock.bank.min(Duration::from_millis(spec.cap_ms));
                clock.running = Some((now, now + allowed, unix_ms(allowed)));
            }
        }
    }

    /// `seat` decided for itself: its count of timed-out decisions starts again.
    pub fn decided(&mut self, seat: Seat) {
        if let Some(clock) = self.seats.get_mut(seat) {
            clock.expired_in_row = 0;
        }
    }

    /// The earliest deadline.
    pub fn next(&self) -> Option<Instant> {
        self.seats
            .iter()
            .filter_map(|c| c.running.map(|(_, deadline, _)| deadline))
            .min()
    }

    /// A seat whose deadline has passed at `now`, with how many of its decisions in a row
    /// have now timed out; its clock stops, the decision's time drawn from the bank.
    pub fn expire(&mut self, now: Instant) -> Option<(Seat, u32)> {
        let seat = self
            .seats
            .iter()
            .position(|c| c.running.is_some_and(|(_, deadline, _)| deadline <= now))?;
        let clock = &mut self.seats[seat];
        if let Some((_, deadline, _)) = clock.running {
            stop(clock, deadline);
        }
        clock.expired_in_row += 1;
        Some((seat, clock.expired_in_row))
    }

    /// Stop every clock (the battle is over).
    pub fn stop(&mut self) {
        let now = Instant::now();
        for clock in &mut self.seats {
            if clock.running.is_some() {
                stop(clock, now);
            }
        }
    }

    /// The envelope's `clocks`: `null` when untimed, else one entry per seat: `null` for a
    /// seat without a running clock, else its `bank_ms` when the decision started (with the
    /// increment) and the decision's `deadline` in Unix milliseconds, for a countdown.
    pub fn view(&self) -> ViewValue {
        if self.spec.is_none() {
            return ViewValue::Null;
        }
        ViewValue::List(
            self.seats
                .iter()
                .map(|clock| match clock.running {
                    None => ViewValue::object([
                        ("bank_ms", millis(clock.bank).into()),
                        ("deadline", ViewValue::Null),
                    ]),
                    Some((_, _, deadline)) => ViewValue::object([
                        ("bank_ms", millis(clock.bank).into()),
                        (
                            "deadline",
                            i64::try_from(deadline).unwrap_or(i64::MAX).into(),
                        ),
                    ]),
                })
                .collect(),
        )
    }
}

/// A duration in whole milliseconds, for a view.
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// Stop `clock` at `at`: the time taken is drawn from the bank.
fn stop(clock: &mut SeatClock, at: Instant) {
    if let Some((started, _, _)) = clock.running.take() {
        clock.bank = clock
            .bank
            .saturating_sub(at.saturating_duration_since(started));
    }
}

/// `from_now` from now, as Unix milliseconds.
fn unix_ms(from_now: Duration) -> u64 {
    (SystemTime::now() + from_now)
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
mod tests;
