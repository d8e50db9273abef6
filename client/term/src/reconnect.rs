//! Reconnection: how often and how long a session retries a dropped connection, and the
//! connection indicator the screens show.

use std::time::Duration;

/// How a session retries after its connection drops: `attempts` tries, the first after
/// `first_delay`, each later one waiting twice as long as the one before, at most `max_delay`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReconnectPolicy {
    /// Tries before the session gives up and reports [`Link::Failed`].
    pub attempts: u32,
    /// Wait before the first try.
    pub first_delay: Duration,
    /// Longest wait between two tries.
    pub max_delay: Duration,
    /// Longest wait for the server to answer while (re)entering a battle.
    pub answer_timeout: Duration,
}

impl Default for ReconnectPolicy {
    /// Twelve tries over about forty seconds: long enough for a server restart or a network
    /// blip, short enough that a person is not left staring at a frozen screen; after that
    /// the `r` key starts again.
    fn default() -> Self {
        ReconnectPolicy {
            attempts: 12,
            first_delay: Duration::from_millis(250),
            max_delay: Duration::from_secs(4),
            answer_timeout: Duration::from_secs(10),
        }
    }
}

impl ReconnectPolicy {
    /// The wait before try number `attempt` (1-based).
    pub fn delay(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(16);
        self.first_delay
            .saturating_mul(1u32 << doublings)
            .min(self.max_delay)
    }
}

/// The state of a session's connection, as the indicator shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Connected and following the battle.
    Connected,
    /// The connection dropped; try `attempt` of `of` is scheduled or running.
    Reconnecting {
        /// The try under way (1-based).
        attempt: u32,
        /// How many tries the policy allows.
        of: u32,
    },
    /// The session stopped following the battle, for the reason given.
    Failed(String),
}

impl Link {
    /// A short label for the indicator: `connected`, `reconnecting 2/6`, `failed`.
    pub fn label(&self) -> String {
        match self {
            Link::Connected => "connected".to_owned(),
            Link::Reconnecting { attempt, of } => format!("reconnecting {attempt}/{of}"),
            Link::Failed(_) => "failed".to_owned(),
        }
    }

    /// One sentence for status lines and plain mode.
    pub fn describe(&self) -> String {
        match self {
            Link::Connected => "connected".to_owned(),
            Link::Reconnecting { attempt, of } => {
                format!("connection lost; reconnecting (try {attempt} of {of})")
            }
            Link::Failed(why) => format!("disconnected: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_up_to_the_cap() {
        let p = ReconnectPolicy {
            attempts: 10,
            first_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(500),
            answer_timeout: Duration::from_secs(1),
        };
        let got: Vec<u128> = (1..=5).map(|a| p.delay(a).as_millis()).collect();
        assert_eq!(got, vec![100, 200, 400, 500, 500]);
        assert_eq!(p.delay(1000), Duration::from_millis(500));
    }

    #[test]
    fn labels() {
        assert_eq!(
            Link::Reconnecting { attempt: 2, of: 6 }.label(),
            "reconnecting 2/6"
        );
        assert_eq!(Link::Failed("x".into()).describe(), "disconnected: x");
    }
}
