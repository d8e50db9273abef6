//! Drawing a battle screen with ratatui: the frame around every ruleset (header with the
//! connection indicator, status line, key hints, help box) and the panel for the ruleset's
//! own view, [`synergy`] for synergy and [`generic`] for every other ruleset.
//!
//! Drawing reads a [`Screen`] and nothing else, so tests render it to a `TestBackend`.

pub mod generic;
pub mod synergy;

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::keys::{HELP_LINES, KEY_HINTS};
use super::reconnect::Link;
use crate::ViewTracker;

/// Everything one frame shows.
#[derive(Debug, Clone, Copy)]
pub struct Screen<'a> {
    /// The battle as currently known.
    pub tracker: &'a ViewTracker,
    /// The connection indicator.
    pub link: &'a Link,
    /// The last thing worth telling the person (a refusal, a server error, a notice).
    pub status: &'a str,
    /// Whether the help box is open.
    pub show_help: bool,
}

/// Draw `screen` over the whole frame.
pub fn draw(frame: &mut Frame, screen: &Screen) {
    let [header, body, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(5),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    draw_header(frame, header, screen);
    let view = screen.tracker.view();
    match view {
        None => frame.render_widget(Paragraph::new("waiting for the battle's view..."), body),
        Some(v) if v["game"].is_null() => frame.render_widget(
            Paragraph::new(
                "waiting for players: the battle starts when every seat is taken \
                 (each player brings their own setup, such as a deck)",
            )
            .wrap(Wrap { trim: true }),
            body,
        ),
        Some(v) if v["ruleset"] == "synergy" => synergy::draw(frame, body, screen.tracker),
        Some(_) => generic::draw(frame, body, screen.tracker),
    }
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("» ", Style::new().fg(Color::Yellow)),
            Span::raw(screen.status),
        ])),
        status,
    );
    let hints = if screen.tracker.is_over() {
        "battle over · ? help · q quit"
    } else if screen.tracker.seat().is_some() {
        KEY_HINTS
    } else {
        "spectating (read-only) · ? help · q quit"
    };
    frame.render_widget(
        Paragraph::new(hints).style(Style::new().add_modifier(Modifier::DIM)),
        keys,
    );
    if screen.show_help {
        draw_help(frame, frame.area());
    }
}

fn draw_header(frame: &mut Frame, area: Rect, screen: &Screen) {
    let t = screen.tracker;
    let ruleset = t
        .view()
        .and_then(|v| v["ruleset"].as_str())
        .unwrap_or("?")
        .to_owned();
    let role = match t.seat() {
        Some(seat) => format!("seat {seat}"),
        None => "spectator".to_owned(),
    };
    let (dot, color) = match screen.link {
        Link::Connected => ("●", Color::Green),
        Link::Reconnecting { .. } => ("◌", Color::Yellow),
        Link::Failed(_) => ("✕", Color::Red),
    };
    let indicator = format!("{dot} {}", screen.link.label());
    let [left, right] = Layout::horizontal([
        Constraint::Min(10),
        Constraint::Length(indicator.chars().count() as u16 + 1),
    ])
    .areas(area);
    let title = format!("battle {} · {ruleset} · {role}", t.battle_id());
    frame.render_widget(
        Paragraph::new(title).style(Style::new().add_modifier(Modifier::BOLD)),
        left,
    );
    frame.render_widget(
        Paragraph::new(indicator).style(Style::new().fg(color)),
        right,
    );
}

fn draw_help(frame: &mut Frame, area: Rect) {
    let width = HELP_LINES.iter().map(|l| l.len()).max().unwrap_or(40) as u16 + 4;
    let [area] = Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(area);
    let [area] = Layout::vertical([Constraint::Length(HELP_LINES.len() as u16 + 2)])
        .flex(Flex::Center)
        .areas(area);
    frame.render_widget(Clear, area);
    let lines: Vec<Line> = HELP_LINES.iter().map(|l| Line::raw(*l)).collect();
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" help (? closes) ")),
        area,
    );
}

/// The last `height` screen lines of the battle log (newest at the bottom), each entry
/// wrapped at word boundaries to `width` columns.
pub fn log_tail(log: &[serde_json::Value], height: usize, width: usize) -> Vec<Line<'static>> {
    let mut lines: Vec<String> = Vec::new();
    // Only the newest entries can be visible: each takes at least one line.
    let start = log.len().saturating_sub(height);
    for entry in &log[start..] {
        wrap(
            entry.as_str().unwrap_or_default(),
            width.max(10),
            &mut lines,
        );
    }
    let first = lines.len().saturating_sub(height);
    lines.drain(first..).map(Line::raw).collect()
}

/// Word-wrap `text` to `width` columns (a word longer than a line is cut).
fn wrap(text: &str, width: usize, out: &mut Vec<String>) {
    let mut line = String::new();
    for word in text.split_whitespace() {
        let needed = if line.is_empty() { 0 } else { 1 } + word.chars().count();
        if !line.is_empty() && line.chars().count() + needed > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let cut: String = line.chars().take(width).collect();
            line = line.chars().skip(width).collect();
            out.push(cut);
        }
    }
    out.push(line);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_words() {
        let mut out = Vec::new();
        wrap("one two three four", 9, &mut out);
        assert_eq!(out, vec!["one two", "three", "four"]);
        let log = [serde_json::json!("a b"), serde_json::json!("c d e f")];
        let tail: Vec<String> = log_tail(&log, 2, 10)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert_eq!(tail, vec!["a b", "c d e f"]);
    }
}
