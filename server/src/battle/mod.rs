//! One battle = one actor task ([`actor`]) reached only through a [`BattleHandle`].
//!
//! The actor owns the ruleset, the seats, the audiences and their sequence numbers. Every
//! accepted move, human or bot, passes through one place in the actor: validate, apply,
//! record in the input log, broadcast per-audience patches.

mod actor;
mod audience;
mod bot;
mod command;
mod diff;
mod envelope;
mod handle;
mod input_log;
mod seats;

pub use actor::{prepare, BattleActor, BattleSetup};
pub use command::Command;
pub use handle::{BattleHandle, Offered};
pub use input_log::{replay, Input, InputLog};

/// The per-audience view pipeline, public for the engine micro-benchmark
/// (`server/examples/engine_bench.rs`): build a viewer's envelope view, diff two views,
/// write the patch frame (log lines included) as an audience does.
pub use audience::patch_frame;
pub use diff::{diff, diff_json};
pub use envelope::build as envelope_view;
