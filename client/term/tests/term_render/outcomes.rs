//! How the end of a battle is told on screen, for each way it can end (a knockout, the
//! score, a resignation, a time forfeit, a turn limit, a run's own end), to the winner, the
//! loser and a spectator, with the people named the one way they are named everywhere.

use battle_term::Link;
use serde_json::{json, Value};

use super::{assert_snapshot, render};

/// The synergy battle between two people (Ana in seat 0, Player 2 without a name in seat
/// 1), over: `winners` won for `reason`, told by `summary`, seen by `seat`.
fn ended(seat: Option<u64>, winners: Value, reason: &str, summary: &str) -> Value {
    let mut view = super::finished();
    view["seat"] = json!(seat);
    view["seats"] = json!(["connected", "connected"]);
    view["names"] = json!(["Ana", "Player 2"]);
    view["game"]["mode"] = json!("pvp");
    if seat != Some(0) {
        view["game"]["sides"][0]
            .as_object_mut()
            .expect("a side is an object")
            .remove("hand");
    }
    view["outcome"] = json!({"winners": winners, "reason": reason, "summary": summary});
    view["game"]["result"]["summary"] = json!(summary);
    view
}

/// The first line of the result box.
fn headline(view: Value) -> String {
    let shown = render(view, Link::Connected, "", false);
    let box_top = shown
        .lines()
        .position(|l| l.contains("battle over ─"))
        .unwrap_or_else(|| panic!("no result box:\n{shown}"));
    let line = shown.lines().nth(box_top + 1).expect("a headline");
    line.trim_matches(|c| c == '│' || c == ' ').to_owned()
}

#[test]
fn each_way_of_ending_is_told_to_each_viewer() {
    let cases: [(Option<u64>, Value, &str, &str, &str); 14] = [
        (
            Some(0),
            json!([0]),
            "knockout",
            "Ana wins: Player 2 is out of HP.",
            "You won: Player 2 was knocked out.",
        ),
        (
            Some(1),
            json!([0]),
            "knockout",
            "Ana wins: Player 2 is out of HP.",
            "You lost: Ana knocked you out.",
        ),
        (
            None,
            json!([0]),
            "knockout",
            "Ana wins: Player 2 is out of HP.",
            "Ana won: Player 2 was knocked out.",
        ),
        (
            Some(0),
            json!([0]),
            "score",
            "Ana wins with 168 points.",
            "You won with 168 points.",
        ),
        (
            Some(1),
            json!([0]),
            "score",
            "Ana wins with 168 points.",
            "You lost: Ana won with 168 points.",
        ),
        (
            Some(1),
            json!([0]),
            "resignation",
            "Player 2 resigns: Ana wins.",
            "You lost: you resigned.",
        ),
        (
            Some(0),
            json!([0]),
            "resignation",
            "Player 2 resigns: Ana wins.",
            "You won: Player 2 resigned.",
        ),
        (
            None,
            json!([0]),
            "resignation",
            "Player 2 resigns: Ana wins.",
            "Ana won: Player 2 resigned.",
        ),
        (
            Some(0),
            json!([1]),
            "time",
            "Ana forfeits on time: Player 2 wins.",
            "You lost: you forfeited on time.",
        ),
        (
            Some(1),
            json!([1]),
            "time",
            "Ana forfeits on time: Player 2 wins.",
            "You won: Ana forfeited on time.",
        ),
        (
            None,
            json!([1]),
            "time",
            "Ana forfeits on time: Player 2 wins.",
            "Player 2 won: Ana forfeited on time.",
        ),
        (
            Some(0),
            json!([]),
            "limit",
            "Round 40 ends with no knockout: a draw.",
            "A draw: the battle reached its turn limit.",
        ),
        (
            None,
            json!([]),
            "limit",
            "Round 40 ends with no knockout: a draw.",
            "A draw: the battle reached its turn limit.",
        ),
        (Some(0), json!([0]), "other", "Ana wins.", "You won."),
    ];
    for (seat, winners, reason, summary, expected) in cases {
        let view = ended(seat, winners, reason, summary);
        assert_eq!(
            headline(view.clone()),
            expected,
            "{reason} seen by {seat:?}"
        );
        let shown = render(view, Link::Connected, "", false);
        assert!(shown.contains(summary), "the summary follows:\n{shown}");
        assert!(
            !shown.contains("seat 0") && !shown.contains("seat 1"),
            "{shown}"
        );
    }
}

#[test]
fn a_time_forfeit_is_not_called_a_resignation() {
    let view = ended(
        Some(0),
        json!([1]),
        "time",
        "Ana forfeits on time: Player 2 wins.",
    );
    let shown = render(view, Link::Connected, "", false);
    assert!(
        shown.contains("You lost: you forfeited on time."),
        "{shown}"
    );
    assert!(!shown.contains("resign"), "{shown}");
    assert_snapshot("outcome_time_forfeit", &shown);
}

#[test]
fn without_a_reason_the_result_still_names_the_winner() {
    let mut view = ended(Some(1), json!([0]), "knockout", "Ana wins.");
    view["outcome"]
        .as_object_mut()
        .expect("an outcome object")
        .remove("reason");
    assert_eq!(headline(view), "You lost: Ana won.");
}

#[test]
fn lore_is_won_with_its_count_and_a_run_by_its_end() {
    let mut lore = super::lore::main_phase(Some(1));
    lore["status"] = json!("finished");
    lore["legal"] = json!([]);
    lore["to_act"] = json!([]);
    lore["game"]["phase"] = json!("over");
    lore["game"]["sides"][0]["lore"] = json!(20);
    lore["outcome"] = json!({"winners": [0], "reason": "score",
        "summary": "Player 1 wins with 20 lore."});
    let shown = render(lore, Link::Connected, "", false);
    assert!(
        shown.contains("You lost: Player 1 won with 20 lore."),
        "{shown}"
    );
    let mut run = super::roguelite::player_phase(Some(0));
    run["status"] = json!("finished");
    run["legal"] = json!([]);
    run["to_act"] = json!([]);
    run["game"]["stage"] = json!("over");
    run["outcome"] = json!({"winners": [], "reason": "limit",
        "summary": "The run is lost: Tide Golem still stands after 30 phases."});
    let shown = render(run, Link::Connected, "", false);
    assert!(
        shown.contains("You lost the run: the turn limit was reached."),
        "{shown}"
    );
}
