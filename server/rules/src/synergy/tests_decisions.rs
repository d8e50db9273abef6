//! Tests for each decision taken where the spec is silent (docs/rules/synergy.md lists them).

use serde_json::json;

use super::deck::instances;
use super::options::Mode;
use super::state::Phase;
use super::testkit::Json;
use super::testkit::{battle, battle_with, deck, options, Scenario};
use super::Battle;
use super::{cards, deck::Zones};
use crate::game::Game;
use crate::view::Viewer;

#[test]
fn decision_first_turn_uses_the_opening_hand() {
    let mut b = battle(json!(null), 1);
    assert_eq!(b.sides[0].zones.hand.len(), 5);
    assert_eq!(b.sides[0].zones.draw.len(), 5);
    assert_eq!(b.sides[1].zones.hand.len(), 5);
    b.pass(0);
    // The automaton's first turn: no draw on top of its opening hand.
    assert_eq!(b.sides[1].zones.hand.len(), 5);
    assert_eq!(b.sides[1].zones.draw.len(), 5);
    b.pass(1);
    // Round 2: the player draws 5 (its opening hand was discarded).
    assert_eq!(b.sides[0].zones.hand.len(), 5);
    assert_eq!(b.sides[0].zones.draw.len(), 0);
    assert_eq!(b.sides[0].zones.discard.len(), 5);
    let draws: usize = b
        .log
        .iter()
        .map(|l| l.matches("draws 5 cards").count())
        .sum();
    assert_eq!(draws, 3, "two opening hands and the round-2 draw");
}

#[test]
fn decision_hand_limit_8_caps_every_draw() {
    // Zones alone: 7 in hand, 5 asked for, 1 drawn.
    let pool: Vec<_> = cards::POOL.iter().collect();
    let mut zones = Zones {
        hand: instances(&pool[..7], 1),
        draw: instances(&pool, 20),
        discard: Vec::new(),
    };
    let mut rng = rand::SeedableRng::seed_from_u64(1);
    let report = zones.draw_cards(5, &mut rng);
    assert_eq!(
        (report.drawn, report.held_back, zones.hand.len()),
        (1, 4, 8)
    );
    // Spark Cycle with Gear synergy from a constructed 10-card hand: 8 left, nothing drawn.
    let mut b = Scenario::pve()
        .hand(
            0,
            &[
                "C004", "C008", "C001", "C001", "C001", "C001", "C001", "C001", "C001", "C001",
            ],
        )
        .draw(0, &["C002", "C002"])
        .build();
    b.play_card(0, "C004"); // 9 left; Gear count 1, no draw
    b.play_card(0, "C008"); // 8 left; draws 1 + 1 Gear synergy: both held back
    assert_eq!(b.sides[0].zones.hand.len(), 8);
    assert_eq!(b.sides[0].zones.draw.len(), 2);
    assert!(b
        .log
        .iter()
        .any(|l| l.contains("2 not drawn: the hand is full at 8")));
}

#[test]
fn decision_unplayed_hand_is_discarded_at_turn_end() {
    let mut b = Scenario::pve()
        .hand(0, &["C001", "C002", "C003", "C004"])
        .draw(1, &["C001"; 5])
        .build();
    b.play_card(0, "C001");
    b.pass(0);
    let zones = &b.sides[0].zones;
    assert!(zones.hand.is_empty());
    assert_eq!(zones.discard.len(), 4);
    assert!(b
        .log
        .contains(&"Player 1 ends the turn, discarding 3 unplayed cards.".to_string()));
}

#[test]
fn decision_ko_is_judged_only_at_resolution() {
    let mut b = Scenario::pve()
        .hand(0, &["C002", "C001"])
        .hp(1, 9)
        .draw(1, &["C003", "C003"])
        .build();
    b.play_card(0, "C002");
    assert_eq!(b.sides[1].hp, 0);
    assert_eq!(b.phase, Phase::PlayerTurn, "the player's turn goes on");
    assert!(b.outcome().is_none());
    b.pass(0);
    assert_eq!(
        b.phase,
        Phase::EnemyTurn,
        "a side at 0 HP still takes its turn"
    );
    b.play_card(1, "C003");
    assert_eq!(b.sides[0].hp, 54);
    assert!(b.outcome().is_none());
    b.pass(1);
    assert_eq!(b.phase, Phase::GameOver);
    let outcome = b.outcome().expect("over");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.reason, crate::OutcomeReason::Knockout);
    assert!(
        outcome
            .summary
            .starts_with("Player 1 wins by knockout in round 1. Final scores: Player 1 "),
        "{}",
        outcome.summary
    );
}

#[test]
fn decision_focus_stacks_and_is_used_up_by_the_next_attack() {
    let mut b = Scenario::pve()
        .hand(0, &["C009", "C009", "C006", "C001", "C003"])
        .energy(5)
        .build();
    b.play_card(0, "C009");
    b.play_card(0, "C009");
    assert_eq!(b.sides[0].focus, 4);
    b.play_card(0, "C006"); // a skill does not use the focus
    assert_eq!(b.sides[0].focus, 4);
    b.play_card(0, "C001"); // 7 + 4 focus + 3 Flame synergy (third Flame card)
    assert_eq!(b.sides[1].hp, 70 - 14);
    assert!(b.last_log().contains(
        "Training Automaton takes 14 damage (70 to 56): 7 base + 4 focus + 3 Flame synergy"
    ));
    b.play_card(0, "C003"); // focus is gone
    assert_eq!(b.sides[1].hp, 70 - 14 - 6);
    // Unused focus is lost at turn end.
    let mut b = Scenario::pve().hand(0, &["C009", "C001"]).build();
    b.play_card(0, "C009");
    b.pass(0);
    assert_eq!(b.sides[0].focus, 0);
}

#[test]
fn decision_spectrum_card_scores_under_x2_and_bonuses_are_flat() {
    let mut b = Scenario::pve()
        .hand(0, &["C001", "C003", "C004", "C010"])
        .energy(4)
        .build();
    for card in ["C001", "C003", "C004"] {
        b.play_card(0, card);
    }
    b.play_card(0, "C010"); // 8 x2 = 16, then a flat 20
    assert_eq!(b.sides[0].score, 30 + 16 + 20);
    // Win bonus and HP bonus are added flat to the running score.
    let mut b = Scenario::pve().hand(0, &["C002"]).hp(1, 9).build();
    b.play_card(0, "C002");
    let result = b
        .result
        .clone()
        .expect("the automaton had no cards; the battle ended");
    assert_eq!(result.final_scores, [10 + 100 + 30, 0]);
    // The breakdown shows where the final score comes from.
    let winner = result.breakdown[0];
    assert_eq!(
        (
            winner.score,
            winner.win_bonus,
            winner.hp_bonus,
            winner.total
        ),
        (10, 100, 30, 140)
    );
    assert_eq!(winner.zeroed_by, None);
    assert_eq!(result.breakdown[1].zeroed_by, Some("knocked out"));
    assert_eq!(result.breakdown[1].total, 0);
    let mut b = Scenario::pve()
        .hand(0, &["C002"])
        .hp(0, 39)
        .hp(1, 9)
        .build();
    b.play_card(0, "C002");
    assert_eq!(b.result.clone().map(|r| r.final_scores), Some([110, 0]));
}

#[test]
fn decision_defeat_sets_the_final_score_to_0() {
    let mut b = Scenario::pve()
        .phase(Phase::EnemyTurn)
        .hand(1, &["C002"])
        .hp(0, 9)
        .build();
    b.sides[0].score = 250;
    b.sides[1].score = 40;
    b.play_card(1, "C002");
    let result = b.result.clone().expect("over");
    assert_eq!(result.winner, Some(1));
    assert_eq!(result.final_scores, [0, 40 + 10 + 100 + 30]);
}

#[test]
fn decision_turn_ends_by_itself_without_a_playable_card() {
    let mut b = Scenario::pve()
        .hand(0, &["C001", "C001", "C001", "C001"])
        .draw(1, &["C001"; 5])
        .build();
    for _ in 0..3 {
        b.play_card(0, "C001");
    }
    assert_eq!(b.phase, Phase::EnemyTurn, "no energy left: the turn passed");
    assert!(b.log.contains(
        &"Player 1 cannot pay for any card in hand (0 energy left, the cheapest costs 1): \
          the turn ends, discarding 1 unplayed card."
            .to_string()
    ));
    // An empty hand at turn start passes at once.
    let mut b = Scenario::pve().hand(0, &["C001"]).build();
    b.pass(0);
    assert_eq!(
        b.phase,
        Phase::PlayerTurn,
        "the automaton had nothing to play"
    );
    assert_eq!(b.round, 2);
    assert!(b
        .log
        .contains(&"Training Automaton has no card in hand: the turn ends.".to_string()));
}

#[test]
fn decision_round_limit_40() {
    // PvE: no knockout after round 40 is a defeat for the player.
    let mut b = Scenario::pve()
        .phase(Phase::EnemyTurn)
        .round(40)
        .hand(1, &["C001"])
        .build();
    b.sides[0].score = 100;
    b.play_card(1, "C001");
    let result = b.result.clone().expect("over after round 40");
    assert_eq!(result.winner, Some(1));
    assert_eq!(result.final_scores, [0, 10 + 100 + 30]);
    // One round earlier the battle goes on.
    let mut b = Scenario::pve()
        .phase(Phase::EnemyTurn)
        .round(39)
        .hand(1, &["C001"])
        .draw(0, &["C001"; 5])
        .build();
    b.play_card(1, "C001");
    assert_eq!((b.phase, b.round), (Phase::PlayerTurn, 40));
    // PvP: a draw; both keep their scores, plus 30 each with at least 40 HP.
    let mut b = Scenario::pvp()
        .phase(Phase::EnemyTurn)
        .round(40)
        .hand(1, &["C001"])
        .hp(1, 39)
        .build();
    b.sides[0].score = 70;
    b.play_card(1, "C001");
    let result = b.result.clone().expect("over");
    assert_eq!(result.winner, None);
    assert_eq!(result.final_scores, [70 + 30, 10]);
    let outcome = b.outcome().expect("over");
    assert_eq!(outcome.winners, Vec::<usize>::new());
    assert_eq!(outcome.reason, crate::OutcomeReason::Limit);
    assert_eq!(
        outcome.summary,
        "Round 40 ended with no knockout: the battle is a draw. Final scores: Player 1 100, \
         Player 2 10."
    );
}

#[test]
fn decision_flame_and_leaf_synergy_only_touch_damage_and_block() {
    // Thorn Jab with Leaf synergy still deals 6; it scores like any attack.
    let mut b = Scenario::pve().hand(0, &["C003", "C003", "C001"]).build();
    b.play_card(0, "C003");
    b.play_card(0, "C003");
    assert_eq!(b.sides[1].hp, 70 - 12);
    assert!(b
        .last_log()
        .contains("with Leaf synergy: Training Automaton takes 6 damage (64 to 58);"));
    // Ashen Focus with Flame synergy still adds exactly 2 focus.
    let mut b = Scenario::pve().hand(0, &["C009", "C009", "C001"]).build();
    b.play_card(0, "C009");
    b.play_card(0, "C009");
    assert_eq!(b.sides[0].focus, 4);
    // Gear synergy draws for every Gear card, attacks included.
    let mut b = Scenario::pve()
        .hand(0, &["C007", "C004", "C001"])
        .draw(0, &["C002"])
        .build();
    b.play_card(0, "C007");
    b.play_card(0, "C004");
    assert_eq!(b.hand_cards(0), vec!["C001", "C002"]);
    assert_eq!(b.sides[1].hp, 70 - 6, "Gear synergy adds no damage");
}

#[test]
fn decision_void_echo_never_takes_block_below_0() {
    let mut b = Scenario::pve()
        .hand(0, &["C010", "C010", "C001"])
        .block(1, 1)
        .build();
    b.play_card(0, "C010");
    assert_eq!(b.sides[1].block, 0);
    b.play_card(0, "C010");
    assert_eq!(b.sides[1].block, 0);
    assert!(b
        .log
        .iter()
        .any(|l| l.contains("Training Automaton has no block to remove")));
}

#[test]
fn decision_pvp_mode() {
    let mut b = battle_with(
        json!({"mode": "pvp"}),
        [deck(&["C001"; 6]), deck(&["C006"; 12])],
        9,
    );
    assert_eq!(b.mode, Mode::Pvp);
    assert!(Battle::engine_seats(&options(Mode::Pvp)).is_empty());
    assert_eq!([b.sides[0].hp, b.sides[1].hp], [60, 60]);
    assert_eq!(
        [&b.sides[0].name, &b.sides[1].name],
        ["Player 1", "Player 2"]
    );
    assert_eq!([b.sides[0].deck_size, b.sides[1].deck_size], [6, 12]);
    assert_eq!(b.to_act(), vec![0]);
    assert!(b.ai_action(1).is_none());
    let action = b.ai_json(0).expect("the automaton can play any seat");
    assert!(b.legal_json(0).contains(&action));
    b.pass(0);
    assert_eq!(b.to_act(), vec![1]);
    assert!(b.ai_action(1).is_some());
    // A simultaneous knockout in PvP is a draw with both scores 0.
    let mut b = Scenario::pvp()
        .hand(0, &["C002"])
        .hp(0, 5)
        .hp(1, 5)
        .draw(1, &["C002"])
        .build();
    b.play_card(0, "C002");
    b.play_card(1, "C002");
    let result = b.result.clone().expect("over");
    assert_eq!((result.winner, result.final_scores), (None, [0, 0]));
    // A knockout in PvP: the winner gets its bonuses, the loser 0.
    let mut b = Scenario::pvp().hand(0, &["C002"]).hp(1, 5).build();
    b.play_card(0, "C002");
    let result = b.result.clone().expect("over");
    assert_eq!((result.winner, result.final_scores), (Some(0), [140, 0]));
    assert!(result.summary.starts_with("Player 1 wins by knockout"));
}

#[test]
fn pve_engine_seat_and_ai_for_any_seat() {
    let b = battle(json!({}), 2);
    assert_eq!(Battle::engine_seats(&options(Mode::Pve)), vec![1]);
    assert_eq!([b.sides[0].hp, b.sides[1].hp], [60, 70]);
    assert_eq!(
        [&b.sides[0].name, &b.sides[1].name],
        ["Player 1", "Training Automaton"]
    );
    assert_eq!(b.to_act(), vec![0]);
    let action = b.ai_json(0).expect("seat 0 must act");
    assert!(b.legal_json(0).contains(&action));
    assert!(b.ai_action(1).is_none());
    assert!(b.legal_json(1).is_empty());
    assert_eq!(b.legal_json(0).last(), Some(&json!({"kind": "end_turn"})));
    assert_eq!(b.legal_json(0).len(), 6);
}

#[test]
fn views_hide_hands_and_pile_order() {
    let b = battle(json!(null), 4);
    let [v0, v1, spectator] = b.all_views();
    assert_eq!(v0["sides"][0]["hand"].as_array().map(Vec::len), Some(5));
    assert!(v0["sides"][1].get("hand").is_none());
    assert!(v1["sides"][0].get("hand").is_none());
    assert!(v1["sides"][1]["hand"].is_array());
    for side in 0..2 {
        assert!(spectator["sides"][side].get("hand").is_none());
        assert_eq!(spectator["sides"][side]["hand_count"], 5);
        assert_eq!(spectator["sides"][side]["draw_count"], 5);
        assert!(spectator["sides"][side].get("draw").is_none());
    }
    assert_eq!(v0["state"], "playerTurn");
    assert_eq!(v0["mode"], "pve");
    assert_eq!(v0["active"], 0);
    assert_eq!(v0["result"], serde_json::Value::Null);
    let card = &v0["sides"][0]["hand"][0];
    for key in [
        "id", "card", "name", "type", "cost", "value", "sigil", "synergy",
    ] {
        assert!(card.get(key).is_some(), "{key}");
    }
    assert!(
        v0.get("log").is_none(),
        "the log travels through Ruleset::log"
    );
    assert!(!b.log(Viewer::Spectator).is_empty());
    assert_eq!(b.log(Viewer::Spectator), b.log(Viewer::Seat(0)));
    assert_eq!(b.log(Viewer::Seat(1)), b.log(Viewer::Seat(0)));
}

#[test]
fn view_names_are_the_spec_names() {
    use super::cards::{CardType, Sigil};
    use super::state::Phase;
    for phase in Phase::ALL {
        assert_eq!(serde_json::to_value(phase).expect("names"), phase.as_str());
    }
    for sigil in Sigil::ALL {
        assert_eq!(serde_json::to_value(sigil).expect("names"), sigil.as_str());
    }
    for kind in [CardType::Attack, CardType::Skill] {
        assert_eq!(serde_json::to_value(kind).expect("names"), kind.as_str());
    }
}
