//! The view a client receives: the server's envelope around the ruleset's own view.
//!
//! Every ruleset's view travels inside the same envelope, so a generic client finds the
//! battle status, whose decision is awaited and its own legal actions in one place.

use battle_protocol::BattleStatus;
use serde_json::{Map, Value};

use crate::json_shape::Shape;
use crate::ruleset::{Ruleset, Viewer};

/// The envelope's keys. Filling a cached template moves the ruleset's view in; the `json!`
/// macro would serialize it into a fresh `Value`, a deep copy of the whole view.
static ENVELOPE: Shape<8> = Shape::new([
    "battle_id",
    "game",
    "legal",
    "outcome",
    "ruleset",
    "seat",
    "status",
    "to_act",
]);

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
    ENVELOPE.fill(values)
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
            assert_eq!(keys, ENVELOPE.keys());
        }
    }
}
