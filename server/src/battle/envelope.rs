//! The view a client receives: the server's envelope around the ruleset's own view.
//!
//! Every ruleset's view travels inside the same envelope, so a generic client finds the
//! battle status, whose decision is awaited and its own legal actions in one place.

use std::sync::OnceLock;

use battle_protocol::BattleStatus;
use serde_json::{Map, Value};

use crate::ruleset::{Ruleset, Viewer};

/// The envelope's keys in the order a JSON map keeps them (sorted).
const KEYS: [&str; 8] = [
    "battle_id",
    "game",
    "legal",
    "outcome",
    "ruleset",
    "seat",
    "status",
    "to_act",
];

/// An envelope with every key and null values. Each view clones it and fills the values in
/// key order: no key lookups, and the ruleset's view is moved in rather than copied (the
/// `json!` macro would serialize it into a fresh `Value`, a deep copy of the whole view).
fn template() -> &'static Map<String, Value> {
    static TEMPLATE: OnceLock<Map<String, Value>> = OnceLock::new();
    TEMPLATE.get_or_init(|| KEYS.iter().map(|k| (k.to_string(), Value::Null)).collect())
}

/// Build `viewer`'s whole view of the battle.
pub fn build(battle_id: &str, status: BattleStatus, game: &dyn Ruleset, viewer: Viewer) -> Value {
    let seat = match viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Spectator => None,
    };
    let legal = match (seat, status) {
        (Some(seat), BattleStatus::Playing) => game.legal_actions(seat),
        _ => Vec::new(),
    };
    let outcome = match game.outcome() {
        Some(outcome) => {
            let mut map = Map::new();
            map.insert("summary".into(), Value::String(outcome.summary));
            map.insert(
                "winners".into(),
                outcome.winners.into_iter().map(Value::from).collect(),
            );
            Value::Object(map)
        }
        None => Value::Null,
    };
    let status = match status {
        BattleStatus::Waiting => "waiting",
        BattleStatus::Playing => "playing",
        BattleStatus::Finished => "finished",
    };
    let values: [Value; 8] = [
        Value::from(battle_id),
        game.view(viewer),
        Value::Array(legal),
        outcome,
        Value::from(game.id()),
        seat.map_or(Value::Null, Value::from),
        Value::from(status),
        game.to_act().into_iter().map(Value::from).collect(),
    ];
    let mut map = template().clone();
    if map.keys().map(String::as_str).eq(KEYS) {
        for (slot, value) in map.values_mut().zip(values) {
            *slot = value;
        }
    } else {
        // A map that keeps insertion order differently: fall back to keyed inserts.
        for (key, value) in KEYS.iter().zip(values) {
            map.insert(key.to_string(), value);
        }
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn status_names_match_the_protocol() {
        for status in [
            BattleStatus::Waiting,
            BattleStatus::Playing,
            BattleStatus::Finished,
        ] {
            let wire = serde_json::to_value(status).expect("status serializes");
            let game = crate::rules::find("synergy").expect("synergy").build;
            let game = game(&json!({"mode": "pvp"}), 1).expect("pvp builds");
            let view = build("b1", status, &*game, Viewer::Spectator);
            assert_eq!(view["status"], wire);
            assert_eq!(view["battle_id"], "b1");
            assert_eq!(view["ruleset"], "synergy");
            assert_eq!(view["seat"], Value::Null);
            assert_eq!(view["legal"], json!([]));
            assert!(view["game"].is_object());
            let keys: Vec<&String> = view.as_object().expect("object").keys().collect();
            assert_eq!(keys, KEYS);
        }
    }
}
