//! The game's cast as data: the party's three characters with their starting skills and
//! starting programs, the enemies with their programs, and the six encounters.

use super::rules::{Condition as C, RuleDef};
use super::skills::Mode;

/// A character or enemy type.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// Unit id (players: A, B, C; enemies: a lower-case name, which orders ties).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Max HP.
    pub max_hp: u32,
    /// Skills it knows from the start.
    pub skills: &'static [&'static str],
    /// Its program (for enemies, fixed; for characters, the starting one).
    pub rules: &'static [RuleDef],
}

const fn rule(skill: &'static str, conditions: &'static [C]) -> RuleDef {
    RuleDef {
        skill,
        conditions,
        target: None,
    }
}

/// The party, in tie-break order (A, B, C).
pub const PARTY: [Kind; 3] = [
    Kind {
        id: "A",
        name: "Vanguard",
        max_hp: 120,
        skills: &["strike", "taunt", "brace"],
        rules: &[
            rule("taunt", &[C::Always]),
            rule("brace", &[C::SelfHpBelow25]),
            rule("strike", &[C::Always]),
        ],
    },
    Kind {
        id: "B",
        name: "Mender",
        max_hp: 90,
        skills: &["mend", "ward", "strike"],
        rules: &[
            rule("mend", &[C::AllyHpBelow75]),
            rule("ward", &[C::AllyHpBelow50]),
            rule("strike", &[C::Always]),
        ],
    },
    Kind {
        id: "C",
        name: "Arcanist",
        max_hp: 80,
        skills: &["arc_bolt", "venom_dart", "disrupt"],
        rules: &[
            rule("venom_dart", &[C::Always]),
            rule("arc_bolt", &[C::Always]),
        ],
    },
];

/// The second party in PvP: the same characters under ids D, E, F.
pub const PARTY_2_IDS: [&str; 3] = ["D", "E", "F"];

/// Enemy types.
pub const GRUNT: Kind = Kind {
    id: "grunt",
    name: "Grunt",
    max_hp: 60,
    skills: &["strike"],
    rules: &[rule("strike", &[C::Always])],
};

/// Heavy Slash on a taunting target, else Strike (spec: working notes).
pub const BRUTE: Kind = Kind {
    id: "brute",
    name: "Brute",
    max_hp: 110,
    skills: &["heavy_slash", "strike"],
    rules: &[
        rule("heavy_slash", &[C::EnemyTaunting]),
        rule("strike", &[C::Always]),
    ],
};

/// Heals its team, and attacks with Smite, which ignores taunt (spec: "Healer ignores taunt
/// entirely").
pub const HEALER: Kind = Kind {
    id: "healer",
    name: "Healer",
    max_hp: 70,
    skills: &["mend", "smite"],
    rules: &[
        rule("mend", &[C::AllyHpBelow75]),
        rule("smite", &[C::Always]),
    ],
};

/// Fixed targeting: always the first standing character, A first (spec: working notes).
pub const SHAMAN: Kind = Kind {
    id: "shaman",
    name: "Shaman",
    max_hp: 80,
    skills: &["venom_dart", "arc_bolt"],
    rules: &[
        RuleDef {
            skill: "venom_dart",
            conditions: &[C::Always],
            target: Some(Mode::First),
        },
        RuleDef {
            skill: "arc_bolt",
            conditions: &[C::Always],
            target: Some(Mode::First),
        },
    ],
};

/// The boss: Ground Slam while more than two characters stand (spec: working notes).
pub const WARLORD: Kind = Kind {
    id: "warlord",
    name: "Warlord",
    max_hp: 560,
    skills: &["ground_slam", "rage", "heavy_slash"],
    rules: &[
        rule("ground_slam", &[C::MoreThan2Enemies]),
        rule("rage", &[C::SelfHpBelow50]),
        rule("heavy_slash", &[C::Always]),
    ],
};

/// One enemy of an encounter: its type, its id (unique in the encounter) and the name
/// people read (unique in the encounter too: two Grunts are Grunt 1 and Grunt 2).
pub type Foe = (Kind, &'static str, &'static str);

/// The six encounters; the sixth is the boss.
pub const ENCOUNTERS: [&[Foe]; 6] = [
    &[(GRUNT, "grunt1", "Grunt 1"), (GRUNT, "grunt2", "Grunt 2")],
    &[(BRUTE, "brute", "Brute"), (GRUNT, "grunt", "Grunt")],
    &[(BRUTE, "brute", "Brute"), (HEALER, "healer", "Healer")],
    &[
        (GRUNT, "grunt1", "Grunt 1"),
        (GRUNT, "grunt2", "Grunt 2"),
        (SHAMAN, "shaman", "Shaman"),
    ],
    &[
        (BRUTE, "brute", "Brute"),
        (HEALER, "healer", "Healer"),
        (SHAMAN, "shaman", "Shaman"),
    ],
    &[(WARLORD, "warlord", "Warlord")],
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gambit::skills::{find, OFFERING_POOL};

    #[test]
    fn content_names_real_skills_and_starting_skills_are_never_offered() {
        let kinds = PARTY
            .iter()
            .chain([&GRUNT, &BRUTE, &HEALER, &SHAMAN, &WARLORD]);
        for kind in kinds {
            assert!(kind.rules.len() <= super::super::rules::SLOTS);
            for id in kind.skills {
                assert!(find(id).is_some(), "{}: {id}", kind.id);
            }
            for rule in kind.rules {
                assert!(
                    kind.skills.contains(&rule.skill),
                    "{}: {}",
                    kind.id,
                    rule.skill
                );
            }
        }
        for character in PARTY {
            for id in character.skills {
                assert!(!OFFERING_POOL.contains(id), "starting skill {id} offered");
            }
        }
        for encounter in ENCOUNTERS {
            let mut names: Vec<&str> = encounter.iter().map(|(_, _, name)| *name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), encounter.len(), "enemies read apart");
            for (kind, _, name) in encounter.iter() {
                assert!(name.starts_with(kind.name), "{name} is a {}", kind.name);
            }
            let mut ids: Vec<&str> = encounter.iter().map(|(_, id, _)| *id).collect();
            let sorted = {
                let mut s = ids.clone();
                s.sort_unstable();
                s
            };
            assert_eq!(ids, sorted, "enemies are listed in id order");
            ids.dedup();
            assert_eq!(ids.len(), encounter.len());
        }
    }
}
