//! The clock line of a timed battle, above every ruleset's panel: for each awaited seat the
//! time left until its deadline ("your time" for the viewer's own seat), red and bold under
//! ten seconds, then each seat's bank. Nothing for an untimed battle, a battle that is over,
//! or a view without `clocks` (a replay).

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::Screen;
use crate::clock::{clocks, countdowns, format_bank, format_left};
use crate::presence::{presence, seat_name, Presence};

/// The clock line for `screen` at its `now_ms`, or `None` when the battle is untimed or over.
pub fn clock_line(screen: &Screen<'_>) -> Option<Line<'static>> {
    if screen.tracker.is_over() {
        return None;
    }
    let view = screen.tracker.view()?;
    let all = clocks(view)?;
    let viewer = screen.tracker.seat();
    let mut spans = vec![Span::raw("⏱ ")];
    for (i, c) in countdowns(view, viewer, screen.now_ms).iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw(" · "));
        }
        let who = if c.mine {
            "your time ".to_owned()
        } else {
            format!("{} ", seat_name(view, c.seat))
        };
        let style = if c.urgent() {
            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
        } else if c.mine {
            Style::new().fg(Color::Green).add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        };
        spans.push(Span::raw(who));
        spans.push(Span::styled(format_left(c.left_ms), style));
    }
    let banks: Vec<String> = all
        .iter()
        // The server's seats are never timed: their banks mean nothing.
        .filter(|c| presence(view, c.seat) != Some(Presence::Bot))
        .map(|c| {
            let who = if viewer == Some(c.seat) {
                "you".to_owned()
            } else {
                seat_name(view, c.seat)
            };
            format!("{who} {}", format_bank(c.bank_ms))
        })
        .collect();
    if banks.is_empty() && spans.len() == 1 {
        // Only the server's seats are timed here, and they never run out: nothing to show.
        return None;
    }
    if !banks.is_empty() {
        let lead = if spans.len() > 1 {
            " · banks: "
        } else {
            "banks: "
        };
        spans.push(Span::styled(
            format!("{lead}{}", banks.join(", ")),
            Style::new().add_modifier(Modifier::DIM),
        ));
    }
    Some(Line::from(spans))
}
