//! Turning a [`Command`] into an action the server will accept, using only the view: the
//! envelope's `legal` list decides, and anything not in it is refused here, in words,
//! without a round trip.

use serde_json::Value;

use super::keys::Command;
use crate::ViewTracker;

/// The action to send for `command`, or why it cannot be sent now. Only `Play` and
/// `EndTurn` produce actions; other commands are refused (the front end handles them).
///
/// For synergy, `Play(n)` is the n-th card of the seat's hand; for other rulesets it is the
/// n-th entry of `legal`.
pub fn resolve(tracker: &ViewTracker, command: Command) -> Result<Value, String> {
    let Some(view) = tracker.view() else {
        return Err("no view of the battle yet".to_owned());
    };
    let Some(seat) = tracker.seat() else {
        return Err("spectators cannot act".to_owned());
    };
    match view["status"].as_str() {
        Some("waiting") => return Err("the battle has not started: a seat is still free".into()),
        Some("finished") => return Err("the battle is over".to_owned()),
        _ => {}
    }
    if !tracker.my_turn() {
        return Err("it is not your turn".to_owned());
    }
    let legal = tracker.legal_actions();
    let synergy = view["ruleset"] == "synergy";
    match command {
        Command::EndTurn => legal
            .iter()
            .find(|a| a["kind"] == "end_turn")
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
        Command::Play(n) => n
            .checked_sub(1)
            .and_then(|i| legal.get(i))
            .cloned()
            .ok_or_else(|| format!("there is no legal action {n}: {} are legal", legal.len())),
        Command::Help | Command::Quit => Err("that command sends nothing".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_protocol::ServerMsg;
    use serde_json::json;

    fn tracker(seat: Value, to_act: Value, legal: Value, energy: u64) -> ViewTracker {
        let view = json!({
            "battle_id": "b", "ruleset": "synergy", "status": "playing", "seat": seat,
            "to_act": to_act, "legal": legal, "outcome": null,
            "game": {"sides": [{"energy": energy, "hand": [
                {"id": 4, "name": "Cog Shot", "cost": 1},
                {"id": 9, "name": "Ashen Focus", "cost": 1}
            ]}, {}]}
        });
        let mut t = ViewTracker::new("b");
        t.apply(&ServerMsg::Snapshot {
            battle_id: "b".into(),
            seq: 1,
            view,
            req: None,
        })
        .expect("a snapshot of the tracked battle applies");
        t
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
}
