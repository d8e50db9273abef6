//! Finished battles, played back: where a replay is and its autoplay ([`Stepper`]), moved by
//! the replay's [`keys`].
//!
//! A replay's views are the spectator envelope without `seats` and `clocks`, `game.log` in
//! place: step 0 is the start (every seat set up), each later step one input's change,
//! the last the result.

pub mod keys;
pub mod stepper;

pub use stepper::Stepper;
