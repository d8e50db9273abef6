//! Tests of the lore panel's words: entries, values, cards in play and in hand, the bag
//! and the decision as a player reads them.

use super::*;
use serde_json::json;

fn game() -> Value {
    json!({
        "phase": "main", "active": 0,
        "bag": [
            {"id": 130, "card": "wayfinders_compass", "name": "Wayfinder's Compass",
             "owner": 1, "source": 105, "text": "At the start of your turn, gain 1 lore."},
            {"id": 131, "card": "wayfinders_compass", "name": "Wayfinder's Compass",
             "owner": 1, "source": 107, "text": "At the start of your turn, gain 1 lore."},
            {"id": 132, "card": "copper_squire", "name": "Copper Squire", "owner": 0,
             "source": 16, "text": "When this character is banished, draw a card."}
        ],
        "sides": [
            {"hand": [{"id": 24, "name": "Moonlit Trickster", "cost": 3, "inkable": true,
               "kind": "character", "strength": 3, "willpower": 2, "lore": 2,
               "text": "When you play this character, exert chosen opposing character."}],
             "play": [
                {"id": 14, "name": "Copper Squire", "kind": "character", "strength": 2,
                 "willpower": 3, "lore": 1, "damage": 2, "exerted": true, "drying": false},
                {"id": 15, "name": "Copper Squire", "kind": "character", "strength": 2,
                 "willpower": 3, "lore": 1, "damage": 0, "exerted": false, "drying": true}]},
            {"play": [
                {"id": 78, "name": "Stonebridge Warden", "kind": "character", "strength": 2,
                 "willpower": 5, "lore": 1, "damage": 3, "exerted": true, "drying": false},
                {"id": 120, "name": "Sunken Library", "kind": "location", "strength": null,
                 "willpower": 8, "lore": 2, "damage": 0, "exerted": false, "drying": false}]}
        ]
    })
}

/// [`game`] in its envelope (no `seats`: the players are "Player 1" and "Player 2").
fn view() -> Value {
    json!({"game": game()})
}

#[test]
fn entries_name_the_cards_they_refer_to() {
    let v = view();
    let line = |e: Value| action_line(&v, Some(0), &e);
    assert_eq!(
        line(json!({"kind": "ink", "card": 24})),
        "ink Moonlit Trickster"
    );
    assert_eq!(
        line(json!({"kind": "play", "card": 24, "target": null})),
        "play Moonlit Trickster (3 ink)"
    );
    assert_eq!(
        line(json!({"kind": "quest", "character": 15})),
        "quest with Copper Squire #2 (+1 lore)"
    );
    assert_eq!(
        line(json!({"kind": "challenge", "challenger": 14, "target": 78})),
        "challenge Stonebridge Warden with Copper Squire #1"
    );
    assert_eq!(
        line(json!({"kind": "challenge", "challenger": 14,
            "target": {"$choose": {"enum": [78, 120]}}})),
        "challenge with Copper Squire #1 (2 strength)"
    );
    assert_eq!(
        line(json!({"kind": "resolve", "trigger": 132, "target": null})),
        "resolve: Copper Squire's trigger"
    );
    assert_eq!(
        line(json!({"kind": "resolve", "trigger": 131, "target": null})),
        "resolve: Wayfinder's Compass's trigger (bag 2)"
    );
    assert_eq!(
        line(json!({"kind": "play", "card": 24, "target": {"$choose": {"enum": [78, 14]}}})),
        "play Moonlit Trickster (3 ink) on a character"
    );
    assert_eq!(
        line(json!({"kind": "play", "card": 24, "target": {"$choose": {"enum": [78]}}})),
        "play Moonlit Trickster (3 ink) on Stonebridge Warden (theirs, 2/5, 3 damage)",
        "a target that cannot be another is named"
    );
    assert_eq!(
        line(json!({"kind": "resolve", "trigger": 130, "target": 78})),
        "resolve: Wayfinder's Compass's trigger (bag 1) on Stonebridge Warden (theirs, \
         2/5, 3 damage)"
    );
    assert_eq!(line(json!({"kind": "pass_turn"})), "pass the turn");
    assert_eq!(
        line(json!({"kind": "mulligan", "cards": []})),
        "keep the opening hand"
    );
    assert_eq!(
        line(json!({"kind": "sing"})),
        "sing",
        "unknown kinds as described"
    );
}

#[test]
fn the_decision_says_who_does_what() {
    let view = |phase: &str, bag: Value, to_act: Value| json!({"to_act": to_act, "game": {"phase": phase, "bag": bag}});
    let trigger = json!([{"id": 1}]);
    assert_eq!(
        decision(&view("set", trigger.clone(), json!([1]))),
        "Player 2 resolves a trigger from the bag"
    );
    assert_eq!(
        decision(&view("end", trigger, json!([0]))),
        "Player 1 resolves a trigger from the bag"
    );
    assert_eq!(
        decision(&view("mulligan", json!([]), json!([1]))),
        "Player 2 chooses cards to put back (mulligan)"
    );
    assert_eq!(
        decision(&view("main", json!([]), json!([0]))),
        "Player 1 plays the main phase"
    );
    assert_eq!(
        decision(&view("over", json!([]), json!([]))),
        "the game is over"
    );
}

#[test]
fn values_and_cards_say_whose_and_their_state() {
    let g = game();
    let v = view();
    assert_eq!(
        value_name(&v, Some(0), &json!(78)),
        "Stonebridge Warden (theirs, 2/5, 3 damage)"
    );
    assert_eq!(
        value_name(&v, Some(1), &json!(120)),
        "Sunken Library (yours, location, willpower 8)"
    );
    assert_eq!(value_name(&v, Some(0), &json!(24)), "Moonlit Trickster");
    assert_eq!(value_name(&v, Some(0), &Value::Null), "nothing");
    assert_eq!(
        value_name(&v, None, &json!(78)),
        "Stonebridge Warden (Player 2, 2/5, 3 damage)"
    );
    let squire = &g["sides"][0]["play"][0];
    assert_eq!(
        in_play_line(&g, squire),
        "Copper Squire #1 2/3 ◆1 · 2 damage · exerted"
    );
    assert_eq!(
        in_play_line(&g, &g["sides"][1]["play"][1]),
        "Sunken Library · location -/8 ◆2 a turn"
    );
    assert_eq!(
        bag_line(&v, None, &g["bag"][2]),
        "Player 1's Copper Squire (no longer in play): When this character is banished, \
         draw a card."
    );
    assert_eq!(
        bag_line(&v, Some(0), &g["bag"][2]),
        "Your Copper Squire (no longer in play): When this character is banished, draw a \
         card."
    );
    let (head, rest) = hand_card_parts(&g["sides"][0]["hand"][0]);
    assert_eq!(head, "Moonlit Trickster · 3 ink");
    assert_eq!(
        rest,
        "inkable · character 3/2 ◆2: When you play this character, exert chosen \
         opposing character."
    );
}
