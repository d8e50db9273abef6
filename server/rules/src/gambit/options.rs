//! The `create` options (PvE run or PvP duel, the tick pace) and what a player brings to a
//! seat: the starting program of their party, if not the default one.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::rules::{RuleSpec, MAX_CONDITIONS, SLOTS};
use super::skills::find;
use crate::error::{OptionsError, SetupError};

/// PvE (one player's run of six encounters) or PvP (two parties fight once).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// One player against the six encounters.
    #[default]
    Pve,
    /// Two players, each programming a party, fight each other once.
    Pvp,
}

/// Default milliseconds between ticks: the spec's 0.5 s of visual time.
pub const DEFAULT_TICK_MS: u64 = 500;
/// Slowest tick pace accepted.
pub const MAX_TICK_MS: u64 = 10_000;

/// `create` options. `null` means the default: a PvE run at 500 ms per tick.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// PvE or PvP.
    #[serde(default)]
    pub mode: Mode,
    /// Milliseconds between ticks while a fight runs (0: as fast as the server goes).
    #[serde(default = "default_tick_ms")]
    pub tick_ms: u64,
}

fn default_tick_ms() -> u64 {
    DEFAULT_TICK_MS
}

impl Default for Options {
    fn default() -> Options {
        Options {
            mode: Mode::Pve,
            tick_ms: DEFAULT_TICK_MS,
        }
    }
}

impl Options {
    /// Refuse a pace slower than [`MAX_TICK_MS`].
    pub fn check(&self) -> Result<(), OptionsError> {
        if self.tick_ms > MAX_TICK_MS {
            return Err(OptionsError(format!(
                "tick_ms is {}; it must be 0 to {MAX_TICK_MS}",
                self.tick_ms
            )));
        }
        Ok(())
    }
}

/// What a player brings to a seat: the party's starting program, by character (`A`, `B`,
/// `C`), each a list of up to three rules using that character's starting skills. A
/// character left out keeps its default program.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Rules per character id.
    #[serde(default)]
    pub rules: BTreeMap<String, Vec<RuleSpec>>,
}

impl Setup {
    /// Refuse a program that names an unknown character or skill, a skill the character
    /// does not start with, too many rules or conditions.
    pub fn check(&self) -> Result<(), SetupError> {
        for (id, rules) in &self.rules {
            let Some(kind) = super::roster::PARTY.iter().find(|k| k.id == id.as_str()) else {
                return Err(SetupError(format!(
                    "rules name the character \"{id}\"; the characters are A, B and C"
                )));
            };
            if rules.len() > SLOTS {
                return Err(SetupError(format!(
                    "{id} has {} rules; a character has {SLOTS} slots",
                    rules.len()
                )));
            }
            for (slot, rule) in rules.iter().enumerate() {
                if find(&rule.skill).is_none() || !kind.skills.contains(&rule.skill.as_str()) {
                    return Err(SetupError(format!(
                        "{id} rule {}: {} does not start with the skill \"{}\" (it has {})",
                        slot + 1,
                        kind.name,
                        rule.skill,
                        kind.skills.join(", ")
                    )));
                }
                if rule.conditions.len() > MAX_CONDITIONS {
                    return Err(SetupError(format!(
                        "{id} rule {}: {} conditions; a rule has at most {MAX_CONDITIONS}",
                        slot + 1,
                        rule.conditions.len()
                    )));
                }
            }
        }
        Ok(())
    }
}
