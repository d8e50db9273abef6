//! Lore in words: the phase and whose decision it is, a card in play or in a hand with its
//! numbers and marks, a trigger waiting in the bag, and a legal entry (or a value being
//! chosen) described with the names of the cards it refers to, never their ids. People are
//! named as everywhere on screen ([`seat_name`]).

use serde_json::Value;

use crate::presence::seat_name;
use crate::ui::names::{numbered, owned};
use battle_client::fill;

/// A JSON string without quotes; `null` as "?"; other values as JSON.
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "?".to_owned(),
        other => other.to_string(),
    }
}

/// A seat number in the view (`active`, `owner`, `chooser`), if it is one.
pub fn seat_of(v: &Value) -> Option<usize> {
    v.as_u64().and_then(|s| usize::try_from(s).ok())
}

/// The seats the battle awaits, from the envelope's `to_act`.
fn awaited(view: &Value) -> Vec<usize> {
    view["to_act"]
        .as_array()
        .map(|seats| seats.iter().filter_map(seat_of).collect())
        .unwrap_or_default()
}

/// Where the turn is: "setup", "set step" (of the Beginning phase), "main phase", "end of
/// turn", "game over".
pub fn phase_name(game: &Value) -> &'static str {
    match game["phase"].as_str() {
        Some("mulligan") => "setup",
        Some("set") => "set step",
        Some("main") => "main phase",
        Some("end") => "end of turn",
        Some("over") => "game over",
        _ => "?",
    }
}

/// Whose decision it is and what it is, e.g. "Player 2 resolves a trigger from the bag".
pub fn decision(view: &Value) -> String {
    let game = &view["game"];
    let who = match awaited(view).as_slice() {
        [] => "nobody".to_owned(),
        [seat] => seat_name(view, *seat),
        _ => "both players".to_owned(),
    };
    let bag = game["bag"].as_array().is_some_and(|b| !b.is_empty());
    match game["phase"].as_str() {
        Some("over") => "the game is over".to_owned(),
        Some("mulligan") => format!("{who} chooses cards to put back (mulligan)"),
        _ if bag => format!("{who} resolves a trigger from the bag"),
        Some("main") => format!("{who} plays the main phase"),
        _ => format!("{who} to act"),
    }
}

/// Every card in play, with its owner's seat, in the order the view lists them.
fn all_in_play(game: &Value) -> impl Iterator<Item = (usize, &Value)> {
    (0..2).flat_map(move |seat| {
        game["sides"][seat]["play"]
            .as_array()
            .into_iter()
            .flatten()
            .map(move |card| (seat, card))
    })
}

/// The card in play with `id`, with its owner's seat.
fn in_play<'a>(game: &'a Value, id: &Value) -> Option<(usize, &'a Value)> {
    if id.is_null() {
        return None;
    }
    all_in_play(game).find(|(_, card)| card["id"] == *id)
}

/// The name of a card in play: "Copper Squire", or "Copper Squire #2" when its owner has
/// more than one card of that name in play (numbered in the order they came in).
pub fn play_name(game: &Value, card: &Value) -> String {
    let name = text(&card["name"]);
    let Some((seat, _)) = in_play(game, &card["id"]) else {
        return name;
    };
    let own = game["sides"][seat]["play"].as_array().into_iter().flatten();
    numbered(own, &card["id"]).unwrap_or(name)
}

/// A card's numbers in short: "2/3 ◆1" for a character (strength/willpower, lore),
/// "location -/6 ◆1 a turn" (no strength, its willpower, its lore each turn), "item",
/// "action".
pub fn numbers(card: &Value) -> String {
    match card["kind"].as_str() {
        Some("character") => format!(
            "{}/{} ◆{}",
            card["strength"], card["willpower"], card["lore"]
        ),
        Some("location") => format!("location -/{} ◆{} a turn", card["willpower"], card["lore"]),
        Some(kind) => kind.to_owned(),
        None => "?".to_owned(),
    }
}

/// One card in play: "Copper Squire 2/3 ◆1 · 2 damage · exerted · drying",
/// "Lighthouse Point · location -/6 ◆1 a turn", "Story Lamp · item".
pub fn in_play_line(game: &Value, card: &Value) -> String {
    let numbers = numbers(card);
    let mut line = if card["kind"] == "character" {
        format!("{} {numbers}", play_name(game, card))
    } else {
        format!("{} · {numbers}", play_name(game, card))
    };
    match card["damage"].as_u64() {
        Some(n) if n > 0 => line.push_str(&format!(" · {n} damage")),
        _ => {}
    }
    if card["exerted"] == true {
        line.push_str(" · exerted");
    }
    if card["drying"] == true {
        line.push_str(" · drying");
    }
    line
}

/// A card in a hand: its name and cost ("Moonlit Trickster · 3 ink"), then the rest
/// ("inkable · character 3/2 ◆2: When you play this character, ...").
pub fn hand_card_parts(card: &Value) -> (String, String) {
    let head = format!("{} · {} ink", text(&card["name"]), card["cost"]);
    let inkable = if card["inkable"] == true {
        "inkable"
    } else {
        "not inkable"
    };
    let kind = match card["kind"].as_str() {
        Some("character") => format!("character {}", numbers(card)),
        _ => numbers(card),
    };
    let mut rest = format!("{inkable} · {kind}");
    if let Some(does) = card["text"].as_str().filter(|t| !t.is_empty()) {
        rest.push_str(": ");
        rest.push_str(does);
    }
    (head, rest)
}

/// The trigger with bag id `id`, with its position in the bag.
fn pending<'a>(game: &'a Value, id: &Value) -> Option<(usize, &'a Value)> {
    game["bag"]
        .as_array()?
        .iter()
        .enumerate()
        .find(|(_, p)| p["id"] == *id && !id.is_null())
}

/// "Story Lamp's trigger", with its place in the bag ("(bag 2)") when another trigger in
/// the bag comes from a card of the same name.
fn trigger_name(game: &Value, id: &Value) -> Option<String> {
    let (i, p) = pending(game, id)?;
    let twins = game["bag"]
        .as_array()?
        .iter()
        .filter(|q| q["name"] == p["name"])
        .count();
    let place = if twins > 1 {
        format!(" (bag {})", i + 1)
    } else {
        String::new()
    };
    Some(format!("{}'s trigger{place}", text(&p["name"])))
}

/// One trigger in the bag, for the viewer at `me`: "Player 1's Storm Herald: At the start
/// of your turn, ...", "your Storm Herald: ..."; a source no longer in play is said so.
pub fn bag_line(view: &Value, me: Option<usize>, p: &Value) -> String {
    let game = &view["game"];
    let source = match seat_of(&p["owner"]) {
        Some(seat) => owned(&seat_name(view, seat), me == Some(seat), &text(&p["name"])),
        None => text(&p["name"]),
    };
    let gone = if in_play(game, &p["source"]).is_some() {
        ""
    } else {
        " (no longer in play)"
    };
    format!("{}{gone}: {}", capital(&source), text(&p["text"]))
}

/// The card with `id` in a hand the view shows.
fn hand_card<'a>(game: &'a Value, id: &Value) -> Option<&'a Value> {
    game["sides"]
        .as_array()?
        .iter()
        .filter_map(|side| side["hand"].as_array())
        .flatten()
        .find(|card| card["id"] == *id && !id.is_null())
}

/// A value being chosen, in words for the viewer at `me`: a card in play by id with whose
/// it is and its state ("Stonebridge Warden (theirs, 2/5, 3 damage)"), a card of the hand
/// by its name, "nothing" for `null`.
pub fn value_name(view: &Value, me: Option<usize>, value: &Value) -> String {
    let game = &view["game"];
    if value.is_null() {
        return "nothing".to_owned();
    }
    if let Some((seat, card)) = in_play(game, value) {
        let whose = if Some(seat) == me {
            "yours".to_owned()
        } else if me.is_some() {
            "theirs".to_owned()
        } else {
            seat_name(view, seat)
        };
        let short = match card["kind"].as_str() {
            Some("character") => format!("{}/{}", card["strength"], card["willpower"]),
            Some("location") => format!("location, willpower {}", card["willpower"]),
            _ => text(&card["kind"]),
        };
        let damage = match card["damage"].as_u64() {
            Some(n) if n > 0 => format!(", {n} damage"),
            _ => String::new(),
        };
        return format!("{} ({whose}, {short}{damage})", play_name(game, card));
    }
    if let Some(card) = hand_card(game, value) {
        return text(&card["name"]);
    }
    text(value)
}

/// A field of an open entry in words: "cards to put back", "what to challenge", "chosen
/// character".
pub fn field_label(entry: &Value, name: &str, item: Option<usize>) -> String {
    match (entry["kind"].as_str(), name, item) {
        (Some("mulligan"), "cards", None) => "cards to put back".to_owned(),
        (Some("challenge"), "target", None) => "what to challenge".to_owned(),
        (Some("play" | "resolve"), "target", None) => "chosen character".to_owned(),
        (_, _, Some(i)) => format!("{name} {}", i + 1),
        (_, _, None) => name.replace('_', " "),
    }
}

/// A legal entry in a player's words, naming the cards it refers to: "ink Copper Squire",
/// "play Moonlit Trickster (3 ink)", "quest with Hedge Witch (+1 lore)", "challenge
/// Stonebridge Warden with Copper Squire", "resolve: Story Lamp's trigger", "pass the turn";
/// an open entry says what is left to choose. Anything else as [`fill::describe`] has it.
pub fn action_line(view: &Value, me: Option<usize>, entry: &Value) -> String {
    let game = &view["game"];
    let entry = &crate::form::shown(entry);
    let open = fill::is_open(entry);
    let target = &entry["target"];
    let chosen = |prefix: &str| {
        if open || target.is_null() {
            String::new()
        } else {
            format!("{prefix}{}", value_name(view, me, target))
        }
    };
    let choose = |what: &'static str| if open { what } else { "" };
    let line = match entry["kind"].as_str() {
        Some("ink") => hand_card(game, &entry["card"]).map(|c| format!("ink {}", text(&c["name"]))),
        Some("play") => hand_card(game, &entry["card"]).map(|c| {
            format!(
                "play {} ({} ink){}{}",
                text(&c["name"]),
                c["cost"],
                chosen(" on "),
                choose(" on a character")
            )
        }),
        Some("quest") => in_play(game, &entry["character"])
            .map(|(_, c)| format!("quest with {} (+{} lore)", play_name(game, c), c["lore"])),
        Some("challenge") => in_play(game, &entry["challenger"]).map(|(_, c)| {
            let name = play_name(game, c);
            if open {
                format!("challenge with {name} ({} strength)", c["strength"])
            } else {
                let aim =
                    in_play(game, target).map_or_else(|| text(target), |(_, t)| play_name(game, t));
                format!("challenge {aim} with {name}")
            }
        }),
        Some("resolve") => trigger_name(game, &entry["trigger"]).map(|name| {
            format!(
                "resolve: {name}{}{}",
                chosen(" on "),
                choose(" on a character")
            )
        }),
        Some("pass_turn") => Some("pass the turn".to_owned()),
        Some("mulligan") if open => Some("mulligan: choose the cards to put back".to_owned()),
        Some("mulligan") => entry["cards"].as_array().map(|cards| {
            if cards.is_empty() {
                "keep the opening hand".to_owned()
            } else {
                let names: Vec<String> = cards.iter().map(|c| value_name(view, me, c)).collect();
                format!("put back {}", names.join(", "))
            }
        }),
        _ => None,
    };
    line.unwrap_or_else(|| fill::describe(entry))
}

/// `s` with its first letter in capitals ("your Storm Herald" opens a line as "Your").
fn capital(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
#[path = "words_tests.rs"]
mod tests;
