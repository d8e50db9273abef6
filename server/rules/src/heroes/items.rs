//! The shop's 45 items as data (spec "Persistent Shop System"): 36 equipment — 7 weapons, 7
//! chest pieces, 7 jewelry pieces, 15 relics (8 passive, 7 active) — and 9 consumables with
//! the spec's exact potion numbers, in three tier decks by price (early 2–5 gold, mid 6–8,
//! late 9–15). The spec's example items are used as written; the others are ours.
//!
//! Each item's effect is a list of primitive [`Effect`]s, so the battle applies items by
//! reading data, not by naming them.

/// The shop tier an item belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// Rounds 1–3: 2–5 gold.
    Early,
    /// Rounds 4–6: 6–8 gold.
    Mid,
    /// Round 7 on: 9–15 gold.
    Late,
}

impl Tier {
    /// The prices this tier's items cost (spec).
    pub fn prices(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Early => 2..=5,
            Mid => 6..=8,
            Late => 9..=15,
        }
    }
}

/// Where an equipment item goes on the hero board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// Weapon attacks.
    Weapon,
    /// Health, armor, defence.
    Chest,
    /// Gold and cards.
    Jewelry,
    /// A passive aura or a once-per-game activated ability.
    Relic,
}

/// What kind of item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Equipped at once, replacing the slot's old item.
    Equipment(Slot),
    /// Acts at once, then is gone.
    Consumable,
}

/// One primitive effect. Passive effects last while the item is equipped; `Active` relics
/// are used once per game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Weapon attacks deal this much more damage.
    WeaponDamage(u32),
    /// A minion killed by a weapon attack: deal this to another random enemy minion.
    WeaponKillSplash(u32),
    /// A minion killed by a weapon attack: the hero takes no damage back.
    WeaponKillNoRecoil,
    /// Max (and current) health up by this much.
    MaxHealth(u32),
    /// Armor gained when equipped.
    Armor(u32),
    /// The first time each turn the hero takes at least `at` damage, reduce it by `by`.
    FirstBigHitReduced {
        /// The threshold.
        at: u32,
        /// The reduction.
        by: u32,
    },
    /// Armor gained at the start of each of the owner's turns.
    ArmorEachTurn(u32),
    /// Health restored at the start of each of the owner's turns.
    HealEachTurn(u32),
    /// Bonus gold whenever the owner kills an enemy minion.
    KillGold(u32),
    /// Gold at the start of each of the owner's turns.
    GoldEachTurn(u32),
    /// Cards drawn at the start of each of the owner's turns, every so many turns (1: each).
    DrawEvery(u32),
    /// Damage to every enemy minion at the start of the owner's turn.
    PulseEnemyMinions(u32),
    /// The owner's minions have this much more attack.
    MinionAttack(u32),
    /// The owner's minions have this much more health.
    MinionHealth(u32),
    /// Spells deal this much more damage.
    SpellDamage(u32),
    /// Hero power costs this much less (not below 0).
    HeroPowerDiscount(u32),
    /// Once per game, pay `mana`: the hero is immune to damage until end of turn.
    ActiveImmune {
        /// Mana to pay.
        mana: u32,
    },
    /// Once per game, pay `mana`: deal `damage` to any target.
    ActiveBlast {
        /// Mana to pay.
        mana: u32,
        /// Damage dealt.
        damage: u32,
    },
    /// Once per game, pay `mana`: restore `health`.
    ActiveHeal {
        /// Mana to pay.
        mana: u32,
        /// Health restored.
        health: u32,
    },
    /// Once per game, pay `mana`: draw `cards`.
    ActiveDraw {
        /// Mana to pay.
        mana: u32,
        /// Cards drawn.
        cards: u32,
    },
    /// Once per game, pay `mana`: untap all the owner's minions.
    ActiveUntap {
        /// Mana to pay.
        mana: u32,
    },
    /// Once per game, pay `mana`: gain `armor`.
    ActiveArmor {
        /// Mana to pay.
        mana: u32,
        /// Armor gained.
        armor: u32,
    },
    /// Once per game, pay `mana`: destroy an enemy minion with at most `health` health.
    ActiveSlay {
        /// Mana to pay.
        mana: u32,
        /// The largest health it destroys.
        health: u32,
    },
    /// Consumable: max mana up by this much, past 10 (spec: mana potions).
    MaxMana(u32),
    /// Consumable: restore this much health (not above max).
    Heal(u32),
    /// Consumable: draw this many cards.
    Draw(u32),
}

/// One shop item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// Stable id.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Its tier deck.
    pub tier: Tier,
    /// Gold it costs.
    pub cost: u32,
    /// Equipment (and its slot) or consumable.
    pub kind: Kind,
    /// What it does.
    pub effects: &'static [Effect],
    /// What it does, for people.
    pub text: &'static str,
}

use Effect as E;
use Kind::{Consumable, Equipment};
use Slot::{Chest, Jewelry, Relic, Weapon};
use Tier::{Early, Late, Mid};

const fn item(
    id: &'static str,
    name: &'static str,
    tier: Tier,
    cost: u32,
    kind: Kind,
    effects: &'static [Effect],
    text: &'static str,
) -> Item {
    Item {
        id,
        name,
        tier,
        cost,
        kind,
        effects,
        text,
    }
}

/// Every item: 15 per tier.
pub const ITEMS: [Item; 45] = [
    // Weapons (7).
    item("whetted_blade", "Whetted Blade", Early, 3, Equipment(Weapon), &[E::WeaponDamage(1)], "Your weapon attacks deal +1 damage."),
    item("hooked_spear", "Hooked Spear", Early, 5, Equipment(Weapon), &[E::WeaponDamage(1), E::WeaponKillNoRecoil], "Weapon attacks deal +1 damage; a weapon attack that kills takes no damage back."),
    item("maelstrom", "Maelstrom", Mid, 7, Equipment(Weapon), &[E::WeaponDamage(1), E::WeaponKillSplash(2)], "Your Weapon Attacks deal +1 damage. When you kill a minion with a Weapon Attack, deal 2 damage to another random enemy minion."),
    item("war_maul", "War Maul", Mid, 8, Equipment(Weapon), &[E::WeaponDamage(3)], "Your weapon attacks deal +3 damage."),
    item("ember_edge", "Ember Edge", Mid, 6, Equipment(Weapon), &[E::WeaponDamage(2)], "Your weapon attacks deal +2 damage."),
    item("thunder_cleaver", "Thunder Cleaver", Late, 11, Equipment(Weapon), &[E::WeaponDamage(3), E::WeaponKillSplash(3)], "Weapon attacks deal +3 damage; a kill deals 3 to another random enemy minion."),
    item("executioners_arc", "Executioner's Arc", Late, 14, Equipment(Weapon), &[E::WeaponDamage(5), E::WeaponKillNoRecoil], "Weapon attacks deal +5 damage; a weapon attack that kills takes no damage back."),
    // Chest (7).
    item("padded_vest", "Padded Vest", Early, 2, Equipment(Chest), &[E::Armor(2)], "Gain 2 Armor."),
    item("chain_shirt", "Chain Shirt", Early, 4, Equipment(Chest), &[E::MaxHealth(3), E::Armor(1)], "+3 Health, +1 Armor."),
    item("vanguard", "Vanguard", Mid, 8, Equipment(Chest), &[E::MaxHealth(5), E::Armor(2), E::FirstBigHitReduced { at: 4, by: 3 }], "+5 Health, +2 starting Armor. First time you take 4+ damage each turn, reduce by 3."),
    item("warden_plate", "Warden Plate", Mid, 7, Equipment(Chest), &[E::ArmorEachTurn(1)], "Gain 1 Armor at the start of each of your turns."),
    item("living_bark", "Living Bark", Mid, 6, Equipment(Chest), &[E::MaxHealth(2), E::HealEachTurn(1)], "+2 Health; restore 1 health at the start of each of your turns."),
    item("bastion_mail", "Bastion Mail", Late, 12, Equipment(Chest), &[E::MaxHealth(6), E::Armor(4)], "+6 Health, +4 Armor."),
    item("phoenix_mantle", "Phoenix Mantle", Late, 13, Equipment(Chest), &[E::MaxHealth(4), E::HealEachTurn(2), E::ArmorEachTurn(1)], "+4 Health; at the start of each of your turns restore 2 health and gain 1 Armor."),
    // Jewelry (7).
    item("lucky_coin", "Lucky Coin", Early, 3, Equipment(Jewelry), &[E::KillGold(1)], "Whenever you kill an enemy minion, gain +1 bonus gold."),
    item("copper_ring", "Copper Ring", Early, 4, Equipment(Jewelry), &[E::GoldEachTurn(1)], "Gain 1 gold at the start of each of your turns."),
    item("scholars_pin", "Scholar's Pin", Mid, 7, Equipment(Jewelry), &[E::DrawEvery(2)], "Draw a card at the start of every second turn of yours."),
    item("merchants_chain", "Merchant's Chain", Mid, 8, Equipment(Jewelry), &[E::GoldEachTurn(2)], "Gain 2 gold at the start of each of your turns."),
    item("bounty_charm", "Bounty Charm", Mid, 6, Equipment(Jewelry), &[E::KillGold(2)], "Whenever you kill an enemy minion, gain +2 bonus gold."),
    item("sages_circlet", "Sage's Circlet", Late, 10, Equipment(Jewelry), &[E::DrawEvery(1)], "Draw an extra card at the start of each of your turns."),
    item("gilded_crown", "Gilded Crown", Late, 12, Equipment(Jewelry), &[E::GoldEachTurn(2), E::KillGold(2)], "Gain 2 gold each turn and +2 gold per enemy minion killed."),
    // Relics, passive (8).
    item("radiance", "Radiance", Mid, 8, Equipment(Relic), &[E::PulseEnemyMinions(1)], "At start of turn, deal 1 damage to all enemy minions."),
    item("war_banner", "War Banner", Early, 5, Equipment(Relic), &[E::MinionAttack(1)], "Your minions have +1 attack."),
    item("stone_totem", "Stone Totem", Early, 4, Equipment(Relic), &[E::MinionHealth(1)], "Your minions have +1 health."),
    item("arcane_focus", "Arcane Focus", Early, 5, Equipment(Relic), &[E::SpellDamage(1)], "Your spells deal +1 damage."),
    item("tuning_fork", "Tuning Fork", Mid, 6, Equipment(Relic), &[E::HeroPowerDiscount(1)], "Your hero power costs 1 less."),
    item("warlords_standard", "Warlord's Standard", Late, 11, Equipment(Relic), &[E::MinionAttack(2), E::MinionHealth(1)], "Your minions have +2 attack and +1 health."),
    item("storm_idol", "Storm Idol", Late, 13, Equipment(Relic), &[E::PulseEnemyMinions(2)], "At the start of your turn, deal 2 damage to all enemy minions."),
    item("archmages_orb", "Archmage's Orb", Late, 12, Equipment(Relic), &[E::SpellDamage(2), E::HeroPowerDiscount(1)], "Your spells deal +2 damage; your hero power costs 1 less."),
    // Relics, active (7).
    item("black_king_bar", "Black King Bar", Late, 10, Equipment(Relic), &[E::ActiveImmune { mana: 3 }], "Once per game, pay 3 mana: Your hero is Immune until end of turn."),
    item("flare_charm", "Flare Charm", Early, 4, Equipment(Relic), &[E::ActiveBlast { mana: 2, damage: 3 }], "Once per game, pay 2 mana: deal 3 damage to any target."),
    item("healing_idol", "Healing Idol", Early, 3, Equipment(Relic), &[E::ActiveHeal { mana: 1, health: 5 }], "Once per game, pay 1 mana: restore 5 health."),
    item("tome_of_echoes", "Tome of Echoes", Mid, 7, Equipment(Relic), &[E::ActiveDraw { mana: 2, cards: 3 }], "Once per game, pay 2 mana: draw 3 cards."),
    item("rally_horn", "Rally Horn", Mid, 6, Equipment(Relic), &[E::ActiveUntap { mana: 2 }], "Once per game, pay 2 mana: untap all your minions."),
    item("aegis_shard", "Aegis Shard", Late, 9, Equipment(Relic), &[E::ActiveArmor { mana: 2, armor: 6 }], "Once per game, pay 2 mana: gain 6 Armor."),
    item("reapers_sigil", "Reaper's Sigil", Late, 15, Equipment(Relic), &[E::ActiveSlay { mana: 4, health: 6 }], "Once per game, pay 4 mana: destroy an enemy minion with 6 or less health."),
    // Consumables (9), the spec's numbers.
    item("mana_potion", "Mana Potion", Early, 4, Consumable, &[E::MaxMana(1)], "+1 max mana (past 10)."),
    item("greater_mana_potion", "Greater Mana Potion", Mid, 7, Consumable, &[E::MaxMana(2)], "+2 max mana (past 10)."),
    item("grand_mana_potion", "Grand Mana Potion", Late, 13, Consumable, &[E::MaxMana(4)], "+4 max mana (past 10)."),
    item("health_potion", "Health Potion", Early, 3, Consumable, &[E::Heal(4)], "Restore 4 health."),
    item("greater_health_potion", "Greater Health Potion", Early, 5, Consumable, &[E::Heal(7)], "Restore 7 health."),
    item("grand_health_potion", "Grand Health Potion", Mid, 8, Consumable, &[E::Heal(12)], "Restore 12 health."),
    item("knowledge_potion", "Knowledge Potion", Early, 2, Consumable, &[E::Draw(1)], "Draw 1 card."),
    item("greater_knowledge_potion", "Greater Knowledge Potion", Mid, 6, Consumable, &[E::Draw(3)], "Draw 3 cards."),
    item("grand_knowledge_potion", "Grand Knowledge Potion", Late, 10, Consumable, &[E::Draw(5)], "Draw 5 cards."),
];

/// The item with this id.
pub fn find(id: &str) -> Option<&'static Item> {
    ITEMS.iter().find(|item| item.id == id)
}

#[cfg(test)]
#[path = "tests_items.rs"]
mod tests;
