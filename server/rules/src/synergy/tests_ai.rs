//! The Training Automaton's priority list (spec 7.2), each rule and its tie-break.

use super::ai::{decide, Reason};
use super::cards::Sigil;
use super::play::Action;
use super::state::{Battle, Phase};
use super::testkit::Json;
use super::testkit::{battle, Scenario};
use crate::game::Game;

/// The automaton (seat 1) to act with `hand` and `hp`, the player at `player_hp`/`block`.
fn enemy(hand: &[&'static str], hp: u32, player_hp: u32, player_block: u32) -> Battle {
    Scenario::pve()
        .phase(Phase::EnemyTurn)
        .hand(1, hand)
        .hp(1, hp)
        .hp(0, player_hp)
        .block(0, player_block)
        .build()
}

/// The card id chosen for seat 1 and why.
fn choice(b: &Battle) -> (&'static str, Reason) {
    match decide(b, 1).expect("seat 1 must act") {
        (Action::PlayCard { card: id }, reason) => {
            let card = b.sides[1]
                .zones
                .hand
                .iter()
                .find(|c| c.id == id)
                .expect("the automaton picks from its hand");
            (card.def.id, reason)
        }
        (Action::EndTurn {}, reason) => ("end_turn", reason),
    }
}

/// Position in hand of the chosen card.
fn chosen_position(b: &Battle) -> usize {
    match decide(b, 1) {
        Some((Action::PlayCard { card: id }, _)) => b
            .hand_ids(1)
            .iter()
            .position(|&x| x == id)
            .expect("in hand"),
        other => panic!("expected a play, got {other:?}"),
    }
}

#[test]
fn s7_2_priority_1_lethal_attack_after_block() {
    // 5 HP and 3 block: only Ember Strike+ (9) gets through for 6 >= 5.
    let b = enemy(&["C006", "C003", "C002", "C001"], 70, 5, 3);
    assert_eq!(choice(&b), ("C002", Reason::Lethal));
    // Flame synergy counts toward lethal: 7 + 3 = 10 against 10 HP.
    let mut b = enemy(&["C006", "C001"], 70, 10, 0);
    b.sides[1].sigils[Sigil::Flame.index()] = 1;
    assert_eq!(choice(&b), ("C001", Reason::Lethal));
    // Without the synergy 7 is not lethal: then it is just the highest damage.
    let b = enemy(&["C006", "C001"], 70, 10, 0);
    assert_eq!(choice(&b), ("C001", Reason::HighestDamage));
    // Pending focus counts too: 5 + 2 against 7 HP.
    let mut b = enemy(&["C005"], 70, 7, 0);
    b.sides[1].focus = 2;
    assert_eq!(choice(&b), ("C005", Reason::Lethal));
    // Ties among lethal attacks go to the earlier card.
    let b = enemy(&["C007", "C004", "C003"], 70, 6, 0);
    assert_eq!((chosen_position(&b), choice(&b).1), (1, Reason::Lethal));
}

#[test]
fn s7_2_priority_2_highest_immediate_damage() {
    let b = enemy(&["C006", "C005", "C002", "C001"], 70, 60, 0);
    assert_eq!(choice(&b), ("C002", Reason::HighestDamage));
    // Attacks win over block even at low HP.
    let b = enemy(&["C006", "C005"], 10, 60, 0);
    assert_eq!(choice(&b), ("C005", Reason::HighestDamage));
    // Ties go to the earlier card in hand order.
    let b = enemy(&["C008", "C004", "C003"], 70, 60, 0);
    assert_eq!(
        (choice(&b), chosen_position(&b)),
        (("C004", Reason::HighestDamage), 1)
    );
    let b = enemy(&["C008", "C003", "C004"], 70, 60, 0);
    assert_eq!(choice(&b), ("C003", Reason::HighestDamage));
}

#[test]
fn s7_2_priority_3_highest_block_at_25_hp_or_less() {
    let b = enemy(&["C008", "C007", "C006"], 25, 60, 0);
    assert_eq!(choice(&b), ("C006", Reason::HighestBlock));
    // Ties: the earlier card.
    let b = enemy(&["C010", "C007", "C007"], 20, 60, 0);
    assert_eq!(
        (chosen_position(&b), choice(&b).1),
        (1, Reason::HighestBlock)
    );
    // Leaf synergy counts: 7 (Clockwork) vs 8 + 3 (Bark Guard after a Leaf card).
    let mut b = enemy(&["C007", "C006"], 20, 60, 0);
    b.sides[1].sigils[Sigil::Leaf.index()] = 1;
    assert_eq!(choice(&b), ("C006", Reason::HighestBlock));
    // 26 HP is not low: the first playable card.
    let b = enemy(&["C008", "C007", "C006"], 26, 60, 0);
    assert_eq!(choice(&b), ("C008", Reason::FirstPlayable));
}

#[test]
fn s7_2_priority_4_first_playable_card() {
    let b = enemy(&["C010", "C009", "C006"], 70, 60, 0);
    assert_eq!(choice(&b), ("C010", Reason::FirstPlayable));
    // Low HP but no block card: still the first playable card.
    let b = enemy(&["C009", "C010"], 3, 60, 0);
    assert_eq!(choice(&b), ("C009", Reason::FirstPlayable));
}

#[test]
fn s7_2_only_the_acting_seat_gets_a_choice() {
    let b = enemy(&["C001"], 70, 60, 0);
    assert!(decide(&b, 0).is_none());
    assert!(b.ai_action(0).is_none());
    assert!(b.ai_action(5).is_none());
    // With no energy left (a constructed state) the automaton ends its turn.
    let b = Scenario::pve().hand(0, &["C001"]).energy(0).build();
    assert_eq!(decide(&b, 0), Some((Action::EndTurn {}, Reason::EndTurn)));
}

#[test]
fn s7_2_automaton_plays_whole_battles_to_the_end() {
    for seed in 0..20 {
        let mut b = battle(serde_json::json!(null), seed);
        let mut steps = 0;
        while b.outcome().is_none() {
            let seat = b.to_act()[0];
            let action = b.ai_json(seat).expect("the acting seat has a move");
            assert!(b.legal_json(seat).contains(&action));
            b.act_json(seat, &action).expect("legal");
            steps += 1;
            assert!(steps <= 40 * 8, "seed {seed}: too many steps");
        }
    }
}
