//! Matchmaking across a cluster, with a real `redis-server` and nodes as processes: players
//! connected to different nodes meet and play their battle to the end; different requests
//! keep them apart; `unqueue` and a closed connection leave nobody to meet; `bot_after_ms`
//! gives a bot battle after the wait and not before; of three players for a two-seat battle
//! two meet and the third waits on; the waiters of a node that died are dropped, never
//! matched; a node paused past its lease, whose waiter was dropped so, puts it back.
//!
//! Needs `redis-server` (Debian's package: `apt-get install redis-server`).

use std::time::Duration;

use battle_e2e::battle_client::ViewTracker;
use battle_e2e::battle_protocol::{ClientMsg, ErrorCode, Req, Seat, ServerMsg};
use battle_e2e::cluster::{Node, Redis, TEST_LEASE_MS};
use battle_e2e::follower::{play_out, Follower};
use battle_e2e::{Client, TIMEOUT};
use serde_json::{json, Value};
use tokio::time::Instant;

/// Synergy for two people, by its sample or by its options (one pool).
fn pvp() -> ClientMsg {
    queue_msg("synergy", None, Some("pvp"), None)
}

fn queue_msg(
    ruleset: &str,
    options: Option<Value>,
    sample: Option<&str>,
    bot_after_ms: Option<u64>,
) -> ClientMsg {
    ClientMsg::Queue {
        ruleset: ruleset.to_string(),
        options,
        sample: sample.map(str::to_string),
        setup: None,
        bot_after_ms,
        req: None,
    }
}

/// Send `msg` (a `queue`) with a fresh `req` and expect `queued`: how many wait in the
/// pool, this one included, and the `req`.
async fn queue(client: &mut Client, msg: ClientMsg) -> (usize, Req) {
    let req = send_queue(client, msg).await;
    match client.expect_msg().await {
        ServerMsg::Queued {
            waiting, req: got, ..
        } => {
            assert_eq!(got, Some(req), "{}: queued echoes req", client.name);
            (waiting, req)
        }
        other => panic!("{}: expected queued, got {other:?}", client.name),
    }
}

async fn send_queue(client: &mut Client, mut msg: ClientMsg) -> Req {
    let fresh = client.req();
    if let ClientMsg::Queue { req, .. } = &mut msg {
        *req = Some(fresh);
    }
    client.send(msg).await;
    fresh
}

/// Expect `matched` (echoing `req`) then the seat's snapshot: the battle, seat and view.
async fn expect_matched(client: &mut Client, req: Req) -> (String, Seat, ViewTracker) {
    let (battle_id, seat) = match client.expect_msg().await {
        ServerMsg::Matched {
            battle_id,
            seat,
            req: got,
            ..
        } => {
            assert_eq!(
                got,
                Some(req),
                "{}: matched echoes the queue's req",
                client.name
            );
            (battle_id, seat)
        }
        other => panic!("{}: expected matched, got {other:?}", client.name),
    };
    let tracker = client.expect_snapshot(&battle_id).await;
    assert_eq!(
        tracker.seat(),
        Some(seat),
        "{}: its seat's view",
        client.name
    );
    (battle_id, seat, tracker)
}

/// Nothing arrives for `client` for a while (a match would have come by then): only the
/// pong answering a ping.
async fn nothing_comes(client: &mut Client) {
    tokio::time::sleep(Duration::from_millis(500)).await;
    client.assert_pong().await;
}

/// A metric of `node`, once it reads `want` (bounded wait).
async fn metric_becomes(node: &Node, name: &str, want: f64) {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let got = battle_e2e::http::scrape(node.addr).await.value(name, &[]);
        if got == want {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{}: {name} stays {got}, not {want}",
            node.id
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn players_on_two_nodes_meet_and_play_their_battle_to_the_end() {
    let redis = Redis::start("mm-meet");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let mut p0 = Client::connect_url(&n1.url, "p0 on n1").await;
    let mut p1 = Client::connect_url(&n2.url, "p1 on n2").await;
    let (waiting, req0) = queue(&mut p0, pvp()).await;
    assert_eq!(waiting, 1, "alone in the pool");
    nothing_comes(&mut p0).await;
    metric_becomes(&n1, "battle_matchmaker_waiting", 1.0).await;
    // The sample and its options are one pool, on every node.
    let by_options = queue_msg("synergy", Some(json!({"mode": "pvp"})), None, None);
    let (waiting, req1) = queue(&mut p1, by_options).await;
    assert_eq!(waiting, 2, "both in the pool when it is matched");
    let (battle0, seat0, view0) = expect_matched(&mut p0, req0).await;
    let (battle1, seat1, view1) = expect_matched(&mut p1, req1).await;
    assert_eq!(battle0, battle1, "one battle for both");
    assert_eq!((seat0, seat1), (0, 1), "seats in order of arrival");
    for node in [&n1, &n2] {
        metric_becomes(node, "battle_matchmaker_waiting", 0.0).await;
        metric_becomes(node, "battle_matchmaker_matched_total", 1.0).await;
    }
    let mut f0 = Follower::new(p0, view0, true);
    let mut f1 = Follower::new(p1, view1, true);
    play_out(&mut [&mut f0, &mut f1], &mut []).await;
    assert_eq!(f0.tracker.outcome(), f1.tracker.outcome(), "one game");
    assert_eq!(
        f0.tracker.game().and_then(|g| g.get("log")),
        f1.tracker.game().and_then(|g| g.get("log")),
        "the same log on both nodes"
    );
}

#[tokio::test]
async fn different_requests_on_two_nodes_do_not_meet() {
    let redis = Redis::start("mm-apart");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let slow = || {
        queue_msg(
            "gambit",
            Some(json!({"mode": "pvp", "tick_ms": 500})),
            None,
            None,
        )
    };
    let fast = || {
        queue_msg(
            "gambit",
            Some(json!({"mode": "pvp", "tick_ms": 100})),
            None,
            None,
        )
    };
    let mut a = Client::connect_url(&n1.url, "slow on n1").await;
    let mut b = Client::connect_url(&n2.url, "fast on n2").await;
    let mut c = Client::connect_url(&n2.url, "synergy on n2").await;
    assert_eq!(queue(&mut a, slow()).await.0, 1);
    assert_eq!(queue(&mut b, fast()).await.0, 1, "a pool of its own");
    assert_eq!(queue(&mut c, pvp()).await.0, 1, "another ruleset's");
    nothing_comes(&mut a).await;
    nothing_comes(&mut b).await;
    nothing_comes(&mut c).await;
    // The same options meet, across nodes.
    let mut d = Client::connect_url(&n1.url, "fast on n1").await;
    let (waiting, req_d) = queue(&mut d, fast()).await;
    assert_eq!(waiting, 2);
    let (battle, seat, _) = expect_matched(&mut d, req_d).await;
    assert_eq!(seat, 1);
    let ServerMsg::Matched { battle_id, .. } = b.expect_msg().await else {
        panic!("fast on n2: expected matched");
    };
    assert_eq!(battle_id, battle);
    nothing_comes(&mut a).await;
}

#[tokio::test]
async fn unqueue_on_one_node_leaves_nobody_to_meet() {
    let redis = Redis::start("mm-unqueue");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let mut p0 = Client::connect_url(&n1.url, "p0 on n1").await;
    queue(&mut p0, pvp()).await;
    let req = p0.req();
    p0.send(ClientMsg::Unqueue { req: Some(req) }).await;
    match p0.expect_msg().await {
        ServerMsg::Unqueued { reason, req: got } => {
            assert_eq!(reason, "requested");
            assert_eq!(got, Some(req));
        }
        other => panic!("expected unqueued, got {other:?}"),
    }
    metric_becomes(&n1, "battle_matchmaker_waiting", 0.0).await;
    let mut p1 = Client::connect_url(&n2.url, "p1 on n2").await;
    let (waiting, _) = queue(&mut p1, pvp()).await;
    assert_eq!(waiting, 1, "p0's entry is gone");
    nothing_comes(&mut p1).await;
    nothing_comes(&mut p0).await;
    let req = p0.req();
    p0.send(ClientMsg::Unqueue { req: Some(req) }).await;
    p0.expect_error(ErrorCode::NotQueued, Some(req)).await;
}

#[tokio::test]
async fn a_queued_connection_that_closes_is_never_matched() {
    let redis = Redis::start("mm-closed");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let mut p0 = Client::connect_url(&n1.url, "p0 on n1").await;
    queue(&mut p0, pvp()).await;
    metric_becomes(&n1, "battle_matchmaker_waiting", 1.0).await;
    p0.close().await;
    metric_becomes(&n1, "battle_matchmaker_waiting", 0.0).await;
    let mut p1 = Client::connect_url(&n2.url, "p1 on n2").await;
    let (waiting, _) = queue(&mut p1, pvp()).await;
    assert_eq!(waiting, 1, "the closed connection's entry is gone");
    nothing_comes(&mut p1).await;
    metric_becomes(&n1, "battle_matchmaker_matched_total", 0.0).await;
    metric_becomes(&n2, "battle_matchmaker_matched_total", 0.0).await;
}

#[tokio::test]
async fn bots_come_after_the_wait_and_not_before() {
    let redis = Redis::start("mm-bots");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let wait = Duration::from_millis(1_000);
    let mut p = Client::connect_url(&n2.url, "p on n2").await;
    let asked = Instant::now();
    let with_wait = |ms: u64| queue_msg("synergy", None, Some("pvp"), Some(ms));
    let (waiting, req) = queue(&mut p, with_wait(wait.as_millis() as u64)).await;
    assert_eq!(waiting, 1);
    nothing_comes(&mut p).await;
    let (_, seat, view) = expect_matched(&mut p, req).await;
    let waited = asked.elapsed();
    assert!(waited >= wait, "matched after {waited:?}, before {wait:?}");
    assert_eq!(seat, 0);
    let seats = &view.view().expect("a view")["seats"];
    assert_eq!(seats, &json!(["connected", "bot"]), "against the bots");
    let mut follower = Follower::new(p, view, true);
    play_out(&mut [&mut follower], &mut []).await;
    metric_becomes(&n2, "battle_matchmaker_matched_total", 1.0).await;

    // A player with a wait who meets someone on another node first never gets the bots.
    let mut a = Client::connect_url(&n1.url, "a on n1").await;
    let mut b = Client::connect_url(&n2.url, "b on n2").await;
    let (_, req_a) = queue(&mut a, with_wait(600)).await;
    let (_, req_b) = queue(&mut b, pvp()).await;
    let (battle, _, view_a) = expect_matched(&mut a, req_a).await;
    let (other, _, _) = expect_matched(&mut b, req_b).await;
    assert_eq!(battle, other);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let mut view_a = view_a;
    battle_e2e::settle(&mut a, &mut view_a).await;
    assert_eq!(
        view_a.view().expect("a view")["seats"],
        json!(["connected", "connected"])
    );
    metric_becomes(&n1, "battle_matchmaker_waiting", 0.0).await;
}

#[tokio::test]
async fn of_three_players_on_three_nodes_two_meet_and_the_third_waits_on() {
    let redis = Redis::start("mm-three");
    let nodes = [
        Node::start(&redis, "n1", &[]),
        Node::start(&redis, "n2", &[]),
        Node::start(&redis, "n3", &[]),
    ];
    let mut players = Vec::new();
    for node in &nodes {
        let name = format!("p on {}", node.id);
        players.push(Client::connect_url(&node.url, &name).await);
    }
    // All three ask at once.
    let mut reqs = Vec::new();
    for player in &mut players {
        reqs.push(send_queue(player, pvp()).await);
    }
    for player in &mut players {
        let msg = player.expect_msg().await;
        assert!(matches!(msg, ServerMsg::Queued { .. }), "{msg:?}");
    }
    let mut met = Vec::new();
    let mut waits = None;
    for (index, player) in players.iter_mut().enumerate() {
        match tokio::time::timeout(Duration::from_secs(2), player.expect_msg()).await {
            Ok(ServerMsg::Matched {
                battle_id,
                seat,
                req,
                ..
            }) => {
                assert_eq!(req, Some(reqs[index]));
                player.expect_snapshot(&battle_id).await;
                met.push((battle_id, seat));
            }
            Ok(other) => panic!("{}: expected matched, got {other:?}", player.name),
            Err(_) => {
                assert!(waits.is_none(), "only one waits on");
                waits = Some(index);
            }
        }
    }
    assert_eq!(met.len(), 2, "two meet");
    assert_eq!(met[0].0, met[1].0, "in one battle");
    let mut seats: Vec<Seat> = met.iter().map(|m| m.1).collect();
    seats.sort_unstable();
    assert_eq!(seats, [0, 1]);
    let third = waits.expect("one waits on");
    metric_becomes(&nodes[third], "battle_matchmaker_waiting", 1.0).await;
    nothing_comes(&mut players[third]).await;
    // It still waits: a fourth player meets it.
    let other_node = &nodes[(third + 1) % 3];
    let mut fourth = Client::connect_url(&other_node.url, "fourth").await;
    let (waiting, req) = queue(&mut fourth, pvp()).await;
    assert_eq!(waiting, 2);
    let (battle, seat, _) = expect_matched(&mut fourth, req).await;
    assert_eq!(seat, 1);
    let (other, seat, _) = expect_matched(&mut players[third], reqs[third]).await;
    assert_eq!((other, seat), (battle, 0));
}

#[tokio::test]
async fn the_waiters_of_a_node_that_died_are_dropped_never_matched() {
    let redis = Redis::start("mm-dead");
    let mut n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let mut lost = Client::connect_url(&n1.url, "on n1").await;
    queue(&mut lost, pvp()).await;
    n1.kill();
    // Its lease runs out.
    tokio::time::sleep(Duration::from_millis(2 * TEST_LEASE_MS + 500)).await;
    let mut p1 = Client::connect_url(&n2.url, "p1 on n2").await;
    let (waiting, req1) = queue(&mut p1, pvp()).await;
    assert_eq!(
        waiting, 2,
        "the dead node's waiter is still listed until taken"
    );
    nothing_comes(&mut p1).await;
    let mut p2 = Client::connect_url(&n2.url, "p2 on n2").await;
    let (waiting, req2) = queue(&mut p2, pvp()).await;
    assert_eq!(waiting, 2, "the dead node's waiter was dropped when taken");
    let (battle, seat1, _) = expect_matched(&mut p1, req1).await;
    let (other, seat2, _) = expect_matched(&mut p2, req2).await;
    assert_eq!(battle, other);
    assert_eq!((seat1, seat2), (0, 1), "the live ones, in their order");
}

#[tokio::test]
async fn a_node_paused_past_its_lease_puts_its_dropped_waiter_back() {
    let redis = Redis::start("mm-paused");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let mut p0 = Client::connect_url(&n1.url, "p0 on n1").await;
    let (_, req0) = queue(&mut p0, pvp()).await;
    n1.signal("STOP");
    // Past its lease: n1 is taken for stopped, and p1's queue drops p0 as dead.
    tokio::time::sleep(Duration::from_millis(2 * TEST_LEASE_MS + 500)).await;
    let mut p1 = Client::connect_url(&n2.url, "p1 on n2").await;
    let (waiting, req1) = queue(&mut p1, pvp()).await;
    assert_eq!(waiting, 2, "p0 still listed");
    nothing_comes(&mut p1).await;
    n1.signal("CONT");
    // n1 finds p0 missing from the pool with no seat come, and puts it back: they meet.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let matched = battle_e2e::http::scrape(n2.addr)
            .await
            .value("battle_matchmaker_matched_total", &[]);
        if matched == 1.0 {
            break;
        }
        assert!(Instant::now() < deadline, "p0 was never put back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (battle, seat1, _) = expect_matched(&mut p1, req1).await;
    let (other, seat0, _) = expect_matched(&mut p0, req0).await;
    assert_eq!(battle, other);
    assert_eq!((seat1, seat0), (0, 1), "p0 lost its place, not its wait");
}
