//! Heroes: the 1v1 hero card battler with a shared shop, MTG-style blocking and level-up
//! (spec 002). Not in the catalog yet: built and tested so far are combat (`combat.rs`),
//! the hero (`hero.rs`), the shop's items and market (`items.rs`, `market.rs`) and the two
//! classes with their cards and decks (`cards.rs`, `classes.rs`); the battle around them
//! (setup, mulligan, turns, the hero board in play, the bot, the view) comes next.
//! Decisions are kept in `docs/rules/heroes.md`.

pub mod cards;
pub mod classes;
pub mod combat;
pub mod hero;
pub mod items;
pub mod market;
