//! The lore panel (a two-player lore-race card game): a line with the turn, whose turn it
//! is, the phase and whose decision is awaited in words; both players side by side (lore
//! out of 20 with a bar, ink ready of total, hand, deck and discard counts, the inkwell's
//! cards for their owner alone) each over the cards they have in play (characters with
//! strength/willpower and lore, damage, exerted and drying marks; items; locations with
//! their lore a turn); the viewer's hand with what each card does (each card keeping its
//! number through the turn); the bag when it holds
//! triggers, in the order they triggered; what is asked now with the legal actions
//! numbered for the digit keys; the result at the end; and the log (newest at the bottom,
//! scrollable).
//!
//! Only what the view holds is drawn: the other seat's hand and inkwell are counts, and a
//! spectator sees no hand and no inkwell card at all.

mod boxes;
mod words;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::draw_hand;
use super::picker::{draw_now_box, picker_lines, rows, wrapped_rows, Words};
use super::{draw_log_box, draw_result_box, move_marker, verdict_color, Screen};
use crate::outcome::result_lines;
use crate::presence::seat_name;
use boxes::{bag_lines, draw_bag, draw_side, hand_lines, side_lines};
use words::{action_line, decision, field_label, phase_name, seat_of, value_name};

/// A legal entry in lore's words (see [`words::action_line`]).
pub(crate) fn action_words(view: &Value, me: Option<usize>, entry: &Value) -> String {
    action_line(view, me, entry)
}

/// Draw the lore panel into `area`.
pub fn draw(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let tracker = screen.tracker;
    let Some(view) = tracker.view() else {
        return;
    };
    let game = &view["game"];
    let me = tracker.seat();
    // Both columns are half the width, less their borders.
    let inner = usize::from((area.width / 2).saturating_sub(2));
    let sides: Vec<Vec<Line<'_>>> = (0..2).map(|seat| side_lines(game, seat)).collect();
    let side_rows = sides
        .iter()
        .map(|lines| wrapped_rows(lines, inner))
        .max()
        .unwrap_or(0);
    let hand = hand_lines(view, me, screen.hand);
    let bag = bag_lines(view, me);
    let (asked, cursor_line) = asked_lines(view, screen);
    let hand_rows = wrapped_rows(&hand, inner) + 2;
    let bag_rows = if bag.is_empty() {
        0
    } else {
        wrapped_rows(&bag, inner) + 2
    };
    let now_rows = if tracker.is_over() {
        // The result, and the line saying how to leave.
        let result: Vec<Line<'_>> = result_text(screen).into_iter().map(Line::raw).collect();
        wrapped_rows(&result, inner) + 1 + 2
    } else {
        wrapped_rows(&asked, inner) + 2
    };
    let top_text = top_line(view, screen);
    let top_rows = wrapped_rows(std::slice::from_ref(&top_text), usize::from(area.width));
    let [top, sides_area, middle, log] = Layout::vertical([
        Constraint::Length(rows(top_rows.min(2))),
        Constraint::Length(rows(side_rows + 2)),
        Constraint::Length(rows(super::room_for(
            area.height,
            top_rows.min(2) + side_rows + 2,
            hand_rows.max(bag_rows + now_rows),
        ))),
        Constraint::Min(3),
    ])
    .areas(area);

    frame.render_widget(Paragraph::new(top_text).wrap(Wrap { trim: true }), top);

    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(sides_area);
    for ((seat, rect), lines) in [(0usize, left), (1usize, right)].into_iter().zip(sides) {
        draw_side(frame, rect, view, seat, me, lines);
    }

    let [hand_area, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(middle);
    draw_hand(frame, hand_area, view, me, hand);
    let [bag_area, now_area] =
        Layout::vertical([Constraint::Length(rows(bag_rows)), Constraint::Min(3)]).areas(right);
    if !bag.is_empty() {
        draw_bag(frame, bag_area, view, bag);
    }
    if tracker.is_over() {
        draw_result(frame, now_area, screen);
    } else {
        draw_now_box(frame, now_area, screen, asked, cursor_line);
    }

    draw_log_box(frame, log, game, screen, "↑");
}

/// `Turn 9 · Player 2's turn (yours) · main phase · Player 1 resolves a trigger from the
/// bag`, or `Setup · Player 1 goes first · Player 1 chooses cards to put back (mulligan)`,
/// with the move marker. "(yours)" is left out while the marker says so.
fn top_line(view: &Value, screen: &Screen<'_>) -> Line<'static> {
    let game = &view["game"];
    let me = screen.tracker.seat();
    let over = screen.tracker.is_over() || game["phase"] == "over";
    let setup = game["phase"] == "mulligan";
    let turn = match game["turn"].as_u64() {
        _ if setup => "Setup · ".to_owned(),
        Some(n) => format!("Turn {n} · "),
        None => String::new(),
    };
    let whose = match seat_of(&game["active"]) {
        _ if over => "game over".to_owned(),
        Some(seat) if setup => format!("{} goes first", seat_name(view, seat)),
        Some(seat) if me == Some(seat) && !screen.my_move() => {
            format!("{}'s turn (yours)", seat_name(view, seat))
        }
        Some(seat) => format!("{}'s turn", seat_name(view, seat)),
        None => "?".to_owned(),
    };
    let mut spans = vec![
        Span::raw(turn),
        Span::styled(whose, Style::new().add_modifier(Modifier::BOLD)),
    ];
    if setup {
        spans.push(Span::raw(format!(" · {}", decision(view))));
    } else if !over {
        spans.push(Span::raw(format!(
            " · {} · {}",
            phase_name(game),
            decision(view)
        )));
    }
    spans.extend(move_marker(screen));
    Line::from(spans)
}

/// What is asked now (the prompt, else the decision in words) and the legal actions to
/// choose from (or the open one being filled), with the line the cursor is on.
fn asked_lines(view: &Value, screen: &Screen<'_>) -> (Vec<Line<'static>>, usize) {
    let asked = view["prompt"]["text"]
        .as_str()
        .map_or_else(|| format!("Waiting: {}.", decision(view)), str::to_owned);
    let mut lines = vec![Line::styled(
        asked,
        Style::new().add_modifier(Modifier::BOLD),
    )];
    let me = screen.tracker.seat();
    if me.is_none() {
        lines.push(Line::raw(
            "Spectating: both sides' public state, no hand or inkwell card.",
        ));
        return (lines, 0);
    }
    let entry = |e: &Value| action_line(view, me, e);
    let value = |v: &Value| value_name(view, me, v);
    let label = |e: &Value, f: &crate::form::Field| field_label(e, &f.name, f.item);
    let words = Words {
        entry: &entry,
        value: &value,
        label: &label,
    };
    let (picked, cursor) = picker_lines(screen, &words);
    let cursor = cursor + lines.len();
    lines.extend(picked);
    (lines, cursor)
}

/// The result's lines for the viewer (never empty).
fn result_text(screen: &Screen<'_>) -> Vec<String> {
    let mut lines = result_lines(screen.tracker);
    if lines.is_empty() {
        lines.push("The battle is over.".to_owned());
    }
    lines
}

/// The result box, coloured for the viewer.
fn draw_result(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let color = verdict_color(screen.tracker);
    draw_result_box(frame, area, result_text(screen), color);
}
