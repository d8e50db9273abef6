//! The games this server offers, each a [`Ruleset`](crate::ruleset::Ruleset).

use crate::synergy;

use crate::ruleset::RulesetEntry;

/// Every ruleset the server offers, in the order `welcome` lists them.
pub fn catalog() -> &'static [RulesetEntry] {
    static CATALOG: [RulesetEntry; 1] = [RulesetEntry {
        id: "synergy",
        seats: 2,
        summary: synergy::SUMMARY,
        build: synergy::build,
    }];
    &CATALOG
}

/// The ruleset with this id.
pub fn find(id: &str) -> Option<&'static RulesetEntry> {
    catalog().iter().find(|entry| entry.id == id)
}
