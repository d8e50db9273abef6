//! Choosing among the legal actions with keys, in the full-screen UI of every ruleset
//! without a selection of its own (heroes, and the generic panel): a cursor over the
//! envelope's `legal` list moved with ↑↓ and taken with Enter, the digits 1-9 taking an
//! entry directly, and a [`Form`] for an open entry's values. Any number of entries is
//! reachable, and every open entry whose schemas list their values is filled with keys.
//!
//! Each new decision starts afresh: when the legal list or the prompt changes, the cursor
//! goes back to the first entry (so Enter never takes what happens to sit where the old
//! cursor was), while an open form stays open as long as its entry is still legal. An entry
//! whose values can each be only one thing is sent at once, without a form.

use serde_json::Value;

use super::choice::{can_act, resolve, Effect};
use super::form::{filled, needs_choice, Form};
use super::keys::{Command, Nav};
use battle_client::ViewTracker;

/// The cursor, the form being filled, and the list they refer to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Picker {
    /// The entry under the cursor (0-based).
    pub cursor: usize,
    /// The open entry being filled, if any.
    pub form: Option<Form>,
    /// The `legal` list as last seen, to tell a new decision.
    seen: Vec<Value>,
    /// The prompt as last seen, to tell a new decision with the same legal list.
    prompt: Value,
}

impl Picker {
    /// Follow a new view: on a new decision (another legal list or prompt) the cursor goes
    /// back to the first entry; the form stays on its entry while it is legal. `Some(words)`
    /// when the form had to close.
    pub fn sync(&mut self, tracker: &ViewTracker) -> Option<String> {
        let legal = tracker.legal_actions();
        let prompt = tracker
            .view()
            .map_or(Value::Null, |view| view["prompt"].clone());
        if legal == self.seen.as_slice() && prompt == self.prompt {
            return None;
        }
        self.cursor = 0;
        let mut note = None;
        if let Some(form) = &mut self.form {
            match legal.iter().position(|e| *e == form.entry) {
                Some(index) => {
                    form.index = index;
                    self.cursor = index;
                }
                None => {
                    self.form = None;
                    note = Some("that choice is no longer open; nothing was sent".to_owned());
                }
            }
        }
        self.seen = legal.to_vec();
        self.prompt = prompt;
        note
    }

    /// Carry out `command`: move the cursor or the form, or say which action to send;
    /// `Err` says in words why nothing can be done.
    pub fn command(&mut self, tracker: &ViewTracker, command: Command) -> Result<Effect, String> {
        if self.form.is_some() {
            if let Some(effect) = self.in_form(command.clone()) {
                return effect;
            }
        }
        let len = tracker.legal_actions().len();
        match command {
            Command::Nav(Nav::Up | Nav::Previous) => self.cursor = self.cursor.saturating_sub(1),
            Command::Nav(Nav::Down | Nav::Next) => {
                self.cursor = (self.cursor + 1).min(len.saturating_sub(1));
            }
            Command::Nav(Nav::Left | Nav::Right) | Command::Cancel => {}
            Command::Toggle => {
                return Err("space chooses inside an action; Enter or a number takes one".into())
            }
            Command::Play(0) => return Err("the actions are numbered from 1".to_owned()),
            Command::Play(n) => return self.take(tracker, n - 1),
            Command::Confirm => return self.take(tracker, self.cursor),
            other => {
                self.form = None;
                return resolve(tracker, other).map(Effect::Send);
            }
        }
        Ok(Effect::Nothing)
    }

    /// `command` while a form is open; `None` when the command is not the form's (it then
    /// means what it means without a form, and the form closes if it acts).
    fn in_form(&mut self, command: Command) -> Option<Result<Effect, String>> {
        let form = self.form.as_mut()?;
        let done = |r: Result<(), String>| r.map(|()| Effect::Nothing);
        Some(match command {
            Command::Nav(Nav::Up | Nav::Previous) => {
                form.step_field(false);
                Ok(Effect::Nothing)
            }
            Command::Nav(Nav::Down | Nav::Next) => {
                form.step_field(true);
                Ok(Effect::Nothing)
            }
            Command::Nav(Nav::Left) => {
                form.step_value(false);
                Ok(Effect::Nothing)
            }
            Command::Nav(Nav::Right) => {
                form.step_value(true);
                Ok(Effect::Nothing)
            }
            Command::Toggle => done(form.toggle()),
            Command::Play(n) => done(form.digit(n)),
            Command::Confirm => {
                let action = form.action();
                if action.is_ok() {
                    self.form = None;
                }
                action.map(Effect::Send)
            }
            Command::Cancel => {
                self.form = None;
                Ok(Effect::Note("closed; nothing was sent".to_owned()))
            }
            _ => {
                self.form = None;
                return None;
            }
        })
    }

    /// Take entry `index`: send it when whole, open its form when it has values to choose.
    fn take(&mut self, tracker: &ViewTracker, index: usize) -> Result<Effect, String> {
        can_act(tracker)?;
        let legal = tracker.legal_actions();
        let Some(entry) = legal.get(index) else {
            return Err(format!(
                "there is no legal action {}: {} are legal",
                index + 1,
                legal.len()
            ));
        };
        self.cursor = index;
        if !needs_choice(entry) {
            return filled(entry).map(Effect::Send);
        }
        self.form = Some(Form::open(index, entry)?);
        Ok(Effect::Nothing)
    }
}

#[cfg(test)]
#[path = "picker_tests.rs"]
mod tests;
