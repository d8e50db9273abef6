//! One battle = one actor task ([`actor`]) reached only through a [`BattleHandle`].
//!
//! The actor owns the ruleset, the seats, the audiences and their sequence numbers. Every
//! accepted move, human or bot, passes through one place in the actor: validate, apply,
//! record in the input log, broadcast per-audience patches.

mod actor;
mod audience;
mod bot;
mod clock;
mod command;
mod delay;
mod handle;
mod host;
mod membership;
mod restore;
mod seats;
mod timers;

pub use actor::{prepare, BattleActor, BattleSetup};
pub use command::{Command, Present, Role, Seating};
pub use handle::{BattleGone, BattleHandle, Offered, Route};
pub use host::{under_way, CreatorClaim, Host};
pub use restore::{rebuild, restore, Rebuilt};
pub use seats::token_hash;

/// One audience's patch frame (log lines included) as the audience writes it, public for the
/// engine micro-benchmark (`server/examples/engine_bench.rs`).
pub use audience::patch_frame;
