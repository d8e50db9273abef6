//! What an action changed, in words: a [`Snapshot`] of every count the log reports (each
//! hero's health, armor, max health, gold, class resource and level; each minion's attack,
//! health and damage) taken before the action, compared with the game after it. Every
//! action's line ends with these changes, so the log says who did what to whom and by how
//! much whatever path an effect took (a card, an item, a bounty, the end of the turn).

use battle_protocol::Seat;

use super::state::Heroes;
use crate::words;

/// The counts of one hero the log reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct HeroCounts {
    health: i32,
    max_health: i32,
    armor: i32,
    gold: u32,
    resource: u32,
    levelled: bool,
    drawn: u32,
}

/// The counts of one minion the log reports.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MinionCounts {
    id: u32,
    owner: Seat,
    name: &'static str,
    attack: u32,
    health: u32,
    damage: u32,
}

impl MinionCounts {
    /// Health it has left.
    fn left(&self) -> u32 {
        self.health.saturating_sub(self.damage)
    }
}

/// The game's reported counts at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    heroes: [HeroCounts; 2],
    minions: Vec<MinionCounts>,
}

impl Heroes {
    /// The counts the log reports, now.
    pub(super) fn snapshot(&self) -> Snapshot {
        let hero = |seat: Seat| {
            let h = &self.sides[seat].hero;
            HeroCounts {
                health: h.health,
                max_health: h.max_health,
                armor: h.armor,
                gold: h.gold,
                resource: h.resource,
                levelled: h.levelled,
                drawn: self.sides[seat].drawn,
            }
        };
        Snapshot {
            heroes: [hero(0), hero(1)],
            minions: self
                .minions
                .iter()
                .map(|m| MinionCounts {
                    id: m.id,
                    owner: m.owner,
                    name: self.minion_name(m.id),
                    attack: m.attack,
                    health: m.health,
                    damage: m.damage,
                })
                .collect(),
        }
    }

    /// The name of minion `id`: its card's, or "Token" for one an effect made.
    pub fn minion_name(&self, id: u32) -> &'static str {
        self.minion_cards.get(&id).map_or("Token", |card| card.name)
    }

    /// What the log calls `seat`'s minion `name`: "Ana's Goblin Raider".
    pub(super) fn minion_label(&self, owner: Seat, name: &str) -> String {
        words::owned(&self.names.of(owner), name)
    }

    /// What the log calls minion `id` in play: "Ana's Goblin Raider".
    pub(super) fn minion_called(&self, id: u32) -> String {
        let owner = self
            .minions
            .iter()
            .find(|m| m.id == id)
            .map_or(0, |m| m.owner);
        self.minion_label(owner, self.minion_name(id))
    }

    /// What the log calls a target: "Ben's hero", "Ben's Goblin Raider".
    pub(super) fn target_label(&self, target: super::main_phase::Target) -> String {
        match target {
            super::main_phase::Target::Hero(seat) => self.hero_label(seat),
            super::main_phase::Target::Minion(id) => self.minion_called(id),
        }
    }

    /// What the log calls `seat`'s hero: "Ana's hero".
    pub(super) fn hero_label(&self, seat: Seat) -> String {
        words::owned(&self.names.of(seat), "hero")
    }

    /// Every change since `before`, one clause per thing changed: "Ben's hero: -2 armor (2
    /// to 0), 4 damage (20 to 16)", "Ben's Goblin Raider: 3 damage (3 to 0), dies",
    /// "Ana's Stone Golem comes into play (2 attack, 5 health)".
    pub(super) fn changes(&self, before: &Snapshot) -> Vec<String> {
        let now = self.snapshot();
        let mut clauses = Vec::new();
        for seat in 0..2 {
            let (a, b) = (before.heroes[seat], now.heroes[seat]);
            let mut parts = Vec::new();
            parts.extend(words::changed(a.max_health, b.max_health, "max health"));
            parts.extend(words::changed(a.armor, b.armor, "armor"));
            if a.health != b.health {
                let (from, to) = (a.health.max(0) as u32, b.health.max(0) as u32);
                parts.push(if from == to {
                    format!("health {} to {}", a.health, b.health)
                } else {
                    words::health(from, to)
                });
            }
            let resource = self.sides[seat].hero.class.resource;
            parts.extend(words::changed(a.resource, b.resource, resource));
            parts.extend(words::changed(a.gold, b.gold, "gold"));
            if !a.levelled && b.levelled {
                parts.push("levels up".to_owned());
            }
            if !parts.is_empty() {
                clauses.push(format!("{}: {}", self.hero_label(seat), parts.join(", ")));
            }
            if b.drawn > a.drawn {
                clauses.push(format!(
                    "{} draws {}",
                    self.names.of(seat),
                    words::count(b.drawn - a.drawn, "card")
                ));
            }
        }
        for m in &before.minions {
            let label = self.minion_label(m.owner, m.name);
            let Some(after) = now.minions.iter().find(|n| n.id == m.id) else {
                let fall = if m.left() > 0 {
                    format!("{}, ", words::damage(m.left(), m.left(), 0))
                } else {
                    String::new()
                };
                clauses.push(format!("{label}: {fall}dies"));
                continue;
            };
            let mut parts = Vec::new();
            parts.extend(words::changed(m.attack, after.attack, "attack"));
            parts.extend(words::changed(m.health, after.health, "max health"));
            if m.damage != after.damage {
                parts.push(words::health(m.left(), after.left()));
            }
            if !parts.is_empty() {
                clauses.push(format!("{label}: {}", parts.join(", ")));
            }
        }
        for m in &now.minions {
            if !before.minions.iter().any(|b| b.id == m.id) {
                clauses.push(format!(
                    "{} comes into play ({} attack, {} health)",
                    self.minion_label(m.owner, m.name),
                    m.attack,
                    m.left()
                ));
            }
        }
        together(clauses)
    }

    /// "Ana's Rage adds 2 to each hit" when `seat`'s hero rages and has Rage: what makes a
    /// hit on it hurt more than its source's number.
    pub(super) fn rage_note(&self, seat: Seat) -> Option<String> {
        let hero = &self.sides[seat].hero;
        (hero.class.id == "barbarian" && hero.resource > 0 && !hero.immune).then(|| {
            format!(
                "{}'s Rage adds {} to each hit",
                self.names.of(seat),
                hero.resource
            )
        })
    }

    /// Log `what` happened, with every change since `before`: "Ana plays Arc Lash at Ben's
    /// hero. Ben's hero: 4 damage (20 to 16)." (or "what." when nothing changed).
    pub(super) fn note(&mut self, what: String, before: &Snapshot) {
        let changes = self.changes(before);
        let line = if changes.is_empty() {
            format!("{what}.")
        } else {
            format!("{what}. {}.", changes.join("; "))
        };
        self.log.push(line);
    }
}

/// The clauses with each repeated one said once, with how many: two Apprentices that die
/// alike read "Ben's Apprentice: 2 damage (2 to 0), dies (2 of them)".
fn together(clauses: Vec<String>) -> Vec<String> {
    let mut out: Vec<(String, u32)> = Vec::with_capacity(clauses.len());
    for clause in clauses {
        match out.iter_mut().find(|(said, _)| *said == clause) {
            Some((_, n)) => *n += 1,
            None => out.push((clause, 1)),
        }
    }
    out.into_iter()
        .map(|(clause, n)| {
            if n == 1 {
                clause
            } else {
                format!("{clause} ({n} of them)")
            }
        })
        .collect()
}
