//! The ruleset platform over real sockets, through the test ruleset Blind Bids: per-seat
//! setups checked at `join`, a battle that starts only once every seat is held, two seats
//! deciding at once, an open decision filled from its schema, prompts, an action allowed while
//! not awaited, engine steps, a one-seat variant, bots that fill open decisions, and a person's
//! decision clock running out.

use battle_e2e::battle_protocol::{BattleStatus, ErrorCode, ServerMsg};
use battle_e2e::battle_server::rules::blind;
use battle_e2e::battle_server::{Config, RunningServer};
use battle_e2e::{
    check_finished, drive, fill_first, settle, start_server_with, watch_bots_play, Client, Create,
    Drive,
};
use serde_json::{json, Value};

/// A test server that also offers Blind Bids.
async fn server_with_blind() -> RunningServer {
    let mut config = Config::for_tests();
    config.rulesets.push(&blind::ENTRY);
    start_server_with(config).await
}

fn bid(cards: &[u8]) -> Value {
    json!({"kind": "bid", "cards": cards})
}

#[tokio::test]
async fn welcome_lists_the_test_ruleset_with_its_samples() {
    let server = server_with_blind().await;
    let mut client = Client::connect(&server, "client").await;
    let rulesets = client.hello().await;
    let blind = rulesets
        .iter()
        .find(|r| r.id == "blind")
        .unwrap_or_else(|| panic!("blind not offered: {rulesets:?}"));
    assert_eq!((blind.min_seats, blind.max_seats), (1, 2));
    let samples: Vec<(&str, usize)> = blind
        .samples
        .iter()
        .map(|s| (s.name.as_str(), s.seats))
        .collect();
    assert_eq!(
        samples,
        [("duel", 2), ("solo", 1)],
        "one ruleset, two battle sizes"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_duel_with_setups_simultaneous_sealed_bids_and_a_signal() {
    let server = server_with_blind().await;
    let mut p0 = Client::connect(&server, "p0").await;
    let battle_id = p0
        .create(Create::of("blind", json!({"seats": 2, "rounds": 3})))
        .await;
    let mut spectator = Client::connect(&server, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    let waiting = watch.view().expect("a view");
    assert_eq!(waiting["status"], "waiting");
    assert_eq!(
        waiting["game"],
        Value::Null,
        "no game before every seat is held"
    );

    // A setup the rules refuse is refused at once, and the seat stays free.
    let req = p0.req();
    p0.send(battle_protocol::ClientMsg::Join {
        battle_id: battle_id.clone(),
        seat: Some(0),
        setup: Some(json!({"hand": [1, 1, 2]})),
        req: Some(req),
    })
    .await;
    let message = p0.expect_error(ErrorCode::BadSetup, Some(req)).await;
    assert!(message.contains("card 1 is in the hand twice"), "{message}");
    let mut seat0 = p0
        .join_with(&battle_id, Some(0), Some(json!({"hand": [1, 5, 9, 13]})))
        .await;
    assert_eq!(seat0.tracker.status(), Some(BattleStatus::Waiting));
    let mut p1 = Client::connect(&server, "p1").await;
    let mut seat1 = p1
        .join_with(&battle_id, Some(1), Some(json!({"hand": [2, 4, 6]})))
        .await;
    settle(&mut p0, &mut seat0.tracker).await;
    settle(&mut spectator, &mut watch).await;

    // Both seats are awaited at once, each asked to bid, each offered an open entry.
    for (who, tracker) in [("p0", &seat0.tracker), ("p1", &seat1.tracker)] {
        let view = tracker.view().expect("a view");
        assert_eq!(view["status"], "playing", "{who}");
        assert_eq!(view["to_act"], json!([0, 1]), "{who}: simultaneous");
        assert_eq!(view["prompt"]["decision"], "bid", "{who}: {view}");
        assert!(view["prompt"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("Round 1 of 3")));
        assert!(
            view["legal"][0]["cards"]["$choose"].is_object(),
            "{who}: {view}"
        );
        assert_eq!(view["game"]["seats"][0]["cards_left"], json!(4));
    }
    assert_eq!(watch.view().expect("a view")["prompt"], Value::Null);
    let open = &seat1.tracker.legal_actions()[0];
    assert_eq!(
        open["cards"]["$choose"]["maxItems"], 1,
        "seat 1 keeps a card for each later round: {open}"
    );

    // p0 seals 9 + 13: nobody else is ever sent those cards before the reveal.
    let req = p0.act(&battle_id, bid(&[9, 13])).await;
    let mut frames = Vec::new();
    for (client, tracker) in [
        (&mut p0, &mut seat0.tracker),
        (&mut p1, &mut seat1.tracker),
        (&mut spectator, &mut watch),
    ] {
        let (text, msg) = client.expect_frame().await;
        tracker.apply(&msg).expect("the patch applies");
        frames.push(text);
    }
    assert!(
        frames[0].contains(&format!("\"req\":{req}")),
        "{}",
        frames[0]
    );
    assert!(
        frames[0].contains("[9,13]"),
        "p0 sees its sealed bid: {}",
        frames[0]
    );
    for text in &frames[1..] {
        // The turn clocks' numbers (milliseconds) are public; cards are looked for elsewhere.
        let patch: Value = serde_json::from_str(text).expect("a JSON frame");
        let ops: Vec<&Value> = patch["ops"]
            .as_array()
            .expect("a patch")
            .iter()
            .filter(|op| {
                !op["path"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("/clocks"))
            })
            .collect();
        let rest = serde_json::to_string(&ops).expect("serializes");
        assert!(
            !rest.contains("13"),
            "a sealed card was sent to someone else: {text}"
        );
    }
    let p1_view = seat1.tracker.view().expect("a view");
    assert!(
        p1_view["game"]["seats"][0].get("sealed").is_none(),
        "{p1_view}"
    );
    assert_eq!(p1_view["game"]["seats"][0]["has_bid"], true);
    assert_eq!(p1_view["to_act"], json!([1]));
    // p0 is not awaited any more but may still signal: awaited and allowed differ.
    let p0_view = seat0.tracker.view().expect("a view");
    assert_eq!(p0_view["prompt"], Value::Null);
    assert_eq!(
        p0_view["legal"].as_array().map(Vec::len),
        Some(2),
        "{p0_view}"
    );
    p0.act(&battle_id, json!({"kind": "signal", "mood": "confident"}))
        .await;
    settle(&mut p0, &mut seat0.tracker).await;
    settle(&mut p1, &mut seat1.tracker).await;
    assert_eq!(
        seat1.tracker.view().expect("a view")["game"]["seats"][0]["signal"],
        "confident"
    );

    // p1 bids (its open entry filled from the schema); the engine reveals by itself.
    let action = fill_first(&seat1.tracker.legal_actions()[0]);
    assert_eq!(action, bid(&[2]));
    p1.act(&battle_id, action).await;
    let deadline = tokio::time::Instant::now() + battle_e2e::TIMEOUT;
    while watch
        .game()
        .is_some_and(|g| g["revealed"].as_array().is_none_or(Vec::is_empty))
    {
        assert!(tokio::time::Instant::now() < deadline, "no reveal");
        let msg = spectator.expect_msg().await;
        watch.apply(&msg).expect("applies");
    }
    let game = watch.game().expect("a game");
    assert_eq!(game["revealed"][0]["bids"], json!([[9, 13], [2]]), "{game}");
    assert_eq!(game["revealed"][0]["winner"], 0);
    assert_eq!(game["round"], 2);

    // Both play on to the end, each filling its open entries.
    settle(&mut p0, &mut seat0.tracker).await;
    settle(&mut p1, &mut seat1.tracker).await;
    let (player, watcher) = (Drive::player(), Drive::watcher());
    let (r0, r1, rw) = tokio::join!(
        drive(&mut p0, &mut seat0.tracker, &player),
        drive(&mut p1, &mut seat1.tracker, &player),
        drive(&mut spectator, &mut watch, &watcher),
    );
    assert!(r0.acts >= 2 && r1.acts >= 2, "{r0:?} {r1:?}");
    assert!(rw.changes > 0);
    for (who, tracker) in [
        ("p0", &seat0.tracker),
        ("p1", &seat1.tracker),
        ("spectator", &watch),
    ] {
        check_finished(tracker, who);
        let game = tracker.game().expect("a game");
        assert_eq!(
            game["revealed"].as_array().map(Vec::len),
            Some(3),
            "{who}: {game}"
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn one_seat_against_the_house_and_bots_that_fill_open_decisions() {
    let server = server_with_blind().await;
    // A person alone: one seat, the battle starts at the first join.
    let mut solo = Client::connect(&server, "solo").await;
    let battle_id = solo
        .create(Create::of("blind", json!({"seats": 1, "rounds": 3})))
        .await;
    let mut seated = solo.join(&battle_id, None).await;
    assert_eq!(seated.seat, 0);
    let view = seated.tracker.view().expect("a view");
    assert_eq!(
        view["status"], "playing",
        "one seat held: the battle starts"
    );
    assert_eq!(view["game"]["house"], 0, "{view}");
    drive(&mut solo, &mut seated.tracker, &Drive::player()).await;
    check_finished(&seated.tracker, "solo");

    // Two bots bid against each other, filling their open decisions; a spectator watches.
    let bots = Create::of("blind", Value::Null).bots(vec![0, 1]);
    let watch = watch_bots_play(&server, bots, 3).await;
    let game = watch.game().expect("a game");
    assert_eq!(game["revealed"].as_array().map(Vec::len), Some(5), "{game}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_person_who_runs_out_of_time_bids_the_lowest_card() {
    let server = server_with_blind().await;
    let mut p0 = Client::connect(&server, "p0").await;
    // Each decision may take the 150 ms increment: the bank is empty.
    let clock = json!({"bank_ms": 0, "increment_ms": 150});
    let battle_id = p0
        .create(Create::of("blind", json!({"rounds": 1})).timer(clock))
        .await;
    let mut seat0 = p0
        .join_with(&battle_id, Some(0), Some(json!({"hand": [3, 8]})))
        .await;
    let mut p1 = Client::connect(&server, "p1").await;
    let mut seat1 = p1
        .join_with(&battle_id, Some(1), Some(json!({"hand": [5, 7]})))
        .await;
    settle(&mut p0, &mut seat0.tracker).await;
    p0.act(&battle_id, bid(&[8])).await;
    // p1 never answers: its clock runs out, the rules bid its lowest card, the engine
    // reveals, and the one-round battle ends.
    let deadline = tokio::time::Instant::now() + battle_e2e::TIMEOUT;
    while !seat1.tracker.is_over() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the clock never ran out"
        );
        match p1.expect_msg().await {
            msg @ (ServerMsg::Patch { .. } | ServerMsg::Snapshot { .. }) => {
                seat1.tracker.apply(&msg).expect("applies");
            }
            other => panic!("p1: unexpected {other:?}"),
        }
    }
    let game = seat1.tracker.game().expect("a game");
    assert_eq!(game["revealed"][0]["bids"], json!([[8], [5]]), "{game}");
    let log = game["log"].as_array().expect("a log");
    assert!(
        log.iter().any(|line| line == "Player 2 ran out of time."),
        "{log:?}"
    );
    check_finished(&seat1.tracker, "p1");
    server.shutdown().await;
}
