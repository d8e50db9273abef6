//! The `create` options (the pace of the enemy's actions) and what a player brings to the
//! seat (nothing yet: every run starts from the same deck and armor).

use serde::Deserialize;

use crate::error::OptionsError;

/// Default milliseconds before each engine step (each enemy action, each enemy phase start
/// and end).
pub const DEFAULT_TICK_MS: u64 = 400;
/// Slowest pace accepted.
pub const MAX_TICK_MS: u64 = 10_000;

/// `create` options. `null` means the default pace.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Milliseconds before each engine step of the enemy's phases (0: as fast as the server
    /// goes).
    #[serde(default = "default_tick_ms")]
    pub tick_ms: u64,
}

fn default_tick_ms() -> u64 {
    DEFAULT_TICK_MS
}

impl Default for Options {
    fn default() -> Options {
        Options {
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

/// What a player brings to the seat: nothing (`{}`); unknown members are refused.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {}
