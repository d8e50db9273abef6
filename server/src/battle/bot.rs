//! The server's bot: plays a seat with the ruleset's own AI, or with random actions where the
//! ruleset has none.

use battle_protocol::Seat;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use battle_rules::ruleset::Ruleset;

/// The move a bot makes for `seat`: the ruleset's own AI when it has one, otherwise a random
/// action the ruleset draws from the battle's bot generator (open decisions included). `None`
/// when the seat has nothing to do.
pub fn choose(game: &dyn Ruleset, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Value> {
    game.ai_action(seat)
        .or_else(|| game.random_action(seat, rng))
}
