//! The [`Report`] as a human-readable table: every figure carries its unit (`s`, `ms`, `/s`,
//! `MiB`, `KiB`) or names what it counts.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use super::report::Report;
use super::stats::LatencySummary;

/// Bytes per MiB.
const MIB: f64 = 1024.0 * 1024.0;

impl Report {
    /// The report as a human-readable table.
    pub fn table(&self) -> String {
        self.to_string()
    }
}

fn latency_header(out: &mut String) -> fmt::Result {
    writeln!(
        out,
        "  {:<16} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "latency",
        "samples",
        "mean ms",
        "p50 ms",
        "p90 ms",
        "p95 ms",
        "p99 ms",
        "p99.9 ms",
        "max ms"
    )
}

fn latency_row(out: &mut String, name: &str, s: &LatencySummary) -> fmt::Result {
    writeln!(
        out,
        "    {name:<14} {:>9} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2}",
        s.count, s.mean_ms, s.p50_ms, s.p90_ms, s.p95_ms, s.p99_ms, s.p999_ms, s.max_ms
    )
}

fn counts(map: &BTreeMap<String, u64>) -> String {
    if map.is_empty() {
        return "none".into();
    }
    map.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        let o = &mut out;
        writeln!(
            o,
            "load test of {} — {} sample {} {}, {} concurrent battles × ({} players + {} spectators), think {} ms",
            self.url, self.ruleset, self.sample, self.options, self.concurrency, self.players, self.spectators, self.think_ms
        )?;
        if let Some(spectators) = &self.spectator_url {
            writeln!(o, "  spectators   through {spectators}")?;
        }
        writeln!(
            o,
            "  time         run {:.1} s, measured window {:.1} s",
            self.elapsed_secs, self.window_secs
        )?;
        let battles = self.battles();
        let unaccounted = if battles.balanced() {
            String::new()
        } else {
            // Cannot happen (every battle is counted once); shown rather than hidden.
            " (do not add up!)".into()
        };
        writeln!(
            o,
            "  battles      started {} = completed {} + abandoned {} + failed {}{unaccounted}; peak {} at once",
            battles.started, battles.completed, battles.abandoned, battles.failed, battles.peak_in_flight
        )?;
        if self.reconnect {
            writeln!(
                o,
                "  connections  {} opened, {} of them reconnections (--reconnect)",
                self.connections_opened, self.reconnects
            )?;
        } else {
            writeln!(o, "  connections  {} opened", self.connections_opened)?;
        }
        writeln!(
            o,
            "  actions      {} accepted, {:.1}/s",
            self.actions, self.actions_per_sec
        )?;
        writeln!(
            o,
            "  frames in    {} ({:.0}/s), {:.2} MiB ({:.2} MiB/s)",
            self.frames_in,
            self.frames_in_per_sec,
            self.bytes_in as f64 / MIB,
            self.bytes_in_per_sec / MIB
        )?;
        writeln!(
            o,
            "  frames out   {} ({:.0}/s), {:.2} MiB",
            self.frames_out,
            self.frames_out_per_sec,
            self.bytes_out as f64 / MIB
        )?;
        latency_header(o)?;
        latency_row(o, "action", &self.latency)?;
        latency_row(o, "spectator lag", &self.spectator_lag)?;
        latency_row(o, "act→spectator", &self.act_to_spectator)?;
        if self.tick_lag.count > 0 {
            latency_row(o, "tick lag", &self.tick_lag)?;
            writeln!(
                o,
                "    ticks {} ({:.0}/s); tick lag: a tick's patch at a spectator after it was due (the fight's cadence anchored on its earliest tick)",
                self.ticks, self.ticks_per_sec
            )?;
        }
        if self.lag_unaligned_battles > 0 {
            writeln!(
                o,
                "    ({} battles gave no lag samples: resynced)",
                self.lag_unaligned_battles
            )?;
        }
        writeln!(
            o,
            "  errors       {} total ({})",
            self.error_total,
            counts(&self.errors)
        )?;
        writeln!(
            o,
            "  violations   {} total ({})",
            self.violation_total,
            counts(&self.violations)
        )?;
        if let Some(s) = &self.server {
            let per_1000 = s
                .cpu_secs_per_1000_actions
                .map_or("-".into(), |v| format!("{v:.4}"));
            let pids = std::iter::once(&s.pid)
                .chain(&s.also_pids)
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" + ");
            writeln!(
                o,
                "  server       pid {pids}, cpu {:.2} s ({:.2} cores), {per_1000} cpu-s per 1000 actions",
                s.cpu_secs, s.cpu_cores
            )?;
            writeln!(
                o,
                "  server rss   start {} KiB, peak {} KiB, end {} KiB",
                s.rss_start_kib, s.rss_peak_kib, s.rss_end_kib
            )?;
            match s.rss_per_battle_kib {
                Some(v) => writeln!(
                    o,
                    "               growth per battle {v:.1} KiB = (peak − start) / {} peak concurrent battles (compare runs on fresh servers only)",
                    self.peak_battles
                )?,
                None => writeln!(o, "               growth per battle - (no battle started)")?,
            }
        }
        if let Some(cpu) = self.client_cpu_secs {
            writeln!(o, "  client       cpu {cpu:.2} s")?;
        }
        for v in &self.thresholds {
            let value = v.value.map_or("not measured".into(), |x| v.show(x));
            let mark = if v.passed { "ok  " } else { "FAIL" };
            writeln!(
                o,
                "  threshold    {mark} {}  (measured {value})",
                v.threshold
            )?;
        }
        let status = self.status();
        match &self.failure {
            Some(why) => writeln!(
                o,
                "  result       {} (exit code {}): {why}",
                status.describe(),
                status.code()
            )?,
            None => writeln!(
                o,
                "  result       {} (exit code {})",
                status.describe(),
                status.code()
            )?,
        }
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::report::tests::sample;
    use super::super::report::ServerUsage;

    #[test]
    fn table_shows_the_headline_figures_with_units() {
        let mut report = sample();
        report.server = Some(ServerUsage {
            pid: 7,
            cpu_secs: 1.0,
            cpu_secs_per_1000_actions: Some(0.05),
            rss_start_kib: 10_000,
            rss_peak_kib: 10_080,
            rss_per_battle_kib: Some(40.0),
            ..ServerUsage::default()
        });
        report.bytes_in = 3 * 1024 * 1024;
        report.elapsed_secs = 2.0;
        report.client_cpu_secs = Some(0.5);
        let table = report.table();
        for needle in [
            "run 2.0 s",
            "started 5 = completed 3 + abandoned 1 + failed 1; peak 2 at once",
            "100 accepted, 50.0/s",
            "3.00 MiB",
            "MiB/s",
            "p95 ms",
            "    1.25 ",
            "p99.9 ms",
            "server:not_your_turn=1",
            "errors       1 total",
            "violations   0 total",
            "FAIL p99<1ms  (measured 1.500 ms)",
            "cpu 1.00 s",
            "0.0500 cpu-s per 1000 actions",
            "peak 10080 KiB",
            "growth per battle 40.0 KiB = (peak − start) / 2 peak concurrent battles",
            "client       cpu 0.50 s",
            "threshold failed (exit code 1)",
        ] {
            assert!(table.contains(needle), "{needle:?} missing from\n{table}");
        }
    }

    #[test]
    fn table_says_why_a_run_failed() {
        let mut report = sample();
        report.failure = Some("no battle could be started".into());
        let table = report.table();
        assert!(
            table.contains("run failed (exit code 2): no battle could be started"),
            "{table}"
        );
    }
}
