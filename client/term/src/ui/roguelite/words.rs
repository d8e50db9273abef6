//! Roguelite in words: who is who ("you", or the player's name, the enemy by name), the stage of
//! the run, the phase queue, statuses with their stacks and turns, the enemy's pace, and a
//! legal entry described with the card or reward it names ("play Slash (1 energy): deal 7",
//! "take Riveted Hauberk (armor, put on whole)", "skip the reward").

use serde_json::Value;

use crate::presence::seat_name;
use battle_client::fill;

/// A JSON string without quotes; `null` as "?"; other values as JSON.
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "?".to_owned(),
        other => other.to_string(),
    }
}

/// A number of the view, 0 when missing.
pub fn num(v: &Value) -> u64 {
    v.as_u64().unwrap_or(0)
}

/// The player as the viewer calls them: "you" on seat 0's own screen, else their name
/// ("Player 1" when they gave none).
pub fn player(view: &Value, me: Option<usize>) -> String {
    if me == Some(0) {
        "you".to_owned()
    } else {
        seat_name(view, 0)
    }
}

/// `s` with its first letter in capitals.
pub fn capital(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The side of a queue run (`player` or `enemy`) by name: "you" or the player's name, or
/// the enemy's name.
pub fn side_name(view: &Value, side: &Value, me: Option<usize>) -> String {
    if side == "player" {
        player(view, me)
    } else {
        text(&view["game"]["enemy"]["name"])
    }
}

/// "Poison" for `poison`, "Super Fast" for `superFast`, "Attack Up" for `atkUp`; an unknown
/// status split at its capitals.
pub fn status_name(id: &str) -> String {
    let known = match id {
        "superFast" => "Super Fast",
        "atkUp" => "Attack Up",
        _ => "",
    };
    if !known.is_empty() {
        return known.to_owned();
    }
    let mut name = String::new();
    for c in id.chars() {
        if c.is_uppercase() {
            name.push(' ');
        }
        name.push(c);
    }
    capital(&name)
}

/// One status: "Poison ×3 (3 turns)", "Weak ×1 (1 turn)", "Momentum ×2" (no duration).
pub fn status_line(status: &Value) -> String {
    let name = status_name(status["status"].as_str().unwrap_or("?"));
    let stacks = num(&status["stacks"]);
    match num(&status["turns"]) {
        0 => format!("{name} ×{stacks}"),
        1 => format!("{name} ×{stacks} (1 turn)"),
        turns => format!("{name} ×{stacks} ({turns} turns)"),
    }
}

/// Every status of a fighter, or "none".
pub fn statuses(fighter: &Value) -> String {
    let list: Vec<String> = fighter["statuses"]
        .as_array()
        .into_iter()
        .flatten()
        .map(status_line)
        .collect();
    if list.is_empty() {
        "none".to_owned()
    } else {
        list.join(" · ")
    }
}

/// The queue's first run: which side acts now (`player` or `enemy`) and how many phases it
/// takes in a row, this one included.
pub fn current_run(game: &Value) -> Option<(&Value, u64)> {
    let run = game["queue"].as_array()?.first()?;
    Some((&run["side"], num(&run["phases"])))
}

/// The stage of the run in words, for the top line: "Your phase 2 (limit 30)",
/// "Tide Golem acts (2 energy left)", "Won: you choose a reward".
pub fn stage_words(view: &Value, me: Option<usize>) -> String {
    let game = &view["game"];
    let enemy = text(&game["enemy"]["name"]);
    match game["stage"].as_str() {
        Some("playerPhase") => {
            let whose = if me == Some(0) {
                "Your".to_owned()
            } else {
                format!("{}'s", seat_name(view, 0))
            };
            format!(
                "{whose} phase {} (limit {})",
                game["turn"], game["turn_limit"]
            )
        }
        Some("enemyStart") => format!("{enemy}'s phase begins"),
        Some("enemyAct") => format!("{enemy} acts ({} energy left)", game["enemy"]["energy"]),
        Some("enemyEnd") => format!("{enemy}'s phase ends"),
        Some("reward") => {
            let chooses = if me == Some(0) {
                "you choose".to_owned()
            } else {
                format!("{} chooses", seat_name(view, 0))
            };
            format!("Won: {chooses} a reward")
        }
        Some("over") => "The run is over".to_owned(),
        Some(other) => other.to_owned(),
        None => "?".to_owned(),
    }
}

/// "every 400 ms", or "at once" for no pace.
pub fn pace(game: &Value) -> String {
    match num(&game["tick_ms"]) {
        0 => "at once".to_owned(),
        ms => format!("every {ms} ms"),
    }
}

/// The round's phase queue: "▶ you ×2 → Tide Golem ×1 → a new round", or why there is none.
pub fn queue_words(view: &Value, me: Option<usize>) -> String {
    let game = &view["game"];
    let runs = game["queue"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if runs.is_empty() {
        return match game["stage"].as_str() {
            Some("over") => "none: the run is over".to_owned(),
            _ => "none: between battles".to_owned(),
        };
    }
    let mut parts: Vec<String> = runs
        .iter()
        .enumerate()
        .map(|(i, run)| {
            let mark = if i == 0 { "▶ " } else { "" };
            format!(
                "{mark}{} ×{}",
                side_name(view, &run["side"], me),
                num(&run["phases"])
            )
        })
        .collect();
    parts.push("a new round".to_owned());
    parts.join(" → ")
}

/// What the enemy will do: "Next phase: Undertow → Basic Attack", or while it acts "Still
/// to do: Twin Scythe"; `None` when the view tells nothing (between battles, at the end).
pub fn intent_words(game: &Value) -> Option<String> {
    let intent: Vec<String> = game["enemy"]["intent"]
        .as_array()?
        .iter()
        .map(text)
        .collect();
    let acting = game["stage"] == "enemyAct";
    match (intent.is_empty(), acting) {
        (true, true) => Some("Still to do: nothing".to_owned()),
        (true, false) if matches!(game["stage"].as_str(), Some("reward" | "over")) => None,
        (true, false) => Some("Next phase: nothing".to_owned()),
        (false, true) => Some(format!("Still to do: {}", intent.join(" → "))),
        (false, false) => Some(format!("Next phase: {}", intent.join(" → "))),
    }
}

/// The enemy's energy: "Energy 1 a phase", "Energy 2 left of 2 a phase", with "next phase
/// ×150%" when a skill raised it.
pub fn enemy_energy(game: &Value) -> String {
    let enemy = &game["enemy"];
    let mut line = if game["stage"] == "enemyAct" {
        format!(
            "Energy {} left of {} a phase",
            enemy["energy"], enemy["energy_base"]
        )
    } else {
        format!("Energy {} a phase", enemy["energy_base"])
    };
    let add = enemy["add_energy"].as_u64().unwrap_or(100);
    if add != 100 {
        line.push_str(&format!(" · next phase ×{add}%"));
    }
    line
}

/// What a reward's sort means: "a card for your deck", "armor, put on whole", "an item,
/// used at once".
pub fn reward_sort(sort: &Value) -> String {
    match sort.as_str() {
        Some("card") => "a card for the deck".to_owned(),
        Some("armor") => "armor, put on whole".to_owned(),
        Some("item") => "an item, used at once".to_owned(),
        _ => text(sort),
    }
}

/// The card of the hand with number `id`, if the view shows it.
pub fn hand_card<'a>(game: &'a Value, id: &Value) -> Option<&'a Value> {
    game["player"]["hand"]
        .as_array()?
        .iter()
        .find(|card| card["id"] == *id && !id.is_null())
}

/// The offered reward with `id`.
fn offered<'a>(game: &'a Value, id: &Value) -> Option<&'a Value> {
    game["offer"]
        .as_array()?
        .iter()
        .find(|reward| reward["id"] == *id && !id.is_null())
}

/// A card's text as part of a sentence: "Deal 7." becomes "deal 7".
pub fn card_effect(card: &Value) -> String {
    let effect = text(&card["text"]);
    let effect = effect.trim_end_matches('.');
    let mut chars = effect.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// "1 energy" for a cost.
pub fn energy(cost: &Value) -> String {
    format!("{} energy", num(cost))
}

/// A value being chosen: a card of the hand or an offered reward by name, `null` as "none".
pub fn value_name(game: &Value, value: &Value) -> String {
    if value.is_null() {
        return "none".to_owned();
    }
    if let Some(card) = hand_card(game, value) {
        return text(&card["name"]);
    }
    if let Some(reward) = offered(game, value) {
        return text(&reward["name"]);
    }
    text(value)
}

/// A field of an open entry: its member name in words ("card", "reward").
pub fn field_label(name: &str, item: Option<usize>) -> String {
    let name = name.replace('_', " ");
    match item {
        Some(i) => format!("{name} {}", i + 1),
        None => name,
    }
}

/// A legal entry in a player's words: "play Slash (1 energy): deal 7", "end the turn (e)",
/// "take Bulwark (a card for the deck)", "skip the reward"; anything else as
/// [`fill::describe`] has it.
pub fn action_line(game: &Value, entry: &Value) -> String {
    let line = match entry["kind"].as_str() {
        Some("play") => hand_card(game, &entry["card"]).map(|card| {
            format!(
                "play {} ({}): {}",
                text(&card["name"]),
                energy(&card["cost"]),
                card_effect(card)
            )
        }),
        Some("end_turn") => Some("end the turn (e)".to_owned()),
        Some("take") => offered(game, &entry["reward"]).map(|reward| {
            format!(
                "take {} ({})",
                text(&reward["name"]),
                reward_sort(&reward["sort"])
            )
        }),
        Some("skip") => Some("skip the reward".to_owned()),
        _ => None,
    };
    line.unwrap_or_else(|| fill::describe(entry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_name_the_card_or_reward() {
        let game = json!({
            "player": {"hand": [{"id": 4, "name": "Slash", "cost": 1, "text": "Deal 7."}]},
            "offer": [{"id": "riveted_hauberk", "name": "Riveted Hauberk", "sort": "armor"}]
        });
        assert_eq!(
            action_line(&game, &json!({"kind": "play", "card": 4})),
            "play Slash (1 energy): deal 7"
        );
        assert_eq!(
            action_line(&game, &json!({"kind": "take", "reward": "riveted_hauberk"})),
            "take Riveted Hauberk (armor, put on whole)"
        );
        assert_eq!(
            action_line(&game, &json!({"kind": "skip"})),
            "skip the reward"
        );
        assert_eq!(
            action_line(&game, &json!({"kind": "end_turn"})),
            "end the turn (e)"
        );
        assert_eq!(
            action_line(&game, &json!({"kind": "play", "card": 9})),
            fill::describe(&json!({"kind": "play", "card": 9})),
            "a card the view does not show, as the protocol describes it"
        );
        assert_eq!(value_name(&game, &json!(4)), "Slash");
        assert_eq!(
            value_name(&game, &json!("riveted_hauberk")),
            "Riveted Hauberk"
        );
    }

    #[test]
    fn statuses_show_stacks_and_turns() {
        assert_eq!(status_name("superFast"), "Super Fast");
        assert_eq!(status_name("atkUp"), "Attack Up");
        assert_eq!(status_name("regeneration"), "Regeneration");
        assert_eq!(status_name("someNewThing"), "Some New Thing");
        let fighter = json!({"statuses": [
            {"status": "poison", "stacks": 3, "turns": 3},
            {"status": "weak", "stacks": 1, "turns": 1},
            {"status": "momentum", "stacks": 2, "turns": 0}]});
        assert_eq!(
            statuses(&fighter),
            "Poison ×3 (3 turns) · Weak ×1 (1 turn) · Momentum ×2"
        );
        assert_eq!(statuses(&json!({"statuses": []})), "none");
    }

    #[test]
    fn the_queue_and_the_stage_in_words() {
        let game = json!({"stage": "enemyAct", "turn": 3, "turn_limit": 30,
            "enemy": {"name": "Glass Mantis", "energy": 1, "intent": ["Basic Attack"]},
            "queue": [{"side": "enemy", "phases": 2}, {"side": "player", "phases": 1}]});
        let view = json!({"game": game});
        assert_eq!(
            queue_words(&view, Some(0)),
            "▶ Glass Mantis ×2 → you ×1 → a new round"
        );
        assert_eq!(
            queue_words(&view, None),
            "▶ Glass Mantis ×2 → Player 1 ×1 → a new round"
        );
        assert_eq!(
            stage_words(&view, None),
            "Glass Mantis acts (1 energy left)"
        );
        assert_eq!(
            intent_words(&game).as_deref(),
            Some("Still to do: Basic Attack")
        );
        let reward = json!({"stage": "reward", "battle": 3, "queue": [],
            "enemy": {"name": "Cellar Rat", "intent": []}});
        let named = json!({"seats": ["connected"], "names": ["Ana"], "game": reward});
        assert_eq!(stage_words(&named, None), "Won: Ana chooses a reward");
        assert_eq!(stage_words(&named, Some(0)), "Won: you choose a reward");
        assert_eq!(queue_words(&named, Some(0)), "none: between battles");
        assert_eq!(intent_words(&named["game"]), None);
    }
}
