//! A connection that stops reading must not slow anyone else: the server drops it once its
//! outgoing queue is full, and the battles it watched run on at full speed.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use battle_e2e::battle_client::{Connection, ViewTracker};
use battle_e2e::battle_protocol::{BattleStatus, ClientMsg, ServerMsg};
use battle_e2e::battle_server::{Config, RunningServer};
use battle_e2e::{check_finished, drive, start_server_with, Client, Create, Drive, TIMEOUT};
use serde_json::Value;

/// Battles per test.
const BATTLES: usize = 30;

/// A server whose per-connection queue holds only 16 frames.
async fn small_outbox_server() -> RunningServer {
    let config = Config {
        outbox_capacity: 16,
        ..Config::for_tests()
    };
    start_server_with(config).await
}

/// A WebSocket whose TCP receive buffer is tiny, so the server's writes back up quickly once
/// it stops reading.
async fn stalled_connection(server: &RunningServer) -> Connection {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
    let tcp = socket.connect(server.addr).await.expect("tcp connect");
    Connection::connect_over(&server.url(), tcp)
        .await
        .expect("websocket handshake")
}

/// Send `spectate` for every battle on `conn` without reading a single reply.
async fn spectate_without_reading(conn: &mut Connection, ids: &[String]) {
    for id in ids {
        conn.send(&ClientMsg::Spectate {
            battle_id: id.clone(),
            req: None,
        })
        .await
        .expect("the stalled connection can still send");
    }
}

/// After the battles are over, read whatever reached the stalled connection: the server must
/// have closed it, so the stream ends (close frame, reset or EOF) rather than going quiet.
/// Returns how many messages arrived before the end.
async fn assert_closed_by_server(mut conn: Connection) -> usize {
    for received in 0..1_000_000 {
        match conn.recv_timeout(TIMEOUT).await {
            Ok(_) => continue,
            Err(e) if e.is_closed() => return received,
            Err(e) => panic!(
                "the non-reading connection was not closed by the server after {received} \
                 messages: {e}"
            ),
        }
    }
    panic!("the non-reading connection kept receiving forever");
}

/// Spectate every battle in `ids` on one connection and follow them all until each has an
/// outcome, within `limit`. Returns the trackers.
async fn watch_all(
    watcher: &mut Client,
    ids: &[String],
    limit: Duration,
) -> HashMap<String, ViewTracker> {
    for id in ids {
        let req = watcher.req();
        watcher
            .send(ClientMsg::Spectate {
                battle_id: id.clone(),
                req: Some(req),
            })
            .await;
    }
    let mut trackers: HashMap<String, ViewTracker> = ids
        .iter()
        .map(|id| (id.clone(), ViewTracker::new(id.clone())))
        .collect();
    let deadline = Instant::now() + limit;
    let mut spectating = 0;
    let mut messages = 0usize;
    while spectating < ids.len() || trackers.values().any(|t| !t.is_over()) {
        assert!(
            Instant::now() < deadline,
            "battles still running after {limit:?}: {} of {} finished",
            trackers.values().filter(|t| t.is_over()).count(),
            ids.len()
        );
        messages += 1;
        assert!(messages < 200_000, "endless stream of messages");
        let msg = watcher.expect_msg().await;
        let battle_id = match &msg {
            ServerMsg::Spectating { .. } => {
                spectating += 1;
                continue;
            }
            ServerMsg::Snapshot { battle_id, .. } | ServerMsg::Patch { battle_id, .. } => {
                battle_id.clone()
            }
            other => panic!("watcher: unexpected {other:?}"),
        };
        let tracker = trackers
            .get_mut(&battle_id)
            .unwrap_or_else(|| panic!("watcher: message for unknown battle {battle_id}"));
        tracker
            .apply(&msg)
            .unwrap_or_else(|e| panic!("watcher: {battle_id}: {e}"));
    }
    trackers
}

#[tokio::test]
async fn stalled_spectator_does_not_slow_bot_battles() {
    let server = small_outbox_server().await;
    let mut host = Client::connect(&server, "host").await;
    let mut ids = Vec::new();
    for _ in 0..BATTLES {
        // A 2 ms pace keeps each battle running long enough for both spectators to attach
        // before it ends, so the stalled one really is in every battle's audience.
        ids.push(
            host.create(Create::synergy(Value::Null).bots(vec![0, 1]).pace_ms(2))
                .await,
        );
    }
    let mut stalled = stalled_connection(&server).await;
    spectate_without_reading(&mut stalled, &ids).await;

    let mut watcher = Client::connect(&server, "watcher").await;
    let trackers = watch_all(&mut watcher, &ids, Duration::from_secs(30)).await;
    for (id, tracker) in &trackers {
        check_finished(tracker, id);
        assert_eq!(tracker.status(), Some(BattleStatus::Finished));
    }
    let received = assert_closed_by_server(stalled).await;
    eprintln!("the stalled spectator got {received} messages before the server closed it");
    server.shutdown().await;
}

#[tokio::test]
async fn stalled_spectator_does_not_block_players() {
    let server = small_outbox_server().await;
    let mut host = Client::connect(&server, "host").await;
    let mut ids = Vec::new();
    for _ in 0..BATTLES {
        // PvE battles wait for their player, so the stalled spectator is attached from the
        // very first move of each.
        ids.push(host.create_synergy(Value::Null, vec![]).await);
    }
    let mut stalled = stalled_connection(&server).await;
    spectate_without_reading(&mut stalled, &ids).await;
    // Make sure the server has attached the stalled spectator everywhere before play starts:
    // its spectate requests were sent before this list, on another connection, so wait until
    // every battle shows it.
    for _ in 0..200 {
        if host.list().await.iter().all(|b| b.spectators == 1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let started = Instant::now();
    for (i, id) in ids.iter().enumerate() {
        let mut player = Client::connect(&server, &format!("player{i}")).await;
        let mut seated = player.join(id, Some(0)).await;
        let report = drive(&mut player, &mut seated.tracker, &Drive::player()).await;
        check_finished(&seated.tracker, &player.name);
        assert!(report.acts > 0);
        player.close().await;
    }
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "playing took {:?}",
        started.elapsed()
    );
    let received = assert_closed_by_server(stalled).await;
    eprintln!("the stalled spectator got {received} messages before the server closed it");
    server.shutdown().await;
}
