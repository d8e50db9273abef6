//! One load test run: start the slots at the ramp's pace, open the measured window once every
//! slot has its connections, stop at the deadline (or the battle budget, or a slot's report
//! that the run cannot go on), then build the [`Report`].

use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use tokio::task::JoinSet;
use tokio::time::Instant;

use super::report::{Report, ServerUsage};
use super::slot::{self, Shared};
use super::stats::{Series, Stats};
use super::{monitor, procfs, status, target, LoadConfig};

/// Time given to slots to notice the deadline before they are aborted.
const GRACE: Duration = Duration::from_secs(5);

/// Counter values at one moment, to measure a window.
#[derive(Debug, Clone, Copy)]
struct Mark {
    at: Instant,
    actions: u64,
    ticks: u64,
    frames_in: u64,
    bytes_in: u64,
    frames_out: u64,
    server: Option<procfs::Usage>,
    client: Option<procfs::Usage>,
}

impl Mark {
    fn now(stats: &Stats, pids: &[u32]) -> Mark {
        Mark {
            at: Instant::now(),
            actions: Stats::get(&stats.actions),
            ticks: Stats::get(&stats.ticks),
            frames_in: Stats::get(&stats.frames_in),
            bytes_in: Stats::get(&stats.bytes_in),
            frames_out: Stats::get(&stats.frames_out),
            server: (!pids.is_empty())
                .then(|| procfs::sample_all(pids))
                .flatten(),
            client: procfs::own(),
        }
    }
}

/// Run a load test and return what it measured. Bounded by `config.duration` (plus a few
/// seconds of grace for the slots to stop).
///
/// A run that could not be set up (bad settings, a non-loopback server without
/// `allow_remote`) is an `Err`; a run that went but failed (no connection, no battle
/// started) is a report whose [`Report::failure`] says why.
pub async fn run_with(config: LoadConfig) -> anyhow::Result<Report> {
    if config.concurrency == 0 || config.players() == 0 {
        bail!("concurrency and players must be at least 1");
    }
    if config.ramp_per_sec.is_nan() || config.ramp_per_sec <= 0.0 {
        bail!("--ramp-per-sec must be positive");
    }
    if config.progress_json == Some(Duration::ZERO) {
        bail!("the --progress-json interval must be longer than 0");
    }
    let targets = target::Targets::resolve(
        &config.servers,
        &config.spectator_servers,
        config.allow_remote,
        config.source_addrs,
    )
    .await?;
    let pids = config.server_pids();
    let pid = &pids[..];
    let server_start = match pid {
        [] => None,
        _ => {
            Some(procfs::sample_all(pid).with_context(|| format!("cannot read /proc of {pid:?}"))?)
        }
    };
    let start = Instant::now();
    let deadline = start + config.duration;
    let shared = Arc::new(Shared::new(config, targets, deadline));
    let (stop_monitor, monitor) =
        monitor::spawn(shared.clone(), start, server_start.map_or(0, |u| u.rss_kib));

    let mut slots = JoinSet::new();
    let interval = Duration::from_secs_f64(1.0 / shared.config.ramp_per_sec);
    let budget = shared.config.battles.unwrap_or(u64::MAX);
    for i in 0..shared.config.concurrency {
        let at = start + interval.mul_f64(i as f64);
        if at >= shared.deadline || i as u64 >= budget || shared.halted().is_some() {
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
            () = &mut deadline => {
                // Sample while the connections are still open.
                window_end = Some(Mark::now(&shared.stats, pid));
                break;
            }
            () = shared.halt.notified() => {
                window_end = Some(Mark::now(&shared.stats, pid));
                break;
            }
            () = tokio::time::sleep(Duration::from_millis(20)), if window_start.is_none() => {}
        }
    }
    let window_end = window_end.unwrap_or_else(|| Mark::now(&shared.stats, pid));
    // A halted run has nothing to wait for; otherwise the slots get GRACE to stop by
    // themselves. An aborted slot's battle in progress counts as abandoned (its guard is
    // dropped), and waiting for the aborted tasks to end makes sure the guards are dropped
    // before the counts are read.
    let halted = shared.halted().is_some();
    if halted
        || tokio::time::timeout(GRACE, async { while slots.join_next().await.is_some() {} })
            .await
            .is_err()
    {
        slots.abort_all();
        while slots.join_next().await.is_some() {}
    }
    let elapsed = start.elapsed();
    let _ = stop_monitor.send(());
    let peak_rss = monitor.await.unwrap_or(0);
    let window_start = window_start.unwrap_or(Mark {
        at: start,
        actions: 0,
        ticks: 0,
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
    let battles = stats.battles.counts();
    // Every slot has ended: each battle it started is counted under one outcome.
    debug_assert!(battles.balanced(), "battles do not add up: {battles:?}");
    let window = to
        .at
        .saturating_duration_since(from.at)
        .as_secs_f64()
        .max(1e-9);
    let rate = |a: u64, b: u64| b.saturating_sub(a) as f64 / window;
    let actions = to.actions.saturating_sub(from.actions);
    let ticks = to.ticks.saturating_sub(from.ticks);
    let server = match (config.server_pid, server_start, from.server, to.server) {
        (Some(pid), Some(start), Some(a), Some(b)) => {
            let cpu = (b.cpu_secs - a.cpu_secs).max(0.0);
            let peak = peak_rss.max(b.rss_kib).max(start.rss_kib);
            Some(ServerUsage {
                pid,
                also_pids: config.also_pids.clone(),
                cpu_secs: cpu,
                cpu_secs_per_1000_actions: (actions > 0).then(|| cpu * 1000.0 / actions as f64),
                cpu_secs_per_1000_ticks: (ticks > 0).then(|| cpu * 1000.0 / ticks as f64),
                cpu_cores: cpu / window,
                rss_start_kib: start.rss_kib,
                rss_end_kib: b.rss_kib,
                rss_peak_kib: peak,
                rss_per_battle_kib: (battles.peak_in_flight > 0)
                    .then(|| (peak - start.rss_kib) as f64 / battles.peak_in_flight as f64),
            })
        }
        _ => None,
    };
    let errors = stats.errors();
    let connections_opened = Stats::get(&stats.connections_opened);
    let failure = status::failure(
        config.url(),
        shared.halted(),
        connections_opened,
        &battles,
        &errors,
    );
    let mut report = Report {
        url: config.servers.join(","),
        spectator_url: (!config.spectator_servers.is_empty())
            .then(|| config.spectator_servers.join(",")),
        reconnect: config.reconnect,
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
        battles_started: battles.started,
        battles_completed: battles.completed,
        battles_abandoned: battles.abandoned,
        battles_failed: battles.failed,
        peak_battles: battles.peak_in_flight,
        connections_opened,
        reconnects: Stats::get(&stats.reconnects),
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
        tick_lag: stats.summary(Series::TickLag),
        ticks: Stats::get(&stats.ticks),
        ticks_per_sec: rate(from.ticks, to.ticks),
        lag_unaligned_battles: Stats::get(&stats.lag_unaligned),
        error_total: stats.error_total(),
        errors,
        violation_total: stats.violation_total(),
        violations: stats.violations(),
        server,
        client_cpu_secs: match (from.client, to.client) {
            (Some(a), Some(b)) => Some((b.cpu_secs - a.cpu_secs).max(0.0)),
            _ => None,
        },
        thresholds: Vec::new(),
        failure,
    };
    report.thresholds = config.thresholds.iter().map(|t| t.check(&report)).collect();
    report
}
