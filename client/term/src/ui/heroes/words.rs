//! Heroes in words: whose decision it is and what it is, a minion's line with its marks,
//! the combat in progress, and a legal entry described with the names of the cards,
//! minions, heroes and market items it refers to, never their ids. People are named as
//! everywhere on screen ([`seat_name`]), the viewer's own things as "your".

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
        [seat] => seat_name(view, *seat),
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

/// "Apprentice", or "Apprentice #2" when its owner has more than one in play; "a minion no
/// longer in play" for one that is gone.
pub fn minion_name(game: &Value, id: &Value) -> String {
    let Some(m) = minion(game, id) else {
        return "a minion no longer in play".to_owned();
    };
    let own = game["minions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|other| other["owner"] == m["owner"]);
    numbered(own, id).unwrap_or_else(|| text(&m["name"]))
}

/// A minion with whose it is: "your Pit Brawler", "Player 2's Apprentice".
fn owned_minion(view: &Value, me: Option<usize>, id: &Value) -> String {
    let game = &view["game"];
    let name = minion_name(game, id);
    match minion(game, id).and_then(|m| m["owner"].as_u64()) {
        Some(owner) => owned(
            &seat_name(view, owner as usize),
            me == Some(owner as usize),
            &name,
        ),
        None => name,
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

/// One minion: "Apprentice 1/2 · tapped · attacking"; damage shows as the health left out
/// of the full health ("3/1 of 2"), "sick" marks summoning sickness.
pub fn minion_line(game: &Value, m: &Value) -> String {
    let attack = m["attack"].as_u64().unwrap_or(0);
    let health = m["health"].as_u64().unwrap_or(0);
    let damage = m["damage"].as_u64().unwrap_or(0);
    let name = minion_name(game, &m["id"]);
    let mut line = if damage > 0 {
        format!(
            "{name} {attack}/{} of {health}",
            health.saturating_sub(damage)
        )
    } else {
        format!("{name} {attack}/{health}")
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
        line.push_str(&format!(" · blocks {}", minion_name(game, &attacker)));
    }
    line
}

/// The combat in progress in words: who attacks with what, and the blocks once declared.
pub fn combat_lines(view: &Value) -> Vec<String> {
    let game = &view["game"];
    let combat = &game["combat"];
    let Some(attackers) = combat["attackers"].as_array() else {
        return Vec::new();
    };
    let active = game["active"].as_u64().map_or(0, |a| a as usize);
    let names: Vec<String> = attackers.iter().map(|a| minion_name(game, a)).collect();
    let mut lines = vec![format!(
        "Combat: {} attacks {} with {}.",
        seat_name(view, active),
        seat_name(view, 1 - active.min(1)),
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

/// A target ("hero:1", "minion:43") in words for the viewer at `me`: "Player 2's hero",
/// "your hero", "Player 2's Apprentice".
fn target_name(view: &Value, me: Option<usize>, target: &Value) -> Option<String> {
    let target = target.as_str()?;
    if let Some(seat) = target.strip_prefix("hero:") {
        let seat: usize = seat.parse().ok()?;
        return Some(owned(&seat_name(view, seat), me == Some(seat), "hero"));
    }
    let id: u64 = target.strip_prefix("minion:")?.parse().ok()?;
    Some(owned_minion(view, me, &Value::from(id)))
}

/// The card with `id` in either hand the view shows.
fn hand_card<'a>(game: &'a Value, id: &Value) -> Option<&'a Value> {
    game["sides"]
        .as_array()?
        .iter()
        .filter_map(|side| side["hand"].as_array())
        .flatten()
        .find(|card| card["id"] == *id && !id.is_null())
}

/// A value being chosen in words for the viewer at `me`: a minion by its name (with whose
/// it is when both sides have one of that name), a card of a hand by its name, a target, or
/// "nobody" for `null` (a blocker that blocks nothing).
pub fn value_name(view: &Value, me: Option<usize>, value: &Value) -> String {
    let game = &view["game"];
    match value {
        Value::Null => "nobody".to_owned(),
        Value::String(_) => target_name(view, me, value).unwrap_or_else(|| text(value)),
        id => match (minion(game, id), hand_card(game, id)) {
            (Some(m), _) => {
                let twin_elsewhere = game["minions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|o| o["name"] == m["name"] && o["owner"] != m["owner"]);
                if twin_elsewhere {
                    owned_minion(view, me, id)
                } else {
                    minion_name(game, id)
                }
            }
            (None, Some(card)) => text(&card["name"]),
            (None, None) => text(id),
        },
    }
}

/// A field of an open entry in words: the blocker an item of `block` is for, else what
/// the field chooses ("cards to put back", "attackers", "target", "how much to spend").
pub fn field_label(game: &Value, entry: &Value, name: &str, item: Option<usize>) -> String {
    match (entry["kind"].as_str(), name, item) {
        (Some("block"), _, Some(i)) => {
            format!("{} blocks", minion_name(game, &entry["blockers"][i]))
        }
        (Some("mulligan"), _, None) => "cards to put back".to_owned(),
        (Some("order"), _, None) => "damage order, first to last".to_owned(),
        (_, "spend", None) => "Spell Damage to spend".to_owned(),
        (_, "attackers", None) => "attackers".to_owned(),
        (_, _, Some(i)) => format!("{} {}", name.replace('_', " "), i + 1),
        (_, _, None) => name.replace('_', " "),
    }
}

/// A legal entry in a player's words, naming the cards, minions and items it refers to:
/// "play Cleave", "Attack Player 2's Apprentice (2 mana)", "buy Rally Horn (3 gold)"; an
/// open entry says what is left to choose ("play Blood Frenzy: choose the target"), leaving
/// out what has one possible value. Anything else as [`fill::describe`] has it.
pub fn action_line(view: &Value, me: Option<usize>, entry: &Value) -> String {
    let game = &view["game"];
    let entry = &crate::form::shown(entry);
    let open = crate::form::open_names(entry);
    let choose = |what: &str| {
        if open.is_empty() {
            String::new()
        } else {
            format!(": choose {what}")
        }
    };
    let line = match entry["kind"].as_str() {
        Some("play") => hand_card(game, &entry["card"]).map(|card| {
            let target = target_name(view, me, &entry["target"])
                .map(|t| format!(" at {t}"))
                .unwrap_or_default();
            let spend = match entry["spend"].as_u64() {
                Some(n) if n > 0 => format!(", spending {n} Spell Damage"),
                _ => String::new(),
            };
            let what: Vec<&str> = open
                .iter()
                .map(|p| {
                    if p == "spend" {
                        "how much Spell Damage to spend"
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
            target_name(view, me, &entry["target"]).map(|t| format!("Attack {t} (2 mana)"))
        }
        Some("relic") => Some(match target_name(view, me, &entry["target"]) {
            Some(t) => format!("use the relic on {t}"),
            None => "use the relic".to_owned(),
        }),
        Some("choose_first") => entry["first"].as_u64().map(|seat| {
            if me == Some(seat as usize) {
                "go first".to_owned()
            } else {
                format!("{} goes first", seat_name(view, seat as usize))
            }
        }),
        Some("mulligan") => Some(format!("mulligan{}", choose("the cards to put back"))),
        Some("fight") => Some(match entry["attackers"].as_array() {
            Some(ids) if open.is_empty() => {
                let names: Vec<String> = ids.iter().map(|id| minion_name(game, id)).collect();
                format!("attack the other hero with {}", names.join(", "))
            }
            _ => format!("declare attackers{}", choose("who attacks")),
        }),
        Some("block") => Some(format!(
            "declare blockers{}",
            choose("what each one blocks")
        )),
        Some("defend") if game["phase"] == "combat" && !entry["source"].is_null() => Some(format!(
            "Defensive Ability against {}",
            minion_name(game, &entry["source"])
        )),
        Some("defend") if entry["source"].is_null() => Some("no defence".to_owned()),
        Some("defend") => Some(
            match entry["source"]
                .as_u64()
                .and_then(|i| game["pending"][i as usize].as_u64())
            {
                Some(damage) => format!("Defensive Ability against the hit of {damage} damage"),
                None => "Defensive Ability against the incoming hit".to_owned(),
            },
        ),
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
        let view = json!({"seats": ["connected", "connected"], "game": {"phase": "main",
            "minions": [{"id": 43, "name": "Apprentice", "owner": 1}],
            "market": [null, {"name": "Radiance", "cost": 8}],
            "sides": [{"hand": [{"id": 25, "name": "Cleave"}]}, {}]}});
        let line = |entry: Value| action_line(&view, Some(0), &entry);
        assert_eq!(
            line(json!({"kind": "buy", "slot": 1})),
            "buy Radiance (8 gold)"
        );
        assert_eq!(
            line(json!({"kind": "attack", "target": "minion:43"})),
            "Attack Player 2's Apprentice (2 mana)"
        );
        assert_eq!(
            line(json!({"kind": "attack", "target": "hero:1"})),
            "Attack Player 2's hero (2 mana)"
        );
        assert_eq!(
            line(json!({"kind": "play", "card": 25, "target": "hero:0", "spend": 0})),
            "play Cleave at your hero"
        );
        let open = json!({"kind": "play", "card": 25, "target": {"$choose": {"enum": ["hero:1"]}},
            "spend": {"$choose": {"type": "integer", "minimum": 0, "maximum": 3}}});
        assert_eq!(
            line(open),
            "play Cleave: choose how much Spell Damage to spend",
            "a field with one possible value is not asked"
        );
        let fixed = json!({"kind": "play", "card": 25,
            "target": {"$choose": {"enum": ["hero:1", "minion:43"]}},
            "spend": {"$choose": {"type": "integer", "minimum": 0, "maximum": 0}}});
        assert_eq!(line(fixed), "play Cleave: choose the target");
        assert_eq!(
            line(json!({"kind": "swap"})),
            "swap",
            "an unknown kind as the protocol describes it"
        );
        assert_eq!(value_name(&view, Some(0), &json!(25)), "Cleave");
        let one_attacker = json!({"kind": "fight", "attackers": {"$choose": {"type": "array",
            "items": {"enum": [43]}, "uniqueItems": true, "minItems": 1, "maxItems": 1}}});
        assert_eq!(
            line(one_attacker),
            "attack the other hero with Apprentice",
            "one minion can attack: nothing to choose"
        );
        assert_eq!(value_name(&view, Some(1), &json!(43)), "Apprentice");
        let mut twins = view.clone();
        twins["game"]["minions"] = json!([{"id": 43, "name": "Apprentice", "owner": 1},
            {"id": 44, "name": "Apprentice", "owner": 0}]);
        assert_eq!(
            value_name(&twins, Some(1), &json!(43)),
            "your Apprentice",
            "both sides have one: whose it is"
        );
    }

    #[test]
    fn damaged_minions_show_health_left_and_twins_are_numbered() {
        let game = json!({"combat": {"attackers": [43], "blocks": [[6, 43]]},
            "minions": [{"id": 43, "name": "Apprentice", "owner": 1},
                {"id": 6, "name": "Shield Bearer", "owner": 0},
                {"id": 44, "name": "Apprentice", "owner": 1}]});
        let m = json!({"id": 6, "name": "Shield Bearer", "attack": 1, "health": 4,
            "damage": 1, "tapped": false, "sick": true});
        assert_eq!(
            minion_line(&game, &m),
            "Shield Bearer 1/3 of 4 · sick · blocks Apprentice #1"
        );
        assert_eq!(minion_name(&game, &json!(44)), "Apprentice #2");
        assert_eq!(minion_name(&game, &json!(99)), "a minion no longer in play");
    }
}
