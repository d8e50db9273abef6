//! The turn clock's line in a timed battle: the awaited seat's time left ("your time" for
//! the viewer's own seat, red under ten seconds) and each person's bank, for a player and a
//! spectator; nothing at all for an untimed battle.

use battle_term::Link;
use ratatui::style::Color;
use serde_json::{json, Value};

use super::{assert_snapshot, mid_battle, render_buffer, text_of, Extras};

/// When the screens are drawn, in Unix milliseconds.
const NOW: u64 = 1_795_627_211_164;

/// [`mid_battle`] timed: seat 0 (the person) has `left_ms` to decide, seat 1 is the bot.
fn timed(seat: Option<u64>, left_ms: u64) -> Value {
    let mut view = mid_battle(seat);
    view["clocks"] = json!([
        {"bank_ms": 135_000, "deadline": NOW + left_ms},
        {"bank_ms": 120_000, "deadline": null}
    ]);
    view
}

/// The row holding `needle`, with the foreground colour of the cell where it starts.
fn row_with(buffer: &ratatui::buffer::Buffer, needle: &str) -> (String, Color) {
    let text = text_of(buffer);
    for (y, line) in text.lines().enumerate() {
        if let Some(at) = line.find(needle) {
            let x = line[..at].chars().count();
            let cell = &buffer[(x as u16, y as u16)];
            return (line.to_owned(), cell.fg);
        }
    }
    panic!("no row holds {needle:?}:\n{text}");
}

fn extras() -> Extras<'static> {
    Extras {
        now_ms: NOW,
        ..Extras::default()
    }
}

#[test]
fn the_players_own_countdown_and_bank() {
    let buffer = render_buffer(timed(Some(0), 92_000), Link::Connected, extras());
    let (row, color) = row_with(&buffer, "1:32");
    assert_eq!(row, "⏱ your time 1:32 · banks: you 2:15");
    assert_ne!(
        color,
        Color::Red,
        "not urgent with a minute and a half left"
    );
    assert_snapshot("synergy_clock", &text_of(&buffer));
}

#[test]
fn under_ten_seconds_the_countdown_shows_tenths_in_red() {
    let buffer = render_buffer(timed(Some(0), 7_250), Link::Connected, extras());
    let (row, color) = row_with(&buffer, "0:07.3");
    assert_eq!(row, "⏱ your time 0:07.3 · banks: you 2:15");
    assert_eq!(color, Color::Red);
}

#[test]
fn a_spectator_sees_whose_time_runs() {
    let buffer = render_buffer(timed(None, 61_000), Link::Connected, extras());
    let (row, _) = row_with(&buffer, "Ana 1:01");
    assert_eq!(
        row, "⏱ Ana 1:01 · banks: Ana 2:15",
        "the bot's bank means nothing: left out"
    );
    // Without `seats` nothing says which seat is a bot: every bank is shown.
    let mut view = timed(None, 0);
    view.as_object_mut()
        .expect("a view is an object")
        .remove("seats");
    let passed = render_buffer(view, Link::Connected, extras());
    let (row, _) = row_with(&passed, "Ana 0:00");
    assert_eq!(row, "⏱ Ana 0:00 · banks: Ana 2:15, Training Automaton 2:00");
}

#[test]
fn the_clock_line_is_gone_once_the_battle_is_over() {
    let mut view = super::finished();
    view["clocks"] = json!([
        {"bank_ms": 135_000, "deadline": null},
        {"bank_ms": 120_000, "deadline": null}
    ]);
    let screen = text_of(&render_buffer(view, Link::Connected, extras()));
    assert!(!screen.contains('⏱'), "{screen}");
    assert!(!screen.contains("banks"), "{screen}");
    assert!(screen.contains("battle over"), "{screen}");
}

#[test]
fn a_battle_between_the_servers_bots_has_no_clock_line() {
    let mut view = timed(None, 0);
    view["seats"] = json!(["bot", "bot"]);
    view["clocks"] = json!([
        {"bank_ms": 120_000, "deadline": null},
        {"bank_ms": 120_000, "deadline": null}
    ]);
    let screen = text_of(&render_buffer(view, Link::Connected, extras()));
    assert!(!screen.contains('⏱'), "{screen}");
}

#[test]
fn an_untimed_battle_has_no_clock_line() {
    let mut view = mid_battle(Some(0));
    view["clocks"] = Value::Null;
    let screen = text_of(&render_buffer(view, Link::Connected, extras()));
    assert!(!screen.contains('⏱'), "{screen}");
    assert!(!screen.contains("banks"), "{screen}");
}
