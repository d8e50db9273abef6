//! Tests of the pools: who meets whom and in which order, pools kept apart by their options,
//! gone waiters never matched, removal, and deadlines.

use std::time::Duration;

use serde_json::json;

use super::*;

fn key(ruleset: &str, options: Value) -> PoolKey {
    PoolKey {
        ruleset: ruleset.into(),
        options,
    }
}

fn pvp() -> PoolKey {
    key("synergy", json!({"mode": "pvp"}))
}

fn conn(n: u64) -> ConnId {
    ConnId(n)
}

/// A waiter's item: its connection number, and whether it is still connected.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Item {
    n: u64,
    alive: bool,
}

fn item(n: u64) -> Item {
    Item { n, alive: true }
}

fn alive(item: &Item) -> bool {
    item.alive
}

fn numbers(items: &[Item]) -> Vec<u64> {
    items.iter().map(|i| i.n).collect()
}

#[test]
fn two_waiters_meet_in_arrival_order() {
    let mut pools = Pools::default();
    let first = pools
        .queue(conn(1), pvp(), 2, None, item(1), alive)
        .expect("new");
    assert_eq!(first.waiting, 1);
    assert!(first.matched.is_none(), "alone, nobody to meet");
    assert!(pools.contains(conn(1)));
    let second = pools
        .queue(conn(2), pvp(), 2, None, item(2), alive)
        .expect("new");
    assert_eq!(second.waiting, 2, "this one included");
    let matched = second.matched.expect("two seats, two waiters");
    assert_eq!(numbers(&matched), [1, 2], "seats go in arrival order");
    assert!(pools.is_empty(), "the matched leave their pool");
}

#[test]
fn a_battle_with_one_seat_for_people_matches_at_once() {
    let mut pools = Pools::default();
    let queued = pools
        .queue(
            conn(1),
            key("roguelite", Value::Null),
            1,
            None,
            item(1),
            alive,
        )
        .expect("new");
    assert_eq!(queued.waiting, 1);
    assert_eq!(numbers(&queued.matched.expect("one seat")), [1]);
    assert!(pools.is_empty());
}

#[test]
fn three_seats_wait_for_three_and_leave_the_fourth_waiting() {
    let mut pools = Pools::default();
    let three = key("party", json!({"size": 3}));
    for n in 1..=2 {
        let queued = pools
            .queue(conn(n), three.clone(), 3, None, item(n), alive)
            .expect("new");
        assert_eq!(queued.waiting as u64, n);
        assert!(queued.matched.is_none());
    }
    let third = pools
        .queue(conn(3), three.clone(), 3, None, item(3), alive)
        .expect("new");
    assert_eq!(numbers(&third.matched.expect("full")), [1, 2, 3]);
    let fourth = pools
        .queue(conn(4), three, 3, None, item(4), alive)
        .expect("new");
    assert_eq!(fourth.waiting, 1, "a new pool for the next battle");
    assert!(fourth.matched.is_none());
    assert_eq!(pools.len(), 1);
}

#[test]
fn different_options_or_rulesets_never_meet() {
    let mut pools = Pools::default();
    let slow = key("gambit", json!({"mode": "pvp", "tick_ms": 500}));
    let fast = key("gambit", json!({"mode": "pvp", "tick_ms": 100}));
    let other = key("heroes", json!({"mode": "pvp", "tick_ms": 500}));
    for (n, key) in [(1, slow.clone()), (2, fast), (3, other)] {
        let queued = pools
            .queue(conn(n), key, 2, None, item(n), alive)
            .expect("new");
        assert_eq!(queued.waiting, 1, "waiter {n} is alone in its pool");
        assert!(queued.matched.is_none());
    }
    // Options are compared as JSON values: the order of members does not matter.
    let same = key("gambit", json!({"tick_ms": 500, "mode": "pvp"}));
    let queued = pools
        .queue(conn(4), same, 2, None, item(4), alive)
        .expect("new");
    assert_eq!(numbers(&queued.matched.expect("the same options")), [1, 4]);
    assert_eq!(pools.len(), 2);
}

#[test]
fn a_second_queue_from_the_same_connection_changes_nothing() {
    let mut pools = Pools::default();
    pools
        .queue(conn(1), pvp(), 2, None, item(1), alive)
        .expect("new");
    let again = pools.queue(conn(1), pvp(), 2, None, item(1), alive);
    assert!(matches!(again, Err(AlreadyQueued)));
    let elsewhere = pools.queue(conn(1), key("lore", Value::Null), 2, None, item(1), alive);
    assert!(
        matches!(elsewhere, Err(AlreadyQueued)),
        "one pool at a time"
    );
    assert_eq!(pools.len(), 1);
}

#[test]
fn gone_waiters_are_never_matched_nor_counted() {
    let mut pools = Pools::default();
    let gone = Item { n: 1, alive: false };
    pools
        .queue(conn(1), pvp(), 2, None, gone, alive)
        .expect("new");
    let second = pools
        .queue(conn(2), pvp(), 2, None, item(2), alive)
        .expect("new");
    assert_eq!(second.waiting, 1, "the closed one is not counted");
    assert!(second.matched.is_none(), "and never matched");
    assert!(!pools.contains(conn(1)), "it is forgotten");
    let third = pools
        .queue(conn(3), pvp(), 2, None, item(3), alive)
        .expect("new");
    assert_eq!(numbers(&third.matched.expect("two live waiters")), [2, 3]);
}

#[test]
fn removed_waiters_leave_and_may_queue_again() {
    let mut pools = Pools::default();
    pools
        .queue(conn(1), pvp(), 2, None, item(1), alive)
        .expect("new");
    assert_eq!(pools.remove(conn(1)), Some(item(1)));
    assert_eq!(pools.remove(conn(1)), None, "not queued any more");
    assert!(pools.is_empty());
    let next = pools
        .queue(conn(2), pvp(), 2, None, item(2), alive)
        .expect("new");
    assert!(next.matched.is_none(), "the one who left is not matched");
    pools
        .queue(conn(1), pvp(), 2, None, item(1), alive)
        .expect("queued again");
}

#[test]
fn deadlines_come_due_in_order_and_leave_with_their_waiter() {
    let mut pools = Pools::default();
    let t0 = Instant::now();
    let s = Duration::from_secs(1);
    let lore = key("lore", Value::Null);
    pools
        .queue(conn(1), pvp(), 2, Some(t0 + 5 * s), item(1), alive)
        .expect("new");
    pools
        .queue(conn(2), lore.clone(), 2, Some(t0 + 2 * s), item(2), alive)
        .expect("new");
    pools
        .queue(conn(3), key("heroes", Value::Null), 2, None, item(3), alive)
        .expect("new");
    assert_eq!(pools.next_deadline(), Some(t0 + 2 * s));
    assert!(
        pools.due(t0 + s).is_empty(),
        "nothing is due before its time"
    );
    let due = pools.due(t0 + 2 * s);
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].0, lore);
    assert_eq!(due[0].1, item(2));
    assert!(!pools.contains(conn(2)));
    assert_eq!(pools.next_deadline(), Some(t0 + 5 * s));
    // Matched before its deadline: the deadline goes with it.
    let matched = pools
        .queue(conn(4), pvp(), 2, None, item(4), alive)
        .expect("new");
    assert!(matched.matched.is_some());
    assert_eq!(pools.next_deadline(), None);
    assert!(pools.due(t0 + 60 * s).is_empty());
    assert_eq!(pools.len(), 1, "the one without a deadline still waits");
}

#[test]
fn a_sweep_drops_the_gone() {
    let mut pools = Pools::default();
    let t0 = Instant::now();
    pools
        .queue(
            conn(1),
            pvp(),
            2,
            Some(t0),
            Item { n: 1, alive: false },
            |_| true,
        )
        .expect("new");
    pools
        .queue(conn(2), key("lore", Value::Null), 2, None, item(2), alive)
        .expect("new");
    assert_eq!(pools.sweep(alive), 1);
    assert_eq!(pools.len(), 1);
    assert_eq!(pools.next_deadline(), None, "its deadline went with it");
}
