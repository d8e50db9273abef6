//! CPU time and resident memory of a process, read from Linux's `/proc`.
//!
//! CPU seconds are `utime + stime` from `/proc/PID/stat` (fields 14 and 15, in clock ticks);
//! RSS is `VmRSS` from `/proc/PID/status`. Elsewhere than Linux every sample is `None`.

/// Clock ticks per second for `/proc/PID/stat`. Linux reports `USER_HZ`, which is 100 on
/// every architecture it runs on (the kernel converts from its internal `HZ`).
const TICKS_PER_SEC: f64 = 100.0;

/// One reading of a process's usage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Usage {
    /// User plus system CPU time so far, in seconds.
    pub cpu_secs: f64,
    /// Resident set size, in KiB.
    pub rss_kib: u64,
}

/// Read the usage of process `pid` (`None` if it is gone or `/proc` is unreadable).
pub fn sample(pid: u32) -> Option<Usage> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    Some(Usage {
        cpu_secs: parse_cpu_secs(&stat)?,
        rss_kib: parse_rss_kib(&status)?,
    })
}

/// The usage of processes `pids` added up (`None` if any of them cannot be read).
pub fn sample_all(pids: &[u32]) -> Option<Usage> {
    let mut sum = Usage {
        cpu_secs: 0.0,
        rss_kib: 0,
    };
    for &pid in pids {
        let usage = sample(pid)?;
        sum.cpu_secs += usage.cpu_secs;
        sum.rss_kib += usage.rss_kib;
    }
    Some(sum)
}

/// The usage of this process.
pub fn own() -> Option<Usage> {
    sample(std::process::id())
}

/// `utime + stime` in seconds from the text of `/proc/PID/stat`.
fn parse_cpu_secs(stat: &str) -> Option<f64> {
    // The command name (field 2) is in parentheses and may hold spaces: split after it.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // `fields[0]` is field 3 (state), so field N is `fields[N - 3]`.
    let utime: u64 = fields.get(14 - 3)?.parse().ok()?;
    let stime: u64 = fields.get(15 - 3)?.parse().ok()?;
    Some((utime + stime) as f64 / TICKS_PER_SEC)
}

/// `VmRSS` in KiB from the text of `/proc/PID/status`.
fn parse_rss_kib(status: &str) -> Option<u64> {
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_with_spaces_in_the_name() {
        let stat = "4242 (battle server) S 1 4242 4242 0 -1 4194560 1200 0 0 0 250 75 0 0 20 0 \
                    9 0 12345 100000000 2000 18446744073709551615";
        assert_eq!(parse_cpu_secs(stat), Some(3.25));
        assert_eq!(parse_cpu_secs("garbage"), None);
    }

    #[test]
    fn parses_status_rss() {
        let status = "Name:\tbattle-server\nVmPeak:\t  9000 kB\nVmRSS:\t   5120 kB\nThreads:\t3\n";
        assert_eq!(parse_rss_kib(status), Some(5120));
        assert_eq!(parse_rss_kib("Name:\tx\n"), None);
    }

    #[test]
    fn reads_this_process() {
        if cfg!(target_os = "linux") {
            let usage = own().expect("/proc/self is readable on Linux");
            assert!(usage.rss_kib > 0);
            assert!(usage.cpu_secs >= 0.0);
            let me = std::process::id();
            let twice = sample_all(&[me, me]).expect("readable twice");
            assert!(twice.rss_kib >= usage.rss_kib * 3 / 2, "added up");
            assert_eq!(sample_all(&[me, u32::MAX]), None, "no such process");
        }
    }
}
