//! Drawing the legal-action [`Picker`]: the legal entries numbered, the one under the cursor
//! marked, and while an open entry is being filled its fields, each with the values it may
//! take (the chosen one marked, a list's picks numbered in the order chosen). A panel gives
//! the words for entries, values and fields ([`Words`]); [`plain_words`] serves any ruleset.
//! [`draw_now_box`] draws them in a panel's "now" box, scrolled to keep the cursor in sight;
//! [`wrapped_rows`] and [`rows`] size the boxes of a panel.

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::Screen;
use crate::form::{needs_choice, shown, Choice, Field, Form};
use crate::picker::Picker;
use battle_client::fill;

/// How a panel names what the picker shows.
pub struct Words<'a> {
    /// A legal entry in words.
    pub entry: &'a dyn Fn(&Value) -> String,
    /// A value of a field (a card id, a target, `null`).
    pub value: &'a dyn Fn(&Value) -> String,
    /// A field's label, given the entry it belongs to.
    pub label: &'a dyn Fn(&Value, &Field) -> String,
}

/// A value as text: strings without quotes, `null` as "none".
pub fn plain_value(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "none".to_owned(),
        other => other.to_string(),
    }
}

/// A field's label: its member name, with the item's number in a list.
pub fn plain_label(_entry: &Value, field: &Field) -> String {
    match field.item {
        Some(i) => format!("{} {}", field.name, i + 1),
        None => field.name.clone(),
    }
}

/// Words for any ruleset: [`fill::describe`], [`plain_value`], [`plain_label`].
pub fn plain_words() -> Words<'static> {
    Words {
        entry: &fill::describe,
        value: &plain_value,
        label: &plain_label,
    }
}

/// The screen rows `lines` take when word-wrapped to `width` columns.
pub fn wrapped_rows(lines: &[Line<'_>], width: usize) -> usize {
    let width = width.max(1);
    lines
        .iter()
        .map(|line| {
            let (mut rows, mut used) = (1, 0);
            for word in line.to_string().split(' ') {
                let len = word.chars().count();
                let needed = if used == 0 { len } else { used + 1 + len };
                if needed <= width {
                    used = needed;
                } else if used == 0 {
                    rows += (len - 1) / width;
                    used = (len - 1) % width + 1;
                } else {
                    rows += 1 + len.saturating_sub(1) / width;
                    used = len.saturating_sub(1) % width + 1;
                }
            }
            rows
        })
        .sum()
}

/// A row count as a layout length.
pub fn rows(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// The "now" box: `lines` (what is asked, then the picker's), word-wrapped, bordered in
/// cyan while this client may move, scrolled so that line `cursor_line` stays in sight when
/// the box is shorter than the list.
pub fn draw_now_box(
    frame: &mut Frame<'_>,
    area: Rect,
    screen: &Screen<'_>,
    lines: Vec<Line<'static>>,
    cursor_line: usize,
) {
    let style = if screen.my_move() {
        Style::new().fg(Color::Cyan)
    } else {
        Style::new()
    };
    let width = usize::from(area.width.saturating_sub(2));
    let before = wrapped_rows(&lines[..cursor_line.min(lines.len())], width);
    let inside = usize::from(area.height.saturating_sub(2)).max(1);
    let scroll = rows((before + 1).saturating_sub(inside));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0))
            .block(Block::bordered().title(" now ").border_style(style)),
        area,
    );
}

/// The picker's lines for `screen`'s seat, and the line the cursor is on (for scrolling).
/// A spectator, or a seat with nothing legal, gets one line saying so.
pub fn picker_lines(screen: &Screen<'_>, words: &Words<'_>) -> (Vec<Line<'static>>, usize) {
    let default = Picker::default();
    let picker = screen.picker.unwrap_or(&default);
    let legal = screen.tracker.legal_actions();
    if screen.tracker.seat().is_none() {
        return (vec![Line::raw("Spectating: nothing to choose.")], 0);
    }
    if legal.is_empty() {
        return (vec![Line::raw("Nothing for you to do now.")], 0);
    }
    if let Some(form) = &picker.form {
        return form_lines(form, words);
    }
    let dim = Style::new().add_modifier(Modifier::DIM);
    let mut lines = vec![Line::styled(format!("{}:", act_keys(legal)), dim)];
    let cursor = picker.cursor.min(legal.len() - 1);
    for (i, entry) in legal.iter().enumerate() {
        let open = if needs_choice(entry) { " …" } else { "" };
        let text = format!("[{}] {}{open}", i + 1, (words.entry)(&shown(entry)));
        lines.push(if i == cursor {
            Line::styled(
                format!("▸{text}"),
                Style::new().add_modifier(Modifier::REVERSED),
            )
        } else {
            Line::raw(format!(" {text}"))
        });
    }
    (lines, cursor + 1)
}

/// The digit keys that take one of `legal` directly: "1", "1-4", or "1-9" for longer lists.
pub fn digit_keys(legal: &[Value]) -> String {
    match legal.len() {
        0 | 1 => "1".to_owned(),
        n => format!("1-{}", n.min(9)),
    }
}

/// The word `e` has among `legal`: "ends the turn", "passes the turn" (lore), or `None` when
/// neither is legal now.
pub fn end_key(legal: &[Value]) -> Option<&'static str> {
    if legal.iter().any(|a| a["kind"] == "pass_turn") {
        Some("passes the turn")
    } else if legal.iter().any(|a| a["kind"] == "end_turn") {
        Some("ends the turn")
    } else {
        None
    }
}

/// How to act on `legal`, naming only the keys that apply: "↑↓ and Enter, or 1-4, to act;
/// e ends the turn" ("Enter or 1 to act" for a single entry).
pub fn act_keys(legal: &[Value]) -> String {
    let mut words = if legal.len() == 1 {
        "Enter or 1 to act".to_owned()
    } else {
        format!("↑↓ and Enter, or {}, to act", digit_keys(legal))
    };
    if let Some(end) = end_key(legal) {
        words.push_str(&format!("; e {end}"));
    }
    words
}

/// The form's lines: the entry, each field with a choice to make and its values, then how
/// to send (fields with one possible value are filled without showing).
fn form_lines(form: &Form, words: &Words<'_>) -> (Vec<Line<'static>>, usize) {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::styled(
        format!("Choosing: {}", (words.entry)(&form.entry)),
        bold,
    )];
    let mut at_line = 0;
    for (i, field) in form.open_fields() {
        let here = i == form.at;
        if here {
            at_line = lines.len();
        }
        let marker = if here { "▸ " } else { "  " };
        let mut spans = vec![Span::styled(
            format!("{marker}{}: ", (words.label)(&form.entry, field)),
            if here { bold } else { Style::new() },
        )];
        spans.extend(choice_spans(&field.choice, here, words));
        lines.push(Line::from(spans));
    }
    let digits = |options: &[Value]| digit_keys(options);
    let hint = match &form.field().choice {
        Choice::One { options, .. } => format!("←→ or {} choose", digits(options)),
        Choice::Number { .. } => "←→ or 0-9 set the number".to_owned(),
        Choice::Many { options, .. } => format!(
            "{} (or ←→ and space) choose in order, again to take back",
            digits(options)
        ),
    };
    let more = if form.open_fields().count() > 1 {
        " · ↑↓ field"
    } else {
        ""
    };
    lines.push(Line::styled(
        format!("{hint}{more} · Enter sends · Esc goes back"),
        Style::new().add_modifier(Modifier::DIM),
    ));
    (lines, at_line)
}

/// A field's values: numbered options with the chosen ones marked.
fn choice_spans(choice: &Choice, here: bool, words: &Words<'_>) -> Vec<Span<'static>> {
    let picked = Style::new().add_modifier(Modifier::REVERSED);
    let under = Style::new().add_modifier(Modifier::UNDERLINED);
    match choice {
        Choice::One { options, chosen } => options
            .iter()
            .enumerate()
            .flat_map(|(i, option)| {
                let text = format!("{}.{}", i + 1, (words.value)(option));
                // Brackets as well as the colour, for terminals (and logs) without styles.
                let span = if i == *chosen {
                    Span::styled(format!("[{text}]"), picked)
                } else {
                    Span::raw(text)
                };
                [span, Span::raw(" ")]
            })
            .collect(),
        Choice::Number { min, max, value } => vec![
            Span::styled(format!("[{value}]"), picked),
            Span::raw(format!(" ({min} to {max})")),
        ],
        Choice::Many {
            options,
            chosen,
            cursor,
            min,
            max,
        } => {
            let mut spans: Vec<Span<'_>> = options
                .iter()
                .enumerate()
                .flat_map(|(i, option)| {
                    let order = chosen.iter().position(|&c| c == i);
                    let mark = order.map_or(String::new(), |o| format!("({})", o + 1));
                    let text = format!("{}.{}{mark}", i + 1, (words.value)(option));
                    let style = match (order.is_some(), here && i == *cursor) {
                        (true, true) => picked.add_modifier(Modifier::UNDERLINED),
                        (true, false) => picked,
                        (false, true) => under,
                        (false, false) => Style::new(),
                    };
                    [Span::styled(text, style), Span::raw(" ")]
                })
                .collect();
            let range = if min == max {
                format!("[{min}]")
            } else {
                format!("[{min} to {max}]")
            };
            spans.push(Span::raw(range));
            spans
        }
    }
}
