//! One battle = one actor task ([`actor`]) reached only through a [`BattleHandle`].
//!
//! The actor owns the ruleset, the seats, the audiences and their sequence numbers. Every
//! accepted move, human or bot, passes through one place in the actor: validate, apply,
//! record in the input log, broadcast per-audience patches.

mod actor;
mod audience;
mod bot;
mod changes;
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

/// The view pipeline, public for the engine micro-benchmark
/// (`server/examples/engine_bench.rs`) and the playout tests: build the envelope view for
/// all watching viewers at once, diff two such views once for every audience, write one
/// audience's patch frame (log lines included) as the audience does.
pub use audience::patch_frame;
pub use changes::Changes;
pub use diff::{diff, diff_json};
pub use envelope::build_all as envelope_view_all;
