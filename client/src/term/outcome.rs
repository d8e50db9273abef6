//! How a finished battle is told to the person who played or watched it: a verdict in their
//! own terms ("You won", "You lost"), where each final score comes from, and the ruleset's
//! summary. Shared by the end screen, plain mode and the lines left on the terminal after
//! the full-screen UI closes.

use serde_json::Value;

use super::presence::{seat_count, seat_name};
use crate::ViewTracker;

/// The result as the viewer lived it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The viewer's seat is among the winners.
    Won,
    /// Someone else won.
    Lost,
    /// Nobody won.
    Draw,
    /// A spectator's view of a battle someone won.
    Decided,
}

/// The verdict for the viewer of `tracker`, once the battle is over.
pub fn verdict(tracker: &ViewTracker) -> Option<Verdict> {
    let winners: Vec<u64> = tracker.outcome()?["winners"]
        .as_array()
        .map(|w| w.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    // With one seat the player plays against the game itself: nobody winning is a loss.
    let solo = seat_count(tracker.view()?) == Some(1);
    Some(match tracker.seat() {
        Some(_) if winners.is_empty() && solo => Verdict::Lost,
        None if winners.is_empty() && solo => Verdict::Decided,
        _ if winners.is_empty() => Verdict::Draw,
        Some(seat) if winners.contains(&(seat as u64)) => Verdict::Won,
        Some(_) => Verdict::Lost,
        None => Verdict::Decided,
    })
}

/// "You won.", "You lost: Player 2 won.", "A draw: nobody won.", or "Player 1 won." for a
/// spectator.
pub fn headline(tracker: &ViewTracker) -> Option<String> {
    let verdict = verdict(tracker)?;
    let view = tracker.view()?;
    let winners: Vec<String> = view["outcome"]["winners"]
        .as_array()
        .map(|w| {
            w.iter()
                .filter_map(Value::as_u64)
                .map(|s| seat_name(view, s as usize))
                .collect()
        })
        .unwrap_or_default();
    let winners = winners.join(" and ");
    Some(match verdict {
        Verdict::Won => "You won.".to_owned(),
        Verdict::Lost if winners.is_empty() => "You lost.".to_owned(),
        Verdict::Lost => format!("You lost: {winners} won."),
        // Without the seats (a replay's view) a draw cannot be told from a lost solo game.
        Verdict::Draw if seat_count(view).is_none() => "Nobody won.".to_owned(),
        Verdict::Draw => "A draw: nobody won.".to_owned(),
        Verdict::Decided if winners.is_empty() => "The player lost.".to_owned(),
        Verdict::Decided => format!("{winners} won."),
    })
}

/// Where each final score comes from, one line per seat, when the result carries a
/// `breakdown` (synergy: running score, win bonus, healthy-HP bonus, or why it is 0).
pub fn score_lines(view: &Value) -> Vec<String> {
    let result = &view["game"]["result"];
    let Some(breakdown) = result["breakdown"].as_array() else {
        return Vec::new();
    };
    breakdown
        .iter()
        .enumerate()
        .map(|(seat, b)| {
            let name = seat_name(view, seat);
            if let Some(why) = b["zeroed_by"].as_str() {
                return format!(
                    "{name}: {why}, so the final score is 0 (the running score {} does not count)",
                    b["score"]
                );
            }
            let mut parts = vec![format!("score {}", b["score"])];
            if b["win_bonus"].as_u64().unwrap_or(0) > 0 {
                parts.push(format!("{} for the win", b["win_bonus"]));
            }
            if b["hp_bonus"].as_u64().unwrap_or(0) > 0 {
                parts.push(format!("{} for ending healthy", b["hp_bonus"]));
            }
            format!("{name}: {} = {}", parts.join(" + "), b["total"])
        })
        .collect()
}

/// Everything worth keeping about the result: the headline, the score lines and the
/// ruleset's own summary. Empty while the battle runs.
pub fn result_lines(tracker: &ViewTracker) -> Vec<String> {
    let (Some(headline), Some(view)) = (headline(tracker), tracker.view()) else {
        return Vec::new();
    };
    let mut lines = vec![headline];
    lines.extend(score_lines(view));
    if let Some(summary) = view["outcome"]["summary"].as_str() {
        lines.push(summary.to_owned());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn finished(seat: Value, winners: Value) -> ViewTracker {
        let view = json!({
            "battle_id": "b", "ruleset": "synergy", "status": "finished", "seat": seat,
            "seats": ["connected", "connected"],
            "outcome": {"winners": winners, "summary": "Player 1 wins by knockout."},
            "game": {"sides": [{"name": "Player 1"}, {"name": "Player 2"}],
                "result": {"breakdown": [
                    {"score": 138, "win_bonus": 100, "hp_bonus": 30, "total": 268,
                     "zeroed_by": null},
                    {"score": 144, "win_bonus": 0, "hp_bonus": 0, "total": 0,
                     "zeroed_by": "knocked out"}]}}
        });
        ViewTracker::with_view("b", 1, view)
    }

    #[test]
    fn each_viewer_is_told_the_result_in_their_own_terms() {
        assert_eq!(
            headline(&finished(json!(0), json!([0]))).as_deref(),
            Some("You won.")
        );
        assert_eq!(
            headline(&finished(json!(1), json!([0]))).as_deref(),
            Some("You lost: Player 1 won.")
        );
        assert_eq!(
            headline(&finished(json!(null), json!([0]))).as_deref(),
            Some("Player 1 won.")
        );
        assert_eq!(
            headline(&finished(json!(0), json!([]))).as_deref(),
            Some("A draw: nobody won.")
        );
        let mut view = finished(json!(0), json!([]))
            .view()
            .expect("a view")
            .clone();
        view["seats"] = json!(["connected"]);
        let solo = ViewTracker::with_view("b", 2, view);
        assert_eq!(
            headline(&solo).as_deref(),
            Some("You lost."),
            "alone against the game, nobody winning is a loss"
        );
        let mut replayed = finished(json!(null), json!([]))
            .view()
            .expect("a view")
            .clone();
        replayed.as_object_mut().expect("an object").remove("seats");
        assert_eq!(
            headline(&ViewTracker::with_view("b", 2, replayed)).as_deref(),
            Some("Nobody won."),
            "without seats a draw and a lost solo game read alike"
        );
        let lines = result_lines(&finished(json!(1), json!([0])));
        assert_eq!(
            lines,
            vec![
                "You lost: Player 1 won.",
                "Player 1: score 138 + 100 for the win + 30 for ending healthy = 268",
                "Player 2: knocked out, so the final score is 0 (the running score 144 does \
                 not count)",
                "Player 1 wins by knockout.",
            ]
        );
    }
}
