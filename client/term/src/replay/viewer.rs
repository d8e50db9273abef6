//! The full-screen replay: each step drawn by the same panel that shows the ruleset live to
//! a spectator, with the replay's step line (where it is, autoplay, the keys) in place of the
//! key hints, and autoplay taking one step per interval on a timer of its own.

use std::io;

use battle_protocol::Replay;
use ratatui::{DefaultTerminal, Frame};
use serde_json::Value;
use tokio::time::Instant;

use super::keys::{replay_command_for_key, ReplayCommand, REPLAY_KEYS};
use super::stepper::Stepper;
use crate::app::{spawn_input_thread, Input};
use crate::ui::{draw, Screen};
use crate::Link;
use battle_client::ViewTracker;

/// One frame of a replay: the step's view, where the replay is, the status message and how
/// far the log is scrolled back.
#[derive(Debug, Clone, Copy)]
pub struct StepScreen<'a> {
    /// The step's view (a spectator's, without `seats` and `clocks`).
    pub tracker: &'a ViewTracker,
    /// The replay's place and autoplay.
    pub stepper: &'a Stepper,
    /// The last thing worth telling (what the battle was, where autoplay stopped).
    pub status: &'a str,
    /// How many log lines the person has scrolled back from the newest.
    pub log_scroll: usize,
}

/// The step line: "step 3/41 · autoplay off (1 s) · " then the keys.
pub fn step_line(stepper: &Stepper) -> String {
    let speed = stepper.interval().as_secs_f64();
    format!(
        "step {}/{} · autoplay {} ({speed} s) · {REPLAY_KEYS}",
        stepper.index(),
        stepper.steps(),
        if stepper.playing() { "on" } else { "off" },
    )
}

/// Draw one replay step over the whole frame.
pub fn draw_step(frame: &mut Frame<'_>, step: &StepScreen<'_>) {
    let line = step_line(step.stepper);
    // No connection: the indicator shows the replay instead, and no clock runs.
    let link = Link::Connected;
    let mut screen = Screen::of(step.tracker, &link);
    screen.status = step.status;
    screen.log_scroll = step.log_scroll;
    screen.replay = Some(&line);
    draw(frame, &screen);
}

/// Take over the terminal and step through `views` (the replay's, start first) until the
/// person quits; `intro` is the first status message. The terminal is restored before
/// returning, also on error.
pub async fn run(replay: &Replay, views: &[Value], intro: String) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let result = replay_loop(&mut terminal, replay, views, intro).await;
    ratatui::restore();
    result
}

async fn replay_loop(
    terminal: &mut DefaultTerminal,
    replay: &Replay,
    views: &[Value],
    intro: String,
) -> io::Result<()> {
    let Some(first) = views.first() else {
        return Ok(());
    };
    let mut keys = spawn_input_thread();
    let mut stepper = Stepper::new(views.len() - 1);
    let mut tracker = ViewTracker::with_view(&replay.battle_id, 0, first.clone());
    let mut shown = 0;
    let mut status = intro;
    let mut log_scroll = 0usize;
    loop {
        if shown != stepper.index() {
            shown = stepper.index();
            tracker = ViewTracker::with_view(&replay.battle_id, shown as u64, views[shown].clone());
            log_scroll = 0;
        }
        terminal.draw(|frame| {
            let step = StepScreen {
                tracker: &tracker,
                stepper: &stepper,
                status: &status,
                log_scroll,
            };
            draw_step(frame, &step)
        })?;
        let due = stepper.due().map(Instant::from_std);
        tokio::select! {
            () = tokio::time::sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {
                stepper.tick(std::time::Instant::now());
                if stepper.at_end() {
                    status = "autoplay stopped: this is the result (space plays it again)".to_owned();
                }
            }
            input = keys.recv() => {
                let Some(input) = input else { return Ok(()) };
                let Input::Key(key) = input else { continue };
                let Some(command) = replay_command_for_key(key) else { continue };
                let now = std::time::Instant::now();
                let words = match command {
                    ReplayCommand::Quit => return Ok(()),
                    ReplayCommand::Forward => (!stepper.forward(now)).then_some("this is the end: the result"),
                    ReplayCommand::Back => (!stepper.back(now)).then_some("this is the start"),
                    ReplayCommand::Start => {
                        stepper.to_start(now);
                        Some("the start: every seat set up")
                    }
                    ReplayCommand::End => {
                        stepper.to_end(now);
                        Some("the end: the result")
                    }
                    ReplayCommand::Toggle => {
                        stepper.toggle(now);
                        Some(if stepper.playing() { "autoplay on" } else { "autoplay off" })
                    }
                    ReplayCommand::Faster => Some(if stepper.faster() { "faster" } else { "already the fastest" }),
                    ReplayCommand::Slower => Some(if stepper.slower() { "slower" } else { "already the slowest" }),
                    ReplayCommand::ScrollBack(n) => {
                        log_scroll = log_scroll.saturating_add(n);
                        None
                    }
                    ReplayCommand::ScrollForward(n) => {
                        log_scroll = log_scroll.saturating_sub(n);
                        None
                    }
                };
                if let Some(words) = words {
                    status = words.to_owned();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_line_says_where_and_how_fast() {
        let mut s = Stepper::new(41);
        let now = std::time::Instant::now();
        assert!(
            step_line(&s).starts_with("step 0/41 · autoplay off (1 s) · →/← step"),
            "{}",
            step_line(&s)
        );
        s.forward(now);
        s.toggle(now);
        s.faster();
        assert!(step_line(&s).starts_with("step 1/41 · autoplay on (0.5 s)"));
        assert!(step_line(&s).ends_with("q quit"));
    }
}
