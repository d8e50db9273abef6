//! The heroes panel (a 1v1 hero card battler): a line with the round, whose turn it is and
//! whose decision is awaited in words; both heroes side by side (health, armor, mana, gold,
//! the class resource, level-up status, equipment, upgrades, card counts) each over its own
//! battlefield (every minion with attack/health, damage, tapped, summoning-sick, attacking
//! and blocking marks); the viewer's hand and the market; what is asked now with the combat
//! in progress and the legal actions numbered for the digit keys; the result at the end; and
//! the log (newest at the bottom, scrollable).
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

use super::{draw_result_box, move_marker, Screen};
use crate::term::outcome::{result_lines, verdict, Verdict};
use crate::term::presence::{presence, Presence};
use words::{action_line, combat_lines, decision, minion_line, player, text};

/// Lines a hero takes in its box above the battlefield.
const HERO_ROWS: usize = 5;

/// The equipment slots in the order the view lists them.
const SLOTS: [&str; 4] = ["weapon", "chest", "jewelry", "relic"];

/// Draw the heroes panel into `area`.
pub fn draw(frame: &mut Frame, area: Rect, screen: &Screen) {
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
    let hand_rows = wrapped_rows(&hand_lines(game, me), inner);
    let asked_rows = wrapped_rows(&asked_lines(view, screen), inner);
    let middle_rows = (hand_rows + 2 + 7).max(asked_rows + 2);
    let [top, heroes, middle, log] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(rows(HERO_ROWS + 1 + most + 2)),
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

    let [cards, asked] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(middle);
    let [hand, market] =
        Layout::vertical([Constraint::Length(rows(hand_rows + 2)), Constraint::Min(3)])
            .areas(cards);
    draw_hand(frame, hand, game, me);
    draw_market(frame, market, game);
    if tracker.is_over() {
        draw_result(frame, asked, screen);
    } else {
        let style = if screen.my_move() {
            Style::new().fg(Color::Cyan)
        } else {
            Style::new()
        };
        frame.render_widget(
            Paragraph::new(asked_lines(view, screen))
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(" now ").border_style(style)),
            asked,
        );
    }

    super::draw_log_box(frame, log, game, screen, "↑");
}

/// The screen rows `lines` take when word-wrapped to `width` columns.
fn wrapped_rows(lines: &[Line], width: usize) -> usize {
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
fn rows(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// `Round 4 · Player 2's turn · Player 1 chooses blockers  ← your move`.
fn top_line(view: &Value, screen: &Screen) -> Line<'static> {
    let game = &view["game"];
    let me = screen.tracker.seat();
    let whose = match game["active"].as_u64() {
        _ if screen.tracker.is_over() || game["phase"] == "over" => "game over".to_owned(),
        Some(seat) if me == Some(seat as usize) => {
            format!("{}'s turn (yours)", player(seat as usize))
        }
        Some(seat) => format!("{}'s turn", player(seat as usize)),
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
fn draw_hero(frame: &mut Frame, area: Rect, view: &Value, seat: usize, me: Option<usize>) {
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
        " {marker}{}{you} · {} · seat {seat}{held} ",
        player(seat),
        text(&side["class"])
    );
    let level = if side["levelled"] == true {
        "levelled up".to_owned()
    } else {
        format!("level up: {}", text(&side["level_up"]))
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
            "{} {} · {level}",
            text(&side["resource_name"]),
            side["resource"]
        )),
        Line::raw(format!("Equipment: {}", none(gear))),
        Line::raw(format!("Upgrades: {}", none(upgrades))),
        Line::raw(format!(
            "Hand {} · Deck {} · Discard {}{}",
            side["hand_count"],
            side["deck_count"],
            side["discard"].as_array().map_or(0, Vec::len),
            if game["phase"] == "mulligan" && side["mulliganed"] == true {
                " · mulligan done"
            } else {
                ""
            }
        )),
        Line::styled("Battlefield:", Style::new().add_modifier(Modifier::BOLD)),
    ];
    let own: Vec<Line> = game["minions"]
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

/// The viewer's hand, numbered with cost and text; for a spectator, the hand counts.
fn hand_lines(game: &Value, me: Option<usize>) -> Vec<Line<'static>> {
    let Some(seat) = me else {
        let counts: Vec<String> = (0..2)
            .map(|s| format!("{} holds {}", player(s), game["sides"][s]["hand_count"]))
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
    cards
        .iter()
        .enumerate()
        .map(|(i, card)| {
            Line::from(vec![
                Span::styled(
                    format!("{}. {} ({})", i + 1, text(&card["name"]), card["cost"]),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!(" {}", text(&card["text"]))),
            ])
        })
        .collect()
}

/// The hand box: [`hand_lines`] under a title with the other side's hand count.
fn draw_hand(frame: &mut Frame, area: Rect, game: &Value, me: Option<usize>) {
    let title = match me {
        Some(seat) => {
            let other = 1 - seat.min(1);
            format!(
                " your hand · {} holds {} ",
                player(other),
                game["sides"][other]["hand_count"]
            )
        }
        None => " hands ".to_owned(),
    };
    frame.render_widget(
        Paragraph::new(hand_lines(game, me))
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title)),
        area,
    );
}

/// The market: its tier and five slots (numbered as `buy` counts them, from 0) with cost:
/// names only, the half-width column has no room for what each item does.
fn draw_market(frame: &mut Frame, area: Rect, game: &Value) {
    let lines: Vec<Line> = game["market"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(slot, item)| {
            if item.is_null() {
                Line::raw(format!("{slot}. (bought)"))
            } else {
                Line::raw(format!(
                    "{slot}. {} · {} gold",
                    text(&item["name"]),
                    item["cost"]
                ))
            }
        })
        .collect();
    let title = format!(" market · {} tier ", text(&game["market_tier"]));
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        area,
    );
}

/// What is asked now (the prompt, else the decision in words), the combat in progress and
/// the legal actions numbered for the digit keys.
fn asked_lines(view: &Value, screen: &Screen) -> Vec<Line<'static>> {
    let game = &view["game"];
    let asked = view["prompt"]["text"]
        .as_str()
        .map_or_else(|| format!("Waiting: {}.", decision(view)), str::to_owned);
    let mut lines = vec![Line::styled(
        asked,
        Style::new().add_modifier(Modifier::BOLD),
    )];
    lines.extend(combat_lines(game).into_iter().map(Line::raw));
    let legal = screen.tracker.legal_actions();
    if screen.tracker.seat().is_none() {
        lines.push(Line::raw("Spectating: both sides' public state, no hand."));
    } else if legal.is_empty() {
        lines.push(Line::raw("Nothing for you to do now."));
    } else {
        lines.push(Line::styled(
            "Press a number to act (open ones: play N VALUES in --plain):",
            Style::new().add_modifier(Modifier::DIM),
        ));
        for (i, entry) in legal.iter().enumerate() {
            lines.push(Line::from(vec![
                Span::styled(
                    format!("[{}] ", i + 1),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(action_line(game, entry)),
            ]));
        }
    }
    lines
}

/// The result box, coloured for the viewer.
fn draw_result(frame: &mut Frame, area: Rect, screen: &Screen) {
    let color = match verdict(screen.tracker) {
        Some(Verdict::Won) => Color::Green,
        Some(Verdict::Lost) => Color::Red,
        _ => Color::Yellow,
    };
    let mut lines = result_lines(screen.tracker);
    if lines.is_empty() {
        lines.push("The battle is over.".to_owned());
    }
    draw_result_box(frame, area, lines, color);
}
