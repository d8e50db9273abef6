//! One fighter: its HP, shield, statuses, the action it has in progress with its locked
//! targets, its skills and its program, and why it chose what it chose at its last
//! evaluation (the debug inspector).

use super::roster::Kind;
use super::rules::{Rule, SLOTS};
use super::skills::{find, Skill, Status};

/// A status on a unit with the ticks it has left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lasting {
    /// Which status.
    pub status: Status,
    /// Status phases it still lasts (Enraged: until used, `0`).
    pub ticks: u32,
    /// Landed in this tick's substep 5: this tick's status phase leaves it alone.
    pub fresh: bool,
}

/// An action queued or in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doing {
    /// The skill.
    pub skill: &'static Skill,
    /// The targets, locked when it was queued (unit indices).
    pub targets: Vec<usize>,
    /// Ticks until it resolves.
    pub ticks_left: u32,
    /// The tick it was queued in.
    pub queued_at: u32,
}

/// One unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Its id: A, B, C (D, E, F for the second party in PvP), or an enemy's id.
    pub id: &'static str,
    /// Its name, unique in its team ("Vanguard", "Grunt 2").
    pub name: &'static str,
    /// What the log calls it: its name, after its owner's for a party's character
    /// ("Ana's Vanguard").
    pub label: String,
    /// 0: the (first) party; 1: the enemies or the second party.
    pub team: usize,
    /// Max HP.
    pub max_hp: u32,
    /// Current HP.
    pub hp: u32,
    /// Shield pool left.
    pub shield: u32,
    /// Knocked out (HP 0 at a cleanup); only Revive brings it back.
    pub down: bool,
    /// Statuses in the order they landed.
    pub statuses: Vec<Lasting>,
    /// What it is doing.
    pub doing: Option<Doing>,
    /// Skills it knows.
    pub skills: Vec<&'static Skill>,
    /// Its program.
    pub rules: [Option<Rule>; SLOTS],
    /// Why it chose what it chose at its last evaluation, one line per slot (or one line
    /// saying why it did not evaluate).
    pub why: Vec<String>,
}

impl Unit {
    /// A fresh unit of `kind` with id `id` on `team`, with the kind's program.
    pub fn new(kind: &Kind, id: &'static str, team: usize) -> Unit {
        let mut rules: [Option<Rule>; SLOTS] = Default::default();
        for (slot, def) in kind.rules.iter().enumerate().take(SLOTS) {
            rules[slot] = Some(def.to_rule());
        }
        Unit {
            id,
            name: kind.name,
            label: kind.name.to_owned(),
            team,
            max_hp: kind.max_hp,
            hp: kind.max_hp,
            shield: 0,
            down: false,
            statuses: Vec::new(),
            doing: None,
            skills: kind
                .skills
                .iter()
                .map(|id| find(id).expect("content names real skills"))
                .collect(),
            rules,
            why: Vec::new(),
        }
    }

    /// This unit named `name` in its team, and `label` in the log.
    pub fn called(mut self, name: &'static str, label: String) -> Unit {
        self.name = name;
        self.label = label;
        self
    }

    /// Standing: not knocked out.
    pub fn up(&self) -> bool {
        !self.down
    }

    /// Whether it has `status` now.
    pub fn has(&self, status: Status) -> bool {
        self.statuses.iter().any(|s| s.status == status)
    }

    /// Put `status` on it for `ticks` (again: the duration starts over, no stacking).
    pub fn apply(&mut self, status: Status, ticks: u32) {
        self.statuses.retain(|s| s.status != status);
        self.statuses.push(Lasting {
            status,
            ticks,
            fresh: true,
        });
    }

    /// Remove `status`.
    pub fn remove(&mut self, status: Status) {
        self.statuses.retain(|s| s.status != status);
    }

    /// HP strictly below `pct` percent of max.
    pub fn below(&self, pct: u32) -> bool {
        u64::from(self.hp) * 100 < u64::from(self.max_hp) * u64::from(pct)
    }

    /// Full heal, no shield, statuses and action cleared: between encounters.
    pub fn refresh(&mut self) {
        self.hp = self.max_hp;
        self.shield = 0;
        self.down = false;
        self.statuses.clear();
        self.doing = None;
        self.why.clear();
    }

    /// Knocked out: HP 0, and its action, statuses and shield are gone.
    pub fn knock_out(&mut self) {
        self.hp = 0;
        self.down = true;
        self.shield = 0;
        self.statuses.clear();
        self.doing = None;
    }

    /// Whether it knows the skill `id`.
    pub fn knows(&self, id: &str) -> bool {
        self.skills.iter().any(|s| s.id == id)
    }
}
