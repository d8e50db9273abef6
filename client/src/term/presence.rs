//! Who is at the table: the envelope's `seats` (taken, connected, bot) read for people, and
//! the notices a change of them deserves ("Player 2 joined", "Player 2 left", "is back").

use serde_json::Value;

use crate::ViewTracker;

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

/// How many seats the battle has, from `seats` (or `clocks`, one entry per seat); `None`
/// when the view has neither (a replay's view).
pub fn seat_count(view: &Value) -> Option<usize> {
    view["seats"]
        .as_array()
        .or_else(|| view["clocks"].as_array())
        .map(Vec::len)
}

/// The seats nobody holds yet.
pub fn free_seats(view: &Value) -> Vec<usize> {
    let count = view["seats"].as_array().map_or(0, Vec::len);
    (0..count)
        .filter(|&seat| presence(view, seat) == Some(Presence::Free))
        .collect()
}

/// What people call a seat: the name the game gives its side, else "seat N".
pub fn seat_name(view: &Value, seat: usize) -> String {
    let game = &view["game"];
    // Synergy names its sides; gambit its teams (in PvP, one per seat).
    match game["sides"][seat]["name"]
        .as_str()
        .or_else(|| game["teams"][seat]["name"].as_str())
    {
        Some(name) => name.to_owned(),
        None => format!("seat {seat}"),
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
            (Presence::Free, Presence::Here | Presence::Away) => {
                format!("{name} took seat {seat}")
            }
            (Presence::Here, Presence::Away) => {
                format!("{name} left (disconnected); their seat waits for them to come back")
            }
            (Presence::Away, Presence::Here) => format!("{name} is back"),
            (Presence::Here | Presence::Away, Presence::Free) => {
                format!("{name} gave up seat {seat} before the start")
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
                "Player 2 took seat 1".to_owned(),
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
}
