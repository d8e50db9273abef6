//! Token buckets: how often a connection may send messages, read the lobby and create
//! battles, and how many refusals show that it keeps flooding.
//!
//! Each bucket is a GCRA limiter from the `governor` crate: one atomic word and one clock
//! read per check, no lock, no allocation. A connection's buckets ([`Limits`]) belong to its
//! reader alone; the one bucket shared by several connections, the creates of an address,
//! lives in `crate::quota`. They sit at the bottom of the server so that quotas and the edge
//! share them.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, MonotonicClock};
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

use crate::config::{Config, Rate};

/// How long the refusals counted by [`Limits::refusals`] are remembered: a connection refused
/// `flood_refusals` times within it is flooding.
pub const FLOOD_WINDOW: Duration = Duration::from_secs(10);

type Limiter =
    RateLimiter<NotKeyed, InMemoryState, MonotonicClock, NoOpMiddleware<std::time::Instant>>;

/// One token bucket (or none, for an unlimited rate).
pub struct Bucket {
    limiter: Option<Limiter>,
    rate: Rate,
}

impl Bucket {
    /// A full bucket for `rate`; an unlimited rate never refuses.
    pub fn new(rate: Rate) -> Bucket {
        let quota = NonZeroU32::new(rate.per_sec)
            .map(|per_sec| Quota::per_second(per_sec).allow_burst(burst_of(rate)));
        Bucket::of(quota, rate)
    }

    /// A bucket holding `most` tokens that refills them all within `window`.
    fn spread(most: u32, window: Duration) -> Bucket {
        let rate = Rate::new(most, most);
        let quota = NonZeroU32::new(most).and_then(|most| {
            Quota::with_period(window / most.get()).map(|quota| quota.allow_burst(most))
        });
        Bucket::of(quota, rate)
    }

    fn of(quota: Option<Quota>, rate: Rate) -> Bucket {
        Bucket {
            limiter: quota.map(|quota| RateLimiter::direct_with_clock(quota, MonotonicClock)),
            rate,
        }
    }

    /// Take one token; without one, how long until there is one.
    pub fn take(&self) -> Result<(), Duration> {
        match &self.limiter {
            None => Ok(()),
            Some(limiter) => limiter
                .check()
                .map_err(|not_until| not_until.wait_time_from(MonotonicClock.now())),
        }
    }

    /// The rate this bucket was made for.
    pub fn rate(&self) -> Rate {
        self.rate
    }
}

/// The burst of `rate`: at least one token.
fn burst_of(rate: Rate) -> NonZeroU32 {
    NonZeroU32::new(rate.burst).unwrap_or(NonZeroU32::MIN)
}

/// Milliseconds to wait for a token, rounded up: a client that waits this long is accepted.
pub fn retry_after_ms(wait: Duration) -> u64 {
    let ms = wait.as_nanos().div_ceil(1_000_000);
    u64::try_from(ms).unwrap_or(u64::MAX).max(1)
}

/// One connection's buckets.
pub struct Limits {
    /// Every message: text, binary and ping frames.
    pub messages: Bucket,
    /// Lobby reads: `hello`, `list`, `replay`.
    pub lobby: Bucket,
    /// `create`.
    pub creates: Bucket,
    /// Refusals: when this one is empty too, the connection is flooding.
    refusals: Bucket,
}

impl Limits {
    /// Full buckets for a new connection.
    pub fn new(config: &Config) -> Limits {
        Limits {
            messages: Bucket::new(config.message_rate),
            lobby: Bucket::new(config.list_rate),
            creates: Bucket::new(config.create_rate),
            refusals: Bucket::spread(config.flood_refusals, FLOOD_WINDOW),
        }
    }

    /// Count one refusal; `true` when the connection has been refused too often within
    /// [`FLOOD_WINDOW`] and is to be closed.
    pub fn refused(&self) -> bool {
        self.refusals.take().is_err()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_burst_then_says_how_long_to_wait() {
        let bucket = Bucket::new(Rate::new(10, 3));
        for _ in 0..3 {
            assert_eq!(bucket.take(), Ok(()));
        }
        let wait = bucket.take().expect_err("the burst is spent");
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_millis(100),
            "one token comes every 100 ms, not {wait:?}"
        );
        std::thread::sleep(wait);
        assert_eq!(bucket.take(), Ok(()), "after the wait, a token is there");
    }

    #[test]
    fn an_unlimited_rate_never_refuses() {
        let bucket = Bucket::new(Rate::UNLIMITED);
        assert!((0..100_000).all(|_| bucket.take().is_ok()));
    }

    #[test]
    fn waits_round_up_to_a_whole_millisecond() {
        assert_eq!(retry_after_ms(Duration::from_micros(1)), 1);
        assert_eq!(retry_after_ms(Duration::from_micros(1_001)), 2);
        assert_eq!(retry_after_ms(Duration::from_millis(250)), 250);
        assert_eq!(retry_after_ms(Duration::ZERO), 1);
    }

    #[test]
    fn flooding_is_many_refusals_within_the_window() {
        let config = Config {
            flood_refusals: 5,
            ..Config::for_tests()
        };
        let limits = Limits::new(&config);
        assert!(
            (0..5).all(|_| !limits.refused()),
            "five refusals are allowed"
        );
        assert!(limits.refused(), "the sixth within ten seconds is flooding");
    }

    #[test]
    fn no_flood_limit_when_it_is_zero() {
        let config = Config {
            flood_refusals: 0,
            ..Config::for_tests()
        };
        let limits = Limits::new(&config);
        assert!((0..1000).all(|_| !limits.refused()));
    }
}
