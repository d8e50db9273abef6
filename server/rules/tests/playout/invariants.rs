//! Each ruleset's own invariants and leak checks, on the views of every viewer ([seat 0,
//! seat 1, ..., spectator], logs included) at every step of a playout.

use std::collections::HashSet;

use battle_rules::ruleset::Ruleset;
use serde_json::Value;

/// Check the invariants of ruleset `id`; `previous` is the spectator's view one step earlier
/// (its log lines were checked then).
pub fn check(
    id: &str,
    ctx: &str,
    step: usize,
    views: &[Value],
    previous: Option<&Value>,
    game: &dyn Ruleset,
) {
    let checked = previous
        .and_then(|v| v["log"].as_array())
        .map_or(0, Vec::len);
    match id {
        "synergy" => synergy_invariants(ctx, step, views, checked, game),
        "blind" => blind_invariants(ctx, step, views, checked),
        "gambit" => gambit_invariants(ctx, step, views, checked),
        "heroes" => heroes_invariants(ctx, step, views),
        "roguelite" => roguelite_invariants(ctx, step, views, checked, game),
        "lore" => lore_invariants(ctx, step, views, checked),
        _ => {}
    }
}

/// Gambit: in PvP planning each party's program is seen by its own seat alone (not by the
/// opponent, not by spectators) and no edit is logged; otherwise every viewer sees the same
/// view. HP within 0 and max (0 for the knocked out), shields within the pool, three slots,
/// actions counting down within their skill's ticks.
fn gambit_invariants(ctx: &str, step: usize, views: &[Value], new_lines_from: usize) {
    let ctx = format!("{ctx} step {step}");
    let spectator = views.last().expect("a spectator view");
    let hidden = spectator["mode"] == "pvp" && spectator["phase"] == "planning";
    for (viewer, view) in views.iter().enumerate() {
        let seat = (viewer + 1 < views.len()).then_some(viewer);
        for (team, side) in view["teams"].as_array().expect("teams").iter().enumerate() {
            for unit in side["units"].as_array().expect("units") {
                let sees = !hidden || seat == Some(team);
                assert_eq!(
                    unit.get("rules").is_some(),
                    sees,
                    "{ctx}: viewer {viewer}, team {team}'s rules (hidden: {hidden})"
                );
                if let Some(rules) = unit.get("rules") {
                    assert_eq!(rules.as_array().map(Vec::len), Some(3), "{ctx}: {unit}");
                }
                let (hp, max) = (num(unit, "hp"), num(unit, "max_hp"));
                assert!(hp <= max, "{ctx}: {unit}");
                if unit["down"] == true {
                    assert_eq!(hp, 0, "{ctx}: knocked out with HP: {unit}");
                    assert!(unit["doing"].is_null(), "{ctx}: knocked out but acting");
                }
                assert!(num(unit, "shield") <= 30, "{ctx}: {unit}");
                if let Some(doing) = unit["doing"].as_object() {
                    let (left, ticks) = (doing["ticks_left"].as_u64(), doing["ticks"].as_u64());
                    assert!(left < ticks, "{ctx}: {unit}");
                }
            }
        }
        if !hidden {
            assert_eq!(view, spectator, "{ctx}: viewer {viewer} sees another view");
        }
    }
    if spectator["mode"] == "pvp" {
        let log = spectator["log"].as_array().expect("log");
        for line in log[new_lines_from.min(log.len())..]
            .iter()
            .filter_map(Value::as_str)
        {
            assert!(
                !line.contains("'s rule"),
                "{ctx}: a PvP edit was logged: {line}"
            );
        }
    }
}

/// Roguelite: the hand is seen by the player's seat alone (spectators see the same view
/// without it) and matches its count; the piles add up to the deck and are only counts; HP,
/// AP and Guard within bounds; energy within 3 for the player and the enemy's phase energy;
/// the phase queue alternates sides, ends with one phase of the slower side and starts with
/// the side whose phase it is; the seat is awaited exactly in its phase and between battles.
fn roguelite_invariants(
    ctx: &str,
    step: usize,
    views: &[Value],
    new_lines_from: usize,
    game: &dyn Ruleset,
) {
    let ctx = format!("{ctx} step {step}");
    let (own, spectator) = (&views[0], &views[1]);
    assert!(
        spectator["player"].get("hand").is_none(),
        "{ctx}: a spectator sees the hand"
    );
    let hand = own["player"]["hand"]
        .as_array()
        .expect("the player sees its hand");
    let player = &spectator["player"];
    assert_eq!(hand.len() as u64, num(player, "hand_count"), "{ctx}");
    let mut without_hand = own.clone();
    without_hand["player"]
        .as_object_mut()
        .expect("player")
        .remove("hand");
    let log_len = |v: &Value| v["log"].as_array().map_or(0, Vec::len);
    assert_eq!(log_len(own), log_len(spectator), "{ctx}: logs differ");
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(map) = v.as_object_mut() {
            map.remove("log");
        }
        v
    };
    assert_eq!(
        strip(&without_hand),
        strip(spectator),
        "{ctx}: the player's seat sees more than its hand"
    );
    let new_lines = &own["log"].as_array().expect("log")[new_lines_from.min(log_len(own))..];
    assert_eq!(
        new_lines,
        &spectator["log"].as_array().expect("log")[new_lines_from.min(log_len(spectator))..],
        "{ctx}: logs differ"
    );
    for view in views {
        assert!(no_pile_lists(view), "{ctx}: a view lists a pile's cards");
    }
    for side in [&spectator["player"], &spectator["enemy"]] {
        assert!(num(side, "hp") <= num(side, "max_hp"), "{ctx}: {side}");
        assert!(num(side, "ap") <= num(side, "max_ap"), "{ctx}: {side}");
        num(side, "guard");
        for status in side["statuses"].as_array().expect("statuses") {
            assert!(num(status, "stacks") >= 1, "{ctx}: {status}");
        }
    }
    let held = num(player, "hand_count") + num(player, "draw_count") + num(player, "discard_count");
    let stage = spectator["stage"].as_str().expect("stage");
    if stage != "reward" && stage != "over" {
        assert_eq!(
            held,
            num(player, "deck_size"),
            "{ctx}: cards lost or gained"
        );
    }
    assert!(num(player, "energy") <= num(player, "max_energy"), "{ctx}");
    let enemy = &spectator["enemy"];
    assert!(
        num(enemy, "energy") <= num(enemy, "energy_base") * 3 / 2,
        "{ctx}: {enemy}"
    );
    let queue = spectator["queue"].as_array().expect("queue");
    match stage {
        "reward" | "over" => assert!(queue.is_empty(), "{ctx}: a queue outside battle"),
        _ => {
            let current = if stage == "playerPhase" {
                "player"
            } else {
                "enemy"
            };
            assert_eq!(queue[0]["side"], current, "{ctx}: {queue:?}");
            assert!(queue.len() <= 2, "{ctx}: {queue:?}");
            if queue.len() == 2 {
                assert_ne!(queue[0]["side"], queue[1]["side"], "{ctx}");
                assert_eq!(num(&queue[1], "phases"), 1, "{ctx}: {queue:?}");
            }
            assert!(
                num(spectator, "turn") <= num(spectator, "turn_limit"),
                "{ctx}"
            );
        }
    }
    let awaited = stage == "playerPhase" || stage == "reward";
    assert_eq!(
        game.to_act(),
        if awaited { vec![0] } else { vec![] },
        "{ctx}"
    );
    assert_eq!(
        game.next_tick().is_some(),
        stage.starts_with("enemy"),
        "{ctx}"
    );
    assert_eq!(spectator["result"].is_null(), stage != "over", "{ctx}");
}

/// Heroes: a hand is seen by its own seat alone (its count by everyone), a deck only as a
/// count; health never above max; mana never above max.
fn heroes_invariants(ctx: &str, step: usize, views: &[Value]) {
    let ctx = format!("{ctx} step {step}");
    for (viewer, view) in views.iter().enumerate() {
        let seat = (viewer + 1 < views.len()).then_some(viewer);
        for (s, side) in view["sides"].as_array().expect("sides").iter().enumerate() {
            assert_eq!(
                side.get("hand").is_some(),
                seat == Some(s),
                "{ctx}: viewer {viewer}, hand {s}"
            );
            if let Some(hand) = side["hand"].as_array() {
                assert_eq!(hand.len() as u64, num(side, "hand_count"), "{ctx}");
            }
            assert!(side.get("deck").is_none(), "{ctx}: a deck is a count");
            assert!(
                side["health"].as_i64() <= side["max_health"].as_i64(),
                "{ctx}: {side}"
            );
            assert!(num(side, "mana") <= num(side, "max_mana"), "{ctx}: {side}");
        }
    }
}

/// Lore: a hand and an inkwell's cards are seen by their own seat alone (their counts by
/// everyone), a deck only as a count; apart from those, every seat sees the spectator's
/// view. Ink: ready at most the total, at most one card inked per own turn. Lore at the win line only once the game is over; no card in play with
/// damage at or above its willpower.
fn lore_invariants(ctx: &str, step: usize, views: &[Value], new_lines_from: usize) {
    let ctx = format!("{ctx} step {step}");
    let spectator = views.last().expect("a spectator view");
    for (viewer, view) in views.iter().enumerate() {
        let seat = (viewer + 1 < views.len()).then_some(viewer);
        let over = !view["result"].is_null();
        for (s, side) in view["sides"].as_array().expect("sides").iter().enumerate() {
            for private in ["hand", "inkwell"] {
                assert_eq!(
                    side.get(private).is_some(),
                    seat == Some(s),
                    "{ctx}: viewer {viewer}, {private} {s}"
                );
            }
            if let Some(hand) = side["hand"].as_array() {
                assert_eq!(hand.len() as u64, num(side, "hand_count"), "{ctx}");
            }
            if let Some(inkwell) = side["inkwell"].as_array() {
                assert_eq!(inkwell.len() as u64, num(side, "ink_total"), "{ctx}");
            }
            assert!(side.get("deck").is_none(), "{ctx}: a deck is a count");
            assert!(
                num(side, "ink_ready") <= num(side, "ink_total"),
                "{ctx}: {side}"
            );
            assert!(
                num(side, "ink_total") <= num(side, "turns"),
                "{ctx}: {side}"
            );
            assert!(
                num(side, "deck_count") + num(side, "hand_count") <= 60,
                "{ctx}: {side}"
            );
            assert!(
                num(side, "lore") < num(view, "win_lore") || over,
                "{ctx}: lore at the win line but the game goes on"
            );
            for card in side["play"].as_array().expect("play") {
                if let Some(willpower) = card["willpower"].as_u64() {
                    assert!(
                        num(card, "damage") < willpower,
                        "{ctx}: not banished: {card}"
                    );
                }
            }
        }
        if let Some(seat) = seat {
            assert!(
                same_but_private(view, spectator, seat, new_lines_from, &["hand", "inkwell"]),
                "{ctx}: seat {seat} sees more than its own hand and inkwell"
            );
        }
    }
}

/// `view` equals `spectator` except for the `private` members of side `seat`, which only
/// `view` has. Log lines before `new_from` were compared at an earlier step.
fn same_but_private(
    view: &Value,
    spectator: &Value,
    seat: usize,
    new_from: usize,
    private: &[&str],
) -> bool {
    let (Some(view), Some(spectator)) = (view.as_object(), spectator.as_object()) else {
        return false;
    };
    view.len() == spectator.len()
        && view.iter().all(|(key, value)| match key.as_str() {
            "log" => {
                let (Some(mine), Some(theirs)) = (value.as_array(), spectator[key].as_array())
                else {
                    return false;
                };
                let from = new_from.min(mine.len());
                mine.len() == theirs.len() && mine[from..] == theirs[from..]
            }
            "sides" => {
                let (Some(mine), Some(theirs)) = (value.as_array(), spectator[key].as_array())
                else {
                    return false;
                };
                mine.len() == theirs.len()
                    && mine.iter().zip(theirs).enumerate().all(|(i, (a, b))| {
                        let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
                            return false;
                        };
                        let extra = if i == seat { private.len() } else { 0 };
                        a.len() == b.len() + extra
                            && a.iter().all(|(k, v)| {
                                (i == seat && private.contains(&k.as_str())) || b.get(k) == Some(v)
                            })
                    })
            }
            _ => spectator.get(key) == Some(value),
        })
}

/// Blind Bids: a seat's hand and sealed bid are seen by that seat alone (until the reveal,
/// which makes bids public in `revealed` and the log); counts add up; points only grow.
fn blind_invariants(ctx: &str, step: usize, views: &[Value], new_lines_from: usize) {
    let ctx = format!("{ctx} step {step}");
    let spectator = views.last().expect("a spectator view");
    let seats = spectator["seats"].as_array().expect("seats");
    for (seat, view) in views[..views.len() - 1].iter().enumerate() {
        for (other, side) in view["seats"].as_array().expect("seats").iter().enumerate() {
            let own = other == seat;
            assert_eq!(
                side.get("hand").is_some(),
                own,
                "{ctx}: seat {seat} and hand {other}"
            );
            assert_eq!(
                side.get("sealed").is_some(),
                own,
                "{ctx}: seat {seat}, sealed {other}"
            );
            if own {
                let hand = side["hand"].as_array().expect("own hand");
                assert_eq!(hand.len() as u64, num(side, "cards_left"), "{ctx}");
                assert_eq!(side["sealed"].is_array(), side["has_bid"] == true, "{ctx}");
            }
        }
    }
    for side in seats {
        assert!(
            side.get("hand").is_none() && side.get("sealed").is_none(),
            "{ctx}: {side}"
        );
    }
    // Until the reveal, the log says who has bid, never what.
    let log = spectator["log"].as_array().expect("log");
    for line in log[new_lines_from.min(log.len())..]
        .iter()
        .filter_map(Value::as_str)
    {
        if !line.starts_with("Reveal:") {
            assert!(
                !line.contains(" bid "),
                "{ctx}: a bid named before the reveal: {line}"
            );
        }
    }
}

/// Every value under an "id" key anywhere in `value`.
fn ids<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if key == "id" {
                    out.push(v);
                }
                ids(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| ids(v, out)),
        _ => {}
    }
}

/// `view` equals `spectator` except for the `hand` list of side `seat`. Log lines before
/// `new_from` were compared at an earlier step (and the log only grows), so only the length and
/// the new lines are compared.
fn same_but_own_hand(view: &Value, spectator: &Value, seat: usize, new_from: usize) -> bool {
    let (Some(view), Some(spectator)) = (view.as_object(), spectator.as_object()) else {
        return false;
    };
    view.len() == spectator.len()
        && view.iter().all(|(key, value)| {
            if key == "log" {
                let (Some(mine), Some(theirs)) = (value.as_array(), spectator[key].as_array())
                else {
                    return false;
                };
                let from = new_from.min(mine.len());
                return mine.len() == theirs.len() && mine[from..] == theirs[from..];
            }
            if key != "sides" {
                return spectator.get(key) == Some(value);
            }
            let (Some(mine), Some(theirs)) = (value.as_array(), spectator[key].as_array()) else {
                return false;
            };
            mine.len() == theirs.len()
                && mine.iter().zip(theirs).enumerate().all(|(i, (a, b))| {
                    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
                        return false;
                    };
                    let extra = usize::from(i == seat);
                    a.len() == b.len() + extra
                        && a.iter()
                            .all(|(k, v)| (i == seat && k == "hand") || b.get(k) == Some(v))
                })
        })
}

/// No key naming a pile holds a list (only counts are shown).
fn no_pile_lists(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.iter().all(|(key, v)| {
            if key == "log" {
                return true; // a list of sentences, checked separately
            }
            let pile = matches!(
                key.as_str(),
                "draw" | "draw_pile" | "deck" | "discard" | "discard_pile" | "pile"
            );
            !(pile && v.is_array()) && no_pile_lists(v)
        }),
        Value::Array(items) => items.iter().all(no_pile_lists),
        _ => true,
    }
}

const CARD_NAMES: [&str; 10] = [
    "Ember Strike",
    "Thorn Jab",
    "Cog Shot",
    "Null Pierce",
    "Bark Guard",
    "Clockwork Guard",
    "Spark Cycle",
    "Ashen Focus",
    "Void Echo",
    "Ember Strike+",
];

fn num(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} must be a number in {v}"))
}

/// Synergy invariants and leak checks on the views [seat 0, seat 1, spectator].
/// Log lines before `new_lines_from` were checked at an earlier step.
fn synergy_invariants(
    ctx: &str,
    step: usize,
    views: &[Value],
    new_lines_from: usize,
    game: &dyn Ruleset,
) {
    let ctx = format!("{ctx} step {step}");
    let spectator = &views[2];
    for (i, side) in spectator["sides"]
        .as_array()
        .expect("sides")
        .iter()
        .enumerate()
    {
        assert!(
            num(side, "hp") <= num(side, "max_hp"),
            "{ctx}: side {i} HP above max"
        );
        assert!(num(side, "energy") <= 3, "{ctx}: side {i} energy above 3");
        assert!(num(side, "hand_count") <= 8, "{ctx}: side {i} hand above 8");
        let held = num(side, "hand_count") + num(side, "draw_count") + num(side, "discard_count");
        assert_eq!(
            held,
            num(side, "deck_size"),
            "{ctx}: side {i} lost or gained cards"
        );
        assert!(side.get("hand").is_none(), "{ctx}: spectator sees hand {i}");
    }
    let mut spectator_ids = Vec::new();
    ids(spectator, &mut spectator_ids);
    assert!(
        spectator_ids.is_empty(),
        "{ctx}: spectator sees card ids {spectator_ids:?}"
    );
    let mut all_hand_ids = HashSet::new();
    for seat in 0..2 {
        let view = &views[seat];
        let own = view["sides"][seat]["hand"]
            .as_array()
            .expect("own hand is shown");
        assert_eq!(
            own.len() as u64,
            num(&view["sides"][seat], "hand_count"),
            "{ctx}"
        );
        assert!(
            view["sides"][1 - seat].get("hand").is_none(),
            "{ctx}: seat {seat} sees the other hand"
        );
        let own_ids: Vec<&Value> = own.iter().map(|c| &c["id"]).collect();
        let mut seen = Vec::new();
        ids(view, &mut seen);
        for id in seen {
            assert!(
                own_ids.contains(&id),
                "{ctx}: seat {seat}'s view shows foreign card id {id}"
            );
            assert!(
                all_hand_ids.insert(id.as_u64()),
                "{ctx}: card id {id} in two hands"
            );
        }
        assert!(
            same_but_own_hand(view, spectator, seat, new_lines_from),
            "{ctx}: seat {seat} sees more than its own hand beyond the spectator view"
        );
    }
    for view in views {
        assert!(no_pile_lists(view), "{ctx}: a view lists a pile's cards");
    }
    let log = spectator["log"].as_array().expect("log");
    for line in log[new_lines_from.min(log.len())..]
        .iter()
        .filter_map(Value::as_str)
    {
        if line.contains(" draws ") && !line.contains(" plays ") || line.contains(" shuffles ") {
            assert!(
                !CARD_NAMES.iter().any(|name| line.contains(name)),
                "{ctx}: log names a hidden card: {line}"
            );
        }
    }
    let active = spectator["active"].as_u64().map(|a| a as usize);
    assert_eq!(
        game.to_act(),
        active.into_iter().collect::<Vec<_>>(),
        "{ctx}: to_act"
    );
    if spectator["state"] == "gameOver" {
        assert!(
            spectator["result"].is_object() && game.outcome().is_some(),
            "{ctx}"
        );
    } else {
        assert!(
            spectator["result"].is_null() && game.outcome().is_none(),
            "{ctx}"
        );
    }
}
