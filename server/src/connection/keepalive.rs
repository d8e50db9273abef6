//! When a connection is pinged, and when it is closed for silence or for idleness: a pure
//! state machine that the connection's reader consults whenever its one timer fires.
//!
//! Every `ping_interval` the server pings the connection; a connection from which nothing at
//! all arrives (a pong, a message, anything) within `pong_timeout` of a ping is closed with
//! 1011. A connection that has been in no battle, and has sent no request other than `ping`,
//! for `idle` is closed with 1000. The reader only raises a flag when something arrives and
//! hands it over at the next look, so a frame costs nothing here; the timer is re-armed only
//! when it fires (once per interval, or at a deadline).

use std::time::Duration;

use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// How far off "never" is: a timer nothing needs is armed this far ahead.
const NEVER: Duration = Duration::from_secs(365 * 24 * 3600);

/// The timeouts, from the server's settings; a zero duration turns its check off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// How often the server pings every connection (zero: never, and no pong is awaited).
    pub ping_interval: Duration,
    /// How long after a ping a connection may stay silent.
    pub pong_timeout: Duration,
    /// How long a connection may stay in no battle without a request.
    pub idle: Duration,
}

/// Why a connection is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Expiry {
    /// Nothing arrived within the pong timeout after a ping: the client or the path to it is
    /// gone. Close code 1011, as keepalive timeouts are commonly closed.
    #[error("keepalive timeout: no pong within {0:?} of a ping")]
    NoPong(Duration),
    /// In no battle and no request for the idle time. Close code 1000: nothing is wrong,
    /// the connection is simply not used.
    #[error("idle: in no battle and no request for {0:?}")]
    Idle(Duration),
}

impl Expiry {
    /// The close code it is sent with.
    pub fn close_code(&self) -> CloseCode {
        match self {
            Expiry::NoPong(_) => CloseCode::Error,
            Expiry::Idle(_) => CloseCode::Normal,
        }
    }
}

/// What the reader does after a look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// Nothing to do; look again at this time.
    Wait(Instant),
    /// Send a ping; look again at this time.
    Ping(Instant),
    /// Close the connection.
    Close(Expiry),
}

/// One connection's keepalive and idle state.
#[derive(Debug)]
pub struct Keepalive {
    timeouts: Timeouts,
    /// When the next ping is due (far off when pings are off).
    next_ping: Instant,
    /// The first ping nothing has arrived after.
    unanswered: Option<Instant>,
}

impl Keepalive {
    /// The state of a connection opened at `now`.
    pub fn new(timeouts: Timeouts, now: Instant) -> Keepalive {
        Keepalive {
            timeouts,
            next_ping: after(now, timeouts.ping_interval),
            unanswered: None,
        }
    }

    /// When the first look is due, for a connection that opened at `now` in no battle.
    pub fn first_look(&self, now: Instant) -> Instant {
        self.next_look(Some(now))
    }

    /// Look at the connection at `now`: `heard` says whether anything arrived since the last
    /// look; `idle_since` when the connection last left its battles or made a request while
    /// in none (`None` while it is in a battle).
    pub fn look(&mut self, now: Instant, heard: bool, idle_since: Option<Instant>) -> Look {
        if heard {
            self.unanswered = None;
        }
        if let Some(pinged) = self.unanswered {
            if now >= pinged + self.timeouts.pong_timeout {
                return Look::Close(Expiry::NoPong(self.timeouts.pong_timeout));
            }
        }
        if let Some(since) = idle_since {
            if !self.timeouts.idle.is_zero() && now >= since + self.timeouts.idle {
                return Look::Close(Expiry::Idle(self.timeouts.idle));
            }
        }
        let due = now >= self.next_ping;
        let ping = due && !self.timeouts.ping_interval.is_zero();
        if due {
            self.next_ping = after(now, self.timeouts.ping_interval);
        }
        if ping {
            self.unanswered.get_or_insert(now);
        }
        let next = self.next_look(idle_since);
        if ping {
            Look::Ping(next)
        } else {
            Look::Wait(next)
        }
    }

    /// The earliest of the next ping, the pong deadline and the idle deadline.
    fn next_look(&self, idle_since: Option<Instant>) -> Instant {
        let mut next = self.next_ping;
        if let Some(pinged) = self.unanswered {
            next = next.min(pinged + self.timeouts.pong_timeout);
        }
        if let Some(since) = idle_since {
            if !self.timeouts.idle.is_zero() {
                next = next.min(since + self.timeouts.idle);
            }
        }
        next
    }
}

/// `at + wait`, or far off when `wait` is zero (the check is off).
fn after(at: Instant, wait: Duration) -> Instant {
    if wait.is_zero() {
        at + NEVER
    } else {
        at + wait
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    fn defaults() -> Timeouts {
        Timeouts {
            ping_interval: 15 * S,
            pong_timeout: 25 * S,
            idle: 60 * S,
        }
    }

    #[test]
    fn every_interval_a_ping_and_an_answer_keeps_the_connection() {
        let t0 = Instant::now();
        let mut k = Keepalive::new(defaults(), t0);
        // In a battle from the start: only pings matter.
        assert_eq!(k.first_look(t0), t0 + 15 * S);
        assert_eq!(k.look(t0 + 15 * S, false, None), Look::Ping(t0 + 30 * S));
        // The pong arrived before the next look.
        assert_eq!(k.look(t0 + 30 * S, true, None), Look::Ping(t0 + 45 * S));
        assert_eq!(k.look(t0 + 45 * S, true, None), Look::Ping(t0 + 60 * S));
    }

    #[test]
    fn silence_after_a_ping_closes_at_the_pong_deadline() {
        let t0 = Instant::now();
        let mut k = Keepalive::new(defaults(), t0);
        assert_eq!(k.look(t0 + 15 * S, false, None), Look::Ping(t0 + 30 * S));
        // Another ping is due before the deadline of the first; the deadline stays.
        assert_eq!(k.look(t0 + 30 * S, false, None), Look::Ping(t0 + 40 * S));
        assert_eq!(
            k.look(t0 + 40 * S, false, None),
            Look::Close(Expiry::NoPong(25 * S))
        );
    }

    #[test]
    fn anything_heard_after_a_ping_answers_it() {
        let t0 = Instant::now();
        let mut k = Keepalive::new(defaults(), t0);
        assert_eq!(k.look(t0 + 15 * S, false, None), Look::Ping(t0 + 30 * S));
        assert_eq!(k.look(t0 + 30 * S, false, None), Look::Ping(t0 + 40 * S));
        // Something came between 30 s and 40 s: the deadline is gone, pings go on.
        assert_eq!(k.look(t0 + 40 * S, true, None), Look::Wait(t0 + 45 * S));
        assert_eq!(k.look(t0 + 45 * S, false, None), Look::Ping(t0 + 60 * S));
    }

    #[test]
    fn a_connection_in_no_battle_closes_when_idle() {
        let t0 = Instant::now();
        let mut k = Keepalive::new(defaults(), t0);
        let idle = Some(t0);
        for at in [15, 30, 45] {
            assert!(matches!(k.look(t0 + at * S, true, idle), Look::Ping(_)));
        }
        // Answering pings is not activity.
        assert_eq!(
            k.look(t0 + 60 * S, true, idle),
            Look::Close(Expiry::Idle(60 * S))
        );
        // A request at 50 s moved the idle clock: the close waits until 110 s.
        let mut k = Keepalive::new(defaults(), t0);
        let later = Some(t0 + 50 * S);
        assert_eq!(k.look(t0 + 15 * S, true, idle), Look::Ping(t0 + 30 * S));
        assert!(matches!(k.look(t0 + 60 * S, true, later), Look::Ping(_)));
        assert_eq!(
            k.look(t0 + 110 * S, true, later),
            Look::Close(Expiry::Idle(60 * S))
        );
    }

    #[test]
    fn the_idle_deadline_comes_between_pings() {
        let t0 = Instant::now();
        let timeouts = Timeouts {
            idle: 20 * S,
            ..defaults()
        };
        let mut k = Keepalive::new(timeouts, t0);
        assert_eq!(k.first_look(t0), t0 + 15 * S);
        assert_eq!(
            k.look(t0 + 15 * S, false, Some(t0)),
            Look::Ping(t0 + 20 * S)
        );
        assert_eq!(
            k.look(t0 + 20 * S, true, Some(t0)),
            Look::Close(Expiry::Idle(20 * S))
        );
    }

    #[test]
    fn zero_turns_a_check_off() {
        let t0 = Instant::now();
        let off = Timeouts {
            ping_interval: Duration::ZERO,
            pong_timeout: 25 * S,
            idle: Duration::ZERO,
        };
        let mut k = Keepalive::new(off, t0);
        let first = k.first_look(t0);
        assert!(first > t0 + 300 * 24 * 3600 * S, "no look is needed");
        assert_eq!(k.look(first, false, Some(t0)), Look::Wait(first + NEVER));
    }

    #[test]
    fn close_codes() {
        assert_eq!(Expiry::NoPong(S).close_code(), CloseCode::Error);
        assert_eq!(Expiry::Idle(S).close_code(), CloseCode::Normal);
        assert_eq!(u16::from(CloseCode::Error), 1011);
    }
}
