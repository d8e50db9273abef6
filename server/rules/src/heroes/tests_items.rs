//! The spec's "Item Categories" and tiers, checked on the data.

use super::*;

fn count(f: impl Fn(&Item) -> bool) -> usize {
    ITEMS.iter().filter(|i| f(i)).count()
}

fn active(item: &Item) -> bool {
    item.effects.iter().any(|e| {
        matches!(
            e,
            Effect::ActiveImmune { .. }
                | Effect::ActiveBlast { .. }
                | Effect::ActiveHeal { .. }
                | Effect::ActiveDraw { .. }
                | Effect::ActiveUntap { .. }
                | Effect::ActiveArmor { .. }
                | Effect::ActiveSlay { .. }
        )
    })
}

#[test]
fn shop_45_items_in_the_spec_categories() {
    assert_eq!(ITEMS.len(), 45);
    assert_eq!(count(|i| i.kind == Equipment(Weapon)), 7);
    assert_eq!(count(|i| i.kind == Equipment(Chest)), 7);
    assert_eq!(count(|i| i.kind == Equipment(Jewelry)), 7);
    assert_eq!(count(|i| i.kind == Equipment(Relic)), 15);
    assert_eq!(count(|i| i.kind == Equipment(Relic) && active(i)), 7);
    assert_eq!(count(|i| i.kind == Equipment(Relic) && !active(i)), 8);
    assert_eq!(count(|i| i.kind == Consumable), 9);
    let mut ids: Vec<&str> = ITEMS.iter().map(|i| i.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 45, "ids are unique");
}

#[test]
fn shop_tiers_by_price_with_enough_for_a_market_of_5() {
    for tier in [Early, Mid, Late] {
        assert!(
            count(|i| i.tier == tier) >= 5,
            "{tier:?} fills a market of 5"
        );
        for item in ITEMS.iter().filter(|i| i.tier == tier) {
            assert!(
                tier.prices().contains(&item.cost),
                "{} costs {} in {tier:?}",
                item.id,
                item.cost
            );
        }
    }
}

#[test]
fn shop_potions_have_the_spec_numbers() {
    let potion = |id: &str| {
        let item = find(id).expect("a potion");
        (item.cost, item.effects[0])
    };
    assert_eq!(potion("mana_potion"), (4, Effect::MaxMana(1)));
    assert_eq!(potion("greater_mana_potion"), (7, Effect::MaxMana(2)));
    assert_eq!(potion("grand_mana_potion"), (13, Effect::MaxMana(4)));
    assert_eq!(potion("health_potion"), (3, Effect::Heal(4)));
    assert_eq!(potion("greater_health_potion"), (5, Effect::Heal(7)));
    assert_eq!(potion("grand_health_potion"), (8, Effect::Heal(12)));
    assert_eq!(potion("knowledge_potion"), (2, Effect::Draw(1)));
    assert_eq!(potion("greater_knowledge_potion"), (6, Effect::Draw(3)));
    assert_eq!(potion("grand_knowledge_potion"), (10, Effect::Draw(5)));
}

#[test]
fn shop_uses_the_spec_example_items_as_written() {
    for (id, text) in [
        ("maelstrom", "Your Weapon Attacks deal +1 damage. When you kill a minion with a Weapon Attack, deal 2 damage to another random enemy minion"),
        ("vanguard", "+5 Health, +2 starting Armor. First time you take 4+ damage each turn, reduce by 3"),
        ("lucky_coin", "Whenever you kill an enemy minion, gain +1 bonus gold"),
        ("radiance", "At start of turn, deal 1 damage to all enemy minions"),
        ("black_king_bar", "Once per game, pay 3 mana: Your hero is Immune until end of turn"),
    ] {
        let item = find(id).expect("the spec's example item");
        assert!(item.text.starts_with(text), "{id}: {}", item.text);
    }
}
