//! The heroes panel (a 1v1 hero card battler): a line with the round, whose turn it is and
//! whose decision is awaited in words; both heroes side by side (health, armor, mana, gold,
//! the class resource, level-up status, equipment, upgrades, card counts) each over its own
//! battlefield (every minion with attack/health, damage, tapped, summoning-sick, attacking
//! and blocking marks); the viewer's hand (each card keeping its number through the turn)
//! and the market; what is asked now with the combat in progress and the legal actions
//! numbered for the digit keys; the result at the end; and the log (newest at the bottom,
//! scrollable). Heroes, minions and cards are named, never numbered by id.
//!
//! Only what the view holds is drawn: the other seat's hand is a count, and a spectator sees
//! no hand at all.

mod words;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::picker::{draw_now_box, picker_lines, rows, wrapped_rows, Words};
use super::{draw_hand, draw_result_box, move_marker, verdict_color, Screen};
use crate::hand::{numbered, HandNumbers};
use crate::outcome::result_lines;
use crate::presence::{presence, seat_name, Presence};
use words::value_name;
use words::{action_line, combat_lines, decision, field_label, minion_line, text};

/// A legal entry in heroes' words (see [`words::action_line`]).
pub(crate) fn action_words(view: &Value, me: Option<usize>, entry: &Value) -> String {
    action_line(view, me, entry)
}

/// Lines a hero takes in its box above the battlefield.
const HERO_ROWS: usize = 5;

/// The equipment slots in the order the view lists them.
const SLOTS: [&str; 4] = ["weapon", "chest", "jewelry", "relic"];

/// Draw the heroes panel into `area`.
pub fn draw(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let tracker = screen.tracker;
    let Some(view) = tracker.view() else {
        return;
    };
    let game = &view["game"];
    let me = tracker.seat();
    let minions = game["minions"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let most = (0..2)
        .map(|seat| minions.iter().filter(|m| m["owner"] == seat).count())
        .max()
        .unwrap_or(0)
        .max(1);
    // Both columns of the middle row are half the width, less their borders.
    let inner = usize::from((area.width / 2).saturating_sub(2));
    let hand = hand_lines(view, me, screen.hand);
    let hand_rows = wrapped_rows(&hand, inner);
    let (asked, cursor_line) = asked_lines(view, screen);
    let market_rows = wrapped_rows(&market_lines(game), inner) + 2;
    let now_rows = if tracker.is_over() {
        let mut result: Vec<Line<'_>> = result_lines(tracker).into_iter().map(Line::raw).collect();
        result.push(Line::raw(super::LEAVE));
        wrapped_rows(&result, inner) + 2
    } else {
        wrapped_rows(&asked, inner) + 2
    };
    // The market goes under the hand or under the "now" box, wherever the row is shorter.
    let under_hand = (hand_rows + 2 + market_rows).max(now_rows);
    let under_now = (hand_rows + 2).max(now_rows + market_rows);
    let market_right = under_now < under_hand;
    let hero_rows = HERO_ROWS + 1 + most + 2;
    let middle_rows = super::room_for(area.height, 1 + hero_rows, under_hand.min(under_now));
    let [top, heroes, middle, log] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(rows(hero_rows)),
        Constraint::Length(rows(middle_rows)),
        Constraint::Min(3),
    ])
    .areas(area);

    frame.render_widget(Paragraph::new(top_line(view, screen)), top);

    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(heroes);
    for (seat, rect) in [(0usize, left), (1usize, right)] {
        draw_hero(frame, rect, view, seat, me);
    }

    let [cards, asked_column] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(middle);
    let (hand_area, asked_area, market) = if market_right {
        let [asked_area, market] =
            Layout::vertical([Constraint::Length(rows(now_rows)), Constraint::Min(3)])
                .areas(asked_column);
        (cards, asked_area, market)
    } else {
        let [hand_area, market] =
            Layout::vertical([Constraint::Length(rows(hand_rows + 2)), Constraint::Min(3)])
                .areas(cards);
        (hand_area, asked_column, market)
    };
    draw_hand(frame, hand_area, view, me, hand);
    draw_market(frame, market, game);
    if tracker.is_over() {
        draw_result(frame, asked_area, screen);
    } else {
        draw_now_box(frame, asked_area, screen, asked, cursor_line);
    }

    super::draw_log_box(frame, log, game, screen, "↑");
}

/// `Round 4 · Player 2's turn · Player 1 chooses blockers  ← your move`.
fn top_line(view: &Value, screen: &Screen<'_>) -> Line<'static> {
    let game = &view["game"];
    let me = screen.tracker.seat();
    let whose = match game["active"].as_u64() {
        _ if screen.tracker.is_over() || game["phase"] == "over" => "game over".to_owned(),
        Some(seat) if me == Some(seat as usize) => {
            format!("{}'s turn (yours)", seat_name(view, seat as usize))
        }
        Some(seat) => format!("{}'s turn", seat_name(view, seat as usize)),
        None => "before the first turn".to_owned(),
    };
    let mut spans = vec![
        Span::raw(format!("Round {} · ", game["round"])),
        Span::styled(whose, Style::new().add_modifier(Modifier::BOLD)),
    ];
    if !screen.tracker.is_over() {
        spans.push(Span::raw(format!(" · {}", decision(view))));
    }
    spans.extend(move_marker(screen));
    Line::from(spans)
}

/// One hero's box: the hero's numbers, then its battlefield.
fn draw_hero(frame: &mut Frame<'_>, area: Rect, view: &Value, seat: usize, me: Option<usize>) {
    let game = &view["game"];
    let side = &game["sides"][seat];
    let active = game["active"] == seat && game["phase"] != "over";
    let you = if me == Some(seat) { " (you)" } else { "" };
    let marker = if active { "▶ " } else { "" };
    let held = match presence(view, seat) {
        Some(Presence::Away) if me != Some(seat) => " · away",
        Some(Presence::Bot) => " · bot",
        _ => "",
    };
    let title = format!(
        " {marker}{}{you} · {}{held} ",
        seat_name(view, seat),
        text(&side["class"])
    );
    let level = match (side["levelled"] == true, side["level_progress"].as_array()) {
        (true, _) => format!("Levelled up ({})", text(&side["level_up"])),
        (false, Some(progress)) => format!(
            "Level up {}/{}: {}",
            progress[0],
            progress[1],
            text(&side["level_up"])
        ),
        (false, None) => format!("Level up: {}", text(&side["level_up"])),
    };
    let gear: Vec<String> = SLOTS
        .iter()
        .zip(side["equipment"].as_array().into_iter().flatten())
        .filter(|(_, item)| !item.is_null())
        .map(|(slot, item)| format!("{slot} {}", text(&item["name"])))
        .collect();
    let upgrades: Vec<String> = side["upgrades"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|id| id.replace('_', " "))
        .collect();
    let none = |list: Vec<String>| {
        if list.is_empty() {
            "none".to_owned()
        } else {
            list.join(" · ")
        }
    };
    let mut lines = vec![
        Line::raw(format!(
            "Health {}/{} · Armor {} · Mana {}/{} · Gold {}",
            side["health"],
            side["max_health"],
            side["armor"],
            side["mana"],
            side["max_mana"],
            side["gold"]
        )),
        Line::raw(format!(
            "{} {} · Hand {} · Deck {} · Discard {}{}",
            text(&side["resource_name"]),
            side["resource"],
            side["hand_count"],
            side["deck_count"],
            side["discard"].as_array().map_or(0, Vec::len),
            if game["phase"] == "mulligan" && side["mulliganed"] == true {
                " · mulligan done"
            } else {
                ""
            }
        )),
        Line::raw(level),
        Line::raw(format!("Equipment: {}", none(gear))),
        Line::raw(format!("Upgrades: {}", none(upgrades))),
        Line::styled("Battlefield:", Style::new().add_modifier(Modifier::BOLD)),
    ];
    let own: Vec<Line<'_>> = game["minions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["owner"] == seat)
        .map(|m| Line::raw(format!("  {}", minion_line(game, m))))
        .collect();
    if own.is_empty() {
        lines.push(Line::raw("  (no minions)"));
    }
    lines.extend(own);
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

/// The viewer's hand, numbered (each card keeping its number through the turn) with cost
/// and text; for a spectator, the hand counts.
fn hand_lines(
    view: &Value,
    me: Option<usize>,
    numbers: Option<&HandNumbers>,
) -> Vec<Line<'static>> {
    let game = &view["game"];
    let Some(seat) = me else {
        let counts: Vec<String> = (0..2)
            .map(|s| {
                format!(
                    "{} holds {}",
                    seat_name(view, s),
                    game["sides"][s]["hand_count"]
                )
            })
            .collect();
        return vec![Line::raw(format!("Hidden: {}.", counts.join(", ")))];
    };
    let cards = game["sides"][seat]["hand"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if cards.is_empty() {
        return vec![Line::raw("(no cards in hand)")];
    }
    numbered(cards, numbers)
        .into_iter()
        .map(|(n, card)| {
            Line::from(vec![
                Span::styled(
                    format!("{n}. {} ({})", text(&card["name"]), card["cost"]),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!(" {}", text(&card["text"]))),
            ])
        })
        .collect()
}

/// The market's five slots, each with its cost and what the item does (a bought slot stays
/// empty until the next refresh).
fn market_lines(game: &Value) -> Vec<Line<'static>> {
    game["market"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| {
            if item.is_null() {
                Line::raw("• (bought)")
            } else {
                Line::from(vec![
                    Span::styled(
                        format!("• {} · {} gold", text(&item["name"]), item["cost"]),
                        Style::new().add_modifier(Modifier::BOLD),
                    ),
                    Span::raw(format!(" {}", text(&item["text"]))),
                ])
            }
        })
        .collect()
}

/// The market box: its tier over [`market_lines`].
fn draw_market(frame: &mut Frame<'_>, area: Rect, game: &Value) {
    let title = format!(" market · {} tier ", text(&game["market_tier"]));
    frame.render_widget(
        Paragraph::new(market_lines(game))
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title)),
        area,
    );
}

/// What is asked now (the prompt, else the decision in words), the combat in progress and
/// the legal actions to choose from (or the open one being filled), with the line the
/// cursor is on.
fn asked_lines(view: &Value, screen: &Screen<'_>) -> (Vec<Line<'static>>, usize) {
    let game = &view["game"];
    let asked = view["prompt"]["text"]
        .as_str()
        .map_or_else(|| format!("Waiting: {}.", decision(view)), str::to_owned);
    let mut lines = vec![Line::styled(
        asked,
        Style::new().add_modifier(Modifier::BOLD),
    )];
    lines.extend(combat_lines(view).into_iter().map(Line::raw));
    let me = screen.tracker.seat();
    if me.is_none() {
        lines.push(Line::raw("Spectating: both sides' public state, no hand."));
        return (lines, 0);
    }
    let entry = |e: &Value| action_line(view, me, e);
    let value = |v: &Value| value_name(view, me, v);
    let label = |e: &Value, f: &crate::form::Field| field_label(game, e, &f.name, f.item);
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

/// The result box, coloured for the viewer.
fn draw_result(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let color = verdict_color(screen.tracker);
    let mut lines = result_lines(screen.tracker);
    if lines.is_empty() {
        lines.push("The battle is over.".to_owned());
    }
    draw_result_box(frame, area, lines, color);
}
