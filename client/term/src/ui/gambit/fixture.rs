//! Gambit views in the server's shape for the unit tests (trimmed from a real PvE fight at
//! tick 3), with the `legal` lists the server sends in each phase.

use battle_protocol::ServerMsg;
use serde_json::{json, Value};

use battle_client::ViewTracker;

/// One unit as the server's view shows it.
fn unit(id: &str, name: &str, (hp, max_hp): (u64, u64), skills: &[&str], rules: Value) -> Value {
    json!({"id": id, "name": name, "hp": hp, "max_hp": max_hp, "shield": 0, "down": false,
           "statuses": [], "doing": null, "skills": skills, "rules": rules,
           "why": ["1: not evaluated", "2: not reached", "3: not reached"]})
}

fn rule(skill: &str, conditions: &[&str]) -> Value {
    json!({"skill": skill, "conditions": conditions, "target": null})
}

/// The conditions the server lists in `set_rule` entries.
pub const CONDITIONS: [&str; 4] = [
    "always",
    "self_hp_below_25",
    "self_hp_below_50",
    "ally_hp_below_75",
];

/// The open `set_rule` entry of `unit` knowing `skills`.
pub fn set_rule(unit: &str, skills: &[&str]) -> Value {
    json!({"kind": "set_rule", "unit": unit,
        "conditions": {"$choose": {"items": {"enum": CONDITIONS}, "maxItems": 2,
                       "minItems": 0, "type": "array", "uniqueItems": true}},
        "skill": {"$choose": {"enum": skills}},
        "slot": {"$choose": {"maximum": 3, "minimum": 1, "type": "integer"}},
        "target": {"$choose": {"anyOf": [{"type": "null"},
                   {"enum": ["lowest_hp", "highest_hp", "first", "ignore_taunt", "myself"]}]}}})
}

/// The `legal` list while paused or planning (PvE): set_rule per character, the clears and
/// moves of A's filled slots, then `then` (`resume` or `start`).
pub fn editing_legal(then: &str) -> Value {
    json!([
        set_rule("A", &["strike", "taunt", "brace"]),
        set_rule("B", &["mend", "ward", "strike"]),
        set_rule("C", &["arc_bolt", "venom_dart", "disrupt"]),
        {"kind": "clear_rule", "slot": 1, "unit": "A"},
        {"direction": "down", "kind": "move_rule", "slot": 1, "unit": "A"},
        {"kind": "clear_rule", "slot": 2, "unit": "A"},
        {"direction": "up", "kind": "move_rule", "slot": 2, "unit": "A"},
        {"direction": "down", "kind": "move_rule", "slot": 2, "unit": "A"},
        {"kind": then}
    ])
}

/// A PvE battle at tick 3 in `phase`, as seat 0 sees it, with `legal`.
pub fn view(phase: &str, legal: Value) -> Value {
    let mut a = unit(
        "A",
        "Vanguard",
        (120, 120),
        &["strike", "taunt", "brace"],
        json!([
            rule("taunt", &["always"]),
            rule("brace", &["self_hp_below_25"]),
            rule("strike", &["always"])
        ]),
    );
    a["statuses"] = json!([{"status": "taunting", "ticks": 2}]);
    a["why"] = json!(["busy: Strike (1 tick left)"]);
    let b = unit(
        "B",
        "Mender",
        (90, 90),
        &["mend", "ward", "strike"],
        json!([rule("mend", &["ally_hp_below_75"]), null, null]),
    );
    let c = unit(
        "C",
        "Arcanist",
        (56, 80),
        &["arc_bolt", "venom_dart", "disrupt"],
        json!([rule("venom_dart", &["always"]), null, null]),
    );
    let mut grunt = unit(
        "grunt1",
        "Grunt",
        (31, 60),
        &["strike"],
        json!([rule("strike", &["always"]), null, null]),
    );
    grunt["doing"] = json!({"skill": "strike", "state": "executing", "targets": ["A"],
                            "ticks": 2, "ticks_left": 1});
    json!({
        "battle_id": "g1", "ruleset": "gambit", "status": "playing", "seat": 0,
        "seats": ["connected"], "to_act": if phase == "fighting" { json!([]) } else { json!([0]) },
        "prompt": null, "legal": legal, "outcome": null,
        "game": {
            "encounter": 1, "encounters": 6, "mode": "pve", "phase": phase, "ready": [true],
            "result": null, "tick": 3, "tick_ms": 500,
            "offering": [],
            "log": ["The run begins.", "Tick 1: Vanguard (A) begins Taunt on Vanguard (A) (1 tick)."],
            "skills": [
                {"id": "strike", "name": "Strike", "text": "Deal 12 damage to one enemy.", "ticks": 2},
                {"id": "taunt", "name": "Taunt", "text": "Taunt for 4 ticks.", "ticks": 1},
                {"id": "brace", "name": "Brace", "text": "Defend for 3 ticks.", "ticks": 1},
                {"id": "mend", "name": "Mend", "text": "Heal one damaged ally for 25.", "ticks": 2},
                {"id": "execute", "name": "Execute", "text": "Deal 40 damage.", "ticks": 3},
                {"id": "leech", "name": "Leech", "text": "Deal 10, heal 10.", "ticks": 2}
            ],
            "teams": [{"name": "Party", "units": [a, b, c]},
                      {"name": "Enemies", "units": [grunt]}]
        }
    })
}

/// The reward phase after encounter 1: Execute and Leech offered; B knows Leech already.
pub fn reward() -> Value {
    let mut legal = Vec::new();
    for skill in ["execute", "leech"] {
        for unit in ["A", "B", "C"] {
            if !(skill == "leech" && unit == "B") {
                legal.push(json!({"kind": "take", "skill": skill, "unit": unit}));
            }
        }
    }
    legal.push(json!({"kind": "skip"}));
    let mut v = view("reward", Value::from(legal));
    v["game"]["offering"] = json!([
        {"id": "execute", "name": "Execute", "text": "Deal 40 damage.", "ticks": 3},
        {"id": "leech", "name": "Leech", "text": "Deal 10, heal 10.", "ticks": 2}
    ]);
    v["game"]["teams"][0]["units"][1]["skills"] = json!(["mend", "ward", "strike", "leech"]);
    v
}

/// A tracker holding `view` (at seq 1).
pub fn tracked(view: Value) -> ViewTracker {
    let mut t = ViewTracker::new("g1");
    t.apply(&ServerMsg::Snapshot {
        battle_id: "g1".into(),
        seq: 1,
        view,
        req: None,
    })
    .expect("a snapshot of the tracked battle applies");
    t
}
