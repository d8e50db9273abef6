//! Bringing a battle back from the store: rebuilt from its options and seed, its input log
//! replayed, its seats held by the same tokens (by their hashes), its bots and pacing
//! resumed. Nobody is connected yet: players come back with `rejoin`, spectators watch again.

use std::sync::Arc;
use std::time::Duration;

use battle_protocol::{BattleStatus, BattleSummary};
use battle_rules::error::OptionsError;
use battle_rules::input_log::{self, Input, InputLog, ReplayError};
use battle_rules::Ruleset;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::actor::{build, BattleActor, BattleSetup};
use super::handle::BattleHandle;
use super::host::Host;
use super::seats::Seats;
use crate::config::Config;
use crate::store::SavedBattle;

/// A kept battle's game, rebuilt: built from its options and seed, every input applied.
pub struct Rebuilt {
    /// The options, as JSON.
    pub options: Value,
    /// The game as the last input left it.
    pub game: Box<dyn Ruleset>,
}

/// Rebuild the game `saved` describes with the rulesets `config` offers (pure: nothing is
/// started). What `restore` replays, and what `battle-server quarantine retry` tries. A
/// battle that does not rebuild is set aside (quarantined), never restored half-way.
pub fn rebuild(saved: &SavedBattle, config: &Config) -> Result<Rebuilt, ReplayError> {
    let created = &saved.created;
    let options: Value = serde_json::from_str(&created.options)
        .map_err(|err| ReplayError::Options(OptionsError(format!("not JSON: {err}"))))?;
    let log = InputLog {
        format: input_log::FORMAT,
        ruleset: created.ruleset.clone(),
        version: created.version,
        options,
        seed: created.seed,
        inputs: saved.inputs.clone(),
    };
    // The one ruleset the battle names, if this server offers it (its version is checked).
    let offered = config
        .ruleset(&created.ruleset)
        .map(std::slice::from_ref)
        .unwrap_or_default();
    let game = input_log::replay(&log, offered)?;
    Ok(Rebuilt {
        options: log.options,
        game,
    })
}

/// The actor, handle and summary of a saved battle, replayed to where it was; or why it
/// cannot be brought back.
pub fn restore(
    saved: SavedBattle,
    host: Arc<dyn Host>,
) -> Result<(BattleActor, BattleHandle, BattleSummary), ReplayError> {
    let Rebuilt { options, game } = rebuild(&saved, host.config())?;
    let created = saved.created;
    let setup = BattleSetup {
        battle_id: created.battle,
        game,
        options,
        seed: created.seed,
        bots: created.bots,
        pace: Duration::from_millis(created.pace_ms),
        grace: Duration::from_millis(created.grace_ms),
        seeded: created.seeded,
        private: created.private,
        timer: created.timer,
        spectator_delay: Duration::from_millis(created.spectator_delay_ms),
    };
    let (tx, rx) = mpsc::channel(host.config().battle_queue.max(1));
    let held = saved.seats;
    let mut actor = build(setup, host, rx, |count, bots| {
        Seats::restored(count, bots, &held)
    });
    // The setups are logged when the battle starts: one of them means it started, and
    // names its seat as the battle names it.
    for input in &saved.inputs {
        if let Input::Setup { seat, name, .. } = input {
            actor
                .seats
                .set_name(*seat, name.as_deref().map(str::to_owned));
            actor.status = BattleStatus::Playing;
        }
    }
    actor.log.inputs = saved.inputs;
    if actor.status == BattleStatus::Playing && actor.game.outcome().is_some() {
        actor.status = BattleStatus::Finished;
    }
    actor.resume();
    let summary = actor.summary_now();
    Ok((actor, BattleHandle::new(tx), summary))
}

impl BattleActor {
    /// After a restore: nobody is connected, so the idle countdown runs; bots and engine
    /// steps pick up where they were. With a spectator delay, the battle as it is now is
    /// held for one delay from now: no spectator sees it sooner after a restart.
    fn resume(&mut self) {
        self.hold_for_spectators();
        let config = self.host.config();
        let ttl = if self.status == BattleStatus::Finished {
            config.finished_ttl
        } else {
            config.idle_ttl
        };
        self.expire_at = Some(Instant::now() + ttl);
        self.replan();
    }
}
