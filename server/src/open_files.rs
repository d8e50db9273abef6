//! The process's open-file limit (`RLIMIT_NOFILE`): every connection is a file descriptor,
//! so the limit sizes the default connection cap; the binary raises its soft limit to the
//! hard one at start, as a server that holds many sockets should.

/// File descriptors kept out of the connection cap: the listener, the store's files, the
/// runtime's own, and plain-HTTP refusals in flight (see
/// [`crate::connection::limits::REFUSALS_IN_FLIGHT`]).
pub const RESERVED: u64 = 128;

/// The cap on connections when none is configured: at most 50,000, and never so many that
/// the process would run out of file descriptors ([`RESERVED`] kept aside).
pub const MOST_CONNECTIONS: u64 = 50_000;

/// The most a soft limit is raised to: Linux's default `fs.nr_open`.
const NR_OPEN_DEFAULT: u64 = 1 << 20;

/// The current soft limit on open files, if the platform tells.
pub fn soft_limit() -> Option<u64> {
    limits().map(|(soft, _)| soft)
}

/// The default connection cap: [`MOST_CONNECTIONS`], or the soft open-file limit less
/// [`RESERVED`] when that is lower (at least 1).
pub fn default_max_connections() -> usize {
    let cap = match soft_limit() {
        Some(soft) => soft.saturating_sub(RESERVED).clamp(1, MOST_CONNECTIONS),
        None => MOST_CONNECTIONS,
    };
    usize::try_from(cap).unwrap_or(usize::MAX)
}

/// Raise the soft open-file limit to the hard limit; the soft limit in force afterwards.
/// Many systems start processes at a soft limit of 1,024, far below what the hard limit
/// allows a server.
// `rlim_t` is `u64` on Linux but not on every Unix: the casts stay.
// The two system calls are the only unsafe code in the server: no well-kept safe wrapper
// is among its dependencies, and each call's contract is stated beside it.
#[allow(clippy::unnecessary_cast, unsafe_code)]
pub fn raise_soft_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let (soft, hard) = limits()?;
        // An unlimited hard limit cannot be the soft one (Linux caps both at `fs.nr_open`,
        // 1,048,576 by default).
        let target = hard.min(NR_OPEN_DEFAULT);
        if soft < target {
            let raised = libc::rlimit {
                rlim_cur: target as libc::rlim_t,
                rlim_max: hard as libc::rlim_t,
            };
            // SAFETY: `setrlimit` only reads the struct passed by reference.
            if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } != 0 {
                return Some(soft);
            }
        }
        soft_limit()
    }
    #[cfg(not(unix))]
    None
}

/// The soft and hard limits on open files.
#[allow(clippy::unnecessary_cast, unsafe_code)]
fn limits() -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` writes into the struct passed by reference and nothing else.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
            return None;
        }
        Some((limit.rlim_cur as u64, limit.rlim_max as u64))
    }
    #[cfg(not(unix))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cap_leaves_room_for_the_servers_own_files() {
        let cap = default_max_connections() as u64;
        assert!((1..=MOST_CONNECTIONS).contains(&cap));
        if let Some(soft) = soft_limit() {
            assert!(cap + RESERVED <= soft.max(RESERVED + 1), "{cap} of {soft}");
        }
    }
}
