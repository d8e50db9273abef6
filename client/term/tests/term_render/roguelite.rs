//! Roguelite's screens: the player's phase (own hand, phase queue, statuses, the enemy's
//! intent, the legal actions in the picker), the same moment as a spectator sees it, the
//! enemy's phase running by itself (and one of its actions streamed in as a patch), the
//! reward between battles, and a won and a lost run. The views are trimmed from real server
//! views (seed 3's fifth battle and its first reward, seed 2's fifth battle, the ends of
//! seeds 3 and 0).

use battle_client::{ServerMsg, ViewTracker};
use battle_term::keys::{Command, Nav};
use battle_term::picker::Picker;
use battle_term::Link;
use serde_json::{json, Value};

use super::{assert_snapshot, render, render_with, Extras};

/// The hand's cards the log never names: they must never show to a spectator (Slash is in
/// the hand too, but the log has told everyone it was played).
const HIDDEN_NAMES: [&str; 2] = ["War Chant", "Parry"];

/// What those cards do, which a spectator must not see either.
const HIDDEN_TEXTS: [&str; 2] = ["Attack Up", "Gain 5 Guard"];

fn card(id: u64, card: &str, name: &str, cost: u64, text: &str) -> Value {
    json!({"id": id, "card": card, "name": name, "cost": cost, "text": text})
}

fn status(status: &str, stacks: u64, turns: u64) -> Value {
    json!({"status": status, "stacks": stacks, "turns": turns})
}

/// The envelope around `game` for `seat` (or a spectator).
fn envelope(seat: Option<u64>, game: Value, legal: Value, prompt: Value) -> Value {
    let to_act = if game["stage"] == "playerPhase" || game["stage"] == "reward" {
        json!([0])
    } else {
        json!([])
    };
    json!({
        "battle_id": "r0gue1ite", "ruleset": "roguelite", "status": "playing",
        "seat": seat, "to_act": to_act, "legal": legal, "prompt": prompt, "outcome": null,
        "seats": ["connected"], "game": game
    })
}

/// Seed 3, battle 5 against the Tide Golem: the player's second phase in a row, with
/// initiative, Momentum and 0 AP of 25 (Armor Break); the Golem Poisoned.
pub(super) fn player_phase(seat: Option<u64>) -> Value {
    let mut player = json!({
        "ap": 0, "armor": "Riveted Hauberk", "deck_size": 13, "def_pct": 10,
        "discard_count": 5, "draw_count": 3, "energy": 3, "guard": 0, "hand_count": 5,
        "hp": 78, "initiative": true, "max_ap": 25, "max_energy": 3, "max_hp": 80,
        "speed": 52, "statuses": [status("momentum", 1, 0)]
    });
    let mine = seat == Some(0);
    if mine {
        player["hand"] = json!([
            card(
                12,
                "war_chant",
                HIDDEN_NAMES[0],
                1,
                "Gain 1 Attack Up for 3 turns."
            ),
            card(8, "parry", HIDDEN_NAMES[1], 1, "Gain 5 Guard."),
            card(0, "slash", "Slash", 1, "Deal 7."),
            card(4, "slash", "Slash", 1, "Deal 7."),
            card(5, "parry", HIDDEN_NAMES[1], 1, "Gain 5 Guard."),
        ]);
    }
    let game = json!({
        "battle": 5, "battles": 9, "depth": 2, "depth_name": "the Drowned Halls", "depths": 3,
        "enemy": {
            "add_energy": 100, "ap": 9, "atk": 9, "def_pct": 20, "energy": 0, "energy_base": 1,
            "guard": 0, "hp": 64, "id": "tide_golem", "intent": ["Undertow"], "max_ap": 20,
            "max_hp": 64, "name": "Tide Golem", "speed": 30,
            "statuses": [status("poison", 3, 3)]
        },
        "offer": [], "player": player,
        "queue": [{"phases": 1, "side": "player"}, {"phases": 1, "side": "enemy"}],
        "result": null, "round": 1, "stage": "playerPhase", "tick_ms": 400, "turn": 2,
        "turn_limit": 30,
        "log": [
            "Battle 5 of 9, depth 2 (the Drowned Halls): Tide Golem appears (HP 64, AP 20, DEF 20%, speed 30, energy 1).",
            "Round 1: speed 52 against 30; you take 2 phases in a row, then the enemy.",
            "Your phase 1 begins with initiative (+10% attack damage).",
            "You play Venom Flick: 1 damage to Tide Golem: 1 to AP; 3 Poison on Tide Golem for 3 turns.",
            "You play Slash: 5 damage to Tide Golem: 5 to AP.",
            "You play Slash: 5 damage to Tide Golem: 5 to AP.",
            "You end your turn.",
            "Your phase 2 begins with initiative (+10% attack damage)."
        ]
    });
    let (legal, prompt) = if mine {
        (
            json!([{"kind": "play", "card": 12}, {"kind": "play", "card": 8},
                   {"kind": "play", "card": 0}, {"kind": "play", "card": 4},
                   {"kind": "play", "card": 5}, {"kind": "end_turn"}]),
            json!({"decision": "turn", "text": "Your phase 2 of at most 30 (1 in a row): play cards with your energy, then end your turn."}),
        )
    } else {
        (json!([]), Value::Null)
    };
    envelope(seat, game, legal, prompt)
}

#[test]
fn the_players_phase_shows_hand_queue_statuses_and_intent() {
    let shown = render(player_phase(Some(0)), Link::Connected, "", false);
    for needle in [
        "Depth 2/3, the Drowned Halls · Battle 5/9 · Your phase 2 (limit 30) · 1 phase in a row",
        "← your move",
        "Phase queue, round 1 (speed 52 against 30): ▶ you ×1 → Tide Golem ×1 → a new round",
        "▶ You ─",
        "78/80",
        "0/25 Armor Break",
        "Energy 3/3 · Guard 0 · Speed 52 (initiative)",
        "Armor: Riveted Hauberk · DEF 10%",
        "Statuses: Momentum ×1",
        "Tide Golem · enemy",
        "9/20",
        "Guard 0 · ATK 9 · Speed 30 · DEF 20%",
        "Statuses: Poison ×3 (3 turns)",
        "Next phase: Undertow",
        "your hand · energy 3/3",
        "War Chant · 1 energy: gain 1 Attack Up for 3",
        "Parry · 1 energy: gain 5 Guard",
        "▸[1] play War Chant (1 energy): gain 1 Attack Up",
        "[3] play Slash (1 energy): deal 7",
        "[6] end the turn (e)",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_eq!(
        shown.matches("Armor Break").count(),
        1,
        "only the player is broken: the Golem has AP left:\n{shown}"
    );
    assert_snapshot("roguelite_player_phase", &shown);
}

#[test]
fn cards_the_energy_cannot_pay_are_marked() {
    let mut view = player_phase(Some(0));
    view["game"]["player"]["energy"] = json!(0);
    view["legal"] = json!([{"kind": "end_turn"}]);
    let shown = render(view, Link::Connected, "", false);
    for needle in [
        "your hand · energy 0/3",
        "Slash · 1 energy: deal 7 (not enough energy)",
        "▸[1] end the turn (e)",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
}

#[test]
fn a_spectator_sees_no_hand() {
    let shown = render(player_phase(None), Link::Connected, "", false);
    for secret in HIDDEN_NAMES.iter().chain(&HIDDEN_TEXTS) {
        assert!(!shown.contains(secret), "{secret} leaked:\n{shown}");
    }
    for needle in [
        "spectator",
        "Player 1's phase 2 (limit 30)",
        "▶ Player 1 ─",
        "hand (hidden)",
        "Player 1 holds 5 cards.",
        "Only the player sees them.",
        "Player 1 plays cards, then ends the turn.",
        "Spectating: the run plays live.",
        "Next phase: Undertow",
        "Poison ×3 (3 turns)",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert!(
        !shown.contains("your move") && !shown.contains("▶ you"),
        "a spectator is not the player:\n{shown}"
    );
    assert_snapshot("roguelite_spectator", &shown);
}

/// Seed 2, battle 5: the Glass Mantis, faster by 40, takes 3 phases in a row and is acting
/// with 2 energy left; the player is at 0 AP.
fn enemy_phase(seat: Option<u64>) -> Value {
    let mut player = json!({
        "ap": 0, "armor": "Quilted Jerkin", "deck_size": 13, "def_pct": 5,
        "discard_count": 10, "draw_count": 3, "energy": 0, "guard": 3, "hand_count": 0,
        "hp": 76, "initiative": false, "max_ap": 15, "max_energy": 3, "max_hp": 80,
        "speed": 48, "statuses": [status("momentum", 2, 0)]
    });
    if seat == Some(0) {
        player["hand"] = json!([]);
    }
    let game = json!({
        "battle": 5, "battles": 9, "depth": 2, "depth_name": "the Drowned Halls", "depths": 3,
        "enemy": {
            "add_energy": 100, "ap": 0, "atk": 6, "def_pct": 0, "energy": 2, "energy_base": 2,
            "guard": 0, "hp": 13, "id": "glass_mantis", "intent": ["Quicken", "Basic Attack"],
            "max_ap": 0, "max_hp": 38, "name": "Glass Mantis", "speed": 88,
            "statuses": [status("haste", 2, 1)]
        },
        "offer": [], "player": player,
        "queue": [{"phases": 3, "side": "enemy"}, {"phases": 1, "side": "player"}],
        "result": null, "round": 3, "stage": "enemyAct", "tick_ms": 400, "turn": 2,
        "turn_limit": 30,
        "log": [
            "You play Slash: 7 damage to Glass Mantis: 7 to HP.",
            "You end your turn.",
            "Round 3: speed 48 against 88; the enemy takes 4 phases in a row, then you.",
            "Glass Mantis's phase begins with 2 energy; Slow end.",
            "Glass Mantis uses Twin Scythe: 3 damage to you: 1 to Guard, 2 to HP, 2 past Guard (Armor Break); 3 damage to you: 1 to Guard, 2 to HP, 2 past Guard (Armor Break).",
            "Glass Mantis's phase ends.",
            "Glass Mantis's phase begins with 2 energy."
        ]
    });
    envelope(seat, game, json!([]), Value::Null)
}

#[test]
fn the_enemys_phase_runs_by_itself() {
    let shown = render(enemy_phase(None), Link::Connected, "", false);
    for needle in [
        "Battle 5/9 · Glass Mantis acts (2 energy left) · 3 phases in a row",
        "Phase queue, round 3 (speed 48 against 88): ▶ Glass Mantis ×3 → Player 1 ×1",
        "▶ Glass Mantis · enemy",
        "AP none (no armor to break)",
        "Energy 2 left of 2 a phase",
        "Statuses: Haste ×2 (1 turn)",
        "Still to do: Quicken → Basic Attack",
        "0/15 Armor Break",
        "Glass Mantis's phase runs by itself: one action",
        "every 400 ms, each told in the log.",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert_snapshot("roguelite_enemy_phase", &shown);

    let mine = render(enemy_phase(Some(0)), Link::Connected, "", false);
    for needle in [
        "Nothing for you to do now.",
        "(no cards: you draw 5 when your phase starts)",
        "▶ Glass Mantis ×3 → you ×1",
    ] {
        assert!(mine.contains(needle), "{needle:?} missing:\n{mine}");
    }
    assert!(!mine.contains("your move"), "{mine}");
}

#[test]
fn each_enemy_action_streams_in_as_a_patch() {
    let mut tracker = ViewTracker::with_view("r0gue1ite", 7, enemy_phase(None));
    let patch: ServerMsg = serde_json::from_value(json!({
        "type": "patch", "battle_id": "r0gue1ite", "seq": 8, "ops": [
            {"op": "replace", "path": "/game/enemy/energy", "value": 1},
            {"op": "replace", "path": "/game/enemy/intent", "value": ["Basic Attack"]},
            {"op": "replace", "path": "/game/enemy/statuses/0/stacks", "value": 3},
            {"op": "replace", "path": "/game/enemy/statuses/0/turns", "value": 3},
            {"op": "add", "path": "/game/log/-",
             "value": "Glass Mantis uses Quicken: gains 1 Haste for 3 turns."}
        ]
    }))
    .expect("a patch message");
    tracker.apply(&patch).expect("the next patch applies");
    let view = tracker.view().expect("the view").clone();
    let shown = render(view, Link::Connected, "", false);
    for needle in [
        "Glass Mantis acts (1 energy left)",
        "Still to do: Basic Attack",
        "Haste ×3 (3 turns)",
        "Glass Mantis uses Quicken: gains 1 Haste for 3 turns.",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
}

/// Seed 3 after its first battle: the Rust Sentry fell; two cards and an armor on offer.
pub(super) fn reward(seat: Option<u64>) -> Value {
    let mut player = json!({
        "ap": 11, "armor": "Quilted Jerkin", "deck_size": 10, "def_pct": 5,
        "discard_count": 5, "draw_count": 5, "energy": 0, "guard": 0, "hand_count": 0,
        "hp": 80, "initiative": false, "max_ap": 15, "max_energy": 3, "max_hp": 80,
        "speed": 51, "statuses": []
    });
    if seat == Some(0) {
        player["hand"] = json!([]);
    }
    let game = json!({
        "battle": 1, "battles": 9, "depth": 1, "depth_name": "the Mossy Cellars", "depths": 3,
        "enemy": {
            "add_energy": 100, "ap": 0, "atk": 5, "def_pct": 10, "energy": 0, "energy_base": 2,
            "guard": 0, "hp": 0, "id": "rust_sentry", "intent": [], "max_ap": 10,
            "max_hp": 26, "name": "Rust Sentry", "speed": 44, "statuses": []
        },
        "offer": [
            {"id": "war_chant", "name": "War Chant", "sort": "card",
             "text": "Gain 1 Attack Up for 3 turns."},
            {"id": "venom_flick", "name": "Venom Flick", "sort": "card",
             "text": "Deal 3 damage and apply 2 Poison."},
            {"id": "riveted_hauberk", "name": "Riveted Hauberk", "sort": "armor",
             "text": "25 AP and DEF 10%, replacing the worn armor."}
        ],
        "player": player, "queue": [], "result": null, "round": 3, "stage": "reward",
        "tick_ms": 400, "turn": 3, "turn_limit": 30,
        "log": [
            "Round 3: speed 51 against 44; you take 1 phase in a row, then the enemy.",
            "Your phase 3 begins with initiative (+10% attack damage).",
            "You play Slash: 8 damage to Rust Sentry: 4 to Guard, 4 to HP, 4 past Guard (Armor Break).",
            "You play Slash: 8 damage to Rust Sentry: 2 to Guard, 5 to HP, 4 past Guard (Armor Break).",
            "Rust Sentry falls. You stand at 80 HP and 11 AP.",
            "Choose a reward or skip: War Chant, Venom Flick, Riveted Hauberk."
        ]
    });
    let (legal, prompt) = if seat == Some(0) {
        (
            json!([{"kind": "take", "reward": "war_chant"},
                   {"kind": "take", "reward": "venom_flick"},
                   {"kind": "take", "reward": "riveted_hauberk"}, {"kind": "skip"}]),
            json!({"decision": "reward", "max": 1, "min": 0,
                   "text": "Battle 1 of 9 is won: take one reward or skip."}),
        )
    } else {
        (json!([]), Value::Null)
    };
    envelope(seat, game, legal, prompt)
}

#[test]
fn between_battles_the_reward_is_offered() {
    let view = reward(Some(0));
    let tracker = ViewTracker::with_view("r0gue1ite", 7, view.clone());
    let mut picker = Picker::default();
    picker.sync(&tracker);
    for _ in 0..2 {
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
    for needle in [
        "Depth 1/3, the Mossy Cellars · Battle 1/9 · Won: you choose a reward",
        "← your move",
        "Phase queue, round 3: none: between battles",
        "Rust Sentry · defeated",
        "reward · battle 1 won",
        "War Chant: a card for the deck",
        "Riveted Hauberk: armor, put on whole",
        "Or skip: the next battle starts either way.",
        "Battle 1 of 9 is won: take one reward or skip.",
        "[1] take War Chant (a card for the deck)",
        "▸[3] take Riveted Hauberk (armor, put on whole)",
        "[4] skip the reward",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    let top = shown
        .lines()
        .find(|l| l.starts_with("Depth"))
        .expect("the top line");
    assert!(
        !shown.contains("Next phase:") && !top.contains("in a row"),
        "no enemy intent nor phase run between battles:\n{shown}"
    );
    assert_snapshot("roguelite_reward", &shown);

    let watched = render(reward(None), Link::Connected, "", false);
    for needle in [
        "Battle 1/9 · Won: Player 1 chooses a reward",
        "Riveted Hauberk: armor, put on whole",
        "Player 1 takes a reward or skips it.",
    ] {
        assert!(watched.contains(needle), "{needle:?} missing:\n{watched}");
    }
}

/// The end of a run as `seat` sees it: seed 3 won against the Hollow Regent, seed 0 lost to
/// it.
fn finished(won: bool, seat: Option<u64>) -> Value {
    let (summary, mut player, enemy, log, (round, turn)) = if won {
        (
            "The run is won: The Hollow Regent falls with you at 25 HP.",
            json!({
                "ap": 0, "armor": "Riveted Hauberk", "deck_size": 14, "def_pct": 10,
                "discard_count": 10, "draw_count": 4, "energy": 0, "guard": 0,
                "hand_count": 0, "hp": 25, "initiative": false, "max_ap": 25,
                "max_energy": 3, "max_hp": 80, "speed": 51,
                "statuses": [status("stall", 1, 1), status("momentum", 3, 0)]
            }),
            json!({"hp": 0, "speed": 60}),
            vec![
                "Your phase 6 begins.",
                "You play Slash: 8 damage to The Hollow Regent: 8 to HP, 4 past Guard (Armor Break).",
                "You play Flurry: 4 damage to The Hollow Regent: 4 to HP, 2 past Guard (Armor Break); 4 damage to The Hollow Regent: 2 to HP, 2 past Guard (Armor Break).",
            ],
            (6, 6),
        )
    } else {
        (
            "The run is lost: you fall to The Hollow Regent in battle 9 (depth 3).",
            json!({
                "ap": 0, "armor": "Warden Plate", "deck_size": 15, "def_pct": 15,
                "discard_count": 15, "draw_count": 0, "energy": 0, "guard": 0,
                "hand_count": 0, "hp": 0, "initiative": false, "max_ap": 35,
                "max_energy": 3, "max_hp": 80, "speed": 20,
                "statuses": [status("stall", 3, 2), status("momentum", 1, 0)]
            }),
            json!({"hp": 52, "speed": 61}),
            vec![
                "The Hollow Regent uses Court Fury: next phase's energy x1.50.",
                "The Hollow Regent uses Hollow Drain: 4 damage to you: 4 to HP, 2 past Guard (Armor Break); 2 HP stolen.",
                "The Hollow Regent's phase ends.",
                "The Hollow Regent's phase begins with 4 energy.",
                "The Hollow Regent uses Basic Attack: 4 damage to you: 1 to HP, 2 past Guard (Armor Break).",
            ],
            (4, 3),
        )
    };
    if seat == Some(0) {
        player["hand"] = json!([]);
    }
    let mut log: Vec<Value> = log.into_iter().map(Value::from).collect();
    log.push(Value::from(summary));
    let winners = if won { json!([0]) } else { json!([]) };
    let game = json!({
        "battle": 9, "battles": 9, "depth": 3, "depth_name": "the Ember Vault", "depths": 3,
        "enemy": {
            "add_energy": 100, "ap": 0, "atk": 5, "def_pct": 10, "energy": 0, "energy_base": 3,
            "guard": 0, "hp": enemy["hp"], "id": "hollow_regent", "intent": [], "max_ap": 15,
            "max_hp": 90, "name": "The Hollow Regent", "speed": enemy["speed"],
            "statuses": [status("haste", 1, 1)]
        },
        "offer": [], "player": player, "queue": [],
        "result": {"summary": summary, "winners": winners},
        "round": round, "stage": "over", "tick_ms": 400, "turn": turn, "turn_limit": 30,
        "log": log
    });
    let mut view = envelope(seat, game, json!([]), Value::Null);
    view["status"] = json!("finished");
    let reason = if won { "completed" } else { "knockout" };
    view["outcome"] = json!({"summary": summary, "winners": winners, "reason": reason});
    view
}

#[test]
fn a_finished_run_shows_the_result() {
    let shown = render(finished(true, Some(0)), Link::Connected, "", false);
    for needle in [
        "Battle 9/9 · The run is over",
        "Phase queue, round 6: none: the run is over",
        "Statuses: Stall ×1 (1 turn) · Momentum ×3",
        "The Hollow Regent · defeated",
        "battle over",
        "You won the run.",
        "The run is won: The Hollow Regent falls with you at 25 HP.",
        "Reached battle 9 of 9 (the Ember Vault).",
        "Deck 14 cards · Riveted Hauberk · 25 HP",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing:\n{shown}");
    }
    assert!(!shown.contains("your move"), "{shown}");
    assert!(!shown.contains("Next phase:"), "{shown}");
    assert_snapshot("roguelite_won", &shown);

    let lost = render(finished(false, Some(0)), Link::Connected, "", false);
    for needle in [
        "You lost the run: you were defeated.",
        "you fall to The Hollow Regent in battle 9",
        "You · fallen",
    ] {
        assert!(lost.contains(needle), "{needle:?} missing:\n{lost}");
    }
    let watched = render(finished(false, None), Link::Connected, "", false);
    assert!(
        watched.contains("Player 1 lost the run: they were defeated."),
        "{watched}"
    );
    assert_snapshot("roguelite_lost_spectator", &watched);
}

#[test]
fn a_narrow_terminal_wraps_the_top_line_and_keeps_the_marker() {
    use battle_term::ui::{draw, Screen};
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    let tracker = ViewTracker::with_view("r0gue1ite", 7, player_phase(Some(0)));
    let link = Link::Connected;
    for (width, height) in [(60, 40), (30, 12), (12, 6)] {
        let mut terminal =
            Terminal::new(TestBackend::new(width, height)).expect("a test backend never fails");
        terminal
            .draw(|frame| draw(frame, &Screen::of(&tracker, &link)))
            .expect("drawing to a test backend never fails");
        if width == 60 {
            let buffer = terminal.backend().buffer();
            let text: String = (0..buffer.area.height)
                .map(|y| {
                    (0..buffer.area.width)
                        .map(|x| buffer[(x, y)].symbol())
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("\n");
            assert!(text.contains("← your move"), "{text}");
        }
    }
}
