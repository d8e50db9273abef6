//! The full-screen UI loop: draws the battle after every event and reads keys from a thread
//! of its own (crossterm's blocking reader feeding a tokio channel).
//!
//! Status messages (a refusal, a notice that the opponent left) fade after [`STATUS_TTL`]:
//! the screen itself shows what stays true (whose turn, who is away, the connection). While
//! a turn clock runs the screen is redrawn as its countdown changes (at least once a second),
//! with or without messages from the server.
//!
//! In a gambit battle the keys go through [`gambit_command_for_key`] and the panel's
//! selection and rule editor, a [`GambitUi`] kept here between frames. A seat in a battle of
//! any other ruleset but synergy chooses its actions with [`picker_command_for_key`] and a
//! [`Picker`] (a cursor over the legal actions, and a form for an open one). The hand's
//! numbers stay put through a turn ([`HandNumbers`]); synergy's digit keys play by them.
//!
//! While the "how to play" page is open the keys scroll it ([`help_key`]); `?` or Esc
//! closes it, `q` quits, and any other key closes it without doing anything else.

use std::io;
use std::time::Duration;

use ratatui::crossterm::event::{
    self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers,
};
use ratatui::DefaultTerminal;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::choice::resolve;
use super::choice::Effect;
use super::clock;
use super::feed::Event;
use super::hand::{hand_of, position, HandNumbers};
use super::keys::{command_for_key, gambit_command_for_key, picker_command_for_key, Command};
use super::picker::Picker;
use super::presence::notices;
use super::session::AnySession;
use super::ui::gambit::GambitUi;
use super::ui::{draw, help, help_area, uses_picker, Screen};

/// How long a status message stays on screen.
pub const STATUS_TTL: Duration = Duration::from_secs(8);

/// How long the first `!` waits for the second that resigns.
const RESIGN_CONFIRM: Duration = Duration::from_secs(5);

/// Rows a page key scrolls the "how to play" page by.
const HELP_PAGE: usize = 10;

/// What a key does while the "how to play" page is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpKey {
    /// Scroll up (towards the top) by this many rows.
    Up(usize),
    /// Scroll down by this many rows.
    Down(usize),
    /// Go to the top.
    Top,
    /// Go to the bottom.
    Bottom,
    /// Close the page (`?`, F1, Esc, or any key that is not the page's).
    Close,
    /// Quit the client.
    Quit,
}

/// What `key` does on the open "how to play" page; `None` for a release.
pub fn help_key(key: KeyEvent) -> Option<HelpKey> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    Some(match key.code {
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => HelpKey::Quit,
        KeyCode::Char('q') | KeyCode::Char('Q') => HelpKey::Quit,
        KeyCode::Up | KeyCode::Char('k') => HelpKey::Up(1),
        KeyCode::Down | KeyCode::Char('j') => HelpKey::Down(1),
        KeyCode::PageUp => HelpKey::Up(HELP_PAGE),
        KeyCode::PageDown | KeyCode::Char(' ') => HelpKey::Down(HELP_PAGE),
        KeyCode::Home => HelpKey::Top,
        KeyCode::End => HelpKey::Bottom,
        _ => HelpKey::Close,
    })
}

/// What the input thread forwards.
#[derive(Debug)]
pub(crate) enum Input {
    /// A key was pressed (or released, or repeated).
    Key(KeyEvent),
    /// The terminal changed size: draw again.
    Resize,
}

/// The status line: a message and when it stops being shown.
#[derive(Debug, Default)]
struct Status {
    text: String,
    until: Option<Instant>,
}

impl Status {
    fn set(&mut self, text: String) {
        self.until = (!text.is_empty()).then(|| Instant::now() + STATUS_TTL);
        self.text = text;
    }

    fn expire(&mut self) {
        self.text.clear();
        self.until = None;
    }
}

/// The terminal's keys and resizes, read on a thread of their own. A process needs only
/// one: a second reader would race the first for keys, so screens shown one after another
/// (waiting in the queue, then the battle) hand it on.
#[derive(Debug)]
pub struct Keys {
    rx: mpsc::Receiver<Input>,
}

impl Keys {
    /// Start reading the terminal's keys.
    pub fn spawn() -> Keys {
        Keys {
            rx: spawn_input_thread(),
        }
    }

    /// The next key or resize; `None` once the reading thread has stopped.
    pub(crate) async fn recv(&mut self) -> Option<Input> {
        self.rx.recv().await
    }
}

/// Take over the terminal and run the UI until the person quits. `invite` holds the lines
/// that tell others how to join and watch (shown while the battle waits for players). The
/// terminal is restored before returning, also on error; the session is left open for the
/// caller to quit.
pub async fn run(session: &mut AnySession, invite: Vec<String>) -> io::Result<()> {
    run_with_keys(session, invite, &mut Keys::spawn()).await
}

/// [`run`], reading the keys from `keys` (already read by an earlier screen).
pub async fn run_with_keys(
    session: &mut AnySession,
    invite: Vec<String>,
    keys: &mut Keys,
) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let result = ui_loop(&mut terminal, session, &invite, keys).await;
    ratatui::restore();
    result
}

/// Read the terminal's keys and resizes on a thread of their own (crossterm's reader blocks),
/// forwarded to the returned channel until it closes.
pub(crate) fn spawn_input_thread() -> mpsc::Receiver<Input> {
    let (tx, rx) = mpsc::channel(32);
    std::thread::spawn(move || loop {
        let input = match event::read() {
            Ok(TermEvent::Key(key)) => Input::Key(key),
            Ok(TermEvent::Resize(..)) => Input::Resize,
            Ok(_) => continue,
            Err(_) => return,
        };
        if tx.blocking_send(input).is_err() {
            return;
        }
    });
    rx
}

async fn ui_loop(
    terminal: &mut DefaultTerminal,
    session: &mut AnySession,
    invite: &[String],
    keys: &mut Keys,
) -> io::Result<()> {
    let mut status = Status::default();
    let mut show_help = false;
    let mut help_scroll = 0usize;
    let mut help_max = 0usize;
    let mut hand = HandNumbers::default();
    let mut log_scroll = 0usize;
    let mut gambit = GambitUi::default();
    let mut picker = Picker::default();
    // When `!` was pressed once: a second press within RESIGN_CONFIRM resigns.
    let mut resign_asked: Option<Instant> = None;
    let mut last_view: Option<Value> = session.feed().tracker().view().cloned();
    picker.sync(session.feed().tracker());
    hand.sync(session.feed().tracker());
    loop {
        terminal.draw(|frame| {
            let feed = session.feed();
            let mut screen = Screen::of(feed.tracker(), feed.link());
            screen.status = &status.text;
            screen.show_help = show_help;
            screen.invite = invite;
            screen.log_scroll = log_scroll;
            screen.gambit = Some(&gambit);
            screen.picker = Some(&picker);
            screen.hand = Some(&hand);
            screen.now_ms = clock::now_ms();
            if show_help {
                help_max = help::max_scroll(&screen, help_area(frame.area()));
                help_scroll = help_scroll.min(help_max);
                screen.help_scroll = help_scroll;
            }
            draw(frame, &screen)
        })?;
        let expiry = status.until;
        let countdown = session
            .feed()
            .tracker()
            .view()
            .and_then(|view| clock::next_redraw(view, clock::now_ms()));
        tokio::select! {
            event = session.feed_mut().next_event() => {
                let tracker = session.feed().tracker();
                gambit.sync(tracker);
                hand.sync(tracker);
                let closed = picker.sync(tracker);
                let told = notices(last_view.as_ref(), tracker);
                last_view = tracker.view().cloned();
                if !told.is_empty() {
                    status.set(told.join(" · "));
                } else if let Some(words) = closed {
                    status.set(words);
                } else if let Some(words) = describe(&event) {
                    status.set(words);
                }
            }
            () = tokio::time::sleep_until(expiry.unwrap_or_else(Instant::now)), if expiry.is_some() => {
                status.expire();
            }
            // Nothing to do but draw the countdown again.
            () = tokio::time::sleep(countdown.unwrap_or_default()), if countdown.is_some() => {}
            input = keys.recv() => {
                let Some(input) = input else { return Ok(()) };
                let Input::Key(key) = input else { continue };
                if show_help {
                    match help_key(key) {
                        None => {}
                        Some(HelpKey::Quit) => return Ok(()),
                        Some(HelpKey::Close) => show_help = false,
                        Some(HelpKey::Up(n)) => help_scroll = help_scroll.saturating_sub(n),
                        Some(HelpKey::Down(n)) => {
                            help_scroll = help_scroll.saturating_add(n).min(help_max);
                        }
                        Some(HelpKey::Top) => help_scroll = 0,
                        Some(HelpKey::Bottom) => help_scroll = help_max,
                    }
                    continue;
                }
                let tracker = session.feed().tracker();
                let in_gambit = tracker
                    .view()
                    .is_some_and(|v| v["ruleset"] == "gambit" && !v["game"].is_null());
                let in_picker = tracker.view().is_some_and(uses_picker)
                    && tracker.seat().is_some()
                    && !tracker.is_over();
                let command = if in_gambit {
                    gambit_command_for_key(key)
                } else if in_picker {
                    picker_command_for_key(key)
                } else {
                    command_for_key(key)
                };
                match command {
                    None => {}
                    Some(Command::Quit) => return Ok(()),
                    Some(Command::Resign) => {
                        let confirmed = resign_asked
                            .take()
                            .is_some_and(|at| at.elapsed() < RESIGN_CONFIRM);
                        if !confirmed {
                            resign_asked = Some(Instant::now());
                            status.set("press ! again to resign: you lose the battle at once".into());
                        } else if let AnySession::Player(player) = session {
                            match player.resign().await {
                                Ok(_) => status.set("you resigned".to_owned()),
                                Err(e) => status.set(format!("not sent: {e}")),
                            }
                        } else {
                            status.set("you are watching: spectators cannot resign".to_owned());
                        }
                    }
                    Some(Command::Help) => {
                        show_help = true;
                        help_scroll = 0;
                    }
                    Some(Command::ScrollBack(n)) => log_scroll = log_scroll.saturating_add(n),
                    Some(Command::ScrollForward(n)) => log_scroll = log_scroll.saturating_sub(n),
                    Some(Command::ScrollEnd) => log_scroll = 0,
                    Some(Command::Retry) => {
                        if session.feed_mut().retry_now() {
                            status.set("reconnecting now".to_owned());
                        } else {
                            status.set("already connected (or reconnecting)".to_owned());
                        }
                    }
                    Some(command) if in_gambit => {
                        show_help = false;
                        let effect = gambit.command(session.feed().tracker(), command);
                        if let Some(words) = carry_out(session, effect).await {
                            status.set(words);
                        }
                    }
                    Some(command) if in_picker => {
                        show_help = false;
                        let effect = picker.command(session.feed().tracker(), command);
                        if let Some(words) = carry_out(session, effect).await {
                            status.set(words);
                        }
                    }
                    Some(command) => {
                        show_help = false;
                        let command = match by_hand_number(session.feed().tracker(), &hand, command) {
                            Ok(command) => command,
                            Err(why) => {
                                status.set(format!("not sent: {why}"));
                                continue;
                            }
                        };
                        if let Some(words) = act(session, command).await {
                            status.set(words);
                        }
                    }
                }
            }
        }
    }
}

/// Synergy's digit keys play the card with that number (kept through the turn); the
/// command that plays it by its place in the hand. Every other command is left as it is.
fn by_hand_number(
    tracker: &battle_client::ViewTracker,
    numbers: &HandNumbers,
    command: Command,
) -> Result<Command, String> {
    let synergy = tracker.view().filter(|v| v["ruleset"] == "synergy");
    match (command, synergy) {
        (Command::Play(n), Some(view)) => match hand_of(view, tracker.seat()) {
            Some(hand) => position(hand, Some(numbers), n).map(Command::Play),
            None => Ok(Command::Play(n)),
        },
        (command, _) => Ok(command),
    }
}

/// The status line for an event; `None` keeps the current one.
fn describe(event: &Event) -> Option<String> {
    match event {
        Event::Changed => None,
        Event::Resyncing(why) => Some(format!("out of step ({why}); asking for a fresh view")),
        Event::Resynced => Some("view refreshed from the server".to_owned()),
        Event::Refused { code, message } => {
            Some(format!("refused by the server: {message} ({code})"))
        }
        Event::Link(link) => Some(link.describe()),
        Event::Left(reason) if reason == "replaced" => Some(
            "your seat was taken over from another connection; press r to take it back here"
                .to_owned(),
        ),
        Event::Left(reason) => Some(format!("the server stopped sending this battle ({reason})")),
        Event::Notice(n) => Some(n.clone()),
    }
}

/// Send the action `command` stands for; `Some(words)` for the status line.
async fn act(session: &mut AnySession, command: Command) -> Option<String> {
    let AnySession::Player(player) = session else {
        return Some("you are watching: spectators cannot act".to_owned());
    };
    match resolve(player.feed().tracker(), command) {
        Err(why) => Some(format!("not sent: {why}")),
        Ok(action) => match player.act(action).await {
            Ok(_) => Some(String::new()),
            Err(e) => Some(format!("not sent: {e}")),
        },
    }
}

/// Carry out what a selection command came to (gambit's panel, the picker): nothing, a
/// note, or an action to send; `Some(words)` for the status line.
async fn carry_out(session: &mut AnySession, effect: Result<Effect, String>) -> Option<String> {
    match effect {
        Err(why) => Some(format!("not sent: {why}")),
        Ok(Effect::Nothing) => None,
        Ok(Effect::Note(words)) => Some(words),
        Ok(Effect::Send(action)) => {
            let AnySession::Player(player) = session else {
                return Some("you are watching: spectators cannot act".to_owned());
            };
            match player.act(action).await {
                Ok(_) => Some(String::new()),
                Err(e) => Some(format!("not sent: {e}")),
            }
        }
    }
}
