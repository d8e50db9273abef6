//! A replay as plain text, for `replay --plain` and output that is not a terminal: a header
//! (the battle, its ruleset, the outcome), then the log lines each step added, each marked
//! with its step, then the result told as a spectator hears it.

use battle_protocol::{Replay, Seat};
use serde_json::Value;

use super::finished::ago;
use crate::outcome::result_lines;
use crate::ui::gambit;
use battle_client::ViewTracker;

/// The lines of `replay`, whose views (start first) are `views`, at `now_ms`.
pub fn replay_lines(replay: &Replay, views: &[Value], now_ms: u64) -> Vec<String> {
    let mut header = format!(
        "replay of battle {}: {} (version {}), {} steps",
        replay.battle_id,
        replay.ruleset,
        replay.version,
        replay.steps.len()
    );
    if let Some(bots) = bots_words(&replay.bots) {
        header.push_str(&format!(", {bots}"));
    }
    if replay.seeded {
        header.push_str(", seeded");
    }
    header.push_str(&format!(", ended {}", ago(replay.ended_at, now_ms)));
    let mut out = vec![header, format!("outcome: {}", replay.outcome.summary)];
    let mut logged = 0;
    for (step, view) in views.iter().enumerate() {
        let log = view["game"]["log"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        // A log only grows; should one not, its whole text is new.
        let new = log.get(logged..).unwrap_or(log);
        logged = log.len();
        let label = match step {
            0 => "start".to_owned(),
            n => format!("step {n}"),
        };
        if new.is_empty() {
            out.push(format!("{label}: (nothing logged)"));
        }
        out.extend(new.iter().map(|line| format!("{label}: {}", text(line))));
    }
    out.extend(
        result(replay, views)
            .into_iter()
            .map(|line| format!("result: {line}")),
    );
    out
}

/// The result as a spectator is told it, from the last of `views` (the replay's outcome
/// alone if that view does not carry it).
pub fn result(replay: &Replay, views: &[Value]) -> Vec<String> {
    let last = views
        .last()
        .map(|view| ViewTracker::with_view(&replay.battle_id, 0, view.clone()));
    let mut lines = match &last {
        Some(t) if t.view().is_some_and(gambit::is_gambit) => gambit::result_lines(t),
        Some(t) => result_lines(t),
        None => Vec::new(),
    };
    if lines.is_empty() {
        lines.push(replay.outcome.summary.clone());
    }
    lines
}

/// "seat 1 played by the server", "seats 0 and 1 played by the server", or `None`.
fn bots_words(bots: &[Seat]) -> Option<String> {
    let seats: Vec<String> = bots.iter().map(Seat::to_string).collect();
    match seats.as_slice() {
        [] => None,
        [one] => Some(format!("seat {one} played by the server")),
        [rest @ .., last] => Some(format!(
            "seats {} and {last} played by the server",
            rest.join(", ")
        )),
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NOW: u64 = 1_795_627_211_164;

    /// A three-step synergy replay: two moves, then the end of the battle.
    fn replay() -> Replay {
        let start = json!({
            "battle_id": "kg4fme4qk7", "ruleset": "synergy", "status": "playing",
            "seat": null, "to_act": [0], "prompt": null, "legal": [], "outcome": null,
            "names": ["Player", "Training Automaton"],
            "game": {"sides": [{"name": "Player"}, {"name": "Training Automaton"}],
                     "log": ["Round 1 of 40: Player's turn."], "result": null}
        });
        serde_json::from_value(json!({
            "battle_id": "kg4fme4qk7", "ruleset": "synergy", "version": 3, "seats": 2,
            "bots": [1], "seeded": true, "ended_at": NOW - 120_000,
            "outcome": {"summary": "Player wins.", "winners": [0]},
            "start": start,
            "steps": [
                [{"op": "add", "path": "/game/log/1", "value": "Player plays Ember Strike."}],
                [{"op": "replace", "path": "/to_act", "value": [1]}],
                [{"op": "add", "path": "/game/log/2", "value": "Player wins."},
                 {"op": "replace", "path": "/status", "value": "finished"},
                 {"op": "replace", "path": "/to_act", "value": []},
                 {"op": "replace", "path": "/outcome",
                  "value": {"summary": "Player wins.", "winners": [0]}}]
            ]
        }))
        .expect("a replay")
    }

    #[test]
    fn each_step_shows_what_it_logged_then_the_result() {
        let replay = replay();
        let views = replay.views().expect("the steps apply");
        assert_eq!(
            replay_lines(&replay, &views, NOW),
            vec![
                "replay of battle kg4fme4qk7: synergy (version 3), 3 steps, seat 1 played by \
                 the server, seeded, ended 2 min ago",
                "outcome: Player wins.",
                "start: Round 1 of 40: Player's turn.",
                "step 1: Player plays Ember Strike.",
                "step 2: (nothing logged)",
                "step 3: Player wins.",
                "result: Player won.",
                "result: Player wins.",
            ]
        );
    }

    #[test]
    fn a_result_missing_from_the_views_comes_from_the_outcome() {
        let replay = replay();
        let views = replay.views().expect("the steps apply");
        assert_eq!(
            result(&replay, &views[..1]),
            vec!["Player wins.".to_owned()]
        );
    }

    #[test]
    fn the_servers_seats_are_named() {
        assert_eq!(bots_words(&[]), None);
        assert_eq!(
            bots_words(&[0, 1, 2]).as_deref(),
            Some("seats 0, 1 and 2 played by the server")
        );
    }
}
