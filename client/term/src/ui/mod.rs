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
pub mod help;
pub mod heroes;
pub mod lore;
pub mod names;
pub mod picker;
pub mod queue;
pub mod roguelite;
pub mod synergy;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

use super::hand::HandNumbers;
use super::reconnect::Link;
use battle_client::ViewTracker;

/// Everything one frame shows.
#[derive(Debug, Clone, Copy)]
pub struct Screen<'a> {
    /// The battle as currently known.
    pub tracker: &'a ViewTracker,
    /// The connection indicator.
    pub link: &'a Link,
    /// The last thing worth telling the person (a refusal, a server error, a notice).
    pub status: &'a str,
    /// Whether the "how to play" page is open.
    pub show_help: bool,
    /// How many rows the page is scrolled down (clamped to [`help::max_scroll`]).
    pub help_scroll: usize,
    /// How others can join and watch, shown while the battle waits for players.
    pub invite: &'a [String],
    /// How many log lines the person has scrolled back from the newest.
    pub log_scroll: usize,
    /// Gambit: the selection and rule editor (`None`: nothing selected beyond the first
    /// character, editor closed).
    pub gambit: Option<&'a gambit::GambitUi>,
    /// Every other ruleset but synergy: the cursor over the legal actions and the open one
    /// being filled (`None`: cursor on the first, nothing being filled).
    pub picker: Option<&'a crate::picker::Picker>,
    /// The numbers of the viewer's hand, kept through a turn (`None`: by position).
    pub hand: Option<&'a HandNumbers>,
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
            help_scroll: 0,
            invite: &[],
            log_scroll: 0,
            gambit: None,
            picker: None,
            hand: None,
            now_ms: crate::clock::now_ms(),
            replay: None,
        }
    }

    /// Whether this client may act for its seat now: it holds a seat, is connected (a seat
    /// taken over from another connection is not ours any more) and the battle awaits it.
    pub fn my_move(&self) -> bool {
        *self.link == Link::Connected && self.tracker.my_turn()
    }
}

/// A legal entry in the words of its ruleset's panel, naming the cards, minions and rewards it
/// refers to ("play Cleave at Player 2's hero", "take Riveted Hauberk (armor, put on whole)");
/// for a ruleset without words of its own, as the protocol describes it. For plain mode's
/// list of what may be typed.
pub fn action_words(
    view: &serde_json::Value,
    me: Option<usize>,
    entry: &serde_json::Value,
) -> String {
    match view["ruleset"].as_str() {
        Some("heroes") => heroes::action_words(view, me, entry),
        Some("lore") => lore::action_words(view, me, entry),
        Some("roguelite") => roguelite::action_words(view, entry),
        _ => battle_client::fill::describe(&crate::form::shown(entry)),
    }
}

/// Whether keys in this battle go through the legal-action picker: every ruleset with a
/// game in play but synergy (cards by hand position) and gambit (its own selection).
pub fn uses_picker(view: &serde_json::Value) -> bool {
    !view["game"].is_null() && view["ruleset"] != "synergy" && view["ruleset"] != "gambit"
}

/// Draw `screen` over the whole frame.
pub fn draw(frame: &mut Frame<'_>, screen: &Screen<'_>) {
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
    frame.render_widget(Paragraph::new(status_line(screen)), status);
    let in_gambit = view.is_some_and(|v| v["ruleset"] == "gambit" && !v["game"].is_null());
    let gambit_hints = in_gambit.then(|| gambit::key_hints(screen));
    let seat_hints: String;
    let hints = if let Some(line) = screen.replay {
        line
    } else if let Some(hints) = &gambit_hints {
        hints.as_str()
    } else if let Link::Failed(_) = screen.link {
        "not connected · r reconnect · ↑↓ log · ? how to play · q quit"
    } else if screen.tracker.is_over() {
        "battle over · ↑↓ log · ? how to play · q quit"
    } else if screen.tracker.seat().is_some() && view.is_some_and(uses_picker) {
        if let Some(form) = screen.picker.and_then(|p| p.form.as_ref()) {
            seat_hints = form_hints(form);
            seat_hints.as_str()
        } else {
            seat_hints = picker_hints(screen);
            seat_hints.as_str()
        }
    } else if screen.tracker.seat().is_some() {
        seat_hints = synergy::key_hints(screen);
        seat_hints.as_str()
    } else {
        "spectating (read-only) · ↑↓ log · ? how to play · q quit"
    };
    frame.render_widget(
        Paragraph::new(hints).style(Style::new().add_modifier(Modifier::DIM)),
        keys,
    );
    if screen.show_help {
        help::draw(frame, help_area(frame.area()), screen);
    }
}

/// Where the "how to play" page goes on a screen of `area`: over everything but the header
/// and the two bottom lines (the status and the keys stay in sight).
pub fn help_area(area: Rect) -> Rect {
    let [_, middle, _] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(2),
    ])
    .areas(area);
    middle
}

/// The status line: the last thing worth telling; with nothing to tell while the battle goes
/// on and this client has no move to make, how others watch it (dimmed), so the command
/// printed before the screen opened stays in sight.
fn status_line(screen: &Screen<'_>) -> Line<'static> {
    let mark = Span::styled("» ", Style::new().fg(Color::Yellow));
    if !screen.status.is_empty() || screen.tracker.is_over() || screen.my_move() {
        return Line::from(vec![mark, Span::raw(screen.status.to_owned())]);
    }
    let watch = screen.invite.iter().find(|l| l.contains(" watch "));
    match watch {
        Some(line) if screen.replay.is_none() => Line::from(vec![
            mark,
            Span::styled(line.clone(), Style::new().add_modifier(Modifier::DIM)),
        ]),
        _ => Line::from(vec![mark]),
    }
}

/// The key hints while an open action is being filled: the field keys when there is more
/// than one field, and the value keys of the field being filled.
fn form_hints(form: &crate::form::Form) -> String {
    use crate::form::Choice;
    let field = if form.open_fields().count() > 1 {
        "↑↓ field · "
    } else {
        ""
    };
    let value = match &form.field().choice {
        Choice::One { .. } => "←→/1-9 value",
        Choice::Number { .. } => "←→/0-9 number",
        Choice::Many { .. } => "1-9/space choose",
    };
    format!("{field}{value} · Enter send · Esc back")
}

/// The key hints of a seat acting through the picker: only the keys that apply now.
fn picker_hints(screen: &Screen<'_>) -> String {
    let legal = screen.tracker.legal_actions();
    if legal.is_empty() {
        return "waiting · PgUp/PgDn log · ? how to play · q quit".to_owned();
    }
    let end = match picker::end_key(legal) {
        Some("passes the turn") => " · e pass turn",
        Some(_) => " · e end turn",
        None => "",
    };
    let choose = if legal.len() > 1 {
        "↑↓ choose · "
    } else {
        ""
    };
    format!(
        "{choose}Enter/{} act{end} · PgUp/PgDn log · ? how to play · q quit",
        picker::digit_keys(legal)
    )
}

/// "← your move" when this client may act for its seat now, or why its seat's turn cannot be
/// played from here (disconnected, or the seat taken over from another connection).
pub fn move_marker(screen: &Screen<'_>) -> Option<Span<'static>> {
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
    match crate::outcome::verdict(tracker) {
        Some(crate::outcome::Verdict::Won) => Color::Green,
        Some(crate::outcome::Verdict::Lost) => Color::Red,
        _ => Color::Yellow,
    }
}

/// The result box's last line: how to leave.
pub const LEAVE: &str = "Press q to leave; the result stays on your terminal.";
/// A two-seat game's hand box: `lines` (the hand, drawn by the game's panel) under a title
/// with the other side's hand count (`game.sides[N].hand_count`).
pub(super) fn draw_hand(
    frame: &mut Frame<'_>,
    area: Rect,
    view: &serde_json::Value,
    me: Option<usize>,
    lines: Vec<Line<'static>>,
) {
    let title = match me {
        Some(seat) => {
            let other = 1 - seat.min(1);
            format!(
                " your hand · {} holds {} ",
                crate::presence::seat_name(view, other),
                view["game"]["sides"][other]["hand_count"]
            )
        }
        None => " hands ".to_owned(),
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title)),
        area,
    );
}

/// The "battle over" box: `lines`, the first (the verdict) bold in `color`, then how to
/// leave ([`LEAVE`]).
pub fn draw_result_box(frame: &mut Frame<'_>, area: Rect, lines: Vec<String>, color: Color) {
    let mut text: Vec<Line<'_>> = lines
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
    text.push(Line::raw(LEAVE));
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(" battle over ")),
        area,
    );
}

/// The battle has not started: who is missing, and the commands that bring them.
fn draw_waiting(frame: &mut Frame<'_>, area: Rect, view: &serde_json::Value, screen: &Screen<'_>) {
    let free = super::presence::free_seats(view);
    let mut lines = vec![
        Line::styled(
            "Waiting for players: the battle starts when every seat is taken.",
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Line::raw(if free.is_empty() {
            "Every seat is taken; the battle is starting.".to_owned()
        } else {
            format!("Still to come: {}.", super::presence::free_names(view))
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

fn draw_header(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let t = screen.tracker;
    let ruleset = t
        .view()
        .and_then(|v| v["ruleset"].as_str())
        .unwrap_or("?")
        .to_owned();
    let role = match (t.seat(), t.view()) {
        _ if screen.replay.is_some() => "replay".to_owned(),
        (Some(seat), Some(view)) => format!("{} (you)", super::presence::seat_name(view, seat)),
        (Some(seat), None) => format!("Player {} (you)", seat + 1),
        (None, _) => "spectator".to_owned(),
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

/// The fewest rows the log box gets on a panel `height` rows tall: a quarter of it and at
/// least 5 (3 lines), so boxes sized to their content never squeeze the log to a line.
pub fn log_rows(height: u16) -> usize {
    (usize::from(height) / 4).max(5)
}

/// The rows a panel `height` tall gives boxes that want `want` rows, after `fixed` rows of
/// other boxes and the log's share ([`log_rows`]); at least 5 (or `want`, when less).
pub fn room_for(height: u16, fixed: usize, want: usize) -> usize {
    let room = usize::from(height).saturating_sub(fixed + log_rows(height));
    want.min(room).max(want.min(5))
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
    frame: &mut Frame<'_>,
    area: Rect,
    game: &serde_json::Value,
    screen: &Screen<'_>,
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
pub(crate) fn wrap(text: &str, width: usize, out: &mut Vec<String>) {
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
        let text = |(lines, back): (Vec<Line<'_>>, usize)| {
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
