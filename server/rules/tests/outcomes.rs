//! How every battle ends, in words: for every ruleset and sample, a resignation and a
//! forfeit on time say which they were (never one for the other) and name the seats, and
//! bots' battles played to their end give reasons the ruleset can give, with summaries
//! that name the seats and speak to no one. The envelope carries the reason as its word.

use std::collections::BTreeSet;

use battle_protocol::{BattleStatus, OutcomeReason};
use battle_rules::catalog::catalog;
use battle_rules::ruleset::Ruleset;
use battle_rules::view::{envelope_view_all, Viewer, Viewers};
use battle_rules::{RulesetEntry, Sample};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// A started battle of `sample`, its people's seats named Ana and Ben (engine seats keep
/// the ruleset's name).
fn started(entry: &RulesetEntry, sample: &Sample, seed: u64) -> Box<dyn Ruleset> {
    let options: Value = serde_json::from_str(sample.options).expect("JSON options");
    let mut game = (entry.build)(&options, seed).expect("the sample builds");
    let engine = game.engine_seats();
    for seat in 0..game.seat_count() {
        let setup = sample
            .setups
            .get(seat)
            .map(|text| serde_json::from_str::<Value>(text).expect("JSON setup"));
        let name = (!engine.contains(&seat)).then(|| ["Ana", "Ben"][seat]);
        game.setup_as(seat, setup.as_ref(), name)
            .expect("the sample's setup");
    }
    game
}

/// The outcome as the envelope gives it to a spectator (a replay's envelope: no seat
/// presence).
fn envelope_outcome(game: &dyn Ruleset) -> Value {
    envelope_view_all("b1", BattleStatus::Finished, &[], game, Viewers::SPECTATORS)
        .project(Viewer::Spectator)
        .to_value()["outcome"]
        .clone()
}

/// No "you", and the seats named as they were.
fn check_summary(ctx: &str, summary: &str, game: &dyn Ruleset) {
    let lower = summary.to_lowercase();
    for word in lower.split(|c: char| !c.is_alphanumeric() && c != '\'') {
        assert!(
            !matches!(word, "you" | "your" | "you're"),
            "{ctx}: {summary}"
        );
    }
    assert!(!summary.contains("Seat "), "{ctx}: {summary}");
    let names = game.names().expect("started");
    if names.given(0) == Some("Ana") {
        assert!(!summary.contains("Player 1"), "{ctx}: {summary}");
    }
}

#[test]
fn a_resignation_and_a_forfeit_on_time_say_which_they_were() {
    for entry in catalog() {
        for sample in entry.samples {
            let ctx = format!("{} {}", entry.id, sample.name);
            for (reason, verb) in [
                (OutcomeReason::Resignation, "resigns"),
                (OutcomeReason::Time, "forfeits on time"),
            ] {
                let mut game = started(entry, sample, 1);
                let seats = game.seat_count();
                match reason {
                    OutcomeReason::Resignation => game.resign(0),
                    _ => game.forfeit(0),
                }
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                let outcome = game.outcome().expect("over");
                assert_eq!(outcome.reason, reason, "{ctx}");
                assert_eq!(outcome.winners, (1..seats).collect::<Vec<_>>(), "{ctx}");
                let names = game.names().expect("started");
                let rest = match seats {
                    1 => "the battle is lost".to_owned(),
                    _ => format!("{} wins", names.of(1)),
                };
                assert_eq!(outcome.summary, format!("Ana {verb}: {rest}."), "{ctx}");
                check_summary(&ctx, &outcome.summary, &*game);
                let shown = envelope_outcome(&*game);
                assert_eq!(shown["reason"], reason.as_str(), "{ctx}: {shown}");
                assert_eq!(shown["summary"], outcome.summary.as_str(), "{ctx}");
            }
        }
    }
}

/// The reasons bots' battles of `id` may end for, and the one most of them end for.
fn reasons(id: &str) -> (&'static [OutcomeReason], &'static [OutcomeReason]) {
    use OutcomeReason::*;
    match id {
        "synergy" => (&[Knockout, Limit], &[Knockout]),
        "gambit" => (&[Completed, Knockout, Limit], &[Completed, Knockout]),
        "heroes" => (&[Knockout, Limit], &[Knockout]),
        "roguelite" => (&[Completed, Knockout, Limit], &[Completed, Knockout]),
        "lore" => (&[Score, Limit], &[Score]),
        other => panic!("no reasons written for {other}"),
    }
}

#[test]
fn bots_battles_end_for_reasons_their_outcome_says() {
    for entry in catalog() {
        let (may, most) = reasons(entry.id);
        for sample in entry.samples {
            let ctx = format!("{} {}", entry.id, sample.name);
            let mut seen = BTreeSet::new();
            for seed in 0..4 {
                let mut game = started(entry, sample, seed);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..entry.max_steps {
                    if game.outcome().is_some() {
                        break;
                    }
                    if let Some(&seat) = game.to_act().first() {
                        let action = game
                            .ai_action(seat)
                            .or_else(|| game.random_action(seat, &mut rng))
                            .expect("an awaited seat acts");
                        game.apply(seat, &action).expect("bots act legally");
                    } else {
                        game.advance().expect("the engine moves");
                    }
                }
                let outcome = game.outcome().expect("bots finish");
                assert!(may.contains(&outcome.reason), "{ctx}: {outcome:?}");
                check_summary(&ctx, &outcome.summary, &*game);
                let log = game.log(Viewer::Spectator);
                assert_eq!(
                    log.last(),
                    Some(&outcome.summary),
                    "{ctx}: the log ends on the outcome"
                );
                seen.insert(outcome.reason.as_str());
            }
            assert!(
                most.iter().any(|r| seen.contains(r.as_str())),
                "{ctx}: {seen:?}"
            );
        }
    }
}
