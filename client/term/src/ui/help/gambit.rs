//! How gambit is played, from `docs/rules/gambit.md`: the goal of a run and of a duel,
//! programming the party's rules, how a tick runs, conditions, targeting, the statuses with
//! their numbers, and what happens between encounters; then the skills the battle's units
//! know, from the view's glossary. Every number comes from [`NUMBERS`].

use serde_json::Value;

use super::Section;

/// The numbers the page gives, in one place (a test compares them with the rules crate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    /// Rule slots a character has.
    pub slots: usize,
    /// Most conditions a rule has.
    pub conditions: usize,
    /// Encounters in a run; the last is the boss.
    pub encounters: usize,
    /// Skills offered after a won encounter.
    pub offered: usize,
    /// A fight is called after this many ticks.
    pub max_ticks: u32,
    /// Milliseconds between ticks, by default.
    pub tick_ms: u64,
    /// Ticks a taunt lasts.
    pub taunt_ticks: u32,
    /// Ticks a unit defends (Brace).
    pub defend_ticks: u32,
    /// The shield pool Ward sets.
    pub shield: u32,
    /// Poison's damage each tick.
    pub poison_damage: u32,
    /// Ticks poison lasts.
    pub poison_ticks: u32,
    /// Ticks a stun lasts.
    pub stun_ticks: u32,
    /// Enraged: extra damage of the next attack, per target.
    pub enraged_bonus: u32,
    /// Execute reaches enemies at or below this % of max HP.
    pub execute_pct: u32,
    /// Revive brings a unit back with this % of max HP.
    pub revive_pct: u32,
}

/// Gambit's numbers.
pub const NUMBERS: Numbers = Numbers {
    slots: 3,
    conditions: 2,
    encounters: 6,
    offered: 3,
    max_ticks: 600,
    tick_ms: 500,
    taunt_ticks: 4,
    defend_ticks: 3,
    shield: 30,
    poison_damage: 5,
    poison_ticks: 4,
    stun_ticks: 2,
    enraged_bonus: 15,
    execute_pct: 25,
    revive_pct: 30,
};

/// The page's sections; `game` (the view's, when there is one) gives the skills.
pub fn sections(game: Option<&Value>) -> Vec<Section> {
    let n = NUMBERS;
    let mut sections = vec![
        Section::new(
            "Goal",
            [
                format!(
                    "A run (one player): win {} encounters in a row with your party of three \
                     (A Vanguard, B Mender, C Arcanist); the last is the Warlord. The run is \
                     lost when the whole party is knocked out, or when a fight reaches {} ticks.",
                    n.encounters, n.max_ticks
                ),
                format!(
                    "A duel (two players): both program a party in secret, then the parties \
                     fight once; the party left standing wins. Both down in the same tick, or \
                     {} ticks, is a draw.",
                    n.max_ticks
                ),
            ],
        ),
        Section::new(
            "Programming the party",
            [
                format!(
                    "Each character has {} rule slots. A rule is a skill it knows, up to {} \
                     conditions that must all hold (none: always), and a targeting mode (or \
                     the skill's own).",
                    n.slots, n.conditions
                ),
                "An idle character reads its rules from slot 1 down: the first rule whose \
                 conditions hold and whose skill finds a valid target fires; an empty slot or a \
                 rule without a target is passed over. A busy or stunned character does not \
                 choose. The \"why\" lines say what each rule did at the last choice."
                    .to_owned(),
                "Between fights, and while a run's fight is paused (p), Enter edits the \
                 selected rule. A duel cannot be paused, and each program stays hidden until \
                 both players are ready."
                    .to_owned(),
            ],
        ),
        Section::new(
            "A tick",
            [
                format!(
                    "The fight runs by itself, one tick at a time (every {} ms unless the \
                     battle was made faster or slower). A skill takes 1 to 4 ticks: queued in \
                     the tick it is chosen, executing after, landing when its ticks run out. \
                     Its targets are locked when it is queued (the → line shows them).",
                    n.tick_ms
                ),
                "What lands in one tick lands together: damage (halved if the target is \
                 Defending, then the Enraged bonus), healing, shields, statuses; then Disrupt \
                 and Concuss cancel actions still in progress. Ties go to A, B, C, then the \
                 enemies in their order."
                    .to_owned(),
            ],
        ),
        Section::new(
            "Conditions and targeting",
            [
                "Conditions: always; own HP or an ally's below 25, 50 or 75%; an enemy's HP \
                 below 25 or 50%; an ally knocked out or poisoned; an enemy taunting or \
                 acting; no shield left; more than 2 enemies."
                    .to_owned(),
                "Targeting: the skill's own, lowest HP, highest HP, first in order, lowest HP \
                 ignoring taunt, or itself."
                    .to_owned(),
            ],
        ),
        Section::new(
            "Statuses",
            [
                format!(
                    "• Taunting ({} ticks): enemies choosing a new single target by lowest or \
                     highest HP must pick the taunter.",
                    n.taunt_ticks
                ),
                format!(
                    "• Defending ({} ticks): damage taken is halved (rounded down), before \
                     shields.",
                    n.defend_ticks
                ),
                format!(
                    "• Shield: Ward sets a pool of {} that absorbs damage first.",
                    n.shield
                ),
                format!(
                    "• Poisoned: {} damage every tick for {} ticks, past shields and \
                     defending.",
                    n.poison_damage, n.poison_ticks
                ),
                format!(
                    "• Stunned ({} ticks): cannot choose; Concuss also cancels the action in \
                     progress.",
                    n.stun_ticks
                ),
                format!(
                    "• Enraged: the next attack deals +{} to each target.",
                    n.enraged_bonus
                ),
                format!(
                    "• Knocked out at 0 HP: out of the fight. Execute finishes an enemy at or \
                     below {}% of its HP; Revive brings an ally back with {}%.",
                    n.execute_pct, n.revive_pct
                ),
            ],
        ),
        Section::new(
            "Between encounters",
            [format!(
                "After a won encounter the party is healed in full and its statuses cleared, \
                 and one character may learn one of {} offered skills (1-3, then who learns \
                 it), or you skip (k).",
                n.offered
            )],
        ),
    ];
    let skills: Vec<String> = game
        .and_then(|g| g["skills"].as_array())
        .into_iter()
        .flatten()
        .map(|s| {
            let ticks = s["ticks"].as_u64().unwrap_or(0);
            let unit = if ticks == 1 { "tick" } else { "ticks" };
            format!(
                "• {} ({ticks} {unit}): {}",
                s["name"].as_str().unwrap_or("?"),
                s["text"].as_str().unwrap_or_default()
            )
        })
        .collect();
    if !skills.is_empty() {
        sections.push(Section::new("The skills in this battle", skills));
    }
    sections
}
