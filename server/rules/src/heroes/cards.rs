//! The cards of the two classes as data (spec "Card Types", "Class-Specific Mechanics"):
//! minions (attack, health, bounty), spells, upgrades for the hero's ability slots, and
//! ultimates (playable only after levelling up). The spec's example cards are used as
//! written; the others are ours.

/// Whom a spell's effect hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// One minion (either side).
    Minion,
    /// One enemy minion.
    EnemyMinion,
    /// The enemy hero.
    EnemyHero,
    /// Any minion or hero.
    Any,
    /// Every enemy minion.
    AllEnemyMinions,
}

/// One primitive effect of a spell, an ultimate or an ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Deal damage; a damage spell may spend Spell Damage on it (spec).
    Damage {
        /// Base damage.
        amount: u32,
        /// Its target.
        aim: Aim,
    },
    /// Channeled (spec): `amount`, or `channeled` if another spell was cast this turn first.
    Channeled {
        /// Damage without a spell before it this turn.
        amount: u32,
        /// Damage with one.
        channeled: u32,
        /// Its target.
        aim: Aim,
    },
    /// Gain armor.
    Armor(u32),
    /// Gain Rage (Barbarian).
    Rage(u32),
    /// Gain Spell Damage (Mage; at most 5 held).
    SpellDamage(u32),
    /// Draw cards.
    Draw(u32),
    /// Restore health to your hero.
    Heal(u32),
    /// Gain gold.
    Gold(u32),
    /// Give one of your minions +attack/+health until it leaves play.
    Buff {
        /// Attack added.
        attack: u32,
        /// Health added.
        health: u32,
    },
    /// Untap your minions.
    Untap,
    /// Put a minion into play (attack, health, bounty), with summoning sickness.
    Summon {
        /// Its attack.
        attack: u32,
        /// Its health.
        health: u32,
        /// Its bounty.
        bounty: u32,
    },
}

/// Which ability slot an upgrade replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbilitySlot {
    /// The hero power.
    HeroPower,
    /// The Attack ability.
    Attack,
    /// The Defensive Ability.
    Defense,
}

/// What a card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A minion: attack / health / bounty.
    Minion {
        /// Attack.
        attack: u32,
        /// Health.
        health: u32,
        /// Gold for its killer's owner (spec: 1 small, 2 medium, 3 large).
        bounty: u32,
    },
    /// A spell: its effects, then the discard pile.
    Spell(&'static [Effect]),
    /// An upgrade: replaces an ability for good (its new text is the card's).
    Upgrade(AbilitySlot),
    /// An ultimate: a spell playable only after levelling up.
    Ultimate(&'static [Effect]),
}

/// One card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    /// Stable id.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Mana cost.
    pub cost: u32,
    /// What it is.
    pub kind: Kind,
    /// What it does, for people.
    pub text: &'static str,
}

use AbilitySlot::{Attack, Defense, HeroPower};
use Aim::{Any, EnemyHero, EnemyMinion};
use Effect as E;

const fn minion(
    id: &'static str,
    name: &'static str,
    cost: u32,
    attack: u32,
    health: u32,
    bounty: u32,
    text: &'static str,
) -> Card {
    Card {
        id,
        name,
        cost,
        kind: Kind::Minion {
            attack,
            health,
            bounty,
        },
        text,
    }
}

const fn spell(
    id: &'static str,
    name: &'static str,
    cost: u32,
    effects: &'static [Effect],
    text: &'static str,
) -> Card {
    Card {
        id,
        name,
        cost,
        kind: Kind::Spell(effects),
        text,
    }
}

const fn upgrade(
    id: &'static str,
    name: &'static str,
    cost: u32,
    slot: AbilitySlot,
    text: &'static str,
) -> Card {
    Card {
        id,
        name,
        cost,
        kind: Kind::Upgrade(slot),
        text,
    }
}

const fn ultimate(
    id: &'static str,
    name: &'static str,
    cost: u32,
    effects: &'static [Effect],
    text: &'static str,
) -> Card {
    Card {
        id,
        name,
        cost,
        kind: Kind::Ultimate(effects),
        text,
    }
}

/// Every card of both classes.
pub const CARDS: [Card; 30] = [
    // Barbarian.
    minion(
        "pit_brawler",
        "Pit Brawler",
        1,
        2,
        1,
        1,
        "A 2/1 minion (bounty 1).",
    ),
    minion(
        "shield_bearer",
        "Shield Bearer",
        2,
        1,
        4,
        1,
        "A 1/4 minion (bounty 1).",
    ),
    minion(
        "axe_raider",
        "Axe Raider",
        3,
        3,
        3,
        2,
        "A 3/3 minion (bounty 2).",
    ),
    minion(
        "war_hound",
        "War Hound",
        2,
        3,
        2,
        1,
        "A 3/2 minion (bounty 1).",
    ),
    minion(
        "berserker",
        "Berserker",
        4,
        5,
        3,
        2,
        "A 5/3 minion (bounty 2).",
    ),
    minion(
        "clan_champion",
        "Clan Champion",
        5,
        5,
        5,
        2,
        "A 5/5 minion (bounty 2).",
    ),
    minion(
        "siege_ogre",
        "Siege Ogre",
        7,
        8,
        8,
        3,
        "An 8/8 minion (bounty 3).",
    ),
    spell("battle_cry", "Battle Cry", 1, &[E::Rage(2)], "Gain 2 Rage."),
    spell("iron_skin", "Iron Skin", 2, &[E::Armor(4)], "Gain 4 Armor."),
    spell(
        "cleave",
        "Cleave",
        3,
        &[E::Damage {
            amount: 2,
            aim: Aim::AllEnemyMinions,
        }],
        "Deal 2 damage to every enemy minion.",
    ),
    spell(
        "hurl_axe",
        "Hurl Axe",
        2,
        &[E::Damage {
            amount: 3,
            aim: Any,
        }],
        "Deal 3 damage to any target.",
    ),
    spell(
        "blood_frenzy",
        "Blood Frenzy",
        3,
        &[
            E::Buff {
                attack: 3,
                health: 1,
            },
            E::Rage(1),
        ],
        "Give a minion of yours +3/+1; gain 1 Rage.",
    ),
    upgrade(
        "brutal_strike",
        "Brutal Strike",
        3,
        Attack,
        "Attack: deal weapon damage +2. If you kill it, don't take damage back.",
    ),
    upgrade(
        "iron_will",
        "Iron Will",
        2,
        HeroPower,
        "Hero power, cost 2: gain 3 Armor.",
    ),
    upgrade(
        "unbroken",
        "Unbroken",
        3,
        Defense,
        "Defensive Ability: gain 3 Armor and take half damage from that source (rounded down).",
    ),
    ultimate(
        "earthshatter",
        "Earthshatter",
        6,
        &[
            E::Damage {
                amount: 4,
                aim: Aim::AllEnemyMinions,
            },
            E::Damage {
                amount: 4,
                aim: EnemyHero,
            },
        ],
        "Deal 4 damage to every enemy minion and to the enemy hero.",
    ),
    ultimate(
        "warlords_call",
        "Warlord's Call",
        5,
        &[
            E::Summon {
                attack: 4,
                health: 4,
                bounty: 2,
            },
            E::Summon {
                attack: 4,
                health: 4,
                bounty: 2,
            },
            E::Untap,
        ],
        "Summon two 4/4 minions; untap your minions.",
    ),
    // Mage.
    minion(
        "apprentice",
        "Apprentice",
        1,
        1,
        2,
        1,
        "A 1/2 minion (bounty 1).",
    ),
    minion(
        "spark_familiar",
        "Spark Familiar",
        2,
        2,
        2,
        1,
        "A 2/2 minion (bounty 1).",
    ),
    minion(
        "runic_golem",
        "Runic Golem",
        4,
        3,
        6,
        2,
        "A 3/6 minion (bounty 2).",
    ),
    minion(
        "storm_adept",
        "Storm Adept",
        3,
        3,
        2,
        2,
        "A 3/2 minion (bounty 2).",
    ),
    minion(
        "elder_warden",
        "Elder Warden",
        6,
        6,
        6,
        3,
        "A 6/6 minion (bounty 3).",
    ),
    spell(
        "fireball",
        "Fireball",
        3,
        &[E::Damage {
            amount: 3,
            aim: Any,
        }],
        "Deal 3 damage to any target (spend Spell Damage to add to it).",
    ),
    spell(
        "arc_lash",
        "Arc Lash",
        2,
        &[E::Channeled {
            amount: 2,
            channeled: 4,
            aim: Any,
        }],
        "Deal 2 damage. Channeled: Deal 4 damage instead",
    ),
    spell(
        "focus",
        "Focus",
        1,
        &[E::SpellDamage(2)],
        "Gain 2 Spell Damage.",
    ),
    spell("insight", "Insight", 2, &[E::Draw(2)], "Draw 2 cards."),
    spell(
        "frost_shard",
        "Frost Shard",
        1,
        &[E::Damage {
            amount: 2,
            aim: EnemyMinion,
        }],
        "Deal 2 damage to an enemy minion.",
    ),
    upgrade(
        "mana_weave",
        "Mana Weave",
        2,
        HeroPower,
        "Hero power, cost 1: gain 1 Spell Damage.",
    ),
    upgrade(
        "blink",
        "Blink",
        3,
        Defense,
        "Defensive Ability: take no damage from that source.",
    ),
    ultimate(
        "meteor",
        "Meteor",
        7,
        &[E::Damage {
            amount: 10,
            aim: Any,
        }],
        "Deal 10 damage to any target (spend Spell Damage to add to it).",
    ),
];

/// The card with this id.
pub fn find(id: &str) -> Option<&'static Card> {
    CARDS.iter().find(|card| card.id == id)
}
