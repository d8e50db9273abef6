//! The synergy panel: both sides (HP bar, block, energy, score, turn multiplier, this turn's
//! sigil counters, hand/draw/discard counts), the viewer's hand as cards with their synergy
//! flag, the state machine's state and whose turn it is, the log (newest at the bottom) and,
//! once the battle is over, the result with the final score.
//!
//! Only what the view holds is drawn: a hidden hand has no `hand` array, just a count.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;
use serde_json::Value;

use super::log_tail;
use crate::ViewTracker;

/// The sigils in the order the counters are shown.
const SIGILS: [&str; 4] = ["Flame", "Leaf", "Gear", "Void"];

/// Characters in an HP bar.
const BAR_WIDTH: usize = 20;

/// Draw the synergy panel into `area`.
pub fn draw(frame: &mut Frame, area: Rect, tracker: &ViewTracker) {
    let Some(view) = tracker.view() else {
        return;
    };
    let game = &view["game"];
    let me = tracker.seat();
    let over = tracker.is_over();
    let hand_rows = match (over, me) {
        (true, _) => 4,
        (false, Some(seat)) => {
            let cards = game["sides"][seat]["hand"].as_array().map_or(1, Vec::len);
            u16::try_from(cards).unwrap_or(u16::MAX)
        }
        (false, None) => 1,
    };
    let [turn, sides, hand, log] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(7),
        Constraint::Length(hand_rows.max(1).saturating_add(2)),
        Constraint::Min(3),
    ])
    .areas(area);

    frame.render_widget(Paragraph::new(turn_line(view, tracker)), turn);

    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(sides);
    for (seat, rect) in [(0usize, left), (1usize, right)] {
        draw_side(
            frame,
            rect,
            &game["sides"][seat],
            seat,
            me,
            game["active"] == seat,
        );
    }

    if over {
        draw_result(frame, hand, view);
    } else if let Some(seat) = me {
        draw_hand(frame, hand, &game["sides"][seat]);
    } else {
        let counts: Vec<String> = (0..2)
            .map(|s| {
                let side = &game["sides"][s];
                format!("{} holds {} cards", text(&side["name"]), side["hand_count"])
            })
            .collect();
        frame.render_widget(
            Paragraph::new(format!(
                "Hands are hidden from spectators: {}.",
                counts.join(", ")
            ))
            .block(Block::bordered().title(" hands ")),
            hand,
        );
    }

    let entries = game["log"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let height = log.height.saturating_sub(2) as usize;
    let width = log.width.saturating_sub(2) as usize;
    frame.render_widget(
        Paragraph::new(log_tail(entries, height, width)).block(Block::bordered().title(" log ")),
        log,
    );
}

fn turn_line(view: &Value, tracker: &ViewTracker) -> Line<'static> {
    let game = &view["game"];
    let whose = match game["active"].as_u64() {
        _ if tracker.is_over() => "battle over".to_owned(),
        Some(seat) => {
            let name = text(&game["sides"][seat as usize]["name"]);
            if tracker.seat() == Some(seat as usize) {
                format!("{name}'s turn (yours)")
            } else {
                format!("{name}'s turn")
            }
        }
        None if view["status"] == "waiting" => "waiting for a second player".to_owned(),
        None => "nobody to act".to_owned(),
    };
    let mut spans = vec![
        Span::raw(format!(
            "Round {}/{} · state {} · ",
            game["round"],
            game["round_limit"],
            text(&game["state"])
        )),
        Span::styled(whose, Style::new().add_modifier(Modifier::BOLD)),
    ];
    if tracker.my_turn() {
        spans.push(Span::styled("  ← your move", Style::new().fg(Color::Green)));
    }
    Line::from(spans)
}

fn draw_side(
    frame: &mut Frame,
    area: Rect,
    side: &Value,
    seat: usize,
    me: Option<usize>,
    active: bool,
) {
    let you = if me == Some(seat) { " (you)" } else { "" };
    let marker = if active { "▶ " } else { "" };
    let title = format!(" {marker}{}{you} · seat {seat} ", text(&side["name"]));
    let max_hp = side["max_hp"].as_u64().unwrap_or(0).max(1);
    // Clamped so the arithmetic below cannot overflow, whatever the server sends.
    let hp = side["hp"].as_u64().unwrap_or(0).min(max_hp);
    let filled = (u128::from(hp) * BAR_WIDTH as u128).div_ceil(u128::from(max_hp)) as usize;
    let filled = filled.min(BAR_WIDTH);
    let color = match u128::from(hp) * 100 / u128::from(max_hp) {
        0..=25 => Color::Red,
        26..=50 => Color::Yellow,
        _ => Color::Green,
    };
    let sigils: Vec<String> = SIGILS
        .iter()
        .map(|s| format!("{s} {}", side["sigils"][*s]))
        .collect();
    let lines = vec![
        Line::from(vec![
            Span::raw("HP "),
            Span::styled("█".repeat(filled), Style::new().fg(color)),
            Span::styled(
                "░".repeat(BAR_WIDTH - filled),
                Style::new().fg(Color::DarkGray),
            ),
            Span::raw(format!(" {hp}/{max_hp}")),
        ]),
        Line::raw(format!(
            "Block {} · Energy {} · Score {}",
            side["block"], side["energy"], side["score"]
        )),
        Line::raw(format!(
            "Multiplier x{} · Focus {}",
            side["turn_multiplier"], side["focus"]
        )),
        Line::raw(format!("Sigils: {}", sigils.join(" "))),
        Line::raw(format!(
            "Hand {} · Draw {} · Discard {}",
            side["hand_count"], side["draw_count"], side["discard_count"]
        )),
    ];
    let style = if active {
        Style::new().fg(Color::Cyan)
    } else {
        Style::new()
    };
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title).border_style(style)),
        area,
    );
}

fn draw_hand(frame: &mut Frame, area: Rect, side: &Value) {
    let cards = side["hand"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let lines: Vec<Line> = if cards.is_empty() {
        vec![Line::raw("(no cards in hand)")]
    } else {
        cards
            .iter()
            .enumerate()
            .map(|(i, card)| {
                let mut spans = vec![
                    Span::styled(
                        format!("[{}] ", i + 1),
                        Style::new().add_modifier(Modifier::BOLD),
                    ),
                    Span::raw(format!(
                        "{:<16} cost {}  {:<5}  {:<6} value {:>2}",
                        text(&card["name"]),
                        card["cost"],
                        text(&card["sigil"]),
                        text(&card["type"]),
                        card["value"]
                    )),
                ];
                if card["synergy"] == true {
                    spans.push(Span::styled(
                        "  ★ synergy if played now",
                        Style::new().fg(Color::Magenta),
                    ));
                }
                Line::from(spans)
            })
            .collect()
    };
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" your hand ")),
        area,
    );
}

fn draw_result(frame: &mut Frame, area: Rect, view: &Value) {
    let game = &view["game"];
    let result = &game["result"];
    let summary = result["summary"]
        .as_str()
        .or_else(|| view["outcome"]["summary"].as_str())
        .unwrap_or("the battle is over");
    let winner = match view["outcome"]["winners"]
        .as_array()
        .and_then(|w| w.first())
    {
        Some(seat) => format!(
            "Winner: {}",
            text(&game["sides"][seat.as_u64().unwrap_or(0) as usize]["name"])
        ),
        None => "Result: a draw".to_owned(),
    };
    let scores: Vec<String> = (0..2)
        .map(|s| {
            let score = match result["final_scores"].get(s) {
                Some(v) => v.to_string(),
                None => game["sides"][s]["score"].to_string(),
            };
            format!("{} {score}", text(&game["sides"][s]["name"]))
        })
        .collect();
    let lines = vec![
        Line::styled(winner, Style::new().add_modifier(Modifier::BOLD)),
        Line::raw(format!("Final score: {}", scores.join(" · "))),
        Line::raw(summary.to_owned()),
        Line::raw("Press q to leave."),
    ];
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" battle over ")),
        area,
    );
}

/// A JSON string without quotes; other values as JSON.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "?".to_owned(),
        other => other.to_string(),
    }
}
