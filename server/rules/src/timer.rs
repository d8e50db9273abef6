//! Turn timers as data: a time bank per seat, an increment per decision and a cap per
//! decision. The server keeps the clocks (they need a clock, which rulesets never have);
//! each ruleset says what its battles get by default ([`Game::TIMER`](crate::Game::TIMER)).

use serde::{Deserialize, Serialize};

/// How a battle's decisions are timed.
///
/// Each person's seat starts with `bank_ms`. When a decision of the seat starts, the bank
/// gets `increment_ms` and the decision may take what the bank holds, at most `cap_ms`; the
/// time taken is drawn from the bank. A decision not made in time is made by the server's
/// bot for the seat, and after `forfeit_after` such decisions in a row the seat forfeits on
/// time ([`Ruleset::forfeit`](crate::Ruleset::forfeit): the others win, and the outcome
/// says it was the clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimerSpec {
    /// The time bank each seat starts with.
    pub bank_ms: u64,
    /// Added to the bank as each decision starts.
    pub increment_ms: u64,
    /// Most one decision may take.
    pub cap_ms: u64,
    /// Decisions made by the bot in a row, for want of time, after which the seat forfeits.
    pub forfeit_after: u32,
}

impl TimerSpec {
    /// A turn-based card game's clock: 2 minutes in the bank, 15 seconds more per decision,
    /// at most 90 seconds per decision, forfeit after 3 timed-out decisions in a row.
    pub const STANDARD: TimerSpec = TimerSpec {
        bank_ms: 120_000,
        increment_ms: 15_000,
        cap_ms: 90_000,
        forfeit_after: 3,
    };

    /// Why these numbers cannot make a clock, if they cannot.
    pub fn check(&self) -> Result<(), String> {
        const DAY_MS: u64 = 86_400_000;
        if self.cap_ms < 1_000 || self.cap_ms > DAY_MS {
            return Err(format!("timer.cap_ms must be 1000 to {DAY_MS}"));
        }
        if self.bank_ms > DAY_MS || self.increment_ms > DAY_MS {
            return Err(format!(
                "timer.bank_ms and timer.increment_ms must be 0 to {DAY_MS}"
            ));
        }
        if self.bank_ms + self.increment_ms == 0 {
            return Err("timer: bank_ms and increment_ms cannot both be 0".into());
        }
        if !(1..=100).contains(&self.forfeit_after) {
            return Err("timer.forfeit_after must be 1 to 100".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_clock_is_valid_and_bad_numbers_are_refused_in_words() {
        assert_eq!(TimerSpec::STANDARD.check(), Ok(()));
        let bad = |f: fn(&mut TimerSpec)| {
            let mut spec = TimerSpec::STANDARD;
            f(&mut spec);
            spec.check().expect_err("refused")
        };
        assert!(bad(|s| s.cap_ms = 10).contains("cap_ms"));
        assert!(bad(|s| s.forfeit_after = 0).contains("forfeit_after"));
        assert!(bad(|s| {
            s.bank_ms = 0;
            s.increment_ms = 0;
        })
        .contains("both be 0"));
    }
}
