//! One fight, tick by tick, in the spec's order: (1) idle units run their programs and lock
//! their targets; (2) every action in progress counts down; (3) actions reaching 0 resolve
//! together in six substeps (damage, healing, shield absorption, health, statuses,
//! cancellation); (4) statuses act and count down; (5) knockouts, then victory or defeat.
//! Nothing here is random.

use super::choose::evaluate;
use super::skills::{Skill, Status, Target, ENRAGED_BONUS, POISON_DAMAGE, SHIELD_POOL};
use super::unit::{Doing, Unit};
use crate::words;

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

/// What one resolving action does to one target in substeps 1 to 4.
#[derive(Debug, Clone, Copy)]
struct Part {
    /// The acting unit.
    actor: usize,
    /// The skill it resolves.
    skill: &'static Skill,
    /// Damage dealt (after defending and rage).
    damage: u32,
    /// Healing given.
    heal: u32,
    /// The damage was halved: the target was defending.
    halved: bool,
    /// The damage includes an enraged attacker's bonus.
    raged: bool,
}

/// What the actions resolving in one tick do to one unit in substeps 1 to 4.
#[derive(Debug, Clone, Default)]
struct Hit {
    damage: u32,
    heal: u32,
    revive: bool,
    /// Who did what, in order.
    parts: Vec<Part>,
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

    /// What the log calls unit `i`.
    fn name(&self, i: usize) -> &str {
        &self.units[i].label
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
                let names: Vec<&str> = targets
                    .iter()
                    .map(|&t| if t == i { "itself" } else { self.name(t) })
                    .collect();
                log.push(format!(
                    "Tick {tick}: {} begins {} on {} ({}).",
                    self.name(i),
                    skill.name,
                    words::and_list(&names),
                    words::count(skill.ticks, "tick")
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

    /// Phase 3: the actions reaching 0, resolved together. The log says, for each unit
    /// they touch, who did what to it and by how much, its HP before and after; then the
    /// statuses and shields that landed, the actions cancelled, and any action that did
    /// nothing, with why.
    fn resolve(&mut self, actions: &[(usize, Doing)], tick: u32, log: &mut Vec<String>) {
        let n = self.units.len();
        let mut hits = vec![Hit::default(); n];
        // Whether each action did anything, for the line of one that did nothing.
        let mut did = vec![false; actions.len()];
        // Substep 1: damage (defending halves first, then an enraged attacker adds 15).
        let mut used_rage = Vec::new();
        for (a, (actor, doing)) in actions.iter().enumerate() {
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
                let halved = self.units[t].has(Status::Defending);
                if halved {
                    amount /= 2;
                }
                if enraged {
                    amount += ENRAGED_BONUS;
                }
                hits[t].damage += amount;
                hits[t].parts.push(Part {
                    actor: *actor,
                    skill,
                    damage: amount,
                    heal: 0,
                    halved,
                    raged: enraged,
                });
                dealt += amount;
                did[a] = true;
            }
            if enraged {
                used_rage.push(*actor);
            }
            if skill.self_heal > 0 && dealt > 0 {
                hits[*actor].heal += skill.self_heal;
                hits[*actor].parts.push(Part {
                    actor: *actor,
                    skill,
                    damage: 0,
                    heal: skill.self_heal,
                    halved: false,
                    raged: false,
                });
            }
        }
        // Substep 2: healing (and revival of knocked-out targets).
        for (a, (actor, doing)) in actions.iter().enumerate() {
            let skill = doing.skill;
            if skill.heal == 0 {
                continue;
            }
            for &t in &doing.targets {
                let target = &self.units[t];
                let heal = match (skill.target, target.down) {
                    (Target::KnockedOutAlly, true) => {
                        hits[t].revive = true;
                        0
                    }
                    (Target::KnockedOutAlly, false) | (_, true) => continue,
                    _ => {
                        hits[t].heal += skill.heal;
                        skill.heal
                    }
                };
                hits[t].parts.push(Part {
                    actor: *actor,
                    skill,
                    damage: 0,
                    heal,
                    halved: false,
                    raged: false,
                });
                did[a] = true;
            }
        }
        // Substeps 3 and 4: shields absorb, then health changes, all at once.
        let before: Vec<(u32, u32)> = self.units.iter().map(|u| (u.hp, u.shield)).collect();
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
        for (t, hit) in hits.iter().enumerate() {
            if !hit.parts.is_empty() {
                log.push(self.hit_line(tick, t, hit, before[t]));
            }
        }
        // Substep 5: statuses and shields land (on targets still standing).
        for (a, (actor, doing)) in actions.iter().enumerate() {
            let skill = doing.skill;
            for &t in &doing.targets {
                if self.units[t].down || self.units[t].hp == 0 {
                    continue;
                }
                if let Some((status, ticks)) = skill.status {
                    self.units[t].apply(status, ticks);
                    did[a] = true;
                    let lasting = match status {
                        Status::Enraged => {
                            format!("until its next attack (+{ENRAGED_BONUS} damage)")
                        }
                        Status::Poisoned => format!(
                            "for {} ({POISON_DAMAGE} damage a tick)",
                            words::count(ticks, "tick")
                        ),
                        _ => format!("for {}", words::count(ticks, "tick")),
                    };
                    log.push(if t == *actor {
                        format!(
                            "Tick {tick}: {} is {} {lasting} ({}).",
                            self.name(t),
                            status.as_str(),
                            skill.name
                        )
                    } else {
                        format!(
                            "Tick {tick}: {}'s {} leaves {} {} {lasting}.",
                            self.name(*actor),
                            skill.name,
                            self.name(t),
                            status.as_str()
                        )
                    });
                }
                if skill.shields {
                    let was = self.units[t].shield;
                    self.units[t].shield = SHIELD_POOL;
                    did[a] = true;
                    log.push(format!(
                        "Tick {tick}: {}'s {} shields {}: {}.",
                        self.name(*actor),
                        skill.name,
                        self.name(t),
                        words::gain(i64::from(was), i64::from(SHIELD_POOL), "shield")
                    ));
                }
            }
        }
        // Substep 6: interrupts and stuns cancel actions still in progress (those that
        // resolved this tick are done and cannot be cancelled).
        for (a, (actor, doing)) in actions.iter().enumerate() {
            if !doing.skill.cancels {
                continue;
            }
            for &t in &doing.targets {
                if let Some(cancelled) = self.units[t].doing.take() {
                    did[a] = true;
                    log.push(format!(
                        "Tick {tick}: {}'s {} cancels {}'s {}.",
                        self.name(*actor),
                        doing.skill.name,
                        self.name(t),
                        cancelled.skill.name
                    ));
                }
            }
        }
        for (a, (actor, doing)) in actions.iter().enumerate() {
            if did[a] {
                continue;
            }
            let names: Vec<&str> = doing.targets.iter().map(|&t| self.name(t)).collect();
            let on = words::and_list(&names);
            let why = if doing.targets.iter().all(|&t| self.units[t].down) {
                format!("{on} is knocked out")
            } else if doing.skill.cancels {
                format!("{on} has no action in progress to cancel")
            } else {
                format!("{on} is not affected")
            };
            log.push(format!(
                "Tick {tick}: {}'s {} has no effect: {why}.",
                self.name(*actor),
                doing.skill.name
            ));
        }
    }

    /// The line for what the actions resolving at `tick` did to unit `t` (`hit`), whose HP
    /// and shield were `before`: "Tick 5: Grunt 1's Strike on Ana's Vanguard: 12 damage
    /// (120 to 108)."; with several actions, each one's share: "Grunt 1's Strike (12
    /// damage) and Ana's Mender's Mend (heals 25) on Ana's Vanguard: 12 damage and heals 25
    /// (100 to 113)."
    fn hit_line(&self, tick: u32, t: usize, hit: &Hit, before: (u32, u32)) -> String {
        let u = &self.units[t];
        let by: Vec<String> = hit
            .parts
            .iter()
            .map(|p| {
                let who = format!("{}'s {}", self.name(p.actor), p.skill.name);
                match (hit.parts.len(), p.damage, p.heal) {
                    (1, _, _) | (_, 0, 0) => who,
                    (_, 0, heal) => format!("{who} (heals {heal})"),
                    (_, damage, _) => format!("{who} ({damage} damage)"),
                }
            })
            .collect();
        let by = words::and_list(&by);
        if hit.revive {
            return format!(
                "Tick {tick}: {by} on {}: back in the fight, {}.",
                u.label,
                words::heal(u.hp, 0, u.hp)
            );
        }
        let amounts = match (hit.damage, hit.heal) {
            (0, heal) => words::heal(heal, before.0, u.hp),
            (damage, 0) => words::damage(damage, before.0, u.hp),
            (damage, heal) => format!(
                "{damage} damage and heals {heal} ({} to {})",
                before.0, u.hp
            ),
        };
        let mut notes = Vec::new();
        if hit.parts.iter().any(|p| p.halved) {
            notes.push(format!("halved: {} is defending", u.label));
        }
        if hit.parts.iter().any(|p| p.raged) {
            notes.push(format!("+{ENRAGED_BONUS} from rage"));
        }
        let absorbed = before.1 - u.shield;
        if absorbed > 0 {
            notes.push(format!(
                "{absorbed} absorbed by its shield, {}",
                words::gain(i64::from(before.1), i64::from(u.shield), "shield")
            ));
        }
        let notes: String = notes.iter().map(|note| format!("; {note}")).collect();
        format!("Tick {tick}: {by} on {}: {amounts}{notes}.", u.label)
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
                let before = u.hp;
                u.hp = u.hp.saturating_sub(POISON_DAMAGE);
                let line = format!(
                    "Tick {tick}: {} takes poison damage: {}.",
                    self.name(i),
                    words::damage(POISON_DAMAGE, before, self.units[i].hp)
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
