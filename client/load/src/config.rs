//! [`LoadConfig`]: everything one load test run is set up with, from the command line's
//! options and the rulesets the server offers, or built directly by library callers.

use std::time::Duration;

use anyhow::Context;
use battle_protocol::{RulesetInfo, Seat};
use serde_json::{json, Value};

use super::args::LoadtestArgs;
use super::progress::ProgressSink;
use super::threshold::Threshold;
use battle_client::samples;

/// Everything one load test run is set up with (the library form of [`LoadtestArgs`]).
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// WebSocket URLs of the servers players and creators connect to, in turn (the nodes of
    /// a cluster, or one server); never empty.
    pub servers: Vec<String>,
    /// WebSocket URLs spectators connect to, in turn; empty: the same as `servers`.
    pub spectator_servers: Vec<String>,
    /// A connection that fails during the run connects again to the next server and takes
    /// its place back in its battle (`rejoin` or `spectate`), counted as a reconnect,
    /// instead of failing the battle.
    pub reconnect: bool,
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
    /// The battles' `pace_ms` (engine steps and bot moves).
    pub pace_ms: u64,
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
    /// Other processes whose CPU and RSS count with the server's (a cluster node's
    /// `redis-server`); only with `server_pid`.
    pub also_pids: Vec<u32>,
    /// Gates checked at the end.
    pub thresholds: Vec<Threshold>,
    /// Seed for the bots.
    pub seed: u64,
    /// Draw a live progress line on stderr (only when it is a terminal and
    /// `progress_json` is off).
    pub progress: bool,
    /// Write a [`ProgressLine`](super::ProgressLine) to `progress_sink` this often.
    pub progress_json: Option<Duration>,
    /// Where the progress JSON lines go.
    pub progress_sink: ProgressSink,
}

impl LoadConfig {
    /// Defaults: synergy's `pvp` sample (both seats played by the client), 2 spectators, 10
    /// concurrent battles for 10 s, no think time, no progress line and no progress JSON.
    pub fn new(url: impl Into<String>) -> LoadConfig {
        LoadConfig {
            servers: vec![url.into()],
            spectator_servers: Vec::new(),
            reconnect: false,
            ruleset: "synergy".into(),
            sample: "pvp".into(),
            options: json!({"mode": "pvp"}),
            seats: vec![0, 1],
            spectators: 2,
            concurrency: 10,
            battles: None,
            duration: Duration::from_secs(10),
            ramp_per_sec: 500.0,
            pace_ms: 0,
            think: Duration::ZERO,
            stall_timeout: Duration::from_secs(10),
            source_addrs: 1,
            allow_remote: false,
            server_pid: None,
            also_pids: Vec::new(),
            thresholds: Vec::new(),
            seed: 1,
            progress: false,
            progress_json: None,
            progress_sink: ProgressSink::Stderr,
        }
    }

    /// Build from the servers (`--server`, players and creators), the command line's
    /// options and the rulesets the servers offer.
    pub fn from_args(
        servers: &[String],
        args: &LoadtestArgs,
        rulesets: &[RulesetInfo],
    ) -> anyhow::Result<LoadConfig> {
        let url = servers.first().context("no --server given")?;
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
            pace_ms: args.pace_ms,
            think: Duration::from_millis(args.think_ms),
            stall_timeout: Duration::from_millis(args.stall_ms + args.think_ms),
            source_addrs: args.source_addrs,
            allow_remote: args.allow_remote,
            server_pid: args.server_pid,
            also_pids: args.also_pids.clone(),
            thresholds: args.thresholds.clone(),
            seed: args.seed,
            progress: !args.quiet,
            progress_json: args.progress_json,
            servers: servers.to_vec(),
            spectator_servers: args.spectator_servers.clone(),
            reconnect: args.reconnect,
            ..LoadConfig::new(url.as_str())
        })
    }

    /// The processes whose usage the report counts as the server's: `server_pid` and
    /// `also_pids` (none without `server_pid`).
    pub fn server_pids(&self) -> Vec<u32> {
        match self.server_pid {
            Some(pid) => std::iter::once(pid)
                .chain(self.also_pids.iter().copied())
                .collect(),
            None => Vec::new(),
        }
    }

    /// The first server players connect to (where the run asks which rulesets there are).
    pub fn url(&self) -> &str {
        self.servers.first().map_or("", String::as_str)
    }

    /// Seats the client plays per battle.
    pub fn players(&self) -> usize {
        self.seats.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_become_a_config() {
        let args = LoadtestArgs::from_flags([
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
        let config = LoadConfig::from_args(&one(), &args, &synergy()).expect("config");
        assert_eq!(config.concurrency, 7);
        assert_eq!(config.seats, vec![0], "seat 1 is the Training Automaton's");
        assert_eq!(config.options, json!({"mode": "pve"}));
        assert_eq!(config.thresholds.len(), 2);
        assert_eq!(config.think, Duration::from_secs(1));
        assert_eq!(config.stall_timeout, Duration::from_secs(11));
        assert_eq!(config.progress_json, None);
        assert!(LoadtestArgs::from_flags(["--threshold", "p99~3"]).is_err());
        let default = LoadtestArgs::from_flags(Vec::<String>::new()).expect("defaults");
        let config = LoadConfig::from_args(&one(), &default, &synergy()).expect("config");
        assert_eq!(
            (config.sample.as_str(), config.seats.as_slice()),
            ("pvp", &[0, 1][..])
        );
        assert_eq!(config.servers, one());
        assert!(config.spectator_servers.is_empty() && !config.reconnect);
        let apart = LoadtestArgs::from_flags([
            "--spectator-server",
            "ws://127.0.0.1:2,127.0.0.1:3",
            "--spectator-server",
            "4",
            "--reconnect",
        ])
        .expect("valid flags");
        let config = LoadConfig::from_args(&one(), &apart, &synergy()).expect("config");
        assert_eq!(
            config.spectator_servers,
            ["ws://127.0.0.1:2", "ws://127.0.0.1:3", "ws://127.0.0.1:4"]
        );
        assert!(config.reconnect);
        let unknown = LoadtestArgs::from_flags(["--sample", "coop"]).expect("parses");
        let err = LoadConfig::from_args(&one(), &unknown, &synergy()).expect_err("no such sample");
        assert!(
            err.to_string().contains("its samples are pve, pvp"),
            "{err}"
        );
    }

    fn one() -> Vec<String> {
        vec!["ws://127.0.0.1:1".into()]
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
