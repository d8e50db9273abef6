//! The `create` options (none yet) and what a player brings to a seat: a class.

use serde::Deserialize;

use super::classes::{class, Class, BARBARIAN};
use crate::error::SetupError;

/// `create` options: none; `null` or `{}`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {}

/// What a player brings to a seat: a class (`barbarian` or `mage`; the default is the
/// Barbarian), played with its ready 40-card deck.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The class id.
    #[serde(default)]
    pub class: Option<String>,
}

impl Setup {
    /// The class this setup picks, or why not.
    pub fn class(&self) -> Result<&'static Class, SetupError> {
        match &self.class {
            None => Ok(&BARBARIAN),
            Some(id) => class(id).ok_or_else(|| {
                SetupError(format!(
                    "\"{id}\" is not a class; the classes are barbarian and mage"
                ))
            }),
        }
    }
}
