//! What the accept loop does when accepting fails.
//!
//! An error that concerns one connection only (reset or aborted before it was accepted) is
//! skipped at once. Any other (out of file descriptors, EMFILE or ENFILE; out of memory or
//! buffers) starts an *episode*: the loop waits before it tries again, longer after each
//! failure up to [`MAX_DELAY`], and the log gets one line when the episode starts (with the
//! error) and one when accepting works again (with how many attempts failed), never one per
//! attempt.

use std::io;
use std::time::Duration;

use tokio::time::Instant;

/// The wait after the first failure of an episode.
pub const FIRST_DELAY: Duration = Duration::from_millis(10);

/// The longest wait between attempts.
pub const MAX_DELAY: Duration = Duration::from_secs(1);

/// What a failed accept was about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// One connection, already gone: accept the next at once.
    Connection,
    /// The server itself (file descriptors, memory): wait before trying again.
    Resources,
}

/// Sort an accept error.
pub fn classify(err: &io::Error) -> Failure {
    use io::ErrorKind::*;
    if matches!(
        err.kind(),
        ConnectionAborted | ConnectionReset | Interrupted | WouldBlock
    ) {
        return Failure::Connection;
    }
    #[cfg(unix)]
    if err.raw_os_error() == Some(libc::EPROTO) {
        return Failure::Connection;
    }
    Failure::Resources
}

/// An episode that ended: accepting works again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recovered {
    /// Attempts that failed during the episode.
    pub failed: u64,
    /// From the first failure to the first success.
    pub lasted: Duration,
}

#[derive(Debug, Clone, Copy)]
struct Episode {
    started: Instant,
    failed: u64,
    delay: Duration,
}

/// The accept loop's failures so far: the episode under way, if any.
#[derive(Debug, Default)]
pub struct AcceptBackoff {
    episode: Option<Episode>,
}

impl AcceptBackoff {
    /// An attempt failed at `now` for want of resources: how long to wait before the next,
    /// and whether this failure starts an episode (log it: the only line until it ends).
    pub fn failed(&mut self, now: Instant) -> (Duration, bool) {
        match &mut self.episode {
            Some(episode) => {
                episode.failed += 1;
                episode.delay = (episode.delay * 2).min(MAX_DELAY);
                (episode.delay, false)
            }
            None => {
                self.episode = Some(Episode {
                    started: now,
                    failed: 1,
                    delay: FIRST_DELAY,
                });
                (FIRST_DELAY, true)
            }
        }
    }

    /// An attempt succeeded at `now`: the episode it ends, if one was under way (log it).
    pub fn succeeded(&mut self, now: Instant) -> Option<Recovered> {
        self.episode.take().map(|episode| Recovered {
            failed: episode.failed,
            lasted: now.saturating_duration_since(episode.started),
        })
    }

    /// Whether an episode is under way.
    pub fn failing(&self) -> bool {
        self.episode.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_episode_logs_once_at_each_end_and_waits_longer_each_time() {
        let t0 = Instant::now();
        let mut backoff = AcceptBackoff::default();
        assert_eq!(backoff.succeeded(t0), None, "no episode: nothing to log");
        let mut delays = Vec::new();
        let mut starts = 0;
        for i in 0..12 {
            let (delay, started) = backoff.failed(t0 + Duration::from_millis(i));
            delays.push(delay.as_millis());
            starts += usize::from(started);
        }
        assert_eq!(starts, 1, "one line when the episode starts");
        assert_eq!(
            delays,
            [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000, 1000, 1000]
        );
        assert!(backoff.failing());
        let end = t0 + Duration::from_secs(5);
        assert_eq!(
            backoff.succeeded(end),
            Some(Recovered {
                failed: 12,
                lasted: Duration::from_secs(5)
            }),
            "one line when it works again, with the count"
        );
        assert_eq!(backoff.succeeded(end), None);
        // The next episode starts over.
        assert_eq!(backoff.failed(end), (FIRST_DELAY, true));
    }

    #[test]
    fn lost_connections_are_skipped_and_resource_errors_wait() {
        use io::ErrorKind;
        for kind in [ErrorKind::ConnectionAborted, ErrorKind::ConnectionReset] {
            assert_eq!(classify(&io::Error::from(kind)), Failure::Connection);
        }
        #[cfg(unix)]
        {
            for errno in [libc::EMFILE, libc::ENFILE, libc::ENOBUFS, libc::ENOMEM] {
                let err = io::Error::from_raw_os_error(errno);
                assert_eq!(classify(&err), Failure::Resources, "{err}");
            }
            let err = io::Error::from_raw_os_error(libc::ECONNABORTED);
            assert_eq!(classify(&err), Failure::Connection);
            let err = io::Error::from_raw_os_error(libc::EPROTO);
            assert_eq!(classify(&err), Failure::Connection);
        }
    }
}
