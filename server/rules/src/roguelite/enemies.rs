//! The enemies as data (spec section 8): each with hard-coded HP, AP, DEF%, ATK, speed,
//! action energy and a cycle of skills, never scaled by depth; the depths, each naming its
//! enemy pool; and the boss that ends the run.

use super::effect::{gain, hit, hits, inflict, Effect};
use super::status::Kind;

/// A skill an enemy uses. Attack powers are percentages of the enemy's ATK.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skill {
    /// Stable id.
    pub id: &'static str,
    /// Shown name.
    pub name: &'static str,
    /// Action energy it costs (spec 2.1: 1 energy = 1 action, more for heavy skills).
    pub cost: u32,
    /// What it does, in order.
    pub effects: &'static [Effect],
}

/// Spec 4.3: the fallback of an enemy that cannot pay its next skill.
pub static BASIC_ATTACK: Skill = Skill {
    id: "basic_attack",
    name: "Basic Attack",
    cost: 1,
    effects: &[hit(100)],
};

/// Spec 4.3: the 0-cost fallback; it ends the enemy's phase.
pub static WAIT: Skill = Skill {
    id: "wait",
    name: "Wait",
    cost: 0,
    effects: &[],
};

/// What an enemy does when it cannot pay its next skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// A Basic Attack (1 energy) while energy is left.
    BasicAttack,
    /// Wait (0 energy): the phase ends.
    Wait,
}

/// An enemy type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnemyKind {
    /// Stable id.
    pub id: &'static str,
    /// Shown name.
    pub name: &'static str,
    /// HP.
    pub hp: u32,
    /// AP (0: no armor).
    pub ap: u32,
    /// DEF%.
    pub def_pct: u32,
    /// ATK: the base of its attacks' power.
    pub atk: u32,
    /// Base speed.
    pub speed: u32,
    /// actEnergy: actions per phase before addEnergy.
    pub energy: u32,
    /// Its skills, used in this order, round and round.
    pub cycle: &'static [Skill],
    /// When the next skill costs more than the energy left.
    pub fallback: Fallback,
}

const fn skill(
    id: &'static str,
    name: &'static str,
    cost: u32,
    effects: &'static [Effect],
) -> Skill {
    Skill {
        id,
        name,
        cost,
        effects,
    }
}

const GNAW: Skill = skill("gnaw", "Gnaw", 1, &[hit(100), inflict(Kind::Bleed, 1, 2)]);
const SPORE_PUFF: Skill = skill(
    "spore_puff",
    "Spore Puff",
    1,
    &[inflict(Kind::Poison, 2, 3)],
);
const PLATE_UP: Skill = skill("plate_up", "Plate Up", 1, &[Effect::Guard(6)]);
const MUTTERED_HEX: Skill = skill(
    "muttered_hex",
    "Muttered Hex",
    1,
    &[inflict(Kind::Curse, 2, 3)],
);
const RAKE: Skill = skill("rake", "Rake", 1, &[hit(120)]);
const TWIN_SCYTHE: Skill = skill("twin_scythe", "Twin Scythe", 2, &[hits(70, 2)]);
const QUICKEN: Skill = skill("quicken", "Quicken", 1, &[gain(Kind::Haste, 1, 3)]);
const UNDERTOW: Skill = skill(
    "undertow",
    "Undertow",
    1,
    &[hit(80), inflict(Kind::Slow, 1, 3)],
);
const KINDLE: Skill = skill("kindle", "Kindle", 1, &[Effect::AddEnergy(150)]);
const SCORCH_BITE: Skill = skill(
    "scorch_bite",
    "Scorch Bite",
    1,
    &[hit(100), inflict(Kind::Bleed, 1, 3)],
);
const ASH_PRAYER: Skill = skill(
    "ash_prayer",
    "Ash Prayer",
    2,
    &[gain(Kind::Regeneration, 2, 2)],
);
const ENFEEBLE: Skill = skill("enfeeble", "Enfeeble", 1, &[inflict(Kind::Weak, 1, 3)]);
const CINDER_SMITE: Skill = skill("cinder_smite", "Cinder Smite", 2, &[hit(150)]);
const SPIKED_PLATING: Skill = skill(
    "spiked_plating",
    "Spiked Plating",
    1,
    &[gain(Kind::Thorns, 3, 3)],
);
const CRUSH: Skill = skill("crush", "Crush", 2, &[hit(160)]);
const ROYAL_DECREE: Skill = skill(
    "royal_decree",
    "Royal Decree",
    1,
    &[inflict(Kind::Stall, 1, 2)],
);
const HOLLOW_DRAIN: Skill = skill(
    "hollow_drain",
    "Hollow Drain",
    1,
    &[Effect::Attack {
        power: 100,
        hits: 1,
        crit: 0,
        lifesteal: 50,
    }],
);
const QUICKSILVER: Skill = skill("quicksilver", "Quicksilver", 1, &[gain(Kind::Haste, 1, 2)]);
const GRAND_SWEEP: Skill = skill("grand_sweep", "Grand Sweep", 2, &[hits(80, 2)]);
const COURT_FURY: Skill = skill("court_fury", "Court Fury", 1, &[Effect::AddEnergy(150)]);

/// Depth 1, the Mossy Cellars.
pub static DEPTH_1: &[EnemyKind] = &[
    EnemyKind {
        id: "cellar_rat",
        name: "Cellar Rat",
        hp: 24,
        ap: 0,
        def_pct: 0,
        atk: 5,
        speed: 58,
        energy: 1,
        cycle: &[GNAW, BASIC_ATTACK],
        fallback: Fallback::BasicAttack,
    },
    EnemyKind {
        id: "fungal_creeper",
        name: "Fungal Creeper",
        hp: 34,
        ap: 0,
        def_pct: 0,
        atk: 4,
        speed: 34,
        energy: 1,
        cycle: &[SPORE_PUFF, BASIC_ATTACK, BASIC_ATTACK],
        fallback: Fallback::BasicAttack,
    },
    EnemyKind {
        id: "rust_sentry",
        name: "Rust Sentry",
        hp: 26,
        ap: 10,
        def_pct: 10,
        atk: 5,
        speed: 45,
        energy: 2,
        cycle: &[PLATE_UP, BASIC_ATTACK, BASIC_ATTACK],
        fallback: Fallback::BasicAttack,
    },
];

/// Depth 2, the Drowned Halls.
pub static DEPTH_2: &[EnemyKind] = &[
    EnemyKind {
        id: "bog_wretch",
        name: "Bog Wretch",
        hp: 46,
        ap: 0,
        def_pct: 0,
        atk: 6,
        speed: 40,
        energy: 2,
        cycle: &[MUTTERED_HEX, RAKE, RAKE],
        fallback: Fallback::BasicAttack,
    },
    EnemyKind {
        id: "glass_mantis",
        name: "Glass Mantis",
        hp: 38,
        ap: 0,
        def_pct: 0,
        atk: 6,
        speed: 68,
        energy: 2,
        cycle: &[TWIN_SCYTHE, QUICKEN, BASIC_ATTACK],
        fallback: Fallback::BasicAttack,
    },
    EnemyKind {
        id: "tide_golem",
        name: "Tide Golem",
        hp: 64,
        ap: 20,
        def_pct: 20,
        atk: 9,
        speed: 30,
        energy: 1,
        cycle: &[UNDERTOW, BASIC_ATTACK, BASIC_ATTACK],
        fallback: Fallback::BasicAttack,
    },
];

/// Depth 3, the Ember Vault.
pub static DEPTH_3: &[EnemyKind] = &[
    EnemyKind {
        id: "cinder_hound",
        name: "Cinder Hound",
        hp: 50,
        ap: 0,
        def_pct: 0,
        atk: 7,
        speed: 62,
        energy: 2,
        cycle: &[KINDLE, SCORCH_BITE, BASIC_ATTACK, BASIC_ATTACK],
        fallback: Fallback::BasicAttack,
    },
    EnemyKind {
        id: "ash_priest",
        name: "Ash Priest",
        hp: 52,
        ap: 0,
        def_pct: 5,
        atk: 6,
        speed: 44,
        energy: 3,
        cycle: &[ASH_PRAYER, ENFEEBLE, CINDER_SMITE],
        fallback: Fallback::Wait,
    },
    EnemyKind {
        id: "brass_juggernaut",
        name: "Brass Juggernaut",
        hp: 72,
        ap: 24,
        def_pct: 20,
        atk: 11,
        speed: 24,
        energy: 2,
        cycle: &[SPIKED_PLATING, CRUSH, BASIC_ATTACK, BASIC_ATTACK],
        fallback: Fallback::BasicAttack,
    },
];

/// The boss, the last battle of the run.
pub static BOSS: EnemyKind = EnemyKind {
    id: "hollow_regent",
    name: "The Hollow Regent",
    hp: 90,
    ap: 15,
    def_pct: 10,
    atk: 5,
    speed: 48,
    energy: 3,
    cycle: &[
        ROYAL_DECREE,
        HOLLOW_DRAIN,
        GRAND_SWEEP,
        BASIC_ATTACK,
        QUICKSILVER,
        COURT_FURY,
        HOLLOW_DRAIN,
        BASIC_ATTACK,
    ],
    fallback: Fallback::BasicAttack,
};

/// One depth of the dungeon.
#[derive(Debug, Clone, Copy)]
pub struct Depth {
    /// Shown name.
    pub name: &'static str,
    /// The enemies that can appear there (spec 8: depth picks the pool).
    pub pool: &'static [EnemyKind],
    /// The last battle of the depth is against this enemy instead of one of the pool.
    pub boss: Option<&'static EnemyKind>,
}

/// The run's depths, in order.
pub static DEPTHS: &[Depth] = &[
    Depth {
        name: "the Mossy Cellars",
        pool: DEPTH_1,
        boss: None,
    },
    Depth {
        name: "the Drowned Halls",
        pool: DEPTH_2,
        boss: None,
    },
    Depth {
        name: "the Ember Vault",
        pool: DEPTH_3,
        boss: Some(&BOSS),
    },
];

/// Battles in each depth.
pub const BATTLES_PER_DEPTH: usize = 3;

/// The enemy type with this id (pool enemies and the boss).
pub fn find(id: &str) -> Option<&'static EnemyKind> {
    DEPTHS
        .iter()
        .flat_map(|d| d.pool.iter().chain(d.boss))
        .find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_depth_has_three_enemies_and_multi_action_ones_exist() {
        assert!(DEPTHS.len() >= 3);
        for depth in DEPTHS {
            assert!(depth.pool.len() >= BATTLES_PER_DEPTH, "{}", depth.name);
        }
        let all: Vec<&EnemyKind> = DEPTHS
            .iter()
            .flat_map(|d| d.pool.iter().chain(d.boss))
            .collect();
        assert!(all.iter().filter(|e| e.energy >= 2).count() >= 4);
        for (i, e) in all.iter().enumerate() {
            assert!(all[..i].iter().all(|o| o.id != e.id), "{}", e.id);
            assert_eq!(find(e.id).map(|f| f.id), Some(e.id));
            for s in e.cycle {
                assert!(s.cost >= 1, "{}: a cycle skill costs energy", e.id);
                assert!(
                    s.cost <= e.energy || e.fallback == Fallback::Wait || e.energy >= 2,
                    "{}: {} can be paid",
                    e.id,
                    s.id
                );
            }
        }
    }
}
