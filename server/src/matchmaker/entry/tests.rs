//! Tests of the cluster's pool entries: their text, pool names, and which taken players meet
//! or are dropped.

use serde_json::json;

use super::*;

fn entry(node: &str, conn: u64) -> Entry {
    Entry {
        node: node.into(),
        conn,
        n: conn * 10,
        setup: None,
        req: None,
        at: 1_700_000_000_000 + conn,
        people: vec![0, 1],
    }
}

fn key(ruleset: &str, options: Value) -> PoolKey {
    PoolKey {
        ruleset: ruleset.into(),
        options,
    }
}

#[test]
fn an_entry_is_json_with_what_seats_its_player() {
    let waiting = Entry {
        setup: Some(json!({"deck": ["C001", "C002"]})),
        req: Some(12),
        ..entry("n2/k3x9abcd", 7)
    };
    let text = waiting.text();
    assert_eq!(
        serde_json::from_str::<Value>(&text).expect("json"),
        json!({"node": "n2/k3x9abcd", "conn": 7, "n": 70, "setup": {"deck": ["C001", "C002"]},
               "req": 12, "at": 1_700_000_000_007_u64, "people": [0, 1]})
    );
    assert_eq!(Entry::read(&text), Some(waiting.clone()));
    assert_eq!(
        text,
        waiting.text(),
        "the same entry, the same text (LREM finds it)"
    );
    assert_eq!(waiting.node_id(), "n2");
    assert_eq!(waiting.instance(), "k3x9abcd");
    let bare = entry("n1/a", 1).text();
    assert!(!bare.contains("setup") && !bare.contains("req"), "{bare}");
    assert_eq!(Entry::read("not an entry"), None);
    assert_eq!(Entry::read(r#"{"node": "n1/a"}"#), None);
}

#[test]
fn equal_options_name_one_pool_whatever_their_order() {
    let a = pool_name(&key(
        "lore",
        json!({"b": 1, "a": {"y": [2, {"d": 0, "c": 1}], "x": 0}}),
    ));
    let b = pool_name(&key(
        "lore",
        json!({"a": {"x": 0, "y": [2, {"c": 1, "d": 0}]}, "b": 1}),
    ));
    assert_eq!(a, b);
    assert_eq!(a, r#"lore:{"a":{"x":0,"y":[2,{"c":1,"d":0}]},"b":1}"#);
    assert_eq!(pool_name(&key("synergy", Value::Null)), "synergy:null");
    assert_ne!(
        pool_name(&key("lore", json!({"n": 1}))),
        pool_name(&key("lore", json!({"n": 1.0}))),
        "1 and 1.0 differ, as on one server"
    );
    assert_ne!(
        pool_name(&key("lore", json!({"mode": "pvp"}))),
        pool_name(&key("synergy", json!({"mode": "pvp"}))),
        "rulesets apart"
    );
    assert_eq!(
        pool_name(&key("synergy", json!({"s": "a\"b"}))),
        r#"synergy:{"s":"a\"b"}"#,
        "strings written as JSON"
    );
}

#[test]
fn long_options_name_their_pool_by_a_hash() {
    let long = json!({"deck": vec!["C001"; 40]});
    let name = pool_name(&key("synergy", long.clone()));
    assert!(name.starts_with("synergy#"), "{name}");
    assert_eq!(name.len(), "synergy#".len() + 64);
    assert_eq!(name, pool_name(&key("synergy", long)), "the same hash");
    let other = pool_name(&key("synergy", json!({"deck": vec!["C002"; 40]})));
    assert_ne!(name, other);
}

#[test]
fn live_players_taken_meet_in_their_order() {
    let taken = vec![entry("n1/a", 1).text(), entry("n2/b", 2).text()];
    match sort_taken(taken, 2, |_| true) {
        Took::Meet(players) => {
            let conns: Vec<u64> = players.iter().map(|p| p.conn).collect();
            assert_eq!(conns, [1, 2], "oldest first: the first seat to the first");
        }
        short => panic!("expected a meeting, got {short:?}"),
    }
}

#[test]
fn players_of_dead_instances_are_dropped_and_the_rest_go_back_in_order() {
    let live = ["n1/a", "n3/c"];
    let taken = vec![
        entry("n1/a", 1).text(),
        entry("n2/old", 2).text(),
        "garbage".to_string(),
        entry("n3/c", 3).text(),
        entry("n1/a", 4).text(),
    ];
    let alive = |e: &Entry| live.contains(&e.node.as_str());
    match sort_taken(taken, 5, alive) {
        Took::Short { keep, dropped } => {
            assert_eq!(dropped, 2, "the dead instance's and the unreadable one");
            let conns: Vec<u64> = keep
                .iter()
                .map(|t| Entry::read(t).expect("kept texts are entries").conn)
                .collect();
            assert_eq!(conns, [1, 3, 4], "oldest first");
            let pushed: Vec<u64> = head_first(keep)
                .iter()
                .map(|t| Entry::read(t).expect("entries").conn)
                .collect();
            assert_eq!(pushed, [4, 3, 1], "LPUSH puts the oldest at the head last");
        }
        meet => panic!("expected too few, got {meet:?}"),
    }
}

#[test]
fn a_taking_node_drops_its_own_closed_connections() {
    // The caller says which of its own connections still wait; other nodes' are live here.
    let waiting_here = [1_u64];
    let alive = |e: &Entry| e.node != "n1/a" || waiting_here.contains(&e.conn);
    let taken = vec![entry("n1/a", 1).text(), entry("n1/a", 2).text()];
    assert_eq!(
        sort_taken(taken, 2, alive),
        Took::Short {
            keep: vec![entry("n1/a", 1).text()],
            dropped: 1
        }
    );
    let nobody = sort_taken(vec![entry("n9/z", 9).text()], 1, |_| false);
    assert_eq!(
        nobody,
        Took::Short {
            keep: Vec::new(),
            dropped: 1
        },
        "nothing to put back"
    );
}
