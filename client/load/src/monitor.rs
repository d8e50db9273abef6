//! The run's monitor: samples the server's RSS for its peak, draws the live progress line
//! (only when stderr is a terminal and no `--progress-json` lines are asked for) and writes
//! the `--progress-json` lines. It runs until the run tells it to stop.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::time::{Instant, Interval, MissedTickBehavior};

use super::procfs;
use super::progress::Progress;
use super::slot::Shared;
use super::stats::{Series, Stats};

/// How often the monitor samples the server and redraws the progress line.
const TICK: Duration = Duration::from_millis(250);

/// Sample the server's RSS (for its peak) and draw the progress line every [`TICK`], and
/// write a progress JSON line every `config.progress_json`, until told to stop; returns the
/// peak RSS in KiB.
pub(super) fn spawn(
    shared: Arc<Shared>,
    start: Instant,
    rss_start: u64,
) -> (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<u64>,
) {
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    let handle = tokio::spawn(async move {
        let config = &shared.config;
        let pids = config.server_pids();
        let draw =
            config.progress && config.progress_json.is_none() && std::io::stderr().is_terminal();
        let bar = if draw {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed_precise} {wide_msg}") {
            bar.set_style(style);
        }
        let mut lines = config.progress_json.map(|every| {
            let mut interval = tokio::time::interval_at(start + every, every);
            interval.set_missed_tick_behavior(MissedTickBehavior::Delay);
            (interval, Progress::new(start))
        });
        let mut peak = rss_start;
        let mut last = (start, 0u64);
        let mut ticker = tokio::time::interval(TICK);
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                () = line_due(lines.as_mut().map(|(interval, _)| interval)) => {
                    if let Some((_, progress)) = &mut lines {
                        let line = progress.line(&shared.stats, Instant::now());
                        config.progress_sink.emit(&line.to_json());
                    }
                    continue;
                }
                _ = ticker.tick() => {}
            }
            let usage = (!pids.is_empty())
                .then(|| procfs::sample_all(&pids))
                .flatten();
            if let Some(usage) = usage {
                peak = peak.max(usage.rss_kib);
            }
            if draw {
                let stats = &shared.stats;
                let now = Instant::now();
                let actions = Stats::get(&stats.actions);
                let rate = actions.saturating_sub(last.1) as f64
                    / now.duration_since(last.0).as_secs_f64().max(1e-3);
                last = (now, actions);
                let p99 = stats.summary(Series::Action).p99_ms;
                let battles = stats.battles.counts();
                bar.set_message(format!(
                    "conns {}  battles {} done {} failed {}  actions {} ({rate:.0}/s)  p99 {p99:.2} ms  errors {}  violations {}",
                    Stats::get(&stats.connections),
                    battles.started,
                    battles.completed,
                    battles.failed,
                    actions,
                    stats.error_total(),
                    stats.violation_total(),
                ));
                bar.tick();
            }
        }
        bar.finish_and_clear();
        peak
    });
    (stop, handle)
}

/// The next tick of the progress JSON interval; never, when there is none.
async fn line_due(interval: Option<&mut Interval>) {
    match interval {
        Some(interval) => {
            interval.tick().await;
        }
        None => std::future::pending().await,
    }
}
