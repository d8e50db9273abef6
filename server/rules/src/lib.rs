//! The battle server's game logic: the [`Ruleset`](ruleset::Ruleset) trait every game
//! implements, the games themselves ([`catalog`]), the view pipeline ([`view`]) and the input
//! log that replays a battle ([`input_log`]).
//!
//! Everything here is pure: no tokio, no I/O, no clock, no global RNG. A battle is a function
//! of its options, its seed and its inputs, so seed + input log replay it exactly.

pub mod catalog;
pub mod input_log;
pub mod ruleset;
pub mod synergy;
pub mod view;
