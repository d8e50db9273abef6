//! Heroes' screens: a player's main phase (own hand, numbered legal actions), the same game
//! as the opponent sees it, a spectator, a combat with blocks declared, and a finished game.
//! The views are trimmed from a real server view (round 4, seat 0's side of a combat).

use battle_term::Link;
use serde_json::{json, Value};

use battle_client::ViewTracker;
use battle_term::keys::{Command, Nav};
use battle_term::picker::Picker;

use super::{assert_snapshot, render, render_with, Extras};

/// The cards only seat 0's hand holds: they must never show to another viewer (Blood
/// Frenzy is in that hand too, but the log has told everyone it was played before).
const HIDDEN_NAMES: [&str; 2] = ["Cleave", "Iron Skin"];

/// Seat 1's hand, for its own screen.
const THEIR_HAND: [&str; 2] = ["Arcane Missile", "Frost Nova"];

fn card(id: u64, card: &str, name: &str, cost: u64, text: &str) -> Value {
    json!({"id": id, "card": card, "name": name, "cost": cost, "text": text})
}

fn minion(id: u64, name: &str, owner: u64, attack: u64, health: u64, marks: (bool, bool)) -> Value {
    json!({"id": id, "name": name, "owner": owner, "attack": attack, "health": health,
           "damage": 0, "bounty": 1, "tapped": marks.0, "sick": marks.1})
}

fn item(id: &str, name: &str, cost: u64, text: &str) -> Value {
    json!({"id": id, "name": name, "cost": cost, "text": text})
}

/// Round 4, Player 1's (seat 0's) main phase, as `seat` (or a spectator) sees it.
pub(super) fn main_phase(seat: Option<u64>) -> Value {
    let hand0 = json!([
        card(
            25,
            "cleave",
            HIDDEN_NAMES[0],
            3,
            "Deal 2 damage to every enemy minion."
        ),
        card(22, "iron_skin", HIDDEN_NAMES[1], 2, "Gain 4 Armor."),
        card(
            30,
            "blood_frenzy",
            "Blood Frenzy",
            3,
            "Give a minion of yours +3/+1; gain 1 Rage."
        ),
    ]);
    let hand1 = json!([
        card(70, "arcane_missile", THEIR_HAND[0], 1, "Deal 2 damage."),
        card(
            71,
            "frost_nova",
            THEIR_HAND[1],
            3,
            "Tap every enemy minion."
        ),
    ]);
    let mut side0 = json!({
        "armor": 0, "class": "Barbarian", "deck_count": 31, "gold": 3,
        "discard": [card(21, "battle_cry", "Battle Cry", 1, "Gain 2 Rage.")],
        "equipment": [item("rusty_axe", "Rusty Axe", 3, "+1 weapon damage."), null, null, null],
        "hand_count": 3, "health": 13, "max_health": 20, "level_up": "Have 8+ Armor", "level_progress": [0, 8],
        "levelled": false, "mana": 5, "max_mana": 5, "mulliganed": true, "resource": 3,
        "resource_name": "Rage", "upgrades": ["iron_will", null, null]
    });
    let mut side1 = json!({
        "armor": 2, "class": "Mage", "deck_count": 30, "gold": 1,
        "discard": [card(68, "insight", "Insight", 2, "Draw 2 cards.")],
        "equipment": [null, null, null, null], "hand_count": 2, "health": 10,
        "max_health": 20, "level_up": "Reach 10 Max Mana", "level_progress": [4, 10], "levelled": false, "mana": 0,
        "max_mana": 4, "mulliganed": true, "resource": 1, "resource_name": "Spell Damage",
        "upgrades": [null, null, null]
    });
    if seat == Some(0) {
        side0["hand"] = hand0;
    }
    if seat == Some(1) {
        side1["hand"] = hand1;
    }
    let (legal, prompt) = if seat == Some(0) {
        (
            json!([
                {"kind": "play", "card": 25, "target": null, "spend": 0},
                {"kind": "play", "card": 22, "target": null, "spend": 0},
                {"kind": "play", "card": 30, "spend": 0, "target": {"$choose": {"enum": ["minion:2", "minion:6"]}}},
                {"kind": "hero_power"},
                {"kind": "attack", "target": "minion:43"},
                {"kind": "attack", "target": "hero:1"},
                {"kind": "buy", "slot": 4},
                {"kind": "fight", "attackers": {"$choose": {"items": {"enum": [2, 6]},
                    "maxItems": 2, "minItems": 1, "type": "array", "uniqueItems": true}}},
                {"kind": "end_turn"}
            ]),
            json!({"decision": "turn", "text": "Your turn: play cards, attack, buy, or end the turn."}),
        )
    } else {
        (json!([]), Value::Null)
    };
    json!({
        "battle_id": "kg4fme4qk7", "ruleset": "heroes", "status": "playing",
        "seat": seat, "to_act": [0], "legal": legal, "prompt": prompt, "outcome": null,
        "seats": ["connected", "connected"],
        "game": {
            "phase": "main", "round": 4, "active": 0, "first": 1, "rolls": [5, 14],
            "combat": null, "pending": [], "result": null, "market_tier": "mid",
            "market": [
                item("greater_mana_potion", "Greater Mana Potion", 7, "+2 max mana (past 10)."),
                null,
                item("scholars_pin", "Scholar's Pin", 7, "Draw a card at the start of every second turn of yours."),
                item("maelstrom", "Maelstrom", 7, "Your Weapon Attacks deal +1 damage."),
                item("rally_horn", "Rally Horn", 3, "Once per game, pay 2 mana: untap all your minions."),
            ],
            "minions": [
                minion(43, "Apprentice", 1, 1, 2, (false, false)),
                minion(2, "Pit Brawler", 0, 5, 2, (false, false)),
                minion(47, "Storm Adept", 1, 3, 2, (false, false)),
                minion(6, "Shield Bearer", 0, 1, 4, (false, true)),
            ],
            "sides": [side0, side1],
            "log": [
                "Round 3: Player 1's turn (4 mana).",
                "Player 1 plays Blood Frenzy.",
                "Player 1 attacks with 1 minion.",
                "Player 2 declares 0 blocks.",
                "Combat: Player 2's hero takes 5; 0 minions die.",
                "Player 1 passes the turn.",
                "Round 4: the market refreshes.",
                "Round 4: Player 2's turn (4 mana).",
                "Player 2 plays Storm Adept.",
                "Player 2 buys Radiance.",
                "Player 2 passes the turn.",
                "Round 4: Player 1's turn (5 mana).",
            ]
        }
    })
}

/// The size of the terminal the people who try the client use (tmux's 120 x 40).
const ROOMY: Option<(u16, u16)> = Some((120, 40));

#[test]
fn main_phase_shows_the_hand_and_numbered_actions() {
    let shown = render_with(
        main_phase(Some(0)),
        Link::Connected,
        Extras {
            size: ROOMY,
            ..Extras::default()
        },
    );
    for needle in [
        "heroes · Player 1 (you)",
        "Round 4 · Player 1's turn (yours) · Player 1 plays the main phase",
        "← your move",
        "1. Cleave (3) Deal 2 damage",
        "Player 2 holds 2",
        "Health 13/20 · Armor 0 · Mana 5/5 · Gold 3",
        "Rage 3 · Hand 3 · Deck 31 · Discard 1",
        "Level up 0/8: Have 8+ Armor",
        "Level up 4/10: Reach 10 Max Mana",
        "Equipment: weapon Rusty Axe",
        "Upgrades: iron will",
        "Shield Bearer 1/4 · sick",
        "market · mid tier",
        "• (bought)",
        "• Rally Horn · 3 gold Once per game",
        "▸[1] play Cleave",
        "[3] play Blood Frenzy: choose the target …",
        "[5] Attack Player 2's Apprentice (2 mana)",
        "[6] Attack Player 2's hero (2 mana)",
        "[8] declare attackers: choose who attacks …",
        "[9] end the turn (e)",
        "↑↓ and Enter, or 1-9, to act; e ends the turn:",
        "Player 2 plays Storm Adept.",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    for name in THEIR_HAND {
        assert!(
            !shown.contains(name),
            "{name} is in the other hand:\n{shown}"
        );
    }
    for id in ["#2", "#6", "#43", "#47", "seat 0", "seat 1"] {
        assert!(!shown.contains(id), "no ids ({id}) on screen:\n{shown}");
    }
    assert_snapshot("heroes_main_phase", &shown);
}

#[test]
fn the_opponent_never_sees_the_hand() {
    let shown = render(main_phase(Some(1)), Link::Connected, "", false);
    for name in HIDDEN_NAMES {
        assert!(!shown.contains(name), "{name} leaked:\n{shown}");
    }
    for needle in [
        "Player 2 (you) · Mage",
        "Spell Damage 1",
        "your hand · Player 1 holds 3",
        THEIR_HAND[0],
        "Waiting: Player 1 plays the main phase.",
        "Nothing for you to do now.",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert!(!shown.contains("your move"), "{shown}");
    assert_snapshot("heroes_opponent", &shown);
}

#[test]
fn a_spectator_sees_both_sides_and_no_hand() {
    let shown = render(main_phase(None), Link::Connected, "", false);
    for name in HIDDEN_NAMES.iter().chain(&THEIR_HAND) {
        assert!(!shown.contains(name), "{name} leaked:\n{shown}");
    }
    for needle in [
        "Hidden: Player 1 holds 3, Player 2 holds 2.",
        "Spectating",
        "Barbarian",
        "Mage",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_snapshot("heroes_spectator", &shown);
}

#[test]
fn combat_shows_attackers_and_blocks() {
    let mut view = main_phase(Some(0));
    view["to_act"] = json!([0]);
    view["legal"] = json!([
        {"kind": "defend", "source": 47},
        {"kind": "defend", "source": null}
    ]);
    view["prompt"] = json!({"decision": "defend",
        "text": "Use your Defensive Ability on one unblocked attacker, or not."});
    let game = &mut view["game"];
    game["phase"] = json!("combat");
    game["active"] = json!(1);
    game["combat"] = json!({"attackers": [43, 47], "blocks": [[6, 43]]});
    game["minions"] = json!([
        minion(43, "Apprentice", 1, 1, 2, (true, false)),
        minion(2, "Pit Brawler", 0, 5, 2, (true, false)),
        minion(47, "Storm Adept", 1, 3, 2, (true, false)),
        minion(6, "Shield Bearer", 0, 1, 4, (false, true)),
    ]);
    game["minions"][2]["damage"] = json!(1);
    let shown = render(view, Link::Connected, "", false);
    for needle in [
        "Player 2's turn · Player 1 may use the Defensive Ability on an unblocked attacker",
        "Combat: Player 2 attacks Player 1 with",
        "Blocks: Shield Bearer blocks Apprentice.",
        "Shield Bearer 1/4 · sick · blocks Apprentice",
        "Storm Adept 3/1 of 2 · tapped · attacking",
        "[1] Defensive Ability against Storm Adept",
        "[2] no defence",
        "Enter, or 1-2, to act:",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_snapshot("heroes_combat", &shown);
}

#[test]
fn the_blockers_decision_is_told_to_a_spectator() {
    let mut view = main_phase(None);
    let game = &mut view["game"];
    game["phase"] = json!("combat");
    game["active"] = json!(1);
    game["combat"] = json!({"attackers": [43, 47], "blocks": null});
    let shown = render(view, Link::Connected, "", false);
    assert!(
        shown.contains("Player 1 chooses blockers") && shown.contains("Blocks: not declared yet."),
        "{shown}"
    );
}

#[test]
fn a_finished_game_shows_the_result() {
    let mut view = main_phase(Some(0));
    view["status"] = json!("finished");
    view["to_act"] = json!([]);
    view["legal"] = json!([]);
    view["prompt"] = Value::Null;
    let summary = "Player 1 wins: Player 2's hero is at 0 health.";
    view["outcome"] = json!({"winners": [0], "summary": summary});
    let game = &mut view["game"];
    game["phase"] = json!("over");
    game["result"] = json!({"winners": [0], "summary": summary});
    game["sides"][1]["health"] = json!(0);
    if let Some(log) = game["log"].as_array_mut() {
        log.push(json!("Player 1 attacks with 2 minions."));
        log.push(json!(
            "Combat: Player 2's hero takes 10; 0 minions die. Player 1 wins."
        ));
    }
    let shown = render(view, Link::Connected, "", false);
    for needle in ["You won.", "battle over", "game over", "Health 0/20"] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert!(!shown.contains("your move"), "{shown}");
    assert_snapshot("heroes_over", &shown);
}

/// Seat 0 declares blockers against the Apprentice and the Storm Adept.
fn blocking() -> Value {
    let mut view = main_phase(Some(0));
    view["legal"] = json!([{"kind": "block", "blockers": [2, 6], "attackers": {"$choose": {
        "type": "array", "minItems": 2, "maxItems": 2,
        "items": {"anyOf": [{"type": "null"}, {"enum": [43, 47]}]}}}}]);
    view["prompt"] = json!({"decision": "block", "text": "Choose your blockers."});
    let game = &mut view["game"];
    game["phase"] = json!("combat");
    game["active"] = json!(1);
    game["combat"] = json!({"attackers": [43, 47], "blocks": null});
    view
}

#[test]
fn blockers_are_chosen_in_a_form_one_line_per_blocker() {
    let view = blocking();
    let tracker = ViewTracker::with_view("kg4fme4qk7", 7, view.clone());
    let mut picker = Picker::default();
    picker.sync(&tracker);
    for command in [
        Command::Confirm,
        Command::Nav(Nav::Right),
        Command::Nav(Nav::Down),
        Command::Play(3),
    ] {
        picker.command(&tracker, command).expect("a form command");
    }
    let shown = render_with(
        view,
        Link::Connected,
        Extras {
            picker: Some(&picker),
            ..Extras::default()
        },
    );
    for needle in [
        "Choosing: declare blockers",
        "Pit Brawler blocks: 1.nobody [2.Apprentice]",
        "▸ Shield Bearer blocks: 1.nobody",
        "[3.Storm Adept]",
        "↑↓ field · ←→/1-9 value · Enter send · Esc back",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_snapshot("heroes_blocking_form", &shown);
}

#[test]
fn the_cursor_reaches_every_action_and_stays_in_sight() {
    let mut view = main_phase(Some(0));
    let mut legal: Vec<Value> = (0..14)
        .map(|_| json!({"kind": "attack", "target": "minion:43"}))
        .collect();
    legal.push(json!({"kind": "end_turn"}));
    view["legal"] = Value::Array(legal);
    let tracker = ViewTracker::with_view("kg4fme4qk7", 7, view.clone());
    let mut picker = Picker::default();
    picker.sync(&tracker);
    for _ in 0..14 {
        picker
            .command(&tracker, Command::Nav(Nav::Down))
            .expect("the cursor moves");
    }
    let shown = render_with(
        view,
        Link::Connected,
        Extras {
            picker: Some(&picker),
            ..Extras::default()
        },
    );
    assert!(
        shown.contains("▸[15] end the turn (e)"),
        "the 15th entry is under the cursor and shown:\n{shown}"
    );
}
