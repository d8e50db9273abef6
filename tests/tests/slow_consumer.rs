//! A connection that stops reading must not slow anyone else: the server drops it once its
//! outgoing queue is full, and the battles it watched run on at full speed.

use std::time::{Duration, Instant};

use battle_e2e::battle_client::Connection;
use battle_e2e::battle_protocol::{BattleStatus, ClientMsg};
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

/// How the reading spectators follow their battle.
const WATCH: Drive<'static> = Drive {
    act: false,
    resync_every: None,
    check: None,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stalled_spectator_does_not_slow_bot_battles() {
    let server = small_outbox_server().await;
    let mut host = Client::connect(&server, "host").await;
    let mut ids = Vec::new();
    for _ in 0..BATTLES {
        // A 5 ms pace keeps each battle running long enough for the spectators to attach
        // before it ends, so the stalled one really is in the battles' audiences.
        ids.push(
            host.create(Create::synergy(Value::Null).bots(vec![0, 1]).pace_ms(5))
                .await,
        );
    }
    let mut stalled = stalled_connection(&server).await;
    spectate_without_reading(&mut stalled, &ids).await;

    // One reading connection per battle: a single connection receiving 30 battles' bursts
    // could itself overflow a 16-frame queue, which is not what this test is about. They
    // attach all at once so that most battles are still running when they do.
    let started = Instant::now();
    let server_ref = &server;
    let mut watchers =
        futures::future::join_all(ids.iter().enumerate().map(|(i, id)| async move {
            let mut watcher = Client::connect(server_ref, &format!("watcher{i}")).await;
            let tracker = watcher.spectate(id).await;
            (watcher, tracker)
        }))
        .await;
    let running_when_watched = watchers.iter().filter(|(_, t)| !t.is_over()).count();
    let reports = futures::future::join_all(
        watchers
            .iter_mut()
            .map(|(watcher, tracker)| drive(watcher, tracker, &WATCH)),
    )
    .await;
    for ((watcher, tracker), report) in watchers.iter().zip(&reports) {
        check_finished(tracker, &watcher.name);
        assert_eq!(tracker.status(), Some(BattleStatus::Finished));
        assert!(report.messages < battle_e2e::MAX_MESSAGES, "{report:?}");
    }
    assert!(
        running_when_watched >= BATTLES / 2,
        "only {running_when_watched} of {BATTLES} battles were still running when watched: \
         the test proves little (raise the pace)"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the battles took {:?}",
        started.elapsed()
    );
    let received = assert_closed_by_server(stalled).await;
    eprintln!("the stalled spectator got {received} messages before the server closed it");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
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
