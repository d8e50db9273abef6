//! A replay's steps on screen: drawn by the panel that shows the ruleset to a live spectator,
//! from views without `seats` and `clocks`, with the replay's step line instead of the key
//! hints and "replay" in the header instead of the connection.

use battle_client::ViewTracker;
use battle_protocol::Replay;
use battle_term::replay::viewer::{draw_step, StepScreen};
use battle_term::replay::Stepper;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::{json, Value};

use super::{assert_snapshot, finished, mid_battle, text_of, HEIGHT, WIDTH};

/// `view` as a replay holds it: a spectator's, without the members that depend on when it
/// was watched.
fn as_replayed(mut view: Value) -> Value {
    let envelope = view.as_object_mut().expect("a view is an object");
    envelope.remove("seats");
    envelope.remove("clocks");
    view["seat"] = Value::Null;
    view["legal"] = json!([]);
    view
}

/// A two-step synergy replay: the battle of [`mid_battle`], one more log line, then the
/// finishing blow of [`finished`].
fn replay() -> Replay {
    let start = as_replayed(mid_battle(None));
    let mut middle = start.clone();
    middle["game"]["log"]
        .as_array_mut()
        .expect("the fixture's log is an array")
        .push(json!("Ana plays Bark Guard: gains 8 block; +8 score."));
    let mut end = as_replayed(finished());
    for side in end["game"]["sides"]
        .as_array_mut()
        .expect("the fixture's sides are an array")
    {
        side.as_object_mut()
            .expect("a side is an object")
            .remove("hand");
    }
    let diff = battle_protocol::json_patch::diff;
    serde_json::from_value(json!({
        "battle_id": "kg4fme4qk7", "ruleset": "synergy", "version": 3, "seats": 2,
        "bots": [1], "outcome": end["outcome"].clone(), "ended_at": 1_795_627_211_164u64,
        "start": start,
        "steps": [diff(&start, &middle), diff(&middle, &end)]
    }))
    .expect("a replay")
}

/// The screen of step `index` of `replay`, as text.
fn step_screen(replay: &Replay, index: usize, status: &str) -> String {
    let views = replay.views().expect("the fixture's steps apply");
    let mut stepper = Stepper::new(replay.steps.len());
    let now = std::time::Instant::now();
    while stepper.index() < index {
        stepper.forward(now);
    }
    let tracker = ViewTracker::with_view(&replay.battle_id, 0, views[index].clone());
    let mut terminal =
        Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("a test backend never fails");
    let step = StepScreen {
        tracker: &tracker,
        stepper: &stepper,
        status,
        log_scroll: 0,
    };
    terminal
        .draw(|frame| draw_step(frame, &step))
        .expect("drawing to a test backend never fails");
    text_of(terminal.backend().buffer())
}

#[test]
fn a_replay_step_looks_like_watching_live() {
    let screen = step_screen(&replay(), 1, "replay: Player wins · ended 3 min ago");
    assert!(
        screen.contains("battle kg4fme4qk7 · synergy · replay"),
        "{screen}"
    );
    assert!(screen.contains("▶ recorded"), "{screen}");
    assert!(
        screen.contains("step 1/2 · autoplay off (1 s) · →/← step · g/G start/end"),
        "{screen}"
    );
    assert!(
        screen.contains("Ana plays Bark Guard"),
        "the step's log line"
    );
    assert!(
        screen.contains("Hands are hidden from spectators"),
        "{screen}"
    );
    assert!(!screen.contains("spectating (read-only)"), "{screen}");
    assert!(!screen.contains("your move"), "{screen}");
    assert!(!screen.contains('⏱'), "no clocks in a replay:\n{screen}");
    assert_snapshot("replay_synergy_step", &screen);
}

#[test]
fn the_last_step_shows_the_result() {
    let screen = step_screen(&replay(), 2, "");
    assert!(screen.contains("step 2/2"), "{screen}");
    assert!(
        screen.contains("Ana won: Training Automaton was knocked out."),
        "a replay keeps the names:\n{screen}"
    );
    assert!(
        screen.contains("Ana: score 38 + 100 for the win + 30 for ending healthy = 168"),
        "{screen}"
    );
}

#[test]
fn every_panel_draws_a_view_without_seats_or_clocks() {
    for (ruleset, view) in [
        ("synergy", mid_battle(None)),
        ("gambit", super::gambit::fighting()),
        ("heroes", super::heroes::main_phase(None)),
        ("lore", super::lore::main_phase(None)),
        ("roguelite", super::roguelite::player_phase(None)),
    ] {
        let mut view = as_replayed(view);
        view["clocks"] = Value::Null;
        let replay: Replay = serde_json::from_value(json!({
            "battle_id": "kg4fme4qk7", "ruleset": ruleset, "version": 1, "seats": 2,
            "bots": [], "outcome": {"summary": "", "winners": []}, "ended_at": 0,
            "start": as_replayed(view), "steps": []
        }))
        .expect("a replay");
        let screen = step_screen(&replay, 0, "");
        assert!(
            screen.contains(&format!("· {ruleset} · replay")),
            "{ruleset}:\n{screen}"
        );
        assert!(screen.contains("step 0/0"), "{ruleset}:\n{screen}");
        assert!(!screen.contains("away"), "{ruleset}:\n{screen}");
    }
}
