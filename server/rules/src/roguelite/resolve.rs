//! Effects resolved: a card the player plays or a skill the enemy uses, effect by effect,
//! each attack through the damage formula, written up as one log sentence.

use super::damage::{self, Blow, Strike, INITIATIVE_PCT};
use super::effect::Effect;
use super::fighter::Fighter;
use super::speed::Side;
use super::state::Roguelite;
use super::status::Kind;
use crate::words;

impl Roguelite {
    /// The user's fighter and its opponent.
    pub(super) fn pair(&mut self, side: Side) -> (&mut Fighter, &mut Fighter) {
        match side {
            Side::Player => (&mut self.player, &mut self.enemy),
            Side::Enemy => (&mut self.enemy, &mut self.player),
        }
    }

    /// Resolve `effects` used by `side`; stops once either fighter is down. Returns what
    /// happened, in words, who to whom and each count from what to what ("Cellar Rat takes
    /// 9 damage: 4 to Guard (4 to 0), 5 to HP (30 to 25); Cellar Rat gains 1 Weak for 2
    /// turns (0 to 1 stacks)").
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
                        let strike = damage::strike(me, foe, blow, &mut self.rng);
                        parts.push(describe(&strike, foe, me));
                    }
                }
                Effect::Guard(n) => {
                    let (me, _) = self.pair(side);
                    me.guard += n;
                    let change = words::gain(i64::from(me.guard - n), i64::from(me.guard), "Guard");
                    parts.push(format!("{}: {change}", me.name));
                }
                Effect::Repair(n) => {
                    let (me, _) = self.pair(side);
                    let done = me.repair(n);
                    parts.push(format!(
                        "{} repairs {done} AP {}",
                        me.name,
                        words::span(me.ap - done, me.ap)
                    ));
                }
                Effect::Heal(n) => {
                    let (me, _) = self.pair(side);
                    let done = me.heal(n);
                    parts.push(format!(
                        "{} {}",
                        me.name,
                        words::heal(done, me.hp - done, me.hp)
                    ));
                }
                Effect::Inflict {
                    status,
                    stacks,
                    turns,
                } => {
                    let (_, foe) = self.pair(side);
                    parts.push(gains(foe, status, stacks, turns));
                }
                Effect::Gain {
                    status,
                    stacks,
                    turns,
                } => {
                    let (me, _) = self.pair(side);
                    parts.push(gains(me, status, stacks, turns));
                }
                Effect::AddEnergy(pct) => {
                    self.add_energy = pct;
                    let (me, _) = self.pair(side);
                    parts.push(format!(
                        "{}'s next phase has its energy x{}.{:02}",
                        me.name,
                        pct / 100,
                        pct % 100
                    ));
                }
            }
        }
        parts.join("; ")
    }
}

/// `who` gains `stacks` of `status` for `turns`, in words: "Cellar Rat gains 2 Weak for 3
/// turns (0 to 2 stacks)".
fn gains(who: &mut Fighter, status: Kind, stacks: u32, turns: u32) -> String {
    let before = who.statuses.stacks(status);
    who.statuses.gain(status, stacks, turns);
    let after = who.statuses.stacks(status);
    let lasting = if status.lasts() {
        format!(" for {}", words::count(turns, "turn"))
    } else {
        String::new()
    };
    format!(
        "{} gains {stacks} {}{lasting} {}",
        who.name,
        status.name(),
        words::span(format!("{before}"), format!("{after} stacks"))
    )
}

/// Where an amount taken by `f` went, each pool from what it held to what it holds now:
/// "4 to Guard (4 to 0), 5 to HP (50 to 45)".
fn pools(a: &damage::Allocation, f: &Fighter) -> String {
    let mut to = Vec::new();
    if a.guard > 0 {
        to.push(format!(
            "{} to Guard {}",
            a.guard,
            words::span(f.guard + a.guard, f.guard)
        ));
    }
    if a.ap > 0 {
        to.push(format!("{} to AP {}", a.ap, words::span(f.ap + a.ap, f.ap)));
    }
    if a.hp > 0 {
        let mut hp = format!("{} to HP {}", a.hp, words::span(f.hp + a.hp, f.hp));
        if a.bypassed > 0 {
            hp.push_str(&format!(", {} of it past Guard (Armor Break)", a.bypassed));
        }
        to.push(hp);
    }
    to.join(", ")
}

/// One hit, after it landed on `target` from `attacker`: "Cellar Rat takes 9 damage
/// (critical): 4 to Guard (4 to 0), 5 to HP (30 to 25); Ana steals 2 HP (40 to 42); thorns:
/// Ana takes 3 back: 3 to HP (42 to 39)".
fn describe(s: &Strike, target: &Fighter, attacker: &Fighter) -> String {
    let mut out = format!("{} takes {} damage", target.name, s.damage);
    if s.critical {
        out.push_str(" (critical)");
    }
    let went = pools(&s.allocation, target);
    if !went.is_empty() {
        out.push_str(": ");
        out.push_str(&went);
    }
    let t = s.thorns;
    if s.stolen > 0 {
        let after = attacker.hp + t.hp;
        out.push_str(&format!(
            "; {} steals {} HP {}",
            attacker.name,
            s.stolen,
            words::span(after - s.stolen, after)
        ));
    }
    if t.guard + t.ap + t.hp > 0 {
        out.push_str(&format!(
            "; thorns: {} takes {} back: {}",
            attacker.name,
            t.guard + t.ap + t.hp,
            pools(&t, attacker)
        ));
    }
    out
}
