//! The battle server's game logic: the typed [`Game`](game::Game) trait rulesets are written
//! against, the object-safe [`Ruleset`](ruleset::Ruleset) the server holds, the games
//! themselves ([`catalog`]), the view pipeline ([`view`]) and the input log that replays a
//! battle ([`input_log`]).
//!
//! Everything here is pure: no tokio, no I/O, no clock, no global RNG. A battle is a function
//! of its options, its seed and its inputs, so seed + input log replay it exactly.

pub mod catalog;
pub mod entry;
pub mod error;
pub mod game;
pub mod input_log;
pub mod legal;
pub mod param;
pub mod prompt;
pub mod ruleset;
pub mod timer;
pub mod typed;
pub mod view;
pub mod words;

pub mod blind;
pub mod gambit;
pub mod heroes;
pub mod lore;
pub mod roguelite;
pub mod synergy;

pub use entry::{RulesetEntry, Sample};
pub use game::Game;
pub use legal::{Legal, Open};
pub use param::Param;
pub use prompt::Prompt;
pub use ruleset::{Outcome, OutcomeReason, Ruleset};
pub use timer::TimerSpec;
pub use words::Names;
