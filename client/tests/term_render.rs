//! Screens rendered to ratatui's `TestBackend` and compared with reviewed text snapshots in
//! `tests/snapshots/` (run with `UPDATE_SNAPSHOTS=1` to rewrite them after a deliberate
//! change, then review the diff). The views are fixed fixtures in the server's shape, so the
//! screens are deterministic.

use std::path::PathBuf;

use battle_client::term::keys::Command;
use battle_client::term::ui::{draw, Screen};
use battle_client::term::Link;
use battle_client::{ServerMsg, ViewTracker};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::{json, Value};

const WIDTH: u16 = 100;
const HEIGHT: u16 = 34;

fn card(id: u64, name: &str, sigil: &str, kind: &str, value: u64, synergy: bool) -> Value {
    json!({"id": id, "card": format!("C{id:03}"), "name": name, "type": kind, "cost": 1,
           "value": value, "sigil": sigil, "synergy": synergy})
}

fn side(name: &str, hp: u64, max_hp: u64, hand: Option<Vec<Value>>) -> Value {
    let mut side = json!({
        "name": name, "hp": hp, "max_hp": max_hp, "block": 4, "energy": 2, "score": 38,
        "turn_multiplier": 1, "spectrum_bonus_taken": false, "focus": 0,
        "sigils": {"Flame": 1, "Leaf": 0, "Gear": 0, "Void": 0},
        "hand_count": 3, "draw_count": 2, "discard_count": 5, "deck_size": 10
    });
    if let Some(hand) = hand {
        side["hand"] = Value::from(hand);
    }
    side
}

/// The names of the player's cards in [`mid_battle`]: they must never show on screens of
/// viewers who may not see that hand.
const HAND_NAMES: [&str; 3] = ["Ember Strike", "Bark Guard", "Null Pierce"];

/// A PvE battle in round 3, on the player's turn, as `seat` (or a spectator) sees it.
fn mid_battle(seat: Option<u64>) -> Value {
    let hand = vec![
        card(1, HAND_NAMES[0], "Flame", "attack", 7, true),
        card(6, HAND_NAMES[1], "Leaf", "skill", 8, false),
        card(5, HAND_NAMES[2], "Void", "attack", 5, false),
    ];
    let my_hand = seat == Some(0);
    let legal = if my_hand {
        json!([{"kind": "play_card", "card": 1}, {"kind": "play_card", "card": 6},
               {"kind": "play_card", "card": 5}, {"kind": "end_turn"}])
    } else {
        json!([])
    };
    json!({
        "battle_id": "kg4fme4qk7", "ruleset": "synergy", "status": "playing",
        "seat": seat, "to_act": [0], "legal": legal, "outcome": null,
        "game": {
            "mode": "pve", "state": "playerTurn", "round": 3, "round_limit": 40, "active": 0,
            "sides": [
                side("Player", 41, 60, my_hand.then_some(hand)),
                side("Training Automaton", 52, 70, None),
            ],
            "log": [
                "Round 2 of 40: Player's turn. Player draws 5 cards.",
                "Player plays Ashen Focus: gains 2 focus; +4 score.",
                "Training Automaton plays Cog Shot: deals 6 damage, Player has 41 HP; +10 score.",
                "Round 3 of 40: Player's turn. Player draws 5 cards.",
                "Player plays Ashen Focus: gains 2 focus and the Flame counter goes up, so the next Flame card played this turn triggers the Flame synergy.",
            ],
            "result": null
        }
    })
}

fn finished() -> Value {
    let mut view = mid_battle(Some(0));
    view["status"] = json!("finished");
    view["to_act"] = json!([]);
    view["legal"] = json!([]);
    view["outcome"] =
        json!({"winners": [0], "summary": "Player wins: Training Automaton is out of HP."});
    let game = &mut view["game"];
    game["state"] = json!("gameOver");
    game["active"] = Value::Null;
    game["sides"][1]["hp"] = json!(0);
    game["result"] = json!({"winner": 0, "final_scores": [212, 140],
                            "summary": "Player wins: Training Automaton is out of HP."});
    game["log"]
        .as_array_mut()
        .expect("fixture log is an array")
        .push(json!(
            "Player plays Ember Strike: deals 7 damage, Training Automaton has 0 HP. Player wins."
        ));
    view
}

fn tracker(view: Value) -> ViewTracker {
    let mut tracker = ViewTracker::new("kg4fme4qk7");
    tracker
        .apply(&ServerMsg::Snapshot {
            battle_id: "kg4fme4qk7".into(),
            seq: 7,
            view,
            req: None,
        })
        .expect("a snapshot of the tracked battle applies");
    tracker
}

/// Render one screen and return its text, one line per row, trailing spaces trimmed.
fn render(view: Value, link: Link, status: &str, show_help: bool) -> String {
    let tracker = tracker(view);
    let mut terminal =
        Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("a test backend never fails");
    terminal
        .draw(|frame| {
            draw(
                frame,
                &Screen {
                    tracker: &tracker,
                    link: &link,
                    status,
                    show_help,
                },
            )
        })
        .expect("drawing to a test backend never fails");
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..buffer.area.height {
        let mut line = String::new();
        for x in 0..buffer.area.width {
            line.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Compare `screen` with `tests/snapshots/<name>.txt` (or write it with UPDATE_SNAPSHOTS=1).
fn assert_snapshot(name: &str, screen: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().expect("the path has a parent"))
            .expect("create the snapshot directory");
        std::fs::write(&path, screen).expect("write the snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with UPDATE_SNAPSHOTS=1 to create it",
            path.display()
        )
    });
    assert!(
        expected == screen,
        "screen {name} differs from {}:\n--- expected\n{expected}\n--- got\n{screen}",
        path.display()
    );
}

#[test]
fn mid_battle_player_screen() {
    let screen = render(mid_battle(Some(0)), Link::Connected, "", false);
    for name in HAND_NAMES {
        assert!(screen.contains(name), "the player sees their card {name}");
    }
    assert!(screen.contains("★ synergy if played now"));
    assert!(screen.contains("1-9 play card · e end turn · ? help · q quit"));
    assert_snapshot("synergy_mid_battle", &screen);
}

#[test]
fn result_screen() {
    let screen = render(finished(), Link::Connected, "", false);
    assert!(screen.contains("Winner: Player"));
    assert!(screen.contains("Final score: Player 212 · Training Automaton 140"));
    assert_snapshot("synergy_result", &screen);
}

#[test]
fn spectator_screen_hides_every_hand() {
    let screen = render(
        mid_battle(None),
        Link::Reconnecting { attempt: 2, of: 6 },
        "connection lost; reconnecting (try 2 of 6)",
        false,
    );
    for name in HAND_NAMES {
        // The log names Ember Strike only in the finished fixture; mid-battle it does not.
        assert!(
            !screen.contains(name),
            "a spectator must not see {name}:\n{screen}"
        );
    }
    assert!(screen.contains("spectator"));
    assert!(screen.contains("reconnecting 2/6"));
    assert!(screen.contains("Hands are hidden from spectators"));
    assert!(
        !screen.contains("e end turn"),
        "no acting keys for spectators"
    );
    assert_snapshot("synergy_spectator", &screen);
}

#[test]
fn opponent_hand_never_shows_on_the_other_seat() {
    // Seat 1's view of the same battle: seat 0's hand is only a count.
    let screen = render(mid_battle(Some(1)), Link::Connected, "", false);
    for name in HAND_NAMES {
        assert!(!screen.contains(name), "seat 1 must not see {name}");
    }
}

#[test]
fn help_and_refusal_are_shown() {
    let tracker_view = mid_battle(Some(0));
    let refused =
        battle_client::term::choice::resolve(&tracker(tracker_view.clone()), Command::Play(9))
            .expect_err("there is no ninth card");
    let screen = render(
        tracker_view,
        Link::Failed("gone".into()),
        &format!("not sent: {refused}"),
        true,
    );
    assert!(
        screen.contains("not sent: there is no card 9: your hand holds 3"),
        "{screen}"
    );
    assert!(screen.contains("help (? closes)"));
    assert!(screen.contains("✕ failed"));
}

#[test]
fn a_battle_waiting_for_players_says_so() {
    let view = json!({
        "battle_id": "kg4fme4qk7", "ruleset": "synergy", "status": "waiting", "seat": 0,
        "to_act": [], "prompt": null, "legal": [], "outcome": null, "game": null
    });
    let screen = render(view, Link::Connected, "", false);
    assert!(screen.contains("waiting for players"), "{screen}");
}

#[test]
fn other_rulesets_get_the_generic_panel() {
    let view = json!({
        "battle_id": "kg4fme4qk7", "ruleset": "duel", "status": "playing", "seat": 0,
        "to_act": [0], "prompt": {"decision": "turn", "text": "Strike, guard or pass."},
        "legal": [{"kind": "strike", "target": 1}, {"kind": "pass"},
                  {"kind": "guard", "parts": {"$choose": {"type": "array",
                   "items": {"enum": ["head", "arm"]}, "uniqueItems": true,
                   "minItems": 1, "maxItems": 2}}}],
        "outcome": null,
        "game": {"turn": 4, "fighters": [{"name": "A", "hp": 9}, {"name": "B", "hp": 7}],
                 "log": ["A strikes B"]}
    });
    let screen = render(view, Link::Connected, "", false);
    assert!(screen.contains("[1] strike target=1"), "{screen}");
    assert!(screen.contains("asked: Strike, guard or pass."), "{screen}");
    assert!(
        screen.contains(r#"[3] guard: parts = 1 to 2 of ["head", "arm"]"#),
        "{screen}"
    );
    assert!(screen.contains("turn: 4"));
    assert_snapshot("generic_panel", &screen);
}
