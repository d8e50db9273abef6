//! Session logic of the terminal client, without a terminal: against a real in-process server
//! on 127.0.0.1:0 (views from patches match fresh snapshots, reconnecting with the token keeps
//! the seat, giving up is bounded) and against a scripted server (a `seq` gap makes the
//! client resync). Every wait is bounded.

use std::time::Duration;

use battle_protocol::BattleStatus;
use battle_server::{Config, RunningServer};
use battle_term::lobby::{self, BattleSpec, Opponent};
use battle_term::{Event, Link, PlayerSession, ReconnectPolicy, SpectatorSession};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// Longest wait for any single event.
const TIMEOUT: Duration = Duration::from_secs(10);
/// Most events one battle may take before the test calls it endless.
const MAX_EVENTS: usize = 5_000;

/// Quick retries so the reconnect tests finish fast.
fn fast_policy() -> ReconnectPolicy {
    ReconnectPolicy {
        attempts: 3,
        first_delay: Duration::from_millis(20),
        max_delay: Duration::from_millis(80),
        answer_timeout: Duration::from_secs(5),
    }
}

async fn server() -> RunningServer {
    battle_server::start(Config::for_tests())
        .await
        .expect("the test server starts on an ephemeral port")
}

fn spec(opponent: Opponent) -> BattleSpec {
    BattleSpec {
        ruleset: "synergy".into(),
        opponent,
        sample: None,
        options: None,
        pace_ms: Some(0),
        private: false,
    }
}

async fn next(feed: &mut battle_term::BattleFeed) -> Event {
    tokio::time::timeout(TIMEOUT, feed.next_event())
        .await
        .expect("an event within the timeout")
}

#[tokio::test]
async fn patched_view_matches_fresh_snapshots_through_a_whole_battle() {
    let server = server().await;
    let url = server.url();
    let (id, _) = lobby::create(&url, &spec(Opponent::Bot))
        .await
        .expect("create");
    let mut player = PlayerSession::join(&url, &id, Some(0), None, None, fast_policy())
        .await
        .expect("join");
    let mut watcher = SpectatorSession::watch(&url, &id, fast_policy())
        .await
        .expect("watch");
    assert_eq!(player.seat(), 0);
    assert_eq!(watcher.feed().tracker().seat(), None);

    let mut checked = 0;
    let mut acted = 0;
    for _ in 0..MAX_EVENTS {
        let tracker = player.feed().tracker();
        if tracker.is_over() {
            break;
        }
        if tracker.my_turn() && !player.feed().act_pending() {
            // The battle waits for us, so this view is the server's latest: a fresh snapshot
            // must equal what the patches built.
            let built = tracker.view().cloned().expect("a view");
            player.feed_mut().resync().await.expect("resync sent");
            match next(player.feed_mut()).await {
                Event::Resynced => {}
                Event::Changed => panic!("nothing may change while the battle waits on us"),
                other => panic!("unexpected event while resyncing: {other:?}"),
            }
            assert_eq!(
                player.feed().tracker().view(),
                Some(&built),
                "resync differs"
            );
            checked += 1;
            let action = player.feed().tracker().legal_actions()[0].clone();
            player.act(action).await.expect("act");
            acted += 1;
        }
        match next(player.feed_mut()).await {
            Event::Changed => {}
            other => panic!("unexpected event: {other:?}"),
        }
    }
    assert!(player.feed().tracker().is_over(), "the battle ends");
    assert!(
        checked >= 2 && acted >= checked,
        "checked {checked}, acted {acted}"
    );

    // The spectator followed the same battle by patches: it ends in the same public state
    // as a fresh spectator's snapshot.
    for _ in 0..MAX_EVENTS {
        if watcher.feed().tracker().is_over() {
            break;
        }
        assert_eq!(next(watcher.feed_mut()).await, Event::Changed);
    }
    let fresh = SpectatorSession::watch(&url, &id, fast_policy())
        .await
        .expect("second spectator");
    assert_eq!(
        watcher.feed().tracker().view(),
        fresh.feed().tracker().view()
    );
    assert!(
        watcher.feed().tracker().view().expect("view")["game"]["sides"][0]
            .get("hand")
            .is_none()
    );
    player.quit().await;
    watcher.quit().await;
    fresh.quit().await;
    server.shutdown().await;
}

#[tokio::test]
async fn reconnect_with_the_token_resumes_the_same_seat() {
    let server = server().await;
    let url = server.url();
    let (id, _) = lobby::create(&url, &spec(Opponent::Bot))
        .await
        .expect("create");
    let mut player = PlayerSession::join(&url, &id, None, None, None, fast_policy())
        .await
        .expect("join");
    let token = player.token().to_owned();
    let before = player.feed().tracker().view().cloned().expect("view");
    assert!(
        player.feed().tracker().my_turn(),
        "PvE starts with the player's turn"
    );

    assert_eq!(
        player.feed_mut().drop_connection(),
        Event::Link(Link::Reconnecting { attempt: 1, of: 3 })
    );
    assert_eq!(next(player.feed_mut()).await, Event::Link(Link::Connected));
    assert_eq!(player.seat(), 0);
    assert_eq!(player.token(), token);
    assert_eq!(
        player.feed().tracker().view(),
        Some(&before),
        "same seat, same view"
    );

    // The seat still acts after the reconnect.
    let action = player.feed().tracker().legal_actions()[0].clone();
    player.act(action).await.expect("act after reconnect");
    assert_eq!(next(player.feed_mut()).await, Event::Changed);
    assert!(!player.feed().act_pending(), "the answer carried our req");

    // Quit, then come back with `rejoin`: the same seat, where we left it.
    let left_at = player.feed().tracker().view().cloned().expect("view");
    player.quit().await;
    let back = PlayerSession::rejoin(&url, &id, &token, None, fast_policy())
        .await
        .expect("rejoin");
    assert_eq!(back.seat(), 0);
    assert_eq!(back.token(), token);
    assert_eq!(back.feed().tracker().view(), Some(&left_at));
    back.quit().await;
    server.shutdown().await;
}

/// A TCP relay in front of `target`: every accepted connection is piped to the server. The
/// returned sender cuts every relayed connection at once (new ones are still accepted), which
/// the client sees as a network failure.
async fn relay(target: std::net::SocketAddr) -> (String, tokio::sync::watch::Sender<u32>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("ws://{}", listener.local_addr().expect("addr"));
    let (cut, cuts) = tokio::sync::watch::channel(0u32);
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let mut cuts = cuts.clone();
            cuts.borrow_and_update();
            tokio::spawn(async move {
                let Ok(mut server) = tokio::net::TcpStream::connect(target).await else {
                    return;
                };
                tokio::select! {
                    _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                    _ = cuts.changed() => {}
                }
            });
        }
    });
    (url, cut)
}

#[tokio::test]
async fn a_connection_cut_by_the_network_is_resumed_with_the_token() {
    let server = server().await;
    let (id, _) = lobby::create(&server.url(), &spec(Opponent::Bot))
        .await
        .expect("create");
    let (url, cut) = relay(server.addr).await;
    let mut player = PlayerSession::join(&url, &id, Some(0), None, None, fast_policy())
        .await
        .expect("join through the relay");
    let before = player.feed().tracker().view().cloned().expect("view");
    cut.send_modify(|n| *n += 1);
    assert_eq!(
        next(player.feed_mut()).await,
        Event::Link(Link::Reconnecting { attempt: 1, of: 3 })
    );
    assert_eq!(next(player.feed_mut()).await, Event::Link(Link::Connected));
    assert_eq!(player.feed().tracker().view(), Some(&before));
    let action = player.feed().tracker().legal_actions()[0].clone();
    player.act(action).await.expect("act after the cut");
    assert_eq!(next(player.feed_mut()).await, Event::Changed);
    player.quit().await;
    server.shutdown().await;
}

#[tokio::test]
async fn reconnecting_gives_up_after_the_allowed_tries() {
    let server = server().await;
    let url = server.url();
    let (id, _) = lobby::create(&url, &spec(Opponent::Person))
        .await
        .expect("create");
    let mut watcher = SpectatorSession::watch(&url, &id, fast_policy())
        .await
        .expect("watch");
    assert_eq!(
        watcher.feed().tracker().status(),
        Some(BattleStatus::Waiting)
    );
    server.shutdown().await;
    watcher.feed_mut().drop_connection();
    let mut seen = Vec::new();
    loop {
        match next(watcher.feed_mut()).await {
            Event::Link(Link::Failed(why)) => {
                assert!(why.contains("3 tries"), "{why}");
                break;
            }
            Event::Link(link) => seen.push(link),
            other => panic!("unexpected event: {other:?}"),
        }
        assert!(seen.len() < 10, "bounded tries: {seen:?}");
    }
    assert_eq!(
        seen,
        vec![
            Link::Reconnecting { attempt: 2, of: 3 },
            Link::Reconnecting { attempt: 3, of: 3 }
        ]
    );
    assert!(matches!(watcher.feed().link(), Link::Failed(_)));
}

/// A one-connection scripted server: answers `join` with `joined` + snapshot at seq 1, then
/// sends a patch at seq 3 (seq 2 is "lost"), expects a `resync` and answers it with a
/// snapshot at seq 3, then sends patch 4.
async fn gap_server() -> (String, tokio::task::JoinHandle<Vec<Value>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("ws://{}", listener.local_addr().expect("addr"));
    let task = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.expect("accept");
        let mut ws = tokio_tungstenite::accept_async(tcp)
            .await
            .expect("handshake");
        let mut received = Vec::new();
        let recv = async |ws: &mut tokio_tungstenite::WebSocketStream<_>| -> Value {
            loop {
                match ws.next().await.expect("a frame").expect("no error") {
                    Message::Text(t) => return serde_json::from_str(t.as_str()).expect("json"),
                    _ => continue,
                }
            }
        };
        let send = |v: Value| Message::text(v.to_string());
        let view = |hp: u64| {
            json!({"battle_id": "g1", "ruleset": "synergy", "status": "playing", "seat": 0,
                   "to_act": [1], "legal": [], "outcome": null, "game": {"hp": hp}})
        };
        let join = recv(&mut ws).await;
        let req = join["req"].clone();
        received.push(join);
        ws.send(send(
            json!({"type": "joined", "battle_id": "g1", "seat": 0, "token": "t", "req": req}),
        ))
        .await
        .expect("joined");
        ws.send(send(
            json!({"type": "snapshot", "battle_id": "g1", "seq": 1, "view": view(30)}),
        ))
        .await
        .expect("snapshot");
        ws.send(send(json!({"type": "patch", "battle_id": "g1", "seq": 3,
                             "ops": [{"op": "replace", "path": "/game/hp", "value": 20}]})))
            .await
            .expect("patch 3");
        let resync = recv(&mut ws).await;
        let req = resync["req"].clone();
        received.push(resync);
        ws.send(send(
            json!({"type": "snapshot", "battle_id": "g1", "seq": 3, "view": view(20), "req": req}),
        ))
        .await
        .expect("resync snapshot");
        ws.send(send(json!({"type": "patch", "battle_id": "g1", "seq": 4,
                             "ops": [{"op": "replace", "path": "/game/hp", "value": 10}]})))
            .await
            .expect("patch 4");
        // Wait until the client goes away.
        let _ = ws.next().await;
        received
    });
    (url, task)
}

#[tokio::test]
async fn a_seq_gap_triggers_a_resync() {
    let (url, server) = gap_server().await;
    let policy = ReconnectPolicy {
        attempts: 0,
        ..fast_policy()
    };
    let mut player = PlayerSession::join(&url, "g1", None, None, None, policy)
        .await
        .expect("join");
    assert_eq!(player.feed().tracker().seq(), Some(1));
    match next(player.feed_mut()).await {
        Event::Resyncing(why) => assert!(why.contains("expected patch 2, got 3"), "{why}"),
        other => panic!("expected a resync, got {other:?}"),
    }
    assert_eq!(
        player.feed().tracker().seq(),
        Some(1),
        "the gap patch is not applied"
    );
    assert_eq!(next(player.feed_mut()).await, Event::Resynced);
    assert_eq!(player.feed().tracker().seq(), Some(3));
    assert_eq!(next(player.feed_mut()).await, Event::Changed);
    assert_eq!(player.feed().tracker().seq(), Some(4));
    assert_eq!(player.feed().tracker().game(), Some(&json!({"hp": 10})));
    player.quit().await;
    let received = tokio::time::timeout(TIMEOUT, server)
        .await
        .expect("server ends")
        .expect("server task");
    assert_eq!(received[0]["type"], "join");
    assert_eq!(received[1]["type"], "resync");
    assert_eq!(received[1]["battle_id"], "g1");
}
