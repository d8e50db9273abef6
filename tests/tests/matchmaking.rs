//! Matchmaking over real sockets: players who `queue` for the same ruleset and options meet
//! in a public battle (each told `matched`, then its snapshot, in arrival order of seats) and
//! play it like any other; different options keep players apart; `unqueue`, a closed
//! connection and refusals leave nobody matched; `bot_after_ms` gives a battle against the
//! server's bots once the wait is over and not before; a queued connection does not idle out.
//!
//! No ruleset of the catalog has more than two seats for people, so a meeting of three is
//! covered by the pool's unit tests (`server/src/matchmaker/pool_tests.rs`), not here.

use std::time::Duration;

use battle_e2e::battle_client::ViewTracker;
use battle_e2e::battle_server::config::Rate;
use battle_e2e::battle_server::RunningServer;
use battle_e2e::{check_finished, drive, start_server, start_server_with, Client, Drive, TIMEOUT};
use battle_protocol::{BattleStatus, ClientMsg, ErrorCode, Req, Seat, ServerMsg};
use battle_server::Config;
use serde_json::{json, Value};
use tokio::time::Instant;

/// What a `queue` asks for.
#[derive(Default)]
struct Ask {
    ruleset: &'static str,
    options: Option<Value>,
    sample: Option<&'static str>,
    setup: Option<Value>,
    bot_after_ms: Option<u64>,
}

impl Ask {
    fn sample(ruleset: &'static str, sample: &'static str) -> Ask {
        Ask {
            ruleset,
            sample: Some(sample),
            ..Ask::default()
        }
    }

    fn options(ruleset: &'static str, options: Value) -> Ask {
        Ask {
            ruleset,
            options: Some(options),
            ..Ask::default()
        }
    }
}

/// A matched player: its battle, seat and view.
struct Matched {
    battle_id: String,
    seat: Seat,
    token: String,
    tracker: ViewTracker,
}

/// Send `queue`; its `req`.
async fn send_queue(client: &mut Client, ask: Ask) -> Req {
    let req = client.req();
    client
        .send(ClientMsg::Queue {
            ruleset: ask.ruleset.to_string(),
            options: ask.options,
            sample: ask.sample.map(str::to_string),
            setup: ask.setup,
            bot_after_ms: ask.bot_after_ms,
            req: Some(req),
        })
        .await;
    req
}

/// Send `queue` and expect `queued`: how many wait in the pool, this one included; and the
/// `queue`'s `req`.
async fn queue(client: &mut Client, ask: Ask) -> (usize, Req) {
    let ruleset = ask.ruleset;
    let req = send_queue(client, ask).await;
    match client.expect_msg().await {
        ServerMsg::Queued {
            ruleset: got,
            waiting,
            req: got_req,
        } => {
            assert_eq!(got, ruleset, "{}: queued names the ruleset", client.name);
            assert_eq!(got_req, Some(req), "{}: queued echoes req", client.name);
            (waiting, req)
        }
        other => panic!("{}: expected queued, got {other:?}", client.name),
    }
}

/// Expect `matched` (echoing the `queue`'s `req`) then the battle's snapshot for the seat.
async fn expect_matched(client: &mut Client, req: Req) -> Matched {
    let (battle_id, seat, token) = match client.expect_msg().await {
        ServerMsg::Matched {
            battle_id,
            seat,
            token,
            req: got,
        } => {
            assert_eq!(
                got,
                Some(req),
                "{}: matched echoes the queue's req",
                client.name
            );
            assert_eq!(token.len(), 32, "{}: a 128-bit token", client.name);
            (battle_id, seat, token)
        }
        other => panic!("{}: expected matched, got {other:?}", client.name),
    };
    let tracker = client.expect_snapshot(&battle_id).await;
    assert_eq!(
        tracker.seat(),
        Some(seat),
        "{}: the snapshot is the seat's",
        client.name
    );
    Matched {
        battle_id,
        seat,
        token,
        tracker,
    }
}

/// Nothing more arrives for `client` for a while (a match would have come by then): only the
/// pong answering a ping.
async fn nothing_comes(client: &mut Client) {
    tokio::time::sleep(Duration::from_millis(150)).await;
    client.assert_pong().await;
}

/// Wait (bounded) until the server holds `count` connections.
async fn connections_drop_to(server: &RunningServer, count: usize) {
    let deadline = Instant::now() + TIMEOUT;
    while server.lobby().connection_count() > count {
        assert!(
            Instant::now() < deadline,
            "connections did not close in time"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn two_players_queue_for_synergy_pvp_meet_and_play_it_out() {
    let server = start_server().await;
    let mut p0 = Client::connect(&server, "p0").await;
    let mut p1 = Client::connect(&server, "p1").await;
    let (waiting, req0) = queue(&mut p0, Ask::sample("synergy", "pvp")).await;
    assert_eq!(waiting, 1, "alone in the pool");
    nothing_comes(&mut p0).await;
    let metrics = battle_e2e::http::scrape(server.addr).await;
    assert_eq!(metrics.value("battle_matchmaker_waiting", &[]), 1.0);
    assert_eq!(metrics.value("battle_matchmaker_matched_total", &[]), 0.0);
    // The sample and its options are one pool.
    let (waiting, req1) = queue(&mut p1, Ask::options("synergy", json!({"mode": "pvp"}))).await;
    assert_eq!(waiting, 2, "both in the pool when it is matched");
    let mut m0 = expect_matched(&mut p0, req0).await;
    let mut m1 = expect_matched(&mut p1, req1).await;
    assert_eq!(m0.battle_id, m1.battle_id, "one battle for both");
    assert_eq!((m0.seat, m1.seat), (0, 1), "seats in arrival order");
    assert_ne!(m0.token, m1.token);
    assert_eq!(m1.tracker.status(), Some(BattleStatus::Playing));
    let metrics = battle_e2e::http::scrape(server.addr).await;
    assert_eq!(metrics.value("battle_matchmaker_waiting", &[]), 0.0);
    assert_eq!(metrics.value("battle_matchmaker_matched_total", &[]), 2.0);

    let mut lobby = Client::connect(&server, "lobby").await;
    let listed = lobby.list().await;
    let summary = listed
        .iter()
        .find(|b| b.battle_id == m0.battle_id)
        .expect("a matched battle is public");
    assert!(
        summary.seats.iter().all(|s| s.taken && !s.bot),
        "{summary:?}"
    );

    // Both play it out: their moves reach the battle the matchmaker put them in.
    let player = Drive::player();
    let (r0, r1) = tokio::join!(
        drive(&mut p0, &mut m0.tracker, &player),
        drive(&mut p1, &mut m1.tracker, &player),
    );
    check_finished(&m0.tracker, "p0");
    check_finished(&m1.tracker, "p1");
    assert!(r0.acts > 0 && r1.acts > 0, "{r0:?} {r1:?}");
    assert_eq!(m0.tracker.outcome(), m1.tracker.outcome());
    server.shutdown().await;
}

#[tokio::test]
async fn a_matched_player_resigns_and_its_closing_is_told_to_the_battle() {
    let server = start_server().await;
    let mut p0 = Client::connect(&server, "p0").await;
    let mut p1 = Client::connect(&server, "p1").await;
    let (_, req0) = queue(&mut p0, Ask::sample("synergy", "pvp")).await;
    let (_, req1) = queue(&mut p1, Ask::sample("synergy", "pvp")).await;
    let mut m0 = expect_matched(&mut p0, req0).await;
    let m1 = expect_matched(&mut p1, req1).await;
    battle_e2e::settle(&mut p0, &mut m0.tracker).await;
    assert_eq!(
        m0.tracker.view().expect("a view")["seats"],
        json!(["connected", "connected"])
    );

    // p1's connection closes: its reader tells the battle it learned of from the matchmaker.
    drop(p1);
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let msg = p0.expect_msg().await;
        m0.tracker.apply(&msg).expect("applies");
        if m0.tracker.view().expect("a view")["seats"][1] == "away" {
            break;
        }
        assert!(Instant::now() < deadline, "p0 was never told p1 went away");
    }

    // p1 comes back with its token, and resigns from the new connection.
    let mut back = Client::connect(&server, "p1 again").await;
    back.rejoin(&m1.battle_id, &m1.token).await;
    let req = back.req();
    back.send(ClientMsg::Resign {
        battle_id: m1.battle_id.clone(),
        req: Some(req),
    })
    .await;
    let deadline = Instant::now() + TIMEOUT;
    while !m0.tracker.is_over() {
        let msg = p0.expect_msg().await;
        m0.tracker.apply(&msg).expect("applies");
        assert!(Instant::now() < deadline, "p0 never saw the end");
    }
    assert_eq!(
        m0.tracker.outcome().expect("an outcome")["winners"],
        json!([0])
    );
    server.shutdown().await;
}

#[tokio::test]
async fn different_options_do_not_meet() {
    let server = start_server().await;
    let slow = || Ask::options("gambit", json!({"mode": "pvp", "tick_ms": 500}));
    let fast = || Ask::options("gambit", json!({"mode": "pvp", "tick_ms": 100}));
    let mut a = Client::connect(&server, "slow").await;
    let mut b = Client::connect(&server, "fast").await;
    assert_eq!(queue(&mut a, slow()).await.0, 1);
    assert_eq!(queue(&mut b, fast()).await.0, 1, "a pool of its own");
    nothing_comes(&mut a).await;
    nothing_comes(&mut b).await;
    // The same options meet.
    let mut c = Client::connect(&server, "fast too").await;
    let (waiting, req_c) = queue(&mut c, fast()).await;
    assert_eq!(waiting, 2);
    let mc = expect_matched(&mut c, req_c).await;
    assert_eq!(mc.seat, 1);
    let ServerMsg::Matched { battle_id, .. } = b.expect_msg().await else {
        panic!("fast: expected matched");
    };
    assert_eq!(battle_id, mc.battle_id);
    nothing_comes(&mut a).await;
    server.shutdown().await;
}

#[tokio::test]
async fn unqueue_leaves_the_pool_and_nobody_is_matched() {
    let server = start_server().await;
    let mut p0 = Client::connect(&server, "p0").await;
    queue(&mut p0, Ask::sample("synergy", "pvp")).await;
    let req = p0.req();
    p0.send(ClientMsg::Unqueue { req: Some(req) }).await;
    match p0.expect_msg().await {
        ServerMsg::Unqueued { reason, req: got } => {
            assert_eq!(reason, "requested");
            assert_eq!(got, Some(req));
        }
        other => panic!("expected unqueued, got {other:?}"),
    }
    let mut p1 = Client::connect(&server, "p1").await;
    assert_eq!(queue(&mut p1, Ask::sample("synergy", "pvp")).await.0, 1);
    nothing_comes(&mut p0).await;
    nothing_comes(&mut p1).await;
    assert!(server.lobby().is_empty(), "no battle was made");
    server.shutdown().await;
}

#[tokio::test]
async fn a_closed_queued_connection_is_never_matched() {
    let server = start_server().await;
    let mut gone = Client::connect(&server, "gone").await;
    queue(&mut gone, Ask::sample("synergy", "pvp")).await;
    let _ = gone.conn.close().await;
    connections_drop_to(&server, 0).await;
    let mut p1 = Client::connect(&server, "p1").await;
    let (waiting, req1) = queue(&mut p1, Ask::sample("synergy", "pvp")).await;
    assert_eq!(waiting, 1, "the closed connection is not counted");
    nothing_comes(&mut p1).await;
    let mut p2 = Client::connect(&server, "p2").await;
    let (_, req2) = queue(&mut p2, Ask::sample("synergy", "pvp")).await;
    let m1 = expect_matched(&mut p1, req1).await;
    let m2 = expect_matched(&mut p2, req2).await;
    assert_eq!((m1.seat, m2.seat), (0, 1), "the live ones meet");
    assert_eq!(server.lobby().len(), 1);
    server.shutdown().await;
}

#[tokio::test]
async fn queue_refusals_change_nothing() {
    let server = start_server().await;
    let mut p = Client::connect(&server, "p").await;
    let refusals = [
        (Ask::sample("chess", "pvp"), ErrorCode::UnknownRuleset),
        (
            Ask::options("synergy", json!({"mode": "chaos"})),
            ErrorCode::BadOptions,
        ),
        (Ask::sample("synergy", "nosuch"), ErrorCode::BadOptions),
        (
            Ask {
                options: Some(json!({"mode": "pvp"})),
                ..Ask::sample("synergy", "pvp")
            },
            ErrorCode::BadOptions,
        ),
        (
            Ask {
                setup: Some(json!({"deck": ["C001"]})),
                ..Ask::sample("synergy", "pvp")
            },
            ErrorCode::BadSetup,
        ),
        (
            Ask {
                bot_after_ms: Some(ClientMsg::BOT_AFTER_MS_MAX + 1),
                ..Ask::sample("synergy", "pvp")
            },
            ErrorCode::BadOptions,
        ),
    ];
    for (ask, code) in refusals {
        let req = send_queue(&mut p, ask).await;
        p.expect_error(code, Some(req)).await;
    }
    let req = p.req();
    p.send(ClientMsg::Unqueue { req: Some(req) }).await;
    p.expect_error(ErrorCode::NotQueued, Some(req)).await;

    let (_, first) = queue(&mut p, Ask::sample("synergy", "pvp")).await;
    let again = send_queue(&mut p, Ask::sample("lore", "duel")).await;
    p.expect_error(ErrorCode::AlreadyQueued, Some(again)).await;
    // Still queued where it was: the next synergy player meets it.
    let mut other = Client::connect(&server, "other").await;
    let (waiting, req) = queue(&mut other, Ask::sample("synergy", "pvp")).await;
    assert_eq!(waiting, 2);
    expect_matched(&mut p, first).await;
    expect_matched(&mut other, req).await;
    server.shutdown().await;
}

#[tokio::test]
async fn bot_after_gives_a_battle_against_the_bots_once_the_wait_is_over() {
    let server = start_server().await;
    let mut p = Client::connect(&server, "p").await;
    let wait = Duration::from_millis(400);
    let asked = Instant::now();
    let ask = Ask {
        bot_after_ms: Some(wait.as_millis() as u64),
        ..Ask::sample("synergy", "pvp")
    };
    let (waiting, req) = queue(&mut p, ask).await;
    assert_eq!(waiting, 1);
    let mut m = expect_matched(&mut p, req).await;
    let waited = asked.elapsed();
    assert!(
        waited >= wait,
        "matched after {waited:?}, before the wait of {wait:?}"
    );
    assert_eq!(m.seat, 0);
    let view = m.tracker.view().expect("a view");
    assert_eq!(view["seats"], json!(["connected", "bot"]), "{view}");
    drive(&mut p, &mut m.tracker, &Drive::player()).await;
    check_finished(&m.tracker, "p");

    // A player queued with a wait who meets someone first never gets the bots.
    let mut a = Client::connect(&server, "a").await;
    let mut b = Client::connect(&server, "b").await;
    let ask = Ask {
        bot_after_ms: Some(300),
        ..Ask::sample("synergy", "pvp")
    };
    let (_, req_a) = queue(&mut a, ask).await;
    let (_, req_b) = queue(&mut b, Ask::sample("synergy", "pvp")).await;
    let ma = expect_matched(&mut a, req_a).await;
    expect_matched(&mut b, req_b).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let mut ma_tracker = ma.tracker;
    battle_e2e::settle(&mut a, &mut ma_tracker).await;
    assert_eq!(
        ma_tracker.view().expect("a view")["seats"],
        json!(["connected", "connected"])
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_battle_with_one_seat_for_people_is_matched_at_once() {
    let server = start_server().await;
    let mut p = Client::connect(&server, "p").await;
    let (waiting, req) = queue(&mut p, Ask::sample("synergy", "pve")).await;
    assert_eq!(waiting, 1);
    let m = expect_matched(&mut p, req).await;
    assert_eq!(m.seat, 0);
    assert_eq!(
        m.tracker.view().expect("a view")["seats"],
        json!(["connected", "bot"]),
        "the Training Automaton plays seat 1"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_queued_connection_does_not_idle_out() {
    let server = start_server_with(Config {
        idle_connection: Duration::from_millis(300),
        ..Config::for_tests()
    })
    .await;
    let mut p = Client::connect(&server, "p").await;
    queue(&mut p, Ask::sample("synergy", "pvp")).await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    assert!(
        tokio::time::timeout(Duration::from_millis(1), p.conn.recv_text())
            .await
            .is_err(),
        "nothing came while queued, the close neither"
    );
    let req = p.req();
    p.send(ClientMsg::Unqueue { req: Some(req) }).await;
    assert!(matches!(p.expect_msg().await, ServerMsg::Unqueued { .. }));
    // Out of the queue and in no battle: idle again.
    match tokio::time::timeout(TIMEOUT, p.conn.recv_text()).await {
        Ok(Err(err)) => assert!(err.is_closed(), "{err}"),
        other => panic!("expected the idle close, got {other:?}"),
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_queue_is_held_to_the_create_rate() {
    let server = start_server_with(Config {
        create_rate: Rate::new(1, 1),
        ..Config::for_tests()
    })
    .await;
    let mut p = Client::connect(&server, "p").await;
    queue(&mut p, Ask::sample("synergy", "pvp")).await;
    let req = send_queue(&mut p, Ask::sample("synergy", "pvp")).await;
    p.expect_error(ErrorCode::RateLimited, Some(req)).await;
    server.shutdown().await;
}
