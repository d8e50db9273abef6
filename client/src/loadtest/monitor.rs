//! The run's monitor: samples the server's RSS for its peak and draws the live progress line
//! (only when stderr is a terminal).

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::time::Instant;

use super::procfs;
use super::slot::Shared;
use super::stats::{Series, Stats};

/// How often the monitor samples the server and redraws the progress line.
const TICK: Duration = Duration::from_millis(250);

/// Sample the server's RSS (for its peak) and draw the progress line every [`TICK`] until
/// told to stop; returns the peak RSS in KiB.
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
        let draw = shared.config.progress && std::io::stderr().is_terminal();
        let bar = if draw {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed_precise} {wide_msg}") {
            bar.set_style(style);
        }
        let mut peak = rss_start;
        let mut last = (start, 0u64);
        let mut ticker = tokio::time::interval(TICK);
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                _ = ticker.tick() => {}
            }
            if let Some(usage) = shared.config.server_pid.and_then(procfs::sample) {
                peak = peak.max(usage.rss_kib);
            }
            if draw {
                let stats = &shared.stats;
                let now = Instant::now();
                let actions = Stats::get(&stats.actions);
                let rate =
                    (actions - last.1) as f64 / now.duration_since(last.0).as_secs_f64().max(1e-3);
                last = (now, actions);
                let p99 = stats.summary(Series::Action).p99_ms;
                bar.set_message(format!(
                    "conns {}  battles {} done {}  actions {} ({rate:.0}/s)  p99 {p99:.2} ms  errors {}  violations {}",
                    Stats::get(&stats.connections),
                    Stats::get(&stats.battles_started),
                    Stats::get(&stats.battles_completed),
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
