//! The server's generic bot: plays a seat whose ruleset has no AI of its own.

use battle_protocol::Seat;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use battle_rules::ruleset::Ruleset;

/// The move a bot makes for `seat`: the ruleset's own AI when it has one, otherwise a
/// uniformly random legal action. `None` when the seat has nothing to do.
pub fn choose(game: &dyn Ruleset, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Value> {
    if let Some(action) = game.ai_action(seat) {
        return Some(action);
    }
    let mut legal = game.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    let pick = rng.random_range(0..legal.len());
    Some(legal.swap_remove(pick))
}
