//! The catalog: every ruleset this server offers, one line each.

use crate::entry::RulesetEntry;
use crate::{gambit, heroes, lore, roguelite, synergy};

/// Every ruleset the server offers, in the order `welcome` lists them.
static CATALOG: &[RulesetEntry] = &[
    synergy::ENTRY,
    gambit::ENTRY,
    heroes::ENTRY,
    roguelite::ENTRY,
    lore::ENTRY,
];

/// Every ruleset the server offers, in the order `welcome` lists them.
pub fn catalog() -> &'static [RulesetEntry] {
    CATALOG
}

/// The ruleset with this id.
pub fn find(id: &str) -> Option<&'static RulesetEntry> {
    catalog().iter().find(|entry| entry.id == id)
}
