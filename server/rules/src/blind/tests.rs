//! Blind Bids rules, each named after the rule it checks (see `docs/rules/blind.md`).

use serde_json::{json, Value};

use super::play::{Action, Mood};
use super::state::{Phase, HOUSE_BIDS, PRIZES};
use super::Blind;
use crate::game::Game;
use crate::legal::Legal;
use crate::ruleset::{RuleError, Ruleset};
use crate::typed::{apply_json, Typed};
use crate::view::{to_view, Viewer};

/// A started battle from JSON options and setups, as the server starts one.
fn battle(options: Value, setups: &[Value], seed: u64) -> Blind {
    let mut typed = Typed::<Blind>::new(&options, seed).expect("valid options");
    for (seat, setup) in setups.iter().enumerate() {
        typed.setup(seat, Some(setup)).expect("valid setup");
    }
    typed.game().expect("every seat is set up").clone()
}

fn duel(seed: u64) -> Blind {
    battle(
        json!({"seats": 2, "rounds": 3}),
        &[json!({"hand": [1, 5, 9, 13]}), json!({"hand": [2, 4, 6]})],
        seed,
    )
}

fn bid(cards: &[u8]) -> Value {
    json!({"kind": "bid", "cards": cards})
}

/// What `viewer` sees of the game (without the log).
fn seen(b: &Blind, viewer: Viewer) -> Value {
    to_view(&b.view_all())
        .expect("views build")
        .project(viewer)
        .to_value()
}

#[test]
fn options_are_checked() {
    let refused = |options: Value, needle: &str| {
        let err = Typed::<Blind>::new(&options, 1).err().expect("refused");
        assert!(err.0.contains(needle), "{options}: {}", err.0);
    };
    refused(json!({"seats": 3}), "1 or 2 seats");
    refused(json!({"seats": 0}), "1 or 2 seats");
    refused(json!({"rounds": 0}), "1 to 9 rounds");
    refused(json!({"rounds": 10}), "1 to 9 rounds");
    refused(json!({"round": 3}), "unknown field `round`");
    let typed = Typed::<Blind>::new(&Value::Null, 1).expect("defaults");
    assert_eq!(typed.seat_count(), 2);
}

#[test]
fn setups_are_checked_and_default_to_the_low_cards() {
    let typed = Typed::<Blind>::new(&json!({"rounds": 3}), 1).expect("valid");
    let refused = |setup: Value, needle: &str| {
        let err = typed.check_setup(0, Some(&setup)).expect_err("refused");
        assert!(err.0.contains(needle), "{setup}: {}", err.0);
    };
    refused(json!({"hand": [1, 2]}), "3 to 6 cards; this one has 2");
    refused(json!({"hand": [1, 2, 3, 4, 5, 6, 7]}), "this one has 7");
    refused(json!({"hand": [1, 2, 14]}), "14 is not one");
    refused(json!({"hand": [0, 2, 3]}), "0 is not one");
    refused(json!({"hand": [4, 2, 4]}), "card 4 is in the hand twice");
    refused(json!({"cards": [1, 2, 3]}), "unknown field `cards`");
    refused(json!({"hand": [1, -2, 3]}), "invalid value");
    let b = battle(json!({"rounds": 3}), &[Value::Null, Value::Null], 1);
    assert_eq!(b.bidders[0].hand, [1, 2, 3, 4, 5]);
    let b = battle(json!({"rounds": 1}), &[Value::Null, Value::Null], 1);
    assert_eq!(b.bidders[0].hand, [1, 2], "capped at twice the rounds");
}

#[test]
fn both_seats_bid_at_the_same_time_in_any_order() {
    for first in [0, 1] {
        let mut b = duel(3);
        assert_eq!(b.to_act(), vec![0, 1]);
        for seat in [0, 1] {
            let prompt = b.prompt(seat).expect("awaited");
            assert_eq!(prompt.decision, "bid");
            assert!(prompt.text.contains("Round 1 of 3"), "{}", prompt.text);
        }
        let card = if first == 0 { 5 } else { 4 };
        apply_json(&mut b, first, &bid(&[card])).expect("a legal bid");
        assert_eq!(b.to_act(), vec![1 - first]);
        assert!(b.prompt(first).is_none());
        assert_eq!(b.next_tick(), None, "the reveal waits for both bids");
        let card = if first == 0 { 4 } else { 5 };
        apply_json(&mut b, 1 - first, &bid(&[card])).expect("a legal bid");
        assert!(b.to_act().is_empty());
        assert_eq!(b.next_tick(), Some(super::REVEAL_MS));
    }
}

#[test]
fn the_bid_is_an_open_decision_whose_bounds_keep_a_card_per_later_round() {
    let b = duel(1);
    let Legal::Open(open) = &b.legal(1)[0] else {
        panic!("the bid is open")
    };
    assert_eq!(open.kind(), "bid");
    let entry = serde_json::to_value(&b.legal(1)[0]).expect("serializes");
    assert_eq!(
        entry,
        json!({"kind": "bid", "cards": {"$choose": {"type": "array",
            "items": {"enum": [2, 4, 6]}, "minItems": 1, "maxItems": 1, "uniqueItems": true}}}),
        "seat 1 holds 3 cards for 3 rounds: one card now"
    );
    assert_eq!(b.max_bid(0), 2, "seat 0 holds 4 cards: it may bid 2");
    assert_eq!(
        b.prompt(1).map(|p| (p.min, p.max)),
        Some((Some(1), Some(1)))
    );
}

#[test]
fn bids_out_of_bounds_are_refused_and_change_nothing() {
    let mut b = duel(2);
    let before = (
        seen(&b, Viewer::Spectator),
        seen(&b, Viewer::Seat(0)),
        b.log.len(),
    );
    for (action, code) in [
        (bid(&[]), "bid 1 to 2 cards"),
        (bid(&[1, 5, 9]), "bid 1 to 2 cards"),
        (bid(&[2]), "card 2 is not in your hand"),
        (bid(&[5, 5]), "card 5 is not in your hand"),
        (
            json!({"kind": "bid", "cards": [1], "extra": 1}),
            "unknown field",
        ),
        (json!({"kind": "bid"}), "missing field"),
        (
            json!({"kind": "signal", "mood": "angry"}),
            "unknown variant",
        ),
    ] {
        let err = apply_json(&mut b, 0, &action).expect_err("refused");
        assert!(err.to_string().contains(code), "{action}: {err}");
        let now = (
            seen(&b, Viewer::Spectator),
            seen(&b, Viewer::Seat(0)),
            b.log.len(),
        );
        assert_eq!(now, before, "{action} changed the battle");
    }
    assert_eq!(
        apply_json(&mut b, 1, &bid(&[2, 4])),
        Err(RuleError::Illegal(
            "bid 1 to 1 cards; this bid has 2".into()
        ))
    );
}

#[test]
fn a_sealed_bid_is_seen_by_its_seat_alone_until_the_reveal() {
    let mut b = duel(4);
    apply_json(&mut b, 0, &bid(&[9, 13])).expect("legal");
    let mine = seen(&b, Viewer::Seat(0));
    assert_eq!(mine["seats"][0]["sealed"], json!([9, 13]));
    assert_eq!(mine["seats"][0]["hand"], json!([1, 5]));
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        let view = seen(&b, viewer);
        assert!(
            view["seats"][0].get("sealed").is_none(),
            "{viewer:?}: {view}"
        );
        assert!(view["seats"][0].get("hand").is_none(), "{viewer:?}: {view}");
        assert_eq!(view["seats"][0]["has_bid"], true);
        assert_eq!(view["seats"][0]["cards_left"], 2);
    }
    assert!(b.log.iter().all(|line| !line.contains("13")), "{:?}", b.log);
    apply_json(&mut b, 1, &bid(&[6])).expect("legal");
    b.advance().expect("the reveal is due");
    let spectator = seen(&b, Viewer::Spectator);
    assert_eq!(spectator["revealed"][0]["bids"], json!([[9, 13], [6]]));
    assert_eq!(spectator["revealed"][0]["winner"], 0);
    assert!(
        b.log.iter().any(|l| l.contains("Player 1 bid 9 + 13 = 22")),
        "{:?}",
        b.log
    );
    assert_eq!(b.round, 2);
    assert!(b.bidders.iter().all(|bidder| bidder.bid.is_none()));
}

#[test]
fn the_higher_sum_takes_the_prize_and_a_tie_gives_it_to_nobody() {
    let mut b = duel(5);
    let prize = u32::from(b.prize);
    apply_json(&mut b, 0, &bid(&[5])).expect("legal");
    apply_json(&mut b, 1, &bid(&[6])).expect("legal");
    b.advance().expect("due");
    assert_eq!([b.bidders[0].points, b.bidders[1].points], [0, prize]);
    apply_json(&mut b, 0, &bid(&[1])).expect("legal");
    apply_json(&mut b, 1, &bid(&[2])).expect("legal");
    b.advance().expect("due");
    let mut b = battle(
        json!({"rounds": 1}),
        &[json!({"hand": [3]}), json!({"hand": [3]})],
        5,
    );
    apply_json(&mut b, 0, &bid(&[3])).expect("legal");
    apply_json(&mut b, 1, &bid(&[3])).expect("legal");
    b.advance().expect("due");
    assert_eq!([b.bidders[0].points, b.bidders[1].points], [0, 0]);
    let outcome = b.outcome().expect("one round, over");
    assert!(outcome.winners.is_empty(), "a draw");
    assert!(outcome.summary.starts_with("A draw"), "{}", outcome.summary);
}

#[test]
fn a_signal_is_allowed_while_not_awaited_once_per_round() {
    let mut b = duel(6);
    apply_json(&mut b, 0, &bid(&[1])).expect("legal");
    assert!(!b.to_act().contains(&0));
    let legal = b.legal(0);
    assert_eq!(legal.len(), 2, "two signals, no bid: {legal:?}");
    let wary = json!({"kind": "signal", "mood": "wary"});
    apply_json(&mut b, 0, &wary).expect("a signal while not awaited");
    assert_eq!(b.bidders[0].signal, Some(Mood::Wary));
    assert_eq!(
        apply_json(&mut b, 0, &wary),
        Err(RuleError::Illegal(
            "you have already signalled this round".into()
        ))
    );
    assert!(b.legal(0).is_empty());
    apply_json(&mut b, 1, &bid(&[2])).expect("legal");
    let confident = json!({"kind": "signal", "mood": "confident"});
    apply_json(&mut b, 1, &confident).expect("a signal while the reveal is pending");
    b.advance().expect("due");
    assert_eq!(b.legal(0).len(), 3, "a new round: bid and two signals");
}

#[test]
fn a_seat_that_runs_out_of_time_bids_its_lowest_card() {
    let mut b = duel(7);
    assert!(matches!(b.timeout(0), Ok(())));
    assert_eq!(b.bidders[0].bid, Some(vec![1]));
    assert!(b.log.iter().any(|l| l == "Player 1 ran out of time."));
    assert_eq!(
        b.timeout(0),
        Err(RuleError::NotYourTurn(0)),
        "no longer awaited"
    );
    b.timeout(1).expect("awaited");
    assert_eq!(b.phase, Phase::Revealing);
    assert!(b.timeout(1).is_err());
}

#[test]
fn alone_against_the_house() {
    let mut b = battle(
        json!({"seats": 1, "rounds": 2}),
        &[json!({"hand": [7, 8, 9]})],
        8,
    );
    assert_eq!(b.to_act(), vec![0]);
    apply_json(&mut b, 0, &bid(&[8, 9])).expect("legal: 3 cards, one kept for round 2");
    assert_eq!(b.next_tick(), Some(super::REVEAL_MS));
    b.advance().expect("due");
    let house = b.revealed[0].house.expect("the House bids");
    assert!((HOUSE_BIDS.0..=HOUSE_BIDS.1).contains(&house));
    apply_json(&mut b, 0, &bid(&[7])).expect("legal");
    b.advance().expect("due");
    let outcome = b.outcome().expect("two rounds, over");
    let (mine, theirs) = (b.bidders[0].points, b.house.expect("solo"));
    assert_eq!(outcome.winners.is_empty(), mine <= theirs, "{outcome:?}");
    assert!(b.legal(0).is_empty() && b.to_act().is_empty());
}

#[test]
fn prizes_are_drawn_from_the_seed_and_replays_are_exact() {
    let a = duel(9);
    let b = duel(9);
    assert!((PRIZES.0..=PRIZES.1).contains(&a.prize));
    assert_eq!(seen(&a, Viewer::Spectator), seen(&b, Viewer::Spectator));
    let prizes: std::collections::HashSet<u8> = (0..50).map(|seed| duel(seed).prize).collect();
    assert!(prizes.len() > 3, "prizes vary with the seed: {prizes:?}");
}

#[test]
fn random_actions_are_always_accepted_and_every_battle_ends() {
    use rand::SeedableRng;
    for seed in 0..300 {
        let mut b = duel(seed);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..=<Blind as Game>::MAX_STEPS {
            if b.outcome().is_some() {
                break;
            }
            if b.next_tick().is_some() {
                b.advance().expect("due");
                continue;
            }
            let seat = b.to_act()[0];
            let action: Action = b.random_action(seat, &mut rng).expect("awaited");
            b.apply(seat, action.clone())
                .unwrap_or_else(|e| panic!("seed {seed}: {action:?} refused: {e}"));
        }
        assert!(b.outcome().is_some(), "seed {seed}: no end");
    }
}
