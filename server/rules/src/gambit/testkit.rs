//! Building fights for the scenario tests: units with chosen HP and programs, played tick by
//! tick.

use super::fight::Fight;
use super::roster::Kind;
use super::rules::{Condition, Rule};
use super::skills::{find, Mode, Status};
use super::unit::Unit;

const DUMMY: Kind = Kind {
    id: "dummy",
    name: "Dummy",
    max_hp: 100,
    skills: &[],
    rules: &[],
};

/// A unit with `max_hp` HP and no program, on `team`.
pub fn unit(id: &'static str, team: usize, max_hp: u32) -> Unit {
    let mut u = Unit::new(&DUMMY, id, team).called(id, id.to_owned());
    u.max_hp = max_hp;
    u.hp = max_hp;
    u
}

/// `u` with these rules (skill, conditions, targeting override), learning their skills.
pub fn program(mut u: Unit, rules: &[(&str, &[Condition], Option<Mode>)]) -> Unit {
    u.rules = Default::default();
    for (slot, (skill, conditions, target)) in rules.iter().enumerate() {
        let skill = find(skill).expect("tests name real skills");
        if !u.knows(skill.id) {
            u.skills.push(skill);
        }
        u.rules[slot] = Some(Rule {
            skill,
            conditions: conditions.to_vec(),
            target: *target,
        });
    }
    u
}

/// `u` doing `skill` always, on its default target.
pub fn always(u: Unit, skill: &str) -> Unit {
    program(u, &[(skill, &[Condition::Always], None)])
}

/// `u` with `hp` HP.
pub fn hp(mut u: Unit, hp: u32) -> Unit {
    u.hp = hp;
    u
}

/// `u` with `status` for `ticks` (already settled: not fresh).
pub fn with(mut u: Unit, status: Status, ticks: u32) -> Unit {
    u.apply(status, ticks);
    if let Some(last) = u.statuses.last_mut() {
        last.fresh = false;
    }
    u
}

/// A fight of these units (team 0 first, each team in tie-break order).
pub fn fight(units: Vec<Unit>) -> Fight {
    Fight::new(units)
}

/// Play `ticks` ticks; the log lines they wrote.
pub fn run(f: &mut Fight, ticks: u32) -> Vec<String> {
    let mut log = Vec::new();
    for _ in 0..ticks {
        f.tick(&mut log);
    }
    log
}

/// The unit with this id.
pub fn get<'a>(f: &'a Fight, id: &str) -> &'a Unit {
    f.units
        .iter()
        .find(|u| u.id == id)
        .expect("the test names a unit of its fight")
}
