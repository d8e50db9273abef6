//! The gambit panel: a line with the encounter, tick, phase and what the player can do now;
//! both teams side by side (each unit with an HP bar, shield and statuses with their ticks,
//! its intent line, knocked-out units marked); the selected unit's rules with the debug
//! inspector's "why" lines, next to the rule editor or the unit's skills; the offering after
//! a won encounter; the result at the end; and the log (newest at the bottom, scrollable).
//!
//! The selection and the editor are a [`GambitUi`] the full-screen loop keeps; everything
//! else comes from the view alone. [`KEYS`] are its keys for the help page, [`plain`] its
//! plain-mode lines.

mod boxes;
mod edit;
#[cfg(test)]
mod fixture;
mod help;
pub mod plain;
mod words;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;
use serde_json::Value;

pub use crate::choice::Effect;
pub use edit::{phase_action, set_rule_entry, Draft, GambitUi};
pub use help::{key_hints, KEYS, PLAIN_HELP};
pub use words::{is_gambit, result_lines};

use super::Screen;
use crate::presence::seat_name;
use crate::presence::{presence, Presence};
use words::{intent_line, own_team, phase_words, status_line, text, unit_label};

/// Characters in an HP bar.
const BAR_WIDTH: usize = 8;

/// Lines a unit takes in its team's box.
const UNIT_ROWS: usize = 3;

/// Draw the gambit panel into `area`.
pub fn draw(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let Some(view) = screen.tracker.view() else {
        return;
    };
    let game = &view["game"];
    let default_ui = GambitUi::default();
    let ui = screen.gambit.unwrap_or(&default_ui);
    let team_len = |t: usize| game["teams"][t]["units"].as_array().map_or(0, Vec::len);
    let unit_rows = team_len(0).max(team_len(1)).max(1) * UNIT_ROWS;
    let middle_rows = boxes::middle_height(screen, ui);
    let [top, teams, middle, log] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(u16::try_from(unit_rows + 2).unwrap_or(u16::MAX)),
        Constraint::Length(middle_rows),
        Constraint::Min(3),
    ])
    .areas(area);

    frame.render_widget(Paragraph::new(top_line(view, screen)), top);

    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(teams);
    let selected = ui.selected(screen.tracker).map(|u| u["id"].clone());
    for (team, rect) in [(0usize, left), (1usize, right)] {
        draw_team(frame, rect, screen, team, selected.as_ref());
    }

    boxes::draw_middle(frame, middle, screen, ui);

    super::draw_log_box(frame, log, game, screen, "PgUp");
}

/// `Encounter 1/6 · tick 3 · Fighting · the fight runs by itself; p pauses it`.
fn top_line(view: &Value, screen: &Screen<'_>) -> Line<'static> {
    let tracker = screen.tracker;
    let game = &view["game"];
    let stage = if game["mode"] == "pvp" {
        "Duel".to_owned()
    } else {
        format!("Encounter {}/{}", game["encounter"], game["encounters"])
    };
    let mut spans = vec![
        Span::raw(format!("{stage} · tick {} · ", game["tick"])),
        Span::styled(
            phase_words(&game["phase"]),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!(" · {}", what_now(view, tracker.seat()))),
    ];
    spans.extend(super::move_marker(screen));
    Line::from(spans)
}

/// What the viewer can do now, in words.
fn what_now(view: &Value, seat: Option<usize>) -> String {
    let game = &view["game"];
    let pvp = game["mode"] == "pvp";
    let phase = game["phase"].as_str().unwrap_or_default();
    let Some(seat) = seat else {
        return match phase {
            "planning" if pvp => "the players program their parties",
            "planning" => "the player programs the party",
            "fighting" => "the fight runs by itself",
            "paused" => "the player paused the fight",
            "reward" => "the player picks a reward",
            _ => "the battle is over",
        }
        .to_owned();
    };
    match phase {
        "planning" if pvp && game["ready"][seat] == true => {
            "you are ready; waiting for the other player".to_owned()
        }
        "planning" if pvp => "program your party (Enter edits), then s: ready".to_owned(),
        "planning" => "edit your rules (Enter), then s starts the fight".to_owned(),
        "fighting" if pvp => "the fight runs by itself".to_owned(),
        "fighting" => "the fight runs by itself; p pauses it to edit rules".to_owned(),
        "paused" => "edit your rules (Enter), then p resumes".to_owned(),
        "reward" => "take a skill (1-3, then who learns it) or k skips".to_owned(),
        _ => "the battle is over".to_owned(),
    }
}

/// One team's box: its units, three lines each.
fn draw_team(
    frame: &mut Frame<'_>,
    area: Rect,
    screen: &Screen<'_>,
    team: usize,
    selected: Option<&Value>,
) {
    let tracker = screen.tracker;
    let Some(view) = tracker.view() else {
        return;
    };
    let game = &view["game"];
    let mine = tracker.seat().is_some() && own_team(tracker) == team;
    // A duel's teams are the players'; a run's are the party and the enemies.
    let name = if game["mode"] == "pvp" {
        seat_name(view, team)
    } else {
        text(&game["teams"][team]["name"])
    };
    let mut title = format!(" {name}");
    if mine {
        title.push_str(" (you)");
    }
    if game["mode"] == "pvp" {
        match presence(view, team) {
            Some(Presence::Away) if !mine => title.push_str(" · away (disconnected)"),
            Some(Presence::Bot) => title.push_str(" · bot"),
            _ => {}
        }
        if game["phase"] == "planning" && game["ready"][team] == true {
            title.push_str(" · ready");
        }
    }
    title.push(' ');
    let units = game["teams"][team]["units"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let label_width = units.iter().map(|u| unit_label(u).chars().count()).max();
    let width = area.width.saturating_sub(4) as usize;
    let mut lines = Vec::new();
    for unit in units {
        let chosen = selected == Some(&unit["id"]);
        lines.push(unit_line(unit, chosen, label_width.unwrap_or(1)));
        let intent = intent_line(game, unit, width);
        let style = match unit["doing"]["state"].as_str() {
            _ if unit["down"] == true => Style::new().fg(Color::Red),
            Some("executing") => Style::new().fg(Color::Yellow),
            Some(_) => Style::new(),
            None => Style::new().add_modifier(Modifier::DIM),
        };
        lines.push(Line::from(vec![
            Span::raw("  "),
            Span::styled(intent, style),
        ]));
        let statuses = status_line(unit);
        let style = if statuses == "—" {
            Style::new().add_modifier(Modifier::DIM)
        } else {
            Style::new()
        };
        lines.push(Line::styled(format!("  {statuses}"), style));
    }
    let border = if mine {
        Style::new().fg(Color::Cyan)
    } else {
        Style::new()
    };
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title).border_style(border)),
        area,
    );
}

/// `▶ A Vanguard ██████░░ 90/120`, or `  Grunt #1 ░░░░░░░░ 0/60 ✕ down`.
fn unit_line(unit: &Value, chosen: bool, width: usize) -> Line<'static> {
    let marker = if chosen { "▶ " } else { "  " };
    let head = format!("{marker}{:<width$} ", unit_label(unit));
    let head_style = if chosen {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    let max_hp = unit["max_hp"].as_u64().unwrap_or(0).max(1);
    // Clamped so the arithmetic below cannot overflow, whatever the server sends.
    let hp = unit["hp"].as_u64().unwrap_or(0).min(max_hp);
    let filled = (u128::from(hp) * BAR_WIDTH as u128).div_ceil(u128::from(max_hp)) as usize;
    let filled = filled.min(BAR_WIDTH);
    let color = match u128::from(hp) * 100 / u128::from(max_hp) {
        _ if unit["down"] == true => Color::DarkGray,
        0..=25 => Color::Red,
        26..=50 => Color::Yellow,
        _ => Color::Green,
    };
    let mut spans = vec![
        Span::styled(head, head_style),
        Span::styled("█".repeat(filled), Style::new().fg(color)),
        Span::styled(
            "░".repeat(BAR_WIDTH - filled),
            Style::new().fg(Color::DarkGray),
        ),
        Span::raw(format!(" {hp}/{max_hp}")),
    ];
    if unit["down"] == true {
        spans.push(Span::styled(" ✕ down", Style::new().fg(Color::Red)));
    }
    Line::from(spans)
}
