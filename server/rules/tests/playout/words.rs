//! The words of every battle, checked at every step of every playout, for every viewer:
//! - no line and no outcome speaks to "you" (the log is written for whoever reads it, a
//!   spectator included; only prompts, which the awaited seat alone reads, may);
//! - no internal identifier: no snake_case word, no `kind:number`, no id such as `grunt1`,
//!   no "seat N";
//! - a seat that was given a name is never called "Player N", and its name is used;
//! - every change of a count the game reports (HP and block, score, shields, armor and
//!   gold, AP and Guard, lore, a character's willpower left), read off the spectator's view
//!   before and after each step, is stated by that step's lines with where it went from
//!   and to: some new line holds "(A to ..." and some "... to B)".

use serde_json::Value;

/// What a ruleset's view reports, by a key that stays the same for the same count.
pub type Counts = Vec<(String, i64)>;

/// The counts of the spectator's `view` of a battle of ruleset `id` whose changes the log
/// must state.
pub fn counts(id: &str, view: &Value) -> Counts {
    let mut out = Counts::new();
    let int = |v: &Value| v.as_i64();
    let list = |v: &Value| v.as_array().cloned().unwrap_or_default();
    match id {
        "synergy" => {
            for (i, side) in list(&view["sides"]).iter().enumerate() {
                for key in ["hp", "block", "score"] {
                    if let Some(n) = int(&side[key]) {
                        out.push((format!("{key} of side {i}"), n));
                    }
                }
            }
        }
        "gambit" => {
            let encounter = int(&view["encounter"]).unwrap_or(0);
            for (team, t) in list(&view["teams"]).iter().enumerate() {
                for u in list(&t["units"]) {
                    // A party lasts the run; enemies are new each encounter.
                    let of = if team == 0 { 0 } else { encounter };
                    let who = format!("{team} {} {of}", u["id"]);
                    if let Some(hp) = int(&u["hp"]) {
                        out.push((format!("hp of {who}"), hp));
                    }
                }
            }
        }
        "heroes" => {
            for (i, side) in list(&view["sides"]).iter().enumerate() {
                if let Some(health) = int(&side["health"]) {
                    out.push((format!("health of hero {i}"), health.max(0)));
                }
                for key in ["armor", "gold", "max_health"] {
                    if let Some(n) = int(&side[key]) {
                        out.push((format!("{key} of hero {i}"), n));
                    }
                }
            }
            for m in list(&view["minions"]) {
                if let (Some(health), Some(damage)) = (int(&m["health"]), int(&m["damage"])) {
                    out.push((format!("health of minion {}", m["id"]), health));
                    out.push((format!("damage of minion {}", m["id"]), damage));
                    out.push((
                        format!("left of minion {}", m["id"]),
                        (health - damage).max(0),
                    ));
                }
            }
        }
        "roguelite" => {
            let battle = int(&view["battle"]).unwrap_or(0);
            let settled = matches!(view["stage"].as_str(), Some("reward" | "over"));
            for (who, of) in [("player", 0), ("enemy", battle)] {
                for key in ["hp", "ap"] {
                    if let Some(n) = int(&view[who][key]) {
                        out.push((format!("{key} of {who} {of}"), n));
                    }
                }
                // Guard and statuses go at once when a battle is won.
                if !settled {
                    if let Some(n) = int(&view[who]["guard"]) {
                        out.push((format!("guard of {who} {of}"), n));
                    }
                }
            }
        }
        "lore" => {
            for (i, side) in list(&view["sides"]).iter().enumerate() {
                if let Some(n) = int(&side["lore"]) {
                    out.push((format!("lore of {i}"), n));
                }
                for c in list(&side["play"]) {
                    if let (Some(will), Some(damage)) = (int(&c["willpower"]), int(&c["damage"])) {
                        out.push((format!("damage of card {}", c["id"]), damage));
                        out.push((format!("left of card {}", c["id"]), (will - damage).max(0)));
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// The changes from `before` to `now` the new `lines` must state. A minion's or a card's
/// health left is stated when its damage changed (a lasting effect that ends moves it by
/// itself); a count that appeared or went away is no change.
pub fn check_counts(ctx: &str, before: &Counts, now: &Counts, lines: &[String]) {
    for (key, b) in now {
        let Some((_, a)) = before.iter().find(|(k, _)| k == key) else {
            continue;
        };
        if key.starts_with("damage of ") {
            // Only what tells whether the health left moved by damage.
            continue;
        }
        if a == b {
            continue;
        }
        if let Some(of) = key.strip_prefix("left of ") {
            let damage = format!("damage of {of}");
            let changed = |counts: &Counts| counts.iter().find(|(k, _)| *k == damage).map(|c| c.1);
            if changed(before) == changed(now) {
                continue;
            }
        }
        let from = format!("({a} to ");
        let to = format!(" to {b})");
        assert!(
            lines.iter().any(|l| l.contains(&from)) && lines.iter().any(|l| l.contains(&to)),
            "{ctx}: {key} went from {a} to {b} and no line says so: {lines:?}"
        );
    }
}

/// The words of `text` (a line or an outcome) are for anyone who reads them: no second
/// person, no internal identifier, no "Player N" for a seat that has a name.
pub fn check_line(ctx: &str, text: &str, named: bool) {
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, word) in words.iter().enumerate() {
        let bare = word.trim_matches(|c| c == ':' || c == '\'');
        let lower = bare.to_lowercase();
        assert!(
            !matches!(
                lower.as_str(),
                "you" | "your" | "yours" | "yourself" | "you're"
            ),
            "{ctx}: second person in {text:?}"
        );
        assert!(
            !is_snake(bare),
            "{ctx}: the identifier {bare:?} in {text:?}"
        );
        assert!(
            !is_kind_number(bare),
            "{ctx}: the identifier {bare:?} in {text:?}"
        );
        assert!(!is_id(bare), "{ctx}: the identifier {bare:?} in {text:?}");
        let next_is_number = words
            .get(i + 1)
            .is_some_and(|n| n.trim_end_matches(':').parse::<u32>().is_ok());
        assert!(
            !(lower == "seat" && next_is_number),
            "{ctx}: a seat number in {text:?}"
        );
    }
    if named {
        // "ada (Player 1)": a name two seats share is told apart by the seat's number.
        let called = text.match_indices("Player ").any(|(at, _)| {
            let number = text[at + 7..].starts_with(|c: char| c.is_ascii_digit());
            number && !text[..at].ends_with('(')
        });
        assert!(!called, "{ctx}: a named seat called Player N in {text:?}");
    }
}

/// `enemy_acting`: lower-case letters joined by an underscore.
fn is_snake(word: &str) -> bool {
    let parts: Vec<&str> = word.split('_').collect();
    parts.len() > 1
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// `minion:48`, `hero:1`.
fn is_kind_number(word: &str) -> bool {
    word.split_once(':').is_some_and(|(kind, n)| {
        !kind.is_empty()
            && kind.chars().all(|c| c.is_ascii_lowercase())
            && !n.is_empty()
            && n.chars().all(|c| c.is_ascii_digit())
    })
}

/// `grunt1`: a lower-case word run into a number (a multiplier such as `x1` aside).
fn is_id(word: &str) -> bool {
    let letters = word.chars().take_while(|c| c.is_ascii_lowercase()).count();
    letters > 0
        && letters < word.len()
        && word[letters..].chars().all(|c| c.is_ascii_digit())
        && &word[..letters] != "x"
}

#[test]
fn the_checks_catch_what_they_look_for() {
    for bad in [
        "You play Slash.",
        "4 damage to you.",
        "Your phase 1 begins.",
        "Arcanist's rule 3 is now Disrupt if enemy_acting.",
        "Ana attacks minion:48 for 3.",
        "Grunt (grunt1) begins Strike.",
        "You lost: seat 1 won.",
    ] {
        let caught = std::panic::catch_unwind(|| check_line("test", bad, false));
        assert!(caught.is_err(), "{bad}");
    }
    let caught = std::panic::catch_unwind(|| check_line("test", "Player 2 wins.", true));
    assert!(caught.is_err(), "a named seat called Player N");
    for good in [
        "Ana plays Null Pierce: Ben takes 5 damage (45 to 40); +30 score (45 to 75): 10 x1.5 \
         Void synergy = 15, x2 full spectrum = 30.",
        "Tick 2: Grunt 1's Strike on Ana's Vanguard: 12 damage (120 to 108).",
        "Round 1 of 40: Player 1's turn, 3 energy.",
        "Ana's Hedge Witch quests: +1 lore (3 to 4) for Ana.",
    ] {
        check_line("test", good, false);
    }
    let before = vec![("hp of side 1".to_owned(), 60)];
    let now = vec![("hp of side 1".to_owned(), 53)];
    let said = ["Ana plays Ember Strike: Ben takes 7 damage (60 to 53).".to_owned()];
    check_counts("test", &before, &now, &said);
    let silent = ["Ana plays Ember Strike.".to_owned()];
    let caught = std::panic::catch_unwind(|| check_counts("test", &before, &now, &silent));
    assert!(caught.is_err(), "an unstated change");
}
