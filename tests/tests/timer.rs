//! Turn timers: every awaited person's decision shows its deadline in the envelope; a
//! decision not made in time is made by the server's bot for the seat; after the timer's
//! `forfeit_after` such decisions in a row the seat forfeits. `"off"` turns the clocks off,
//! and numbers that make no clock are refused.

use battle_e2e::battle_protocol::{BattleStatus, ErrorCode, ServerMsg};
use battle_e2e::{fill_first, settle, start_server, Client, Create, TIMEOUT};
use serde_json::json;

#[tokio::test]
async fn a_seat_that_never_decides_is_played_by_the_bot_then_forfeits() {
    let server = start_server().await;
    let mut p0 = Client::connect(&server, "p0").await;
    // Each decision gets the 100 ms increment (the bank is empty); 2 timed out in a row lose.
    let clock = json!({"bank_ms": 0, "increment_ms": 100, "forfeit_after": 2});
    let battle = p0
        .create(Create::synergy(json!({"mode": "pvp"})).timer(clock))
        .await;
    let mut seat0 = p0.join(&battle, Some(0)).await;
    let mut p1 = Client::connect(&server, "p1").await;
    let _seat1 = p1.join(&battle, Some(1)).await;
    settle(&mut p0, &mut seat0.tracker).await;
    let clocks = &seat0.tracker.view().expect("a view")["clocks"];
    assert!(
        clocks[0]["deadline"].is_u64(),
        "seat 0's clock runs: {clocks}"
    );
    assert!(
        clocks[1]["deadline"].is_null(),
        "seat 1 is not awaited: {clocks}"
    );

    // Seat 0 decides at once, seat 1 never: the bot decides for seat 1 twice, then it
    // forfeits and seat 0 wins.
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    let mut pending = None;
    while !seat0.tracker.is_over() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the clock never ran out"
        );
        if pending.is_none() && seat0.tracker.my_turn() {
            let entry = seat0
                .tracker
                .legal_actions()
                .first()
                .cloned()
                .expect("legal");
            pending = Some(p0.act(&battle, fill_first(&entry)).await);
        }
        let msg = p0.expect_msg().await;
        if let ServerMsg::Patch { req, .. } | ServerMsg::Snapshot { req, .. } = &msg {
            if req.is_some() && *req == pending {
                pending = None;
            }
        }
        seat0.tracker.apply(&msg).expect("applies");
    }
    let outcome = seat0.tracker.outcome().expect("an outcome").clone();
    assert_eq!(outcome["winners"], json!([0]), "{outcome}");
    assert_eq!(
        outcome["summary"], "Player 2 forfeits on time: Player 1 wins.",
        "{outcome}"
    );
    assert_eq!(
        outcome["reason"], "time",
        "a forfeit on time is no resignation"
    );
    let log = seat0.tracker.game().expect("a game")["log"].clone();
    assert!(
        log.as_array().is_some_and(|l| l
            .iter()
            .any(|line| line.as_str().is_some_and(|t| t.starts_with("Player 2")))),
        "the bot played for seat 1 before it forfeited: {log}"
    );
    assert_eq!(seat0.tracker.status(), Some(BattleStatus::Finished));
    server.shutdown().await;
}

#[tokio::test]
async fn clocks_can_be_turned_off_and_bad_numbers_are_refused() {
    let server = start_server().await;
    let mut p0 = Client::connect(&server, "p0").await;
    let battle = p0
        .create(Create::synergy(json!({"mode": "pve"})).timer(json!("off")))
        .await;
    let seat0 = p0.join(&battle, Some(0)).await;
    assert!(seat0.tracker.view().expect("a view")["clocks"].is_null());
    let roguelite = p0.create(Create::of("roguelite", json!({}))).await;
    let run = p0.join(&roguelite, Some(0)).await;
    assert!(
        run.tracker.view().expect("a view")["clocks"].is_null(),
        "roguelite is untimed by default"
    );
    for (timer, why) in [
        (json!({"cap_ms": 5}), "cap_ms"),
        (json!({"forfeit_after": 0}), "forfeit_after"),
        (json!({"banks": 3}), "unknown field"),
        (json!(30), "\"off\" or an object"),
    ] {
        let mut probe = Client::connect(&server, "probe").await;
        let req = probe.req();
        probe
            .send(battle_protocol::ClientMsg::Create {
                ruleset: "synergy".into(),
                options: None,
                bots: vec![],
                private: false,
                pace_ms: None,
                grace_ms: None,
                seed: None,
                spectator_delay_ms: None,
                timer: Some(timer),
                req: Some(req),
            })
            .await;
        let message = probe.expect_error(ErrorCode::BadOptions, Some(req)).await;
        assert!(message.contains(why), "{message}");
    }
    server.shutdown().await;
}
