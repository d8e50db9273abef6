//! Replays: a finished battle rebuilt from its seed and input log, step by step, as its
//! spectators saw it.
//!
//! Only the spectators' view is ever built, so a replay holds nothing a spectator could not
//! see (no hand, no seed, no input). Each view is the envelope a spectator held, with its
//! log in place at `/game/log`, less the members that depend on when it was watched:
//! `seats` (who was connected) and `clocks` (turn deadlines).

use std::collections::HashSet;

use battle_protocol::{BattleStatus, Replay};
use battle_rules::error::OptionsError;
use battle_rules::input_log::{self, Input, InputLog};
use battle_rules::ruleset::{Ruleset, Viewer};
use battle_rules::view::{diff, envelope, ViewValue, Viewers};
use serde_json::Value;

use crate::config::Config;
use crate::store::Ended;

/// Why a kept battle cannot be replayed here: the rules crate's, as for restoring a battle.
pub use battle_rules::input_log::ReplayError;

/// The envelope members a replay leaves out (they depend on when it was watched).
const LEFT_OUT: [&str; 2] = ["seats", "clocks"];

/// Rebuild `ended` with the rulesets `config` offers, one spectator view per step.
pub fn build(ended: &Ended, config: &Config) -> Result<Replay, ReplayError> {
    let options: Value = serde_json::from_str(&ended.options)
        .map_err(|err| ReplayError::Options(OptionsError(format!("not JSON: {err}"))))?;
    let setups = ended
        .inputs
        .iter()
        .take_while(|input| matches!(input, Input::Setup { .. }))
        .count();
    // Built and set up as the battle started (its ruleset and version checked), then one
    // step per input after that.
    let started = InputLog {
        format: input_log::FORMAT,
        ruleset: ended.ruleset.clone(),
        version: ended.version,
        options,
        seed: ended.seed,
        inputs: ended.inputs[..setups].to_vec(),
    };
    let offered = config
        .ruleset(&ended.ruleset)
        .map(std::slice::from_ref)
        .unwrap_or_default();
    let mut game = input_log::replay(&started, offered)?;
    let mut view = spectator_view(&ended.battle, &*game);
    let start = view.clone();
    let mut steps = Vec::with_capacity(ended.inputs.len() - setups);
    for (n, input) in ended.inputs.iter().enumerate().skip(setups) {
        input
            .apply_to(&mut *game)
            .map_err(|error| ReplayError::Refused {
                index: n,
                error: Box::new(error),
            })?;
        let next = spectator_view(&ended.battle, &*game);
        // The one diff the live battles use, so that a replay's steps are what a spectator
        // would have been sent.
        steps.push(diff(&ViewValue::from(&view), &ViewValue::from(&next)));
        view = next;
    }
    Ok(Replay {
        battle_id: ended.battle.clone(),
        ruleset: ended.ruleset.clone(),
        version: ended.version,
        seats: ended.seats,
        bots: ended.bots.clone(),
        seeded: ended.seeded,
        outcome: ended.outcome.clone(),
        ended_at: ended.ended_at,
        start,
        steps,
    })
}

/// The spectators' view of `game` once it started, as a replay holds it.
fn spectator_view(battle_id: &str, game: &dyn Ruleset) -> Value {
    let status = if game.outcome().is_some() {
        BattleStatus::Finished
    } else {
        BattleStatus::Playing
    };
    let view = envelope::build_all(battle_id, status, &[], game, Viewers::SPECTATORS)
        .project(Viewer::Spectator)
        .to_value();
    let Value::Object(mut members) = view else {
        return view;
    };
    let left_out: HashSet<&str> = LEFT_OUT.into_iter().collect();
    members.retain(|key, _| !left_out.contains(key.as_str()));
    if let Some(Value::Object(game_view)) = members.get_mut("game") {
        let log = game.log(Viewer::Spectator);
        game_view.insert("log".into(), log.iter().map(|l| l.as_str()).collect());
    }
    Value::Object(members)
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_rules::catalog::catalog;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Play `ruleset`'s first sample to its end with random moves, as the actor records it.
    fn played(ruleset: &str, seed: u64) -> Ended {
        let entry = catalog()
            .iter()
            .find(|entry| entry.id == ruleset)
            .expect("in the catalog");
        let options: Value =
            serde_json::from_str(entry.samples[0].options).expect("samples are JSON");
        let mut game = (entry.build)(&options, seed).expect("the sample builds");
        let mut inputs = Vec::new();
        for seat in 0..game.seat_count() {
            game.setup(seat, None).expect("the default setup");
            inputs.push(Input::setup(seat, None));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..5_000 {
            if game.outcome().is_some() {
                break;
            }
            if game.next_tick().is_some() {
                game.advance().expect("an engine step");
                inputs.push(Input::Advance);
                continue;
            }
            let seat = game.to_act()[0];
            let action = game.random_action(seat, &mut rng).expect("it can act");
            game.apply(seat, &action).expect("a legal action");
            inputs.push(Input::act(seat, &action));
        }
        let outcome = game.outcome().expect("random play ends");
        Ended {
            battle: "b1".into(),
            ruleset: ruleset.into(),
            version: entry.version,
            options: options.to_string(),
            seed,
            seats: game.seat_count(),
            bots: Vec::new(),
            private: false,
            seeded: false,
            outcome: battle_protocol::OutcomeInfo {
                summary: outcome.summary,
                winners: outcome.winners,
                reason: outcome.reason,
            },
            ended_at: 1,
            inputs,
        }
    }

    #[test]
    fn every_step_is_the_spectator_view_after_that_input() {
        for entry in catalog() {
            let ended = played(entry.id, 7);
            let replay = build(&ended, &Config::default()).expect("it replays");
            assert_eq!(replay.steps.len(), ended.steps(), "{}", entry.id);
            let views = replay.views().expect("the patches apply");
            let last = views.last().expect("a start at least");
            assert_eq!(last["status"], "finished", "{}", entry.id);
            assert_eq!(
                last["outcome"]["winners"],
                serde_json::json!(ended.outcome.winners)
            );
            for view in &views {
                for key in LEFT_OUT {
                    assert!(view.get(key).is_none(), "{}: {key} is left out", entry.id);
                }
                assert_eq!(view["seat"], Value::Null);
                assert_eq!(view["legal"], serde_json::json!([]));
                assert!(
                    view["game"]["log"].is_array(),
                    "{}: the log is in place",
                    entry.id
                );
            }
        }
    }

    #[test]
    fn a_log_from_another_version_or_ruleset_is_refused() {
        let mut ended = played("synergy", 3);
        ended.version += 1;
        assert!(matches!(
            build(&ended, &Config::default()),
            Err(ReplayError::Version { .. })
        ));
        ended.ruleset = "nothing".into();
        assert!(matches!(
            build(&ended, &Config::default()),
            Err(ReplayError::UnknownRuleset(_))
        ));
    }
}
