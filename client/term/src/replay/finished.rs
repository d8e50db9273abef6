//! The recently finished battles `list --finished` shows: one line each (id, ruleset, how
//! long ago it ended, its steps, its outcome, whether it was seeded) and the command that
//! replays one; and how long ago something ended, in words.

use battle_protocol::FinishedSummary;

use crate::share::replay_command;

/// How long ago `then_ms` was at `now_ms` (both Unix milliseconds), as people say it: "just
/// now", "42 s ago", "3 min ago", "2 h ago", "4 days ago". A time after `now_ms` (clocks
/// that disagree) is "just now".
pub fn ago(then_ms: u64, now_ms: u64) -> String {
    let seconds = now_ms.saturating_sub(then_ms) / 1000;
    match seconds {
        0..=4 => "just now".to_owned(),
        5..=59 => format!("{seconds} s ago"),
        60..=3_599 => format!("{} min ago", seconds / 60),
        3_600..=86_399 => format!("{} h ago", seconds / 3_600),
        _ if seconds < 2 * 86_400 => "1 day ago".to_owned(),
        _ => format!("{} days ago", seconds / 86_400),
    }
}

/// The finished battles as text at `now_ms` (newest first, as the server lists them), with
/// the command that replays one on `server`; `None` from the server (one that keeps no
/// finished battles) and an empty list each get a sentence of their own.
pub fn finished_table(finished: Option<&[FinishedSummary]>, server: &str, now_ms: u64) -> String {
    let Some(finished) = finished else {
        return "This server does not list finished battles.\n".to_owned();
    };
    if finished.is_empty() {
        return "No finished battles are kept by this server right now.\n".to_owned();
    }
    let mut out = format!(
        "{:<12} {:<10} {:<12} {:>5}  {}\n",
        "FINISHED", "RULESET", "ENDED", "STEPS", "OUTCOME"
    );
    for b in finished {
        let seeded = if b.seeded { "  [seeded]" } else { "" };
        out.push_str(&format!(
            "{:<12} {:<10} {:<12} {:>5}  {}{seeded}\n",
            b.battle_id,
            b.ruleset,
            ago(b.ended_at, now_ms),
            b.steps,
            b.outcome.summary
        ));
    }
    out.push_str(&format!(
        "Replay one with: {}\n",
        replay_command(server, "<id>")
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::DEFAULT_SERVER;
    use battle_protocol::OutcomeInfo;

    const NOW: u64 = 1_795_627_211_164;

    fn finished(id: &str, ended_ago_s: u64, seeded: bool) -> FinishedSummary {
        FinishedSummary {
            battle_id: id.into(),
            ruleset: "synergy".into(),
            seats: 2,
            bots: vec![1],
            outcome: OutcomeInfo {
                summary: "Player wins: Training Automaton is out of HP.".into(),
                winners: vec![0],
                reason: Default::default(),
            },
            ended_at: NOW - ended_ago_s * 1000,
            steps: 41,
            seeded,
        }
    }

    #[test]
    fn times_ago_read_as_people_say_them() {
        assert_eq!(ago(NOW, NOW), "just now");
        assert_eq!(ago(NOW + 60_000, NOW), "just now", "a clock ahead of ours");
        assert_eq!(ago(NOW - 42_000, NOW), "42 s ago");
        assert_eq!(ago(NOW - 3 * 60_000 - 59_000, NOW), "3 min ago");
        assert_eq!(ago(NOW - 2 * 3_600_000, NOW), "2 h ago");
        assert_eq!(ago(NOW - 30 * 3_600_000, NOW), "1 day ago");
        assert_eq!(ago(NOW - 4 * 86_400_000, NOW), "4 days ago");
    }

    #[test]
    fn the_table_lists_each_battle_and_how_to_replay_one() {
        let rows = [
            finished("kg4fme4qk7", 180, false),
            finished("s33ded0001", 7, true),
        ];
        let table = finished_table(Some(&rows), DEFAULT_SERVER, NOW);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines,
            vec![
                "FINISHED     RULESET    ENDED        STEPS  OUTCOME",
                "kg4fme4qk7   synergy    3 min ago       41  Player wins: Training Automaton is \
                 out of HP.",
                "s33ded0001   synergy    7 s ago         41  Player wins: Training Automaton is \
                 out of HP.  [seeded]",
                "Replay one with: battle-client replay <id>",
            ]
        );
        assert!(finished_table(Some(&[]), DEFAULT_SERVER, NOW).starts_with("No finished"));
        assert!(finished_table(None, DEFAULT_SERVER, NOW).contains("does not list"));
        assert!(finished_table(Some(&rows), "ws://h:1", NOW)
            .contains("battle-client --server ws://h:1 replay <id>"));
    }
}
