//! Per-seat decision clocks: where turn timers plug into the actor.
//!
//! With a limit set, every seat played by a person gets a deadline when the battle starts
//! awaiting its decision, and a fresh one each time it acts while still awaited; a seat no
//! longer awaited has none. When a deadline passes, the actor asks the ruleset to decide for
//! the seat ([`Ruleset::timeout`](battle_rules::Ruleset::timeout)), which goes into the input
//! log like any other input. Without a limit (the default) no deadline is ever set.

use std::time::Duration;

use battle_protocol::Seat;
use tokio::time::Instant;

/// The deadlines of one battle's seats.
#[derive(Debug)]
pub struct Clocks {
    limit: Option<Duration>,
    deadlines: Vec<Option<Instant>>,
}

impl Clocks {
    /// Clocks for `seats` seats, each decision given `limit` (`None`: no clock).
    pub fn new(seats: usize, limit: Option<Duration>) -> Clocks {
        Clocks {
            limit,
            deadlines: vec![None; seats],
        }
    }

    /// After a change: `awaited` seats played by people (`timed(seat)`) keep their deadline,
    /// or get one from `now` when they had none or just acted (`acted`); the others lose
    /// theirs.
    pub fn update(
        &mut self,
        awaited: &[Seat],
        timed: impl Fn(Seat) -> bool,
        acted: Option<Seat>,
        now: Instant,
    ) {
        let Some(limit) = self.limit else {
            return;
        };
        for (seat, deadline) in self.deadlines.iter_mut().enumerate() {
            if !awaited.contains(&seat) || !timed(seat) {
                *deadline = None;
            } else if deadline.is_none() || acted == Some(seat) {
                *deadline = Some(now + limit);
            }
        }
    }

    /// Whether decisions are timed at all.
    pub fn is_on(&self) -> bool {
        self.limit.is_some()
    }

    /// The earliest deadline.
    pub fn next(&self) -> Option<Instant> {
        self.deadlines.iter().flatten().min().copied()
    }

    /// A seat whose deadline has passed at `now`; its deadline is cleared.
    pub fn expire(&mut self, now: Instant) -> Option<Seat> {
        let seat = self
            .deadlines
            .iter()
            .position(|deadline| deadline.is_some_and(|at| at <= now))?;
        self.deadlines[seat] = None;
        Some(seat)
    }

    /// Stop every clock (the battle is over).
    pub fn stop(&mut self) {
        self.deadlines
            .iter_mut()
            .for_each(|deadline| *deadline = None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awaited_people_get_deadlines_that_renew_when_they_act() {
        let now = Instant::now();
        let second = Duration::from_secs(1);
        let mut clocks = Clocks::new(3, Some(second));
        let people = |seat: Seat| seat != 2;
        clocks.update(&[0, 2], people, None, now);
        assert_eq!(
            clocks.next(),
            Some(now + second),
            "seat 0 only: seat 2 is a bot"
        );
        let later = now + second / 2;
        clocks.update(&[0, 1], people, None, later);
        assert_eq!(
            clocks.deadlines,
            [Some(now + second), Some(later + second), None]
        );
        clocks.update(&[0, 1], people, Some(0), later);
        assert_eq!(clocks.deadlines[0], Some(later + second), "acting renews");
        assert_eq!(clocks.expire(later), None);
        assert_eq!(clocks.expire(later + second), Some(0));
        assert_eq!(clocks.expire(later + second), Some(1));
        assert_eq!(clocks.next(), None);
        clocks.update(&[1], people, None, later);
        clocks.stop();
        assert_eq!(clocks.next(), None);
    }

    #[test]
    fn without_a_limit_nothing_is_timed() {
        let mut clocks = Clocks::new(2, None);
        clocks.update(&[0, 1], |_| true, None, Instant::now());
        assert_eq!(clocks.next(), None);
    }
}
