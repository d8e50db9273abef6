//! Screens rendered to ratatui's `TestBackend` and compared with reviewed text snapshots in
//! `tests/snapshots/` (run with `UPDATE_SNAPSHOTS=1` to rewrite them after a deliberate
//! change, then review the diff). The views are fixed fixtures in the server's shape, so the
//! screens are deterministic. Gambit's screens are in `term_render/gambit.rs`, heroes' in
//! `term_render/heroes.rs`, the turn clock's line in `term_render/clocks.rs` and a replay's
//! steps in `term_render/replay.rs`.

use std::path::PathBuf;

use battle_client::{ServerMsg, ViewTracker};
use battle_term::hand::HandNumbers;
use battle_term::keys::Command;
use battle_term::picker::Picker;
use battle_term::presence::notices;
use battle_term::ui::gambit::GambitUi;
use battle_term::ui::{draw, Screen};
use battle_term::Link;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::{json, Value};

#[path = "term_render/clocks.rs"]
mod clocks;
#[path = "term_render/decisions.rs"]
mod decisions;
#[path = "term_render/gambit.rs"]
mod gambit;
#[path = "term_render/help.rs"]
mod help;
#[path = "term_render/heroes.rs"]
mod heroes;
#[path = "term_render/lore.rs"]
mod lore;
#[path = "term_render/outcomes.rs"]
mod outcomes;
#[path = "term_render/replay.rs"]
mod replay;
#[path = "term_render/roguelite.rs"]
mod roguelite;

const WIDTH: u16 = 100;
const HEIGHT: u16 = 34;

fn card(id: u64, name: &str, sigil: &str, kind: &str, value: u64, synergy: bool) -> Value {
    let text = match kind {
        "attack" => format!("Deal {value} damage."),
        _ => format!("Gain {value} block."),
    };
    json!({"id": id, "card": format!("C{id:03}"), "name": name, "type": kind, "cost": 1,
           "value": value, "sigil": sigil, "synergy": synergy, "text": text})
}

/// The envelope's `seats`: one word per seat.
fn seats(of: &[&str]) -> Value {
    json!(of)
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
        "seats": seats(&["connected", "bot"]),
        "names": ["Ana", "Training Automaton"],
        "game": {
            "mode": "pve", "state": "playerTurn", "round": 3, "round_limit": 40, "active": 0,
            "sides": [
                side("Player", 41, 60, my_hand.then_some(hand)),
                side("Training Automaton", 52, 70, None),
            ],
            "log": [
                "Round 2 of 40: Ana's turn. Ana draws 5 cards.",
                "Ana plays Ashen Focus: gains 2 focus; +4 score.",
                "Training Automaton plays Cog Shot: deals 6 damage, Ana has 41 HP; +10 score.",
                "Round 3 of 40: Ana's turn. Ana draws 5 cards.",
                "Ana plays Ashen Focus: gains 2 focus and the Flame counter goes up, so the next Flame card played this turn triggers the Flame synergy.",
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
    view["outcome"] = json!({"winners": [0], "reason": "knockout",
        "summary": "Ana wins: Training Automaton is out of HP."});
    let game = &mut view["game"];
    game["state"] = json!("gameOver");
    game["active"] = Value::Null;
    game["sides"][1]["hp"] = json!(0);
    game["result"] = json!({"winner": 0, "final_scores": [168, 0],
        "breakdown": [
            {"score": 38, "win_bonus": 100, "hp_bonus": 30, "total": 168, "zeroed_by": null},
            {"score": 38, "win_bonus": 0, "hp_bonus": 0, "total": 0, "zeroed_by": "knocked out"}],
        "summary": "Ana wins: Training Automaton is out of HP."});
    game["log"]
        .as_array_mut()
        .expect("fixture log is an array")
        .push(json!(
            "Ana plays Ember Strike: deals 7 damage, Training Automaton has 0 HP. Ana wins."
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
    render_with(
        view,
        link,
        Extras {
            status,
            show_help,
            ..Extras::default()
        },
    )
}

/// What a screen shows besides the view and the connection.
#[derive(Default)]
struct Extras<'a> {
    status: &'a str,
    show_help: bool,
    invite: &'a [String],
    log_scroll: usize,
    gambit: Option<&'a GambitUi>,
    picker: Option<&'a Picker>,
    /// The time the clock line counts from, Unix milliseconds.
    now_ms: u64,
    /// A replay's step line.
    replay: Option<&'a str>,
    /// The numbers of the viewer's hand, kept through a turn.
    hand: Option<&'a HandNumbers>,
    /// How far the "how to play" page is scrolled.
    help_scroll: usize,
    /// The terminal's width and height (default [`WIDTH`] x [`HEIGHT`]).
    size: Option<(u16, u16)>,
}

/// Render the screen of `view` with `extras`.
fn render_with(view: Value, link: Link, extras: Extras<'_>) -> String {
    text_of(&render_buffer(view, link, extras))
}

/// Render the screen of `view` with `extras` and return the cells, styles and all.
fn render_buffer(view: Value, link: Link, extras: Extras<'_>) -> ratatui::buffer::Buffer {
    let tracker = tracker(view);
    let (width, height) = extras.size.unwrap_or((WIDTH, HEIGHT));
    let mut terminal =
        Terminal::new(TestBackend::new(width, height)).expect("a test backend never fails");
    let mut screen = Screen::of(&tracker, &link);
    screen.status = extras.status;
    screen.show_help = extras.show_help;
    screen.invite = extras.invite;
    screen.log_scroll = extras.log_scroll;
    screen.gambit = extras.gambit;
    screen.picker = extras.picker;
    screen.now_ms = extras.now_ms;
    screen.replay = extras.replay;
    screen.hand = extras.hand;
    screen.help_scroll = extras.help_scroll;
    terminal
        .draw(|frame| draw(frame, &screen))
        .expect("drawing to a test backend never fails");
    terminal.backend().buffer().clone()
}

/// The text of `buffer`, one line per row, trailing spaces trimmed.
fn text_of(buffer: &ratatui::buffer::Buffer) -> String {
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
    assert!(screen.contains("★ synergy now"));
    assert!(screen.contains("Deal 7 damage."), "cards say what they do");
    assert!(
        screen.contains("1-3 play card · e end turn · ↑↓ log · ? how to play · q quit"),
        "{screen}"
    );
    assert!(screen.contains("← your move"));
    assert!(screen.contains("synergy · Ana (you)"), "{screen}");
    assert!(screen.contains("Ana's turn (yours)"), "{screen}");
    assert!(!screen.contains("seat 0"), "{screen}");
    assert!(
        !screen.contains("state"),
        "no internal state names:\n{screen}"
    );
    assert_snapshot("synergy_mid_battle", &screen);
}

#[test]
fn won_screen() {
    let screen = render(finished(), Link::Connected, "", false);
    assert!(
        screen.contains("You won: Training Automaton was knocked out."),
        "{screen}"
    );
    assert!(
        screen.contains("Ana: score 38 + 100 for the win + 30 for ending healthy = 168"),
        "the final score is explained:\n{screen}"
    );
    assert!(!screen.contains('⏱'), "no clock once it is over:\n{screen}");
    assert!(screen.contains("Training Automaton: knocked out, so the final score is 0"));
    assert_snapshot("synergy_result", &screen);
}

#[test]
fn lost_screen() {
    let mut view = finished();
    view["seat"] = json!(1);
    view["game"]["sides"][0]
        .as_object_mut()
        .expect("a side is an object")
        .remove("hand");
    let screen = render(view, Link::Connected, "", false);
    assert!(
        screen.contains("You lost: Ana knocked you out."),
        "the loser is told:\n{screen}"
    );
    assert!(screen.contains("the running score 38 does not count"));
    assert_snapshot("synergy_lost", &screen);
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
    assert!(screen.contains("Training Automaton · bot"), "{screen}");
    assert!(screen.contains("Hands are hidden from spectators"));
    assert!(
        !screen.contains("e end turn"),
        "no acting keys for spectators"
    );
    assert!(
        screen.contains("Ana holds 3 cards, Training Automaton holds 3 cards"),
        "{screen}"
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
    let refused = battle_term::choice::resolve(&tracker(tracker_view.clone()), Command::Play(9))
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
    assert!(
        screen.contains("how to play synergy (? or Esc closes)"),
        "{screen}"
    );
    assert!(screen.contains("✕ failed"));
}

fn waiting_view() -> Value {
    json!({
        "battle_id": "kg4fme4qk7", "ruleset": "synergy", "status": "waiting", "seat": 0,
        "seats": seats(&["connected", "free"]),
        "to_act": [], "prompt": null, "legal": [], "outcome": null, "game": null
    })
}

#[test]
fn waiting_screen_names_the_free_seat_and_the_join_command() {
    let invite = [
        "others join with: battle-client join kg4fme4qk7 --seat 1".to_owned(),
        "others watch with: battle-client watch kg4fme4qk7".to_owned(),
    ];
    let screen = render_with(
        waiting_view(),
        Link::Connected,
        Extras {
            invite: &invite,
            ..Extras::default()
        },
    );
    assert!(screen.contains("Waiting for players"), "{screen}");
    assert!(screen.contains("Still to come: Player 2."), "{screen}");
    assert!(
        screen.contains("battle-client join kg4fme4qk7 --seat 1"),
        "the join command stays on screen:\n{screen}"
    );
    assert!(!screen.contains("your move"), "{screen}");
    let refused = battle_term::choice::resolve(&tracker(waiting_view()), Command::Play(1))
        .expect_err("nothing can be played before the start");
    assert_eq!(refused, "the battle has not started: waiting for Player 2");
    assert_snapshot("synergy_waiting", &screen);
}

/// The PvP battle of [`mid_battle`] as seat 0 sees it, with seat 1 held by a person who is
/// connected or not.
fn pvp_battle(opponent_connected: bool) -> Value {
    let mut view = mid_battle(Some(0));
    let opponent = if opponent_connected {
        "connected"
    } else {
        "away"
    };
    view["seats"] = seats(&["connected", opponent]);
    view["names"] = json!(["Player 1", "Player 2"]);
    view["game"]["mode"] = json!("pvp");
    view["game"]["sides"][0]["name"] = json!("Player 1");
    view["game"]["sides"][1]["name"] = json!("Player 2");
    view
}

#[test]
fn opponent_joined_screen() {
    let before = tracker(waiting_view());
    let now = tracker(pvp_battle(true));
    let told = notices(before.view(), &now).join(" · ");
    assert_eq!(
        told,
        "Player 2 joined · every seat is taken: the battle starts"
    );
    let screen = render(pvp_battle(true), Link::Connected, &told, false);
    assert!(screen.contains("» Player 2 joined"), "{screen}");
    assert!(screen.contains("Player 1's turn (yours)"), "{screen}");
    assert_snapshot("synergy_opponent_joined", &screen);
}

#[test]
fn opponent_left_screen() {
    let before = tracker(pvp_battle(true));
    let now = tracker(pvp_battle(false));
    let told = notices(before.view(), &now).join(" · ");
    let screen = render(pvp_battle(false), Link::Connected, &told, false);
    assert!(
        screen.contains("Player 2 left (disconnected); their seat waits for them to come back"),
        "{screen}"
    );
    assert!(
        screen.contains("Player 2 · away (disconnected)"),
        "the side shows who is away for as long as it lasts:\n{screen}"
    );
    assert_snapshot("synergy_opponent_left", &screen);
}

#[test]
fn replaced_seat_screen_does_not_offer_a_move() {
    let link = Link::Failed("the seat was taken back from another connection".into());
    let screen = render(
        mid_battle(Some(0)),
        link,
        "your seat was taken over from another connection; press r to take it back here",
        false,
    );
    assert!(!screen.contains("← your move"), "{screen}");
    assert!(
        screen.contains("press r to take your seat back"),
        "{screen}"
    );
    assert!(screen.contains("r reconnect"), "{screen}");
    assert_snapshot("synergy_replaced", &screen);
}

#[test]
fn the_log_scrolls_back_and_says_so() {
    let mut view = mid_battle(Some(0));
    let log: Vec<Value> = (1..=40).map(|i| json!(format!("log entry {i}"))).collect();
    view["game"]["log"] = Value::from(log);
    let newest = render(view.clone(), Link::Connected, "", false);
    assert!(newest.contains("log entry 40") && !newest.contains("log entry 20\n"));
    let back = render_with(
        view,
        Link::Connected,
        Extras {
            log_scroll: 15,
            ..Extras::default()
        },
    );
    assert!(back.contains("15 lines back"), "{back}");
    assert!(
        back.contains("log entry 25") && !back.contains("log entry 40"),
        "{back}"
    );
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
