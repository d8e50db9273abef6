//! Gambit's screens: planning, a running fight (intent and why lines), a pause with the
//! rule editor open, the offering, a PvP planning screen as the opponent sees it, a
//! spectator, the help box, and the end won and lost. The views are trimmed from a real
//! server view (encounter 1, tick 3).

use battle_term::keys::{Command, Nav};
use battle_term::ui::gambit::GambitUi;
use battle_term::Link;
use serde_json::{json, Value};

use super::{assert_snapshot, render_with, tracker, Extras};

fn rule(skill: &str, conditions: &[&str], target: Value) -> Value {
    json!({"skill": skill, "conditions": conditions, "target": target})
}

fn unit(id: &str, name: &str, hp: u64, max_hp: u64, skills: &[&str], rules: Value) -> Value {
    json!({"id": id, "name": name, "hp": hp, "max_hp": max_hp, "shield": 0, "down": false,
           "statuses": [], "doing": null, "skills": skills, "rules": rules, "why": []})
}

fn doing(skill: &str, state: &str, target: &str, ticks: u64, left: u64) -> Value {
    json!({"skill": skill, "state": state, "targets": [target], "ticks": ticks,
           "ticks_left": left})
}

/// The party as the sample has it.
fn party(ids: [&str; 3]) -> Vec<Value> {
    vec![
        unit(
            ids[0],
            "Vanguard",
            120,
            120,
            &["strike", "taunt", "brace"],
            json!([
                rule("taunt", &["always"], Value::Null),
                rule("brace", &["self_hp_below_25"], Value::Null),
                rule("strike", &["always"], Value::Null)
            ]),
        ),
        unit(
            ids[1],
            "Mender",
            90,
            90,
            &["mend", "ward", "strike"],
            json!([
                rule("mend", &["ally_hp_below_75"], Value::Null),
                rule("ward", &["ally_hp_below_50"], Value::Null),
                rule("strike", &["always"], Value::Null)
            ]),
        ),
        unit(
            ids[2],
            "Arcanist",
            80,
            80,
            &["arc_bolt", "venom_dart", "disrupt"],
            json!([
                rule("venom_dart", &["always"], Value::Null),
                rule("arc_bolt", &["always"], json!("highest_hp")),
                null
            ]),
        ),
    ]
}

fn grunt(id: &str) -> Value {
    unit(
        id,
        "Grunt",
        60,
        60,
        &["strike"],
        json!([rule("strike", &["always"], Value::Null), null, null]),
    )
}

fn skills() -> Value {
    json!([
        {"id": "strike", "name": "Strike", "text": "Deal 12 damage to one enemy.", "ticks": 2},
        {"id": "taunt", "name": "Taunt", "text": "Taunt for 4 ticks: enemies choosing a new single target by HP must pick you.", "ticks": 1},
        {"id": "brace", "name": "Brace", "text": "Defend for 3 ticks: damage you take is halved, before shields.", "ticks": 1},
        {"id": "mend", "name": "Mend", "text": "Heal one damaged ally for 25.", "ticks": 2},
        {"id": "ward", "name": "Ward", "text": "Give one ally a 30-point shield (replacing any shield it had).", "ticks": 2},
        {"id": "arc_bolt", "name": "Arc Bolt", "text": "Deal 20 damage to one enemy.", "ticks": 3},
        {"id": "venom_dart", "name": "Venom Dart", "text": "Poison one enemy that is not poisoned: 5 damage per tick for 4 ticks, from the tick after it lands.", "ticks": 2},
        {"id": "disrupt", "name": "Disrupt", "text": "Cancel the action one acting enemy has in progress (not one resolving this tick).", "ticks": 1}
    ])
}

/// The server's open `set_rule` entry for `unit`.
fn set_rule(unit: &str, skills: &[&str]) -> Value {
    json!({"kind": "set_rule", "unit": unit,
        "conditions": {"$choose": {"items": {"enum": ["always", "self_hp_below_25",
            "self_hp_below_50", "self_hp_below_75", "ally_hp_below_25", "ally_hp_below_50",
            "ally_hp_below_75", "enemy_hp_below_25", "enemy_hp_below_50", "ally_knocked_out",
            "ally_poisoned", "enemy_taunting", "enemy_acting", "self_unshielded",
            "more_than_2_enemies"]}, "maxItems": 2, "minItems": 0, "type": "array",
            "uniqueItems": true}},
        "skill": {"$choose": {"enum": skills}},
        "slot": {"$choose": {"maximum": 3, "minimum": 1, "type": "integer"}},
        "target": {"$choose": {"anyOf": [{"type": "null"},
            {"enum": ["lowest_hp", "highest_hp", "first", "ignore_taunt", "myself"]}]}}})
}

/// The edits the server lists while planning or paused (ids of the party `ids`), then
/// `then`.
fn editing(ids: [&str; 3], then: &str) -> Value {
    let mut legal = vec![
        set_rule(ids[0], &["strike", "taunt", "brace"]),
        set_rule(ids[1], &["mend", "ward", "strike"]),
        set_rule(ids[2], &["arc_bolt", "venom_dart", "disrupt"]),
    ];
    for (id, filled) in [(ids[0], 3), (ids[1], 3), (ids[2], 2)] {
        for slot in 1..=filled {
            legal.push(json!({"kind": "clear_rule", "slot": slot, "unit": id}));
            if slot > 1 {
                legal.push(
                    json!({"direction": "up", "kind": "move_rule", "slot": slot, "unit": id}),
                );
            }
            if slot < 3 {
                legal.push(
                    json!({"direction": "down", "kind": "move_rule", "slot": slot, "unit": id}),
                );
            }
        }
    }
    legal.push(json!({"kind": then}));
    Value::from(legal)
}

/// A PvE battle before encounter 1 (planning), as seat 0 sees it.
pub(super) fn planning() -> Value {
    json!({
        "battle_id": "kg4fme4qk7", "ruleset": "gambit", "status": "playing", "seat": 0,
        "seats": ["connected"], "to_act": [0], "legal": editing(["A", "B", "C"], "start"),
        "prompt": {"decision": "plan",
                   "text": "Encounter 1 of 6: edit your party's rules, then start the fight."},
        "outcome": null,
        "game": {
            "encounter": 1, "encounters": 6, "mode": "pve", "phase": "planning",
            "ready": [false], "result": null, "tick": 0, "tick_ms": 500, "offering": [],
            "log": ["The run begins. Encounter 1 of 6: plan your party's rules, then start."],
            "skills": skills(),
            "teams": [{"name": "Party", "units": party(["A", "B", "C"])},
                      {"name": "Enemies", "units": [grunt("grunt1"), grunt("grunt2")]}]
        }
    })
}

/// The same battle at tick 3 of the fight (the real sample).
pub(super) fn fighting() -> Value {
    let mut v = planning();
    v["to_act"] = json!([]);
    v["prompt"] = Value::Null;
    v["legal"] = json!([{"kind": "pause"}]);
    let game = &mut v["game"];
    game["phase"] = json!("fighting");
    game["ready"] = json!([true]);
    game["tick"] = json!(3);
    game["log"] = json!([
        "The run begins. Encounter 1 of 6: plan your party's rules, then start.",
        "Encounter 1 of 6 starts against Grunt, Grunt.",
        "Tick 1: Vanguard (A) begins Taunt on Vanguard (A) (1 tick).",
        "Tick 1: Vanguard (A) is taunting.",
        "Tick 2: Mender (B) resolves Strike: Grunt (grunt1) 48/60 HP.",
        "Tick 2: Grunt (grunt1) resolves Strike: Arcanist (C) 56/80 HP.",
        "Tick 2: Grunt (grunt1) is poisoned.",
        "Tick 3: Mender (B) begins Mend on Arcanist (C) (2 ticks).",
        "Tick 3: Vanguard (A) resolves Strike: Grunt (grunt1) 36/60 HP.",
        "Tick 3: Grunt (grunt1) takes 5 poison damage, 31/60 HP."
    ]);
    let units = &mut game["teams"][0]["units"];
    units[0]["statuses"] = json!([{"status": "taunting", "ticks": 2}]);
    units[0]["shield"] = json!(30);
    units[0]["doing"] = doing("strike", "executing", "grunt1", 2, 1);
    units[0]["why"] = json!(["busy: Strike (1 tick left)"]);
    units[1]["doing"] = doing("mend", "queued", "C", 2, 1);
    units[1]["why"] = json!(["1: Mend fires on C", "2: not reached", "3: not reached"]);
    units[2]["hp"] = json!(56);
    units[2]["doing"] = doing("venom_dart", "queued", "grunt2", 2, 1);
    units[2]["why"] = json!([
        "1: Venom Dart fires on grunt2",
        "2: not reached",
        "3: not reached"
    ]);
    let enemies = &mut game["teams"][1]["units"];
    enemies[0]["hp"] = json!(31);
    enemies[0]["statuses"] = json!([{"status": "poisoned", "ticks": 3}]);
    enemies[0]["doing"] = doing("strike", "queued", "A", 2, 1);
    enemies[0]["why"] = json!(["1: Strike fires on A", "2: not reached", "3: not reached"]);
    enemies[1]["hp"] = json!(0);
    enemies[1]["down"] = json!(true);
    enemies[1]["why"] = json!(["knocked out"]);
    v
}

/// Render `view` with the panel's selection `ui`.
fn screen(view: Value, ui: &GambitUi, show_help: bool) -> String {
    render_with(
        view,
        Link::Connected,
        Extras {
            gambit: Some(ui),
            show_help,
            ..Extras::default()
        },
    )
}

/// A selection reached by `commands` on `view`.
fn selected(view: &Value, commands: &[Command]) -> GambitUi {
    let t = tracker(view.clone());
    let mut ui = GambitUi::default();
    for c in commands {
        ui.command(&t, c.clone()).expect("the selection moves");
    }
    ui
}

#[test]
fn planning_screen_shows_rules_and_enemies() {
    let shown = screen(planning(), &GambitUi::default(), false);
    for needle in [
        "Encounter 1/6 · tick 0 · Planning · edit your rules (Enter), then s starts the fight",
        "← your move",
        "Party (you)",
        "Enemies",
        "Grunt #2",
        "▶1 Taunt · always",
        " 2 Brace · if own HP below 25%",
        "Vanguard's skills",
        "s start",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert!(!shown.contains("planning"), "no raw phase names:\n{shown}");
    assert!(!shown.contains("grunt"), "no unit ids:\n{shown}");
    assert_snapshot("gambit_planning", &shown);
}

#[test]
fn fight_screen_shows_intent_and_why_lines() {
    let view = fighting();
    let ui = selected(&view, &[Command::Nav(Nav::Next)]);
    let shown = screen(view, &ui, false);
    for needle in [
        "Encounter 1/6 · tick 3 · Fighting · the fight runs by itself; p pauses it",
        "→ Strike on Grunt #1, 1/2 left (executing)",
        "→ Mend on C Arcanist, 1/2 ticks left (queued)",
        "shield 30 · taunting 2 ticks",
        "poisoned 3 ticks",
        "✕ down",
        "B Mender: rules and why",
        "why: 1: Mend fires on C",
        "p pause",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_snapshot("gambit_fighting", &shown);
}

#[test]
fn paused_screen_with_the_editor_open() {
    let mut view = fighting();
    view["game"]["phase"] = json!("paused");
    view["to_act"] = json!([0]);
    view["legal"] = editing(["A", "B", "C"], "resume");
    let ui = selected(
        &view,
        &[
            Command::Nav(Nav::Right),
            Command::Nav(Nav::Right),
            Command::Nav(Nav::Down),
            Command::Confirm,
            Command::Nav(Nav::Down),
            Command::Nav(Nav::Right),
        ],
    );
    let shown = screen(view, &ui, false);
    for needle in [
        "Paused · edit your rules (Enter), then p resumes",
        "edit C's rule 2",
        "◀ Arc Bolt ▶",
        "◀ own HP below 25% ▶",
        "◀ highest HP ▶",
        "Enter set the rule",
        "Arc Bolt (3 ticks): Deal 20 damage to one enemy.",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_snapshot("gambit_paused_editor", &shown);
}

#[test]
fn reward_screen_shows_the_offering() {
    let mut view = planning();
    view["game"]["phase"] = json!("reward");
    view["game"]["offering"] = json!([
        {"id": "execute", "name": "Execute", "ticks": 3,
         "text": "Deal 40 damage to one enemy at or below 25% of its max HP."},
        {"id": "leech", "name": "Leech", "ticks": 2,
         "text": "Deal 10 damage to one enemy and heal yourself for 10."},
        {"id": "sweep", "name": "Sweep", "ticks": 3, "text": "Deal 10 damage to every enemy."}
    ]);
    let mut legal = Vec::new();
    for skill in ["execute", "leech", "sweep"] {
        for unit in ["A", "B", "C"] {
            legal.push(json!({"kind": "take", "skill": skill, "unit": unit}));
        }
    }
    legal.push(json!({"kind": "skip"}));
    view["legal"] = Value::from(legal);
    view["game"]["log"] = json!([
        "Encounter 1 is won at tick 14.",
        "Choose a skill for a character, or skip: Execute, Leech, Sweep."
    ]);
    let ui = selected(&view, &[Command::Play(2)]);
    let shown = screen(view, &ui, false);
    for needle in [
        "Reward · take a skill (1-3, then who learns it) or k skips",
        "[1] Execute (3 ticks): Deal 40 damage to one enemy at or below 25% of its max HP.",
        "▶[2] Leech (2 ticks)",
        "Leech chosen: who learns it? Press 1 A Vanguard · 2 B Mender · 3 C Arcanist",
        "k skip",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_snapshot("gambit_reward", &shown);
}

#[test]
fn pvp_planning_hides_the_opponents_rules() {
    let mut view = planning();
    view["seat"] = json!(1);
    view["seats"] = json!(["connected", "connected"]);
    view["legal"] = editing(["D", "E", "F"], "start");
    view["prompt"] =
        json!({"decision": "plan", "text": "Program your party, then say you are ready."});
    let game = &mut view["game"];
    game["mode"] = json!("pvp");
    game["encounters"] = json!(1);
    game["ready"] = json!([true, false]);
    game["log"] = json!([
        "The duel begins: each player programs a party; the fight starts when both are ready.",
        "Player 1 is ready."
    ]);
    let mut theirs = party(["A", "B", "C"]);
    // Player 1's program, as the server would hold it: never in seat 1's view.
    theirs[2]["rules"] = json!([
        rule(
            "disrupt",
            &["enemy_acting", "self_unshielded"],
            json!("first")
        ),
        null,
        null
    ]);
    for u in &mut theirs {
        u.as_object_mut()
            .expect("a unit is an object")
            .remove("rules");
    }
    game["teams"] = json!([{"name": "Player 1", "units": theirs},
                           {"name": "Player 2", "units": party(["D", "E", "F"])}]);
    let shown = screen(view.clone(), &GambitUi::default(), false);
    for needle in [
        "Duel · tick 0 · Planning · program your party (Enter edits), then s: ready",
        "Player 2 (you)",
        "Player 1 · ready",
        "D Vanguard: rules and why",
        "s ready",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    // Select the opponent's Arcanist: its rules stay hidden.
    let ui = selected(&view, &[Command::Nav(Nav::Left)]);
    let theirs = screen(view, &ui, false);
    assert!(theirs.contains("C Arcanist: rules and why"), "{theirs}");
    assert!(
        theirs.contains("rules hidden until the fight starts"),
        "{theirs}"
    );
    for secret in [
        "Disrupt ·",
        "an enemy acting",
        "no shield left",
        "first in order",
    ] {
        assert!(
            !theirs.contains(secret),
            "the opponent's {secret:?} shows:\n{theirs}"
        );
    }
    assert_snapshot("gambit_pvp_opponent", &shown);
}

#[test]
fn spectator_screen_is_read_only() {
    let mut view = fighting();
    view["seat"] = Value::Null;
    view["legal"] = json!([]);
    let shown = screen(view, &GambitUi::default(), false);
    assert!(shown.contains("spectator"), "{shown}");
    assert!(
        shown.contains("Fighting · the fight runs by itself"),
        "{shown}"
    );
    assert!(shown.contains("spectating (read-only)"), "{shown}");
    assert!(!shown.contains("(you)"), "{shown}");
    assert!(!shown.contains("p pause"), "{shown}");
    assert_snapshot("gambit_spectator", &shown);
}

#[test]
fn the_help_page_ends_with_the_panels_keys() {
    let mut view = planning();
    view["game"]["log"] = json!([]);
    let tracker = tracker(view.clone());
    let link = Link::Connected;
    let keys = battle_term::ui::help::sections(&battle_term::ui::Screen::of(&tracker, &link))
        .pop()
        .expect("the page has sections");
    assert_eq!(keys.heading, "Keys");
    for needle in [
        "Esc closes the editor",
        "k skip",
        "s          start the fight",
    ] {
        assert!(
            keys.lines.iter().any(|l| l.contains(needle)),
            "{needle:?} missing: {keys:?}"
        );
    }
    let shown = screen(view, &GambitUi::default(), true);
    assert!(shown.contains("how to play gambit"), "{shown}");
}

fn finished(winners: Value, summary: &str) -> Value {
    let mut view = fighting();
    view["status"] = json!("finished");
    view["legal"] = json!([]);
    view["outcome"] = json!({"winners": winners, "summary": summary, "reason": "completed"});
    view["game"]["phase"] = json!("over");
    view["game"]["result"] = json!({"winners": winners, "summary": summary});
    view["game"]["log"]
        .as_array_mut()
        .expect("the fixture log is an array")
        .push(json!(summary));
    view
}

#[test]
fn won_and_lost_runs_are_told() {
    let won = screen(
        finished(
            json!([0]),
            "The party wins the run: the Warlord falls at tick 52 of encounter 6.",
        ),
        &GambitUi::default(),
        false,
    );
    assert!(won.contains("You won the run."), "{won}");
    assert!(won.contains("battle over"), "{won}");
    assert_snapshot("gambit_won", &won);
    let lost = screen(
        finished(
            json!([]),
            "The run is lost: the party was knocked out at tick 40 in encounter 1.",
        ),
        &GambitUi::default(),
        false,
    );
    assert!(lost.contains("You lost the run."), "{lost}");
    assert!(!lost.contains("draw"), "{lost}");
    assert_snapshot("gambit_lost", &lost);
}

#[test]
fn a_busy_unit_shows_its_forecast() {
    let mut view = fighting();
    view["game"]["teams"][0]["units"][0]["why"] = json!(["busy: Strike"]);
    view["game"]["teams"][0]["units"][0]["next"] =
        json!({"skill": "strike", "targets": ["grunt2"]});
    let ui = selected(&view, &[]);
    let shown = screen(view, &ui, false);
    assert!(shown.contains("A Vanguard: rules and why"), "{shown}");
    assert!(
        shown.contains("next: Strike on grunt2 (as things stand)"),
        "the forecast is shown:\n{shown}"
    );
}
