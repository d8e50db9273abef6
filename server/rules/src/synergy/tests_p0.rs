//! The spec's QA priority cases (section 12, P0 1 to 7), each as a scenario test, plus the
//! multiplier stack of section 5.5 and the guarantee that a refused action changes nothing.

use serde_json::json;

use super::cards::CardType;
use super::error::SynergyError;
use super::options::Mode;
use super::score::card_score;
use super::state::{allowed, Phase, TRANSITIONS};
use super::testkit::Json;
use super::testkit::{battle, Scenario};
use crate::game::Game;
use crate::ruleset::RuleError;

#[test]
fn s12_p0_1_state_transitions_only_in_allowed_order() {
    // Every pair not in the table is refused and leaves the state as it was.
    for from in Phase::ALL {
        for to in Phase::ALL {
            let mut b = Scenario::pve().phase(from).build();
            let before = format!("{b:?}");
            let result = b.transition(to);
            if allowed(from, to) {
                assert!(TRANSITIONS.contains(&(from, to)));
                continue;
            }
            assert_eq!(
                result,
                Err(SynergyError::InvalidTransition {
                    from: from.as_str(),
                    to: to.as_str()
                }),
                "{from:?} -> {to:?} must be refused"
            );
            assert_eq!(format!("{b:?}"), before);
        }
    }
    assert_eq!(TRANSITIONS.len(), 5);
    // A real round goes playerTurn -> enemyTurn -> resolution -> playerTurn, and each state's
    // entry effects run once: one turn line and one 5-card draw per turn.
    let mut b = battle(json!(null), 3);
    assert_eq!(b.phase, Phase::PlayerTurn);
    assert_eq!(b.round, 1);
    b.pass(0);
    assert_eq!(b.phase, Phase::EnemyTurn);
    assert_eq!(b.sides[1].zones.hand.len(), 5);
    // No duplicate end turn: the player's turn is over.
    assert_eq!(
        b.act_json(0, &json!({"kind": "end_turn"})),
        Err(SynergyError::NotYourTurn(0).into())
    );
    b.pass(1);
    assert_eq!(b.phase, Phase::PlayerTurn);
    assert_eq!(b.round, 2);
    assert_eq!(b.sides[0].zones.hand.len(), 5);
    let turn_lines = |needle: &str| b.log.iter().filter(|l| l.contains(needle)).count();
    assert_eq!(turn_lines("Round 2 of 40"), 1);
    assert_eq!(turn_lines("Training Automaton's turn, 3 energy."), 1);
    assert_eq!(turn_lines("Player 1 draws 5 cards"), 2); // opening hand + round 2
}

#[test]
fn s12_p0_2_reshuffle_when_draw_pile_empty() {
    // Mid-turn: Spark Cycle with an empty draw pile reshuffles the discard pile first.
    let mut b = Scenario::pve()
        .hand(0, &["C008", "C001"])
        .discard(0, &["C002", "C003", "C004"])
        .build();
    b.play_card(0, "C008");
    let side = &b.sides[0];
    assert_eq!(side.zones.hand.len(), 2);
    assert_eq!(side.zones.draw.len(), 2);
    // Spark Cycle was mid-resolution during the reshuffle, so it is the only discard.
    assert_eq!(side.zones.discard.len(), 1);
    assert_eq!(side.zones.discard[0].def.id, "C008");
    assert!(b.last_log().contains(
        "Player 1 plays Spark Cycle: draws 1 card (3 discarded cards shuffled into the draw pile)"
    ));

    // Turn start: 2 cards left, so 2 are drawn, then the discard pile is shuffled in.
    let mut b = Scenario::pve()
        .phase(Phase::EnemyTurn)
        .hand(1, &["C001"])
        .draw(0, &["C001", "C002"])
        .discard(0, &["C003", "C004", "C005", "C006", "C007", "C008"])
        .build();
    b.pass(1);
    let zones = &b.sides[0].zones;
    assert_eq!(&b.hand_cards(0)[..2], &["C001", "C002"]);
    assert_eq!(
        (zones.hand.len(), zones.draw.len(), zones.discard.len()),
        (5, 3, 0)
    );

    // The reshuffle order comes from the seed: the same seed gives the same order.
    let order = |seed| {
        let mut b = Scenario::pve()
            .hand(0, &["C008"])
            .discard(0, &["C001", "C002", "C003", "C004", "C005", "C006", "C007"])
            .build();
        b.rng = rand::SeedableRng::seed_from_u64(seed);
        b.play_card(0, "C008");
        let ids: Vec<u32> = b.sides[0].zones.draw.iter().map(|c| c.id).collect();
        ids
    };
    assert_eq!(order(11), order(11));
    assert_ne!(order(11), order(12));

    // Both piles empty: the draw stops.
    let mut b = Scenario::pve().hand(0, &["C008", "C001"]).build();
    b.play_card(0, "C008");
    assert_eq!(b.hand_cards(0), vec!["C001"]);
    assert!(b
        .log
        .iter()
        .any(|l| l.contains("1 not drawn: no cards left")));
}

#[test]
fn s12_p0_3_synergy_triggers_exactly_at_count_two_flame() {
    let mut b = Scenario::pve().hand(0, &["C001", "C002", "C003"]).build();
    assert!(!b.sides[0].would_synergize(super::cards::Sigil::Flame));
    b.play_card(0, "C001");
    assert_eq!(b.sides[1].hp, 70 - 7);
    assert!(b.sides[0].would_synergize(super::cards::Sigil::Flame));
    b.play_card(0, "C002");
    assert_eq!(b.sides[1].hp, 70 - 7 - 12);
    assert!(b.last_log().contains("with Flame synergy"));
}

#[test]
fn s12_p0_3_synergy_triggers_exactly_at_count_two_leaf() {
    let mut b = Scenario::pve().hand(0, &["C006", "C006", "C001"]).build();
    b.play_card(0, "C006");
    assert_eq!(b.sides[0].block, 8);
    b.play_card(0, "C006");
    assert_eq!(b.sides[0].block, 8 + 11);
    // Thorn Jab counts as the first Leaf card, so a following Bark Guard gets +3.
    let mut b = Scenario::pve().hand(0, &["C003", "C006", "C001"]).build();
    b.play_card(0, "C003");
    b.play_card(0, "C006");
    assert_eq!(b.sides[0].block, 11);
}

#[test]
fn s12_p0_3_synergy_triggers_exactly_at_count_two_gear() {
    let mut b = Scenario::pve()
        .hand(0, &["C004", "C007", "C001"])
        .draw(0, &["C005", "C006"])
        .build();
    b.play_card(0, "C004");
    assert_eq!(
        b.sides[0].zones.hand.len(),
        2,
        "first Gear card draws nothing"
    );
    b.play_card(0, "C007");
    assert_eq!(b.sides[0].block, 7, "Gear synergy adds no block");
    assert_eq!(
        b.hand_cards(0),
        vec!["C001", "C005"],
        "second Gear card draws 1"
    );
}

#[test]
fn s12_p0_3_synergy_triggers_exactly_at_count_two_void() {
    let mut b = Scenario::pve().hand(0, &["C005", "C010", "C005"]).build();
    b.play_card(0, "C005");
    assert_eq!(b.sides[0].score, 10);
    b.play_card(0, "C010");
    assert_eq!(b.sides[0].score, 10 + 12);
    b.play_card(0, "C005");
    assert_eq!(b.sides[0].score, 10 + 12 + 15);
}

#[test]
fn s12_p0_4_full_spectrum_x2_and_plus_20_once() {
    let mut b = Scenario::pve()
        .hand(0, &["C001", "C003", "C004", "C005", "C010", "C002"])
        .draw(1, &["C001"; 5])
        .energy(6)
        .build();
    b.play_card(0, "C001");
    b.play_card(0, "C003");
    b.play_card(0, "C004");
    assert_eq!((b.sides[0].score, b.sides[0].multiplier), (30, 1));
    b.play_card(0, "C005"); // completes the spectrum: 10 x2 + 20
    assert_eq!((b.sides[0].score, b.sides[0].multiplier), (30 + 20 + 20, 2));
    assert!(b.sides[0].spectrum_taken);
    b.play_card(0, "C010"); // Void synergy and x2: 8 -> 12 -> 24, no second +20
    assert_eq!(b.sides[0].score, 70 + 24);
    b.play_card(0, "C002"); // still x2, no bonus: 10 -> 20
    assert_eq!(b.sides[0].score, 94 + 20);
    assert_eq!(
        b.log
            .iter()
            .filter(|l| l.starts_with("Full spectrum"))
            .count(),
        1
    );
    // The multiplier and the once-per-turn flag reset with the turn.
    assert_eq!(b.phase, Phase::EnemyTurn);
    assert_eq!(
        (b.sides[0].multiplier, b.sides[0].spectrum_taken),
        (1, false)
    );
}

#[test]
fn s5_5_multiplier_stack_base_then_void_then_turn() {
    let skill = card_score(CardType::Skill, true, 2);
    assert_eq!((skill.base, skill.after_void, skill.total), (8, 12, 24));
    let attack = card_score(CardType::Attack, true, 2);
    assert_eq!((attack.base, attack.after_void, attack.total), (10, 15, 30));
    assert_eq!(card_score(CardType::Skill, true, 1).total, 12);
    assert_eq!(card_score(CardType::Attack, false, 2).total, 20);
    assert_eq!(card_score(CardType::Skill, false, 1).total, 8);
    // In play: Null Pierce with Void synergy under the full-spectrum multiplier gives 30.
    let mut b = Scenario::pve()
        .hand(0, &["C010", "C001", "C003", "C004", "C005"])
        .energy(5)
        .build();
    for card in ["C010", "C001", "C003", "C004"] {
        b.play_card(0, card);
    }
    let before = b.sides[0].score;
    b.play_card(0, "C005");
    assert_eq!(b.sides[0].score - before, 30);
    let line = format!(
        "+30 score ({before} to {}): 10 x1.5 Void synergy = 15, x2 full spectrum = 30",
        before + 30
    );
    assert!(b.log.iter().any(|l| l.contains(&line)), "{line}");
}

#[test]
fn s12_p0_5_block_absorbs_then_depletes() {
    let mut b = Scenario::pve()
        .hand(0, &["C001", "C002", "C006"])
        .block(1, 10)
        .draw(1, &["C004", "C004", "C004", "C004", "C004"])
        .build();
    b.play_card(0, "C001"); // 7 into 10 block
    assert_eq!((b.sides[1].block, b.sides[1].hp), (3, 70));
    b.play_card(0, "C002"); // 12 into 3 block
    assert_eq!((b.sides[1].block, b.sides[1].hp), (0, 61));
    b.play_card(0, "C006"); // player gains 8 block, turn ends (no energy)
    assert_eq!(b.phase, Phase::EnemyTurn);
    assert_eq!(
        b.sides[0].block, 8,
        "block lasts through the opponent's turn"
    );
    let cog = b.hand_ids(1)[0];
    b.act_json(1, &json!({"kind": "play_card", "card": cog}))
        .unwrap();
    assert_eq!((b.sides[0].block, b.sides[0].hp), (2, 60));
    b.pass(1);
    assert_eq!(b.phase, Phase::PlayerTurn);
    assert_eq!(
        b.sides[0].block, 0,
        "all block is removed at the owner's turn start"
    );
    assert!(b.log.iter().any(|l| l.starts_with(
        "Round 2 of 40: Player 1's turn, 3 energy. Player 1's block fades: -2 block (2 to 0)."
    )));
}

#[test]
fn s12_p0_6_simultaneous_ko_is_defeat() {
    let mut b = Scenario::pve()
        .hand(0, &["C002"])
        .hp(0, 5)
        .hp(1, 5)
        .draw(1, &["C002"])
        .build();
    b.play_card(0, "C002"); // the automaton drops to 0 but keeps its turn
    assert_eq!(b.sides[1].hp, 0);
    assert_eq!(b.phase, Phase::EnemyTurn);
    b.play_card(1, "C002");
    assert_eq!(b.phase, Phase::GameOver);
    let outcome = b.outcome().expect("the battle is over");
    assert_eq!(outcome.winners, vec![1]);
    let result = b.result.clone().expect("the battle is over");
    assert_eq!(result.final_scores, [0, 0]);
    assert_eq!(outcome.reason, crate::OutcomeReason::Knockout);
    assert_eq!(
        result.summary,
        "Both sides fell in the same resolution, which is a defeat for Player 1: Training \
         Automaton wins. Final scores: Player 1 0, Training Automaton 0."
    );
}

#[test]
fn s12_p0_7_score_updates_only_on_resolution() {
    let mut b = battle(json!(null), 5);
    let mut steps = 0;
    while b.phase != Phase::GameOver {
        let seat = b.active_seat().expect("someone acts until game over");
        let action = b.ai_json(seat).expect("the acting seat has a move");
        let before = [b.sides[0].score, b.sides[1].score];
        // A refused action changes no score.
        let _ = b.act_json(1 - seat, &action);
        assert_eq!([b.sides[0].score, b.sides[1].score], before);
        b.act_json(seat, &action)
            .expect("the automaton plays legally");
        let after = [b.sides[0].score, b.sides[1].score];
        assert_eq!(
            after[1 - seat],
            before[1 - seat],
            "the other side scores nothing"
        );
        if action["kind"] == "end_turn" {
            assert_eq!(after, before, "ending a turn scores nothing");
        } else {
            assert!(after[seat] >= before[seat] + 8, "a resolved card scores");
        }
        steps += 1;
        assert!(steps < 500);
    }
}

#[test]
fn refused_actions_leave_the_battle_unchanged() {
    let mut b = Scenario::pve()
        .hand(0, &["C001", "C002"])
        .hand(1, &["C003"])
        .draw(0, &["C004"])
        .build();
    let mine = b.hand_ids(0)[0];
    let theirs = b.hand_ids(1)[0];
    let attempts = [
        (1, json!({"kind": "end_turn"}), RuleError::NotYourTurn(1)),
        (
            1,
            json!({"kind": "play_card", "card": theirs}),
            RuleError::NotYourTurn(1),
        ),
        (7, json!({"kind": "end_turn"}), RuleError::NotYourTurn(7)),
    ];
    for (seat, action, expected) in attempts {
        let before = (format!("{b:?}"), b.all_views());
        assert_eq!(b.act_json(seat, &action), Err(expected));
        assert_eq!((format!("{b:?}"), b.all_views()), before);
    }
    let illegal = [
        json!({"kind": "play_card", "card": theirs}),
        json!({"kind": "play_card", "card": 999}),
        json!({"kind": "play_card", "card": 3}), // in the draw pile, not the hand
    ];
    let malformed = [
        json!(null),
        json!("end_turn"),
        json!([1]),
        json!({}),
        json!({"kind": 5}),
        json!({"kind": "dance"}),
        json!({"kind": "play_card"}),
        json!({"kind": "play_card", "card": "1"}),
        json!({"kind": "play_card", "card": -1}),
        json!({"kind": "play_card", "card": 1.5}),
        json!({"kind": "play_card", "card": 4294967297u64}),
        json!({"kind": "play_card", "card": mine, "extra": true}),
        json!({"kind": "end_turn", "card": mine}),
    ];
    for action in illegal.iter().chain(malformed.iter()) {
        let before = (format!("{b:?}"), b.all_views());
        let err = b.act_json(0, action).expect_err("refused");
        assert!(
            matches!(err, RuleError::Illegal(_) | RuleError::BadAction(_)),
            "{action}: {err:?}"
        );
        assert_eq!((format!("{b:?}"), b.all_views()), before, "{action}");
    }
    for action in malformed {
        assert!(matches!(
            b.act_json(0, &action),
            Err(RuleError::BadAction(_))
        ));
    }
    // No energy left for a card still in hand.
    let mut b = Scenario::pve().hand(0, &["C001"]).energy(0).build();
    let id = b.hand_ids(0)[0];
    let before = (format!("{b:?}"), b.all_views());
    assert!(matches!(
        b.act_json(0, &json!({"kind": "play_card", "card": id})),
        Err(RuleError::Illegal(msg)) if msg.contains("energy")
    ));
    assert_eq!((format!("{b:?}"), b.all_views()), before);
    // After game over every action is refused with GameOver and nothing changes.
    let mut b = Scenario::pve()
        .hand(0, &["C001"])
        .hp(1, 1)
        .phase(Phase::PlayerTurn)
        .build();
    b.play_card(0, "C001");
    assert_eq!(
        b.phase,
        Phase::GameOver,
        "the automaton had no cards, so its turn passed"
    );
    assert_eq!(b.mode, Mode::Pve);
    let before = (format!("{b:?}"), b.all_views());
    for seat in [0, 1] {
        assert_eq!(
            b.act_json(seat, &json!({"kind": "end_turn"})),
            Err(RuleError::GameOver)
        );
        assert_eq!(
            b.act_json(seat, &json!({"kind": "nonsense"})),
            Err(RuleError::GameOver)
        );
    }
    assert_eq!((format!("{b:?}"), b.all_views()), before);
}
