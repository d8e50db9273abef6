//! The view a client receives: the server's envelope around the ruleset's own view.
//!
//! Every ruleset's view travels inside the same envelope, so a generic client finds the
//! battle status, whose decision is awaited and its own legal actions in one place.

use battle_protocol::BattleStatus;

use crate::ruleset::{Ruleset, Viewer};
use crate::view_value::ViewValue;

/// The envelope's keys, in the order views hold them.
pub const KEYS: [&str; 8] = [
    "battle_id",
    "game",
    "legal",
    "outcome",
    "ruleset",
    "seat",
    "status",
    "to_act",
];

/// Build `viewer`'s whole view of the battle.
pub fn build(
    battle_id: &str,
    status: BattleStatus,
    game: &dyn Ruleset,
    viewer: Viewer,
) -> ViewValue {
    let seat = match viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Spectator => None,
    };
    let legal = match (seat, status) {
        (Some(seat), BattleStatus::Playing) => game.legal_view(seat),
        _ => ViewValue::List(Vec::new()),
    };
    let outcome = match game.outcome() {
        Some(outcome) => ViewValue::object([
            ("summary", outcome.summary.into()),
            ("winners", outcome.winners.into()),
        ]),
        None => ViewValue::Null,
    };
    let status = match status {
        BattleStatus::Waiting => "waiting",
        BattleStatus::Playing => "playing",
        BattleStatus::Finished => "finished",
    };
    ViewValue::object([
        (KEYS[0], ViewValue::text(battle_id)),
        (KEYS[1], game.view(viewer)),
        (KEYS[2], legal),
        (KEYS[3], outcome),
        (KEYS[4], game.id().into()),
        (KEYS[5], seat.into()),
        (KEYS[6], status.into()),
        (KEYS[7], game.to_act().into()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

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
            let ViewValue::Object(pairs) = &view else {
                panic!("the envelope is an object")
            };
            let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_ref()).collect();
            assert_eq!(keys, KEYS);
            let view = view.to_value();
            assert_eq!(view["status"], wire);
            assert_eq!(view["battle_id"], "b1");
            assert_eq!(view["ruleset"], "synergy");
            assert_eq!(view["seat"], Value::Null);
            assert_eq!(view["legal"], json!([]));
            assert!(view["game"].is_object());
        }
    }
}
