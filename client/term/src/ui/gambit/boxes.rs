//! The boxes under the teams: the selected unit's rules and "why" lines (the debug
//! inspector) beside the rule editor or the unit's skills; the offering in the reward phase;
//! the result at the end.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::edit::{Draft, GambitUi};
use super::words::{own_units, result_lines, rule_line, skill, text, unit_label};
use super::Screen;
use crate::outcome::{verdict, Verdict};

/// Rows of the rules/editor boxes (3 rules and 3 why lines, or the editor's 6 lines).
const RULES_ROWS: u16 = 8;

/// The height of the boxes under the teams.
pub fn middle_height(screen: &Screen<'_>, _ui: &GambitUi) -> u16 {
    let tracker = screen.tracker;
    let rows = if tracker.is_over() {
        result_lines(tracker).len() + 1
    } else if tracker.game().is_some_and(|g| g["phase"] == "reward") {
        offering(screen).len() + 3
    } else {
        return RULES_ROWS;
    };
    u16::try_from(rows + 2).unwrap_or(u16::MAX)
}

fn offering<'a>(screen: &Screen<'a>) -> &'a [Value] {
    screen
        .tracker
        .game()
        .and_then(|g| g["offering"].as_array())
        .map_or(&[], Vec::as_slice)
}

/// Draw the boxes under the teams.
pub fn draw_middle(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>, ui: &GambitUi) {
    let tracker = screen.tracker;
    if tracker.is_over() {
        draw_result(frame, area, screen);
        return;
    }
    if tracker.game().is_some_and(|g| g["phase"] == "reward") {
        draw_offering(frame, area, screen, ui);
        return;
    }
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
    draw_rules(frame, left, screen, ui);
    match &ui.draft {
        Some(draft) => draw_editor(frame, right, screen, draft),
        None => draw_skills(frame, right, screen, ui),
    }
}

/// The selected unit's three rule slots (the selected one marked) and its "why" lines.
fn draw_rules(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>, ui: &GambitUi) {
    let Some((game, unit)) = screen.tracker.game().zip(ui.selected(screen.tracker)) else {
        frame.render_widget(Block::bordered().title(" rules "), area);
        return;
    };
    let slot = ui.selected_slot(screen.tracker);
    let mut lines = Vec::new();
    match unit["rules"].as_array() {
        Some(rules) => {
            for (i, rule) in rules.iter().enumerate() {
                let marker = if i == slot { "▶" } else { " " };
                let style = if i == slot {
                    Style::new().add_modifier(Modifier::BOLD)
                } else {
                    Style::new()
                };
                lines.push(Line::styled(
                    format!("{marker}{} {}", i + 1, rule_line(game, rule)),
                    style,
                ));
            }
        }
        None => {
            lines.push(Line::raw("rules hidden until the fight starts"));
            lines.push(Line::raw(""));
            lines.push(Line::raw(""));
        }
    }
    let why = unit["why"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if why.is_empty() {
        lines.push(Line::styled(
            "why: no choice made yet",
            Style::new().add_modifier(Modifier::DIM),
        ));
    }
    for (i, reason) in why.iter().enumerate() {
        let head = if i == 0 { "why: " } else { "     " };
        lines.push(Line::from(vec![
            Span::styled(head, Style::new().add_modifier(Modifier::DIM)),
            Span::raw(text(reason)),
        ]));
    }
    if let Some(next) = unit["next"].as_object() {
        // The forecast: what the program would choose once the action in progress is done.
        let targets: Vec<String> = next["targets"]
            .as_array()
            .map(|t| t.iter().map(text).collect())
            .unwrap_or_default();
        let game = screen.tracker.game().unwrap_or(&Value::Null);
        lines.push(Line::from(vec![
            Span::styled("next: ", Style::new().add_modifier(Modifier::DIM)),
            Span::raw(format!(
                "{} on {} (as things stand)",
                super::words::skill_name(game, &next["skill"]),
                targets.join(", ")
            )),
        ]));
    }
    let title = format!(" {}: rules and why ", unit_label(unit));
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        area,
    );
}

/// The rule editor: each field with its value, and what the chosen skill does (the keys
/// are on the bottom line).
fn draw_editor(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>, draft: &Draft) {
    let Some(game) = screen.tracker.game() else {
        return;
    };
    let mut lines: Vec<Line<'_>> = draft
        .fields(game)
        .into_iter()
        .enumerate()
        .map(|(i, field)| {
            let on = i == draft.field;
            let marker = if on { "▶ " } else { "  " };
            let value = format!("◀ {} ▶", field.value);
            let style = if on {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            Line::from(vec![
                Span::raw(format!("{marker}{:<12}", field.label)),
                Span::styled(value, style),
            ])
        })
        .collect();
    if let Some(s) = skill(game, &draft.skill) {
        lines.push(Line::raw(format!(
            "{} ({} ticks): {}",
            text(&s["name"]),
            s["ticks"],
            text(&s["text"])
        )));
    }
    let title = format!(" edit {}'s rule {} ", text(&draft.unit), draft.slot);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::bordered()
                .title(title)
                .border_style(Style::new().fg(Color::Cyan)),
        ),
        area,
    );
}

/// What the selected unit's skills do.
fn draw_skills(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>, ui: &GambitUi) {
    let Some((game, unit)) = screen.tracker.game().zip(ui.selected(screen.tracker)) else {
        frame.render_widget(Block::bordered().title(" skills "), area);
        return;
    };
    let lines: Vec<Line<'_>> = unit["skills"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .map(|id| match skill(game, id) {
            Some(s) => Line::from(vec![
                Span::styled(
                    format!("{} ({} t): ", text(&s["name"]), s["ticks"]),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(text(&s["text"])),
            ]),
            None => Line::raw(text(id)),
        })
        .collect();
    let title = format!(" {}'s skills (t = ticks) ", text(&unit["name"]));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title)),
        area,
    );
}

/// The offered skills, and how to take one.
fn draw_offering(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>, ui: &GambitUi) {
    let offered = offering(screen);
    let mut lines: Vec<Line<'_>> = offered
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let on = ui.offer == Some(i);
            let style = if on {
                Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
            } else {
                Style::new()
            };
            Line::styled(
                format!(
                    "{}[{}] {} ({} ticks): {}",
                    if on { "▶" } else { " " },
                    i + 1,
                    text(&s["name"]),
                    s["ticks"],
                    text(&s["text"])
                ),
                style,
            )
        })
        .collect();
    let own = own_units(screen.tracker);
    let who: Vec<String> = own
        .iter()
        .enumerate()
        .map(|(i, u)| format!("{} {}", i + 1, unit_label(u)))
        .collect();
    let hint = match ui.offer.and_then(|i| offered.get(i)) {
        _ if own.is_empty() => "The player takes one for a character, or skips.".to_owned(),
        Some(s) => {
            let selected = ui
                .selected(screen.tracker)
                .filter(|u| own.iter().any(|o| o["id"] == u["id"]))
                .map(|u| format!(", or Enter for the selected {}", unit_label(u)))
                .unwrap_or_default();
            format!(
                "{} chosen: who learns it? Press {}{selected}; Esc chooses again.",
                text(&s["name"]),
                who.join(" · ")
            )
        }
        None => format!(
            "Press 1-{} to choose a skill, then the character who learns it ({}); k skips.",
            offered.len(),
            who.join(" · ")
        ),
    };
    lines.push(Line::raw(""));
    lines.push(Line::styled(hint, Style::new().fg(Color::Green)));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" encounter won: take one offered skill, or skip ")),
        area,
    );
}

/// The result, told to the viewer.
fn draw_result(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let tracker = screen.tracker;
    let color = match verdict(tracker) {
        Some(Verdict::Won) => Color::Green,
        Some(Verdict::Lost) => Color::Red,
        _ if tracker.game().is_some_and(|g| g["mode"] == "pve") => match tracker.outcome() {
            Some(o) if o["winners"].as_array().is_some_and(|w| !w.is_empty()) => Color::Green,
            _ => Color::Red,
        },
        _ => Color::Yellow,
    };
    super::super::draw_result_box(frame, area, result_lines(tracker), color);
}
