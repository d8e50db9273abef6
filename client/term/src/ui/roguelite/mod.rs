//! The roguelite panel (one person's run of nine card battles through three depths against
//! enemies the engine plays): a top line with the depth, the battle, the stage in words and
//! whose phase it is with how many in a row; the round's phase queue; the player and the
//! enemy side by side ([`fighters`]: HP, AP with Armor Break, Guard, speed, energy, DEF%,
//! statuses with stacks and turns, the enemy's intent); the player's hand (or the reward on
//! offer between battles); what is asked now with the legal actions in the picker, or how
//! the enemy's phase runs by itself; the result at the end; and the log, where the enemy's
//! actions arrive one at a time at the battle's pace.
//!
//! Only what the view holds is drawn: the hand is the player's own seat's alone, and a
//! spectator sees its count.

mod fighters;
mod words;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::picker::{draw_now_box, picker_lines, rows, wrapped_rows, Words};
use super::{draw_log_box, draw_result_box, move_marker, verdict_color, Screen, LEAVE};
use crate::outcome::result_lines;
use crate::presence::seat_name;
use words::{
    action_line, card_effect, current_run, energy, field_label, num, pace, queue_words,
    reward_sort, stage_words, text, value_name,
};

/// A legal entry in roguelite's words (see [`words::action_line`]).
pub(crate) fn action_words(view: &Value, entry: &Value) -> String {
    action_line(&view["game"], &crate::form::shown(entry))
}

/// Draw the roguelite panel into `area`.
pub fn draw(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let tracker = screen.tracker;
    let Some(view) = tracker.view() else {
        return;
    };
    let game = &view["game"];
    let me = tracker.seat();
    // Both columns are half the width, less their borders.
    let inner = usize::from((area.width / 2).saturating_sub(2));
    let (player_title, player_lines) = fighters::player_box(view, me);
    let (enemy_title, enemy_lines) = fighters::enemy_box(game);
    let fighter_rows = wrapped_rows(&player_lines, inner).max(wrapped_rows(&enemy_lines, inner));
    let (cards_title, cards) = cards_lines(view, me);
    let (asked, cursor_line) = asked_lines(view, screen);
    let over = tracker.is_over();
    let result = result_text(screen);
    let right_rows = if over {
        // The result box adds its line on how to leave.
        let mut text: Vec<Line<'_>> = result.iter().cloned().map(Line::raw).collect();
        text.push(Line::raw(LEAVE));
        wrapped_rows(&text, inner)
    } else {
        wrapped_rows(&asked, inner)
    };
    let middle_rows = wrapped_rows(&cards, inner).max(right_rows) + 2;
    // The top lines wrap on a narrow terminal rather than lose the move marker.
    let (top_text, queue_text) = (top_line(view, screen), queue_line(view, me));
    let full = usize::from(area.width);
    let [top, queue, sides, middle, log] = Layout::vertical([
        Constraint::Length(rows(wrapped_rows(std::slice::from_ref(&top_text), full))),
        Constraint::Length(rows(wrapped_rows(std::slice::from_ref(&queue_text), full))),
        Constraint::Length(rows(fighter_rows + 2)),
        Constraint::Length(rows(super::room_for(
            area.height,
            fighter_rows + 2 + 2,
            middle_rows,
        ))),
        Constraint::Min(3),
    ])
    .areas(area);

    frame.render_widget(Paragraph::new(top_text).wrap(Wrap { trim: true }), top);
    frame.render_widget(Paragraph::new(queue_text).wrap(Wrap { trim: true }), queue);

    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(sides);
    let acting = fighters::acting(game);
    for (rect, title, lines, side) in [
        (left, player_title, player_lines, "player"),
        (right, enemy_title, enemy_lines, "enemy"),
    ] {
        let style = if acting == Some(side) {
            Style::new().fg(Color::Cyan)
        } else {
            Style::new()
        };
        frame.render_widget(
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(title).border_style(style)),
            rect,
        );
    }

    let [cards_area, asked_area] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(middle);
    frame.render_widget(
        Paragraph::new(cards)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(cards_title)),
        cards_area,
    );
    if over {
        draw_result_box(frame, asked_area, result, verdict_color(tracker));
    } else {
        draw_now_box(frame, asked_area, screen, asked, cursor_line);
    }

    draw_log_box(frame, log, game, screen, "↑");
}

/// `Depth 2/3, the Drowned Halls · Battle 5/9 · Your phase 2 (limit 30) · 1 phase in a row
/// ← your move`.
fn top_line(view: &Value, screen: &Screen<'_>) -> Line<'static> {
    let game = &view["game"];
    let me = screen.tracker.seat();
    let mut spans = vec![
        Span::raw(format!(
            "Depth {}/{}, {} · Battle {}/{} · ",
            game["depth"],
            game["depths"],
            text(&game["depth_name"]),
            game["battle"],
            game["battles"]
        )),
        Span::styled(
            stage_words(view, me),
            Style::new().add_modifier(Modifier::BOLD),
        ),
    ];
    if let (Some((_, phases)), Some(_)) = (current_run(game), fighters::acting(game)) {
        let plural = if phases == 1 { "" } else { "s" };
        spans.push(Span::raw(format!(" · {phases} phase{plural} in a row")));
    }
    spans.extend(move_marker(screen));
    Line::from(spans)
}

/// `Phase queue, round 1 (speed 52 against 30): ▶ you ×1 → Tide Golem ×1 → a new round`.
fn queue_line(view: &Value, me: Option<usize>) -> Line<'static> {
    let game = &view["game"];
    let speeds = if current_run(game).is_some() {
        format!(
            " (speed {} against {})",
            game["player"]["speed"], game["enemy"]["speed"]
        )
    } else {
        String::new()
    };
    Line::from(vec![
        Span::styled(
            format!("Phase queue, round {}{speeds}: ", game["round"]),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::raw(queue_words(view, me)),
    ])
}

/// The left box under the fighters, with its title: the reward on offer between battles;
/// the run's end; otherwise the hand (the viewer's own, each card with its cost and what it
/// does, those the energy cannot pay dimmed), or its count for a spectator. The pile counts
/// are in the player's box.
fn cards_lines(view: &Value, me: Option<usize>) -> (String, Vec<Line<'static>>) {
    let game = &view["game"];
    let p = &game["player"];
    let bold = Style::new().add_modifier(Modifier::BOLD);
    if game["stage"] == "over" {
        let lines = vec![
            Line::raw(format!(
                "Reached battle {} of {} ({}).",
                game["battle"],
                game["battles"],
                text(&game["depth_name"])
            )),
            Line::raw(format!(
                "Deck {} cards · {} · {} HP",
                p["deck_size"],
                text(&p["armor"]),
                p["hp"]
            )),
        ];
        return (" the run ".to_owned(), lines);
    }
    let offer = game["offer"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if game["stage"] == "reward" || !offer.is_empty() {
        let mut lines: Vec<Line<'_>> = offer
            .iter()
            .map(|reward| {
                let does = reward["text"]
                    .as_str()
                    .map(|t| format!(" {t}"))
                    .unwrap_or_default();
                Line::from(vec![
                    Span::styled(text(&reward["name"]), bold),
                    Span::raw(format!(": {}.{does}", reward_sort(&reward["sort"]))),
                ])
            })
            .collect();
        lines.push(Line::raw("Or skip: the next battle starts either way."));
        return (format!(" reward · battle {} won ", game["battle"]), lines);
    }
    let Some(hand) = p["hand"].as_array().filter(|_| me.is_some()) else {
        let lines = vec![
            Line::raw(format!(
                "{} holds {} cards.",
                seat_name(view, 0),
                p["hand_count"]
            )),
            Line::raw("Only the player sees them."),
        ];
        return (" hand (hidden) ".to_owned(), lines);
    };
    let left = num(&p["energy"]);
    let mut lines: Vec<Line<'_>> = hand
        .iter()
        .map(|card| {
            let affordable = num(&card["cost"]) <= left;
            let head = format!("{} · {}", text(&card["name"]), energy(&card["cost"]));
            let rest = if affordable {
                format!(": {}", card_effect(card))
            } else {
                format!(": {} (not enough energy)", card_effect(card))
            };
            let style = if affordable {
                Style::new()
            } else {
                Style::new().add_modifier(Modifier::DIM)
            };
            Line::from(vec![
                Span::styled(head, style.add_modifier(Modifier::BOLD)),
                Span::styled(rest, style),
            ])
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::raw(if game["stage"] == "playerPhase" {
            "(no cards left in hand)"
        } else {
            "(no cards: you draw 5 when your phase starts)"
        }));
    }
    let title = format!(" your hand · energy {}/{} ", p["energy"], p["max_energy"]);
    (title, lines)
}

/// What is asked now (the prompt, else what is going on), then the legal actions in the
/// picker for the player's seat (nothing for a spectator), with the line the cursor is on.
fn asked_lines(view: &Value, screen: &Screen<'_>) -> (Vec<Line<'static>>, usize) {
    let game = &view["game"];
    let me = screen.tracker.seat();
    let enemy = text(&game["enemy"]["name"]);
    let going_on = match game["stage"].as_str() {
        Some("enemyStart" | "enemyAct" | "enemyEnd") => format!(
            "{enemy}'s phase runs by itself: one action {}, each told in the log.",
            pace(game)
        ),
        Some("playerPhase") if me == Some(0) => "Play cards, then end the turn.".to_owned(),
        Some("playerPhase") => format!("{} plays cards, then ends the turn.", seat_name(view, 0)),
        Some("reward") if me == Some(0) => "Take a reward or skip it.".to_owned(),
        Some("reward") => format!("{} takes a reward or skips it.", seat_name(view, 0)),
        _ => "The run is over.".to_owned(),
    };
    let asked = view["prompt"]["text"]
        .as_str()
        .map_or(going_on, str::to_owned);
    let mut lines = vec![Line::styled(
        asked,
        Style::new().add_modifier(Modifier::BOLD),
    )];
    if me.is_none() {
        lines.push(Line::raw("Spectating: the run plays live."));
        return (lines, 0);
    }
    let entry = |e: &Value| action_line(game, e);
    let value = |v: &Value| value_name(game, v);
    let label = |_: &Value, f: &crate::form::Field| field_label(&f.name, f.item);
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

/// The result for the viewer ("You won the run.", "Player 1 lost the run.") then the
/// summary; empty while the run goes on.
fn result_text(screen: &Screen<'_>) -> Vec<String> {
    result_lines(screen.tracker)
}
