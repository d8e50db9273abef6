//! How a finished battle is told to the person who played or watched it: a verdict in their
//! own terms ("You won", "You lost"), where each final score comes from, and the ruleset's
//! summary. Shared by the end screen, plain mode and the lines left on the terminal after
//! the full-screen UI closes.

use serde_json::Value;

use super::presence::{seat_count, seat_name};
use battle_client::ViewTracker;

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

/// How a battle ended, from the outcome's `reason` (`None`: the server did not say).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A side's health, party or hero reached 0.
    Knockout,
    /// The game's count decided it: points, lore.
    Score,
    /// A one-player run ended by its own end (all encounters won, or lost).
    Completed,
    /// A seat resigned.
    Resignation,
    /// A seat forfeited on time.
    Time,
    /// A turn or step limit ended it.
    Limit,
}

/// The outcome's `reason`, when it is one this client knows.
pub fn reason(outcome: &Value) -> Option<Reason> {
    Some(match outcome["reason"].as_str()? {
        "knockout" => Reason::Knockout,
        "score" => Reason::Score,
        "completed" => Reason::Completed,
        "resignation" => Reason::Resignation,
        "time" => Reason::Time,
        "limit" => Reason::Limit,
        _ => return None,
    })
}

/// The headline of the result, in the viewer's terms, saying how the battle ended when the
/// outcome's `reason` tells: "You won: Ben forfeited on time.", "You lost: Ana won with 20
/// lore.", "A draw: the battle reached its turn limit.", "Ana won: Ben resigned." for a
/// spectator; "You won the run." alone against the game. Without a reason: "You won.", "You
/// lost: Ana won.", "A draw: nobody won.".
pub fn headline(tracker: &ViewTracker) -> Option<String> {
    let verdict = verdict(tracker)?;
    let view = tracker.view()?;
    let outcome = &view["outcome"];
    let winners: Vec<usize> = outcome["winners"]
        .as_array()
        .map(|w| {
            w.iter()
                .filter_map(Value::as_u64)
                .map(|s| s as usize)
                .collect()
        })
        .unwrap_or_default();
    let names = |seats: &[usize]| -> String {
        let names: Vec<String> = seats.iter().map(|&s| seat_name(view, s)).collect();
        names.join(" and ")
    };
    let count = seat_count(view);
    let losers: Vec<usize> = (0..count.unwrap_or(0))
        .filter(|s| !winners.contains(s))
        .collect();
    let (w, l) = (names(&winners), names(&losers));
    let why = reason(outcome);
    if count == Some(1) {
        return Some(solo_headline(
            verdict,
            why,
            &seat_name(view, 0),
            !winners.is_empty(),
        ));
    }
    let score = score_words(view, winners.first().copied());
    use Reason::{Knockout, Limit, Resignation, Score, Time};
    use Verdict::{Decided, Draw, Lost, Won};
    Some(match (verdict, why) {
        (Won, Some(Knockout)) if !l.is_empty() => format!("You won: {l} was knocked out."),
        (Won, Some(Score)) => format!("You won {score}."),
        (Won, Some(Resignation)) if !l.is_empty() => format!("You won: {l} resigned."),
        (Won, Some(Time)) if !l.is_empty() => format!("You won: {l} forfeited on time."),
        (Won, Some(Limit)) => "You won when the battle reached its turn limit.".to_owned(),
        (Won, _) => "You won.".to_owned(),
        (Lost, Some(Knockout)) if !w.is_empty() => format!("You lost: {w} knocked you out."),
        (Lost, Some(Score)) if !w.is_empty() => format!("You lost: {w} won {score}."),
        (Lost, Some(Resignation)) => "You lost: you resigned.".to_owned(),
        (Lost, Some(Time)) => "You lost: you forfeited on time.".to_owned(),
        (Lost, Some(Limit)) if !w.is_empty() => {
            format!("You lost: {w} won when the battle reached its turn limit.")
        }
        (Lost, _) if w.is_empty() => "You lost.".to_owned(),
        (Lost, _) => format!("You lost: {w} won."),
        (Draw, Some(Limit)) => "A draw: the battle reached its turn limit.".to_owned(),
        (Draw, Some(Knockout)) => "A draw: both sides were knocked out.".to_owned(),
        (Draw, Some(Score)) => "A draw: the scores are level.".to_owned(),
        // Without the seats (a replay's view) a draw cannot be told from a lost solo game.
        (Draw, _) if count.is_none() => "Nobody won.".to_owned(),
        (Draw, _) => "A draw: nobody won.".to_owned(),
        (Decided, _) if w.is_empty() => "The player lost.".to_owned(),
        (Decided, Some(Knockout)) if !l.is_empty() => format!("{w} won: {l} was knocked out."),
        (Decided, Some(Score)) => format!("{w} won {score}."),
        (Decided, Some(Resignation)) if !l.is_empty() => format!("{w} won: {l} resigned."),
        (Decided, Some(Time)) if !l.is_empty() => format!("{w} won: {l} forfeited on time."),
        (Decided, Some(Limit)) => format!("{w} won when the battle reached its turn limit."),
        (Decided, _) => format!("{w} won."),
    })
}

/// The headline of a one-seat battle (a run against the game), for its player or a
/// spectator (`won`: the player won).
fn solo_headline(verdict: Verdict, why: Option<Reason>, player: &str, won: bool) -> String {
    let mine = matches!(verdict, Verdict::Won | Verdict::Lost);
    let how = match why {
        Some(Reason::Resignation) if mine => ": you resigned",
        Some(Reason::Time) if mine => ": you forfeited on time",
        Some(Reason::Knockout) if mine => ": you were defeated",
        Some(Reason::Resignation) => ": they resigned",
        Some(Reason::Time) => ": they forfeited on time",
        Some(Reason::Knockout) => ": they were defeated",
        Some(Reason::Limit) => ": the turn limit was reached",
        _ => "",
    };
    match (mine, won) {
        (true, true) => "You won the run.".to_owned(),
        (true, false) => format!("You lost the run{how}."),
        (false, true) => format!("{player} won the run."),
        (false, false) => format!("{player} lost the run{how}."),
    }
}

/// How the winner's count stands, for a battle decided by score: "with 20 lore" (lore),
/// "with 268 points" (synergy's final score), else "on score".
fn score_words(view: &Value, winner: Option<usize>) -> String {
    let game = &view["game"];
    let count = winner.and_then(|w| match view["ruleset"].as_str() {
        Some("lore") => game["sides"][w]["lore"]
            .as_u64()
            .map(|n| format!("with {n} lore")),
        Some("synergy") => game["result"]["final_scores"][w]
            .as_u64()
            .map(|n| format!("with {n} points")),
        _ => None,
    });
    count.unwrap_or_else(|| "on score".to_owned())
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
            Some("You lost the run."),
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

    /// The finished battle of [`finished`] seen by `seat`, won by `winners`, ended for `reason`.
    fn ended(seat: Value, winners: Value, reason: &str) -> String {
        let mut view = finished(seat, winners).view().expect("a view").clone();
        view["outcome"]["reason"] = json!(reason);
        view["names"] = json!(["Ana", "Player 2"]);
        headline(&ViewTracker::with_view("b", 2, view)).expect("a headline")
    }

    #[test]
    fn the_headline_says_how_the_battle_ended() {
        let cases = [
            (
                json!(0),
                json!([0]),
                "knockout",
                "You won: Player 2 was knocked out.",
            ),
            (
                json!(1),
                json!([0]),
                "knockout",
                "You lost: Ana knocked you out.",
            ),
            (
                json!(null),
                json!([0]),
                "knockout",
                "Ana won: Player 2 was knocked out.",
            ),
            (json!(1), json!([0]), "score", "You lost: Ana won on score."),
            (
                json!(0),
                json!([1]),
                "resignation",
                "You lost: you resigned.",
            ),
            (
                json!(1),
                json!([1]),
                "resignation",
                "You won: Ana resigned.",
            ),
            (
                json!(0),
                json!([1]),
                "time",
                "You lost: you forfeited on time.",
            ),
            (
                json!(1),
                json!([1]),
                "time",
                "You won: Ana forfeited on time.",
            ),
            (
                json!(null),
                json!([1]),
                "time",
                "Player 2 won: Ana forfeited on time.",
            ),
            (
                json!(0),
                json!([]),
                "limit",
                "A draw: the battle reached its turn limit.",
            ),
            (json!(0), json!([0]), "other", "You won."),
        ];
        for (seat, winners, reason, expected) in cases {
            assert_eq!(ended(seat, winners, reason), expected, "{reason}");
        }
        let mut lore = finished(json!(1), json!([0]))
            .view()
            .expect("a view")
            .clone();
        lore["ruleset"] = json!("lore");
        lore["outcome"]["reason"] = json!("score");
        lore["game"]["sides"][0]["lore"] = json!(20);
        assert_eq!(
            headline(&ViewTracker::with_view("b", 2, lore)).as_deref(),
            Some("You lost: Player 1 won with 20 lore.")
        );
        let mut run = finished(json!(0), json!([]))
            .view()
            .expect("a view")
            .clone();
        run["seats"] = json!(["connected"]);
        run["outcome"]["reason"] = json!("time");
        assert_eq!(
            headline(&ViewTracker::with_view("b", 2, run.clone())).as_deref(),
            Some("You lost the run: you forfeited on time.")
        );
        run["seat"] = Value::Null;
        assert_eq!(
            headline(&ViewTracker::with_view("b", 2, run)).as_deref(),
            Some("Player 1 lost the run: they forfeited on time.")
        );
    }
}
