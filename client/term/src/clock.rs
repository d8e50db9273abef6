//! The turn clocks as people read them: the envelope's `clocks` (one entry per seat, `null`
//! for an untimed battle) turned into countdowns for the awaited seats, each seat's bank, the
//! `m:ss` wording, when a countdown is urgent, and when the screen must next redraw for a
//! countdown to stay true.
//!
//! Nothing here reads the system clock but [`now_ms`]: every other function is given the
//! time, so screens and tests agree on what they show.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

/// Under this much time left a countdown is urgent: shown with tenths and highlighted.
pub const URGENT_MS: u64 = 10_000;

/// One seat's clock, as the view gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatClock {
    /// The seat.
    pub seat: usize,
    /// What is left in its time bank (for a running decision: as it started).
    pub bank_ms: u64,
    /// When its running decision is due, in Unix milliseconds; `None` when none runs.
    pub deadline: Option<u64>,
}

/// A running decision's countdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Countdown {
    /// The awaited seat.
    pub seat: usize,
    /// Whether it is the viewer's own seat.
    pub mine: bool,
    /// Milliseconds until its deadline; 0 once it has passed.
    pub left_ms: u64,
    /// The seat's bank as the decision started.
    pub bank_ms: u64,
}

impl Countdown {
    /// Whether the time left is short enough to be highlighted.
    pub fn urgent(&self) -> bool {
        is_urgent(self.left_ms)
    }
}

/// The current time in Unix milliseconds (0 if the system clock is before 1970).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Every seat's clock, or `None` when the battle is untimed (`clocks` null or absent, as in a
/// replay's views).
pub fn clocks(view: &Value) -> Option<Vec<SeatClock>> {
    let entries = view["clocks"].as_array()?;
    Some(
        entries
            .iter()
            .enumerate()
            .map(|(seat, entry)| SeatClock {
                seat,
                bank_ms: entry["bank_ms"].as_u64().unwrap_or(0),
                deadline: entry["deadline"].as_u64(),
            })
            .collect(),
    )
}

/// The countdowns of the seats the battle awaits (`to_act`) whose decision has a deadline,
/// at `now_ms`; `viewer` is the viewer's seat (`None` for a spectator). Empty for an untimed
/// or finished battle.
pub fn countdowns(view: &Value, viewer: Option<usize>, now_ms: u64) -> Vec<Countdown> {
    if view["status"] == "finished" {
        return Vec::new();
    }
    let Some(clocks) = clocks(view) else {
        return Vec::new();
    };
    let awaited: Vec<u64> = view["to_act"]
        .as_array()
        .map(|seats| seats.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    clocks
        .iter()
        .filter(|c| awaited.contains(&(c.seat as u64)))
        .filter_map(|c| {
            Some(Countdown {
                seat: c.seat,
                mine: viewer == Some(c.seat),
                left_ms: c.deadline?.saturating_sub(now_ms),
                bank_ms: c.bank_ms,
            })
        })
        .collect()
}

/// Whether `left_ms` is short enough to be highlighted (under ten seconds).
pub fn is_urgent(left_ms: u64) -> bool {
    left_ms < URGENT_MS
}

/// Time left as people read a countdown: `m:ss` (rounded up, so `0:00` shows only once the
/// deadline has passed), or `0:0s.t` with tenths under ten seconds.
pub fn format_left(left_ms: u64) -> String {
    if left_ms == 0 {
        return "0:00".to_owned();
    }
    let tenths = left_ms.div_ceil(100);
    if tenths < 100 {
        return format!("0:0{}.{}", tenths / 10, tenths % 10);
    }
    let seconds = left_ms.div_ceil(1000);
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// A bank as `m:ss` (whole seconds, rounded down: what is surely there).
pub fn format_bank(bank_ms: u64) -> String {
    let seconds = bank_ms / 1000;
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// How long until what [`format_left`] shows for `left_ms` changes: the next whole second,
/// or the next tenth under ten seconds. `None` once the deadline has passed.
pub fn until_change(left_ms: u64) -> Option<Duration> {
    if left_ms == 0 {
        return None;
    }
    let unit = if left_ms <= URGENT_MS { 100 } else { 1000 };
    Some(Duration::from_millis((left_ms - 1) % unit + 1))
}

/// When the screen must next redraw for the countdowns of `view` to stay true at `now_ms`
/// (at least once a second while one runs); `None` when no countdown runs.
pub fn next_redraw(view: &Value, now_ms: u64) -> Option<Duration> {
    countdowns(view, None, now_ms)
        .iter()
        .filter_map(|c| until_change(c.left_ms))
        .min()
}

/// Plain mode's line when the viewer's own decision's clock starts, e.g. "you have 1:32 to
/// decide (bank 2:15)"; `None` when the viewer is not awaited or its decision is untimed.
pub fn decision_line(view: &Value, viewer: Option<usize>, now_ms: u64) -> Option<String> {
    let mine = countdowns(view, viewer, now_ms)
        .into_iter()
        .find(|c| c.mine)?;
    Some(format!(
        "you have {} to decide (bank {})",
        format_left(mine.left_ms),
        format_bank(mine.bank_ms)
    ))
}

/// The deadline of the viewer's own running decision, if any: what tells one decision's
/// clock from the next.
pub fn my_deadline(view: &Value, viewer: Option<usize>) -> Option<u64> {
    let seat = viewer?;
    if view["status"] == "finished" {
        return None;
    }
    let awaited = view["to_act"]
        .as_array()
        .is_some_and(|seats| seats.iter().any(|s| s.as_u64() == Some(seat as u64)));
    if !awaited {
        return None;
    }
    clocks(view)?.get(seat)?.deadline
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn timed(to_act: Value, deadlines: [Option<u64>; 2]) -> Value {
        json!({"status": "playing", "to_act": to_act, "clocks": [
            {"bank_ms": 135_000, "deadline": deadlines[0]},
            {"bank_ms": 120_000, "deadline": deadlines[1]}]})
    }

    #[test]
    fn time_left_reads_as_minutes_and_seconds() {
        assert_eq!(format_left(92_000), "1:32");
        assert_eq!(
            format_left(91_001),
            "1:32",
            "rounded up: 0:00 only at the end"
        );
        assert_eq!(format_left(60_000), "1:00");
        assert_eq!(format_left(10_000), "0:10");
        assert_eq!(format_left(125 * 60_000), "125:00");
        assert_eq!(format_bank(135_999), "2:15", "a bank is rounded down");
        assert_eq!(format_bank(0), "0:00");
    }

    #[test]
    fn under_ten_seconds_shows_tenths_and_is_urgent() {
        assert_eq!(format_left(9_900), "0:09.9");
        assert_eq!(format_left(9_401), "0:09.5");
        assert_eq!(
            format_left(9_950),
            "0:10",
            "rounds up to ten seconds: no tenths"
        );
        assert_eq!(format_left(50), "0:00.1");
        assert!(is_urgent(9_999));
        assert!(!is_urgent(10_000));
    }

    #[test]
    fn past_deadlines_show_zero() {
        let view = timed(json!([0]), [Some(1_000), None]);
        let c = countdowns(&view, Some(0), 5_000);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].left_ms, 0);
        assert_eq!(format_left(c[0].left_ms), "0:00");
        assert!(c[0].urgent());
        assert_eq!(
            next_redraw(&view, 5_000),
            None,
            "no redraw for a passed deadline"
        );
    }

    #[test]
    fn null_or_absent_clocks_show_nothing() {
        for view in [
            json!({"status": "playing", "to_act": [0], "clocks": null}),
            json!({"status": "playing", "to_act": [0]}),
        ] {
            assert_eq!(clocks(&view), None);
            assert!(countdowns(&view, Some(0), 0).is_empty());
            assert_eq!(decision_line(&view, Some(0), 0), None);
            assert_eq!(next_redraw(&view, 0), None);
        }
    }

    #[test]
    fn only_awaited_seats_with_a_deadline_count_down() {
        let view = timed(json!([1]), [Some(50_000), Some(40_500)]);
        let c = countdowns(&view, Some(0), 0);
        assert_eq!(
            c,
            vec![Countdown {
                seat: 1,
                mine: false,
                left_ms: 40_500,
                bank_ms: 120_000
            }]
        );
        assert_eq!(decision_line(&view, Some(0), 0), None, "not our decision");
        assert_eq!(my_deadline(&view, Some(0)), None);
        let mut over = view.clone();
        over["status"] = json!("finished");
        assert!(countdowns(&over, None, 0).is_empty());
    }

    #[test]
    fn the_own_decision_is_told_once_per_deadline() {
        let view = timed(json!([0, 1]), [Some(92_000), None]);
        assert_eq!(
            decision_line(&view, Some(0), 500).as_deref(),
            Some("you have 1:32 to decide (bank 2:15)")
        );
        assert_eq!(my_deadline(&view, Some(0)), Some(92_000));
        assert_eq!(my_deadline(&view, None), None);
    }

    #[test]
    fn redraws_follow_what_the_countdown_shows() {
        assert_eq!(until_change(92_000), Some(Duration::from_millis(1000)));
        assert_eq!(until_change(91_500), Some(Duration::from_millis(500)));
        assert_eq!(until_change(10_400), Some(Duration::from_millis(400)));
        assert_eq!(until_change(9_950), Some(Duration::from_millis(50)));
        assert_eq!(until_change(1), Some(Duration::from_millis(1)));
        assert_eq!(until_change(0), None);
        let view = timed(json!([0, 1]), [Some(30_300), Some(20_700)]);
        assert_eq!(next_redraw(&view, 0), Some(Duration::from_millis(300)));
    }
}
