//! Numbers for the cards of the viewer's hand that stay put within a turn: a card keeps its
//! number when another is played (the hand shows 1, 3, 4 after card 2 was played), a card
//! drawn during the turn takes the next number not yet used, and each new turn numbers the
//! hand afresh from 1. The full-screen UI keeps one [`HandNumbers`] between frames; a
//! screen drawn without one numbers the hand by position.
//!
//! The hand is the one the view shows the viewer's seat (`game.sides[seat].hand` in synergy,
//! heroes and lore); a turn is told by the game's turn counter and whose turn it is.

use serde_json::Value;

use battle_client::ViewTracker;

/// The numbers given to the hand's cards this turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HandNumbers {
    /// The turn the numbers belong to (see [`turn_key`]).
    turn: Value,
    /// Each card's id and its number, in the order they were given.
    numbers: Vec<(Value, usize)>,
    /// The highest number given this turn.
    last: usize,
}

/// The viewer's hand in `view`, when the view shows one.
pub fn hand_of(view: &Value, seat: Option<usize>) -> Option<&Vec<Value>> {
    view["game"]["sides"][seat?]["hand"].as_array()
}

/// What tells one turn from the next: the turn (or round) counter, whose turn it is and the
/// phase before the first turn (a mulligan changes the hand before play starts).
fn turn_key(view: &Value) -> Value {
    let game = &view["game"];
    let counter = [&game["turn"], &game["round"]]
        .into_iter()
        .find(|v| !v.is_null())
        .cloned()
        .unwrap_or(Value::Null);
    let setup = game["phase"] == "mulligan" || game["phase"] == "choosing";
    Value::Array(vec![counter, game["active"].clone(), Value::Bool(setup)])
}

impl HandNumbers {
    /// Follow a new view: a new turn numbers the hand from 1; within a turn the cards that
    /// stay keep their numbers and new ones take the next.
    pub fn sync(&mut self, tracker: &ViewTracker) {
        let Some(view) = tracker.view() else {
            return;
        };
        let Some(hand) = hand_of(view, tracker.seat()) else {
            *self = HandNumbers::default();
            return;
        };
        let turn = turn_key(view);
        if turn != self.turn {
            *self = HandNumbers {
                turn,
                ..HandNumbers::default()
            };
        }
        self.numbers
            .retain(|(id, _)| hand.iter().any(|card| card["id"] == *id));
        for card in hand {
            if !self.numbers.iter().any(|(id, _)| *id == card["id"]) {
                self.last += 1;
                self.numbers.push((card["id"].clone(), self.last));
            }
        }
    }

    /// The number of the card with `id`, if it has one.
    pub fn number(&self, id: &Value) -> Option<usize> {
        self.numbers
            .iter()
            .find(|(card, _)| card == id)
            .map(|&(_, n)| n)
    }
}

/// The cards of `hand` with their numbers, in hand order: from `numbers` when it numbered
/// this hand, else by position from 1.
pub fn numbered<'a>(hand: &'a [Value], numbers: Option<&HandNumbers>) -> Vec<(usize, &'a Value)> {
    hand.iter()
        .enumerate()
        .map(|(i, card)| {
            let n = numbers.and_then(|n| n.number(&card["id"])).unwrap_or(i + 1);
            (n, card)
        })
        .collect()
}

/// The 1-based position in `hand` of the card numbered `n`, or why there is none.
pub fn position(hand: &[Value], numbers: Option<&HandNumbers>, n: usize) -> Result<usize, String> {
    numbered(hand, numbers)
        .iter()
        .position(|(number, _)| *number == n)
        .map(|i| i + 1)
        .ok_or_else(|| {
            let held: Vec<String> = numbered(hand, numbers)
                .iter()
                .map(|(number, _)| number.to_string())
                .collect();
            match held.as_slice() {
                [] => format!("there is no card {n}: your hand is empty"),
                _ => format!("there is no card {n}: your hand holds {}", held.join(", ")),
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tracker(round: u64, ids: &[u64]) -> ViewTracker {
        let hand: Vec<Value> = ids.iter().map(|id| json!({"id": id})).collect();
        ViewTracker::with_view(
            "b",
            1,
            json!({"seat": 0, "game": {"round": round, "active": 0,
                "sides": [{"hand": hand}, {}]}}),
        )
    }

    #[test]
    fn numbers_stay_within_a_turn_and_start_again_the_next() {
        let mut numbers = HandNumbers::default();
        numbers.sync(&tracker(1, &[4, 9, 7]));
        numbers.sync(&tracker(1, &[4, 7]));
        let hand = [json!({"id": 4}), json!({"id": 7})];
        let given: Vec<usize> = numbered(&hand, Some(&numbers))
            .iter()
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(
            given,
            vec![1, 3],
            "card 7 keeps its number after 9 was played"
        );
        numbers.sync(&tracker(1, &[4, 7, 12]));
        assert_eq!(
            numbers.number(&json!(12)),
            Some(4),
            "a drawn card takes the next"
        );
        assert_eq!(position(&hand, Some(&numbers), 3), Ok(2));
        assert_eq!(
            position(&hand, Some(&numbers), 2),
            Err("there is no card 2: your hand holds 1, 3".to_owned())
        );
        numbers.sync(&tracker(2, &[7, 12, 15]));
        assert_eq!(
            numbers.number(&json!(7)),
            Some(1),
            "a new turn numbers afresh"
        );
        assert_eq!(numbers.number(&json!(15)), Some(3));
    }
}
