//! What a player does: edit the party's program (set, clear or move a rule), start the
//! fight, pause and resume it (PvE), and take an offered skill or skip. Each action is
//! checked whole before anything changes.

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};

use super::error::GambitError;
use super::options::Mode as GameMode;
use super::rules::{Condition, Rule, MAX_CONDITIONS, SLOTS};
use super::skills::Mode;
use super::state::{Gambit, Phase};
use crate::legal::{Legal, Open};
use crate::param::Param;
use crate::view::ViewValue;

/// Up or down in a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Towards slot 1 (higher priority).
    Up,
    /// Towards slot 3.
    Down,
}

/// One decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Put a rule in a slot of one of your characters (replacing what was there).
    SetRule {
        /// The character's id.
        unit: String,
        /// Slot 1 to 3 (1 is checked first).
        slot: usize,
        /// A skill the character knows.
        skill: String,
        /// Up to two conditions, all of which must hold.
        conditions: Vec<Condition>,
        /// A targeting override, or `null` for the skill's own.
        target: Option<Mode>,
    },
    /// Empty a slot.
    ClearRule {
        /// The character's id.
        unit: String,
        /// Slot 1 to 3.
        slot: usize,
    },
    /// Swap a rule with its neighbour above or below.
    MoveRule {
        /// The character's id.
        unit: String,
        /// Slot 1 to 3.
        slot: usize,
        /// Which way.
        direction: Direction,
    },
    /// Planning is done: start the fight (PvP: you are ready).
    Start {},
    /// Pause the running fight (PvE).
    Pause {},
    /// Resume the paused fight.
    Resume {},
    /// Take an offered skill for one of your characters.
    Take {
        /// The offered skill's id.
        skill: String,
        /// The character who learns it.
        unit: String,
    },
    /// Take none of the offered skills.
    Skip {},
}

impl Gambit {
    /// Whether `seat` may edit its program now.
    fn editing(&self, seat: Seat) -> bool {
        match self.phase {
            Phase::Planning => !self.ready.get(seat).copied().unwrap_or(true),
            Phase::Paused => seat == 0,
            _ => false,
        }
    }

    /// Everything `seat` may do now.
    pub fn legal_for(&self, seat: Seat) -> Vec<Legal<Action>> {
        let mut legal = Vec::new();
        if seat >= self.ready.len() {
            return legal;
        }
        match self.phase {
            Phase::Planning | Phase::Paused if self.editing(seat) => {
                self.edits(seat, &mut legal);
                legal.push(Legal::Act(if self.phase == Phase::Paused {
                    Action::Resume {}
                } else {
                    Action::Start {}
                }));
            }
            Phase::Fighting if self.mode == GameMode::Pve => {
                legal.push(Legal::Act(Action::Pause {}))
            }
            Phase::Reward => {
                for skill in &self.offering {
                    for i in self.team(seat) {
                        let unit = &self.fight.units[i];
                        if !unit.knows(skill.id) {
                            legal.push(Legal::Act(Action::Take {
                                skill: skill.id.to_owned(),
                                unit: unit.id.to_owned(),
                            }));
                        }
                    }
                }
                legal.push(Legal::Act(Action::Skip {}));
            }
            _ => {}
        }
        legal
    }

    /// The edits of `seat`'s program: one open `set_rule` per character, and every clear and
    /// move there is.
    fn edits(&self, seat: Seat, legal: &mut Vec<Legal<Action>>) {
        let conditions: Vec<ViewValue> = Condition::ALL.iter().map(|c| c.as_str().into()).collect();
        let modes: Vec<ViewValue> = Mode::ALL.iter().map(|m| m.as_str().into()).collect();
        for i in self.team(seat) {
            let unit = &self.fight.units[i];
            let skills: Vec<ViewValue> = unit.skills.iter().map(|s| s.id.into()).collect();
            legal.push(Legal::Open(
                Open::new("set_rule")
                    .fixed("unit", unit.id)
                    .choose(
                        "slot",
                        Param::Int {
                            min: 1,
                            max: SLOTS as i64,
                        },
                    )
                    .choose("skill", Param::OneOf(skills))
                    .choose(
                        "conditions",
                        Param::Subset {
                            of: conditions.clone(),
                            min: 0,
                            max: MAX_CONDITIONS,
                        },
                    )
                    .choose(
                        "target",
                        Param::Maybe(Box::new(Param::OneOf(modes.clone()))),
                    ),
            ));
        }
        for i in self.team(seat) {
            let unit = &self.fight.units[i];
            for slot in 0..SLOTS {
                if unit.rules[slot].is_none() {
                    continue;
                }
                let id = unit.id.to_owned();
                legal.push(Legal::Act(Action::ClearRule {
                    unit: id.clone(),
                    slot: slot + 1,
                }));
                if slot > 0 {
                    legal.push(Legal::Act(Action::MoveRule {
                        unit: id.clone(),
                        slot: slot + 1,
                        direction: Direction::Up,
                    }));
                }
                if slot + 1 < SLOTS {
                    legal.push(Legal::Act(Action::MoveRule {
                        unit: id,
                        slot: slot + 1,
                        direction: Direction::Down,
                    }));
                }
            }
        }
    }

    /// Apply `action` by `seat`.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), GambitError> {
        if self.phase == Phase::Over {
            return Err(GambitError::GameOver);
        }
        if seat >= self.ready.len() {
            return Err(GambitError::NotYourTurn(seat));
        }
        match action {
            Action::SetRule {
                unit,
                slot,
                skill,
                conditions,
                target,
            } => {
                let (i, slot) = self.slot_of(seat, &unit, slot)?;
                let known = self.fight.units[i].skills.iter().find(|s| s.id == skill);
                let Some(&known) = known else {
                    let unit = &self.fight.units[i];
                    let names: Vec<&str> = unit.skills.iter().map(|s| s.id).collect();
                    return Err(GambitError::Invalid(format!(
                        "{} does not know \"{skill}\"; it knows {}",
                        unit.name,
                        names.join(", ")
                    )));
                };
                if conditions.len() > MAX_CONDITIONS {
                    return Err(GambitError::Invalid(format!(
                        "{} conditions; a rule has at most {MAX_CONDITIONS}",
                        conditions.len()
                    )));
                }
                if conditions.len() == 2 && conditions[0] == conditions[1] {
                    return Err(GambitError::Invalid("a condition is given twice".into()));
                }
                let line = format!(
                    "{} sets the {}'s rule {}: {}{}.",
                    self.names.of(seat),
                    self.fight.units[i].name,
                    slot + 1,
                    known.name,
                    describe(&conditions, target)
                );
                self.fight.units[i].rules[slot] = Some(Rule {
                    skill: known,
                    conditions,
                    target,
                });
                self.note_edit(line);
            }
            Action::ClearRule { unit, slot } => {
                let (i, slot) = self.slot_of(seat, &unit, slot)?;
                if self.fight.units[i].rules[slot].take().is_none() {
                    return Err(GambitError::Invalid(format!(
                        "{unit}'s slot {} is already empty",
                        slot + 1
                    )));
                }
                let line = format!(
                    "{} clears the {}'s rule {}.",
                    self.names.of(seat),
                    self.fight.units[i].name,
                    slot + 1
                );
                self.note_edit(line);
            }
            Action::MoveRule {
                unit,
                slot,
                direction,
            } => {
                let (i, from) = self.slot_of(seat, &unit, slot)?;
                let to = match direction {
                    Direction::Up if from > 0 => from - 1,
                    Direction::Down if from + 1 < SLOTS => from + 1,
                    _ => {
                        return Err(GambitError::Invalid(format!(
                            "slot {slot} cannot move {}",
                            if direction == Direction::Up {
                                "up"
                            } else {
                                "down"
                            }
                        )))
                    }
                };
                if self.fight.units[i].rules[from].is_none() {
                    return Err(GambitError::Invalid(format!(
                        "{unit}'s slot {slot} is empty"
                    )));
                }
                self.fight.units[i].rules.swap(from, to);
                let line = format!(
                    "{} moves the {}'s rule {} to slot {}.",
                    self.names.of(seat),
                    self.fight.units[i].name,
                    from + 1,
                    to + 1
                );
                self.note_edit(line);
            }
            Action::Start {} => {
                if self.phase != Phase::Planning || self.ready[seat] {
                    return Err(self.wrong("start", "in planning"));
                }
                self.ready[seat] = true;
                if self.ready.iter().all(|&r| r) {
                    self.begin_fight();
                } else {
                    self.log.push(format!("{} is ready.", self.names.of(seat)));
                }
            }
            Action::Pause {} => {
                if self.phase != Phase::Fighting || self.mode != GameMode::Pve {
                    return Err(self.wrong("pause", "while a PvE fight runs"));
                }
                self.phase = Phase::Paused;
                self.log.push(format!(
                    "{} pauses the fight at tick {}.",
                    self.names.of(seat),
                    self.fight.tick
                ));
            }
            Action::Resume {} => {
                if self.phase != Phase::Paused {
                    return Err(self.wrong("resume", "while the fight is paused"));
                }
                self.phase = Phase::Fighting;
                self.log.push(format!(
                    "{} resumes the fight at tick {}.",
                    self.names.of(seat),
                    self.fight.tick
                ));
            }
            Action::Take { skill, unit } => {
                if self.phase != Phase::Reward {
                    return Err(self.wrong("take a skill", "after a won encounter"));
                }
                let Some(&offered) = self.offering.iter().find(|s| s.id == skill) else {
                    let ids: Vec<&str> = self.offering.iter().map(|s| s.id).collect();
                    return Err(GambitError::Invalid(format!(
                        "\"{skill}\" is not offered; the offer is {}",
                        ids.join(", ")
                    )));
                };
                let Some(i) = self.own_unit(seat, &unit) else {
                    return Err(self.no_unit(seat, &unit));
                };
                if self.fight.units[i].knows(offered.id) {
                    return Err(GambitError::Invalid(format!(
                        "{} already knows {}",
                        self.fight.units[i].name, offered.name
                    )));
                }
                self.fight.units[i].skills.push(offered);
                self.taken.push(offered.id);
                self.log.push(format!(
                    "{} learns {}.",
                    self.fight.units[i].label, offered.name
                ));
                self.next_encounter();
            }
            Action::Skip {} => {
                if self.phase != Phase::Reward {
                    return Err(self.wrong("skip", "after a won encounter"));
                }
                self.log
                    .push(format!("{} takes no skill.", self.names.of(seat)));
                self.next_encounter();
            }
        }
        Ok(())
    }

    /// The unit and 0-based slot an edit names, if `seat` may edit now.
    fn slot_of(&self, seat: Seat, unit: &str, slot: usize) -> Result<(usize, usize), GambitError> {
        if !self.editing(seat) {
            return Err(self.wrong("edit rules", "in planning or while paused"));
        }
        let Some(i) = self.own_unit(seat, unit) else {
            return Err(self.no_unit(seat, unit));
        };
        if !(1..=SLOTS).contains(&slot) {
            return Err(GambitError::Invalid(format!(
                "slot {slot} does not exist; the slots are 1 to {SLOTS}"
            )));
        }
        Ok((i, slot - 1))
    }

    fn no_unit(&self, seat: Seat, unit: &str) -> GambitError {
        let ids: Vec<&str> = self.team(seat).map(|i| self.fight.units[i].id).collect();
        GambitError::Invalid(format!(
            "\"{unit}\" is not one of your characters ({})",
            ids.join(", ")
        ))
    }

    fn wrong(&self, what: &str, when: &str) -> GambitError {
        GambitError::WrongPhase(format!("you can {what} only {when}"))
    }

    /// Edits are logged for everyone in PvE; in PvP planning they stay private (the
    /// programs are hidden until the fight starts), so they are not logged.
    fn note_edit(&mut self, line: String) {
        if self.mode == GameMode::Pve {
            self.log.push(line);
        }
    }
}

/// " if an enemy is acting and its HP is below 50%, targeting the lowest HP" for a log line.
pub fn describe(conditions: &[Condition], target: Option<Mode>) -> String {
    let mut out = String::new();
    let shown: Vec<&str> = conditions
        .iter()
        .filter(|&&c| c != Condition::Always)
        .map(|c| c.text())
        .collect();
    if shown.is_empty() {
        out.push_str(" always");
    } else {
        out.push_str(&format!(" if {}", crate::words::and_list(&shown)));
    }
    if let Some(mode) = target {
        out.push_str(&format!(", targeting {}", mode.text()));
    }
    out
}
