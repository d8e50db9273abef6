//! `battle-client loadtest`: many concurrent battles driven by client-side bots, measured.
//!
//! The run keeps `concurrency` battles going at once. Each is played by a *slot*: its own
//! player connections (two in PvP, one in PvE where seat 1 is the server's automaton) and
//! spectator connections, which play battle after battle (module `slot`). Player bots pick a
//! random action among the view's `legal` list. The run stops at its deadline or when the
//! battle budget is spent, whichever comes first, and returns a [`Report`].
//!
//! Figures: action latency (`act` → the answer carrying its `req`), spectator lag (see
//! `drive::lags`), actions/s, frames and bytes/s, errors by kind, protocol violations, and —
//! with the server's pid — the server's CPU seconds and RSS from `/proc`.

mod buffers;
mod drive;
mod frame;
mod handshake;
mod link;
mod monitor;
mod node;
mod patch;
mod procfs;
mod reader;
mod report;
mod slot;
mod stats;
mod target;
mod threshold;
mod view;
mod wire;

use std::process::ExitCode;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use battle_protocol::{RulesetInfo, Seat};
use serde_json::{json, Value};
use tokio::task::JoinSet;
use tokio::time::Instant;

pub use report::{Report, ServerUsage};

use crate::samples;
pub use stats::LatencySummary;
pub use threshold::{Threshold, ThresholdError, Verdict};

use slot::Shared;
use stats::{Series, Stats};

/// Time given to slots to notice the deadline before they are aborted.
const GRACE: Duration = Duration::from_secs(5);

/// Options of `battle-client loadtest`.
#[derive(Debug, Clone, clap::Args)]
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
    /// The server's process id: sample its CPU time and RSS from /proc.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// `table` (human-readable, default) or `json` (machine-readable) on stdout.
    #[arg(long, default_value = "table", value_parser = ["table", "json"])]
    pub output: String,
    /// A gate such as `p99<10ms`, `violations<1`, `actions_per_sec>1000`; any failed gate
    /// makes the exit code 1. Repeatable.
    #[arg(long = "threshold", value_parser = parse_threshold)]
    pub thresholds: Vec<Threshold>,
    /// Seed for the client bots' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No live progress line (it is off anyway when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
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

/// Everything one load test run is set up with (the library form of [`LoadtestArgs`]).
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// WebSocket URL of the server.
    pub url: String,
    /// Ruleset to play.
    pub ruleset: String,
    /// The sample played, by name (for the report).
    pub sample: String,
    /// `create` options.
    pub options: Value,
    /// Seats the client plays (the sample's seats the server's engine does not play).
    pub seats: Vec<Seat>,
    /// Spectator connections per battle.
    pub spectators: usize,
    /// Battles kept running at once.
    pub concurrency: usize,
    /// Stop after this many battles have been started.
    pub battles: Option<u64>,
    /// Stop after this long.
    pub duration: Duration,
    /// Battles started per second while ramping up.
    pub ramp_per_sec: f64,
    /// Pause before each action.
    pub think: Duration,
    /// Longest wait for a message before a connection counts as stalled.
    pub stall_timeout: Duration,
    /// Source addresses to spread connections over (1 = let the kernel choose).
    pub source_addrs: u8,
    /// Allow non-loopback servers.
    pub allow_remote: bool,
    /// Server process to sample.
    pub server_pid: Option<u32>,
    /// Gates checked at the end.
    pub thresholds: Vec<Threshold>,
    /// Seed for the bots.
    pub seed: u64,
    /// Draw a live progress line on stderr (only when it is a terminal).
    pub progress: bool,
}

impl LoadConfig {
    /// Defaults: synergy's `pvp` sample (both seats played by the client), 2 spectators, 10
    /// concurrent battles for 10 s, no think time, no progress line.
    pub fn new(url: impl Into<String>) -> LoadConfig {
        LoadConfig {
            url: url.into(),
            ruleset: "synergy".into(),
            sample: "pvp".into(),
            options: json!({"mode": "pvp"}),
            seats: vec![0, 1],
            spectators: 2,
            concurrency: 10,
            battles: None,
            duration: Duration::from_secs(10),
            ramp_per_sec: 500.0,
            think: Duration::ZERO,
            stall_timeout: Duration::from_secs(10),
            source_addrs: 1,
            allow_remote: false,
            server_pid: None,
            thresholds: Vec::new(),
            seed: 1,
            progress: false,
        }
    }

    /// Build from the command line's options and the rulesets the server offers.
    pub fn from_args(
        url: &str,
        args: &LoadtestArgs,
        rulesets: &[RulesetInfo],
    ) -> anyhow::Result<LoadConfig> {
        let ruleset = samples::ruleset(rulesets, &args.ruleset).map_err(anyhow::Error::msg)?;
        let sample = match &args.sample {
            Some(name) => samples::named(ruleset, name).map_err(anyhow::Error::msg)?,
            None => samples::for_load(ruleset)
                .with_context(|| format!("the server lists no sample of {}", ruleset.id))?,
        };
        let options = match &args.options {
            Some(text) => serde_json::from_str(text).context("--options is not JSON")?,
            None => sample.options.clone(),
        };
        Ok(LoadConfig {
            ruleset: args.ruleset.clone(),
            sample: sample.name.clone(),
            options,
            seats: samples::people_seats(sample),
            spectators: args.spectators,
            concurrency: args.concurrency,
            battles: args.battles,
            duration: args.duration,
            ramp_per_sec: args.ramp_per_sec,
            think: Duration::from_millis(args.think_ms),
            stall_timeout: Duration::from_millis(args.stall_ms + args.think_ms),
            source_addrs: args.source_addrs,
            allow_remote: args.allow_remote,
            server_pid: args.server_pid,
            thresholds: args.thresholds.clone(),
            seed: args.seed,
            progress: !args.quiet,
            ..LoadConfig::new(url)
        })
    }

    /// Seats the client plays per battle.
    pub fn players(&self) -> usize {
        self.seats.len()
    }
}

/// Run a load test against `server` and return the process exit code: 0 when every
/// threshold held, 1 otherwise.
pub async fn run(server: &str, args: LoadtestArgs) -> anyhow::Result<ExitCode> {
    let rulesets = samples::welcome(server)
        .await
        .with_context(|| format!("asking {server} which rulesets it offers"))?;
    let config = LoadConfig::from_args(server, &args, &rulesets)?;
    let report = run_with(config).await?;
    if args.output == "json" {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.table());
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Counter values at one moment, to measure a window.
#[derive(Debug, Clone, Copy)]
struct Mark {
    at: Instant,
    actions: u64,
    frames_in: u64,
    bytes_in: u64,
    frames_out: u64,
    server: Option<procfs::Usage>,
    client: Option<procfs::Usage>,
}

impl Mark {
    fn now(stats: &Stats, pid: Option<u32>) -> Mark {
        Mark {
            at: Instant::now(),
            actions: Stats::get(&stats.actions),
            frames_in: Stats::get(&stats.frames_in),
            bytes_in: Stats::get(&stats.bytes_in),
            frames_out: Stats::get(&stats.frames_out),
            server: pid.and_then(procfs::sample),
            client: procfs::own(),
        }
    }
}

/// Run a load test and return what it measured. Bounded by `config.duration` (plus a few
/// seconds of grace for the slots to stop).
pub async fn run_with(config: LoadConfig) -> anyhow::Result<Report> {
    if config.concurrency == 0 || config.players() == 0 {
        bail!("concurrency and players must be at least 1");
    }
    if config.ramp_per_sec.is_nan() || config.ramp_per_sec <= 0.0 {
        bail!("--ramp-per-sec must be positive");
    }
    let target =
        target::Target::resolve(&config.url, config.allow_remote, config.source_addrs).await?;
    let pid = config.server_pid;
    let server_start = match pid {
        Some(pid) => Some(procfs::sample(pid).with_context(|| format!("cannot read /proc/{pid}"))?),
        None => None,
    };
    let start = Instant::now();
    let shared = Arc::new(Shared {
        deadline: start + config.duration,
        config,
        target,
        stats: Stats::new(),
        tickets: AtomicU64::new(0),
        slots_ready: AtomicU64::new(0),
    });
    let (stop_monitor, monitor) =
        monitor::spawn(shared.clone(), start, server_start.map_or(0, |u| u.rss_kib));

    let mut slots = JoinSet::new();
    let interval = Duration::from_secs_f64(1.0 / shared.config.ramp_per_sec);
    let budget = shared.config.battles.unwrap_or(u64::MAX);
    for i in 0..shared.config.concurrency {
        let at = start + interval.mul_f64(i as f64);
        if at >= shared.deadline || i as u64 >= budget {
            break;
        }
        tokio::time::sleep_until(at).await;
        slots.spawn(slot::run(shared.clone(), i as u64));
    }
    let spawned = slots.len() as u64;

    // The measured window opens once every slot has its connections.
    let mut window_start = None;
    let mut window_end = None;
    let deadline = tokio::time::sleep_until(shared.deadline);
    tokio::pin!(deadline);
    loop {
        if window_start.is_none() && Stats::get(&shared.slots_ready) >= spawned {
            window_start = Some(Mark::now(&shared.stats, pid));
        }
        tokio::select! {
            joined = slots.join_next() => {
                if joined.is_none() {
                    break;
                }
            }
            () = &mut deadline, if window_end.is_none() => {
                // Sample while the connections are still open.
                window_end = Some(Mark::now(&shared.stats, pid));
                break;
            }
            () = tokio::time::sleep(Duration::from_millis(20)), if window_start.is_none() => {}
        }
    }
    let window_end = window_end.unwrap_or_else(|| Mark::now(&shared.stats, pid));
    if tokio::time::timeout(GRACE, async { while slots.join_next().await.is_some() {} })
        .await
        .is_err()
    {
        slots.abort_all();
    }
    let elapsed = start.elapsed();
    let _ = stop_monitor.send(());
    let peak_rss = monitor.await.unwrap_or(0);
    let window_start = window_start.unwrap_or(Mark {
        at: start,
        actions: 0,
        frames_in: 0,
        bytes_in: 0,
        frames_out: 0,
        server: server_start,
        client: None,
    });
    Ok(build_report(
        &shared,
        elapsed,
        window_start,
        window_end,
        server_start,
        peak_rss,
    ))
}

fn build_report(
    shared: &Shared,
    elapsed: Duration,
    from: Mark,
    to: Mark,
    server_start: Option<procfs::Usage>,
    peak_rss: u64,
) -> Report {
    let config = &shared.config;
    let stats = &shared.stats;
    let window = to
        .at
        .saturating_duration_since(from.at)
        .as_secs_f64()
        .max(1e-9);
    let rate = |a: u64, b: u64| b.saturating_sub(a) as f64 / window;
    let actions = to.actions.saturating_sub(from.actions);
    let server = match (config.server_pid, server_start, from.server, to.server) {
        (Some(pid), Some(start), Some(a), Some(b)) => {
            let cpu = (b.cpu_secs - a.cpu_secs).max(0.0);
            let peak = peak_rss.max(b.rss_kib).max(start.rss_kib);
            Some(ServerUsage {
                pid,
                cpu_secs: cpu,
                cpu_secs_per_1000_actions: (actions > 0).then(|| cpu * 1000.0 / actions as f64),
                cpu_cores: cpu / window,
                rss_start_kib: start.rss_kib,
                rss_end_kib: b.rss_kib,
                rss_peak_kib: peak,
                rss_per_battle_kib: Some((peak - start.rss_kib) as f64 / config.concurrency as f64),
            })
        }
        _ => None,
    };
    let mut report = Report {
        url: config.url.clone(),
        ruleset: config.ruleset.clone(),
        sample: config.sample.clone(),
        options: config.options.clone(),
        concurrency: config.concurrency,
        players: config.players(),
        spectators: config.spectators,
        think_ms: u64::try_from(config.think.as_millis()).unwrap_or(u64::MAX),
        source_addrs: config.source_addrs,
        elapsed_secs: elapsed.as_secs_f64(),
        window_secs: window,
        battles_started: Stats::get(&stats.battles_started),
        battles_completed: Stats::get(&stats.battles_completed),
        battles_abandoned: Stats::get(&stats.battles_abandoned),
        actions: Stats::get(&stats.actions),
        actions_per_sec: rate(from.actions, to.actions),
        frames_in: Stats::get(&stats.frames_in),
        frames_out: Stats::get(&stats.frames_out),
        bytes_in: Stats::get(&stats.bytes_in),
        bytes_out: Stats::get(&stats.bytes_out),
        frames_in_per_sec: rate(from.frames_in, to.frames_in),
        bytes_in_per_sec: rate(from.bytes_in, to.bytes_in),
        frames_out_per_sec: rate(from.frames_out, to.frames_out),
        latency: stats.summary(Series::Action),
        spectator_lag: stats.summary(Series::SpectatorLag),
        act_to_spectator: stats.summary(Series::ActToSpectator),
        lag_unaligned_battles: Stats::get(&stats.lag_unaligned),
        error_total: stats.error_total(),
        errors: stats.errors(),
        violation_total: stats.violation_total(),
        violations: stats.violations(),
        server,
        client_cpu_secs: match (from.client, to.client) {
            (Some(a), Some(b)) => Some((b.cpu_secs - a.cpu_secs).max(0.0)),
            _ => None,
        },
        thresholds: Vec::new(),
    };
    report.thresholds = config.thresholds.iter().map(|t| t.check(&report)).collect();
    report
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
    }

    #[test]
    fn args_become_a_config() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: LoadtestArgs,
        }
        let cli = Cli::try_parse_from([
            "x",
            "-c",
            "7",
            "--sample",
            "pve",
            "--threshold",
            "p99<10ms",
            "--threshold",
            "violations<1",
            "--think-ms",
            "1000",
            "--duration",
            "5s",
        ])
        .expect("valid flags");
        let config =
            LoadConfig::from_args("ws://127.0.0.1:1", &cli.args, &synergy()).expect("config");
        assert_eq!(config.concurrency, 7);
        assert_eq!(config.seats, vec![0], "seat 1 is the Training Automaton's");
        assert_eq!(config.options, json!({"mode": "pve"}));
        assert_eq!(config.thresholds.len(), 2);
        assert_eq!(config.think, Duration::from_secs(1));
        assert_eq!(config.stall_timeout, Duration::from_secs(11));
        assert!(Cli::try_parse_from(["x", "--threshold", "p99~3"]).is_err());
        let default = Cli::try_parse_from(["x"]).expect("defaults");
        let config =
            LoadConfig::from_args("ws://127.0.0.1:1", &default.args, &synergy()).expect("config");
        assert_eq!(
            (config.sample.as_str(), config.seats.as_slice()),
            ("pvp", &[0, 1][..])
        );
        let unknown = Cli::try_parse_from(["x", "--sample", "coop"]).expect("parses");
        let err = LoadConfig::from_args("ws://127.0.0.1:1", &unknown.args, &synergy())
            .expect_err("no such sample");
        assert!(
            err.to_string().contains("its samples are pve, pvp"),
            "{err}"
        );
    }

    /// What a server offering synergy lists in `welcome`.
    fn synergy() -> Vec<RulesetInfo> {
        let sample = |name: &str, engine: Vec<Seat>| battle_protocol::SampleInfo {
            name: name.into(),
            about: String::new(),
            options: json!({"mode": name}),
            seats: 2,
            engine_seats: engine,
        };
        vec![RulesetInfo {
            id: "synergy".into(),
            version: 1,
            summary: String::new(),
            min_seats: 2,
            max_seats: 2,
            samples: vec![sample("pve", vec![1]), sample("pvp", vec![])],
        }]
    }
}
