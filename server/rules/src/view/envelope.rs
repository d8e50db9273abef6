//! The view a client receives: the server's envelope around the ruleset's own view.
//!
//! Every ruleset's view travels inside the same envelope, so a generic client finds the
//! battle status, whose decision is awaited, what it is asked and its own legal actions in
//! one place.

use battle_protocol::{BattleStatus, SeatInfo};

use crate::ruleset::Ruleset;
use crate::view::value::{Key, ViewValue};
use crate::view::viewers::{Viewer, Viewers};
use crate::words::Names;

/// The envelope's keys, in the order views hold them.
pub const KEYS: [&str; 11] = [
    "battle_id",
    "game",
    "legal",
    "names",
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
/// that players see an opponent arrive, leave and come back; `names` how every text names
/// each seat (the battle's own [`Names`] once it has started, else the seat holders' names).
pub fn build_all(
    battle_id: &str,
    status: BattleStatus,
    seats: &[SeatInfo],
    game: &dyn Ruleset,
    watching: Viewers,
) -> ViewValue {
    let outcome = match game.outcome() {
        Some(outcome) => ViewValue::object([
            ("reason", outcome.reason.as_str().into()),
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
    put(KEYS[3], names_view(seats, game));
    put(KEYS[4], outcome);
    let to_act = game.to_act();
    for viewer in watching.iter() {
        // Only a seat whose decision is awaited is asked something.
        let prompt = match (viewer, status) {
            (Viewer::Seat(seat), BattleStatus::Playing) if to_act.contains(&seat) => {
                game.prompt_view(seat)
            }
            _ => ViewValue::Null,
        };
        put(KEYS[5], only(viewer, prompt));
    }
    put(KEYS[6], game.id().into());
    for viewer in watching.iter() {
        let seat = match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        };
        put(KEYS[7], only(viewer, seat.into()));
    }
    put(KEYS[8], seats_view(seats));
    put(KEYS[9], status_name.into());
    put(KEYS[10], to_act.into());
    ViewValue::Object(pairs)
}

/// Each seat's name, in seat order: the battle's [`Names`] once it has started (what its
/// log and outcome say), before that the names the seats' holders gave (`seats`, which a
/// replay leaves empty: a replay has started).
fn names_view(seats: &[SeatInfo], game: &dyn Ruleset) -> ViewValue {
    let text = |names: &Names| {
        ViewValue::List(
            names
                .all()
                .iter()
                .map(|name| ViewValue::text(name))
                .collect(),
        )
    };
    match game.names() {
        Some(names) => text(names),
        None => {
            let given = (0..game.seat_count())
                .map(|seat| {
                    let held = seats.get(seat).and_then(|info| info.name.clone());
                    held.or_else(|| game.bot_name(seat).map(str::to_owned))
                })
                .collect();
            text(&Names::new(given))
        }
    }
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
                name: Some("Ana".into()),
            }];
            let waiting = build_all("b1", status, &seats, &*game, Viewers::SPECTATORS);
            let waiting = waiting.project(Viewer::Spectator).to_value();
            assert_eq!(waiting["game"], Value::Null);
            assert_eq!(waiting["names"], json!(["Ana", "Player 2"]));
            for (seat, name) in [(0, Some("Ana")), (1, None)] {
                game.setup_as(seat, None, name).expect("the default setup");
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
            assert_eq!(view["names"], json!(["Ana", "Player 2"]));
            assert!(view["game"].is_object());
        }
    }
}
