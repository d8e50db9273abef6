//! The words every ruleset writes with, one helper per concept, so that the games cannot
//! drift apart: how a person is named ([`Names`]), how a change of an amount is stated
//! ([`damage`], [`heal`], [`gain`]), how a thing someone owns is named ([`owned`]), and how
//! counts and lists read ([`count`], [`and_list`]).
//!
//! Log lines and outcomes are written in the third person for every reader ("Ana plays
//! Slash: 6 damage (20 to 14)"), so the line a player, the opponent and a spectator read is
//! the same true sentence. Only prompts, which only the awaited seat reads, say "you".

use battle_protocol::Seat;

/// Most characters a person's name keeps.
pub const NAME_MAX: usize = 24;

/// The name a person gave (in `hello`) as the server uses it: control characters removed,
/// trimmed, at most [`NAME_MAX`] characters. `None` when nothing is left.
pub fn clean_name(raw: &str) -> Option<String> {
    let kept: String = raw.chars().filter(|c| !c.is_control()).collect();
    let name: String = kept.trim().chars().take(NAME_MAX).collect();
    let name = name.trim_end();
    (!name.is_empty()).then(|| name.to_owned())
}

/// The name of a seat nobody named: "Player 1" for seat 0 (seats are 1-based in words).
pub fn default_name(seat: Seat) -> String {
    format!("Player {}", seat + 1)
}

/// How every text of one battle names its seats: the name each person gave, a bot's name
/// from the ruleset, or "Player N"; never two seats alike. Built once when the battle
/// starts, from what the input log records, so a replay writes the same words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// What each seat was given (a person's cleaned name or a bot's), `None`: nothing.
    given: Vec<Option<String>>,
    /// The name each seat is shown by.
    shown: Vec<String>,
}

impl Names {
    /// The names of `given.len()` seats. A seat given nothing is "Player N". When a seat's
    /// given name reads as another seat's name (letter case aside; an unnamed seat's name
    /// being its "Player N"), it gets its own number after it: "ada (Player 1)".
    pub fn new(given: Vec<Option<String>>) -> Names {
        let plain: Vec<String> = given
            .iter()
            .enumerate()
            .map(|(seat, name)| name.clone().unwrap_or_else(|| default_name(seat)))
            .collect();
        let key = |name: &str| name.to_lowercase();
        let shown = plain
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                let clash = plain
                    .iter()
                    .enumerate()
                    .any(|(other, them)| other != seat && key(them) == key(name));
                if clash && given[seat].is_some() {
                    format!("{name} ({})", default_name(seat))
                } else {
                    name.clone()
                }
            })
            .collect();
        Names { given, shown }
    }

    /// "Player 1", "Player 2", ... for `seats` seats.
    pub fn defaults(seats: usize) -> Names {
        Names::new(vec![None; seats])
    }

    /// How many seats are named.
    pub fn len(&self) -> usize {
        self.shown.len()
    }

    /// Whether there are no seats.
    pub fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }

    /// The name `seat` is shown by ("Player N" for a seat beyond the list).
    pub fn of(&self, seat: Seat) -> String {
        self.shown
            .get(seat)
            .cloned()
            .unwrap_or_else(|| default_name(seat))
    }

    /// "Ana's", for what `seat` owns.
    pub fn possessive(&self, seat: Seat) -> String {
        possessive(&self.of(seat))
    }

    /// Every seat's name, in seat order.
    pub fn all(&self) -> &[String] {
        &self.shown
    }

    /// What `seat` was given: a person's name or a bot's (`None`: it is "Player N").
    pub fn given(&self, seat: Seat) -> Option<&str> {
        self.given.get(seat).and_then(Option::as_deref)
    }
}

/// "Ana's" (a name ending in s too: "Ross's").
pub fn possessive(name: &str) -> String {
    format!("{name}'s")
}

/// A thing someone owns: "Ana's Vanguard".
pub fn owned(owner: &str, thing: &str) -> String {
    format!("{}'s {thing}", owner)
}

/// Where a count went: "(20 to 16)". Every change the log states ends with it.
pub fn span(before: impl std::fmt::Display, after: impl std::fmt::Display) -> String {
    format!("({before} to {after})")
}

/// Damage and the health it left: "4 damage (20 to 16)". `amount` is what was dealt; when
/// something absorbed part of it the health moves by less, and the caller says what did.
pub fn damage(amount: u32, before: u32, after: u32) -> String {
    format!("{amount} damage {}", span(before, after))
}

/// Healing and the health it left: "heals 4 (16 to 20)". `amount` is what the health rose
/// by.
pub fn heal(amount: u32, before: u32, after: u32) -> String {
    format!("heals {amount} {}", span(before, after))
}

/// A change of any other count: "+3 lore (5 to 8)", "-2 strength (4 to 2)".
pub fn gain(before: i64, after: i64, what: &str) -> String {
    let sign = if after >= before { "+" } else { "-" };
    format!(
        "{sign}{} {what} {}",
        after.abs_diff(before),
        span(before, after)
    )
}

/// [`gain`] when the count moved from `before` to `after`, `None` when it did not.
pub fn changed(before: impl Into<i64>, after: impl Into<i64>, what: &str) -> Option<String> {
    let (before, after) = (before.into(), after.into());
    (before != after).then(|| gain(before, after, what))
}

/// A health change stated the way every ruleset states it: [`damage`] when it fell,
/// [`heal`] when it rose, "no change (20)" when it did not move.
pub fn health(before: u32, after: u32) -> String {
    match after.cmp(&before) {
        std::cmp::Ordering::Less => damage(before - after, before, after),
        std::cmp::Ordering::Greater => heal(after - before, before, after),
        std::cmp::Ordering::Equal => format!("no change ({before})"),
    }
}

/// "" for 1, "s" otherwise.
pub fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// "1 card", "3 cards": `n` and `word`, made plural with an "s" unless `n` is 1.
pub fn count(n: u32, word: &str) -> String {
    format!("{n} {word}{}", plural(n))
}

/// "A", "A and B", "A, B and C"; "nothing" for none.
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => "nothing".to_owned(),
        [one] => one.as_ref().to_owned(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned_trimmed_and_cut() {
        assert_eq!(clean_name("  Ana  ").as_deref(), Some("Ana"));
        assert_eq!(clean_name("A\u{7}na\n").as_deref(), Some("Ana"));
        assert_eq!(clean_name(" \t "), None);
        assert_eq!(clean_name(""), None);
        let long = "x".repeat(40);
        assert_eq!(clean_name(&long).map(|n| n.chars().count()), Some(NAME_MAX));
        assert_eq!(
            clean_name("Éléonore de la Tour d'Auvergne").as_deref(),
            Some("Éléonore de la Tour d'Au"),
            "cut at 24 characters, not bytes"
        );
        assert_eq!(
            clean_name("abcdefghijklmnopqrstuvw yz").as_deref(),
            Some("abcdefghijklmnopqrstuvw")
        );
    }

    #[test]
    fn seats_without_a_name_are_players_counted_from_one() {
        let names = Names::defaults(2);
        assert_eq!(names.all(), ["Player 1", "Player 2"]);
        assert_eq!(names.of(1), "Player 2");
        assert_eq!(
            names.of(5),
            "Player 6",
            "beyond the list still reads as a player"
        );
        assert_eq!(names.possessive(0), "Player 1's");
        assert_eq!(names.given(0), None);
        let named = Names::new(vec![Some("Ana".into()), None]);
        assert_eq!(named.all(), ["Ana", "Player 2"]);
        assert_eq!(named.given(0), Some("Ana"));
    }

    #[test]
    fn no_two_seats_read_alike() {
        let twins = Names::new(vec![Some("ada".into()), Some("Ada".into())]);
        assert_eq!(twins.all(), ["ada (Player 1)", "Ada (Player 2)"]);
        let usurper = Names::new(vec![Some("Player 2".into()), None]);
        assert_eq!(usurper.all(), ["Player 2 (Player 1)", "Player 2"]);
        let bot = Names::new(vec![None, Some("Training Automaton".into())]);
        assert_eq!(bot.all(), ["Player 1", "Training Automaton"]);
    }

    #[test]
    fn amounts_say_how_much_and_from_what_to_what() {
        assert_eq!(span(20, 16), "(20 to 16)");
        assert_eq!(damage(4, 20, 16), "4 damage (20 to 16)");
        assert_eq!(damage(7, 60, 57), "7 damage (60 to 57)");
        assert_eq!(heal(4, 16, 20), "heals 4 (16 to 20)");
        assert_eq!(health(20, 16), "4 damage (20 to 16)");
        assert_eq!(health(16, 20), "heals 4 (16 to 20)");
        assert_eq!(health(20, 20), "no change (20)");
        assert_eq!(gain(5, 8, "lore"), "+3 lore (5 to 8)");
        assert_eq!(gain(4, 2, "strength"), "-2 strength (4 to 2)");
        assert_eq!(gain(0, 0, "score"), "+0 score (0 to 0)");
        assert_eq!(
            changed(2u32, 5u32, "gold"),
            Some("+3 gold (2 to 5)".to_owned())
        );
        assert_eq!(changed(-1i32, -1i32, "armor"), None);
    }

    #[test]
    fn counts_lists_and_owners_read_as_english() {
        assert_eq!(count(1, "card"), "1 card");
        assert_eq!(count(0, "card"), "0 cards");
        assert_eq!(count(3, "card"), "3 cards");
        assert_eq!(and_list::<&str>(&[]), "nothing");
        assert_eq!(and_list(&["A"]), "A");
        assert_eq!(and_list(&["A", "B"]), "A and B");
        assert_eq!(and_list(&["A", "B", "C"]), "A, B and C");
        assert_eq!(owned("Ana", "Vanguard"), "Ana's Vanguard");
        assert_eq!(possessive("Ross"), "Ross's");
    }
}
