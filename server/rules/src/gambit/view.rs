//! The view, built once for every viewer from plain structs: both teams with HP, shields,
//! statuses, each unit's action in progress with its locked targets and ticks left (the
//! intent lines: `queued` in the tick it was chosen, `executing` after), why each unit chose
//! what it chose (the debug inspector), the programs, and the offering. In PvP planning each
//! party's program is marked for its own seat alone: the opponent and spectators see it once
//! the fight starts.

use serde::Serialize;

use super::options::Mode as GameMode;
use super::rules::Condition;
use super::skills::{Mode, Skill, Status};
use super::state::{Gambit, Phase};
use super::unit::Unit;
use crate::view::{literal, Only, Viewers};

/// The whole battle.
#[derive(Serialize)]
pub struct GambitView<'a> {
    /// Encounter number, 1 to 6 (PvP: 1).
    encounter: usize,
    /// Encounters in a run (PvP: 1).
    encounters: usize,
    mode: GameMode,
    /// Skills offered now (phase `reward`).
    offering: Vec<SkillView>,
    phase: Phase,
    /// Which seats said they are ready (PvP planning).
    ready: &'a [bool],
    result: Option<ResultView<'a>>,
    /// Every skill a unit of this battle knows or is offered, for editors.
    skills: Vec<SkillView>,
    /// The two teams: the party (PvP: player 1's), then the enemies (player 2's party).
    teams: [TeamView<'a>; 2],
    /// Ticks played in the current fight.
    tick: u32,
    /// Milliseconds between ticks.
    tick_ms: u64,
}

/// The end.
#[derive(Serialize)]
struct ResultView<'a> {
    summary: &'a str,
    winners: &'a [usize],
}

/// A skill, for editors and the offering.
#[derive(Serialize)]
struct SkillView {
    #[serde(serialize_with = "literal")]
    id: &'static str,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    #[serde(serialize_with = "literal")]
    text: &'static str,
    ticks: u32,
}

fn skill_view(skill: &Skill) -> SkillView {
    SkillView {
        id: skill.id,
        name: skill.name,
        text: skill.text,
        ticks: skill.ticks,
    }
}

/// One team.
#[derive(Serialize)]
struct TeamView<'a> {
    /// "Party" and "Enemies" in a run; in a duel, each party's player's name.
    name: &'a str,
    units: Vec<UnitView<'a>>,
}

/// One unit.
#[derive(Serialize)]
struct UnitView<'a> {
    /// Its action in progress, or `null` when idle.
    doing: Option<DoingView>,
    /// Knocked out.
    down: bool,
    hp: u32,
    #[serde(serialize_with = "literal")]
    id: &'static str,
    max_hp: u32,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    /// The forecast (spec: working notes): what its program would choose now if its action
    /// in progress were done; `null` while idle, or when nothing would fire.
    next: Option<NextView>,
    /// Its program, slots 1 to 3 (`null`: empty); hidden from the opponent in PvP planning.
    rules: Only<Vec<Option<RuleView>>>,
    shield: u32,
    /// The ids of the skills it knows.
    skills: Vec<&'static str>,
    statuses: Vec<StatusView>,
    /// Why it chose what it chose at its last evaluation.
    why: &'a [String],
}

/// An action in progress: the intent line.
#[derive(Serialize)]
struct DoingView {
    #[serde(serialize_with = "literal")]
    skill: &'static str,
    /// `queued` in the tick it was chosen, `executing` after.
    #[serde(serialize_with = "literal")]
    state: &'static str,
    /// Locked target ids.
    targets: Vec<&'static str>,
    ticks: u32,
    ticks_left: u32,
}

/// A forecast choice: the skill and the targets it would lock.
#[derive(Serialize)]
struct NextView {
    #[serde(serialize_with = "literal")]
    skill: &'static str,
    targets: Vec<&'static str>,
}

/// A status with the status phases it still lasts (Enraged: until its next attack, 0).
#[derive(Serialize)]
struct StatusView {
    status: Status,
    ticks: u32,
}

/// One rule.
#[derive(Serialize)]
struct RuleView {
    conditions: Vec<Condition>,
    #[serde(serialize_with = "literal")]
    skill: &'static str,
    target: Option<Mode>,
}

impl Gambit {
    /// Every viewer's view (see [`Game::view`](crate::game::Game::view)).
    pub fn view_all(&self) -> GambitView<'_> {
        let units = &self.fight.units;
        let team = |t: usize| -> Vec<UnitView<'_>> {
            units
                .iter()
                .filter(|u| u.team == t)
                .map(|u| self.unit_view(u))
                .collect()
        };

        let names: [&str; 2] = match self.mode {
            GameMode::Pve => ["Party", "Enemies"],
            GameMode::Pvp => [&self.names.all()[0], &self.names.all()[1]],
        };
        let mut skills: Vec<&Skill> = Vec::new();
        for s in units
            .iter()
            .flat_map(|u| u.skills.iter().copied())
            .chain(self.offering.iter().copied())
        {
            if !skills.iter().any(|k| k.id == s.id) {
                skills.push(s);
            }
        }
        GambitView {
            encounter: self.encounter + 1,
            encounters: match self.mode {
                GameMode::Pve => super::roster::ENCOUNTERS.len(),
                GameMode::Pvp => 1,
            },
            mode: self.mode,
            offering: self.offering.iter().map(|s| skill_view(s)).collect(),
            phase: self.phase,
            ready: &self.ready,
            result: self.finish.as_ref().map(|f| ResultView {
                summary: &f.summary,
                winners: &f.winners,
            }),
            skills: skills.into_iter().map(skill_view).collect(),
            teams: [
                TeamView {
                    name: names[0],
                    units: team(0),
                },
                TeamView {
                    name: names[1],
                    units: team(1),
                },
            ],
            tick: self.fight.tick,
            tick_ms: self.tick_ms,
        }
    }

    /// What `u`'s program would choose if it were idle now (busy, standing units only).
    fn forecast(&self, u: &Unit) -> Option<NextView> {
        if u.doing.is_none() || u.down {
            return None;
        }
        let units = &self.fight.units;
        let me = units.iter().position(|x| std::ptr::eq(x, u))?;
        let (chosen, _) = super::choose::evaluate(units, me);
        chosen.map(|(skill, targets)| NextView {
            skill: skill.id,
            targets: targets.iter().map(|&t| units[t].id).collect(),
        })
    }

    /// One unit's view.
    fn unit_view<'a>(&'a self, u: &'a Unit) -> UnitView<'a> {
        let hidden = self.mode == GameMode::Pvp && self.phase == Phase::Planning;
        let units = &self.fight.units;
        let rules = u
            .rules
            .iter()
            .map(|r| {
                r.as_ref().map(|r| RuleView {
                    conditions: r.conditions.clone(),
                    skill: r.skill.id,
                    target: r.target,
                })
            })
            .collect();
        let viewers = if hidden {
            Viewers::seat(u.team)
        } else {
            Viewers::ALL
        };
        UnitView {
            doing: u.doing.as_ref().map(|d| DoingView {
                skill: d.skill.id,
                state: if d.queued_at == self.fight.tick {
                    "queued"
                } else {
                    "executing"
                },
                targets: d.targets.iter().map(|&t| units[t].id).collect(),
                ticks: d.skill.ticks,
                ticks_left: d.ticks_left,
            }),
            down: u.down,
            hp: u.hp,
            id: u.id,
            max_hp: u.max_hp,
            name: u.name,
            next: self.forecast(u),
            rules: Only::new(viewers, rules),
            shield: u.shield,
            skills: u.skills.iter().map(|s| s.id).collect(),
            statuses: u
                .statuses
                .iter()
                .map(|s| StatusView {
                    status: s.status,
                    ticks: s.ticks,
                })
                .collect(),
            why: &u.why,
        }
    }
}
