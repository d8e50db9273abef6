//! A unit's program: up to three rules, each a skill, up to two conditions that must all
//! hold, and an optional targeting override. Evaluated top to bottom; the first rule whose
//! conditions hold and whose skill finds a valid target fires.

use serde::{Deserialize, Serialize};

use super::skills::{Mode, Skill};

/// Rule slots per unit (spec: a hard constraint).
pub const SLOTS: usize = 3;
/// Most conditions on one rule.
pub const MAX_CONDITIONS: usize = 2;

/// One condition of a rule. "Ally" means a standing teammate other than the unit itself
/// while it has one (the unit itself when it stands alone), as in targeting; "below N" is
/// strictly below N% of max HP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Always holds.
    Always,
    /// The unit's own HP is below 25% of its max.
    #[serde(rename = "self_hp_below_25")]
    SelfHpBelow25,
    /// The unit's own HP is below 50% of its max.
    #[serde(rename = "self_hp_below_50")]
    SelfHpBelow50,
    /// The unit's own HP is below 75% of its max.
    #[serde(rename = "self_hp_below_75")]
    SelfHpBelow75,
    /// Some ally's HP is below 25% of its max.
    #[serde(rename = "ally_hp_below_25")]
    AllyHpBelow25,
    /// Some ally's HP is below 50% of its max.
    #[serde(rename = "ally_hp_below_50")]
    AllyHpBelow50,
    /// Some ally's HP is below 75% of its max.
    #[serde(rename = "ally_hp_below_75")]
    AllyHpBelow75,
    /// Some standing enemy's HP is below 25% of its max.
    #[serde(rename = "enemy_hp_below_25")]
    EnemyHpBelow25,
    /// Some standing enemy's HP is below 50% of its max.
    #[serde(rename = "enemy_hp_below_50")]
    EnemyHpBelow50,
    /// Some teammate is knocked out.
    AllyKnockedOut,
    /// Some ally is poisoned.
    AllyPoisoned,
    /// Some standing enemy is taunting.
    EnemyTaunting,
    /// Some standing enemy has an action queued or in progress.
    EnemyActing,
    /// The unit has no shield left.
    SelfUnshielded,
    /// More than two enemies are standing.
    #[serde(rename = "more_than_2_enemies")]
    MoreThan2Enemies,
}

impl Condition {
    /// Every condition, in the order editors list them.
    pub const ALL: [Condition; 15] = [
        Condition::Always,
        Condition::SelfHpBelow25,
        Condition::SelfHpBelow50,
        Condition::SelfHpBelow75,
        Condition::AllyHpBelow25,
        Condition::AllyHpBelow50,
        Condition::AllyHpBelow75,
        Condition::EnemyHpBelow25,
        Condition::EnemyHpBelow50,
        Condition::AllyKnockedOut,
        Condition::AllyPoisoned,
        Condition::EnemyTaunting,
        Condition::EnemyActing,
        Condition::SelfUnshielded,
        Condition::MoreThan2Enemies,
    ];

    /// What it says, in words: "an enemy is acting".
    pub fn text(self) -> &'static str {
        match self {
            Condition::Always => "always",
            Condition::SelfHpBelow25 => "its HP is below 25%",
            Condition::SelfHpBelow50 => "its HP is below 50%",
            Condition::SelfHpBelow75 => "its HP is below 75%",
            Condition::AllyHpBelow25 => "an ally's HP is below 25%",
            Condition::AllyHpBelow50 => "an ally's HP is below 50%",
            Condition::AllyHpBelow75 => "an ally's HP is below 75%",
            Condition::EnemyHpBelow25 => "an enemy's HP is below 25%",
            Condition::EnemyHpBelow50 => "an enemy's HP is below 50%",
            Condition::AllyKnockedOut => "an ally is knocked out",
            Condition::AllyPoisoned => "an ally is poisoned",
            Condition::EnemyTaunting => "an enemy is taunting",
            Condition::EnemyActing => "an enemy is acting",
            Condition::SelfUnshielded => "it has no shield",
            Condition::MoreThan2Enemies => "more than 2 enemies stand",
        }
    }

    /// Why it does not hold, in words: "no enemy is acting".
    pub fn unmet(self) -> &'static str {
        match self {
            Condition::Always => "never",
            Condition::SelfHpBelow25 => "its HP is 25% or more",
            Condition::SelfHpBelow50 => "its HP is 50% or more",
            Condition::SelfHpBelow75 => "its HP is 75% or more",
            Condition::AllyHpBelow25 => "no ally's HP is below 25%",
            Condition::AllyHpBelow50 => "no ally's HP is below 50%",
            Condition::AllyHpBelow75 => "no ally's HP is below 75%",
            Condition::EnemyHpBelow25 => "no enemy's HP is below 25%",
            Condition::EnemyHpBelow50 => "no enemy's HP is below 50%",
            Condition::AllyKnockedOut => "no ally is knocked out",
            Condition::AllyPoisoned => "no ally is poisoned",
            Condition::EnemyTaunting => "no enemy is taunting",
            Condition::EnemyActing => "no enemy is acting",
            Condition::SelfUnshielded => "it has a shield",
            Condition::MoreThan2Enemies => "2 enemies or fewer stand",
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Condition::Always => "always",
            Condition::SelfHpBelow25 => "self_hp_below_25",
            Condition::SelfHpBelow50 => "self_hp_below_50",
            Condition::SelfHpBelow75 => "self_hp_below_75",
            Condition::AllyHpBelow25 => "ally_hp_below_25",
            Condition::AllyHpBelow50 => "ally_hp_below_50",
            Condition::AllyHpBelow75 => "ally_hp_below_75",
            Condition::EnemyHpBelow25 => "enemy_hp_below_25",
            Condition::EnemyHpBelow50 => "enemy_hp_below_50",
            Condition::AllyKnockedOut => "ally_knocked_out",
            Condition::AllyPoisoned => "ally_poisoned",
            Condition::EnemyTaunting => "enemy_taunting",
            Condition::EnemyActing => "enemy_acting",
            Condition::SelfUnshielded => "self_unshielded",
            Condition::MoreThan2Enemies => "more_than_2_enemies",
        }
    }
}

/// One rule of a unit's program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The skill it uses.
    pub skill: &'static Skill,
    /// Conditions that must all hold (none: like `always`).
    pub conditions: Vec<Condition>,
    /// How it picks its target instead of the skill's own way.
    pub target: Option<Mode>,
}

/// A rule as content data (the starting programs).
#[derive(Debug, Clone, Copy)]
pub struct RuleDef {
    /// The skill's id.
    pub skill: &'static str,
    /// Its conditions.
    pub conditions: &'static [Condition],
    /// Its targeting override.
    pub target: Option<Mode>,
}

/// A rule as it travels in setups (`join`) and views.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// The skill's id.
    pub skill: String,
    /// Up to two conditions.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// A targeting override.
    #[serde(default)]
    pub target: Option<Mode>,
}

impl RuleDef {
    /// The runtime rule (content data names real skills: checked by a test).
    pub fn to_rule(&self) -> Rule {
        Rule {
            skill: super::skills::find(self.skill).expect("content rules name real skills"),
            conditions: self.conditions.to_vec(),
            target: self.target,
        }
    }
}
