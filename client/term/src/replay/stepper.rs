//! `Stepper`: where a replay is (step 0 is the start, the last step the result) and its
//! autoplay: on or off, how long each step stays on screen, and when the next one is due.
//!
//! The stepper never reads the clock: every move that bears on autoplay is given `now`, so
//! the full-screen loop and the tests drive it alike.

use std::time::{Duration, Instant};

/// How long each step stays on screen under autoplay, slowest first.
pub const SPEEDS: [Duration; 7] = [
    Duration::from_millis(4000),
    Duration::from_millis(2000),
    Duration::from_millis(1000),
    Duration::from_millis(500),
    Duration::from_millis(250),
    Duration::from_millis(100),
    Duration::from_millis(50),
];

/// The speed a replay starts at: one step a second.
const DEFAULT_SPEED: usize = 2;

/// A replay's place and autoplay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stepper {
    /// The step shown, `0..=last`.
    index: usize,
    /// The last step (the number of steps after the start).
    last: usize,
    /// An index into [`SPEEDS`].
    speed: usize,
    /// While autoplay runs: when the step on screen was reached (the next is due an interval
    /// later).
    playing_since: Option<Instant>,
}

impl Stepper {
    /// A stepper at the start of a replay with `steps` steps after the start, autoplay off.
    pub fn new(steps: usize) -> Stepper {
        Stepper {
            index: 0,
            last: steps,
            speed: DEFAULT_SPEED,
            playing_since: None,
        }
    }

    /// The step shown: 0 is the start.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The number of steps after the start (the index of the last one).
    pub fn steps(&self) -> usize {
        self.last
    }

    /// Whether the start is shown.
    pub fn at_start(&self) -> bool {
        self.index == 0
    }

    /// Whether the last step (the result) is shown.
    pub fn at_end(&self) -> bool {
        self.index == self.last
    }

    /// Whether autoplay runs.
    pub fn playing(&self) -> bool {
        self.playing_since.is_some()
    }

    /// How long each step stays on screen under autoplay.
    pub fn interval(&self) -> Duration {
        SPEEDS[self.speed]
    }

    /// When autoplay's next step is due; `None` while it is off.
    pub fn due(&self) -> Option<Instant> {
        self.playing_since.map(|since| since + self.interval())
    }

    /// One step forward (not past the last); `now` restarts autoplay's wait. Whether it
    /// moved.
    pub fn forward(&mut self, now: Instant) -> bool {
        self.go(self.index.saturating_add(1), now)
    }

    /// One step back (not before the start). Whether it moved.
    pub fn back(&mut self, now: Instant) -> bool {
        self.go(self.index.saturating_sub(1), now)
    }

    /// Jump to the start. Whether it moved.
    pub fn to_start(&mut self, now: Instant) -> bool {
        self.go(0, now)
    }

    /// Jump to the last step (autoplay stops: there is nothing left to play). Whether it
    /// moved.
    pub fn to_end(&mut self, now: Instant) -> bool {
        self.go(self.last, now)
    }

    /// Start autoplay, or stop it. Started at the last step, it plays again from the start.
    pub fn toggle(&mut self, now: Instant) {
        if self.playing() {
            self.playing_since = None;
        } else {
            if self.at_end() {
                self.index = 0;
            }
            self.playing_since = (!self.at_end()).then_some(now);
        }
    }

    /// Show each step for less time. Whether the speed changed (not past the fastest).
    pub fn faster(&mut self) -> bool {
        let changed = self.speed + 1 < SPEEDS.len();
        if changed {
            self.speed += 1;
        }
        changed
    }

    /// Show each step for longer. Whether the speed changed (not past the slowest).
    pub fn slower(&mut self) -> bool {
        let changed = self.speed > 0;
        if changed {
            self.speed -= 1;
        }
        changed
    }

    /// Autoplay: take the next step if it is due at `now` (one at most, however late), and
    /// stop on reaching the last. Whether it moved.
    pub fn tick(&mut self, now: Instant) -> bool {
        match self.due() {
            Some(due) if now >= due => self.forward(now),
            _ => false,
        }
    }

    /// Move to `index` (clamped); autoplay waits a whole interval from `now` again, and
    /// stops at the last step.
    fn go(&mut self, index: usize, now: Instant) -> bool {
        let index = index.min(self.last);
        let moved = index != self.index;
        self.index = index;
        if self.playing() {
            self.playing_since = (!self.at_end()).then_some(now);
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_stays_within_the_start_and_the_end() {
        let now = Instant::now();
        let mut s = Stepper::new(3);
        assert!(s.at_start() && !s.at_end());
        assert!(!s.back(now), "nothing before the start");
        assert!(s.forward(now) && s.forward(now) && s.forward(now));
        assert_eq!(s.index(), 3);
        assert!(s.at_end());
        assert!(!s.forward(now), "nothing after the end");
        assert!(s.back(now));
        assert_eq!(s.index(), 2);
        assert!(s.to_start(now) && s.at_start());
        assert!(!s.to_start(now), "already there");
        assert!(s.to_end(now) && s.at_end());
        assert!(!s.to_end(now));
    }

    #[test]
    fn a_replay_without_steps_is_its_start_and_its_end() {
        let now = Instant::now();
        let mut s = Stepper::new(0);
        assert!(s.at_start() && s.at_end());
        assert!(!s.forward(now) && !s.back(now));
        s.toggle(now);
        assert!(!s.playing(), "nothing to play");
    }

    #[test]
    fn autoplay_steps_once_per_interval_and_stops_at_the_end() {
        let t0 = Instant::now();
        let mut s = Stepper::new(2);
        assert_eq!(s.due(), None);
        assert!(!s.tick(t0 + Duration::from_secs(60)), "off: no steps");
        s.toggle(t0);
        assert!(s.playing());
        let second = s.interval();
        assert_eq!(s.due(), Some(t0 + second));
        assert!(!s.tick(t0 + second / 2), "not due yet");
        assert!(s.tick(t0 + second));
        assert_eq!(s.index(), 1);
        // Late by several intervals: still one step, and the next a whole interval later.
        let late = t0 + second * 5;
        assert!(s.tick(late));
        assert_eq!(s.index(), 2);
        assert!(s.at_end());
        assert!(!s.playing(), "autoplay stops at the end");
        assert_eq!(s.due(), None);
        assert!(!s.tick(late + second * 2));
        s.toggle(late);
        assert!(s.playing() && s.at_start(), "played again from the start");
    }

    #[test]
    fn moving_by_hand_restarts_the_wait_and_jumping_to_the_end_stops() {
        let t0 = Instant::now();
        let mut s = Stepper::new(5);
        s.toggle(t0);
        let later = t0 + s.interval() / 2;
        assert!(s.forward(later));
        assert_eq!(s.due(), Some(later + s.interval()));
        assert!(s.back(later) && s.playing(), "stepping back keeps playing");
        s.toggle(later);
        assert!(!s.playing());
        s.toggle(later);
        assert!(s.to_end(later));
        assert!(!s.playing());
    }

    #[test]
    fn speed_stays_within_its_limits() {
        let mut s = Stepper::new(1);
        assert_eq!(s.interval(), Duration::from_secs(1));
        while s.faster() {}
        assert_eq!(s.interval(), SPEEDS[SPEEDS.len() - 1]);
        assert!(!s.faster(), "no faster than the fastest");
        while s.slower() {}
        assert_eq!(s.interval(), SPEEDS[0]);
        assert!(!s.slower(), "no slower than the slowest");
        let t0 = Instant::now();
        s.toggle(t0);
        s.faster();
        assert_eq!(
            s.due(),
            Some(t0 + SPEEDS[1]),
            "a new speed counts from the step's arrival"
        );
    }
}
