//! The damage formula (spec section 6), step by step in the spec's order: base power, attack
//! modifiers (atkUp, Momentum, the speed bonus, then Weak), the critical check, the
//! defender's DEF%, the allocation to Guard, AP and HP with Armor Break (spec 5.2, 5.3), and
//! the post-process: the attacker's lifesteal and the defender's thorns.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::fighter::Fighter;
use super::status::Kind;

/// Spec 6: the base critical rate, in percent.
pub const CRIT_BASE: u32 = 10;
/// Spec 6: the highest critical rate, in percent.
pub const CRIT_MAX: u32 = 80;
/// Attack Up: bonus per stack, in percent.
pub const ATK_UP_PCT: u32 = 20;
/// Momentum: bonus per stack, in percent.
pub const MOMENTUM_PCT: u32 = 10;
/// The speed bonus (spec 4.2 step 2): bonus while faster, in percent.
pub const INITIATIVE_PCT: u32 = 10;
/// Spec 6: Weak takes away 30%.
pub const WEAK_PCT: u32 = 30;

/// Step 2: `base` with the attacker's bonus (percent, added up) and then Weak, each rounded
/// down.
pub fn modified(base: u32, bonus_pct: u32, weak: bool) -> u32 {
    let up = base * (100 + bonus_pct) / 100;
    if weak {
        up * (100 - WEAK_PCT) / 100
    } else {
        up
    }
}

/// The bonus percent an attacker's statuses give: Attack Up and Momentum.
pub fn status_bonus(attacker: &Fighter) -> u32 {
    ATK_UP_PCT * attacker.statuses.stacks(Kind::AtkUp)
        + MOMENTUM_PCT * attacker.statuses.stacks(Kind::Momentum)
}

/// Step 3: the critical rate with `extra` points, at most 80%.
pub fn crit_rate(extra: u32) -> u32 {
    (CRIT_BASE + extra).min(CRIT_MAX)
}

/// Step 3: a critical hit is x1.5, rounded down.
pub fn critical(amount: u32) -> u32 {
    amount * 3 / 2
}

/// Step 4: the defender's DEF% off, rounded down.
pub fn mitigate(amount: u32, def_pct: u32) -> u32 {
    amount * (100 - def_pct.min(100)) / 100
}

/// Where a hit's damage went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Allocation {
    /// Absorbed by Guard.
    pub guard: u32,
    /// Absorbed by AP.
    pub ap: u32,
    /// HP lost (the bypassing half included).
    pub hp: u32,
    /// The half that bypassed Guard under Armor Break.
    pub bypassed: u32,
}

/// Step 5 (spec 5.2, 5.3): `amount` goes to Guard, then AP, then HP. Under Armor Break (the
/// defender's armor at 0 AP when the hit lands) half of it, rounded up, bypasses Guard and
/// goes to HP; the other half meets Guard as usual.
pub fn allocate(defender: &mut Fighter, amount: u32) -> Allocation {
    let bypassed = if defender.armor_broken() {
        amount.div_ceil(2)
    } else {
        0
    };
    let mut rest = amount - bypassed;
    let guard = rest.min(defender.guard);
    defender.guard -= guard;
    rest -= guard;
    let ap = rest.min(defender.ap);
    defender.ap -= ap;
    rest -= ap;
    let hp = defender.lose_hp(rest + bypassed);
    Allocation {
        guard,
        ap,
        hp,
        bypassed,
    }
}

/// One hit through the whole formula.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Strike {
    /// Damage after modifiers, critical and DEF%: what was allocated.
    pub damage: u32,
    /// Whether it was critical.
    pub critical: bool,
    /// Where it went.
    pub allocation: Allocation,
    /// HP the attacker's lifesteal restored.
    pub stolen: u32,
    /// The thorns damage the attacker took back, and where it went.
    pub thorns: Allocation,
}

/// What an attack brings besides the two fighters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Blow {
    /// Base power (step 1).
    pub power: u32,
    /// Bonus percent beyond the attacker's statuses (the speed bonus).
    pub bonus_pct: u32,
    /// Extra critical rate, in points.
    pub crit: u32,
    /// Lifesteal, percent of the HP damage dealt.
    pub lifesteal: u32,
}

/// One hit of `blow` from `attacker` on `defender`, in the spec's order. The critical check
/// draws one number from `rng` for every hit.
pub fn strike(
    attacker: &mut Fighter,
    defender: &mut Fighter,
    blow: Blow,
    rng: &mut ChaCha8Rng,
) -> Strike {
    let bonus = status_bonus(attacker) + blow.bonus_pct;
    let mut amount = modified(blow.power, bonus, attacker.statuses.has(Kind::Weak));
    let critical_hit = rng.random_range(0..100) < crit_rate(blow.crit);
    if critical_hit {
        amount = critical(amount);
    }
    amount = mitigate(amount, defender.def_pct);
    let allocation = allocate(defender, amount);
    let stolen = attacker.heal(allocation.hp * blow.lifesteal / 100);
    let thorns = match defender.statuses.stacks(Kind::Thorns) {
        0 => Allocation::default(),
        stacks => allocate(attacker, stacks),
    };
    Strike {
        damage: amount,
        critical: critical_hit,
        allocation,
        stolen,
        thorns,
    }
}
