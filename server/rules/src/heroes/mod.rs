//! Heroes: the 1v1 hero card battler with a shared shop, MTG-style blocking and level-up
//! (spec 002). Not in the catalog yet: so far its combat (`combat.rs`) is built and tested;
//! the battle around it (setup, mulligan, turns, hero board, shop, classes, level-up) comes
//! next. Decisions are kept in `docs/rules/heroes.md`.

pub mod combat;
pub mod items;
