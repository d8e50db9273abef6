//! The command line of `battle-client loadtest`: [`LoadtestArgs`] and its value parsers.

use std::time::Duration;

use super::threshold::{Threshold, ThresholdError};

/// Options of `battle-client loadtest`.
///
/// Exit codes: 0 = the run completed and every --threshold held; 1 = the run completed but a
/// threshold failed; 2 = the run itself failed (no server answers at the address, no
/// connection could be opened, no battle could be started or every one failed, the server
/// refused what the run asks for, or the arguments are wrong).
#[derive(Debug, Clone, clap::Args)]
#[command(
    after_help = "Exit codes: 0 = run completed and every --threshold held; \
    1 = run completed but a threshold failed; 2 = the run itself failed (no server answers \
    at --server, no connection opened, no battle started or every battle failed, arguments \
    the server refused, bad arguments)."
)]
pub struct LoadtestArgs {
    /// Battles kept running at once (a new one starts as soon as one ends).
    #[arg(short = 'c', long, default_value_t = 100)]
    pub concurrency: usize,
    /// Spectator connections per battle.
    #[arg(short = 's', long, default_value_t = 2)]
    pub spectators: usize,
    /// Ruleset to play.
    #[arg(long, default_value = "synergy")]
    pub ruleset: String,
    /// The ruleset's sample to play, by name, as the server lists it in `welcome` (synergy:
    /// `pvp` or `pve`). Default: the first sample in which people play every seat. The
    /// client plays every seat of the sample the server's engine does not.
    #[arg(long)]
    pub sample: Option<String>,
    /// Create options as JSON, replacing the sample's (the sample still says which seats the
    /// client plays).
    #[arg(long)]
    pub options: Option<String>,
    /// Stop after this many battles have been started (and played out).
    #[arg(short = 'n', long)]
    pub battles: Option<u64>,
    /// Stop at this time, e.g. `30s`, `2m`, `500ms` (battles still running are abandoned).
    #[arg(short = 'd', long, default_value = "30s", value_parser = parse_duration)]
    pub duration: Duration,
    /// Battles started per second while ramping up to `--concurrency`.
    #[arg(long, default_value_t = 500.0)]
    pub ramp_per_sec: f64,
    /// The battles' `pace_ms`: the delay before each engine step and bot move, in
    /// milliseconds; 0 (the default) runs them as fast as the server goes. For rulesets
    /// that move by themselves (gambit's ticks), set it to play them at their own pace.
    #[arg(long, default_value_t = 0)]
    pub pace_ms: u64,
    /// Think time before each action, in milliseconds (1000 ≈ one action per second per
    /// battle, as players alternate).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// A connection waiting this long (plus the think time) for a message counts as stalled.
    #[arg(long, default_value_t = 10_000)]
    pub stall_ms: u64,
    /// Spread client sockets over source addresses 127.0.0.1 ..= 127.0.0.N.
    #[arg(long, default_value_t = 1)]
    pub source_addrs: u8,
    /// Allow a server that is not on a loopback address.
    #[arg(long)]
    pub allow_remote: bool,
    /// Spectators connect here instead of --server (repeat the flag, or separate URLs with
    /// commas: spectators are spread over them in turn). With a cluster, e.g. players on
    /// one node and spectators on another.
    #[arg(
        long = "spectator-server",
        value_name = "URL",
        value_delimiter = ',',
        value_parser = battle_client::server_url
    )]
    pub spectator_servers: Vec<String>,
    /// A connection that fails during the run (a node of a cluster killed) connects again
    /// to the next server of its list in turn and takes its place back in its battle
    /// (`rejoin` with the seat's token, or `spectate`), counted as a reconnect, instead of
    /// failing the battle. Players and creators go to the next --server, spectators to the
    /// next --spectator-server.
    #[arg(long)]
    pub reconnect: bool,
    /// The server's process id: sample its CPU time and RSS from /proc.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Another process of the service under load whose CPU time and RSS count with the
    /// server's (with --server-pid): for a node of a cluster, its `redis-server`.
    /// Repeatable.
    #[arg(long = "also-pid", value_name = "PID", requires = "server_pid")]
    pub also_pids: Vec<u32>,
    /// `table` (human-readable, default) or `json` (machine-readable) on stdout.
    #[arg(long, default_value = "table", value_parser = ["table", "json"])]
    pub output: String,
    /// A gate such as `p99<10ms`, `p95<=5ms`, `violations<1`, `actions_per_sec>1000`;
    /// repeatable. Exit code 0 when the run completed and every gate held, 1 when a gate
    /// failed (or its metric was not measured), 2 when the run itself failed.
    #[arg(long = "threshold", value_parser = parse_threshold)]
    pub thresholds: Vec<Threshold>,
    /// Every INTERVAL (e.g. `5s`, `200ms`), print one JSON line of progress to stderr:
    /// elapsed_s, battles so far, actions, actions_per_sec over the interval, p50/p95/p99 so
    /// far, errors. Replaces the live progress line; stops with the run.
    #[arg(long, value_name = "INTERVAL", value_parser = parse_interval)]
    pub progress_json: Option<Duration>,
    /// Seed for the client bots' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No live progress line (it is off anyway when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
}

/// A command line holding only the load test's options, to parse them on their own.
#[derive(clap::Parser)]
#[command(name = "loadtest", no_binary_name = true)]
struct Flags {
    #[command(flatten)]
    args: LoadtestArgs,
}

impl LoadtestArgs {
    /// Parse the load test's flags as they follow `battle-client loadtest` on a command line
    /// (defaults for the ones not given), for callers that run it as a library.
    pub fn from_flags<I, T>(flags: I) -> Result<LoadtestArgs, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::Parser as _;
        Flags::try_parse_from(flags).map(|flags| flags.args)
    }
}

fn parse_threshold(text: &str) -> Result<Threshold, String> {
    text.parse().map_err(|e: ThresholdError| e.to_string())
}

/// Parse `250ms`, `30s`, `2m` or a plain number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("bad duration {text:?}; e.g. 30s, 2m, 500ms"))?;
    Duration::try_from_secs_f64(value * scale).map_err(|e| format!("bad duration {text:?}: {e}"))
}

/// A duration that is not zero (an interval between two things).
fn parse_interval(text: &str) -> Result<Duration, String> {
    match parse_duration(text)? {
        Duration::ZERO => Err(format!("{text:?}: the interval must be longer than 0")),
        interval => Ok(interval),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("-1s").is_err());
        assert_eq!(parse_interval("200ms"), Ok(Duration::from_millis(200)));
        assert!(parse_interval("0s").is_err());
    }

    #[test]
    fn flags_parse_on_their_own() {
        let args = LoadtestArgs::from_flags(["-c", "3", "--progress-json", "5s"]).expect("valid");
        assert_eq!(args.concurrency, 3);
        assert_eq!(args.progress_json, Some(Duration::from_secs(5)));
        assert_eq!(args.duration, Duration::from_secs(30), "the default");
        assert!(LoadtestArgs::from_flags(["--progress-json", "0ms"]).is_err());
        assert!(LoadtestArgs::from_flags(["--threshold", "p95<"]).is_err());
        let args = LoadtestArgs::from_flags(["--threshold", "p95<5ms"]).expect("p95 is a metric");
        assert_eq!(args.thresholds.len(), 1);
    }

    #[test]
    fn help_states_the_exit_codes() {
        use clap::CommandFactory as _;
        let help = Flags::command().render_long_help().to_string();
        for needle in [
            "Exit codes: 0 =",
            "1 = run completed but a threshold failed",
            "2 = the run itself failed",
            "--progress-json <INTERVAL>",
        ] {
            assert!(help.contains(needle), "{needle:?} missing from\n{help}");
        }
    }
}
