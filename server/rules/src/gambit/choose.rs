//! Phase 1 of a tick: an idle unit runs its program. Conditions are read on the state at the
//! start of the tick; the first rule whose conditions hold and whose skill finds a valid
//! target fires, with its targets locked. Nothing falls back: an empty slot does nothing, a
//! rule without a valid target is skipped, and a unit whose rules all fail stands idle.

use super::rules::{Condition, Rule};
use super::skills::{Mode, Requires, Skill, Status, Target, EXECUTE_PCT};
use super::unit::Unit;

/// The standing teammates of `me` that "ally" means: the others while any stands, else `me`.
fn allies(units: &[Unit], me: usize) -> Vec<usize> {
    let team = units[me].team;
    let others: Vec<usize> = (0..units.len())
        .filter(|&i| i != me && units[i].team == team && units[i].up())
        .collect();
    if others.is_empty() {
        vec![me]
    } else {
        others
    }
}

/// The standing units of the other team, in tie-break order.
fn enemies(units: &[Unit], me: usize) -> impl Iterator<Item = usize> + '_ {
    let team = units[me].team;
    (0..units.len()).filter(move |&i| units[i].team != team && units[i].up())
}

/// Whether `condition` holds for `me`.
pub fn holds(units: &[Unit], me: usize, condition: Condition) -> bool {
    let u = &units[me];
    let any_ally = |f: &dyn Fn(&Unit) -> bool| allies(units, me).iter().any(|&i| f(&units[i]));
    let any_enemy = |f: &dyn Fn(&Unit) -> bool| enemies(units, me).any(|i| f(&units[i]));
    match condition {
        Condition::Always => true,
        Condition::SelfHpBelow25 => u.below(25),
        Condition::SelfHpBelow50 => u.below(50),
        Condition::SelfHpBelow75 => u.below(75),
        Condition::AllyHpBelow25 => any_ally(&|a| a.below(25)),
        Condition::AllyHpBelow50 => any_ally(&|a| a.below(50)),
        Condition::AllyHpBelow75 => any_ally(&|a| a.below(75)),
        Condition::EnemyHpBelow25 => any_enemy(&|e| e.below(25)),
        Condition::EnemyHpBelow50 => any_enemy(&|e| e.below(50)),
        Condition::AllyKnockedOut => units.iter().any(|a| a.team == u.team && a.down),
        Condition::AllyPoisoned => any_ally(&|a| a.has(Status::Poisoned)),
        Condition::EnemyTaunting => any_enemy(&|e| e.has(Status::Taunting)),
        Condition::EnemyActing => any_enemy(&|e| e.doing.is_some()),
        Condition::SelfUnshielded => u.shield == 0,
        Condition::MoreThan2Enemies => enemies(units, me).count() > 2,
    }
}

/// Whether `unit` meets what `skill` asks of a target.
fn meets(unit: &Unit, requires: Requires) -> bool {
    match requires {
        Requires::Nothing => true,
        Requires::QuarterHp => {
            u64::from(unit.hp) * 100 <= u64::from(unit.max_hp) * u64::from(EXECUTE_PCT)
        }
        Requires::NotPoisoned => !unit.has(Status::Poisoned),
        Requires::Acting => unit.doing.is_some(),
        Requires::NotEnraged => !unit.has(Status::Enraged),
        Requires::NotTaunting => !unit.has(Status::Taunting),
    }
}

/// The targets `me` locks for `skill` picked by `mode`, or `None` when there is no valid
/// target. Ties go to the earlier unit in the fixed order.
pub fn targets(units: &[Unit], me: usize, skill: &Skill, mode: Mode) -> Option<Vec<usize>> {
    let ok = |i: &usize| meets(&units[*i], skill.requires);
    let team = units[me].team;
    let mut candidates: Vec<usize> = match skill.target {
        Target::Itself => return ok(&me).then(|| vec![me]),
        Target::AllEnemies => {
            let all: Vec<usize> = enemies(units, me).filter(ok).collect();
            return (!all.is_empty()).then_some(all);
        }
        Target::AllDamagedAllies => {
            let all: Vec<usize> = (0..units.len())
                .filter(|&i| units[i].team == team && units[i].up())
                .filter(|&i| units[i].hp < units[i].max_hp)
                .filter(ok)
                .collect();
            return (!all.is_empty()).then_some(all);
        }
        Target::Enemy if mode == Mode::Myself => return None,
        Target::Enemy => enemies(units, me).filter(ok).collect(),
        Target::KnockedOutAlly => (0..units.len())
            .filter(|&i| units[i].team == team && units[i].down)
            .filter(ok)
            .collect(),
        Target::Ally | Target::DamagedAlly => {
            let pool = if mode == Mode::Myself {
                vec![me]
            } else {
                allies(units, me)
            };
            pool.into_iter()
                .filter(|&i| skill.target == Target::Ally || units[i].hp < units[i].max_hp)
                .filter(ok)
                .collect()
        }
    };
    if skill.target == Target::Enemy && mode.obeys_taunt() {
        let taunting: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| units[i].has(Status::Taunting))
            .collect();
        if !taunting.is_empty() {
            candidates = taunting;
        }
    }
    let pick = match mode {
        Mode::HighestHp => candidates
            .iter()
            .copied()
            .max_by_key(|&i| (units[i].hp, std::cmp::Reverse(i))),
        Mode::First => candidates.first().copied(),
        Mode::LowestHp | Mode::IgnoreTaunt | Mode::Myself => {
            candidates.iter().copied().min_by_key(|&i| (units[i].hp, i))
        }
    }?;
    Some(vec![pick])
}

/// What `me`'s program decides now: the firing rule's skill and targets, and one line per
/// slot saying why it fired or was skipped.
pub fn evaluate(units: &[Unit], me: usize) -> (Option<(&'static Skill, Vec<usize>)>, Vec<String>) {
    let mut why = Vec::new();
    let mut chosen = None;
    for (slot, rule) in units[me].rules.iter().enumerate() {
        let n = slot + 1;
        if chosen.is_some() {
            why.push(format!("{n}: not reached"));
            continue;
        }
        let Some(Rule {
            skill,
            conditions,
            target,
        }) = rule
        else {
            why.push(format!("{n}: empty"));
            continue;
        };
        let failed: Vec<&str> = conditions
            .iter()
            .filter(|&&c| !holds(units, me, c))
            .map(|c| c.unmet())
            .collect();
        if !failed.is_empty() {
            why.push(format!(
                "{n}: {} skipped: {}",
                skill.name,
                crate::words::and_list(&failed)
            ));
            continue;
        }
        let mode = target.unwrap_or(skill.mode);
        match targets(units, me, skill, mode) {
            None => why.push(format!("{n}: {} skipped: no valid target", skill.name)),
            Some(locked) => {
                let names: Vec<&str> = locked
                    .iter()
                    .map(|&i| {
                        if i == me {
                            "itself"
                        } else {
                            units[i].label.as_str()
                        }
                    })
                    .collect();
                let on = crate::words::and_list(&names);
                why.push(format!("{n}: {} fires on {on}", skill.name));
                chosen = Some((*skill, locked));
            }
        }
    }
    (chosen, why)
}
