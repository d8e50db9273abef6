//! The tick lag of a battle that ticks by itself (gambit's fights): how late each tick's
//! patch reaches a connection after the tick was due.
//!
//! The server keeps a cadence: tick `k` of a fight is due one tick interval after tick
//! `k − 1` was due. The client cannot see due times, so it anchors them on the fight's
//! earliest arrival: `arrival(k) − k × interval` at its smallest over the fight so far is the
//! schedule's origin plus the quickest delivery, and the lag of tick `k` is how much later
//! than that origin plus `k` intervals it arrived. A constant delivery time cancels out;
//! lateness — a timer firing late, a busy server — shows. Early in a fight the anchor is
//! rough, which can only overstate the lag. A fight starts again (a new anchor) at a tick
//! that is not the next one, or that comes more than 1.5 intervals and 50 ms after the
//! previous one (a paused fight resumed, a new encounter). Tick 0 (planning, before the
//! first tick) belongs to no fight: the cadence starts with tick 1.

use std::time::Duration;

use tokio::time::Instant;

/// Slack beyond 1.5 intervals before a gap counts as a new start.
const GAP_SLACK: Duration = Duration::from_millis(50);

/// One fight as seen so far.
#[derive(Debug, Clone, Copy)]
struct Fight {
    /// The first arrival, from which offsets are counted.
    base: Instant,
    /// The tick of `base`.
    first_tick: u64,
    /// The last tick seen and when.
    last_tick: u64,
    last_at: Instant,
    /// The smallest `offset(k) − (k − first_tick) × interval` seen, in microseconds.
    anchor_us: i64,
}

/// What one observation of the view's tick counter meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// The counter did not move.
    Same,
    /// A new tick: with its lag in microseconds when it continues a fight.
    New(Option<u64>),
}

/// Follows the tick counter of one connection's view.
#[derive(Debug, Default)]
pub struct TickClock {
    fight: Option<Fight>,
    last: Option<u64>,
}

impl TickClock {
    /// The view shows tick `tick` of a fight ticking every `tick_ms` ms, received at `at`.
    pub fn observe(&mut self, tick: u64, tick_ms: u64, at: Instant) -> Tick {
        if self.last == Some(tick) {
            return Tick::Same;
        }
        self.last = Some(tick);
        let interval = Duration::from_millis(tick_ms);
        // Tick 0 is before a fight's first tick (planning): it starts no cadence.
        let continues = self.fight.filter(|f| {
            tick > 0
                && tick_ms > 0
                && tick == f.last_tick + 1
                && at.saturating_duration_since(f.last_at) <= interval * 3 / 2 + GAP_SLACK
        });
        let Some(mut fight) = continues else {
            self.fight = (tick > 0 && tick_ms > 0).then_some(Fight {
                base: at,
                first_tick: tick,
                last_tick: tick,
                last_at: at,
                anchor_us: 0,
            });
            return Tick::New(None);
        };
        let offset =
            i64::try_from(at.saturating_duration_since(fight.base).as_micros()).unwrap_or(i64::MAX);
        let scheduled = i64::try_from(u128::from(tick - fight.first_tick) * interval.as_micros())
            .unwrap_or(i64::MAX);
        let rel = offset.saturating_sub(scheduled);
        fight.anchor_us = fight.anchor_us.min(rel);
        let lag = u64::try_from(rel - fight.anchor_us).unwrap_or(0);
        fight.last_tick = tick;
        fight.last_at = at;
        self.fight = Some(fight);
        Tick::New(Some(lag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lateness_against_the_earliest_anchor() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut clock = TickClock::default();
        assert_eq!(clock.observe(1, 500, t0), Tick::New(None), "a fight starts");
        assert_eq!(clock.observe(1, 500, t0), Tick::Same);
        // On time (a steady 2 ms of delivery cancels out).
        assert_eq!(clock.observe(2, 500, t0 + ms(500)), Tick::New(Some(0)));
        // 3 ms late.
        assert_eq!(clock.observe(3, 500, t0 + ms(1003)), Tick::New(Some(3_000)));
        // Back on time: the lateness of the previous tick is not carried over.
        assert_eq!(clock.observe(4, 500, t0 + ms(1500)), Tick::New(Some(0)));
        // Earlier than any so far: a better anchor, lag 0.
        assert_eq!(clock.observe(5, 500, t0 + ms(1999)), Tick::New(Some(0)));
        assert_eq!(clock.observe(6, 500, t0 + ms(2500)), Tick::New(Some(1_000)));
        // A long gap (a pause) or a tick that is not the next one starts a new fight.
        assert_eq!(clock.observe(7, 500, t0 + ms(9000)), Tick::New(None));
        assert_eq!(clock.observe(1, 500, t0 + ms(9500)), Tick::New(None));
        // Tick 0 (planning) is no anchor: the fight starts at tick 1, however soon.
        let mut planned = TickClock::default();
        assert_eq!(planned.observe(0, 500, t0), Tick::New(None));
        assert_eq!(planned.observe(1, 500, t0 + ms(600)), Tick::New(None));
        assert_eq!(planned.observe(2, 500, t0 + ms(1100)), Tick::New(Some(0)));
        // Unpaced (tick_ms 0): no lag.
        let mut fast = TickClock::default();
        fast.observe(1, 0, t0);
        assert_eq!(fast.observe(2, 0, t0), Tick::New(None));
    }
}
