//! Gambit in plain mode: the lines for what changed between two views (new log lines, each
//! unit's HP change, the phase, a team line when the line-up changes, a program when it
//! changes) and the `your move:` prompt, which numbers the legal actions so that `play N`
//! and `play N VALUES` (plain mode's generic mechanism) send them. A tick that changes
//! nothing but the tick number prints nothing.

use serde_json::{json, Value};

use super::words::{phase_words, rule_line, skill_name, text, unit_label};
use battle_client::{fill, ViewTracker};

/// Every unit of a game view, with its team index.
fn units(game: &Value) -> impl Iterator<Item = (usize, &Value)> {
    (0..2).flat_map(move |t| {
        game["teams"][t]["units"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .map(move |u| (t, u))
    })
}

/// The unit with this id.
fn unit<'a>(game: &'a Value, id: &Value) -> Option<&'a Value> {
    units(game).map(|(_, u)| u).find(|u| u["id"] == *id)
}

/// The lines for what changed from `before` (the previous view with a game, if any) to
/// `view`.
pub fn changes(before: Option<&Value>, view: &Value, out: &mut Vec<String>) {
    let game = &view["game"];
    let old = before.map(|b| &b["game"]);
    let old_log = old.map_or(0, |o| o["log"].as_array().map_or(0, Vec::len));
    if let Some(log) = game["log"].as_array() {
        let start = if old_log <= log.len() { old_log } else { 0 };
        out.extend(log[start..].iter().map(|l| format!("log: {}", text(l))));
    }
    for t in 0..2 {
        let ids = |g: &Value| -> Vec<Value> {
            g["teams"][t]["units"]
                .as_array()
                .map(|u| u.iter().map(|u| u["id"].clone()).collect())
                .unwrap_or_default()
        };
        if old.is_none_or(|o| ids(o) != ids(game)) {
            let members: Vec<String> = units(game)
                .filter(|(team, _)| *team == t)
                .map(|(_, u)| format!("{} {}/{}", unit_label(u), u["hp"], u["max_hp"]))
                .collect();
            out.push(format!(
                "team: {}: {}",
                text(&game["teams"][t]["name"]),
                members.join(", ")
            ));
        }
    }
    if let Some(old) = old {
        for (_, u) in units(game) {
            let Some(was) = unit(old, &u["id"]) else {
                continue;
            };
            if was["hp"] != u["hp"] {
                let note = match (was["down"] == true, u["down"] == true) {
                    (false, true) => " (knocked out)",
                    (true, false) => " (back up)",
                    _ => "",
                };
                out.push(format!(
                    "hp: {} {} -> {}{note}",
                    unit_label(u),
                    was["hp"],
                    u["hp"]
                ));
            }
        }
    }
    let stage = |g: &Value| (g["phase"].clone(), g["encounter"].clone());
    if old.is_none_or(|o| stage(o) != stage(game)) {
        out.push(phase_line(game));
    }
    for (_, u) in units(game) {
        let Some(rules) = u["rules"].as_array() else {
            continue;
        };
        let was = old.and_then(|o| unit(o, &u["id"]));
        if was.is_none_or(|w| w["rules"] != u["rules"]) {
            let slots: Vec<String> = rules
                .iter()
                .enumerate()
                .map(|(i, r)| format!("{} {}", i + 1, rule_line(game, r)))
                .collect();
            out.push(format!("rules: {}: {}", unit_label(u), slots.join(" | ")));
        }
    }
}

/// `phase: fighting, encounter 1 of 6`, with the offered skills in the reward phase.
fn phase_line(game: &Value) -> String {
    let phase = phase_words(&game["phase"]).to_lowercase();
    let stage = if game["mode"] == "pvp" {
        "the duel".to_owned()
    } else {
        format!("encounter {} of {}", game["encounter"], game["encounters"])
    };
    let mut line = format!("phase: {phase}, {stage}");
    if game["phase"] == "paused" {
        line.push_str(&format!(", at tick {}", game["tick"]));
    }
    if let Some(offered) = game["offering"].as_array().filter(|o| !o.is_empty()) {
        let skills: Vec<String> = offered
            .iter()
            .map(|s| {
                format!(
                    "{} ({} ticks): {}",
                    text(&s["name"]),
                    s["ticks"],
                    text(&s["text"])
                )
            })
            .collect();
        line.push_str(&format!("; offered: {}", skills.join(" ")));
    }
    line
}

/// What the prompt depends on: a new prompt is printed only when this changes (not at
/// every tick of a running fight).
pub fn prompt_key(tracker: &ViewTracker) -> Value {
    let view = tracker.view().unwrap_or(&Value::Null);
    json!([view["to_act"], view["legal"], view["prompt"]])
}

/// One legal entry in words, after `play N`.
fn option(game: &Value, entry: &Value) -> String {
    let who = |id: &Value| unit(game, id).map_or_else(|| text(id), unit_label);
    match entry["kind"].as_str() {
        Some("set_rule") if fill::is_open(entry) => {
            let names: Vec<String> = fill::parameters(entry)
                .iter()
                .map(|(name, _)| name.to_uppercase())
                .collect();
            format!(
                "{} = set a rule of {}",
                names.join(" "),
                who(&entry["unit"])
            )
        }
        Some("clear_rule") => format!("= clear {}'s rule {}", who(&entry["unit"]), entry["slot"]),
        Some("move_rule") => format!(
            "= move {}'s rule {} {}",
            who(&entry["unit"]),
            entry["slot"],
            text(&entry["direction"])
        ),
        Some("take") => format!(
            "= take {} for {}",
            skill_name(game, &entry["skill"]),
            who(&entry["unit"])
        ),
        Some("start") if game["mode"] == "pvp" => "= start (say you are ready)".to_owned(),
        Some("start") => "= start the fight".to_owned(),
        _ => {
            let values = if fill::is_open(entry) { " VALUES" } else { "" };
            format!("{values} = {}", fill::describe(entry))
                .trim_start()
                .to_owned()
        }
    }
}

/// The `your move:` (or `you may:`) line for gambit, or `None` when there is nothing to
/// type. Values shared by every open entry are described once at the end.
pub fn prompt_line(tracker: &ViewTracker) -> Option<String> {
    let view = tracker.view()?;
    let game = &view["game"];
    let legal = tracker.legal_actions();
    if legal.is_empty() {
        return None;
    }
    let open: Vec<&Value> = legal.iter().filter(|a| fill::is_open(a)).collect();
    let mut shared: Vec<(String, String)> = Vec::new();
    let mut own: Vec<Vec<String>> = vec![Vec::new(); legal.len()];
    if let Some(first) = open.first() {
        for (name, schema) in fill::parameters(first) {
            let words = fill::describe_schema(schema);
            let everywhere = open.iter().all(|e| {
                e.get(&name)
                    .and_then(battle_protocol::choose::choose)
                    .is_some_and(|s| fill::describe_schema(s) == words)
            });
            if everywhere {
                shared.push((name.to_uppercase(), words));
            }
        }
    }
    for (i, entry) in legal.iter().enumerate() {
        for (name, schema) in fill::parameters(entry) {
            let upper = name.to_uppercase();
            if !shared.iter().any(|(n, _)| *n == upper) {
                own[i].push(format!("{upper} {}", fill::describe_schema(schema)));
            }
        }
    }
    let options: Vec<String> = legal
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let mut line = format!("play {} {}", i + 1, option(game, entry));
            if !own[i].is_empty() {
                line.push_str(&format!(" ({})", own[i].join("; ")));
            }
            line
        })
        .collect();
    let mut line = options.join(", ");
    if !shared.is_empty() {
        let values: Vec<String> = shared.iter().map(|(n, w)| format!("{n} = {w}")).collect();
        line.push_str(&format!(
            "; values: {} (a list comma-separated, [] for none)",
            values.join("; ")
        ));
    }
    Some(if tracker.my_turn() {
        let asked = view["prompt"]["text"]
            .as_str()
            .map(|t| format!("{t} "))
            .unwrap_or_default();
        format!("your move: {asked}you may: {line}")
    } else {
        format!("you may (not awaited): {line}")
    })
}

#[cfg(test)]
#[path = "plain_tests.rs"]
mod tests;
