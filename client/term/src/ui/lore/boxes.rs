//! The lore panel's boxes of state: each player's numbers (lore with its bar, ink, counts,
//! the inkwell for its owner) over their cards in play, the viewer's hand, and the bag's
//! waiting triggers.

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::words::{bag_line, hand_card_parts, in_play_line, seat_of, text};
use crate::hand::{numbered, HandNumbers};
use crate::presence::{presence, seat_name, Presence};

/// Cells of the lore bar.
const BAR_CELLS: u64 = 10;

/// "████▌░░░░░": `lore` of `win` in [`BAR_CELLS`] cells, half cells included.
fn lore_bar(lore: u64, win: u64) -> String {
    let halves = (lore.min(win) * BAR_CELLS * 2) / win.max(1);
    let (full, half) = (halves / 2, halves % 2);
    let empty = BAR_CELLS - full - half;
    let mut bar = "█".repeat(full as usize);
    bar.push_str(&"▌".repeat(half as usize));
    bar.push_str(&"░".repeat(empty as usize));
    bar
}

/// One player's numbers, inkwell and cards in play. The inkwell's cards are named only
/// when the view holds them (for their owner); anyone else sees how many there are (the
/// ink total).
pub(super) fn side_lines(game: &Value, seat: usize) -> Vec<Line<'static>> {
    let side = &game["sides"][seat];
    let lore = side["lore"].as_u64().unwrap_or(0);
    let win = game["win_lore"].as_u64().unwrap_or(20);
    let ink_total = side["ink_total"].as_u64().unwrap_or(0);
    let mut counts = format!(
        "Hand {} · Deck {} · Discard {}",
        side["hand_count"],
        side["deck_count"],
        side["discard"].as_array().map_or(0, Vec::len)
    );
    let active = seat_of(&game["active"]) == Some(seat);
    match game["phase"].as_str() {
        Some("mulligan") if side["mulliganed"] == true => counts.push_str(" · hand altered"),
        Some("mulligan") => counts.push_str(" · altering hand"),
        Some("set" | "main" | "end") if active && side["inked"] == true => {
            counts.push_str(" · inked this turn");
        }
        _ => {}
    }
    let mut lines = vec![
        Line::from(vec![
            Span::raw(format!("Lore {lore}/{win} ")),
            Span::styled(lore_bar(lore, win), Style::new().fg(Color::Yellow)),
            Span::raw(format!(" · Ink {}/{ink_total} ready", side["ink_ready"])),
        ]),
        Line::raw(counts),
    ];
    // Only the owner's view holds the inkwell's cards; anyone else has the count above.
    if let Some(cards) = side["inkwell"].as_array() {
        let names: Vec<String> = cards.iter().map(|c| text(&c["name"])).collect();
        lines.push(Line::raw(if names.is_empty() {
            "Inkwell: empty".to_owned()
        } else {
            format!("Inkwell: {}", names.join(" · "))
        }));
    }
    lines.push(Line::styled(
        "In play (strength/willpower ◆lore):",
        Style::new().add_modifier(Modifier::BOLD),
    ));
    let play = side["play"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if play.is_empty() {
        lines.push(Line::raw("  (nothing in play)"));
    }
    let dim = Style::new().add_modifier(Modifier::DIM);
    lines.extend(play.iter().map(|card| {
        let line = format!("  {}", in_play_line(game, card));
        if card["exerted"] == true {
            Line::styled(line, dim)
        } else {
            Line::raw(line)
        }
    }));
    lines
}

/// One player's box: [`side_lines`] under a title saying whose it is.
pub(super) fn draw_side(
    frame: &mut Frame<'_>,
    area: Rect,
    view: &Value,
    seat: usize,
    me: Option<usize>,
    lines: Vec<Line<'static>>,
) {
    let game = &view["game"];
    let active = seat_of(&game["active"]) == Some(seat) && game["phase"] != "over";
    let you = if me == Some(seat) { " (you)" } else { "" };
    let marker = if active { "▶ " } else { "" };
    let held = match presence(view, seat) {
        Some(Presence::Away) if me != Some(seat) => " · away",
        Some(Presence::Bot) => " · bot",
        _ => "",
    };
    let first = if seat_of(&game["first"]) == Some(seat) {
        " · went first"
    } else {
        ""
    };
    let title = format!(" {marker}{}{you}{first}{held} ", seat_name(view, seat));
    let style = if active {
        Style::new().fg(Color::Cyan)
    } else {
        Style::new()
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title).border_style(style)),
        area,
    );
}

/// The viewer's hand, numbered (each card keeping its number through the turn), each card
/// with its cost, inkable mark, numbers and what it does; for a spectator, the hand counts.
pub(super) fn hand_lines(
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
        return vec![Line::raw(format!(
            "Hidden: {}. Each hand is seen by its owner alone; an inked card is named as it \
             goes into the inkwell.",
            counts.join(", ")
        ))];
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
            let (head, rest) = hand_card_parts(card);
            Line::from(vec![
                Span::styled(
                    format!("{n}. {head}"),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!(", {rest}")),
            ])
        })
        .collect()
}

/// The bag's triggers in the order they triggered, after whose resolve first (the active
/// player's, in the order they choose); empty when the bag is.
pub(super) fn bag_lines(view: &Value, me: Option<usize>) -> Vec<Line<'static>> {
    let game = &view["game"];
    let bag = game["bag"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if bag.is_empty() {
        return Vec::new();
    }
    let active = seat_of(&game["active"]).unwrap_or(0);
    let mut lines = vec![Line::styled(
        format!(
            "{}'s first (any order), then {}'s.",
            seat_name(view, active),
            seat_name(view, 1 - active.min(1))
        ),
        Style::new().add_modifier(Modifier::DIM),
    )];
    lines.extend(
        bag.iter()
            .enumerate()
            .map(|(i, p)| Line::raw(format!("{}. {}", i + 1, bag_line(view, me, p)))),
    );
    lines
}

/// The bag box: [`bag_lines`] under a title saying who chooses the next resolution.
pub(super) fn draw_bag(frame: &mut Frame<'_>, area: Rect, view: &Value, lines: Vec<Line<'static>>) {
    let title = match seat_of(&view["game"]["chooser"]) {
        Some(seat) => format!(" bag · {} chooses next ", seat_name(view, seat)),
        None => " bag ".to_owned(),
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title)),
        area,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lore_bar_fills_in_half_cells() {
        assert_eq!(lore_bar(0, 20), "░░░░░░░░░░");
        assert_eq!(lore_bar(9, 20), "████▌░░░░░");
        assert_eq!(lore_bar(20, 20), "██████████");
        assert_eq!(
            lore_bar(25, 20),
            "██████████",
            "lore past the goal fills the bar"
        );
    }
}
