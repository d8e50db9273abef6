//! The generic panel, for rulesets without a panel of their own: the envelope (status, whose
//! decision is awaited, what this seat is asked, the legal actions to choose from with the
//! picker, an open one filled in its form) and the ruleset's `game` view as an indented
//! key/value tree, so a new ruleset is playable and watchable on day one.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::picker::{picker_lines, plain_words};
use super::Screen;
use crate::outcome::result_lines;

/// Draw the generic panel into `area`.
pub fn draw(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let tracker = screen.tracker;
    let Some(view) = tracker.view() else {
        return;
    };
    let result = result_lines(tracker);
    let (picked, cursor) = picker_lines(screen, &plain_words());
    let [envelope, game] = Layout::vertical([
        Constraint::Length(
            u16::try_from(picked.len() + result.len())
                .unwrap_or(u16::MAX)
                .saturating_add(5),
        ),
        Constraint::Min(3),
    ])
    .areas(area);
    let mut lines = vec![Line::raw(format!(
        "status {} · to act {}{}",
        view["status"].as_str().unwrap_or("?"),
        view["to_act"],
        if screen.my_move() {
            " · your move"
        } else {
            ""
        }
    ))];
    lines.extend(result.iter().map(|l| Line::raw(l.clone())));
    if let Some(text) = view["prompt"]["text"].as_str() {
        lines.push(Line::raw(format!("asked: {text}")));
    }
    let cursor = cursor + lines.len();
    lines.extend(picked);
    let inside = usize::from(envelope.height.saturating_sub(2)).max(1);
    let scroll = u16::try_from(cursor.saturating_sub(inside - 1)).unwrap_or(u16::MAX);
    frame.render_widget(
        Paragraph::new(lines)
            .scroll((scroll, 0))
            .block(Block::bordered().title(" battle ")),
        envelope,
    );
    let mut tree = Vec::new();
    key_value_tree(&view["game"], 0, &mut tree);
    frame.render_widget(
        Paragraph::new(tree.into_iter().map(Line::raw).collect::<Vec<_>>())
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" game ")),
        game,
    );
}

/// `value` as indented `key: value` lines; arrays of scalars stay on one line.
pub fn key_value_tree(value: &Value, depth: usize, out: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if is_leaf(v) {
                    out.push(format!("{pad}{key}: {}", leaf(v)));
                } else {
                    out.push(format!("{pad}{key}:"));
                    key_value_tree(v, depth + 1, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                if is_leaf(v) {
                    out.push(format!("{pad}- {}", leaf(v)));
                } else {
                    out.push(format!("{pad}- [{i}]"));
                    key_value_tree(v, depth + 1, out);
                }
            }
        }
        other => out.push(format!("{pad}{}", leaf(other))),
    }
}

fn is_leaf(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.iter().all(|x| !x.is_object() && !x.is_array()),
        _ => true,
    }
}

fn leaf(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tree_is_indented() {
        let mut out = Vec::new();
        key_value_tree(
            &json!({"a": 1, "b": {"c": [1, 2]}, "d": [{"e": "x"}]}),
            0,
            &mut out,
        );
        assert_eq!(
            out,
            vec!["a: 1", "b:", "  c: [1,2]", "d:", "  - [0]", "    e: x"]
        );
    }
}
