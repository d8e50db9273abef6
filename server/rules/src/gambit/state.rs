//! The whole battle: a PvE run of six encounters (planning, the fight, the offering) or a PvP
//! duel of two programmed parties, with the log and the result. The fight itself is
//! [`Fight`]; programs are edited in `play.rs`.

use battle_protocol::Seat;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::fight::{Ending, Fight};
use super::options::{Mode, Options, Setup};
use super::roster::{ENCOUNTERS, PARTY, PARTY_2_IDS};
use super::rules::Rule;
use super::skills::{find, Skill, OFFERING_POOL};
use super::unit::Unit;
use crate::ruleset::{Outcome, OutcomeReason};
use crate::words::{self, Names};

/// Skills offered after a won encounter.
pub const OFFERED: usize = 3;

/// Where the battle is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before a fight: players read the enemies and edit their programs.
    Planning,
    /// The fight runs, one tick per engine step.
    Fighting,
    /// The fight is paused by its player, who may edit programs.
    Paused,
    /// After a won encounter: pick one of the offered skills or skip.
    Reward,
    /// The run or the duel is over.
    Over,
}

/// A gambit battle.
#[derive(Debug, Clone)]
pub struct Gambit {
    pub(super) mode: Mode,
    pub(super) tick_ms: u64,
    pub(super) phase: Phase,
    /// The encounter being planned, fought or rewarded (0-based; PvP: 0).
    pub(super) encounter: usize,
    /// The units of the coming or current fight; the parties' programs and skills live in
    /// their units and carry over from one encounter to the next.
    pub(super) fight: Fight,
    /// PvP planning: which seats have said they are ready.
    pub(super) ready: Vec<bool>,
    /// The skills offered now (phase `Reward`).
    pub(super) offering: Vec<&'static Skill>,
    /// Skills already taken in this run (never offered again).
    pub(super) taken: Vec<&'static str>,
    pub(super) rng: ChaCha8Rng,
    pub(super) log: Vec<String>,
    pub(super) finish: Option<Outcome>,
    /// How the log names the seats.
    pub(super) names: Names,
}

/// A party for `team`, owned by the seat named `owner`, with the programs of `setup` where
/// it gives one.
fn party(team: usize, setup: &Setup, owner: &str) -> Vec<Unit> {
    PARTY
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let id = if team == 0 { kind.id } else { PARTY_2_IDS[i] };
            let label = words::owned(owner, kind.name);
            let mut unit = Unit::new(kind, id, team).called(kind.name, label);
            if let Some(rules) = setup.rules.get(kind.id) {
                unit.rules = Default::default();
                for (slot, spec) in rules.iter().enumerate() {
                    // `Setup::check` accepted these: every skill exists.
                    let Some(skill) = find(&spec.skill) else {
                        continue;
                    };
                    unit.rules[slot] = Some(Rule {
                        skill,
                        conditions: spec.conditions.clone(),
                        target: spec.target,
                    });
                }
            }
            unit
        })
        .collect()
}

/// The enemies of encounter `index`.
fn enemies(index: usize) -> Vec<Unit> {
    ENCOUNTERS[index]
        .iter()
        .map(|(kind, id, name)| Unit::new(kind, id, 1).called(name, (*name).to_owned()))
        .collect()
}

/// "Grunt 1 and Grunt 2": the enemies of encounter `index`.
fn foes(index: usize) -> String {
    let names: Vec<&str> = ENCOUNTERS[index].iter().map(|(_, _, name)| *name).collect();
    words::and_list(&names)
}

impl Gambit {
    /// A new battle, in planning, its seats named by `names`.
    pub fn new(options: &Options, seed: u64, setups: &[Setup], names: Names) -> Gambit {
        let default = Setup::default();
        let setup = |seat: usize| setups.get(seat).unwrap_or(&default);
        let mut units = party(0, setup(0), &names.of(0));
        let (opening, seats) = match options.mode {
            Mode::Pve => {
                units.extend(enemies(0));
                let last = ENCOUNTERS.len() - 1;
                (
                    format!(
                        "{}'s run begins: {} encounters, the last against the {}. Encounter \
                         1 of {}, against {}: {} plans the party's rules.",
                        names.of(0),
                        ENCOUNTERS.len(),
                        foes(last),
                        ENCOUNTERS.len(),
                        foes(0),
                        names.of(0)
                    ),
                    1,
                )
            }
            Mode::Pvp => {
                units.extend(party(1, setup(1), &names.of(1)));
                (
                    format!(
                        "The duel begins: {} and {} each program a party; the fight starts \
                         when both are ready.",
                        names.of(0),
                        names.of(1)
                    ),
                    2,
                )
            }
        };
        Gambit {
            mode: options.mode,
            tick_ms: options.tick_ms,
            phase: Phase::Planning,
            encounter: 0,
            fight: Fight::new(units),
            ready: vec![false; seats],
            offering: Vec::new(),
            taken: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            log: vec![opening],
            finish: None,
            names,
        }
    }

    /// The seats whose decision the battle awaits.
    pub fn awaited(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Planning => (0..self.ready.len()).filter(|&s| !self.ready[s]).collect(),
            Phase::Paused | Phase::Reward => vec![0],
            Phase::Fighting | Phase::Over => Vec::new(),
        }
    }

    /// The fight starts (every seat is ready).
    pub(super) fn begin_fight(&mut self) {
        self.phase = Phase::Fighting;
        self.log.push(match self.mode {
            Mode::Pve => format!(
                "Encounter {} of {} starts: {}'s party against {}.",
                self.encounter + 1,
                ENCOUNTERS.len(),
                self.names.of(0),
                foes(self.encounter)
            ),
            Mode::Pvp => format!(
                "{} and {} are ready: the fight starts.",
                self.names.of(0),
                self.names.of(1)
            ),
        });
    }

    /// One engine step: a tick of the running fight, and what its end leads to.
    pub fn step(&mut self) {
        self.fight.tick(&mut self.log);
        let Some(ending) = self.fight.ending else {
            return;
        };
        let tick = self.fight.tick;
        match (self.mode, ending) {
            (Mode::Pve, Ending::Won(0)) if self.encounter + 1 == ENCOUNTERS.len() => {
                self.end(
                    vec![0],
                    OutcomeReason::Completed,
                    format!(
                        "{}'s party wins the run: the Warlord falls at tick {tick} of \
                         encounter 6.",
                        self.names.of(0)
                    ),
                );
            }
            (Mode::Pve, Ending::Won(0)) => {
                self.log.push(format!(
                    "{}'s party wins encounter {} at tick {tick}.",
                    self.names.of(0),
                    self.encounter + 1
                ));
                self.offer();
            }
            (Mode::Pve, ending) => {
                let (reason, why) = match ending {
                    Ending::TimeUp => (
                        OutcomeReason::Limit,
                        format!("ran out of time ({tick} ticks)"),
                    ),
                    _ => (
                        OutcomeReason::Knockout,
                        format!("was knocked out at tick {tick}"),
                    ),
                };
                self.end(
                    Vec::new(),
                    reason,
                    format!(
                        "{}'s run is lost: the party {why} in encounter {}.",
                        self.names.of(0),
                        self.encounter + 1
                    ),
                );
            }
            (Mode::Pvp, Ending::Won(winner)) => {
                self.end(
                    vec![winner],
                    OutcomeReason::Knockout,
                    format!(
                        "{}'s party wins at tick {tick}: {}'s party is knocked out.",
                        self.names.of(winner),
                        self.names.of(1 - winner)
                    ),
                );
            }
            (Mode::Pvp, Ending::BothDown) => {
                self.end(
                    Vec::new(),
                    OutcomeReason::Knockout,
                    format!("Both parties fell at tick {tick}: a draw."),
                );
            }
            (Mode::Pvp, Ending::TimeUp) => {
                self.end(
                    Vec::new(),
                    OutcomeReason::Limit,
                    format!("Both parties still stand after {tick} ticks: a draw."),
                );
            }
        }
    }

    fn end(&mut self, winners: Vec<Seat>, reason: OutcomeReason, summary: String) {
        self.phase = Phase::Over;
        self.log.push(summary.clone());
        self.finish = Some(Outcome::new(winners, reason, summary));
    }

    /// After a won encounter: offer up to three skills nobody took yet, drawn from the
    /// battle's generator; with none left, go straight to the next encounter.
    fn offer(&mut self) {
        let mut pool: Vec<&'static Skill> = OFFERING_POOL
            .iter()
            .filter(|id| !self.taken.contains(id))
            .filter_map(|id| find(id))
            .collect();
        pool.shuffle(&mut self.rng);
        pool.truncate(OFFERED);
        if pool.is_empty() {
            self.next_encounter();
            return;
        }
        let names: Vec<&str> = pool.iter().map(|s| s.name).collect();
        self.log.push(format!(
            "{} is offered {}: one of them for one character, or none.",
            self.names.of(0),
            words::and_list(&names)
        ));
        self.offering = pool;
        self.phase = Phase::Reward;
    }

    /// Full heal, statuses cleared, the next encounter's enemies: planning again.
    pub(super) fn next_encounter(&mut self) {
        self.offering.clear();
        self.encounter += 1;
        let mut units: Vec<Unit> = std::mem::take(&mut self.fight.units)
            .into_iter()
            .filter(|u| u.team == 0)
            .collect();
        let mut rested = Vec::new();
        for unit in &mut units {
            let before = unit.hp;
            unit.refresh();
            if unit.hp != before {
                rested.push(format!(
                    "{} {}",
                    unit.label,
                    words::heal(unit.hp - before, before, unit.hp)
                ));
            }
        }
        units.extend(enemies(self.encounter));
        self.fight = Fight::new(units);
        self.phase = Phase::Planning;
        self.ready.iter_mut().for_each(|ready| *ready = false);
        let rest = if rested.is_empty() {
            "the party rests, its shields and statuses gone".to_owned()
        } else {
            format!(
                "the party rests, its shields and statuses gone: {}",
                words::and_list(&rested)
            )
        };
        self.log.push(format!(
            "Encounter {} of {}, against {}: {rest}. {} plans the party's rules.",
            self.encounter + 1,
            ENCOUNTERS.len(),
            foes(self.encounter),
            self.names.of(0)
        ));
    }

    /// The units of `team`, as indices into the fight's units.
    pub fn team(&self, team: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.fight.units.len()).filter(move |&i| self.fight.units[i].team == team)
    }

    /// The index of `seat`'s unit with this id.
    pub fn own_unit(&self, seat: Seat, id: &str) -> Option<usize> {
        self.team(seat).find(|&i| self.fight.units[i].id == id)
    }
}
