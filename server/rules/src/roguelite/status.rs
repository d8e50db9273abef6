//! Statuses (spec section 7 and the condition management of section 1): each one a kind with
//! stacks and a duration in turns, how they are gained (stacks add up to a cap, the longer
//! duration wins) and how durations run out (one turn off at the start of the owner's own
//! phase).

use serde::Serialize;

/// A status a fighter may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    /// Spec 7: 5% of max HP to HP each time the player plays a card / the enemy takes an
    /// action.
    Bleed,
    /// Spec 7: stacks x 2 damage to HP at the end of the owner's phase.
    Poison,
    /// Spec 7: stacks x 2 damage to HP at the end of the owner's phase; halves Regeneration.
    Curse,
    /// Spec 7: heals stacks x 3 HP at the start of the owner's phase (halved while Cursed).
    Regeneration,
    /// Spec 4.2 "shield effects": stacks Guard at the start of the owner's phase, after the
    /// reset.
    Shield,
    /// Spec 3.2: +15 speed per stack.
    Haste,
    /// Spec 3.2: +30 speed per stack.
    SuperFast,
    /// Spec 3.2: -10 speed per stack.
    Slow,
    /// Spec 3.2: -15 speed per stack.
    Stall,
    /// Spec 6: +20% attack damage per stack.
    AtkUp,
    /// Spec 6: -30% attack damage.
    Weak,
    /// Spec 4.2: the player's chain of attacking phases, +10% attack damage per stack; no
    /// duration.
    Momentum,
    /// Spec 6 "reflect/thorns": each hit taken deals stacks damage back to the attacker.
    Thorns,
}

impl Kind {
    /// The most stacks a fighter holds (1: the status does not stack).
    pub fn cap(self) -> u32 {
        match self {
            Kind::Bleed | Kind::Weak => 1,
            Kind::Haste | Kind::SuperFast | Kind::Slow | Kind::Stall | Kind::Momentum => 3,
            Kind::AtkUp => 5,
            Kind::Regeneration | Kind::Thorns => 10,
            Kind::Poison | Kind::Curse | Kind::Shield => 20,
        }
    }

    /// Whether the status runs out with time (Momentum does not: it is updated at the end of
    /// each of the player's phases).
    pub fn lasts(self) -> bool {
        self != Kind::Momentum
    }

    /// The status's name in sentences.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bleed => "Bleed",
            Kind::Poison => "Poison",
            Kind::Curse => "Curse",
            Kind::Regeneration => "Regeneration",
            Kind::Shield => "Shield",
            Kind::Haste => "Haste",
            Kind::SuperFast => "Super Fast",
            Kind::Slow => "Slow",
            Kind::Stall => "Stall",
            Kind::AtkUp => "Attack Up",
            Kind::Weak => "Weak",
            Kind::Momentum => "Momentum",
            Kind::Thorns => "Thorns",
        }
    }
}

/// One status on a fighter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Status {
    /// Which status.
    #[serde(rename = "status")]
    pub kind: Kind,
    /// Its stacks (1 for a status that does not stack).
    pub stacks: u32,
    /// Turns left: it ends at the owner's phase start that brings it to 0 (0 for Momentum,
    /// which has no duration).
    pub turns: u32,
}

/// A fighter's statuses, kept in the order of [`Kind`] (a stable shape for the view).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Statuses(Vec<Status>);

impl Statuses {
    /// Every status, in [`Kind`] order.
    pub fn all(&self) -> &[Status] {
        &self.0
    }

    /// The stacks of `kind` (0 without it).
    pub fn stacks(&self, kind: Kind) -> u32 {
        self.get(kind).map_or(0, |s| s.stacks)
    }

    /// Whether the fighter has `kind`.
    pub fn has(&self, kind: Kind) -> bool {
        self.get(kind).is_some()
    }

    /// The status of `kind`, if any.
    pub fn get(&self, kind: Kind) -> Option<&Status> {
        self.0.iter().find(|s| s.kind == kind)
    }

    /// Gain `stacks` of `kind` for `turns`: stacks add up to the kind's cap and the longer
    /// duration wins. Nothing happens for 0 stacks.
    pub fn gain(&mut self, kind: Kind, stacks: u32, turns: u32) {
        if stacks == 0 {
            return;
        }
        let turns = if kind.lasts() { turns } else { 0 };
        match self.0.iter_mut().find(|s| s.kind == kind) {
            Some(s) => {
                s.stacks = (s.stacks + stacks).min(kind.cap());
                s.turns = s.turns.max(turns);
            }
            None => {
                let at = self.0.partition_point(|s| s.kind < kind);
                self.0.insert(
                    at,
                    Status {
                        kind,
                        stacks: stacks.min(kind.cap()),
                        turns,
                    },
                );
            }
        }
    }

    /// Remove `kind`.
    pub fn remove(&mut self, kind: Kind) {
        self.0.retain(|s| s.kind != kind);
    }

    /// The owner's phase starts: every duration goes down by one turn and what reaches 0
    /// ends. Returns the kinds that ended.
    pub fn tick(&mut self) -> Vec<Kind> {
        let mut ended = Vec::new();
        self.0.retain_mut(|s| {
            if !s.kind.lasts() {
                return true;
            }
            s.turns = s.turns.saturating_sub(1);
            if s.turns == 0 {
                ended.push(s.kind);
            }
            s.turns > 0
        });
        ended
    }

    /// Every status ends (between battles).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The speed the statuses add (spec 3.2): Haste +15, Super Fast +30, Slow -10, Stall -15
    /// per stack.
    pub fn speed_modifier(&self) -> i32 {
        15 * self.stacks(Kind::Haste) as i32 + 30 * self.stacks(Kind::SuperFast) as i32
            - 10 * self.stacks(Kind::Slow) as i32
            - 15 * self.stacks(Kind::Stall) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_add_to_the_cap_and_the_longer_duration_wins() {
        let mut s = Statuses::default();
        s.gain(Kind::Poison, 3, 2);
        s.gain(Kind::Poison, 4, 4);
        assert_eq!(
            s.get(Kind::Poison).copied().map(|s| (s.stacks, s.turns)),
            Some((7, 4))
        );
        s.gain(Kind::Haste, 5, 1);
        assert_eq!(s.stacks(Kind::Haste), 3);
        s.gain(Kind::Weak, 2, 3);
        s.gain(Kind::Weak, 1, 2);
        assert_eq!(
            s.get(Kind::Weak).copied().map(|s| (s.stacks, s.turns)),
            Some((1, 3))
        );
    }

    #[test]
    fn statuses_stay_in_kind_order_and_tick_away() {
        let mut s = Statuses::default();
        s.gain(Kind::Weak, 1, 1);
        s.gain(Kind::Bleed, 1, 2);
        s.gain(Kind::Momentum, 1, 9);
        let kinds: Vec<Kind> = s.all().iter().map(|s| s.kind).collect();
        assert_eq!(kinds, [Kind::Bleed, Kind::Weak, Kind::Momentum]);
        assert_eq!(s.tick(), [Kind::Weak]);
        assert_eq!(s.tick(), [Kind::Bleed]);
        assert_eq!(s.tick(), []);
        assert_eq!(s.stacks(Kind::Momentum), 1, "Momentum has no duration");
    }

    #[test]
    fn speed_modifiers_per_stack() {
        let mut s = Statuses::default();
        s.gain(Kind::Haste, 1, 2);
        assert_eq!(s.speed_modifier(), 15);
        s.gain(Kind::SuperFast, 1, 2);
        assert_eq!(s.speed_modifier(), 45);
        s.gain(Kind::Slow, 2, 2);
        assert_eq!(s.speed_modifier(), 25);
        s.gain(Kind::Stall, 1, 2);
        assert_eq!(s.speed_modifier(), 10);
    }
}
