//! Turning a [`Command`] into an action the server will accept, using only the view: the
//! envelope's `legal` list decides, and anything not in it is refused here, in words,
//! without a round trip.

use serde_json::Value;

use super::form::{filled, needs_choice};
use super::keys::Command;
use super::ui::gambit::phase_action;
use battle_client::{fill, ViewTracker};

/// What a command did, when it was not refused.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Only the selection changed.
    Nothing,
    /// Something to tell the person (nothing is sent).
    Note(String),
    /// Send this action (one of `legal`, or admitted by an open entry of it).
    Send(Value),
}

/// The n-th (1-based) legal entry.
fn entry(legal: &[Value], n: usize) -> Result<&Value, String> {
    n.checked_sub(1)
        .and_then(|i| legal.get(i))
        .ok_or_else(|| format!("there is no legal action {n}: {} are legal", legal.len()))
}

/// Whether this client may act now at all: `Err` says why not (no view yet, spectating,
/// the battle not started or over, nothing legal for the seat).
pub fn can_act(tracker: &ViewTracker) -> Result<(), String> {
    in_play(tracker)?;
    if tracker.legal_actions().is_empty() {
        return Err(nothing_to_do(tracker));
    }
    Ok(())
}

/// Why a seat with no legal action cannot act.
fn nothing_to_do(tracker: &ViewTracker) -> String {
    if tracker.my_turn() {
        "you have nothing to do now".to_owned()
    } else {
        "it is not your turn".to_owned()
    }
}

/// The view and this client's seat, when the battle is being played; otherwise why no
/// action can be sent.
fn in_play(tracker: &ViewTracker) -> Result<(&Value, usize), String> {
    let Some(view) = tracker.view() else {
        return Err("no view of the battle yet".to_owned());
    };
    let Some(seat) = tracker.seat() else {
        return Err("spectators cannot act".to_owned());
    };
    match view["status"].as_str() {
        Some("waiting") => {
            let free = super::presence::free_names(view);
            return Err(if free.is_empty() {
                "the battle has not started yet".to_owned()
            } else {
                format!("the battle has not started: waiting for {free}")
            });
        }
        Some("finished") => return Err("the battle is over".to_owned()),
        _ => {}
    }
    Ok((view, seat))
}

/// The action to send for `command`, or why it cannot be sent now. Only `Play`, `Fill`,
/// `EndTurn` and the phase commands (`PauseResume`, `Start`, `Skip`: the legal entry of
/// that kind) produce actions; other commands are refused (the front end handles them;
/// gambit's selection and editor are [`GambitUi`](super::ui::gambit::GambitUi)).
///
/// For synergy, `Play(n)` is the n-th card of the seat's hand; for other rulesets it is the
/// n-th entry of `legal`, and an open entry needs its values (`Fill`). A seat may act
/// whenever it has legal actions, whether or not the battle awaits its decision.
pub fn resolve(tracker: &ViewTracker, command: Command) -> Result<Value, String> {
    let (view, seat) = in_play(tracker)?;
    let legal = tracker.legal_actions();
    let phase_kinds: &[&str] = match command {
        Command::PauseResume => &["pause", "resume"],
        Command::Start => &["start"],
        Command::Skip => &["skip"],
        _ => &[],
    };
    if !phase_kinds.is_empty() {
        if view["ruleset"] == "gambit" {
            return phase_action(tracker, phase_kinds);
        }
        return legal
            .iter()
            .find(|a| phase_kinds.iter().any(|k| a["kind"] == *k))
            .cloned()
            .ok_or_else(|| format!("there is no {} action now", phase_kinds.join(" or ")));
    }
    if legal.is_empty() {
        return Err(nothing_to_do(tracker));
    }
    let synergy = view["ruleset"] == "synergy";
    match command {
        // A ruleset names its end of turn `end_turn` or `pass_turn` (lore).
        Command::EndTurn => legal
            .iter()
            .find(|a| a["kind"] == "end_turn" || a["kind"] == "pass_turn")
            .cloned()
            .ok_or_else(|| "you cannot end the turn now".to_owned()),
        Command::Play(n) if synergy => {
            let hand = view["game"]["sides"][seat]["hand"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            let Some(card) = n.checked_sub(1).and_then(|i| hand.get(i)) else {
                return Err(format!(
                    "there is no card {n}: your hand holds {}",
                    hand.len()
                ));
            };
            let name = card["name"].as_str().unwrap_or("that card");
            legal
                .iter()
                .find(|a| a["kind"] == "play_card" && a["card"] == card["id"])
                .cloned()
                .ok_or_else(|| {
                    let energy = &view["game"]["sides"][seat]["energy"];
                    format!(
                        "{name} cannot be played now (cost {}, energy {energy})",
                        card["cost"]
                    )
                })
        }
        Command::Play(n) => {
            let entry = entry(legal, n)?;
            if needs_choice(entry) {
                return Err(format!(
                    "action {n} needs values (play {n} VALUES in plain mode): {}",
                    fill::describe(entry)
                ));
            }
            filled(entry)
        }
        Command::Fill(n, values) => {
            let words: Vec<&str> = values.iter().map(String::as_str).collect();
            fill::fill_from_text(entry(legal, n)?, &words)
        }
        Command::ClearRule | Command::MoveRule(_) if view["ruleset"] != "gambit" => {
            Err("that key edits gambit rules; it does nothing here".to_owned())
        }
        Command::Help
        | Command::Quit
        | Command::Retry
        | Command::ScrollBack(_)
        | Command::ScrollForward(_)
        | Command::ScrollEnd
        | Command::PauseResume
        | Command::Start
        | Command::Skip
        | Command::Nav(_)
        | Command::Confirm
        | Command::Cancel
        | Command::Toggle
        | Command::Resign
        | Command::ClearRule
        | Command::MoveRule(_) => Err("that command sends nothing".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tracker(seat: Value, to_act: Value, legal: Value, energy: u64) -> ViewTracker {
        tracked(json!({
            "battle_id": "b", "ruleset": "synergy", "status": "playing", "seat": seat,
            "to_act": to_act, "legal": legal, "outcome": null,
            "game": {"sides": [{"energy": energy, "hand": [
                {"id": 4, "name": "Cog Shot", "cost": 1},
                {"id": 9, "name": "Ashen Focus", "cost": 1}
            ]}, {}]}
        }))
    }

    /// A tracker holding `view` of battle `b`.
    fn tracked(view: Value) -> ViewTracker {
        ViewTracker::with_view("b", 1, view)
    }

    #[test]
    fn legal_choices_become_actions() {
        let t = tracker(
            json!(0),
            json!([0]),
            json!([{"kind": "play_card", "card": 9}, {"kind": "end_turn"}]),
            1,
        );
        assert_eq!(
            resolve(&t, Command::Play(2)),
            Ok(json!({"kind": "play_card", "card": 9}))
        );
        assert_eq!(
            resolve(&t, Command::EndTurn),
            Ok(json!({"kind": "end_turn"}))
        );
    }

    #[test]
    fn illegal_choices_are_refused_in_words() {
        let t = tracker(json!(0), json!([0]), json!([{"kind": "end_turn"}]), 0);
        assert_eq!(
            resolve(&t, Command::Play(1)),
            Err("Cog Shot cannot be played now (cost 1, energy 0)".to_owned())
        );
        assert_eq!(
            resolve(&t, Command::Play(3)),
            Err("there is no card 3: your hand holds 2".to_owned())
        );
        let waiting = tracker(json!(0), json!([1]), json!([]), 3);
        assert_eq!(
            resolve(&waiting, Command::EndTurn),
            Err("it is not your turn".to_owned())
        );
        let spectator = tracker(Value::Null, json!([0]), json!([]), 3);
        assert_eq!(
            resolve(&spectator, Command::Play(1)),
            Err("spectators cannot act".to_owned())
        );
    }

    #[test]
    fn open_entries_need_values_within_their_bounds() {
        let t = tracked(json!({
            "battle_id": "b", "ruleset": "blind", "status": "playing", "seat": 1,
            "to_act": [0], "outcome": null, "game": {},
            "legal": [
                {"kind": "bid", "cards": {"$choose": {"type": "array", "items": {"enum": [2, 4]},
                 "uniqueItems": true, "minItems": 1, "maxItems": 1}}},
                {"kind": "signal", "mood": "wary"}
            ]
        }));
        // Not awaited (seat 0 is), yet it may act: its legal list is not empty.
        assert_eq!(
            resolve(&t, Command::Play(2)),
            Ok(json!({"kind": "signal", "mood": "wary"}))
        );
        let err = resolve(&t, Command::Play(1)).expect_err("values needed");
        assert_eq!(
            err,
            "action 1 needs values (play 1 VALUES in plain mode): bid: cards = 1 of [2, 4]"
        );
        assert_eq!(
            resolve(&t, Command::Fill(1, vec!["4".into()])),
            Ok(json!({"kind": "bid", "cards": [4]}))
        );
        assert!(resolve(&t, Command::Fill(1, vec!["3".into()])).is_err());
    }
}
