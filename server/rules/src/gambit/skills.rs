//! Every skill of the game as data: what it targets, how many ticks it takes, what it does at
//! resolution, and what a target must be for the skill to pick it. The spec gives Shield's 30,
//! Enraged's +15, Taunt's 4 ticks, Execute's 25% and attack durations of 2 to 4 ticks; every
//! other number is ours (`docs/rules/gambit.md`).

use serde::{Deserialize, Serialize};

/// A lasting effect on a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Loses [`POISON_DAMAGE`] HP at each status phase after the one it landed in.
    Poisoned,
    /// Cannot choose actions; landing cancels the unit's action in progress.
    Stunned,
    /// New single-target attacks of the other team must pick a taunting unit.
    Taunting,
    /// Damage taken is halved (before shields).
    Defending,
    /// The next attack deals [`ENRAGED_BONUS`] more to each target; used up by that attack.
    Enraged,
}

impl Status {
    /// The name shown to people.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Poisoned => "poisoned",
            Status::Stunned => "stunned",
            Status::Taunting => "taunting",
            Status::Defending => "defending",
            Status::Enraged => "enraged",
        }
    }
}

/// HP a poisoned unit loses per status phase.
pub const POISON_DAMAGE: u32 = 5;
/// Ticks a poison lasts.
pub const POISON_TICKS: u32 = 4;
/// Ticks a stun lasts.
pub const STUN_TICKS: u32 = 2;
/// Ticks a taunt lasts (spec: working notes).
pub const TAUNT_TICKS: u32 = 4;
/// Ticks Brace's defending lasts.
pub const DEFEND_TICKS: u32 = 3;
/// The shield pool Ward sets (spec: "resets pool to 30").
pub const SHIELD_POOL: u32 = 30;
/// Extra damage of an enraged unit's next attack (spec: "+15").
pub const ENRAGED_BONUS: u32 = 15;
/// Execute's threshold: a target at or below this percentage of its max HP (spec: 25%).
pub const EXECUTE_PCT: u32 = 25;
/// HP a revived unit comes back with, in percent of its max HP.
pub const REVIVE_PCT: u32 = 30;

/// Whom a skill acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// One unit of the other team.
    Enemy,
    /// Every standing unit of the other team (locked when the action is queued).
    AllEnemies,
    /// One standing teammate.
    Ally,
    /// One standing teammate below its max HP.
    DamagedAlly,
    /// Every standing teammate below its max HP, the user included.
    AllDamagedAllies,
    /// One knocked-out teammate.
    KnockedOutAlly,
    /// The user.
    Itself,
}

/// What a target must be, beyond its team and standing, for the skill to pick it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requires {
    /// Nothing more.
    Nothing,
    /// At or below [`EXECUTE_PCT`] of its max HP.
    QuarterHp,
    /// Not poisoned already.
    NotPoisoned,
    /// Has an action queued or in progress.
    Acting,
    /// Not enraged already.
    NotEnraged,
    /// Not taunting already.
    NotTaunting,
}

/// How a rule picks among the valid targets (a rule may override the skill's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Lowest current HP (absolute, not percentage); taunt applies.
    LowestHp,
    /// Highest current HP; taunt applies.
    HighestHp,
    /// The first in the fixed order (players A, B, C; enemies by id); a fixed pattern, which
    /// taunt does not sway.
    First,
    /// Lowest current HP, ignoring taunt.
    IgnoreTaunt,
    /// The user itself, for skills that may act on a teammate.
    Myself,
}

impl Mode {
    /// Every mode, in the order editors list them.
    pub const ALL: [Mode; 5] = [
        Mode::LowestHp,
        Mode::HighestHp,
        Mode::First,
        Mode::IgnoreTaunt,
        Mode::Myself,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::LowestHp => "lowest_hp",
            Mode::HighestHp => "highest_hp",
            Mode::First => "first",
            Mode::IgnoreTaunt => "ignore_taunt",
            Mode::Myself => "myself",
        }
    }

    /// How it picks, in words: "the lowest HP".
    pub fn text(self) -> &'static str {
        match self {
            Mode::LowestHp => "the lowest HP",
            Mode::HighestHp => "the highest HP",
            Mode::First => "the first in order",
            Mode::IgnoreTaunt => "the lowest HP, ignoring taunt",
            Mode::Myself => "itself",
        }
    }

    /// Whether a taunting enemy must be picked by this mode.
    pub fn obeys_taunt(self) -> bool {
        matches!(self, Mode::LowestHp | Mode::HighestHp)
    }
}

/// One skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skill {
    /// Stable id used in rules and actions.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Ticks from queueing to resolution (1 resolves in the tick it is queued).
    pub ticks: u32,
    /// Whom it acts on.
    pub target: Target,
    /// Damage to each target.
    pub damage: u32,
    /// Healing to each target (for revive: percent of max HP, see [`REVIVE_PCT`]).
    pub heal: u32,
    /// Healing to the user, from the damage dealt (Leech).
    pub self_heal: u32,
    /// A status put on each target (in substep 5), with its ticks.
    pub status: Option<(Status, u32)>,
    /// Whether it resets each target's shield pool to [`SHIELD_POOL`] (substep 5).
    pub shields: bool,
    /// Whether it cancels each target's action in progress (substep 6).
    pub cancels: bool,
    /// What a target must be.
    pub requires: Requires,
    /// How it picks a target when the rule does not say.
    pub mode: Mode,
    /// What it does, for people.
    pub text: &'static str,
}

const fn skill(id: &'static str, name: &'static str, ticks: u32, target: Target) -> Skill {
    Skill {
        id,
        name,
        ticks,
        target,
        damage: 0,
        heal: 0,
        self_heal: 0,
        status: None,
        shields: false,
        cancels: false,
        requires: Requires::Nothing,
        mode: Mode::LowestHp,
        text: "",
    }
}

/// Every skill, the starting ones first.
pub const SKILLS: [Skill; 17] = [
    Skill {
        damage: 12,
        text: "Deal 12 damage to one enemy.",
        ..skill("strike", "Strike", 2, Target::Enemy)
    },
    Skill {
        status: Some((Status::Taunting, TAUNT_TICKS)),
        requires: Requires::NotTaunting,
        mode: Mode::Myself,
        text: "Taunt for 4 ticks: enemies choosing a new single target by HP must pick you.",
        ..skill("taunt", "Taunt", 1, Target::Itself)
    },
    Skill {
        status: Some((Status::Defending, DEFEND_TICKS)),
        mode: Mode::Myself,
        text: "Defend for 3 ticks: damage you take is halved, before shields.",
        ..skill("brace", "Brace", 1, Target::Itself)
    },
    Skill {
        heal: 25,
        text: "Heal one damaged ally for 25.",
        ..skill("mend", "Mend", 2, Target::DamagedAlly)
    },
    Skill {
        shields: true,
        text: "Give one ally a 30-point shield (replacing any shield it had).",
        ..skill("ward", "Ward", 2, Target::Ally)
    },
    Skill {
        damage: 20,
        text: "Deal 20 damage to one enemy.",
        ..skill("arc_bolt", "Arc Bolt", 3, Target::Enemy)
    },
    Skill {
        status: Some((Status::Poisoned, POISON_TICKS)),
        requires: Requires::NotPoisoned,
        text: "Poison one enemy that is not poisoned: 5 damage per tick for 4 ticks, from the \
               tick after it lands.",
        ..skill("venom_dart", "Venom Dart", 2, Target::Enemy)
    },
    Skill {
        cancels: true,
        requires: Requires::Acting,
        text: "Cancel the action one acting enemy has in progress (not one resolving this tick).",
        ..skill("disrupt", "Disrupt", 1, Target::Enemy)
    },
    Skill {
        damage: 40,
        requires: Requires::QuarterHp,
        text: "Deal 40 damage to one enemy at or below 25% of its max HP.",
        ..skill("execute", "Execute", 3, Target::Enemy)
    },
    Skill {
        heal: REVIVE_PCT,
        text: "Bring one knocked-out ally back with 30% of its max HP.",
        ..skill("revive", "Revive", 4, Target::KnockedOutAlly)
    },
    Skill {
        damage: 8,
        status: Some((Status::Stunned, STUN_TICKS)),
        cancels: true,
        text: "Deal 8 damage to one enemy and stun it for 2 ticks, cancelling its action.",
        ..skill("concuss", "Concuss", 2, Target::Enemy)
    },
    Skill {
        status: Some((Status::Enraged, 0)),
        requires: Requires::NotEnraged,
        mode: Mode::Myself,
        text: "Become enraged: your next attack deals 15 more damage to each target.",
        ..skill("rage", "Rage", 1, Target::Itself)
    },
    Skill {
        damage: 10,
        text: "Deal 10 damage to every enemy.",
        ..skill("sweep", "Sweep", 3, Target::AllEnemies)
    },
    Skill {
        heal: 15,
        text: "Heal every damaged ally, yourself included, for 15.",
        ..skill("renewal", "Renewal", 3, Target::AllDamagedAllies)
    },
    Skill {
        damage: 10,
        self_heal: 10,
        text: "Deal 10 damage to one enemy and heal yourself for 10.",
        ..skill("leech", "Leech", 2, Target::Enemy)
    },
    Skill {
        damage: 25,
        text: "Deal 25 damage to one enemy.",
        ..skill("heavy_slash", "Heavy Slash", 3, Target::Enemy)
    },
    Skill {
        damage: 18,
        text: "Deal 18 damage to every enemy.",
        ..skill("ground_slam", "Ground Slam", 3, Target::AllEnemies)
    },
];

/// The skills offered after a won encounter: never a starting skill, never an enemy's
/// signature skill (Ground Slam).
pub const OFFERING_POOL: [&str; 9] = [
    "execute",
    "revive",
    "concuss",
    "rage",
    "sweep",
    "renewal",
    "leech",
    "heavy_slash",
    "smite",
];

/// The skill with this id.
pub fn find(id: &str) -> Option<&'static Skill> {
    SKILLS
        .iter()
        .chain(std::iter::once(&SMITE))
        .find(|s| s.id == id)
}

/// The enemy Healer's attack, also offered: it picks its target ignoring taunt.
pub const SMITE: Skill = Skill {
    damage: 10,
    mode: Mode::IgnoreTaunt,
    text: "Deal 10 damage to the enemy with the lowest HP, ignoring taunt.",
    ..skill("smite", "Smite", 2, Target::Enemy)
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_offerings_exist() {
        let mut ids: Vec<&str> = SKILLS.iter().map(|s| s.id).collect();
        ids.push(SMITE.id);
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count);
        for id in OFFERING_POOL {
            assert!(find(id).is_some(), "{id}");
        }
        for s in SKILLS.iter().chain([&SMITE]) {
            assert!((1..=4).contains(&s.ticks), "{}: 1 to 4 ticks", s.id);
            assert!(!s.text.is_empty(), "{} says what it does", s.id);
        }
    }
}
