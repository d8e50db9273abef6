//! Heroes in words: player names, whose decision it is and what it is, a minion's line with
//! its marks, the combat in progress, and a legal entry described with the names of the
//! cards, minions and market items it refers to.

use serde_json::Value;

use crate::fill;

/// "Player 1" for seat 0: the name the log uses.
pub fn player(seat: usize) -> String {
    format!("Player {}", seat + 1)
}

/// A JSON string without quotes; `null` as "?"; other values as JSON.
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "?".to_owned(),
        other => other.to_string(),
    }
}

/// The seats the battle awaits, from the envelope's `to_act`.
fn awaited(view: &Value) -> Vec<usize> {
    view["to_act"]
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .filter_map(Value::as_u64)
                .filter_map(|s| usize::try_from(s).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Whose decision it is and what it is, e.g. "Player 2 chooses blockers".
pub fn decision(view: &Value) -> String {
    let game = &view["game"];
    let active = game["active"].as_u64().map_or(0, |a| a as usize);
    let waiting = awaited(view);
    let who = match waiting.as_slice() {
        [] => "nobody".to_owned(),
        [seat] => player(*seat),
        _ => "both players".to_owned(),
    };
    match game["phase"].as_str() {
        Some("choosing") => format!("{who} chooses who goes first"),
        Some("mulligan") if waiting.len() > 1 => {
            "both players choose cards to put back (mulligan)".to_owned()
        }
        Some("mulligan") => format!("{who} chooses cards to put back (mulligan)"),
        Some("main") => format!("{who} plays the main phase"),
        Some("combat") if game["combat"]["blocks"].is_null() => {
            format!("{who} chooses blockers")
        }
        Some("combat") if waiting.first() == Some(&active) => {
            format!("{who} orders the blockers")
        }
        Some("combat") => format!("{who} may use the Defensive Ability on an unblocked attacker"),
        Some("incoming") => format!("{who} may use the Defensive Ability on an incoming hit"),
        Some("over") => "the game is over".to_owned(),
        _ => format!("{who} to act"),
    }
}

/// The minion with `id`, if it is in play.
fn minion<'a>(game: &'a Value, id: &Value) -> Option<&'a Value> {
    game["minions"]
        .as_array()?
        .iter()
        .find(|m| m["id"] == *id && !id.is_null())
}

/// "Apprentice #43", or "#43" for a minion no longer in play.
pub fn minion_name(game: &Value, id: &Value) -> String {
    match minion(game, id) {
        Some(m) => format!("{} #{id}", text(&m["name"])),
        None => format!("#{id}"),
    }
}

/// The attacker `minion` blocks in the combat in progress, if any.
fn blocked_by(game: &Value, id: &Value) -> Option<Value> {
    game["combat"]["blocks"]
        .as_array()?
        .iter()
        .find(|pair| pair[0] == *id)
        .map(|pair| pair[1].clone())
}

/// One minion: "#43 Apprentice 1/2 · tapped · attacking"; damage shows as the health left
/// out of the full health ("3/1 of 2"), "sick" marks summoning sickness.
pub fn minion_line(game: &Value, m: &Value) -> String {
    let attack = m["attack"].as_u64().unwrap_or(0);
    let health = m["health"].as_u64().unwrap_or(0);
    let damage = m["damage"].as_u64().unwrap_or(0);
    let mut line = if damage > 0 {
        format!(
            "#{} {} {attack}/{} of {health}",
            m["id"],
            text(&m["name"]),
            health.saturating_sub(damage)
        )
    } else {
        format!("#{} {} {attack}/{health}", m["id"], text(&m["name"]))
    };
    if m["tapped"] == true {
        line.push_str(" · tapped");
    }
    if m["sick"] == true {
        line.push_str(" · sick");
    }
    let attacking = game["combat"]["attackers"]
        .as_array()
        .is_some_and(|a| a.contains(&m["id"]));
    if attacking {
        line.push_str(" · attacking");
    }
    if let Some(attacker) = blocked_by(game, &m["id"]) {
        line.push_str(&format!(" · blocks #{attacker}"));
    }
    line
}

/// The combat in progress in words: who attacks with what, and the blocks once declared.
pub fn combat_lines(game: &Value) -> Vec<String> {
    let combat = &game["combat"];
    let Some(attackers) = combat["attackers"].as_array() else {
        return Vec::new();
    };
    let active = game["active"].as_u64().map_or(0, |a| a as usize);
    let names: Vec<String> = attackers.iter().map(|a| minion_name(game, a)).collect();
    let mut lines = vec![format!(
        "Combat: {} attacks {} with {}.",
        player(active),
        player(1 - active.min(1)),
        names.join(", ")
    )];
    lines.push(match combat["blocks"].as_array() {
        None => "Blocks: not declared yet.".to_owned(),
        Some(blocks) if blocks.is_empty() => "Blocks: none; every attacker is unblocked.".into(),
        Some(blocks) => {
            let pairs: Vec<String> = blocks
                .iter()
                .map(|pair| {
                    format!(
                        "{} blocks {}",
                        minion_name(game, &pair[0]),
                        minion_name(game, &pair[1])
                    )
                })
                .collect();
            format!("Blocks: {}.", pairs.join("; "))
        }
    });
    lines
}

/// "hero:1" or "minion:43" in words.
fn target_name(game: &Value, target: &Value) -> Option<String> {
    let target = target.as_str()?;
    if let Some(seat) = target.strip_prefix("hero:") {
        let seat: usize = seat.parse().ok()?;
        return Some(format!("{}'s hero", player(seat)));
    }
    let id: u64 = target.strip_prefix("minion:")?.parse().ok()?;
    Some(minion_name(game, &Value::from(id)))
}

/// The card with `id` in either hand the view shows.
fn hand_card<'a>(game: &'a Value, id: &Value) -> Option<&'a Value> {
    game["sides"]
        .as_array()?
        .iter()
        .filter_map(|side| side["hand"].as_array())
        .flatten()
        .find(|card| card["id"] == *id)
}

/// A value being chosen in words: a minion or a card of a hand by id, a target, or
/// "nobody" for `null` (a blocker that blocks nothing).
pub fn value_name(game: &Value, value: &Value) -> String {
    match value {
        Value::Null => "nobody".to_owned(),
        Value::String(_) => target_name(game, value).unwrap_or_else(|| text(value)),
        id => match (minion(game, id), hand_card(game, id)) {
            (Some(_), _) => minion_name(game, id),
            (None, Some(card)) => format!("{} #{id}", text(&card["name"])),
            (None, None) => text(id),
        },
    }
}

/// A field of an open entry in words: the blocker an item of `block` is for, else what
/// the field chooses ("cards to put back", "attackers", "target", "spend").
pub fn field_label(game: &Value, entry: &Value, name: &str, item: Option<usize>) -> String {
    match (entry["kind"].as_str(), item) {
        (Some("block"), Some(i)) => format!("{} blocks", minion_name(game, &entry["blockers"][i])),
        (Some("mulligan"), None) => "cards to put back".to_owned(),
        (Some("order"), None) => "damage order, first to last".to_owned(),
        (_, Some(i)) => format!("{name} {}", i + 1),
        (_, None) => name.replace('_', " "),
    }
}

/// A legal entry in a player's words, naming the cards, minions and items it refers to:
/// "play Cleave", "Attack Apprentice #43 (2 mana)", "buy Rally Horn (3 gold)"; an open entry
/// says what is left to choose ("play Blood Frenzy: choose the target"). Anything else as
/// [`fill::describe`] has it.
pub fn action_line(game: &Value, entry: &Value) -> String {
    let open: Vec<String> = fill::parameters(entry)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let choose = |what: &str| {
        if open.is_empty() {
            String::new()
        } else {
            format!(": choose {what}")
        }
    };
    let line = match entry["kind"].as_str() {
        Some("play") => hand_card(game, &entry["card"]).map(|card| {
            let target = target_name(game, &entry["target"])
                .map(|t| format!(" at {t}"))
                .unwrap_or_default();
            let spend = match entry["spend"].as_u64() {
                Some(n) if n > 0 => format!(", spending {n}"),
                _ => String::new(),
            };
            let what: Vec<&str> = open
                .iter()
                .map(|p| {
                    if p == "spend" {
                        "how much to spend"
                    } else {
                        "the target"
                    }
                })
                .collect();
            format!(
                "play {}{target}{spend}{}",
                text(&card["name"]),
                choose(&what.join(" and "))
            )
        }),
        Some("buy") => entry["slot"]
            .as_u64()
            .and_then(|slot| game["market"].get(slot as usize))
            .filter(|item| !item.is_null())
            .map(|item| format!("buy {} ({} gold)", text(&item["name"]), item["cost"])),
        Some("attack") => {
            target_name(game, &entry["target"]).map(|t| format!("Attack {t} (2 mana)"))
        }
        Some("relic") => Some(match target_name(game, &entry["target"]) {
            Some(t) => format!("use the relic on {t}"),
            None => "use the relic".to_owned(),
        }),
        Some("choose_first") => entry["first"]
            .as_u64()
            .map(|seat| format!("{} goes first", player(seat as usize))),
        Some("mulligan") => Some(format!("mulligan{}", choose("the cards to put back"))),
        Some("fight") => Some(format!("declare attackers{}", choose("who attacks"))),
        Some("block") => Some(format!(
            "declare blockers{}",
            choose("what each one blocks")
        )),
        Some("defend") if game["phase"] == "combat" && !entry["source"].is_null() => Some(format!(
            "Defensive Ability against {}",
            minion_name(game, &entry["source"])
        )),
        Some("defend") if entry["source"].is_null() => Some("no defence".to_owned()),
        Some("defend") => Some(format!(
            "Defensive Ability against hit #{}",
            entry["source"]
        )),
        Some("order") => Some(format!(
            "order the blockers of {}{}",
            minion_name(game, &entry["attacker"]),
            choose("the damage order")
        )),
        Some("hero_power") => Some("use the hero power".to_owned()),
        Some("end_turn") => Some("end the turn (e)".to_owned()),
        _ => None,
    };
    line.unwrap_or_else(|| fill::describe(entry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_name_what_they_refer_to() {
        let game = json!({"phase": "main", "minions": [{"id": 43, "name": "Apprentice"}],
            "market": [null, {"name": "Radiance", "cost": 8}],
            "sides": [{"hand": [{"id": 25, "name": "Cleave"}]}, {}]});
        assert_eq!(
            action_line(&game, &json!({"kind": "buy", "slot": 1})),
            "buy Radiance (8 gold)"
        );
        assert_eq!(
            action_line(&game, &json!({"kind": "attack", "target": "minion:43"})),
            "Attack Apprentice #43 (2 mana)"
        );
        assert_eq!(
            action_line(&game, &json!({"kind": "attack", "target": "hero:1"})),
            "Attack Player 2's hero (2 mana)"
        );
        assert_eq!(
            action_line(
                &game,
                &json!({"kind": "play", "card": 25, "target": null, "spend": 0})
            ),
            "play Cleave"
        );
        let open = json!({"kind": "play", "card": 25, "target": {"$choose": {"enum": ["hero:1"]}},
            "spend": {"$choose": {"type": "integer", "minimum": 0, "maximum": 3}}});
        assert_eq!(
            action_line(&game, &open),
            "play Cleave: choose how much to spend and the target"
        );
        assert_eq!(
            action_line(&game, &json!({"kind": "swap"})),
            "swap",
            "an unknown kind as the protocol describes it"
        );
    }

    #[test]
    fn damaged_minions_show_health_left() {
        let game = json!({"combat": {"attackers": [43], "blocks": [[6, 43]]}});
        let m = json!({"id": 6, "name": "Shield Bearer", "attack": 1, "health": 4,
            "damage": 1, "tapped": false, "sick": true});
        assert_eq!(
            minion_line(&game, &m),
            "#6 Shield Bearer 1/3 of 4 · sick · blocks #43"
        );
    }
}
