//! The bot for a gambit seat: it keeps the starting program (which wins the early
//! encounters), takes the first offered skill for the character it suits and gives it a rule
//! in an empty slot, resumes a paused fight, and never pauses.

use battle_protocol::Seat;

use super::play::Action;
use super::rules::{Condition, SLOTS};
use super::skills::{Skill, Target};
use super::state::{Gambit, Phase};

/// The condition the bot puts on a rule using `skill`.
fn condition_for(skill: &Skill) -> Vec<Condition> {
    match skill.id {
        "execute" => vec![Condition::EnemyHpBelow25],
        "revive" => vec![Condition::AllyKnockedOut],
        "renewal" => vec![Condition::AllyHpBelow50],
        "concuss" => vec![Condition::EnemyActing],
        "sweep" => vec![Condition::MoreThan2Enemies],
        _ => vec![Condition::Always],
    }
}

/// Which character should learn `skill`: the Mender (B) for support skills, else the
/// Arcanist (C), else the Vanguard (A); one with an empty slot first.
fn learner(game: &Gambit, seat: Seat, skill: &Skill) -> Option<String> {
    let support = matches!(
        skill.target,
        Target::Ally | Target::DamagedAlly | Target::AllDamagedAllies | Target::KnockedOutAlly
    );
    let order: [usize; 3] = if support { [1, 2, 0] } else { [2, 0, 1] };
    let units: Vec<usize> = game.team(seat).collect();
    let fits = |pos: usize, need_slot: bool| {
        let unit = &game.fight.units[*units.get(pos)?];
        let free = unit.rules.iter().any(Option::is_none);
        (!unit.knows(skill.id) && (free || !need_slot)).then(|| unit.id.to_owned())
    };
    order
        .iter()
        .find_map(|&pos| fits(pos, true))
        .or_else(|| order.iter().find_map(|&pos| fits(pos, false)))
}

impl Gambit {
    /// The bot's decision for `seat`, when it is awaited.
    pub fn ai_for(&self, seat: Seat) -> Option<Action> {
        if !self.awaited().contains(&seat) {
            return None;
        }
        match self.phase {
            Phase::Planning => Some(self.unused_skill_rule(seat).unwrap_or(Action::Start {})),
            Phase::Paused => Some(Action::Resume {}),
            Phase::Reward => {
                let skill = self.offering.first()?;
                Some(match learner(self, seat, skill) {
                    Some(unit) => Action::Take {
                        skill: skill.id.to_owned(),
                        unit,
                    },
                    None => Action::Skip {},
                })
            }
            Phase::Fighting | Phase::Over => None,
        }
    }

    /// Put the skill a character learned last to use: a rule for it in the first empty slot
    /// (else slot 3), then moved up to slot 1, one edit per call.
    fn unused_skill_rule(&self, seat: Seat) -> Option<Action> {
        for i in self.team(seat) {
            let unit = &self.fight.units[i];
            if let Some(skill) = unit.skills.iter().skip(3).last() {
                let at = unit
                    .rules
                    .iter()
                    .position(|r| r.as_ref().is_some_and(|r| r.skill.id == skill.id));
                match at {
                    None => {
                        let slot = unit.rules.iter().position(Option::is_none);
                        return Some(Action::SetRule {
                            unit: unit.id.to_owned(),
                            slot: slot.unwrap_or(SLOTS - 1) + 1,
                            skill: skill.id.to_owned(),
                            conditions: condition_for(skill),
                            target: None,
                        });
                    }
                    Some(slot) if slot > 0 => {
                        return Some(Action::MoveRule {
                            unit: unit.id.to_owned(),
                            slot: slot + 1,
                            direction: super::play::Direction::Up,
                        });
                    }
                    Some(_) => {}
                }
            }
        }
        None
    }
}
