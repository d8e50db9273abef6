//! What the person has selected on the gambit panel (a character, one of its rule slots, a
//! chosen offered skill) and the small rule editor, with the actions gambit commands turn
//! into. Everything sent is a `legal` entry of the view: closed ones as they are, the open
//! `set_rule` entry filled with values its `$choose` schemas list and checked with
//! [`fill::admits`]; the editor's skills, conditions and targeting modes are read from
//! those schemas, never from a list of this client's own.

use battle_protocol::choose::choose;
use serde_json::Value;

use super::words::{own_units, skill_name, text, unit_label, units_in_order, why_no_edit, why_not};
use crate::choice::{resolve, Effect};
use crate::keys::{Command, Nav};
use battle_client::fill::{self, choices};
use battle_client::ViewTracker;

/// Rule slots when a unit's view does not show them (its rules are hidden).
const DEFAULT_SLOTS: usize = 3;

/// The panel's selection and editor, kept by the full-screen loop between frames.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GambitUi {
    /// The selected unit: an index into [`units_in_order`] (the viewer's party first).
    pub unit: usize,
    /// The selected rule slot, 0-based.
    pub slot: usize,
    /// The rule being edited, while the editor is open.
    pub draft: Option<Draft>,
    /// In the reward phase: the offered skill chosen (0-based), waiting for a character.
    pub offer: Option<usize>,
}

/// A rule being edited: one value per field, each from the open entry's schemas.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The id of the character whose rule it is.
    pub unit: Value,
    /// Its slot, 1-based.
    pub slot: usize,
    /// The field the arrows change: 0 the skill, then the conditions, then the target.
    pub field: usize,
    /// The skill.
    pub skill: Value,
    /// One value per condition field; `null` leaves the field empty.
    pub conditions: Vec<Value>,
    /// The targeting mode (`null`: the skill's own).
    pub target: Value,
}

/// The schema of parameter `name` of an open entry.
fn param<'a>(entry: &'a Value, name: &str) -> Option<&'a Value> {
    entry.get(name).and_then(choose)
}

/// The open `set_rule` entry of character `unit`, when its rules may be edited now.
pub fn set_rule_entry<'a>(tracker: &'a ViewTracker, unit: &Value) -> Option<&'a Value> {
    tracker
        .legal_actions()
        .iter()
        .find(|a| a["kind"] == "set_rule" && a["unit"] == *unit && fill::is_open(a))
}

/// The number of rule slots of `unit`.
pub fn slot_count(unit: &Value) -> usize {
    unit["rules"]
        .as_array()
        .map_or(DEFAULT_SLOTS, Vec::len)
        .max(1)
}

/// One field of the editor as the panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldView {
    /// `skill`, `condition 1`, ..., `target`.
    pub label: String,
    /// The value in words.
    pub value: String,
}

impl Draft {
    /// A draft of `unit`'s rule in `slot` (1-based), starting from the rule there when the
    /// entry admits its values, else from the first skill, no condition and the skill's own
    /// targeting.
    pub fn new(entry: &Value, unit: &Value, slot: usize) -> Draft {
        let skills = param(entry, "skill").map(choices).unwrap_or_default();
        let conditions_schema = param(entry, "conditions");
        let fields = conditions_schema
            .and_then(|s| s["maxItems"].as_u64())
            .unwrap_or(2) as usize;
        let targets = param(entry, "target").map(choices).unwrap_or_default();
        let rule = &unit["rules"][slot.saturating_sub(1)];
        let known = |v: &Value, list: &[Value]| list.contains(v).then(|| v.clone());
        let mut conditions = vec![Value::Null; fields];
        if let (Some(have), Some(schema)) = (rule["conditions"].as_array(), conditions_schema) {
            let listed = choices(&schema["items"]);
            for (field, c) in conditions.iter_mut().zip(have) {
                if listed.contains(c) {
                    *field = c.clone();
                }
            }
        }
        Draft {
            unit: unit["id"].clone(),
            slot,
            field: 0,
            skill: known(&rule["skill"], &skills)
                .or_else(|| skills.first().cloned())
                .unwrap_or(Value::Null),
            conditions,
            target: known(&rule["target"], &targets)
                .or_else(|| targets.first().cloned())
                .unwrap_or(Value::Null),
        }
    }

    /// The number of fields: the skill, the conditions, the target.
    pub fn field_count(&self) -> usize {
        self.conditions.len() + 2
    }

    /// Move to another field (`step` +1 or -1, wrapping).
    fn step_field(&mut self, step: isize) {
        self.field = wrap(self.field, step, self.field_count());
    }

    /// Change the selected field to the next (`step` +1) or previous (-1) value `entry`
    /// lists for it.
    fn step_value(&mut self, entry: &Value, step: isize) {
        let (list, value) = match self.field {
            0 => (
                param(entry, "skill").map(choices).unwrap_or_default(),
                &mut self.skill,
            ),
            f if f <= self.conditions.len() => {
                let mut list = vec![Value::Null];
                if let Some(schema) = param(entry, "conditions") {
                    list.extend(choices(&schema["items"]));
                }
                (list, &mut self.conditions[f - 1])
            }
            _ => (
                param(entry, "target").map(choices).unwrap_or_default(),
                &mut self.target,
            ),
        };
        if list.is_empty() {
            return;
        }
        let at = list.iter().position(|v| v == value).unwrap_or(0);
        *value = list[wrap(at, step, list.len())].clone();
    }

    /// The fields in words, for the panel.
    pub fn fields(&self, game: &Value) -> Vec<FieldView> {
        let mut out = vec![FieldView {
            label: "skill".to_owned(),
            value: skill_name(game, &self.skill),
        }];
        for (i, c) in self.conditions.iter().enumerate() {
            out.push(FieldView {
                label: format!("condition {}", i + 1),
                value: super::words::condition_words(c),
            });
        }
        out.push(FieldView {
            label: "target".to_owned(),
            value: super::words::target_words(&self.target),
        });
        out
    }

    /// The `set_rule` action this draft stands for, checked against `entry`.
    pub fn action(&self, entry: &Value) -> Result<Value, String> {
        let conditions: Vec<Value> = self
            .conditions
            .iter()
            .filter(|c| !c.is_null())
            .cloned()
            .collect();
        if conditions.len() == 2 && conditions[0] == conditions[1] {
            return Err("the two conditions are the same: change or empty one".to_owned());
        }
        let Value::Object(map) = entry else {
            return Err("the set_rule entry is not an action".to_owned());
        };
        let mut action = map.clone();
        for (name, _) in fill::parameters(entry) {
            let value = match name.as_str() {
                "slot" => Value::from(self.slot),
                "skill" => self.skill.clone(),
                "conditions" => Value::from(conditions.clone()),
                "target" => self.target.clone(),
                other => return Err(format!("this client does not know how to fill {other}")),
            };
            action.insert(name, value);
        }
        let action = Value::Object(action);
        if fill::admits(entry, &action) {
            Ok(action)
        } else {
            Err(format!(
                "this rule is not one the server offers now: {}",
                fill::describe(entry)
            ))
        }
    }
}

/// `at` moved by `step` within `0..len`, wrapping around.
fn wrap(at: usize, step: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    let len = len as isize;
    ((at as isize + step).rem_euclid(len)) as usize
}

impl GambitUi {
    /// The selected unit.
    pub fn selected<'a>(&self, tracker: &'a ViewTracker) -> Option<&'a Value> {
        let units = units_in_order(tracker);
        let last = units.len().checked_sub(1)?;
        units.get(self.unit.min(last)).copied()
    }

    /// The selected slot of the selected unit, 0-based.
    pub fn selected_slot(&self, tracker: &ViewTracker) -> usize {
        let slots = self.selected(tracker).map_or(DEFAULT_SLOTS, slot_count);
        self.slot.min(slots - 1)
    }

    /// Follow a new view: the editor closes once its rule can no longer be edited, a chosen
    /// offered skill is forgotten once there is no offering.
    pub fn sync(&mut self, tracker: &ViewTracker) {
        if let Some(draft) = &self.draft {
            if set_rule_entry(tracker, &draft.unit).is_none() {
                self.draft = None;
            }
        }
        let offering = tracker
            .game()
            .and_then(|g| g["offering"].as_array())
            .map_or(0, Vec::len);
        if self.offer.is_some_and(|o| o >= offering) {
            self.offer = None;
        }
    }

    /// Carry out `command`: move the selection, edit, or say which action to send; `Err`
    /// says in words why nothing can be done.
    pub fn command(&mut self, tracker: &ViewTracker, command: Command) -> Result<Effect, String> {
        if self.draft.is_some() {
            return self.in_editor(tracker, command);
        }
        let units = units_in_order(tracker).len().max(1);
        let reward = tracker.game().is_some_and(|g| g["phase"] == "reward");
        match command {
            Command::Nav(Nav::Left | Nav::Previous) => {
                self.unit = wrap(self.unit.min(units - 1), -1, units);
            }
            Command::Nav(Nav::Right | Nav::Next) => {
                self.unit = wrap(self.unit.min(units - 1), 1, units);
            }
            Command::Nav(Nav::Up) => self.slot = self.selected_slot(tracker).saturating_sub(1),
            Command::Nav(Nav::Down) => {
                let slots = self.selected(tracker).map_or(DEFAULT_SLOTS, slot_count);
                self.slot = (self.selected_slot(tracker) + 1).min(slots - 1);
            }
            Command::Play(n) if reward => return self.reward_digit(tracker, n),
            Command::Play(n) => {
                let slots = self.selected(tracker).map_or(DEFAULT_SLOTS, slot_count);
                if n == 0 || n > slots {
                    return Err(format!("the slots are 1 to {slots}"));
                }
                self.slot = n - 1;
            }
            Command::Confirm if self.offer.is_some() => {
                let unit = self.selected(tracker).ok_or("no character is selected")?;
                return self.take(tracker, unit);
            }
            Command::Confirm if reward => {
                return Err("press 1-3 to choose an offered skill first, or k to skip".to_owned())
            }
            Command::Confirm => return self.open_editor(tracker),
            Command::Cancel if self.offer.take().is_some() => {
                return Ok(Effect::Note(
                    "choose an offered skill again (1-3)".to_owned(),
                ))
            }
            Command::Cancel => return Ok(Effect::Note("nothing to close; q quits".to_owned())),
            Command::ClearRule => return self.slot_action(tracker, "clear_rule", None),
            Command::MoveRule(up) => {
                let direction = if up { "up" } else { "down" };
                let effect = self.slot_action(tracker, "move_rule", Some(direction))?;
                let slot = self.selected_slot(tracker);
                self.slot = if up { slot.saturating_sub(1) } else { slot + 1 };
                return Ok(effect);
            }
            Command::Skip => {
                self.offer = None;
                return resolve(tracker, command).map(Effect::Send);
            }
            other => return resolve(tracker, other).map(Effect::Send),
        }
        Ok(Effect::Nothing)
    }

    /// A command while the editor is open.
    fn in_editor(&mut self, tracker: &ViewTracker, command: Command) -> Result<Effect, String> {
        let Some(draft) = self.draft.as_mut() else {
            return Ok(Effect::Nothing);
        };
        let Some(entry) = set_rule_entry(tracker, &draft.unit) else {
            self.draft = None;
            return Err("the rules cannot be edited any more; the editor is closed".to_owned());
        };
        match command {
            Command::Nav(Nav::Up | Nav::Previous) => draft.step_field(-1),
            Command::Nav(Nav::Down | Nav::Next) => draft.step_field(1),
            Command::Nav(Nav::Left) => draft.step_value(entry, -1),
            Command::Nav(Nav::Right) => draft.step_value(entry, 1),
            Command::Confirm => {
                let action = draft.action(entry)?;
                self.draft = None;
                return Ok(Effect::Send(action));
            }
            Command::Cancel => {
                self.draft = None;
                return Ok(Effect::Note("editor closed; nothing was sent".to_owned()));
            }
            Command::PauseResume | Command::Start => {
                self.draft = None;
                return resolve(tracker, command).map(Effect::Send);
            }
            _ => {
                return Err(
                    "the editor is open: ↑↓ field, ←→ value, Enter sets the rule, Esc closes"
                        .to_owned(),
                )
            }
        }
        Ok(Effect::Nothing)
    }

    /// Open the editor on the selected slot, when its rules may be edited now.
    fn open_editor(&mut self, tracker: &ViewTracker) -> Result<Effect, String> {
        let unit = self.selected(tracker).ok_or("no character is selected")?;
        let entry =
            set_rule_entry(tracker, &unit["id"]).ok_or_else(|| why_no_edit(tracker, unit))?;
        let slot = self.selected_slot(tracker) + 1;
        if !param(entry, "slot").is_none_or(|s| fill::schema_admits(s, &Value::from(slot))) {
            return Err(format!("slot {slot} cannot be edited"));
        }
        self.draft = Some(Draft::new(entry, unit, slot));
        Ok(Effect::Nothing)
    }

    /// `clear_rule` or `move_rule` (with `direction`) on the selected slot, if legal.
    fn slot_action(
        &self,
        tracker: &ViewTracker,
        kind: &str,
        direction: Option<&str>,
    ) -> Result<Effect, String> {
        let unit = self.selected(tracker).ok_or("no character is selected")?;
        let slot = self.selected_slot(tracker) + 1;
        let found = tracker.legal_actions().iter().find(|a| {
            a["kind"] == kind
                && a["unit"] == unit["id"]
                && a["slot"] == slot
                && direction.is_none_or(|d| a["direction"] == d)
        });
        if let Some(action) = found {
            return Ok(Effect::Send(action.clone()));
        }
        if set_rule_entry(tracker, &unit["id"]).is_none() {
            return Err(why_no_edit(tracker, unit));
        }
        let name = text(&unit["name"]);
        Err(match direction {
            _ if unit["rules"][slot - 1].is_null() => format!("{name}'s slot {slot} is empty"),
            Some("up") => format!("{name}'s rule {slot} is already at the top"),
            Some(_) => format!("{name}'s rule {slot} is already at the bottom"),
            None => format!("{name}'s rule {slot} cannot be cleared now"),
        })
    }

    /// A digit in the reward phase: first the offered skill, then the character.
    fn reward_digit(&mut self, tracker: &ViewTracker, n: usize) -> Result<Effect, String> {
        let game = tracker.game().ok_or("no view of the battle yet")?;
        let offering = game["offering"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let own = own_units(tracker);
        if own.is_empty() {
            return Err("spectators cannot take skills".to_owned());
        }
        if self.offer.is_none() {
            if n == 0 || n > offering.len() {
                return Err(format!(
                    "there are {} offered skills: press 1 to {}",
                    offering.len(),
                    offering.len()
                ));
            }
            self.offer = Some(n - 1);
            let who: Vec<String> = own
                .iter()
                .enumerate()
                .map(|(i, u)| format!("{} {}", i + 1, unit_label(u)))
                .collect();
            return Ok(Effect::Note(format!(
                "{} chosen: now the character who learns it ({}), or Enter for the selected one",
                text(&offering[n - 1]["name"]),
                who.join(", ")
            )));
        }
        let unit = n
            .checked_sub(1)
            .and_then(|i| own.get(i))
            .ok_or_else(|| format!("your characters are 1 to {}", own.len()))?;
        self.take(tracker, unit)
    }

    /// `take` of the chosen offered skill for `unit`, if legal.
    fn take(&mut self, tracker: &ViewTracker, unit: &Value) -> Result<Effect, String> {
        let game = tracker.game().ok_or("no view of the battle yet")?;
        let offered = self
            .offer
            .and_then(|i| game["offering"].get(i))
            .ok_or("choose an offered skill first (1-3)")?;
        let action =
            serde_json::json!({"kind": "take", "skill": offered["id"], "unit": unit["id"]});
        if tracker.legal_actions().contains(&action) {
            self.offer = None;
            return Ok(Effect::Send(action));
        }
        let name = text(&offered["name"]);
        let knows = unit["skills"]
            .as_array()
            .is_some_and(|s| s.contains(&offered["id"]));
        Err(if knows {
            format!("{} already knows {name}", text(&unit["name"]))
        } else if !own_units(tracker).iter().any(|u| u["id"] == unit["id"]) {
            format!("{} is not one of your characters", unit_label(unit))
        } else {
            format!("{name} cannot be taken for {} now", text(&unit["name"]))
        })
    }
}

/// Why a phase action is not legal, or the action (`pause`/`resume`, `start`, `skip`).
pub fn phase_action(tracker: &ViewTracker, kinds: &[&str]) -> Result<Value, String> {
    let view = tracker.view().ok_or("no view of the battle yet")?;
    tracker
        .legal_actions()
        .iter()
        .find(|a| kinds.iter().any(|k| a["kind"] == *k))
        .cloned()
        .ok_or_else(|| why_not(view, kinds[0]))
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
