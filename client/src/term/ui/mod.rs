//! Drawing a battle screen with ratatui: the frame around every ruleset (header with the
//! connection indicator, status line, key hints, help box) and the panel for the ruleset's
//! own view, [`synergy`] for synergy, [`gambit`] for gambit, [`heroes`] for heroes,
//! [`roguelite`] for roguelite and [`generic`] for every other ruleset; above the panel,
//! the [`countdown`] line of a timed battle. A replay draws its steps with the same panels,
//! its step line in place of the key hints. [`queue`] is the screen shown while waiting in
//! the matchmaking queue.
//!
//! Drawing reads a [`Screen`] and nothing else, so tests render it to a `TestBackend`. A
//! view without `seats` or `clocks` (a replay's) draws like any other.

pub mod countdown;
pub mod gambit;
pub mod generic;
pub mod heroes;
pub mod lore;
pub mod picker;
pub mod queue;
pub mod roguelite;
pub mod synergy;

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::keys::{HELP_LINES, KEY_HINTS, PICKER_HELP_LINES};
use super::reconnect::Link;
use crate::ViewTracker;

/// Everything one frame shows.
#[derive(Debug, Clone, Copy)]
pub struct Screen<'a> {
    /// The battle as currently known.
    pub tracker: &'a ViewTracker,
    /// The connection indicator.
    pub link: &'a Link,
    /// The last thing worth telling the person (a refusal, a server error, a notice).
    pub status: &'a str,
    /// Whether the help box is open.
    pub show_help: bool,
    /// How others can join and watch, shown while the battle waits for players.
    pub invite: &'a [String],
    /// How many log lines the person has scrolled back from the newest.
    pub log_scroll: usize,
    /// Gambit: the selection and rule editor (`None`: nothing selected beyond the first
    /// character, editor closed).
    pub gambit: Option<&'a gambit::GambitUi>,
    /// Every other ruleset but synergy: the cursor over the legal actions and the open one
    /// being filled (`None`: cursor on the first, nothing being filled).
    pub picker: Option<&'a crate::term::picker::Picker>,
    /// The time the clock line counts down from, in Unix milliseconds.
    pub now_ms: u64,
    /// A replay's step line ("step 3/41 · autoplay off (1 s) · " and the keys): the screen
    /// shows a recorded battle, not a live one (`None`: live).
    pub replay: Option<&'a str>,
}

impl Screen<'_> {
    /// A screen with no status, help, invitation or scrolling.
    pub fn of<'a>(tracker: &'a ViewTracker, link: &'a Link) -> Screen<'a> {
        Screen {
            tracker,
            link,
            status: "",
            show_help: false,
            invite: &[],
            log_scroll: 0,
            gambit: None,
            picker: None,
            now_ms: crate::term::clock::now_ms(),
            replay: None,
        }
    }

    /// Whether this client may act for its seat now: it holds a seat, is connected (a seat
    /// taken over from another connection is not ours any more) and the battle awaits it.
    pub fn my_move(&self) -> bool {
        *self.link == Link::Connected && self.tracker.my_turn()
    }
}

/// Whether keys in this battle go through the legal-action picker: every ruleset with a
/// game in play but synergy (cards by hand position) and gambit (its own selection).
pub fn uses_picker(view: &serde_json::Value) -> bool {
    !view["game"].is_null() && view["ruleset"] != "synergy" && view["ruleset"] != "gambit"
}

/// The key hints while the picker takes the keys.
const PICKER_HINTS: &str =
    "↑↓ choose · Enter/1-9 act · e end turn · PgUp/PgDn log · ? help · q quit";

/// The key hints while an open action is being filled.
const FORM_HINTS: &str = "↑↓ field · ←→ value · 1-9/space choose · Enter send · Esc back";

/// Draw `screen` over the whole frame.
pub fn draw(frame: &mut Frame, screen: &Screen) {
    let clock = countdown::clock_line(screen);
    let [header, clock_row, body, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(u16::from(clock.is_some())),
        Constraint::Min(5),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    draw_header(frame, header, screen);
    if let Some(line) = clock {
        frame.render_widget(Paragraph::new(line), clock_row);
    }
    let view = screen.tracker.view();
    match view {
        None => frame.render_widget(Paragraph::new("waiting for the battle's view..."), body),
        Some(v) if v["game"].is_null() => draw_waiting(frame, body, v, screen),
        Some(v) if v["ruleset"] == "synergy" => synergy::draw(frame, body, screen),
        Some(v) if v["ruleset"] == "gambit" => gambit::draw(frame, body, screen),
        Some(v) if v["ruleset"] == "heroes" => heroes::draw(frame, body, screen),
        Some(v) if v["ruleset"] == "roguelite" => roguelite::draw(frame, body, screen),
        Some(v) if v["ruleset"] == "lore" => lore::draw(frame, body, screen),
        Some(_) => generic::draw(frame, body, screen),
    }
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("» ", Style::new().fg(Color::Yellow)),
            Span::raw(screen.status),
        ])),
        status,
    );
    let in_gambit = view.is_some_and(|v| v["ruleset"] == "gambit" && !v["game"].is_null());
    let gambit_hints = in_gambit.then(|| gambit::key_hints(screen));
    let hints = if let Some(line) = screen.replay {
        line
    } else if let Some(hints) = &gambit_hints {
        hints.as_str()
    } else if let Link::Failed(_) = screen.link {
        "not connected · r reconnect · ↑↓ log · ? help · q quit"
    } else if screen.tracker.is_over() {
        "battle over · ↑↓ log · ? help · q quit"
    } else if screen.tracker.seat().is_some() && view.is_some_and(uses_picker) {
        if screen.picker.is_some_and(|p| p.form.is_some()) {
            FORM_HINTS
        } else {
            PICKER_HINTS
        }
    } else if screen.tracker.seat().is_some() {
        KEY_HINTS
    } else {
        "spectating (read-only) · ↑↓ log · ? help · q quit"
    };
    frame.render_widget(
        Paragraph::new(hints).style(Style::new().add_modifier(Modifier::DIM)),
        keys,
    );
    if screen.show_help {
        draw_help(frame, frame.area(), screen);
    }
}

/// "← your move" when this client may act for its seat now, or why its seat's turn cannot be
/// played from here (disconnected, or the seat taken over from another connection).
pub fn move_marker(screen: &Screen) -> Option<Span<'static>> {
    if screen.my_move() {
        Some(Span::styled("  ← your move", Style::new().fg(Color::Green)))
    } else if screen.tracker.my_turn() {
        Some(Span::styled(
            "  (not connected: press r to take your seat back)",
            Style::new().fg(Color::Yellow),
        ))
    } else {
        None
    }
}

/// The result's colour for the viewer: green for a win, red for a loss, yellow otherwise
/// (a draw, or a spectator).
pub fn verdict_color(tracker: &ViewTracker) -> Color {
    match crate::term::outcome::verdict(tracker) {
        Some(crate::term::outcome::Verdict::Won) => Color::Green,
        Some(crate::term::outcome::Verdict::Lost) => Color::Red,
        _ => Color::Yellow,
    }
}

/// The "battle over" box: `lines`, the first (the verdict) bold in `color`, then how to
/// leave.
pub fn draw_result_box(frame: &mut Frame, area: Rect, lines: Vec<String>, color: Color) {
    let mut text: Vec<Line> = lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            if i == 0 {
                Line::styled(line, Style::new().fg(color).add_modifier(Modifier::BOLD))
            } else {
                Line::raw(line)
            }
        })
        .collect();
    text.push(Line::raw(
        "Press q to leave; the result stays on your terminal.",
    ));
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(" battle over ")),
        area,
    );
}

/// The battle has not started: who is missing, and the commands that bring them.
fn draw_waiting(frame: &mut Frame, area: Rect, view: &serde_json::Value, screen: &Screen) {
    let free = super::presence::free_seats(view);
    let mut lines = vec![
        Line::styled(
            "Waiting for players: the battle starts when every seat is taken.",
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Line::raw(match free.as_slice() {
            [] => "Every seat is taken; the battle is starting.".to_owned(),
            [seat] => format!("Seat {seat} is still free."),
            seats => format!(
                "Seats {} are still free.",
                seats
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        Line::raw("Each player brings their own setup (such as a deck) when taking a seat."),
        Line::raw(""),
    ];
    lines.extend(screen.invite.iter().map(|l| Line::raw(l.clone())));
    if screen.tracker.seat().is_some() {
        lines.push(Line::raw(""));
        lines.push(Line::raw(
            "You will be told here when someone takes a seat; your keys work once it starts.",
        ));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" waiting ")),
        area,
    );
}

fn draw_header(frame: &mut Frame, area: Rect, screen: &Screen) {
    let t = screen.tracker;
    let ruleset = t
        .view()
        .and_then(|v| v["ruleset"].as_str())
        .unwrap_or("?")
        .to_owned();
    let role = match t.seat() {
        _ if screen.replay.is_some() => "replay".to_owned(),
        Some(seat) => format!("seat {seat}"),
        None => "spectator".to_owned(),
    };
    let (indicator, color) = if screen.replay.is_some() {
        ("▶ recorded".to_owned(), Color::Cyan)
    } else {
        let (dot, color) = match screen.link {
            Link::Connected => ("●", Color::Green),
            Link::Reconnecting { .. } => ("◌", Color::Yellow),
            Link::Failed(_) => ("✕", Color::Red),
        };
        (format!("{dot} {}", screen.link.label()), color)
    };
    let [left, right] = Layout::horizontal([
        Constraint::Min(10),
        Constraint::Length(indicator.chars().count() as u16 + 1),
    ])
    .areas(area);
    let title = format!("battle {} · {ruleset} · {role}", t.battle_id());
    frame.render_widget(
        Paragraph::new(title).style(Style::new().add_modifier(Modifier::BOLD)),
        left,
    );
    frame.render_widget(
        Paragraph::new(indicator).style(Style::new().fg(color)),
        right,
    );
}

/// The help box: the keys, then how the game itself works (for synergy: the sigils,
/// synergies, scoring and every card in the hand with what it does; gambit has keys of its
/// own and how rules, ticks and targeting work).
fn draw_help(frame: &mut Frame, area: Rect, screen: &Screen) {
    let view = screen.tracker.view();
    if view.is_some_and(|v| v["ruleset"] == "gambit" && !v["game"].is_null()) {
        return draw_help_box(frame, area, gambit::help_lines(screen.tracker));
    }
    let lines: &[&str] = if view.is_some_and(uses_picker) && screen.tracker.seat().is_some() {
        &PICKER_HELP_LINES
    } else {
        &HELP_LINES
    };
    let mut text: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    if screen
        .tracker
        .view()
        .is_some_and(|v| v["ruleset"] == "synergy")
    {
        text.push(String::new());
        text.extend(synergy::rules_help(screen.tracker));
    }
    draw_help_box(frame, area, text);
}

/// The help box with `text`, centred.
fn draw_help_box(frame: &mut Frame, area: Rect, text: Vec<String>) {
    let widest = text.iter().map(|l| l.chars().count()).max().unwrap_or(40);
    let width = (widest as u16 + 4).min(area.width);
    let [area] = Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(area);
    let height = (text.len() as u16 + 2).min(area.height);
    let [area] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(area);
    frame.render_widget(Clear, area);
    let lines: Vec<Line> = text.into_iter().map(Line::raw).collect();
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" help (? closes) ")),
        area,
    );
}

/// The last `height` screen lines of the battle log (newest at the bottom), each entry
/// wrapped at word boundaries to `width` columns.
pub fn log_tail(log: &[serde_json::Value], height: usize, width: usize) -> Vec<Line<'static>> {
    log_window(log, height, width, 0).0
}

/// `height` screen lines of the battle log, `back` lines before the newest (clamped to the
/// oldest), each entry wrapped to `width` columns; with the number of lines actually
/// scrolled back.
pub fn log_window(
    log: &[serde_json::Value],
    height: usize,
    width: usize,
    back: usize,
) -> (Vec<Line<'static>>, usize) {
    let mut lines: Vec<String> = Vec::new();
    // Only the newest entries can be visible: each takes at least one line.
    let start = log.len().saturating_sub(height.saturating_add(back));
    for entry in &log[start..] {
        wrap(
            entry.as_str().unwrap_or_default(),
            width.max(10),
            &mut lines,
        );
    }
    let back = back.min(lines.len().saturating_sub(height));
    let end = lines.len() - back;
    let first = end.saturating_sub(height);
    let shown = lines.drain(first..end).map(Line::raw).collect();
    (shown, back)
}

/// The log box's title: which key scrolls back (`key`), or how far back it is and how to
/// return.
pub fn log_title(back: usize, key: &str) -> String {
    if back == 0 {
        format!(" log ({key} scrolls back) ")
    } else {
        format!(" log · {back} lines back · End shows the newest ")
    }
}

/// The battle log in a box filling `area`, newest at the bottom, `screen.log_scroll` lines
/// back; `key` is the key that scrolls it back on this panel.
pub fn draw_log_box(
    frame: &mut Frame,
    area: Rect,
    game: &serde_json::Value,
    screen: &Screen,
    key: &str,
) {
    let entries = game["log"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let height = area.height.saturating_sub(2) as usize;
    let width = area.width.saturating_sub(2) as usize;
    let (lines, back) = log_window(entries, height, width, screen.log_scroll);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(log_title(back, key))),
        area,
    );
}

/// Word-wrap `text` to `width` columns (a word longer than a line is cut).
fn wrap(text: &str, width: usize, out: &mut Vec<String>) {
    let mut line = String::new();
    for word in text.split_whitespace() {
        let needed = if line.is_empty() { 0 } else { 1 } + word.chars().count();
        if !line.is_empty() && line.chars().count() + needed > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let cut: String = line.chars().take(width).collect();
            line = line.chars().skip(width).collect();
            out.push(cut);
        }
    }
    out.push(line);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_words() {
        let mut out = Vec::new();
        wrap("one two three four", 9, &mut out);
        assert_eq!(out, vec!["one two", "three", "four"]);
        let log = [serde_json::json!("a b"), serde_json::json!("c d e f")];
        let tail: Vec<String> = log_tail(&log, 2, 10)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert_eq!(tail, vec!["a b", "c d e f"]);
        let log: Vec<serde_json::Value> = (1..=6)
            .map(|i| serde_json::json!(format!("e{i}")))
            .collect();
        let text = |(lines, back): (Vec<Line>, usize)| {
            (
                lines.iter().map(|l| l.to_string()).collect::<Vec<_>>(),
                back,
            )
        };
        assert_eq!(
            text(log_window(&log, 2, 10, 0)),
            (vec!["e5".into(), "e6".into()], 0)
        );
        assert_eq!(
            text(log_window(&log, 2, 10, 3)),
            (vec!["e2".into(), "e3".into()], 3)
        );
        assert_eq!(
            text(log_window(&log, 2, 10, 99)),
            (vec!["e1".into(), "e2".into()], 4),
            "scrolling stops at the oldest entry"
        );
    }
}
