//! The synergy panel: both sides (HP bar, block, energy, score, turn multiplier, this turn's
//! sigil counters, hand/draw/discard counts, whether the player is away), the viewer's hand as
//! cards with what each does and its synergy flag, whose turn it is, the log (newest at the
//! bottom, scrollable) and, once the battle is over, the result told to the viewer with where
//! each final score comes from. [`rules_help`] is the game's part of the help box.
//!
//! Only what the view holds is drawn: a hidden hand has no `hand` array, just a count.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;
use serde_json::Value;

use super::{draw_result_box, move_marker, verdict_color, Screen};
use crate::term::outcome::result_lines;
use crate::term::presence::{presence, Presence};
use crate::ViewTracker;

/// The sigils in the order the counters are shown.
const SIGILS: [&str; 4] = ["Flame", "Leaf", "Gear", "Void"];

/// Characters in an HP bar.
const BAR_WIDTH: usize = 20;

/// Draw the synergy panel into `area`.
pub fn draw(frame: &mut Frame, area: Rect, screen: &Screen) {
    let tracker = screen.tracker;
    let Some(view) = tracker.view() else {
        return;
    };
    let game = &view["game"];
    let me = tracker.seat();
    let over = tracker.is_over();
    let hand_rows = match (over, me) {
        (true, _) => 6,
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

    frame.render_widget(Paragraph::new(turn_line(view, screen)), turn);

    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(sides);
    for (seat, rect) in [(0usize, left), (1usize, right)] {
        draw_side(
            frame,
            rect,
            &game["sides"][seat],
            (seat, presence(view, seat)),
            me,
            game["active"] == seat,
        );
    }

    if over {
        draw_result(frame, hand, tracker);
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

    super::draw_log_box(frame, log, game, screen, "↑");
}

fn turn_line(view: &Value, screen: &Screen) -> Line<'static> {
    let tracker = screen.tracker;
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

fn draw_side(
    frame: &mut Frame,
    area: Rect,
    side: &Value,
    (seat, held): (usize, Option<Presence>),
    me: Option<usize>,
    active: bool,
) {
    let you = if me == Some(seat) { " (you)" } else { "" };
    let marker = if active { "▶ " } else { "" };
    let held = match held {
        Some(Presence::Away) if me != Some(seat) => " · away (disconnected)",
        Some(Presence::Bot) => " · bot",
        _ => "",
    };
    let title = format!(" {marker}{}{you} · seat {seat}{held} ", text(&side["name"]));
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
    };
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" your hand ")),
        area,
    );
}

fn draw_result(frame: &mut Frame, area: Rect, tracker: &ViewTracker) {
    let color = verdict_color(tracker);
    let mut lines = result_lines(tracker);
    if lines.is_empty() {
        lines.push("The battle is over.".to_owned());
    }
    draw_result_box(frame, area, lines, color);
}

/// How synergy is played, for the help box: the turn, the sigils and their synergies, the
/// full spectrum, the scoring, and each card in the viewer's hand with what it does.
pub fn rules_help(tracker: &ViewTracker) -> Vec<String> {
    let mut lines: Vec<String> = [
        "How synergy plays",
        "Each turn you have 3 energy; every card costs 1. Bring the other side to 0 HP.",
        "Block absorbs damage first and is cleared at the start of its owner's turn.",
        "Synergy: the 2nd and later card of one sigil in a turn triggers that sigil's bonus:",
        "  Flame +3 damage on attacks · Leaf +3 block on block cards ·",
        "  Gear draws 1 more card · Void x1.5 score for that card.   ★ marks a card that would.",
        "Full spectrum: all four sigils in one turn gives +20 score and x2 score for the turn.",
        "Score: attack 10, skill 8 per card. At the end the winner gets +100, a side with",
        "40 HP or more +30; a side that is knocked out or defeated scores 0.",
    ]
    .iter()
    .map(|l| (*l).to_owned())
    .collect();
    let hand = tracker
        .seat()
        .and_then(|seat| tracker.view()?["game"]["sides"][seat]["hand"].as_array());
    if let Some(hand) = hand.filter(|h| !h.is_empty()) {
        lines.push("Your hand:".to_owned());
        for (i, card) in hand.iter().enumerate() {
            lines.push(format!(
                "  [{}] {} ({} {}): {}",
                i + 1,
                text(&card["name"]),
                text(&card["sigil"]),
                text(&card["type"]),
                text(&card["text"])
            ));
        }
    }
    lines
}

/// A JSON string without quotes; other values as JSON.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "?".to_owned(),
        other => other.to_string(),
    }
}
