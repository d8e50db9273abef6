//! Plain mode's lines: what changed, the prompt, notices and the result.

use super::*;
use battle_protocol::ServerMsg;
use serde_json::json;

fn view(hp: u64, log: Value, active: u64) -> Value {
    // Synergy offers actions to the seat whose turn it is, and to nobody else.
    let legal = if active == 0 {
        json!([{"kind": "play_card", "card": 2}, {"kind": "end_turn"}])
    } else {
        json!([])
    };
    json!({
        "battle_id": "b", "ruleset": "synergy", "status": "playing", "seat": 0,
        "to_act": [active], "legal": legal, "names": ["Ann", "Bot"],
        "outcome": null,
        "game": {"round": 1, "state": "playerTurn", "active": active, "log": log,
            "sides": [
                {"name": "Ann", "hp": 60, "score": 0, "energy": 3, "hand": [
                    {"id": 2, "name": "Thorn Jab", "sigil": "Leaf", "type": "attack",
                     "cost": 1, "value": 6, "synergy": true, "text": "Deal 6 damage."}]},
                {"name": "Bot", "hp": hp, "score": 0}
            ]}
    })
}

fn apply(t: &mut ViewTracker, seq: u64, view: Value) {
    t.apply(&ServerMsg::Snapshot {
        battle_id: "b".into(),
        seq,
        view,
        req: None,
    })
    .expect("a snapshot of the tracked battle applies");
}

#[test]
fn reports_only_what_changed_and_prompts_once() {
    let mut t = ViewTracker::new("b");
    let mut r = PlainReporter::new();
    apply(&mut t, 1, view(70, json!(["Battle begins."]), 0));
    let first = r.changes(&t);
    assert_eq!(first[0], "battle b (synergy): you are Ann (seat 0)");
    assert!(first.contains(&"log: Battle begins.".to_owned()));
    assert!(first.contains(&"hp: Bot 70".to_owned()));
    let prompt = r.prompt(&t, false).expect("our turn");
    assert!(prompt.ends_with("you may: play 1, end"), "{prompt}");
    assert!(
        prompt.contains("[1] Thorn Jab (Leaf attack, cost 1, synergy now: Deal 6 damage.)"),
        "{prompt}"
    );
    assert_eq!(r.prompt(&t, false), None, "once per view");
    r.reprompt();
    assert!(r.prompt(&t, true).is_none(), "not while a move is pending");

    apply(
        &mut t,
        2,
        view(64, json!(["Battle begins.", "Ann hits."]), 1),
    );
    assert_eq!(
        r.changes(&t),
        vec![
            "log: Ann hits.".to_owned(),
            "hp: Bot 70 -> 64".to_owned(),
            "turn: round 1, Bot's turn".to_owned(),
        ]
    );
    assert_eq!(r.prompt(&t, false), None, "not our turn");
}

/// The envelope's `seats`.
fn seats(opponent: &str) -> Value {
    json!(["connected", opponent])
}

/// The envelope's `names`: Ann, and Bot once someone holds seat 1.
fn names(opponent: &str) -> Value {
    if opponent == "free" {
        json!(["Ann", "Player 2"])
    } else {
        json!(["Ann", "Bot"])
    }
}

#[test]
fn the_opponent_arriving_leaving_and_returning_is_told() {
    let mut t = ViewTracker::new("b");
    let mut r = PlainReporter::new();
    let waiting = json!({"battle_id": "b", "ruleset": "synergy", "status": "waiting",
        "seat": 0, "seats": seats("free"), "names": names("free"), "to_act": [], "prompt": null, "legal": [],
        "outcome": null, "game": null});
    apply(&mut t, 1, waiting);
    let lines = r.changes(&t);
    assert!(
        lines.contains(
            &"waiting: the battle starts when every seat is taken; waiting for Player 2".to_owned()
        ),
        "{lines:?}"
    );
    let mut playing = view(70, json!([]), 0);
    playing["seats"] = seats("connected");
    apply(&mut t, 2, playing.clone());
    let lines = r.changes(&t);
    assert!(
        lines.contains(&"notice: Bot joined".to_owned()),
        "{lines:?}"
    );
    assert!(lines.contains(&"notice: every seat is taken: the battle starts".to_owned()));
    let mut away = playing.clone();
    away["seats"] = seats("away");
    apply(&mut t, 3, away);
    assert_eq!(
        r.changes(&t),
        vec!["notice: Bot left (disconnected); their seat waits for them to come back"]
    );
    apply(&mut t, 4, playing);
    assert_eq!(r.changes(&t), vec!["notice: Bot is back"]);
}

#[test]
fn the_result_says_who_won_and_where_the_scores_come_from() {
    for (seat, headline) in [(0, "result: You won."), (1, "result: You lost: Ann won.")] {
        let mut t = ViewTracker::new("b");
        let mut r = PlainReporter::new();
        let mut over = view(0, json!(["Ann wins."]), 0);
        over["seat"] = json!(seat);
        over["status"] = json!("finished");
        over["legal"] = json!([]);
        over["outcome"] = json!({"winners": [0], "summary": "Ann wins by knockout."});
        over["game"]["result"] = json!({"breakdown": [
            {"score": 20, "win_bonus": 100, "hp_bonus": 30, "total": 150, "zeroed_by": null},
            {"score": 8, "win_bonus": 0, "hp_bonus": 0, "total": 0,
             "zeroed_by": "knocked out"}]});
        apply(&mut t, 1, over);
        let lines = r.changes(&t);
        let results: Vec<&String> = lines.iter().filter(|l| l.starts_with("result:")).collect();
        assert_eq!(
            results,
            vec![
                headline,
                "result: Ann: score 20 + 100 for the win + 30 for ending healthy = 150",
                "result: Bot: knocked out, so the final score is 0 (the running score 8 \
                 does not count)",
                "result: Ann wins by knockout.",
            ],
            "{lines:?}"
        );
        assert_eq!(r.prompt(&t, false), None, "nothing to type once it is over");
    }
}

#[test]
fn waiting_views_open_entries_and_actions_while_not_awaited() {
    let mut t = ViewTracker::new("b");
    let mut r = PlainReporter::new();
    let waiting = json!({"battle_id": "b", "ruleset": "blind", "status": "waiting",
        "seat": 0, "to_act": [], "prompt": null, "legal": [], "outcome": null, "game": null});
    apply(&mut t, 1, waiting);
    let lines = r.changes(&t);
    assert!(lines.contains(&"waiting: the battle starts when every seat is taken".to_owned()));
    assert_eq!(r.prompt(&t, false), None, "nothing to type while waiting");
    assert_eq!(r.prompt(&t, false), None);
    let bid = json!({"kind": "bid", "cards": {"$choose": {"type": "array",
        "items": {"enum": [1, 5]}, "uniqueItems": true, "minItems": 1, "maxItems": 2}}});
    let signal = json!({"kind": "signal", "mood": "wary"});
    let playing = json!({"battle_id": "b", "ruleset": "blind", "status": "playing",
        "seat": 0, "to_act": [0, 1], "outcome": null, "game": {"round": 1},
        "prompt": {"decision": "bid", "text": "Round 1 of 3: bid."},
        "legal": [bid, signal]});
    apply(&mut t, 2, playing.clone());
    let lines = r.changes(&t);
    assert!(
        lines.contains(&r#"game: {"round":1}"#.to_owned()),
        "{lines:?}"
    );
    let prompt = r.prompt(&t, false).expect("awaited");
    assert_eq!(
        prompt,
        "your move: Round 1 of 3: bid. you may: play 1 VALUES = bid: cards = 1 to 2 of \
         [1, 5], play 2 = signal mood=wary"
    );
    let mut later = playing;
    later["to_act"] = json!([1]);
    later["prompt"] = Value::Null;
    later["legal"] = json!([signal]);
    apply(&mut t, 3, later);
    let prompt = r.prompt(&t, false).expect("it may still signal");
    assert_eq!(prompt, "you may (not awaited): play 1 = signal mood=wary");
}

#[test]
fn the_own_clock_is_told_once_per_decision() {
    let mut t = ViewTracker::new("b");
    let mut r = PlainReporter::new();
    let timed = |to_act: u64, deadline: Option<u64>| {
        let mut v = view(70, json!(["Battle begins."]), to_act);
        v["clocks"] = json!([{"bank_ms": 135_000, "deadline": deadline},
                             {"bank_ms": 120_000, "deadline": null}]);
        v
    };
    apply(&mut t, 1, timed(0, Some(100_000)));
    assert_eq!(
        r.clock(&t, 8_000).as_deref(),
        Some("you have 1:32 to decide (bank 2:15)")
    );
    assert_eq!(r.clock(&t, 9_000), None, "once per decision");
    apply(&mut t, 2, timed(1, None));
    assert_eq!(
        r.clock(&t, 20_000),
        None,
        "not while the other seat decides"
    );
    apply(&mut t, 3, timed(0, Some(150_000)));
    assert_eq!(
        r.clock(&t, 60_000).as_deref(),
        Some("you have 1:30 to decide (bank 2:15)"),
        "the next decision has a clock of its own"
    );
    apply(&mut t, 4, view(70, json!(["Battle begins."]), 0));
    assert_eq!(r.clock(&t, 60_000), None, "an untimed battle says nothing");
}

#[test]
fn the_prompt_names_cards_and_targets_in_the_games_words() {
    let mut t = ViewTracker::new("b");
    let mut r = PlainReporter::new();
    apply(
        &mut t,
        1,
        json!({"battle_id": "b", "ruleset": "heroes", "status": "playing", "seat": 0,
            "to_act": [0], "outcome": null, "names": ["Ann", "Bot"],
            "prompt": {"decision": "turn", "text": "Your turn."},
            "legal": [
                {"kind": "play", "card": 25, "target": null,
                 "spend": {"$choose": {"type": "integer", "minimum": 0, "maximum": 0}}},
                {"kind": "attack", "target": "minion:43"},
                {"kind": "play", "card": 30, "spend": 0,
                 "target": {"$choose": {"enum": ["minion:43", "hero:1"]}}},
                {"kind": "end_turn"}],
            "game": {"phase": "main", "active": 0,
                "minions": [{"id": 43, "name": "Apprentice", "owner": 1}],
                "sides": [{"hand": [{"id": 25, "name": "Cleave"},
                    {"id": 30, "name": "Hurl Axe"}]}, {}]}}),
    );
    let prompt = r.prompt(&t, false).expect("a prompt");
    assert_eq!(
        prompt,
        "your move: Your turn. you may: play 1 = play Cleave, \
         play 2 = Attack Bot's Apprentice (2 mana), \
         play 3 VALUES = play Hurl Axe: choose the target (target = one of [\"minion:43\", \
         \"hero:1\"]), end"
    );
    assert!(!prompt.contains("card="), "{prompt}");
}
