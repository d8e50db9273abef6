//! The "how to play" page the `?` key opens over any screen: for the battle's ruleset its
//! goal, turn, resources, statuses and keywords with their numbers, and how it is scored
//! ([`synergy`], [`gambit`], [`heroes`], [`roguelite`], [`lore`], each written from its
//! rules document `docs/rules/<id>.md`, its numbers kept in one `NUMBERS` constant that a
//! test compares with the rules crate); then the clock of a timed battle, the viewer's hand
//! (synergy), how others watch, and the keys. A page longer than the screen scrolls
//! (`help_scroll` rows from its top; [`max_scroll`] says how far it goes).

pub mod gambit;
pub mod heroes;
pub mod lore;
pub mod roguelite;
pub mod synergy;

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;
use serde_json::Value;

use super::{gambit as gambit_panel, uses_picker, wrap, Screen};
use crate::hand::{hand_of, numbered};
use crate::keys::{HELP_LINES, PICKER_HELP_LINES};

/// One part of a page: a heading and its paragraphs ("• " starts a list item).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading.
    pub heading: String,
    /// The paragraphs, each wrapped to the page's width.
    pub lines: Vec<String>,
}

impl Section {
    /// A section of `lines` under `heading`.
    pub fn new(heading: &str, lines: impl IntoIterator<Item = String>) -> Section {
        Section {
            heading: heading.to_owned(),
            lines: lines.into_iter().collect(),
        }
    }
}

/// The standard turn clock's numbers, as the page gives them (a test compares them with the
/// rules crate's standard clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Seconds in each seat's bank at the start.
    pub bank_s: u64,
    /// Seconds added as each decision starts.
    pub increment_s: u64,
    /// Most seconds one decision may take.
    pub cap_s: u64,
    /// Decisions in a row made for want of time after which the seat forfeits.
    pub forfeit_after: u32,
}

/// The standard clock.
pub const CLOCK: Clock = Clock {
    bank_s: 120,
    increment_s: 15,
    cap_s: 90,
    forfeit_after: 3,
};

/// The widest a page is drawn.
const MAX_WIDTH: u16 = 100;

/// The page's title: "how to play heroes", or "keys" for a ruleset without a page.
fn title(view: Option<&Value>) -> String {
    match view.and_then(|v| v["ruleset"].as_str()) {
        Some(id @ ("synergy" | "gambit" | "heroes" | "roguelite" | "lore")) => {
            format!("how to play {id}")
        }
        _ => "keys".to_owned(),
    }
}

/// Every section of the page for `screen`.
pub fn sections(screen: &Screen<'_>) -> Vec<Section> {
    let tracker = screen.tracker;
    let view = tracker.view();
    let game = view.map(|v| &v["game"]).filter(|g| !g.is_null());
    let mut out = match view.and_then(|v| v["ruleset"].as_str()) {
        Some("synergy") => synergy::sections(),
        Some("gambit") => gambit::sections(game),
        Some("heroes") => heroes::sections(),
        Some("roguelite") => roguelite::sections(),
        Some("lore") => lore::sections(),
        _ => vec![Section::new(
            "This game",
            [
                "This client has no page on how this game plays: its rules document does. The \
              screen shows the game's view as it is, and the legal actions to choose from."
                    .to_owned(),
            ],
        )],
    };
    if let Some(view) = view.filter(|v| v["clocks"].is_array()) {
        out.push(clock_section(view));
    }
    if view.is_some_and(|v| v["ruleset"] == "synergy") {
        if let Some(hand) = view
            .and_then(|v| hand_of(v, tracker.seat()))
            .filter(|h| !h.is_empty())
        {
            let cards = numbered(hand, screen.hand).into_iter().map(|(n, card)| {
                format!(
                    "• [{n}] {} ({} {}): {}",
                    text(&card["name"]),
                    text(&card["sigil"]),
                    text(&card["type"]),
                    text(&card["text"])
                )
            });
            out.push(Section::new("Your hand", cards));
        }
    }
    if !screen.invite.is_empty() {
        out.push(Section::new(
            "Inviting others",
            screen.invite.iter().cloned(),
        ));
    }
    out.push(Section::new("Keys", keys(screen)));
    out
}

/// The clock of a timed battle in words.
fn clock_section(view: &Value) -> Section {
    let c = CLOCK;
    let mine = if view["seat"].is_null() {
        "a player's"
    } else {
        "your"
    };
    Section::new(
        "The clock",
        [format!(
            "This battle is timed: the ⏱ line counts down each decision's time, which comes \
             from {mine} bank, and the bank gains time as each decision starts (by default a \
             {}:{:02} bank, +{} s a decision, at most {}:{:02} for one). When the time runs out \
             the server's bot decides instead; after {} such decisions in a row the seat \
             forfeits the battle.",
            c.bank_s / 60,
            c.bank_s % 60,
            c.increment_s,
            c.cap_s / 60,
            c.cap_s % 60,
            c.forfeit_after
        )],
    )
}

/// The keys that work on this screen, the page's own first.
fn keys(screen: &Screen<'_>) -> Vec<String> {
    let view = screen.tracker.view();
    let mut lines = vec!["↑ ↓ PgUp PgDn Home End  scroll this page; ? or Esc closes it".to_owned()];
    let listed: Vec<&str> =
        if view.is_some_and(|v| v["ruleset"] == "gambit" && !v["game"].is_null()) {
            gambit_panel::KEYS.to_vec()
        } else if view.is_some_and(uses_picker) && screen.tracker.seat().is_some() {
            PICKER_HELP_LINES.to_vec()
        } else {
            HELP_LINES.to_vec()
        };
    lines.extend(listed.into_iter().map(str::to_owned));
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

/// The page as screen rows `width` columns wide: headings bold with a blank row before
/// (but the first), paragraphs wrapped, list items and key lines continued under their
/// text.
fn page_rows(screen: &Screen<'_>, width: usize) -> Vec<Line<'static>> {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut rows = Vec::new();
    for (i, section) in sections(screen).iter().enumerate() {
        if i > 0 {
            rows.push(Line::raw(""));
        }
        rows.push(Line::styled(section.heading.clone(), bold));
        for line in &section.lines {
            rows.extend(paragraph_rows(line, width).into_iter().map(Line::raw));
        }
    }
    rows
}

/// One paragraph wrapped to `width`: its head (a list item's "• ", a key line's key column,
/// leading spaces) kept as written, the rest wrapped and continued under it.
fn paragraph_rows(line: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let leading = chars.iter().take_while(|c| **c == ' ').count();
    // A key line: a key within the first columns, two spaces or more, what it does.
    let key_column = (1..chars.len().min(24))
        .find(|&i| chars[i] == ' ' && chars[i - 1] == ' ' && leading == 0)
        .map(|i| i + chars[i..].iter().take_while(|c| **c == ' ').count());
    let indent = if line.starts_with("• ") {
        2
    } else {
        key_column.unwrap_or(leading)
    };
    let head: String = chars[..indent.min(chars.len())].iter().collect();
    let rest: String = chars[indent.min(chars.len())..].iter().collect();
    let mut wrapped = Vec::new();
    wrap(&rest, width.saturating_sub(indent).max(10), &mut wrapped);
    wrapped
        .into_iter()
        .enumerate()
        .map(|(j, row)| {
            if j == 0 {
                format!("{head}{row}")
            } else {
                format!("{}{row}", " ".repeat(indent))
            }
        })
        .collect()
}

/// Where the page goes on `area`: centred, at most [`MAX_WIDTH`] wide, as tall as its rows
/// or the screen allows; with its rows.
fn layout(screen: &Screen<'_>, area: Rect) -> (Rect, Vec<Line<'static>>) {
    let width = area.width.min(MAX_WIDTH);
    let rows = page_rows(screen, usize::from(width.saturating_sub(2)));
    let height = u16::try_from(rows.len() + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let [column] = Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(area);
    let [page] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(column);
    (page, rows)
}

/// The furthest the page scrolls on `area`: its rows less those the box shows.
pub fn max_scroll(screen: &Screen<'_>, area: Rect) -> usize {
    let (page, rows) = layout(screen, area);
    rows.len()
        .saturating_sub(usize::from(page.height.saturating_sub(2)))
}

/// Draw the page over `area`, `screen.help_scroll` rows down (at most [`max_scroll`]).
pub fn draw(frame: &mut Frame<'_>, area: Rect, screen: &Screen<'_>) {
    let (page, rows) = layout(screen, area);
    let shown = usize::from(page.height.saturating_sub(2));
    let top = screen.help_scroll.min(rows.len().saturating_sub(shown));
    let total = rows.len();
    let place = if total > shown {
        format!(
            " rows {}-{} of {total} · ↑↓ PgUp PgDn scroll ",
            top + 1,
            top + shown
        )
    } else {
        String::new()
    };
    frame.render_widget(Clear, page);
    let visible: Vec<Line<'_>> = rows.into_iter().skip(top).take(shown).collect();
    frame.render_widget(
        Paragraph::new(visible).block(
            Block::bordered()
                .title(format!(
                    " {} (? or Esc closes) ",
                    title(screen.tracker.view())
                ))
                .title_bottom(Line::raw(place).right_aligned()),
        ),
        page,
    );
}
