//! `--threshold` gates: `p99<10ms`, `violations<1`, `actions_per_sec>1000`, ...
//!
//! A threshold names a metric of the [`Report`], a comparison and a number. Latency metrics
//! take a unit (`us`, `ms`, `s`; milliseconds when none is given); the others are plain
//! numbers in the unit the metric is reported in. A failed threshold, or one whose metric was
//! not measured, makes the run exit with code 1 (see module `status`).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::report::Report;

/// How a metric is compared with the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Op {
    /// `<`
    #[serde(rename = "<")]
    Lt,
    /// `<=`
    #[serde(rename = "<=")]
    Le,
    /// `>`
    #[serde(rename = ">")]
    Gt,
    /// `>=`
    #[serde(rename = ">=")]
    Ge,
}

impl Op {
    fn holds(self, value: f64, limit: f64) -> bool {
        match self {
            Op::Lt => value < limit,
            Op::Le => value <= limit,
            Op::Gt => value > limit,
            Op::Ge => value >= limit,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }
}

/// What a metric measures, which decides the units its limit may carry and how its value is
/// shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Milliseconds; the limit may say `us`, `ms` or `s`.
    Millis,
    /// A plain number, shown with this unit (`/s`, `KiB`, `s`; empty for counts).
    Plain(&'static str),
}

impl Kind {
    fn unit(self) -> &'static str {
        match self {
            Kind::Millis => "ms",
            Kind::Plain(unit) => unit,
        }
    }
}

const COUNT: Kind = Kind::Plain("");
const RATE: Kind = Kind::Plain("/s");

type Getter = fn(&Report) -> Option<f64>;

/// Every metric a threshold may name.
const METRICS: &[(&str, Kind, Getter)] = &[
    ("p50", Kind::Millis, |r| Some(r.latency.p50_ms)),
    ("p90", Kind::Millis, |r| Some(r.latency.p90_ms)),
    ("p95", Kind::Millis, |r| Some(r.latency.p95_ms)),
    ("p99", Kind::Millis, |r| Some(r.latency.p99_ms)),
    ("p99.9", Kind::Millis, |r| Some(r.latency.p999_ms)),
    ("p999", Kind::Millis, |r| Some(r.latency.p999_ms)),
    ("max", Kind::Millis, |r| Some(r.latency.max_ms)),
    ("mean", Kind::Millis, |r| Some(r.latency.mean_ms)),
    ("lag_p50", Kind::Millis, |r| Some(r.spectator_lag.p50_ms)),
    ("lag_p95", Kind::Millis, |r| Some(r.spectator_lag.p95_ms)),
    ("lag_p99", Kind::Millis, |r| Some(r.spectator_lag.p99_ms)),
    ("lag_p99.9", Kind::Millis, |r| Some(r.spectator_lag.p999_ms)),
    ("lag_max", Kind::Millis, |r| Some(r.spectator_lag.max_ms)),
    ("tick_lag_p50", Kind::Millis, |r| Some(r.tick_lag.p50_ms)),
    ("tick_lag_p99", Kind::Millis, |r| Some(r.tick_lag.p99_ms)),
    ("tick_lag_p99.9", Kind::Millis, |r| Some(r.tick_lag.p999_ms)),
    ("actions_per_sec", RATE, |r| Some(r.actions_per_sec)),
    ("frames_per_sec", RATE, |r| Some(r.frames_in_per_sec)),
    ("bytes_per_sec", RATE, |r| Some(r.bytes_in_per_sec)),
    ("actions", COUNT, |r| Some(r.actions as f64)),
    ("battles_started", COUNT, |r| Some(r.battles_started as f64)),
    ("battles_completed", COUNT, |r| {
        Some(r.battles_completed as f64)
    }),
    ("battles_abandoned", COUNT, |r| {
        Some(r.battles_abandoned as f64)
    }),
    ("battles_failed", COUNT, |r| Some(r.battles_failed as f64)),
    ("errors", COUNT, |r| Some(r.error_total as f64)),
    ("violations", COUNT, |r| Some(r.violation_total as f64)),
    ("server_cpu_per_1000", Kind::Plain("s"), |r| {
        r.server.as_ref().and_then(|s| s.cpu_secs_per_1000_actions)
    }),
    ("rss_per_battle_kib", Kind::Plain("KiB"), |r| {
        r.server.as_ref().and_then(|s| s.rss_per_battle_kib)
    }),
];

/// One parsed `--threshold`.
#[derive(Debug, Clone, PartialEq)]
pub struct Threshold {
    /// The text as given, for messages.
    pub text: String,
    metric: usize,
    op: Op,
    /// The limit, in milliseconds for latency metrics.
    limit: f64,
}

/// How one threshold fared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// The threshold as given.
    pub threshold: String,
    /// The measured value (`null` when the metric was not measured, e.g. no `--server-pid`).
    pub value: Option<f64>,
    /// The value's unit: `ms`, `/s`, `KiB`, `s`, or empty for a count.
    pub unit: &'static str,
    /// Whether the gate held.
    pub passed: bool,
}

impl Verdict {
    /// A measured `value` of this threshold's metric, with its unit.
    pub fn show(&self, value: f64) -> String {
        match self.unit {
            "" => format!("{value:.0}"),
            "/s" => format!("{value:.1}/s"),
            unit => format!("{value:.3} {unit}"),
        }
    }
}

/// Why a threshold could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad threshold {text:?}: {why}")]
pub struct ThresholdError {
    text: String,
    why: String,
}

impl FromStr for Threshold {
    type Err = ThresholdError;

    fn from_str(text: &str) -> Result<Threshold, ThresholdError> {
        let fail = |why: String| ThresholdError {
            text: text.to_string(),
            why,
        };
        let at = text
            .find(['<', '>'])
            .ok_or_else(|| fail("expected <, <=, > or >= between a metric and a number".into()))?;
        let (name, rest) = text.split_at(at);
        let (op, value) = match rest.as_bytes() {
            [b'<', b'=', ..] => (Op::Le, &rest[2..]),
            [b'>', b'=', ..] => (Op::Ge, &rest[2..]),
            [b'<', ..] => (Op::Lt, &rest[1..]),
            _ => (Op::Gt, &rest[1..]),
        };
        let name = name.trim();
        let metric = METRICS
            .iter()
            .position(|(n, _, _)| *n == name)
            .ok_or_else(|| {
                let known: Vec<&str> = METRICS.iter().map(|(n, _, _)| *n).collect();
                fail(format!(
                    "unknown metric {name:?}; known: {}",
                    known.join(", ")
                ))
            })?;
        let value = value.trim();
        let (number, scale) = match METRICS[metric].1 {
            Kind::Millis => {
                if let Some(n) = value.strip_suffix("us") {
                    (n, 0.001)
                } else if let Some(n) = value.strip_suffix("ms") {
                    (n, 1.0)
                } else if let Some(n) = value.strip_suffix('s') {
                    (n, 1000.0)
                } else {
                    (value, 1.0)
                }
            }
            Kind::Plain(_) => (value, 1.0),
        };
        let number: f64 = number.trim().parse().map_err(|_| {
            fail(format!(
                "{value:?} is not a number{}",
                unit_hint(METRICS[metric].1)
            ))
        })?;
        if !number.is_finite() {
            return Err(fail("the limit must be a finite number".into()));
        }
        Ok(Threshold {
            text: text.to_string(),
            metric,
            op,
            limit: number * scale,
        })
    }
}

fn unit_hint(kind: Kind) -> &'static str {
    match kind {
        Kind::Millis => " (optionally followed by us, ms or s)",
        Kind::Plain(_) => " (this metric takes no unit)",
    }
}

impl Threshold {
    /// Check the threshold against a finished run.
    pub fn check(&self, report: &Report) -> Verdict {
        let (_, kind, get) = METRICS[self.metric];
        let value = get(report);
        Verdict {
            threshold: self.text.clone(),
            value,
            unit: kind.unit(),
            passed: value.is_some_and(|v| self.op.holds(v, self.limit)),
        }
    }
}

impl fmt::Display for Threshold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, kind, _) = METRICS[self.metric];
        // Only milliseconds are written after the limit: the others take no unit.
        let unit = if kind == Kind::Millis { "ms" } else { "" };
        write!(f, "{name}{}{}{unit}", self.op.symbol(), self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Threshold {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn parses_operators_and_units() {
        let t = parse("p99<10ms");
        assert_eq!((t.op, t.limit), (Op::Lt, 10.0));
        assert_eq!(t.to_string(), "p99<10ms");
        assert_eq!(parse("p99.9 <= 2s").limit, 2000.0);
        assert_eq!(parse("p50<500us").limit, 0.5);
        assert_eq!(parse("p95<=5ms").to_string(), "p95<=5ms");
        assert_eq!(parse("lag_p95<2").limit, 2.0);
        assert_eq!(parse("max<7").limit, 7.0);
        let t = parse("actions_per_sec>=1000");
        assert_eq!((t.op, t.limit), (Op::Ge, 1000.0));
        assert_eq!(parse("violations<1").op, Op::Lt);
        assert_eq!(parse("errors>0").op, Op::Gt);
    }

    #[test]
    fn refuses_bad_thresholds() {
        for bad in [
            "p99",
            "p98<1ms",
            "p99<fast",
            "actions_per_sec>5ms",
            "p99<",
            "violations<inf",
        ] {
            assert!(bad.parse::<Threshold>().is_err(), "{bad} should be refused");
        }
        let err = "latency<1"
            .parse::<Threshold>()
            .expect_err("unknown metric");
        assert!(err.to_string().contains("known: p50"), "{err}");
    }

    #[test]
    fn checks_against_a_report() {
        let mut report = Report::default();
        report.latency.p99_ms = 4.0;
        report.actions_per_sec = 20_000.0;
        report.violation_total = 0;
        report.latency.p95_ms = 3.0;
        assert!(parse("p95<3.5ms").check(&report).passed);
        assert!(!parse("p95<3ms").check(&report).passed);
        assert_eq!(parse("p95<3ms").check(&report).unit, "ms");
        assert!(parse("p99<5ms").check(&report).passed);
        assert!(!parse("p99<4ms").check(&report).passed);
        assert!(parse("p99<=4ms").check(&report).passed);
        assert!(parse("actions_per_sec>15000").check(&report).passed);
        assert!(parse("violations<1").check(&report).passed);
        report.battles_failed = 2;
        let failed = parse("battles_failed<1").check(&report);
        assert!(!failed.passed);
        assert_eq!(failed.show(2.0), "2");
        let rate = parse("actions_per_sec>1e12").check(&report);
        assert!(!rate.passed);
        assert_eq!(rate.show(20_000.0), "20000.0/s");
        let unmeasured = parse("server_cpu_per_1000<0.08").check(&report);
        assert_eq!(unmeasured.value, None);
        assert!(!unmeasured.passed, "an unmeasured metric fails its gate");
    }
}
