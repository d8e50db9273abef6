//! Effects resolved: a card the player plays or a skill the enemy uses, effect by effect,
//! each attack through the damage formula, written up as one log sentence.

use super::damage::{self, Blow, Strike, INITIATIVE_PCT};
use super::effect::Effect;
use super::fighter::Fighter;
use super::speed::Side;
use super::state::Roguelite;

impl Roguelite {
    /// The user's fighter and its opponent.
    pub(super) fn pair(&mut self, side: Side) -> (&mut Fighter, &mut Fighter) {
        match side {
            Side::Player => (&mut self.player, &mut self.enemy),
            Side::Enemy => (&mut self.enemy, &mut self.player),
        }
    }

    /// Resolve `effects` used by `side`; stops once either fighter is down. Returns what
    /// happened, in words ("9 damage (critical): 4 Guard, 5 HP; Weak on the Cellar Rat").
    pub(super) fn resolve(&mut self, side: Side, effects: &[Effect]) -> String {
        let mut parts: Vec<String> = Vec::new();
        let atk = self.foe.atk;
        let bonus = if side == Side::Player && self.initiative {
            INITIATIVE_PCT
        } else {
            0
        };
        for effect in effects {
            if self.player.down() || self.enemy.down() {
                break;
            }
            match *effect {
                Effect::Attack {
                    power,
                    hits,
                    crit,
                    lifesteal,
                } => {
                    let power = match side {
                        Side::Player => power,
                        Side::Enemy => atk * power / 100,
                    };
                    let blow = Blow {
                        power,
                        bonus_pct: bonus,
                        crit,
                        lifesteal,
                    };
                    for _ in 0..hits {
                        if self.player.down() || self.enemy.down() {
                            break;
                        }
                        let (me, foe) = match side {
                            Side::Player => (&mut self.player, &mut self.enemy),
                            Side::Enemy => (&mut self.enemy, &mut self.player),
                        };
                        let target = foe.name;
                        let strike = damage::strike(me, foe, blow, &mut self.rng);
                        parts.push(describe(&strike, target));
                    }
                }
                Effect::Guard(n) => {
                    let (me, _) = self.pair(side);
                    me.guard += n;
                    parts.push(format!("+{n} Guard"));
                }
                Effect::Repair(n) => {
                    let (me, _) = self.pair(side);
                    let done = me.repair(n);
                    parts.push(format!("{done} AP repaired"));
                }
                Effect::Heal(n) => {
                    let (me, _) = self.pair(side);
                    let done = me.heal(n);
                    parts.push(format!("{done} HP healed"));
                }
                Effect::Inflict {
                    status,
                    stacks,
                    turns,
                } => {
                    let (_, foe) = self.pair(side);
                    foe.statuses.gain(status, stacks, turns);
                    parts.push(format!(
                        "{stacks} {} on {} for {turns} turns",
                        status.name(),
                        foe.name
                    ));
                }
                Effect::Gain {
                    status,
                    stacks,
                    turns,
                } => {
                    let (me, _) = self.pair(side);
                    me.statuses.gain(status, stacks, turns);
                    parts.push(format!(
                        "gains {stacks} {} for {turns} turns",
                        status.name()
                    ));
                }
                Effect::AddEnergy(pct) => {
                    self.add_energy = pct;
                    parts.push(format!(
                        "next phase's energy x{}.{:02}",
                        pct / 100,
                        pct % 100
                    ));
                }
            }
        }
        parts.join("; ")
    }
}

/// "9 damage to the Cellar Rat (critical): 4 to Guard, 5 to HP, 3 bypassing Guard; 4 HP
/// stolen; 3 thorns back".
fn describe(s: &Strike, target: &str) -> String {
    let mut out = format!("{} damage to {target}", s.damage);
    if s.critical {
        out.push_str(" (critical)");
    }
    let a = s.allocation;
    let mut to = Vec::new();
    if a.guard > 0 {
        to.push(format!("{} to Guard", a.guard));
    }
    if a.ap > 0 {
        to.push(format!("{} to AP", a.ap));
    }
    if a.hp > 0 {
        to.push(format!("{} to HP", a.hp));
    }
    if a.bypassed > 0 {
        to.push(format!("{} past Guard (Armor Break)", a.bypassed));
    }
    if !to.is_empty() {
        out.push_str(": ");
        out.push_str(&to.join(", "));
    }
    if s.stolen > 0 {
        out.push_str(&format!("; {} HP stolen", s.stolen));
    }
    let t = s.thorns;
    if t.guard + t.ap + t.hp > 0 {
        out.push_str(&format!("; thorns deal {} back", t.guard + t.ap + t.hp));
    }
    out
}
