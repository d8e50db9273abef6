//! Bringing a battle back from the store: rebuilt from its options and seed, its input log
//! replayed, its seats held by the same tokens (by their hashes), its bots and pacing
//! resumed. Nobody is connected yet: players come back with `rejoin`, spectators watch again.

use std::sync::Arc;
use std::time::Duration;

use battle_protocol::{BattleStatus, BattleSummary};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::actor::{build, BattleActor, BattleSetup};
use super::handle::BattleHandle;
use super::seats::Seats;
use crate::lobby::Lobby;
use crate::store::SavedBattle;

/// The actor, handle and summary of a saved battle, replayed to where it was; or why it
/// cannot be brought back.
pub fn restore(
    saved: SavedBattle,
    lobby: Arc<Lobby>,
) -> Result<(BattleActor, BattleHandle, BattleSummary), String> {
    let created = &saved.created;
    let entry = lobby
        .config()
        .ruleset(&created.ruleset)
        .ok_or_else(|| format!("this server has no ruleset {:?}", created.ruleset))?;
    if entry.version != created.version {
        return Err(format!(
            "written by {} version {}, this server has version {}",
            entry.id, created.version, entry.version
        ));
    }
    let options: Value = serde_json::from_str(&created.options).map_err(|e| e.to_string())?;
    let game = (entry.build)(&options, created.seed).map_err(|e| e.to_string())?;
    let setup = BattleSetup {
        battle_id: created.battle.clone(),
        game,
        options,
        seed: created.seed,
        bots: created.bots.clone(),
        pace: Duration::from_millis(created.pace_ms),
        grace: Duration::from_millis(created.grace_ms),
        seeded: created.seeded,
        private: created.private,
        timer: created.timer,
        spectator_delay: Duration::from_millis(created.spectator_delay_ms),
    };
    let (tx, rx) = mpsc::channel(lobby.config().battle_queue.max(1));
    let held = saved.seats;
    let mut actor = build(setup, lobby, rx, |count, bots| {
        Seats::restored(count, bots, &held)
    });
    for (n, input) in saved.inputs.into_iter().enumerate() {
        input
            .apply_to(&mut *actor.game)
            .map_err(|err| format!("input {n} does not replay: {err}"))?;
        if let battle_rules::input_log::Input::Setup { seat, name, .. } = &input {
            // The seat is named as the battle names it.
            actor
                .seats
                .set_name(*seat, name.as_deref().map(str::to_owned));
            actor.status = BattleStatus::Playing;
        }
        actor.log.inputs.push(input);
    }
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
        let config = self.lobby.config();
        let ttl = if self.status == BattleStatus::Finished {
            config.finished_ttl
        } else {
            config.idle_ttl
        };
        self.expire_at = Some(Instant::now() + ttl);
        self.replan();
    }
}
