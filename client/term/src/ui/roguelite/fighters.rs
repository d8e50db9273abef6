//! The two fighters' boxes of the roguelite panel: the player (HP and AP bars with the
//! Armor Break mark, Guard, energy, speed and initiative, the armor and its DEF%, statuses
//! with stacks and turns, the piles) beside the enemy (the same bars, Guard, ATK, speed,
//! DEF%, its energy and pace, statuses, and what it intends to do).

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use serde_json::Value;

use super::words::{capital, enemy_energy, intent_words, num, player, statuses, text};
use crate::presence::{presence, Presence};

/// Cells of an HP or AP bar.
const BAR_WIDTH: usize = 20;

/// Whose phase it is now: `Some("player")`, `Some("enemy")`, or `None` between battles and
/// at the end.
pub fn acting(game: &Value) -> Option<&str> {
    match game["stage"].as_str() {
        Some("playerPhase") => Some("player"),
        Some("enemyStart" | "enemyAct" | "enemyEnd") => Some("enemy"),
        _ => None,
    }
}

/// `label ████████░░░░ 78/80`, the filled part in `color`.
fn bar(label: &str, value: u64, max: u64, color: Color) -> Vec<Span<'static>> {
    let max = max.max(1);
    let value = value.min(max);
    let filled = (u128::from(value) * BAR_WIDTH as u128).div_ceil(u128::from(max)) as usize;
    let filled = filled.min(BAR_WIDTH);
    vec![
        Span::raw(format!("{label:<3}")),
        Span::styled("█".repeat(filled), Style::new().fg(color)),
        Span::styled(
            "░".repeat(BAR_WIDTH - filled),
            Style::new().fg(Color::DarkGray),
        ),
        Span::raw(format!(" {value}/{max}")),
    ]
}

/// The HP bar, green above half, yellow above a quarter, red below.
fn hp_line(fighter: &Value) -> Line<'static> {
    let (hp, max) = (num(&fighter["hp"]), num(&fighter["max_hp"]).max(1));
    let color = match hp * 100 / max {
        0..=25 => Color::Red,
        26..=50 => Color::Yellow,
        _ => Color::Green,
    };
    Line::from(bar("HP", hp, max, color))
}

/// The AP bar with the Armor Break mark at 0 AP (a fighter wearing no armor, max AP 0, is
/// never broken).
fn ap_line(fighter: &Value) -> Line<'static> {
    let (ap, max) = (num(&fighter["ap"]), num(&fighter["max_ap"]));
    if max == 0 {
        return Line::raw("AP none (no armor to break)");
    }
    let mut spans = bar("AP", ap, max, Color::Cyan);
    if ap == 0 {
        spans.push(Span::styled(
            " Armor Break",
            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        ));
    }
    Line::from(spans)
}

/// "Statuses: Poison ×3 (3 turns) · Momentum ×1".
fn status_line(fighter: &Value) -> Line<'static> {
    Line::from(vec![
        Span::styled("Statuses: ", Style::new().add_modifier(Modifier::BOLD)),
        Span::raw(statuses(fighter)),
    ])
}

/// The player's box: its title and lines.
pub fn player_box(view: &Value, me: Option<usize>) -> (String, Vec<Line<'static>>) {
    let game = &view["game"];
    let p = &game["player"];
    let marker = if acting(game) == Some("player") {
        "▶ "
    } else {
        ""
    };
    let held = match presence(view, 0) {
        Some(Presence::Away) if me != Some(0) => " · away",
        Some(Presence::Bot) => " · bot",
        _ => "",
    };
    let fallen = if num(&p["hp"]) == 0 { " · fallen" } else { "" };
    let title = format!(" {marker}{}{held}{fallen} ", capital(&player(view, me)));
    let initiative = if p["initiative"] == true {
        " (initiative)"
    } else {
        ""
    };
    let lines = vec![
        hp_line(p),
        ap_line(p),
        Line::raw(format!(
            "Energy {}/{} · Guard {} · Speed {}{initiative}",
            p["energy"], p["max_energy"], p["guard"], p["speed"]
        )),
        Line::raw(format!(
            "Armor: {} · DEF {}%",
            text(&p["armor"]),
            p["def_pct"]
        )),
        status_line(p),
        Line::raw(format!(
            "Cards: hand {} · draw {} · discard {} · deck {}",
            p["hand_count"], p["draw_count"], p["discard_count"], p["deck_size"]
        )),
    ];
    (title, lines)
}

/// The enemy's box: its title and lines, its intent last.
pub fn enemy_box(game: &Value) -> (String, Vec<Line<'static>>) {
    let e = &game["enemy"];
    let marker = if acting(game) == Some("enemy") {
        "▶ "
    } else {
        ""
    };
    let state = if num(&e["hp"]) == 0 {
        "defeated"
    } else {
        "enemy"
    };
    let title = format!(" {marker}{} · {state} ", text(&e["name"]));
    let mut lines = vec![
        hp_line(e),
        ap_line(e),
        Line::raw(format!(
            "Guard {} · ATK {} · Speed {} · DEF {}%",
            e["guard"], e["atk"], e["speed"], e["def_pct"]
        )),
        Line::raw(enemy_energy(game)),
        status_line(e),
    ];
    if let Some(intent) = intent_words(game) {
        lines.push(Line::styled(
            intent,
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ));
    }
    (title, lines)
}
