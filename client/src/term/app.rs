//! The full-screen UI loop: draws the battle after every event and reads keys from a thread
//! of its own (crossterm's blocking reader feeding a tokio channel).

use std::io;

use ratatui::crossterm::event::{self, Event as TermEvent, KeyEvent};
use ratatui::DefaultTerminal;
use tokio::sync::mpsc;

use super::choice::resolve;
use super::feed::Event;
use super::keys::{command_for_key, Command};
use super::session::AnySession;
use super::ui::{draw, Screen};

/// What the input thread forwards.
#[derive(Debug)]
enum Input {
    Key(KeyEvent),
    Resize,
}

/// Take over the terminal and run the UI until the person quits. `greeting` is the first
/// status line (e.g. how others can join). The terminal is restored before returning, also
/// on error; the session is left open for the caller to quit.
pub async fn run(session: &mut AnySession, greeting: String) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let result = ui_loop(&mut terminal, session, greeting).await;
    ratatui::restore();
    result
}

fn spawn_input_thread() -> mpsc::Receiver<Input> {
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
    greeting: String,
) -> io::Result<()> {
    let mut keys = spawn_input_thread();
    let mut status = greeting;
    let mut show_help = false;
    loop {
        terminal.draw(|frame| {
            let feed = session.feed();
            draw(
                frame,
                &Screen {
                    tracker: feed.tracker(),
                    link: feed.link(),
                    status: &status,
                    show_help,
                },
            )
        })?;
        tokio::select! {
            event = session.feed_mut().next_event() => {
                if let Some(words) = describe(&event) {
                    status = words;
                }
            }
            input = keys.recv() => {
                let Some(input) = input else { return Ok(()) };
                let Input::Key(key) = input else { continue };
                match command_for_key(key) {
                    None => {}
                    Some(Command::Quit) => return Ok(()),
                    Some(Command::Help) => show_help = !show_help,
                    Some(command) => {
                        show_help = false;
                        if let Some(words) = act(session, command).await {
                            status = words;
                        }
                    }
                }
            }
        }
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
