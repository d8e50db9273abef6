//! Filling an open `legal` entry with keys, in the full-screen UI: one field per value to
//! choose, read from the entry's `$choose` schemas (PROTOCOL.md, "Open decisions"), so it
//! works for any ruleset. A field is one value among those its schema lists (a target, a
//! blocker's attacker or nobody), a number within bounds (how much to spend), or distinct
//! values chosen in order (the cards of a mulligan, attackers, the order of a gang of
//! blockers). A fixed-length list of single choices becomes one field per item.
//!
//! A field that can take one value only (a number from 0 to 0, a list of one target) is
//! filled by itself: it is neither shown nor visited, and an entry whose fields are all
//! like that is sent at once ([`needs_choice`]).
//!
//! The form never sends what its entry does not admit: [`Form::action`] checks with
//! [`fill::admits`] and says in words what is still missing.

use serde_json::{Map, Value};

use battle_client::fill;

/// The values to choose for one open entry, and the field the arrows change.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    /// The entry's position in `legal` (0-based) when the form was opened.
    pub index: usize,
    /// The open entry being filled.
    pub entry: Value,
    /// One field per value to choose, in the order the entry lists its parameters.
    pub fields: Vec<Field>,
    /// The field the arrows and digits change.
    pub at: usize,
}

/// One value to choose.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The entry's member this field fills.
    pub name: String,
    /// For one item of a fixed-length list: its position (0-based).
    pub item: Option<usize>,
    /// What may be chosen, and what is chosen now.
    pub choice: Choice,
}

/// What a field holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// One of `options` (`chosen` is its position).
    One {
        /// The values listed by the schema.
        options: Vec<Value>,
        /// The chosen one.
        chosen: usize,
    },
    /// A whole number from `min` to `max`.
    Number {
        /// Smallest admitted.
        min: i64,
        /// Largest admitted.
        max: i64,
        /// The chosen number.
        value: i64,
    },
    /// `min` to `max` distinct values of `options`, in the order they were chosen.
    Many {
        /// The values listed by the schema.
        options: Vec<Value>,
        /// Positions in `options`, in the order chosen.
        chosen: Vec<usize>,
        /// The option the arrows point at (space toggles it).
        cursor: usize,
        /// Fewest to choose.
        min: usize,
        /// Most to choose.
        max: usize,
    },
}

impl Form {
    /// A form for the open entry at `index`, or why the keys cannot fill it (a shape this
    /// form does not know: the typed `play N VALUES` of plain mode still can).
    pub fn open(index: usize, entry: &Value) -> Result<Form, String> {
        let params = fill::parameters(entry);
        if params.is_empty() {
            return Err("this action has nothing to choose".to_owned());
        }
        let mut fields = Vec::new();
        for (name, schema) in params {
            fields.extend(fields_for(&name, schema).ok_or_else(|| {
                format!(
                    "{name} cannot be chosen with keys; in --plain mode type play {} VALUES",
                    index + 1
                )
            })?);
        }
        // A list with one way to fill it is filled now (the one option, when it is needed).
        for field in fields.iter_mut().filter(|f| f.fixed()) {
            if let Choice::Many { chosen, min, .. } = &mut field.choice {
                *chosen = (0..*min).collect();
            }
        }
        let at = fields.iter().position(|f| !f.fixed()).unwrap_or(0);
        Ok(Form {
            index,
            entry: entry.clone(),
            fields,
            at,
        })
    }

    /// The fields a person chooses: those with more than one possible value.
    pub fn open_fields(&self) -> impl Iterator<Item = (usize, &Field)> {
        self.fields.iter().enumerate().filter(|(_, f)| !f.fixed())
    }

    /// The field the arrows change.
    pub fn field(&self) -> &Field {
        &self.fields[self.at.min(self.fields.len() - 1)]
    }

    fn field_mut(&mut self) -> &mut Field {
        let at = self.at.min(self.fields.len() - 1);
        &mut self.fields[at]
    }

    /// Move to the next field (`forward`) or the previous one that has a choice to make;
    /// stays at the ends.
    pub fn step_field(&mut self, forward: bool) {
        let next = if forward {
            self.open_fields().map(|(i, _)| i).find(|&i| i > self.at)
        } else {
            self.open_fields()
                .map(|(i, _)| i)
                .filter(|&i| i < self.at)
                .last()
        };
        if let Some(i) = next {
            self.at = i;
        }
    }

    /// ← (`forward` false) or →: the previous or next value of a single choice (wrapping),
    /// one less or more for a number (within bounds), the previous or next option under
    /// the cursor of a multiple choice.
    pub fn step_value(&mut self, forward: bool) {
        match &mut self.field_mut().choice {
            Choice::One { options, chosen } => *chosen = wrap(*chosen, options.len(), forward),
            Choice::Number { min, max, value } => {
                *value = if forward {
                    (*value + 1).min(*max)
                } else {
                    (*value - 1).max(*min)
                };
            }
            Choice::Many {
                options, cursor, ..
            } => *cursor = wrap(*cursor, options.len(), forward),
        }
    }

    /// Space: in a multiple choice, choose the option under the cursor or take it back.
    pub fn toggle(&mut self) -> Result<(), String> {
        match &self.field().choice {
            Choice::Many { cursor, .. } => {
                let cursor = *cursor;
                self.toggle_option(cursor)
            }
            _ => Err("space chooses in a list; here ←→ change the value".to_owned()),
        }
    }

    /// A digit: option `n` (1-based) of a single choice, the number `n`, or option `n` of a
    /// multiple choice chosen or taken back.
    pub fn digit(&mut self, n: usize) -> Result<(), String> {
        match &mut self.field_mut().choice {
            Choice::One { options, chosen } => {
                if n == 0 || n > options.len() {
                    return Err(format!("choose 1 to {}", options.len()));
                }
                *chosen = n - 1;
                Ok(())
            }
            Choice::Number { min, max, value } => {
                let n = i64::try_from(n).unwrap_or(i64::MAX);
                if n < *min || n > *max {
                    return Err(format!("choose a number from {min} to {max}"));
                }
                *value = n;
                Ok(())
            }
            Choice::Many { options, .. } => {
                if n == 0 || n > options.len() {
                    return Err(format!("choose among 1 to {}", options.len()));
                }
                self.toggle_option(n - 1)
            }
        }
    }

    fn toggle_option(&mut self, option: usize) -> Result<(), String> {
        let Choice::Many {
            chosen,
            cursor,
            max,
            ..
        } = &mut self.field_mut().choice
        else {
            return Ok(());
        };
        *cursor = option;
        if let Some(at) = chosen.iter().position(|&c| c == option) {
            chosen.remove(at);
        } else if chosen.len() >= *max {
            return Err(format!(
                "at most {max} may be chosen: take one back first (press its number again)"
            ));
        } else {
            chosen.push(option);
        }
        Ok(())
    }

    /// The action the fields make, when the entry admits it; otherwise what is missing.
    pub fn action(&self) -> Result<Value, String> {
        for field in &self.fields {
            if let Choice::Many { chosen, min, .. } = &field.choice {
                if chosen.len() < *min {
                    return Err(format!(
                        "choose at least {min} for {} ({} chosen)",
                        field.name,
                        chosen.len()
                    ));
                }
            }
        }
        let Value::Object(map) = &self.entry else {
            return Err("only an object action can have values".to_owned());
        };
        let mut action: Map<String, Value> = map.clone();
        for field in &self.fields {
            let value = field.value();
            match field.item {
                None => {
                    action.insert(field.name.clone(), value);
                }
                Some(_) => {
                    let slot = action
                        .entry(field.name.clone())
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if !slot.is_array() {
                        *slot = Value::Array(Vec::new());
                    }
                    if let Value::Array(items) = slot {
                        items.push(value);
                    }
                }
            }
        }
        let action = Value::Object(action);
        if fill::admits(&self.entry, &action) {
            Ok(action)
        } else {
            Err(format!(
                "these values do not fit: {}",
                fill::describe(&self.entry)
            ))
        }
    }
}

impl Field {
    /// Whether the field can take one value only (it is filled without asking).
    pub fn fixed(&self) -> bool {
        match &self.choice {
            Choice::One { options, .. } => options.len() <= 1,
            Choice::Number { min, max, .. } => min >= max,
            Choice::Many {
                options, min, max, ..
            } => options.len() <= 1 && min == max,
        }
    }

    /// The value chosen now.
    pub fn value(&self) -> Value {
        match &self.choice {
            Choice::One { options, chosen } => options.get(*chosen).cloned().unwrap_or_default(),
            Choice::Number { value, .. } => Value::from(*value),
            Choice::Many {
                options, chosen, ..
            } => Value::Array(chosen.iter().map(|&c| options[c].clone()).collect()),
        }
    }
}

/// Whether `entry` leaves a person something to choose: an open entry with a field that can
/// take more than one value. An open entry whose fields all have one possible value is sent
/// as it is filled; one whose shape the keys cannot fill counts as a choice.
pub fn needs_choice(entry: &Value) -> bool {
    match Form::open(0, entry) {
        Ok(form) => form.open_fields().next().is_some(),
        Err(_) => fill::is_open(entry),
    }
}

/// The names of `entry`'s parameters left to choose: those [`needs_choice`] counts.
pub fn open_names(entry: &Value) -> Vec<String> {
    match Form::open(0, entry) {
        Ok(form) => {
            let mut names: Vec<String> = Vec::new();
            for (_, field) in form.open_fields() {
                if !names.contains(&field.name) {
                    names.push(field.name.clone());
                }
            }
            names
        }
        Err(_) => fill::parameters(entry)
            .into_iter()
            .map(|(name, _)| name)
            .collect(),
    }
}

/// `entry` as people read it: an open entry with nothing to choose shown as the action it
/// stands for (its one possible value in place), any other as it is.
pub fn shown(entry: &Value) -> Value {
    if fill::is_open(entry) && !needs_choice(entry) {
        if let Ok(action) = filled(entry) {
            return action;
        }
    }
    entry.clone()
}

/// The action an entry with nothing to choose stands for: the entry itself when it is
/// whole, else its one possible filling.
pub fn filled(entry: &Value) -> Result<Value, String> {
    if !fill::is_open(entry) {
        return Ok(entry.clone());
    }
    Form::open(0, entry)?.action()
}

fn wrap(at: usize, len: usize, forward: bool) -> usize {
    match (len, forward) {
        (0, _) => 0,
        (_, true) => (at + 1) % len,
        (_, false) => (at + len - 1) % len,
    }
}

/// The fields that fill parameter `name` with `schema`, or `None` for a shape the keys
/// cannot fill.
fn fields_for(name: &str, schema: &Value) -> Option<Vec<Field>> {
    let field = |item, choice| Field {
        name: name.to_owned(),
        item,
        choice,
    };
    if let Some(choice) = single(schema) {
        return Some(vec![field(None, choice)]);
    }
    if schema["type"] != "array" {
        return None;
    }
    let min = schema["minItems"].as_u64().unwrap_or(0) as usize;
    let items = &schema["items"];
    let listed = fill::choices(items);
    if schema["uniqueItems"] == true && !listed.is_empty() {
        let max = schema["maxItems"]
            .as_u64()
            .map_or(listed.len(), |m| m as usize)
            .min(listed.len());
        return Some(vec![field(
            None,
            Choice::Many {
                options: listed,
                chosen: Vec::new(),
                cursor: 0,
                min,
                max,
            },
        )]);
    }
    // A list of exactly n single choices: one field per item.
    if schema["maxItems"].as_u64() == Some(min as u64) {
        return (0..min)
            .map(|i| single(items).map(|choice| field(Some(i), choice)))
            .collect();
    }
    None
}

/// A single choice for `schema`: one of the values it lists, or a bounded number.
fn single(schema: &Value) -> Option<Choice> {
    let options = fill::choices(schema);
    if !options.is_empty() {
        return Some(Choice::One { options, chosen: 0 });
    }
    if schema["type"] == "integer" {
        let min = schema["minimum"].as_i64()?;
        let max = schema["maximum"].as_i64()?;
        return (min <= max).then_some(Choice::Number {
            min,
            max,
            value: min,
        });
    }
    None
}

#[cfg(test)]
#[path = "form_tests.rs"]
mod tests;
