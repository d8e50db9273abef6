//! Who is at the table: the envelope's `seats` (taken, connected, bot) read for people, the
//! one way a seat is named on screen ([`seat_name`]), and the notices a change of them
//! deserves ("Player 2 joined", "Player 2 left", "is back").
//!
//! A seat is named as the server names it in its own text: the envelope's `names[i]` (the
//! name its holder gave, a bot's name, else "Player N"), or "Player N" (counted from 1) from
//! a server that sends no `names`. The protocol's seat numbers (from 0) appear only in
//! commands.

use serde_json::Value;

use battle_client::ViewTracker;

/// How one seat is held, as the view says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Nobody holds the seat yet.
    Free,
    /// The server plays it.
    Bot,
    /// A person holds it and is connected.
    Here,
    /// A person holds it but their connection is gone; the seat waits for them.
    Away,
}

/// The presence of `seat` in `view` (`None` when the view has no `seats`, or a word this
/// client does not know).
pub fn presence(view: &Value, seat: usize) -> Option<Presence> {
    Some(match view["seats"].get(seat)?.as_str()? {
        "free" => Presence::Free,
        "bot" => Presence::Bot,
        "connected" => Presence::Here,
        "away" => Presence::Away,
        _ => return None,
    })
}

/// How many seats the battle has, from `seats` (or `clocks` or `names`, one entry per
/// seat); `None` when the view has none of them (a replay's view from an older server).
pub fn seat_count(view: &Value) -> Option<usize> {
    view["seats"]
        .as_array()
        .or_else(|| view["clocks"].as_array())
        .or_else(|| view["names"].as_array())
        .map(Vec::len)
}

/// The seats nobody holds yet.
pub fn free_seats(view: &Value) -> Vec<usize> {
    let count = view["seats"].as_array().map_or(0, Vec::len);
    (0..count)
        .filter(|&seat| presence(view, seat) == Some(Presence::Free))
        .collect()
}

/// What people call `seat`, everywhere on screen: the envelope's `names[seat]` (the name the
/// server's own text uses), else "Player N" (1-based).
pub fn seat_name(view: &Value, seat: usize) -> String {
    match view["names"][seat]
        .as_str()
        .map(str::trim)
        .filter(|name| !name.is_empty())
    {
        Some(name) => name.to_owned(),
        None => format!("Player {}", seat + 1),
    }
}

/// [`seat_name`] for everyone but the viewer, who is "you" (`capital`: "You").
pub fn name_for(view: &Value, seat: usize, viewer: Option<usize>, capital: bool) -> String {
    match (viewer == Some(seat), capital) {
        (true, true) => "You".to_owned(),
        (true, false) => "you".to_owned(),
        (false, _) => seat_name(view, seat),
    }
}

/// The free seats named for people ("Player 2", "Player 2 and Player 3"); empty when none.
pub fn free_names(view: &Value) -> String {
    let names: Vec<String> = free_seats(view)
        .into_iter()
        .map(|seat| seat_name(view, seat))
        .collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The sentences for what changed at the table between `before` and `now` (nothing the
/// first time). The viewer's own seat is left out: people know when they come and go.
pub fn notices(before: Option<&Value>, now: &ViewTracker) -> Vec<String> {
    let (Some(before), Some(view)) = (before, now.view()) else {
        return Vec::new();
    };
    let count = view["seats"].as_array().map_or(0, Vec::len);
    let mut out = Vec::new();
    for seat in (0..count).filter(|&s| Some(s) != now.seat()) {
        let (Some(was), Some(is)) = (presence(before, seat), presence(view, seat)) else {
            continue;
        };
        let name = seat_name(view, seat);
        let text = match (was, is) {
            (Presence::Free, Presence::Here | Presence::Away) => format!("{name} joined"),
            (Presence::Here, Presence::Away) => {
                format!("{name} left (disconnected); their seat waits for them to come back")
            }
            (Presence::Away, Presence::Here) => format!("{name} is back"),
            (Presence::Here | Presence::Away, Presence::Free) => {
                format!("{name} left before the start")
            }
            _ => continue,
        };
        out.push(text);
    }
    let started = |v: &Value| v["status"] == "playing";
    if !started(before) && started(view) && before["status"] == "waiting" {
        out.push("every seat is taken: the battle starts".to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn view(status: &str, seat1: Value) -> Value {
        json!({"battle_id": "b", "ruleset": "synergy", "status": status, "seat": 0,
               "seats": ["connected", seat1],
               "game": {"sides": [{"name": "Player 1"}, {"name": "Player 2"}]}})
    }

    fn tracker(view: Value) -> ViewTracker {
        ViewTracker::with_view("b", 1, view)
    }

    #[test]
    fn arrivals_departures_and_returns_are_told() {
        let (free, here, away) = (json!("free"), json!("connected"), json!("away"));
        let waiting = view("waiting", free);
        assert_eq!(free_seats(&waiting), vec![1]);
        let playing = view("playing", here.clone());
        assert_eq!(
            notices(Some(&waiting), &tracker(playing.clone())),
            vec![
                "Player 2 joined".to_owned(),
                "every seat is taken: the battle starts".to_owned()
            ]
        );
        let gone = view("playing", away);
        assert_eq!(presence(&gone, 1), Some(Presence::Away));
        assert_eq!(
            notices(Some(&playing), &tracker(gone.clone())),
            vec!["Player 2 left (disconnected); their seat waits for them to come back"]
        );
        assert_eq!(
            notices(Some(&gone), &tracker(playing.clone())),
            vec!["Player 2 is back"]
        );
        assert!(notices(None, &tracker(playing)).is_empty());
    }

    #[test]
    fn a_seat_is_named_by_the_servers_names_else_player_n() {
        let plain = view("playing", json!("connected"));
        assert_eq!(seat_name(&plain, 0), "Player 1");
        assert_eq!(seat_name(&plain, 1), "Player 2");
        let named = json!({"seats": ["connected", "bot", "free"],
            "names": [" Ana ", "Training Automaton", "Player 3"]});
        assert_eq!(seat_name(&named, 0), "Ana");
        assert_eq!(seat_name(&named, 1), "Training Automaton");
        assert_eq!(seat_name(&named, 2), "Player 3");
        assert_eq!(free_names(&named), "Player 3");
        assert_eq!(name_for(&named, 0, Some(0), true), "You");
        assert_eq!(name_for(&named, 0, Some(1), true), "Ana");
        let replayed = json!({"names": ["Ana", "Training Automaton"]});
        assert_eq!(
            seat_name(&replayed, 1),
            "Training Automaton",
            "a replay keeps names"
        );
    }
}
