//! Lore's screens: a player's main phase (own hand and inkwell, numbered legal actions), the
//! same game as the opponent sees it, a spectator, a turn with triggers in the bag, an open
//! action being filled, the mulligan and a finished game. The views are trimmed from real
//! server views (the Emberfall and Tidewater ready decks, turn 11, seat 0's Main phase).

use battle_term::Link;
use serde_json::{json, Value};

use battle_client::ViewTracker;
use battle_term::keys::{Command, Nav};
use battle_term::picker::Picker;

use super::{assert_snapshot, render, render_with, Extras};

/// The cards in seat 0's hand: they must never show to another viewer.
const HAND_NAMES: [&str; 4] = [
    "Flashfire",
    "Ember Duelist",
    "Sudden Gust",
    "Cinderwing Drake",
];

/// Cards in seat 0's inkwell that no public line names (Meadow Scout is in it too, but the
/// log told everyone as it went in this turn).
const INKWELL_NAMES: [&str; 4] = [
    "Storm Herald",
    "Ironbark Sentinel",
    "Story Lamp",
    "Moonlit Trickster",
];

/// Seat 1's hand and the inkwell cards no public line names, for its own screen only.
const THEIR_HIDDEN: [&str; 6] = [
    "Skyborne Navigator",
    "Midnight Study",
    "Stand Fast",
    "Tidewater Messenger",
    "Tower Sage",
    "Welcome Banner",
];

/// The cards the fixtures use, as the server's card set has them: name, cost, inkable,
/// kind, strength / willpower / lore (null where the kind has none), text.
const CARDS: &str = r#"[
["Flashfire", 2, true, "action", [null, null, null], "Deal 2 damage to chosen character."],
["Ember Duelist", 3, true, "character", [3, 3, 2], "When you play this character, chosen character of yours gets +2 strength this turn."],
["Sudden Gust", 3, false, "action", [null, null, null], "Exert chosen opposing character. Draw a card."],
["Cinderwing Drake", 7, true, "character", [6, 7, 2], "When you play this character, deal 3 damage to chosen opposing character."],
["Skyborne Navigator", 5, false, "character", [3, 5, 3], ""],
["Midnight Study", 3, true, "action", [null, null, null], "Draw 2 cards."],
["Stand Fast", 2, true, "action", [null, null, null], "Chosen character of yours gets +3 willpower until the start of your next turn."],
["Copper Squire", 2, true, "character", [2, 3, 1], "When this character is banished, draw a card."],
["Lighthouse Point", 2, true, "location", [null, 6, 1], "At the start of your turn, gain 1 lore from this location."],
["Hedge Witch", 2, false, "character", [2, 2, 1], "When you play this character, deal 1 damage to chosen character."],
["Lantern Sprite", 1, true, "character", [1, 2, 1], ""],
["Stonebridge Warden", 3, false, "character", [2, 5, 1], ""],
["Wayfinder's Compass", 4, false, "item", [null, null, null], "At the start of your turn, gain 1 lore."],
["Sunken Library", 5, false, "location", [null, 8, 2], "At the start of your turn, gain 2 lore from this location."],
["Graveborn Piper", 4, true, "character", [3, 4, 1], "Whenever one of your other characters is banished, gain 1 lore."],
["Quill Archivist", 3, true, "character", [2, 3, 2], "Whenever this character quests, draw a card."]
]"#;

/// The card named `name` in a hand, with instance id `id`, as the view has it.
fn card(id: u64, name: &str) -> Value {
    let cards: Vec<Value> = serde_json::from_str(CARDS).expect("the card table is JSON");
    let c = cards
        .iter()
        .find(|c| c[0] == name)
        .unwrap_or_else(|| panic!("{name} is not in the table"));
    let n = &c[4];
    json!({"card": name.to_lowercase().replace([' ', '\''], "_"), "cost": c[1], "id": id,
           "inkable": c[2], "kind": c[3], "lore": n[2], "name": name, "strength": n[0],
           "text": c[5], "willpower": n[1]})
}

/// A card in a discard or an inkwell.
fn pile(id: u64, name: &str) -> Value {
    json!({"card": name.to_lowercase().replace([' ', '\''], "_"), "id": id, "name": name})
}

/// A card in play with its `damage`, `exerted` and `drying` marks.
fn in_play(id: u64, name: &str, (damage, exerted, drying): (u64, bool, bool)) -> Value {
    let mut c = card(id, name);
    let fields = c.as_object_mut().expect("an object");
    fields.remove("cost");
    fields.remove("inkable");
    c["damage"] = json!(damage);
    c["exerted"] = json!(exerted);
    c["drying"] = json!(drying);
    c
}

/// No damage, ready, dry.
const FRESH: (u64, bool, bool) = (0, false, false);

const SQUIRE: &str = "When this character is banished, draw a card.";
const PIPER: &str = "Whenever one of your other characters is banished, gain 1 lore.";

/// Turn 11, Player 1's (seat 0's) Main phase after inking Meadow Scout and playing Lantern
/// Sprite, as `seat` (or a spectator) sees it.
pub(super) fn main_phase(seat: Option<u64>) -> Value {
    let cards = |ids: &[u64], names: &[&str]| -> Value {
        ids.iter().zip(names).map(|(&id, n)| card(id, n)).collect()
    };
    let piles = |ids: &[u64], names: &[&str]| -> Value {
        ids.iter().zip(names).map(|(&id, n)| pile(id, n)).collect()
    };
    let hand0 = cards(&[40, 19, 36, 39], &HAND_NAMES);
    let inkwell0 = piles(
        &[32, 33, 54, 23, 3],
        &[&INKWELL_NAMES[..], &["Meadow Scout"]].concat(),
    );
    let hand1 = cards(&[95, 100, 102], &THEIR_HIDDEN[..3]);
    let inkwell1 = piles(
        &[61, 72, 110, 66, 91, 63],
        &[
            &THEIR_HIDDEN[3..],
            &["Lantern Sprite", "Mending Salve", "Quill Archivist"],
        ]
        .concat(),
    );
    let mut side0 = json!({
        "deck_count": 44,
        "discard": [pile(16, "Copper Squire"), pile(7, "Lantern Sprite"),
                    pile(48, "Rallying Cry"), pile(4, "Meadow Scout")],
        "hand_count": 4, "inked": true, "ink_ready": 4, "ink_total": 5, "lore": 8,
        "mulliganed": true,
        "play": [in_play(14, "Copper Squire", (2, false, false)),
                 in_play(57, "Lighthouse Point", FRESH), in_play(12, "Hedge Witch", FRESH),
                 in_play(8, "Lantern Sprite", (0, false, true))],
        "turns": 6
    });
    let mut side1 = json!({
        "deck_count": 44,
        "discard": [pile(64, "Lantern Sprite"), pile(70, "Copper Squire"), pile(90, "Mending Salve")],
        "hand_count": 3, "inked": true, "ink_ready": 1, "ink_total": 6, "lore": 11,
        "mulliganed": true,
        "play": [in_play(78, "Stonebridge Warden", (3, true, false)),
                 in_play(107, "Wayfinder's Compass", FRESH),
                 in_play(120, "Sunken Library", FRESH), in_play(88, "Graveborn Piper", FRESH),
                 in_play(85, "Quill Archivist", (0, false, true))],
        "turns": 5
    });
    if seat == Some(0) {
        side0["hand"] = hand0;
        side0["inkwell"] = inkwell0;
    }
    if seat == Some(1) {
        side1["hand"] = hand1;
        side1["inkwell"] = inkwell1;
    }
    let (legal, prompt) = if seat == Some(0) {
        (
            json!([
                {"card": 40, "kind": "play", "target": {"$choose": {"enum": [14, 78, 12, 88, 85, 8]}}},
                {"card": 19, "kind": "play", "target": null},
                {"card": 36, "kind": "play", "target": {"$choose": {"enum": [78, 88, 85]}}},
                {"character": 14, "kind": "quest"},
                {"challenger": 14, "kind": "challenge", "target": {"$choose": {"enum": [78, 120]}}},
                {"character": 12, "kind": "quest"},
                {"challenger": 12, "kind": "challenge", "target": {"$choose": {"enum": [78, 120]}}},
                {"kind": "pass_turn"}
            ]),
            json!({"decision": "turn", "text": "Your turn: choose one of your legal actions."}),
        )
    } else {
        (json!([]), Value::Null)
    };
    json!({
        "battle_id": "kg4fme4qk7", "legal": legal, "outcome": null, "prompt": prompt,
        "ruleset": "lore", "seat": seat, "seats": ["connected", "connected"],
        "status": "playing", "to_act": [0],
        "game": {
            "active": 0, "bag": [], "chooser": null, "first": 0, "phase": "main",
            "result": null, "sides": [side0, side1], "turn": 11, "win_lore": 20,
            "log": [
                "Turn 10: Player 2's turn.",
                "Player 2 gains 2 lore from locations (9 lore).",
                "Player 2 resolves Wayfinder's Compass: At the start of your turn, gain 1 lore.",
                "Player 2 gains 1 lore (10 lore).",
                "Player 2 reveals Lantern Sprite and puts it into the inkwell (6 ink).",
                "Player 2 plays Quill Archivist (3 ink).",
                "Player 2's Stonebridge Warden quests for 1 lore (11 of 20).",
                "Player 2 passes the turn.",
                "Turn 11: Player 1's turn.",
                "Player 1 gains 1 lore from locations (8 lore).",
                "Player 1 reveals Meadow Scout and puts it into the inkwell (5 ink).",
                "Player 1 plays Lantern Sprite (1 ink).",
            ]
        }
    })
}

/// Hidden names that show on `shown`.
fn leaked<'a>(shown: &str, names: impl IntoIterator<Item = &'a &'a str>) -> Vec<&'a str> {
    names
        .into_iter()
        .copied()
        .filter(|n| shown.contains(n))
        .collect()
}

#[test]
fn main_phase_shows_the_hand_the_inkwell_and_named_actions() {
    let shown = render(main_phase(Some(0)), Link::Connected, "", false);
    for needle in [
        "Turn 11 · Player 1's turn · main phase · Player 1 plays the main phase  ← your move",
        "▶ Player 1 (you) · went first",
        "Lore 8/20 ████░░░░░░ · Ink 4/5 ready",
        "Hand 4 · Deck 44 · Discard 4 · inked this turn",
        "Inkwell: Storm Herald · Ironbark Sentinel ·",
        "Story Lamp · Moonlit Trickster · Meadow Scout",
        "In play (strength/willpower ◆lore):",
        "Copper Squire 2/3 ◆1 · 2 damage",
        "Lighthouse Point · location -/6 ◆1 a turn",
        "Lantern Sprite 1/2 ◆1 · drying",
        "Lore 11/20 █████▌░░░░ · Ink 1/6 ready",
        "Stonebridge Warden 2/5 ◆1 · 3 damage · exerted",
        "Wayfinder's Compass · item",
        "Quill Archivist 2/3 ◆2 · drying",
        "your hand · Player 2 holds 3",
        "1. Flashfire · 2 ink, inkable · action: Deal 2",
        "3. Sudden Gust · 3 ink, not inkable · action:",
        "Your turn: choose one of your legal actions.",
        "▸[1] play Flashfire (2 ink) on a character …",
        "[2] play Ember Duelist (3 ink)",
        "[4] quest with Copper Squire (+1 lore)",
        "[5] challenge with Copper Squire (2 strength) …",
        "[8] pass the turn",
        "Player 1 plays Lantern Sprite (1 ink).",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_eq!(leaked(&shown, &THEIR_HIDDEN), Vec::<&str>::new(), "{shown}");
    assert!(
        !shown.contains("bag ·"),
        "no bag box while it is empty:\n{shown}"
    );
    assert_snapshot("lore_main_phase", &shown);
}

#[test]
fn the_opponent_sees_counts_not_cards() {
    let shown = render(main_phase(Some(1)), Link::Connected, "", false);
    let hidden = HAND_NAMES.iter().chain(&INKWELL_NAMES);
    assert_eq!(leaked(&shown, hidden), Vec::<&str>::new(), "{shown}");
    for needle in [
        "Turn 11 · Player 1's turn · main phase · Player 1 plays the main phase",
        "Player 2 (you)",
        "Lore 8/20 ████░░░░░░ · Ink 4/5 ready",
        "Inkwell: Tidewater Messenger · Tower Sage ·",
        "Welcome Banner · Lantern Sprite · Mending Salve",
        "your hand · Player 1 holds 4",
        "1. Skyborne Navigator · 5 ink, not inkable ·",
        "character 3/5 ◆3",
        "Waiting: Player 1 plays the main phase.",
        "Nothing for you to do now.",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert!(!shown.contains("your move"), "{shown}");
    assert_snapshot("lore_opponent", &shown);
}

#[test]
fn a_spectator_sees_the_public_game() {
    let shown = render(main_phase(None), Link::Connected, "", false);
    let hidden = HAND_NAMES.iter().chain(&INKWELL_NAMES).chain(&THEIR_HIDDEN);
    assert_eq!(leaked(&shown, hidden), Vec::<&str>::new(), "{shown}");
    for needle in [
        "Ink 4/5 ready",
        "Ink 1/6 ready",
        "Hidden: Player 1 holds 4, Player 2 holds 3.",
        "Spectating: both sides' public state",
        "Stonebridge Warden 2/5 ◆1 · 3 damage · exerted",
        "spectating (read-only)",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert!(!shown.contains("(you)"), "{shown}");
    assert!(
        !shown.contains("Inkwell:"),
        "no inkwell card is named:\n{shown}"
    );
    assert_snapshot("lore_spectator", &shown);
}

/// Player 1's Copper Squire has challenged Stonebridge Warden and both were banished: the
/// Squire's trigger and Player 2's Graveborn Piper's wait in the bag, as `seat` sees it.
/// With `resolved`, Player 1 has resolved its own and Player 2 chooses.
fn bag(seat: u64, resolved: bool) -> Value {
    let mut view = main_phase(Some(seat));
    let squire = json!({"card": "copper_squire", "id": 141, "name": "Copper Squire",
                        "owner": 0, "source": 14, "text": SQUIRE});
    let piper = json!({"card": "graveborn_piper", "id": 142, "name": "Graveborn Piper",
                       "owner": 1, "source": 88, "text": PIPER});
    let chooser = u64::from(resolved);
    let game = &mut view["game"];
    game["bag"] = if resolved {
        json!([piper])
    } else {
        json!([squire, piper])
    };
    game["chooser"] = json!(chooser);
    let play0 = game["sides"][0]["play"].as_array_mut().expect("a list");
    play0.remove(0);
    let play1 = game["sides"][1]["play"].as_array_mut().expect("a list");
    play1.remove(0);
    game["sides"][0]["discard"]
        .as_array_mut()
        .expect("a list")
        .push(pile(14, "Copper Squire"));
    game["sides"][1]["discard"]
        .as_array_mut()
        .expect("a list")
        .push(pile(78, "Stonebridge Warden"));
    let log = game["log"].as_array_mut().expect("a list");
    log.extend([
        json!("Player 1's Copper Squire challenges Stonebridge Warden: 2 damage to it, 2 back."),
        json!("Player 1's Copper Squire is banished."),
        json!("Player 2's Stonebridge Warden is banished."),
    ]);
    if resolved {
        log.extend([
            json!(format!("Player 1 resolves Copper Squire: {SQUIRE}")),
            json!("Player 1 draws 1 card."),
        ]);
    }
    view["to_act"] = json!([chooser]);
    if seat == chooser {
        let trigger = if resolved { 142 } else { 141 };
        view["legal"] = json!([{"kind": "resolve", "target": null, "trigger": trigger}]);
        view["prompt"] = json!({"decision": "bag",
            "text": "Choose which of your triggered abilities in the bag resolves next."});
    } else {
        view["legal"] = json!([]);
        view["prompt"] = Value::Null;
    }
    view
}

#[test]
fn triggers_in_the_bag_are_listed_in_order_with_whose_they_are() {
    let shown = render(bag(0, false), Link::Connected, "", false);
    for needle in [
        "main phase · Player 1 resolves a trigger from the bag  ← your move",
        "bag · Player 1 chooses next",
        "Player 1's first (any order), then Player 2's.",
        "1. Your Copper Squire (no longer in play):",
        "this character is banished, draw a card.",
        "2. Player 2's Graveborn Piper: Whenever one of",
        "Choose which of your triggered abilities in the",
        "▸[1] resolve: Copper Squire's trigger",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_snapshot("lore_bag", &shown);

    let theirs = render(bag(1, true), Link::Connected, "", false);
    for needle in [
        "Turn 11 · Player 1's turn · main phase · Player 2 resolves a trigger from the bag",
        "← your move",
        "bag · Player 2 chooses next",
        "▸[1] resolve: Graveborn Piper's trigger",
    ] {
        assert!(theirs.contains(needle), "{needle:?} missing:\n{theirs}");
    }
    assert!(!theirs.contains("Copper Squire (no longer"), "{theirs}");
    let waiting = render(bag(0, true), Link::Connected, "", false);
    for needle in [
        "Turn 11 · Player 1's turn (yours) · main phase · Player 2 resolves a trigger from the bag",
        "Waiting: Player 2 resolves a trigger from the",
        "Nothing for you to do now.",
    ] {
        assert!(waiting.contains(needle), "{needle:?} missing:\n{waiting}");
    }
    assert!(!waiting.contains("your move"), "{waiting}");
}

#[test]
fn an_open_action_names_its_choices_by_card() {
    let view = main_phase(Some(0));
    let tracker = ViewTracker::with_view("kg4fme4qk7", 7, view.clone());
    let mut picker = Picker::default();
    picker.sync(&tracker);
    for command in [
        Command::Nav(Nav::Down),
        Command::Nav(Nav::Down),
        Command::Nav(Nav::Down),
        Command::Nav(Nav::Down),
        Command::Confirm,
        Command::Nav(Nav::Right),
    ] {
        picker.command(&tracker, command).expect("a picker command");
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
        "Choosing: challenge with Copper Squire (2",
        "▸ what to challenge: 1.Stonebridge Warden",
        "(theirs, 2/5, 3 damage) [2.Sunken Library",
        "(theirs, location, willpower 8)]",
        "←→/1-9 value · Enter send · Esc back",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_snapshot("lore_challenge_form", &shown);
}

#[test]
fn the_mulligan_says_who_alters_their_hand() {
    let mut view = main_phase(Some(0));
    view["legal"] = json!([{"cards": {"$choose": {"items": {"enum": [40, 19, 36, 39]},
        "maxItems": 4, "minItems": 0, "type": "array", "uniqueItems": true}},
        "kind": "mulligan"}]);
    view["prompt"] = json!({"decision": "mulligan", "max": 7, "min": 0,
        "text": "Alter your hand: put any number of cards on the bottom of your deck; \
                 you draw back to 7 and shuffle."});
    let game = &mut view["game"];
    game["phase"] = json!("mulligan");
    game["turn"] = json!(0);
    game["sides"][0]["mulliganed"] = json!(false);
    game["sides"][1]["mulliganed"] = json!(false);
    let shown = render(view, Link::Connected, "", false);
    for needle in [
        "Setup · Player 1 goes first · Player 1 chooses cards to put back (mulligan)  ← your move",
        "· altering hand",
        "[1] mulligan: choose the cards to put back …",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
}

#[test]
fn a_finished_game_shows_the_result() {
    let mut view = main_phase(Some(0));
    let summary = "Player 1 wins with 20 lore.";
    view["status"] = json!("finished");
    view["to_act"] = json!([]);
    view["legal"] = json!([]);
    view["prompt"] = Value::Null;
    view["outcome"] = json!({"summary": summary, "winners": [0], "reason": "score"});
    let game = &mut view["game"];
    game["phase"] = json!("over");
    game["turn"] = json!(19);
    game["result"] = json!({"summary": summary, "winners": [0]});
    game["sides"][0]["lore"] = json!(20);
    game["sides"][1]["lore"] = json!(17);
    game["log"] = json!([
        "Player 1's Hedge Witch quests for 1 lore (19 of 20).",
        "Player 1 passes the turn.",
        "Turn 18: Player 2's turn.",
        "Player 2 gains 2 lore from locations (16 lore).",
        "Player 2 resolves Wayfinder's Compass: At the start of your turn, gain 1 lore.",
        "Player 2 gains 1 lore (17 lore).",
        "Player 2 passes the turn.",
        "Turn 19: Player 1's turn.",
        "Player 1 gains 1 lore from locations (20 lore).",
        summary,
    ]);
    let shown = render(view, Link::Connected, "", false);
    for needle in [
        "Turn 19 · game over",
        "battle over",
        "You won with 20 lore.",
        summary,
        "Lore 20/20 ██████████",
        "battle over · ↑↓ log",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert!(!shown.contains("your move"), "{shown}");
    assert!(
        !shown.contains("▶"),
        "nobody's turn once it is over:\n{shown}"
    );
    assert_snapshot("lore_over", &shown);
}
