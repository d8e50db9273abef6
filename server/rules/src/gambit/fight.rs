//! One fight, tick by tick, in the spec's order: (1) idle units run their programs and lock
//! their targets; (2) every action in progress counts down; (3) actions reaching 0 resolve
//! together in six substeps (damage, healing, shield absorption, health, statuses,
//! cancellation); (4) statuses act and count down; (5) knockouts, then victory or defeat.
//! Nothing here is random.

use super::choose::evaluate;
use super::skills::{Status, Target, ENRAGED_BONUS, POISON_DAMAGE, SHIELD_POOL};
use super::unit::{Doing, Unit};

/// Ticks a fight may last before it is called (PvE: the party loses; PvP: a draw).
pub const MAX_TICKS: u32 = 600;

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// This team won: every unit of the other team is down.
    Won(usize),
    /// Both teams went down in the same tick.
    BothDown,
    /// [`MAX_TICKS`] passed.
    TimeUp,
}

/// A fight between team 0 and team 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fight {
    /// Every unit: team 0 first (A, B, C), then team 1 (in id order): the tie-break order.
    pub units: Vec<Unit>,
    /// Ticks played.
    pub tick: u32,
    /// Set once the fight is over.
    pub ending: Option<Ending>,
}

/// What one resolving action does in substeps 1 to 4, per target.
#[derive(Debug, Clone, Copy, Default)]
struct Hit {
    damage: u32,
    heal: u32,
    revive: bool,
}

impl Fight {
    /// A fight between these units (team 0 first), before its first tick.
    pub fn new(units: Vec<Unit>) -> Fight {
        Fight {
            units,
            tick: 0,
            ending: None,
        }
    }

    fn name(&self, i: usize) -> String {
        let u = &self.units[i];
        format!("{} ({})", u.name, u.id)
    }

    /// Play one tick; every line it adds to `log`.
    pub fn tick(&mut self, log: &mut Vec<String>) {
        if self.ending.is_some() {
            return;
        }
        self.tick += 1;
        let tick = self.tick;
        self.evaluate(tick, log);
        // Phase 2: every action in progress counts down.
        for u in &mut self.units {
            if let Some(doing) = &mut u.doing {
                doing.ticks_left = doing.ticks_left.saturating_sub(1);
            }
        }
        let resolving: Vec<usize> = (0..self.units.len())
            .filter(|&i| {
                self.units[i]
                    .doing
                    .as_ref()
                    .is_some_and(|d| d.ticks_left == 0)
            })
            .collect();
        let actions: Vec<(usize, Doing)> = resolving
            .iter()
            .filter_map(|&i| self.units[i].doing.take().map(|d| (i, d)))
            .collect();
        self.resolve(&actions, tick, log);
        self.statuses(tick, log);
        self.cleanup(tick, log);
    }

    /// Phase 1: every idle, standing, unstunned unit runs its program on the state at the
    /// start of the tick.
    fn evaluate(&mut self, tick: u32, log: &mut Vec<String>) {
        let mut queued = Vec::new();
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if u.down {
                continue;
            }
            if let Some(doing) = &u.doing {
                // The ticks left are in the unit's `doing`: this line stays the same while
                // the action runs, so it costs no patch per tick.
                let line = format!("busy: {}", doing.skill.name);
                if self.units[i].why.len() != 1 || self.units[i].why[0] != line {
                    self.units[i].why = vec![line];
                }
                continue;
            }
            if u.has(Status::Stunned) {
                self.units[i].why = vec!["stunned: cannot choose".to_owned()];
                continue;
            }
            let (chosen, why) = evaluate(&self.units, i);
            queued.push((i, chosen, why));
        }
        for (i, chosen, why) in queued {
            self.units[i].why = why;
            if let Some((skill, targets)) = chosen {
                let names: Vec<String> = targets.iter().map(|&t| self.name(t)).collect();
                log.push(format!(
                    "Tick {tick}: {} begins {} on {} ({} tick{}).",
                    self.name(i),
                    skill.name,
                    names.join(", "),
                    skill.ticks,
                    if skill.ticks == 1 { "" } else { "s" }
                ));
                self.units[i].doing = Some(Doing {
                    skill,
                    targets,
                    ticks_left: skill.ticks,
                    queued_at: tick,
                });
            }
        }
    }

    /// Phase 3: the actions reaching 0, resolved together.
    fn resolve(&mut self, actions: &[(usize, Doing)], tick: u32, log: &mut Vec<String>) {
        let n = self.units.len();
        let mut hits = vec![Hit::default(); n];
        // Substep 1: damage (defending halves first, then an enraged attacker adds 15).
        let mut used_rage = Vec::new();
        for (actor, doing) in actions {
            let skill = doing.skill;
            if skill.damage == 0 {
                continue;
            }
            let enraged = self.units[*actor].has(Status::Enraged);
            let mut dealt = 0;
            for &t in &doing.targets {
                if self.units[t].down {
                    continue;
                }
                let mut amount = skill.damage;
                if self.units[t].has(Status::Defending) {
                    amount /= 2;
                }
                if enraged {
                    amount += ENRAGED_BONUS;
                }
                hits[t].damage += amount;
                dealt += amount;
            }
            if enraged {
                used_rage.push(*actor);
            }
            if skill.self_heal > 0 && dealt > 0 {
                hits[*actor].heal += skill.self_heal;
            }
        }
        // Substep 2: healing (and revival of knocked-out targets).
        for (_, doing) in actions {
            let skill = doing.skill;
            if skill.heal == 0 {
                continue;
            }
            for &t in &doing.targets {
                let target = &self.units[t];
                match (skill.target, target.down) {
                    (Target::KnockedOutAlly, true) => hits[t].revive = true,
                    (Target::KnockedOutAlly, false) | (_, true) => {}
                    _ => hits[t].heal += skill.heal,
                }
            }
        }
        // Substeps 3 and 4: shields absorb, then health changes, all at once.
        for (i, hit) in hits.iter().enumerate() {
            let u = &mut self.units[i];
            if hit.revive {
                u.down = false;
                u.hp = (u.max_hp * super::skills::REVIVE_PCT / 100).max(1);
                continue;
            }
            if u.down {
                continue;
            }
            let absorbed = hit.damage.min(u.shield);
            u.shield -= absorbed;
            let damage = hit.damage - absorbed;
            let hp = i64::from(u.hp) - i64::from(damage) + i64::from(hit.heal);
            u.hp = hp.clamp(0, i64::from(u.max_hp)) as u32;
        }
        for actor in used_rage {
            self.units[actor].remove(Status::Enraged);
        }
        for (actor, doing) in actions {
            let targets: Vec<String> = doing
                .targets
                .iter()
                .map(|&t| {
                    let u = &self.units[t];
                    let shown = if hits[t].revive {
                        format!("{} revived at {} HP", self.name(t), u.hp)
                    } else {
                        format!("{} {}/{} HP", self.name(t), u.hp, u.max_hp)
                    };
                    shown
                })
                .collect();
            log.push(format!(
                "Tick {tick}: {} resolves {}: {}.",
                self.name(*actor),
                doing.skill.name,
                targets.join(", ")
            ));
        }
        // Substep 5: statuses and shields land (on targets still standing).
        for (_, doing) in actions {
            let skill = doing.skill;
            for &t in &doing.targets {
                if self.units[t].down || self.units[t].hp == 0 {
                    continue;
                }
                if let Some((status, ticks)) = skill.status {
                    self.units[t].apply(status, ticks);
                    log.push(format!(
                        "Tick {tick}: {} is {}.",
                        self.name(t),
                        status.as_str()
                    ));
                }
                if skill.shields {
                    self.units[t].shield = SHIELD_POOL;
                    log.push(format!(
                        "Tick {tick}: {} has a {SHIELD_POOL}-point shield.",
                        self.name(t)
                    ));
                }
            }
        }
        // Substep 6: interrupts and stuns cancel actions still in progress (those that
        // resolved this tick are done and cannot be cancelled).
        for (_, doing) in actions {
            if !doing.skill.cancels {
                continue;
            }
            for &t in &doing.targets {
                if let Some(cancelled) = self.units[t].doing.take() {
                    log.push(format!(
                        "Tick {tick}: {}'s {} is cancelled.",
                        self.name(t),
                        cancelled.skill.name
                    ));
                }
            }
        }
    }

    /// Phase 4: poison acts, then every status counts down (a status that landed this tick
    /// waits for the next status phase).
    fn statuses(&mut self, tick: u32, log: &mut Vec<String>) {
        for i in 0..self.units.len() {
            if self.units[i].down {
                continue;
            }
            let mut poisoned = false;
            let u = &mut self.units[i];
            for lasting in &mut u.statuses {
                if lasting.fresh {
                    lasting.fresh = false;
                    continue;
                }
                if lasting.status == Status::Poisoned {
                    poisoned = true;
                }
                if lasting.status != Status::Enraged {
                    lasting.ticks = lasting.ticks.saturating_sub(1);
                }
            }
            u.statuses
                .retain(|s| s.status == Status::Enraged || s.ticks > 0 || s.fresh);
            if poisoned {
                u.hp = u.hp.saturating_sub(POISON_DAMAGE);
                let line = format!(
                    "Tick {tick}: {} takes {POISON_DAMAGE} poison damage, {}/{} HP.",
                    self.name(i),
                    self.units[i].hp,
                    self.units[i].max_hp
                );
                log.push(line);
            }
        }
    }

    /// Phase 5: units at 0 HP are knocked out; then the fight may be over.
    fn cleanup(&mut self, tick: u32, log: &mut Vec<String>) {
        for i in 0..self.units.len() {
            if !self.units[i].down && self.units[i].hp == 0 {
                self.units[i].knock_out();
                log.push(format!("Tick {tick}: {} is knocked out.", self.name(i)));
            }
        }
        let standing = |team: usize| self.units.iter().any(|u| u.team == team && u.up());
        self.ending = match (standing(0), standing(1)) {
            (true, true) if tick >= MAX_TICKS => Some(Ending::TimeUp),
            (true, true) => None,
            (false, false) => Some(Ending::BothDown),
            (true, false) => Some(Ending::Won(0)),
            (false, true) => Some(Ending::Won(1)),
        };
    }
}
