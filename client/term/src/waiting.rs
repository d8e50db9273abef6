//! Waiting for a match on screen: one line per event in plain mode, or the full-screen
//! waiting box, until the [`Queue`] finds a battle, the server takes us out of the queue, or
//! the person quits (which leaves the queue). The battle itself is then played as after
//! `join`.

use std::io::{self, Write};
use std::time::Duration;

use ratatui::crossterm::event::KeyCode;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::app::{Input, Keys};
use super::keys::{parse_line, Command};
use super::queue::{Queue, Waited};
use super::session::PlayerSession;
use super::ui::queue::{draw_queue, QueueScreen};
use super::SessionError;

/// How a wait ended.
#[derive(Debug)]
pub enum Wait {
    /// A battle was found.
    Matched(Box<PlayerSession>),
    /// The person left the queue.
    Quit,
    /// The server took us out of the queue, for this reason.
    Unqueued(String),
}

/// Why waiting failed.
#[derive(Debug, thiserror::Error)]
pub enum WaitError {
    /// The terminal or the output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The connection failed, or the server refused.
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// The line that says we wait: "waiting for an opponent (1 waiting)".
pub fn waiting_line(waiting: usize) -> String {
    format!("waiting for an opponent ({waiting} waiting)")
}

/// The line that says when the server's bots step in, if they will.
pub fn bot_line(bot_after: Option<Duration>) -> Option<String> {
    bot_after.map(|wait| {
        format!(
            "without a match within {} s, you play the server's bots",
            wait.as_secs()
        )
    })
}

/// Plain mode: print the waiting lines to `out` and read `quit` from `input`, until a match.
/// Input that ends leaves the queue, as `quit` does.
pub async fn plain(
    mut queue: Queue,
    bot_after: Option<Duration>,
    input: &mut mpsc::Receiver<Option<String>>,
    out: &mut impl Write,
) -> Result<Wait, WaitError> {
    writeln!(
        out,
        "queued for {}: {}",
        queue.ruleset(),
        waiting_line(queue.waiting())
    )?;
    if let Some(line) = bot_line(bot_after) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "type quit to leave the queue")?;
    out.flush()?;
    loop {
        tokio::select! {
            waited = queue.next() => return Ok(settle(waited?)),
            line = input.recv() => {
                let Some(Some(line)) = line else {
                    writeln!(out, "input ended; leaving the queue")?;
                    queue.leave().await;
                    return Ok(Wait::Quit);
                };
                match parse_line(&line) {
                    Ok(Command::Quit) => {
                        queue.leave().await;
                        return Ok(Wait::Quit);
                    }
                    _ => writeln!(out, "refused: waiting for an opponent; type quit to leave")?,
                }
                out.flush()?;
            }
        }
    }
}

/// Full screen: the waiting box, redrawn every second with the time waited, until a match;
/// `q` or Esc leaves the queue. The terminal is restored before returning.
pub async fn screen(
    mut queue: Queue,
    bot_after: Option<Duration>,
    keys: &mut Keys,
) -> Result<Wait, WaitError> {
    let mut terminal = ratatui::try_init()?;
    let since = Instant::now();
    let result = loop {
        let drawn = terminal.draw(|frame| {
            let screen = QueueScreen {
                ruleset: queue.ruleset(),
                waiting: queue.waiting(),
                waited: since.elapsed(),
                bot_after,
            };
            draw_queue(frame, &screen);
        });
        if let Err(err) = drawn {
            break Err(err.into());
        }
        tokio::select! {
            waited = queue.next() => break waited.map(settle).map_err(WaitError::from),
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            input = keys.recv() => match input {
                Some(Input::Key(key))
                    if matches!(key.code, KeyCode::Char('q') | KeyCode::Esc) =>
                {
                    queue.leave().await;
                    break Ok(Wait::Quit);
                }
                Some(_) => {}
                None => {
                    queue.leave().await;
                    break Ok(Wait::Quit);
                }
            },
        }
    };
    ratatui::restore();
    result
}

fn settle(waited: Waited) -> Wait {
    match waited {
        Waited::Matched(player) => Wait::Matched(player),
        Waited::Unqueued(reason) => Wait::Unqueued(reason),
    }
}
