//! One test per card of spec section 6: its data fields exactly, and what it does in play.

use super::cards::{find, CardType, Sigil, POOL};
use super::testkit::Scenario;

fn check(id: &str, name: &str, kind: CardType, value: u32, sigil: Sigil) {
    let def = find(id).expect("pool card");
    assert_eq!(
        (def.name, def.kind, def.cost, def.value, def.sigil),
        (name, kind, 1, value, sigil),
        "{id}"
    );
}

#[test]
fn pool_has_exactly_ten_cards_in_id_order() {
    let ids: Vec<&str> = POOL.iter().map(|c| c.id).collect();
    assert_eq!(
        ids,
        ["C001", "C002", "C003", "C004", "C005", "C006", "C007", "C008", "C009", "C010"]
    );
    assert!(find("C011").is_none());
}

/// Plays `card` alone on a fresh turn; returns the battle afterwards.
fn play_alone(card: &'static str) -> super::state::Battle {
    let mut b = Scenario::pve()
        .hand(0, &[card, "C009"])
        .draw(0, &["C001", "C002"])
        .block(1, 4)
        .build();
    b.play_card(0, card);
    b
}

fn attack(card: &'static str, damage: u32) {
    let b = play_alone(card);
    // 4 block absorbs first, the rest comes off 70 HP.
    assert_eq!(
        (b.sides[1].block, b.sides[1].hp),
        (0, 70 - (damage - 4)),
        "{card}"
    );
    assert_eq!(b.sides[0].score, 10, "{card}: attacks score 10");
    assert_eq!(b.sides[0].energy, 2, "{card}: costs 1");
}

#[test]
fn c001_ember_strike_deals_7() {
    check("C001", "Ember Strike", CardType::Attack, 7, Sigil::Flame);
    attack("C001", 7);
}

#[test]
fn c002_ember_strike_plus_deals_9() {
    check("C002", "Ember Strike+", CardType::Attack, 9, Sigil::Flame);
    attack("C002", 9);
}

#[test]
fn c003_thorn_jab_deals_6() {
    check("C003", "Thorn Jab", CardType::Attack, 6, Sigil::Leaf);
    attack("C003", 6);
}

#[test]
fn c004_cog_shot_deals_6() {
    check("C004", "Cog Shot", CardType::Attack, 6, Sigil::Gear);
    attack("C004", 6);
    assert_eq!(
        play_alone("C004").sides[0].zones.hand.len(),
        1,
        "no synergy, no draw"
    );
}

#[test]
fn c005_null_pierce_deals_5() {
    check("C005", "Null Pierce", CardType::Attack, 5, Sigil::Void);
    attack("C005", 5);
}

#[test]
fn c006_bark_guard_gains_8_block() {
    check("C006", "Bark Guard", CardType::Skill, 8, Sigil::Leaf);
    let b = play_alone("C006");
    assert_eq!((b.sides[0].block, b.sides[0].score), (8, 8));
}

#[test]
fn c007_clockwork_guard_gains_7_block() {
    check("C007", "Clockwork Guard", CardType::Skill, 7, Sigil::Gear);
    let b = play_alone("C007");
    assert_eq!((b.sides[0].block, b.sides[0].score), (7, 8));
}

#[test]
fn c008_spark_cycle_draws_1() {
    check("C008", "Spark Cycle", CardType::Skill, 1, Sigil::Gear);
    let b = play_alone("C008");
    assert_eq!(b.hand_cards(0), vec!["C009", "C001"]);
    assert_eq!(b.sides[0].score, 8);
    // With Gear synergy it draws 1 + 1.
    let mut b = Scenario::pve()
        .hand(0, &["C007", "C008", "C009"])
        .draw(0, &["C001", "C002", "C003"])
        .build();
    b.play_card(0, "C007");
    b.play_card(0, "C008");
    assert_eq!(b.hand_cards(0), vec!["C009", "C001", "C002"]);
}

#[test]
fn c009_ashen_focus_adds_2_to_the_next_attack() {
    check("C009", "Ashen Focus", CardType::Skill, 2, Sigil::Flame);
    let mut b = Scenario::pve().hand(0, &["C009", "C003", "C001"]).build();
    b.play_card(0, "C009");
    assert_eq!((b.sides[0].focus, b.sides[0].score), (2, 8));
    b.play_card(0, "C003");
    assert_eq!(b.sides[1].hp, 70 - 8);
    assert_eq!(b.sides[0].focus, 0);
}

#[test]
fn c010_void_echo_removes_2_enemy_block() {
    check("C010", "Void Echo", CardType::Skill, 2, Sigil::Void);
    let b = play_alone("C010");
    assert_eq!((b.sides[1].block, b.sides[1].hp), (2, 70));
    assert_eq!(b.sides[0].score, 8);
}

#[test]
fn s6_every_card_text_names_its_value_and_its_synergy() {
    use super::cards::{EffectKind, Sigil, POOL};
    for def in POOL {
        assert!(
            def.text.contains(&def.value.to_string()),
            "{}: {:?} should name its value {}",
            def.id,
            def.text,
            def.value
        );
        let synergy = match (def.sigil, def.effect) {
            (Sigil::Flame, EffectKind::Damage) => "Flame synergy: +3 damage",
            (Sigil::Leaf, EffectKind::Block) => "Leaf synergy: +3 block",
            (Sigil::Gear, _) => "Gear synergy: draw 1",
            (Sigil::Void, _) => "Void synergy: x1.5 score",
            (sigil, _) => sigil.as_str(),
        };
        assert!(
            def.text.contains(synergy),
            "{}: {:?} should say {synergy:?}",
            def.id,
            def.text
        );
    }
}
