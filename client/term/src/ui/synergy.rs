//! The synergy panel: both sides (HP bar, block, energy, score, turn multiplier, this turn's
//! sigil counters, hand/draw/discard counts, whether the player is away), the viewer's hand as
//! cards with what each does and its synergy flag (numbered for the digit keys, each card
//! keeping its number through the turn, its text wrapped to the screen), whose turn it is,
//! the log (newest at the bottom, scrollable) and, once the battle is over, the result told to
//! the viewer with where each final score comes from.
//!
//! Only what the view holds is drawn: a hidden hand has no `hand` array, just a count.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::picker::{rows, wrapped_rows};
use super::{draw_result_box, move_marker, verdict_color, Screen};
use crate::hand::numbered;
use crate::outcome::result_lines;
use crate::presence::{presence, seat_name, Presence};
use battle_client::ViewTracker;

/// The sigils in the order the counters are shown.
const SIGILS: [&str; 4] = ["Flame", "Leaf", "Gear", "Void"];

/// Characters in an HP bar.
const BAR_WIDTH: usize = 20;

/// Draw the synergy panel into `area`.
pub fn draw(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let tracker = screen.tracker;
    let Some(view) = tracker.view() else {
        return;
    };
    let game = &view["game"];
    let me = tracker.seat();
    let over = tracker.is_over();
    let hand = match me {
        Some(seat) if !over => Some(hand_lines(&game["sides"][seat], screen)),
        _ => None,
    };
    let inner = usize::from(area.width.saturating_sub(2));
    let hand_rows = match (over, &hand) {
        (true, _) => 6,
        (false, Some(lines)) => wrapped_rows(lines, inner),
        (false, None) => 1,
    };
    let [turn, sides, hand_area, log] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(7),
        Constraint::Length(rows(super::room_for(area.height, 8, hand_rows.max(1) + 2))),
        Constraint::Min(3),
    ])
    .areas(area);

    frame.render_widget(Paragraph::new(turn_line(view, screen)), turn);

    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(sides);
    for (seat, rect) in [(0usize, left), (1usize, right)] {
        draw_side(
            frame,
            rect,
            &game["sides"][seat],
            (&seat_name(view, seat), presence(view, seat)),
            me == Some(seat),
            game["active"] == seat,
        );
    }

    if over {
        draw_result(frame, hand_area, tracker);
    } else if let Some(lines) = hand {
        frame.render_widget(
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(" your hand ")),
            hand_area,
        );
    } else {
        let counts: Vec<String> = (0..2)
            .map(|s| {
                let side = &game["sides"][s];
                format!("{} holds {} cards", seat_name(view, s), side["hand_count"])
            })
            .collect();
        frame.render_widget(
            Paragraph::new(format!(
                "Hands are hidden from spectators: {}.",
                counts.join(", ")
            ))
            .block(Block::bordered().title(" hands ")),
            hand_area,
        );
    }

    super::draw_log_box(frame, log, game, screen, "↑");
}

fn turn_line(view: &Value, screen: &Screen<'_>) -> Line<'static> {
    let tracker = screen.tracker;
    let game = &view["game"];
    let whose = match game["active"].as_u64() {
        _ if tracker.is_over() => "battle over".to_owned(),
        Some(seat) => {
            let name = seat_name(view, seat as usize);
            if tracker.seat() == Some(seat as usize) {
                format!("{name}'s turn (yours)")
            } else {
                format!("{name}'s turn")
            }
        }
        None => "between turns".to_owned(),
    };
    let mut spans = vec![
        Span::raw(format!(
            "Round {}/{} · ",
            game["round"], game["round_limit"]
        )),
        Span::styled(whose, Style::new().add_modifier(Modifier::BOLD)),
    ];
    spans.extend(move_marker(screen));
    Line::from(spans)
}

/// One side's box, titled with its holder's name (`name`, `held`); `mine` for the viewer's.
fn draw_side(
    frame: &mut Frame<'_>,
    area: Rect,
    side: &Value,
    (name, held): (&str, Option<Presence>),
    mine: bool,
    active: bool,
) {
    let you = if mine { " (you)" } else { "" };
    let marker = if active { "▶ " } else { "" };
    let held = match held {
        Some(Presence::Away) if !mine => " · away (disconnected)",
        Some(Presence::Bot) => " · bot",
        _ => "",
    };
    let title = format!(" {marker}{name}{you}{held} ");
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

/// The viewer's hand, one card a line (wrapped on a narrow screen): its number for the digit
/// keys (kept through the turn), name, sigil, type and cost, what it does, and whether its
/// synergy would trigger now.
fn hand_lines(side: &Value, screen: &Screen<'_>) -> Vec<Line<'static>> {
    let cards = side["hand"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if cards.is_empty() {
        return vec![Line::raw("(no cards in hand)")];
    }
    numbered(cards, screen.hand)
        .into_iter()
        .map(|(n, card)| {
            let mut spans = vec![
                Span::styled(format!("[{n}] "), Style::new().add_modifier(Modifier::BOLD)),
                Span::raw(format!(
                    "{:<16} {:<5} {:<6} cost {}  ",
                    text(&card["name"]),
                    text(&card["sigil"]),
                    text(&card["type"]),
                    card["cost"],
                )),
                Span::raw(card["text"].as_str().unwrap_or_default().to_owned()),
            ];
            if card["synergy"] == true {
                spans.push(Span::styled(
                    "  ★ synergy now",
                    Style::new().fg(Color::Magenta),
                ));
            }
            Line::from(spans)
        })
        .collect()
}

/// The bottom line's keys for a seat: the hand's numbers and `e` while this client may play,
/// else only the keys that work while waiting.
pub fn key_hints(screen: &Screen<'_>) -> String {
    let hand = screen
        .tracker
        .view()
        .and_then(|view| crate::hand::hand_of(view, screen.tracker.seat()));
    let numbers: Vec<usize> = hand
        .map(|h| numbered(h, screen.hand).iter().map(|(n, _)| *n).collect())
        .unwrap_or_default();
    let contiguous = numbers.windows(2).all(|pair| pair[1] == pair[0] + 1);
    let digits = match (numbers.first(), numbers.last()) {
        (Some(first), Some(last)) if first != last && contiguous => {
            format!("{first}-{last} play card · ")
        }
        (Some(_), _) => {
            let listed: Vec<String> = numbers.iter().map(usize::to_string).collect();
            format!("{} play card · ", listed.join(","))
        }
        _ => String::new(),
    };
    if screen.my_move() {
        format!("{digits}e end turn · ↑↓ log · ? how to play · q quit")
    } else {
        "waiting for the other side · ↑↓ log · ? how to play · q quit".to_owned()
    }
}

fn draw_result(frame: &mut Frame<'_>, area: Rect, tracker: &ViewTracker) {
    let color = verdict_color(tracker);
    let mut lines = result_lines(tracker);
    if lines.is_empty() {
        lines.push("The battle is over.".to_owned());
    }
    draw_result_box(frame, area, lines, color);
}

/// A JSON string without quotes; other values as JSON.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "?".to_owned(),
        other => other.to_string(),
    }
}
