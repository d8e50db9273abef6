//! The view a client receives: the server's envelope around the ruleset's own view.
//!
//! Every ruleset's view travels inside the same envelope, so a generic client finds the
//! battle status, whose decision is awaited and its own legal actions in one place.

use battle_protocol::BattleStatus;
use serde_json::{json, Value};

use crate::ruleset::{Ruleset, Viewer};

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
    let outcome = game.outcome().map(|outcome| {
        json!({
            "winners": outcome.winners,
            "summary": outcome.summary,
        })
    });
    json!({
        "battle_id": battle_id,
        "ruleset": game.id(),
        "status": status,
        "seat": seat,
        "to_act": game.to_act(),
        "legal": legal,
        "outcome": outcome,
        "game": game.view(viewer),
    })
}
