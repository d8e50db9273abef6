//! The view a client receives: the server's envelope around the ruleset's own view.
//!
//! Every ruleset's view travels inside the same envelope, so a generic client finds the
//! battle status, whose decision is awaited, what it is asked and its own legal actions in
//! one place.

use battle_protocol::{BattleStatus, SeatInfo};

use crate::ruleset::Ruleset;
use crate::view::value::{Key, ViewValue};
use crate::view::viewers::{Viewer, Viewers};

/// The envelope's keys, in the order views hold them.
pub const KEYS: [&str; 10] = [
    "battle_id",
    "game",
    "legal",
    "outcome",
    "prompt",
    "ruleset",
    "seat",
    "seats",
    "status",
    "to_act",
];

/// Build the view of the battle for all of `watching` at once: the ruleset's
/// [`view_all`](Ruleset::view_all) inside the envelope, whose `legal`, `prompt` and `seat`
/// members are given once per viewer in `watching`, each marked for that viewer alone.
/// `seats` says who holds each seat and whether they are connected (public to everyone), so
/// that players see an opponent arrive, leave and come back.
pub fn build_all(
    battle_id: &str,
    status: BattleStatus,
    seats: &[SeatInfo],
    game: &dyn Ruleset,
    watching: Viewers,
) -> ViewValue {
    let outcome = match game.outcome() {
        Some(outcome) => ViewValue::object([
            ("summary", outcome.summary.into()),
            ("winners", outcome.winners.into()),
        ]),
        None => ViewValue::Null,
    };
    let status_name = match status {
        BattleStatus::Waiting => "waiting",
        BattleStatus::Playing => "playing",
        BattleStatus::Finished => "finished",
    };
    // Per viewer: spectators first, then the seats (the order `Viewers::iter` gives, the
    // same in every view of the battle).
    let only =
        |viewer: Viewer, value: ViewValue| ViewValue::Only(Viewers::of(viewer), Box::new(value));
    let mut pairs: Vec<(Key, ViewValue)> = Vec::with_capacity(KEYS.len() + 9);
    let mut put = |key: &'static str, value: ViewValue| pairs.push((Key::Borrowed(key), value));
    put(KEYS[0], ViewValue::text(battle_id));
    put(KEYS[1], game.view_all());
    for viewer in watching.iter() {
        let legal = match (viewer, status) {
            (Viewer::Seat(seat), BattleStatus::Playing) => game.legal_view(seat),
            _ => ViewValue::List(Vec::new()),
        };
        put(KEYS[2], only(viewer, legal));
    }
    put(KEYS[3], outcome);
    let to_act = game.to_act();
    for viewer in watching.iter() {
        // Only a seat whose decision is awaited is asked something.
        let prompt = match (viewer, status) {
            (Viewer::Seat(seat), BattleStatus::Playing) if to_act.contains(&seat) => {
                game.prompt_view(seat)
            }
            _ => ViewValue::Null,
        };
        put(KEYS[4], only(viewer, prompt));
    }
    put(KEYS[5], game.id().into());
    for viewer in watching.iter() {
        let seat = match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        };
        put(KEYS[6], only(viewer, seat.into()));
    }
    put(KEYS[7], seats_view(seats));
    put(KEYS[8], status_name.into());
    put(KEYS[9], to_act.into());
    ViewValue::Object(pairs)
}

/// Each seat as one word, in seat order: `free` (nobody holds it), `bot` (the server plays
/// it), `connected` (its holder is connected), `away` (held, but its holder's connection is
/// gone: the seat waits for `rejoin`). Words are literals: the list is one allocation.
fn seats_view(seats: &[SeatInfo]) -> ViewValue {
    ViewValue::List(seats.iter().map(|info| seat_word(info).into()).collect())
}

/// The word for one seat (see [`seats_view`]).
pub fn seat_word(info: &SeatInfo) -> &'static str {
    match (info.taken, info.bot, info.connected) {
        (_, true, _) => "bot",
        (false, false, _) => "free",
        (true, false, true) => "connected",
        (true, false, false) => "away",
    }
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
            let build = crate::catalog::find("synergy").expect("synergy").build;
            let mut game = build(&json!({"mode": "pvp"}), 1).expect("pvp builds");
            let seats = [SeatInfo {
                seat: 0,
                taken: true,
                bot: false,
                connected: false,
            }];
            let waiting = build_all("b1", status, &seats, &*game, Viewers::SPECTATORS);
            assert_eq!(
                waiting.project(Viewer::Spectator).to_value()["game"],
                Value::Null
            );
            for seat in 0..2 {
                game.setup(seat, None).expect("the default setup");
            }
            let view = build_all("b1", status, &seats, &*game, Viewers::SPECTATORS)
                .project(Viewer::Spectator);
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
            assert_eq!(view["prompt"], Value::Null);
            assert_eq!(view["seats"], json!(["away"]));
            assert!(view["game"].is_object());
        }
    }
}
