//! Combat, MTG style (spec "Combat System"): the active player declares attackers (they tap
//! and attack the defending hero); the defender declares blockers (untapped minions, several
//! on one attacker allowed, blockers stay untapped); the attacker orders each gang of blockers
//! and assigns its damage, lethal to each blocker before the next; then all damage is dealt at
//! once. A blocked attacker deals no damage to the hero even if its blockers die; unblocked
//! attackers hit the hero, each hit through the hero's armor. Minions whose damage reaches
//! their health die, and their bounty goes to the killer's owner.
//!
//! Pure functions over the minions and heroes they are given: the battle calls them in
//! order, each check before any change.

use std::collections::BTreeMap;

use battle_protocol::Seat;

/// A minion on the battlefield.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minion {
    /// Its instance id (unique in the battle).
    pub id: u32,
    /// Whose side it is on.
    pub owner: Seat,
    /// Attack power.
    pub attack: u32,
    /// Health (its toughness; damage is counted apart and healed at end of turn).
    pub health: u32,
    /// Damage taken this turn.
    pub damage: u32,
    /// Gold its killer's owner gains.
    pub bounty: u32,
    /// Tapped: attacked this turn (until its owner's next upkeep).
    pub tapped: bool,
    /// Came into play this turn: it cannot attack (it can block).
    pub sick: bool,
}

impl Minion {
    /// Damage still needed to kill it.
    pub fn lethal(&self) -> u32 {
        self.health.saturating_sub(self.damage)
    }
}

/// Why a combat declaration is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CombatError {
    /// The minion is not on the battlefield.
    #[error("minion {0} is not on the battlefield")]
    NoSuchMinion(u32),
    /// The minion is on the other side.
    #[error("minion {0} is not yours")]
    NotYours(u32),
    /// Tapped minions can neither attack nor block.
    #[error("minion {0} is tapped")]
    Tapped(u32),
    /// Summoning sickness: it came into play this turn.
    #[error("minion {0} came into play this turn and cannot attack yet")]
    Sick(u32),
    /// A minion named twice.
    #[error("minion {0} is named twice")]
    Twice(u32),
    /// A block names a minion that is not attacking.
    #[error("minion {0} is not attacking")]
    NotAttacking(u32),
    /// A damage order that does not list exactly the attacker's blockers.
    #[error("the order for attacker {0} must list each of its blockers once")]
    BadOrder(u32),
    /// Damage assigned that does not add up to the attacker's attack, or that skips ahead
    /// of a blocker not yet dealt lethal damage.
    #[error("attacker {attacker}: {why}")]
    BadAssignment {
        /// The attacker whose damage it is.
        attacker: u32,
        /// What is wrong.
        why: String,
    },
}

/// Find a minion by id.
fn find(minions: &[Minion], id: u32) -> Result<&Minion, CombatError> {
    minions
        .iter()
        .find(|m| m.id == id)
        .ok_or(CombatError::NoSuchMinion(id))
}

/// Check that `attackers` may attack for `seat`: its own, untapped, not summoning sick, each
/// named once.
pub fn check_attackers(
    minions: &[Minion],
    seat: Seat,
    attackers: &[u32],
) -> Result<(), CombatError> {
    for (i, &id) in attackers.iter().enumerate() {
        if attackers[..i].contains(&id) {
            return Err(CombatError::Twice(id));
        }
        let m = find(minions, id)?;
        if m.owner != seat {
            return Err(CombatError::NotYours(id));
        }
        if m.tapped {
            return Err(CombatError::Tapped(id));
        }
        if m.sick {
            return Err(CombatError::Sick(id));
        }
    }
    Ok(())
}

/// Check `blocks` (blocker, attacker) for the defending `seat`: each blocker its own and
/// untapped, blocking one of `attackers` once.
pub fn check_blocks(
    minions: &[Minion],
    seat: Seat,
    attackers: &[u32],
    blocks: &[(u32, u32)],
) -> Result<(), CombatError> {
    for (i, &(blocker, attacker)) in blocks.iter().enumerate() {
        if blocks[..i].iter().any(|&(b, _)| b == blocker) {
            return Err(CombatError::Twice(blocker));
        }
        let m = find(minions, blocker)?;
        if m.owner != seat {
            return Err(CombatError::NotYours(blocker));
        }
        if m.tapped {
            return Err(CombatError::Tapped(blocker));
        }
        if !attackers.contains(&attacker) {
            return Err(CombatError::NotAttacking(attacker));
        }
    }
    Ok(())
}

/// The blockers of each attacker, in the order they were declared.
pub fn gangs(blocks: &[(u32, u32)]) -> BTreeMap<u32, Vec<u32>> {
    let mut gangs: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for &(blocker, attacker) in blocks {
        gangs.entry(attacker).or_default().push(blocker);
    }
    gangs
}

/// Check the attacker's damage plan for its gang: `order` lists each of its blockers once,
/// `amounts[i]` goes to `order[i]`, the amounts add up to its attack, and no blocker gets
/// damage while an earlier one has less than lethal.
pub fn check_assignment(
    minions: &[Minion],
    attacker: u32,
    gang: &[u32],
    order: &[u32],
    amounts: &[u32],
) -> Result<(), CombatError> {
    let mut sorted_gang = gang.to_vec();
    sorted_gang.sort_unstable();
    let mut sorted_order = order.to_vec();
    sorted_order.sort_unstable();
    if sorted_gang != sorted_order || amounts.len() != order.len() {
        return Err(CombatError::BadOrder(attacker));
    }
    let power = find(minions, attacker)?.attack;
    let total: u32 = amounts.iter().sum();
    let bad = |why: String| CombatError::BadAssignment { attacker, why };
    if total != power {
        return Err(bad(format!(
            "assign all {power} damage (this plan assigns {total})"
        )));
    }
    for i in 0..order.len() {
        let lethal = find(minions, order[i])?.lethal();
        let later = amounts[i + 1..].iter().any(|&a| a > 0);
        if later && amounts[i] < lethal {
            return Err(bad(format!(
                "blocker {} needs {lethal} (lethal) before damage goes to the next",
                order[i]
            )));
        }
    }
    Ok(())
}

/// One unblocked attacker's hit on the defending hero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// The attacking minion.
    pub source: u32,
    /// Its damage before armor.
    pub damage: u32,
}

/// What a combat did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Hits on the defending hero, in attacker order (before armor: the hero applies them).
    pub hits: Vec<Hit>,
    /// Minions that died, in id order.
    pub deaths: Vec<u32>,
    /// Gold each seat gains from bounties.
    pub bounties: BTreeMap<Seat, u32>,
}

/// Resolve a combat: `attackers` in declaration order, `blocks` (blocker, attacker) and each
/// gang's damage plan `plans[attacker] = (order, amounts)` (a single blocker takes all the
/// damage without a plan). All damage is dealt at once; the minions are changed (damage,
/// attackers tapped) and the dead removed.
pub fn resolve(
    minions: &mut Vec<Minion>,
    attackers: &[u32],
    blocks: &[(u32, u32)],
    plans: &BTreeMap<u32, (Vec<u32>, Vec<u32>)>,
) -> Outcome {
    let gangs = gangs(blocks);
    let mut damage: BTreeMap<u32, u32> = BTreeMap::new();
    let mut outcome = Outcome::default();
    let attack_of =
        |id: u32, minions: &[Minion]| minions.iter().find(|m| m.id == id).map_or(0, |m| m.attack);
    for &attacker in attackers {
        let power = attack_of(attacker, minions);
        match gangs.get(&attacker) {
            None => outcome.hits.push(Hit {
                source: attacker,
                damage: power,
            }),
            Some(gang) => {
                match plans.get(&attacker) {
                    Some((order, amounts)) => {
                        for (blocker, amount) in order.iter().zip(amounts) {
                            *damage.entry(*blocker).or_default() += amount;
                        }
                    }
                    None => *damage.entry(gang[0]).or_default() += power,
                }
                for &blocker in gang {
                    *damage.entry(attacker).or_default() += attack_of(blocker, minions);
                }
            }
        }
    }
    for m in minions.iter_mut() {
        if attackers.contains(&m.id) {
            m.tapped = true;
        }
        m.damage += damage.get(&m.id).copied().unwrap_or(0);
    }
    // Who killed whom: a blocker dies to its attacker, an attacker to its blockers.
    let killer_of = |id: u32, minions: &[Minion]| -> Option<Seat> {
        let m = minions.iter().find(|m| m.id == id)?;
        Some(1 - m.owner)
    };
    let dead: Vec<u32> = minions
        .iter()
        .filter(|m| m.damage >= m.health)
        .map(|m| m.id)
        .collect();
    for &id in &dead {
        if let (Some(seat), Some(m)) = (killer_of(id, minions), minions.iter().find(|m| m.id == id))
        {
            *outcome.bounties.entry(seat).or_default() += m.bounty;
        }
    }
    minions.retain(|m| !dead.contains(&m.id));
    outcome.deaths = dead;
    outcome
}

/// A hero's armor and health after one hit of `damage` (spec "Armor": each point absorbs one
/// point of damage and is used up; "3 Armor, take 5 damage → 0 Armor, 2 damage to health").
/// Negative armor adds its size to the hit and stays. Returns (armor, health, damage taken).
pub fn hit_hero(armor: i32, health: i32, damage: u32) -> (i32, i32, u32) {
    let damage = i64::from(damage);
    let (armor_after, taken) = if armor >= 0 {
        let absorbed = damage.min(i64::from(armor));
        (i64::from(armor) - absorbed, damage - absorbed)
    } else {
        (i64::from(armor), damage - i64::from(armor))
    };
    let taken = u32::try_from(taken).unwrap_or(u32::MAX);
    let health = i64::from(health) - i64::from(taken);
    (
        i32::try_from(armor_after).unwrap_or(i32::MIN),
        i32::try_from(health).unwrap_or(i32::MIN),
        taken,
    )
}

#[cfg(test)]
#[path = "tests_combat.rs"]
mod tests;
