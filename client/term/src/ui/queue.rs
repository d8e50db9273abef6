//! The screen shown while waiting in the matchmaking queue: how many wait, for how long, when
//! the server's bots step in, and how to leave.

use std::time::Duration;

use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

use crate::waiting::{bot_line, waiting_line};

/// Everything the waiting screen shows.
#[derive(Debug, Clone, Copy)]
pub struct QueueScreen<'a> {
    /// The ruleset queued for.
    pub ruleset: &'a str,
    /// How many waited in the pool when we joined it, us included.
    pub waiting: usize,
    /// How long we have waited.
    pub waited: Duration,
    /// When the server's bots step in, if they will.
    pub bot_after: Option<Duration>,
}

/// The waiting screen's lines.
pub fn queue_lines(screen: &QueueScreen<'_>) -> Vec<String> {
    let mut lines = vec![
        format!(
            "Queued for {}: {}.",
            screen.ruleset,
            waiting_line(screen.waiting)
        ),
        format!("Waited {} s.", screen.waited.as_secs()),
    ];
    lines.extend(bot_line(screen.bot_after).map(|line| format!("{line}.")));
    lines.push(String::new());
    lines.push("The battle starts as soon as an opponent is found.".to_owned());
    lines
}

/// Draw the waiting screen over the whole frame.
pub fn draw_queue(frame: &mut Frame<'_>, screen: &QueueScreen<'_>) {
    let [header, body, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(5),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    frame.render_widget(
        Paragraph::new(format!("matchmaking · {}", screen.ruleset))
            .style(Style::new().add_modifier(Modifier::BOLD)),
        header,
    );
    let mut lines: Vec<Line<'_>> = queue_lines(screen).into_iter().map(Line::raw).collect();
    if let Some(first) = lines.first_mut() {
        *first = first
            .clone()
            .style(Style::new().add_modifier(Modifier::BOLD));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" waiting for an opponent ")),
        body,
    );
    frame.render_widget(
        Paragraph::new("q leave the queue").style(Style::new().add_modifier(Modifier::DIM)),
        keys,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    #[test]
    fn the_waiting_screen_says_who_waits_how_long_and_how_to_leave() {
        let screen = QueueScreen {
            ruleset: "synergy",
            waiting: 1,
            waited: Duration::from_secs(12),
            bot_after: Some(Duration::from_secs(30)),
        };
        let mut terminal = Terminal::new(TestBackend::new(80, 12)).expect("a test terminal");
        terminal
            .draw(|frame| draw_queue(frame, &screen))
            .expect("drawn");
        let text: String = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|cell| cell.symbol())
            .collect();
        for words in [
            "waiting for an opponent (1 waiting)",
            "Waited 12 s.",
            "without a match within 30 s, you play the server's bots",
            "q leave the queue",
        ] {
            assert!(text.contains(words), "{words:?} missing from:\n{text}");
        }
    }
}
