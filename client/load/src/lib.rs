//! `battle-client loadtest`: many concurrent battles driven by client-side bots, measured.
//!
//! The run keeps `concurrency` battles going at once. Each is played by a *slot*: its own
//! player connections (two in PvP, one in PvE where seat 1 is the server's automaton) and
//! spectator connections, which play battle after battle (module `slot`). Player bots pick a
//! random action among the view's `legal` list. The run stops at its deadline or when the
//! battle budget is spent, whichever comes first, and returns a [`Report`].
//!
//! Figures: action latency (`act` → the answer carrying its `req`), spectator lag (see
//! `drive::lags`), actions/s, frames and bytes/s, battles started = completed + abandoned +
//! failed (module `tally`), errors by kind, protocol violations, and — with the server's pid —
//! the server's CPU seconds and RSS from `/proc`. Optionally a JSON line of progress per
//! interval (module `progress`).
//!
//! Exit codes (module `status`): 0 = the run completed and every threshold held, 1 = a
//! threshold failed, 2 = the run itself failed.

#![warn(missing_docs)]

mod args;
mod buffers;
mod config;
mod drive;
mod frame;
mod handshake;
mod link;
mod monitor;
mod node;
mod patch;
mod peer;
mod preflight;
pub mod procfs;
mod progress;
mod reader;
mod report;
mod runner;
mod slot;
mod stats;
mod status;
mod table;
mod tally;
mod target;
mod threshold;
mod ticks;
mod view;
mod wire;

use std::io::Write as _;
use std::process::ExitCode;

pub use args::{parse_duration, LoadtestArgs};
pub use config::LoadConfig;
pub use progress::{ProgressLine, ProgressSink};
pub use report::{Report, ServerUsage};
pub use runner::run_with;
pub use stats::LatencySummary;
pub use status::{Status, LOAD_LIMITS, START_SERVER};
pub use tally::BattleCounts;
pub use threshold::{Threshold, ThresholdError, Verdict};

/// Run a load test against `servers` (players and creators spread over them in turn; the
/// rulesets asked of the first that answers), print its report on stdout (and why the run failed, if
/// it did, on stderr) and return the process exit code: 0 when the run completed and every
/// threshold held, 1 when it completed but a threshold failed, 2 when the run itself failed
/// (no server answers, no connection, no battle started, settings the server refused).
///
/// Errors are left for writing the report to a closed stdout; every other failure is told
/// on stderr and ends in exit code 2.
pub async fn run(servers: &[String], args: LoadtestArgs) -> anyhow::Result<ExitCode> {
    let report = match prepare_and_run(servers, &args).await {
        Ok(report) => report,
        Err(err) => {
            eprintln!("loadtest: {err:#}");
            return Ok(Status::RunFailed.into());
        }
    };
    let text = if args.output == "json" {
        report.to_json() + "\n"
    } else {
        report.table()
    };
    let mut stdout = std::io::stdout().lock();
    if let Err(err) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if err.kind() == std::io::ErrorKind::BrokenPipe {
            return Err(err.into());
        }
        eprintln!("loadtest: cannot write the report: {err}");
        return Ok(Status::RunFailed.into());
    }
    if let Some(why) = &report.failure {
        eprintln!("loadtest: the run failed: {why}");
    }
    Ok(report.status().into())
}

/// Check the servers, build the run's settings from `args` and what they offer, and run.
async fn prepare_and_run(servers: &[String], args: &LoadtestArgs) -> anyhow::Result<Report> {
    let rulesets = preflight::rulesets(servers, args).await?;
    let config = LoadConfig::from_args(servers, args, &rulesets)?;
    run_with(config).await
}
