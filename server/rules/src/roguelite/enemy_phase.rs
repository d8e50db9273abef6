//! The enemy's phase (spec 4.3), one engine step at a time: the phase start (Guard to 0,
//! durations, Regeneration and Shield, its energy: floor(actEnergy x addEnergy), spec 2.2),
//! one step per action (its cycle's next skill, or the fallback when the energy left cannot
//! pay it: a Basic Attack or Wait), and the phase end (Poison and Curse). Also its intent:
//! the actions it will take in its next phase, which the view reveals.

use super::enemies::{EnemyKind, Fallback, Skill, BASIC_ATTACK, WAIT};
use super::speed::Side;
use super::state::{effects_note, Roguelite, Stage};
use super::status::Kind;
use crate::words;

/// Spec 2.2: floor(actEnergy x addEnergy), addEnergy in percent.
pub fn enemy_energy(act_energy: u32, add_energy_pct: u32) -> u32 {
    act_energy * add_energy_pct / 100
}

/// The action of an enemy of type `kind` whose cycle is at `cycle` with `energy` left, and
/// whether it uses the cycle's skill (which moves the cycle on). Spec 4.3's fallback: a skill
/// that costs more than the energy left gives way to a Basic Attack (1), or to Wait (0) for
/// an enemy whose fallback is to wait.
pub fn next_action(kind: &EnemyKind, cycle: usize, energy: u32) -> (&'static Skill, bool) {
    let skill = &kind.cycle[cycle % kind.cycle.len()];
    if skill.cost <= energy {
        return (skill, true);
    }
    match kind.fallback {
        Fallback::BasicAttack if energy >= BASIC_ATTACK.cost => (&BASIC_ATTACK, false),
        _ => (&WAIT, false),
    }
}

/// The actions an enemy of type `kind` takes with `energy` from `cycle` on, in order.
pub fn plan(kind: &EnemyKind, mut cycle: usize, mut energy: u32) -> Vec<&'static Skill> {
    let mut actions = Vec::new();
    while energy > 0 {
        let (skill, from_cycle) = next_action(kind, cycle, energy);
        actions.push(skill);
        if skill.cost == 0 {
            break;
        }
        energy -= skill.cost;
        if from_cycle {
            cycle += 1;
        }
    }
    actions
}

impl Roguelite {
    /// The actions the enemy intends: the rest of its phase while it acts, else its whole
    /// next phase.
    pub fn intent(&self) -> Vec<&'static Skill> {
        match self.stage {
            Stage::EnemyAct => plan(self.foe, self.cycle, self.enemy_energy),
            Stage::PlayerPhase | Stage::EnemyStart => plan(
                self.foe,
                self.cycle,
                enemy_energy(self.foe.energy, self.add_energy),
            ),
            _ => Vec::new(),
        }
    }

    /// One engine step of the enemy's phase.
    pub fn enemy_step(&mut self) {
        match self.stage {
            Stage::EnemyStart => self.enemy_phase_start(),
            Stage::EnemyAct => self.enemy_act(),
            Stage::EnemyEnd => self.enemy_phase_end(),
            _ => {}
        }
    }

    /// Spec 4.3 step 1, and the phase's energy.
    fn enemy_phase_start(&mut self) {
        let guard = self.enemy.guard;
        let (ended, healed, shield) = self.enemy.phase_start();
        self.enemy_energy = enemy_energy(self.foe.energy, self.add_energy);
        self.add_energy = 100;
        self.log.push(format!(
            "{}'s phase begins with {} energy{}",
            self.foe.name,
            self.enemy_energy,
            effects_note(&self.enemy, guard, &ended, healed, shield)
        ));
        self.stage = if self.enemy_energy > 0 {
            Stage::EnemyAct
        } else {
            Stage::EnemyEnd
        };
    }

    /// Spec 4.3 steps 2 and 3: one action; Bleed after it (spec 7: each action taken; Wait
    /// is no action).
    fn enemy_act(&mut self) {
        let (skill, from_cycle) = next_action(self.foe, self.cycle, self.enemy_energy);
        if from_cycle {
            self.cycle = (self.cycle + 1) % self.foe.cycle.len();
        }
        if skill.cost == 0 {
            self.enemy_energy = 0;
            self.log.push(format!("{} waits.", self.foe.name));
            self.stage = Stage::EnemyEnd;
            return;
        }
        self.enemy_energy -= skill.cost;
        let what = self.resolve(Side::Enemy, skill.effects);
        let mut line = format!("{} uses {}", self.foe.name, skill.name);
        if !what.is_empty() {
            line.push_str(": ");
            line.push_str(&what);
        }
        if self.enemy.statuses.has(Kind::Bleed) && !self.enemy.down() {
            let before = self.enemy.hp;
            let lost = self.enemy.lose_hp(self.enemy.bleed_amount());
            line.push_str(&format!(
                "; {} bleeds: {}",
                self.foe.name,
                words::damage(lost, before, self.enemy.hp)
            ));
        }
        line.push('.');
        self.log.push(line);
        if self.settle() {
            return;
        }
        if self.enemy_energy == 0 {
            self.stage = Stage::EnemyEnd;
        }
    }

    /// The end of the enemy's phase: Poison and Curse (at the end of the owner's phase, as
    /// for the player), then the next phase.
    fn enemy_phase_end(&mut self) {
        let rot = self.enemy.rot_amount();
        if rot > 0 {
            let before = self.enemy.hp;
            let lost = self.enemy.lose_hp(rot);
            self.log.push(format!(
                "{}'s phase ends; Poison and Curse: {}.",
                self.foe.name,
                words::damage(lost, before, self.enemy.hp)
            ));
        } else {
            self.log.push(format!("{}'s phase ends.", self.foe.name));
        }
        if self.settle() {
            return;
        }
        self.next_phase();
    }
}
