//! Gambit's view read for people: the phase, conditions and targeting modes in words, a
//! unit's intent line and statuses, a rule as one line, the viewer's party, why an edit or a
//! phase action is not possible now, and the result told in the viewer's own terms.
//!
//! Only words are chosen here: which conditions, modes and skills exist always comes from the
//! view (`legal`, `game.skills`), so a value this client does not know is shown as it is.

use serde_json::Value;

use crate::outcome::result_lines as generic_result_lines;
use battle_client::ViewTracker;

/// Whether `view` is a gambit battle.
pub fn is_gambit(view: &Value) -> bool {
    view["ruleset"] == "gambit"
}

/// A JSON string without quotes; other values as JSON (`?` for nothing).
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "?".to_owned(),
        other => other.to_string(),
    }
}

/// The phase in words: `Planning`, `Fighting`, `Paused`, `Reward`, `Over`.
pub fn phase_words(phase: &Value) -> String {
    match phase.as_str() {
        Some("planning") => "Planning".to_owned(),
        Some("fighting") => "Fighting".to_owned(),
        Some("paused") => "Paused".to_owned(),
        Some("reward") => "Reward".to_owned(),
        Some("over") => "Over".to_owned(),
        Some(other) => words(other),
        None => "Starting".to_owned(),
    }
}

/// `snake_case` as words: `ally_poisoned` → `ally poisoned`.
fn words(id: &str) -> String {
    id.replace('_', " ")
}

/// A condition in words (`ally_hp_below_50` → `an ally below 50% HP`); an unknown one as
/// its words.
pub fn condition_words(condition: &Value) -> String {
    let Some(id) = condition.as_str() else {
        return "none".to_owned();
    };
    if let Some(pct) = id.strip_prefix("self_hp_below_") {
        return format!("own HP below {pct}%");
    }
    for (prefix, who) in [
        ("ally_hp_below_", "an ally"),
        ("enemy_hp_below_", "an enemy"),
    ] {
        if let Some(pct) = id.strip_prefix(prefix) {
            return format!("{who} below {pct}% HP");
        }
    }
    match id {
        "always" => "always".to_owned(),
        "ally_knocked_out" => "an ally knocked out".to_owned(),
        "ally_poisoned" => "an ally poisoned".to_owned(),
        "enemy_taunting" => "an enemy taunting".to_owned(),
        "enemy_acting" => "an enemy acting".to_owned(),
        "self_unshielded" => "no shield left".to_owned(),
        "more_than_2_enemies" => "more than 2 enemies".to_owned(),
        other => words(other),
    }
}

/// A targeting mode in words (`null`: the skill's own way).
pub fn target_words(mode: &Value) -> String {
    match mode.as_str() {
        None => "the skill's own".to_owned(),
        Some("lowest_hp") => "lowest HP".to_owned(),
        Some("highest_hp") => "highest HP".to_owned(),
        Some("first") => "first in order".to_owned(),
        Some("ignore_taunt") => "lowest HP, ignoring taunt".to_owned(),
        Some("myself") => "itself".to_owned(),
        Some(other) => words(other),
    }
}

/// The glossary entry of skill `id` in `game.skills`.
pub fn skill<'a>(game: &'a Value, id: &Value) -> Option<&'a Value> {
    game["skills"].as_array()?.iter().find(|s| s["id"] == *id)
}

/// A skill's name from the glossary (its id when the glossary lacks it).
pub fn skill_name(game: &Value, id: &Value) -> String {
    skill(game, id).map_or_else(|| text(id), |s| text(&s["name"]))
}

/// `Brace · if own HP below 25%` (`· target highest HP` when the rule overrides it); an
/// empty slot is `(empty)`.
pub fn rule_line(game: &Value, rule: &Value) -> String {
    if rule.is_null() {
        return "(empty)".to_owned();
    }
    let conditions: Vec<String> = rule["conditions"]
        .as_array()
        .map(|c| c.iter().map(condition_words).collect())
        .unwrap_or_default();
    let when = if conditions.is_empty() || conditions == ["always"] {
        "always".to_owned()
    } else {
        format!("if {}", conditions.join(" and "))
    };
    let mut line = format!("{} · {when}", skill_name(game, &rule["skill"]));
    if !rule["target"].is_null() {
        line.push_str(&format!(" · target {}", target_words(&rule["target"])));
    }
    line
}

/// The intent line of a unit: `→ Strike on Grunt #1, 1 of 2 ticks left (executing)`, shorter
/// forms when that is wider than `width`; `idle` or `knocked out` otherwise.
pub fn intent_line(game: &Value, unit: &Value, width: usize) -> String {
    if unit["down"] == true {
        return "knocked out".to_owned();
    }
    let doing = &unit["doing"];
    if doing.is_null() {
        return "idle".to_owned();
    }
    let targets: Vec<String> = doing["targets"]
        .as_array()
        .map(|t| t.iter().map(|id| unit_by_id(game, id)).collect())
        .unwrap_or_default();
    let on = if targets.is_empty() {
        String::new()
    } else {
        format!(" on {}", targets.join(", "))
    };
    let name = skill_name(game, &doing["skill"]);
    let (left, ticks, state) = (&doing["ticks_left"], &doing["ticks"], text(&doing["state"]));
    let plural = if doing["ticks"] == 1 { "tick" } else { "ticks" };
    [
        format!("→ {name}{on}, {left} of {ticks} {plural} left ({state})"),
        format!("→ {name}{on}, {left}/{ticks} ticks left ({state})"),
        format!("→ {name}{on}, {left}/{ticks} left ({state})"),
    ]
    .into_iter()
    .find(|l| l.chars().count() <= width)
    .unwrap_or_else(|| format!("→ {name}{on}, {left}/{ticks} left"))
}

/// Shield and statuses: `shield 30 · taunting 2 ticks · enraged (next attack)`; `—` when
/// there are none.
pub fn status_line(unit: &Value) -> String {
    let mut parts = Vec::new();
    if unit["shield"].as_u64().unwrap_or(0) > 0 {
        parts.push(format!("shield {}", unit["shield"]));
    }
    for s in unit["statuses"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
    {
        let name = text(&s["status"]);
        parts.push(match s["ticks"].as_u64() {
            Some(0) | None => format!("{name} (until its next attack)"),
            Some(1) => format!("{name} 1 tick"),
            Some(n) => format!("{name} {n} ticks"),
        });
    }
    if parts.is_empty() {
        "—".to_owned()
    } else {
        parts.join(" · ")
    }
}

/// The team the viewer plays (spectators: the first).
pub fn own_team(tracker: &ViewTracker) -> usize {
    tracker.seat().unwrap_or(0).min(1)
}

/// Every unit of the battle in selection order: the viewer's team first, then the other.
pub fn units_in_order(tracker: &ViewTracker) -> Vec<&Value> {
    let Some(game) = tracker.game() else {
        return Vec::new();
    };
    let own = own_team(tracker);
    [own, 1 - own]
        .into_iter()
        .flat_map(|t| {
            game["teams"][t]["units"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or(&[])
        })
        .collect()
}

/// The units of the viewer's party (none for a spectator).
pub fn own_units(tracker: &ViewTracker) -> Vec<&Value> {
    match (tracker.seat(), tracker.game()) {
        (Some(_), Some(game)) => game["teams"][own_team(tracker)]["units"]
            .as_array()
            .map(|u| u.iter().collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// A unit as people call it: a party member by its letter and name (`A Vanguard`: the
/// letters are the party's order, which rules and targeting use), an enemy by its name,
/// numbered when it has twins (`Grunt #2` for `grunt2`), never by its id.
pub fn unit_label(unit: &Value) -> String {
    let id = text(&unit["id"]);
    let name = text(&unit["name"]);
    if id.len() == 1 && id.chars().all(|c| c.is_ascii_uppercase()) {
        return format!("{id} {name}");
    }
    let number = id.trim_start_matches(|c: char| !c.is_ascii_digit());
    if !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) {
        format!("{name} #{number}")
    } else {
        name
    }
}

/// The unit with `id` in either team, labelled ([`unit_label`]); the id itself when the
/// view has no such unit.
pub fn unit_by_id(game: &Value, id: &Value) -> String {
    (0..2)
        .flat_map(|t| game["teams"][t]["units"].as_array().into_iter().flatten())
        .find(|u| u["id"] == *id)
        .map_or_else(|| text(id), unit_label)
}

/// Why the rules of `unit` cannot be edited now, in words.
pub fn why_no_edit(tracker: &ViewTracker, unit: &Value) -> String {
    let Some(view) = tracker.view() else {
        return "no view of the battle yet".to_owned();
    };
    if tracker.seat().is_none() {
        return "spectators cannot edit rules".to_owned();
    }
    if !own_units(tracker).iter().any(|u| u["id"] == unit["id"]) {
        return format!(
            "{} is not one of your characters: Tab selects yours",
            unit_label(unit)
        );
    }
    let game = &view["game"];
    match game["phase"].as_str() {
        Some("fighting") if game["mode"] == "pvp" => {
            "the fight is running and a PvP fight cannot be paused".to_owned()
        }
        Some("fighting") => "the fight is running: press p to pause it, then edit".to_owned(),
        Some("reward") => "take an offered skill or skip (k) first".to_owned(),
        Some("planning") => "you said you are ready: your rules are locked".to_owned(),
        Some("over") => "the battle is over".to_owned(),
        _ => "rules cannot be edited now".to_owned(),
    }
}

/// Why `kind` (`pause`/`resume`, `start`, `skip`) is not legal now, in words.
pub fn why_not(view: &Value, kind: &str) -> String {
    let game = &view["game"];
    let phase = game["phase"].as_str().unwrap_or_default();
    let pvp = game["mode"] == "pvp";
    match (kind, phase) {
        (_, "over") => "the battle is over".to_owned(),
        ("pause", "fighting") if pvp => "a PvP fight cannot be paused".to_owned(),
        ("pause", "planning") => "the fight has not started: s starts it".to_owned(),
        ("pause" | "start", "reward") => "take an offered skill or skip (k) first".to_owned(),
        ("start", "fighting") => "the fight is already running".to_owned(),
        ("start", "paused") => "the fight is paused: p resumes it".to_owned(),
        ("start", "planning") if pvp => {
            "you are ready already; the fight starts when both players are".to_owned()
        }
        ("skip", _) => "there are no offered skills to skip now".to_owned(),
        _ => format!("you cannot {kind} now"),
    }
}

/// The result in the viewer's own terms, as every ruleset tells it
/// ([`generic_result_lines`]): a PvE run is one seat's, so nobody winning is the player's
/// loss of the run.
pub fn result_lines(tracker: &ViewTracker) -> Vec<String> {
    generic_result_lines(tracker)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn intents_conditions_and_statuses_read_as_words() {
        let game = json!({"skills": [{"id": "venom_dart", "name": "Venom Dart"}],
            "teams": [{"units": []}, {"units": [{"id": "grunt2", "name": "Grunt"}]}]});
        let unit = json!({"down": false, "doing": {"skill": "venom_dart", "state": "executing",
            "targets": ["grunt2"], "ticks": 2, "ticks_left": 1}});
        assert_eq!(
            intent_line(&game, &unit, 80),
            "→ Venom Dart on Grunt #2, 1 of 2 ticks left (executing)"
        );
        assert_eq!(
            intent_line(&game, &unit, 46),
            "→ Venom Dart on Grunt #2, 1/2 left (executing)"
        );
        assert_eq!(
            intent_line(&game, &json!({"down": true}), 80),
            "knocked out"
        );
        assert_eq!(
            condition_words(&json!("ally_hp_below_50")),
            "an ally below 50% HP"
        );
        assert_eq!(
            condition_words(&json!("self_hp_below_25")),
            "own HP below 25%"
        );
        assert_eq!(condition_words(&json!("brand_new_one")), "brand new one");
        assert_eq!(target_words(&Value::Null), "the skill's own");
        assert_eq!(
            status_line(&json!({"shield": 30, "statuses": [
                {"status": "taunting", "ticks": 1}, {"status": "enraged", "ticks": 0}]})),
            "shield 30 · taunting 1 tick · enraged (until its next attack)"
        );
        assert_eq!(phase_words(&json!("reward")), "Reward");
        assert_eq!(
            unit_label(&json!({"id": "A", "name": "Vanguard"})),
            "A Vanguard"
        );
        assert_eq!(
            unit_label(&json!({"id": "grunt1", "name": "Grunt"})),
            "Grunt #1"
        );
        assert_eq!(
            unit_label(&json!({"id": "brute", "name": "Brute"})),
            "Brute"
        );
    }
}
