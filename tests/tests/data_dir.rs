//! The data directory is one server's alone, over real `battle-server` processes: a second
//! server on it exits at once with status 2 and one sentence naming the directory and the
//! holder's pid, while the first plays on untouched; after `kill -9` of the holder the next
//! start takes the directory at once; a cluster node's directory (its `node-id`) is held
//! the same way. And a server that cannot start says its real cause, in one sentence, with
//! status 2.

use battle_e2e::cluster::Redis;
use battle_e2e::follower::{advance, play_out};
use battle_e2e::fresh_data_dir;
use battle_e2e::process::{machine_speed, pvp_battle, rejoin, ServerProcess};

/// `stderr`'s last line: the sentence a server that did not start says.
fn last_line(stderr: &str) -> &str {
    stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_directory_is_refused_and_the_first_plays_on() {
    let dir = fresh_data_dir("lock-twice");
    let first = ServerProcess::start(&dir, &machine_speed());
    let (mut p0, mut p1, _) = pvp_battle(&first.url, "first").await;
    assert!(advance(&mut [&mut p0, &mut p1], 3).await > 0);

    let refused = ServerProcess::try_start(&dir, &machine_speed())
        .err()
        .expect("a second server on the same directory does not start");
    assert_eq!(refused.status.code(), Some(2), "{}", refused.stderr);
    let sentence = last_line(&refused.stderr);
    assert!(
        sentence.contains(&dir.display().to_string()),
        "the directory is named: {sentence}"
    );
    assert!(
        sentence.contains(&format!("(pid {})", first.pid())),
        "the holder's pid is named: {sentence}"
    );
    assert!(
        !sentence.contains("listen"),
        "the cause is the lock: {sentence}"
    );

    // The first server is untouched: its battle plays on to its end.
    play_out(&mut [&mut p0, &mut p1], &mut []).await;
    assert!(p0.tracker.is_over() && p1.tracker.is_over());
    let health = battle_e2e::http::get(first.addr, "/health").await.json();
    assert_eq!(health["status"], "ok", "{health}");
    drop(first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_kill_9_the_next_start_takes_the_directory_at_once() {
    let dir = fresh_data_dir("lock-kill");
    let mut first = ServerProcess::start(&dir, &machine_speed());
    let (mut p0, mut p1, tokens) = pvp_battle(&first.url, "before").await;
    let battle = p0.battle();
    assert!(advance(&mut [&mut p0, &mut p1], 4).await > 0);
    let seen = p0.seen_log;
    first.kill();
    // At once: no wait, no clean-up by hand.
    let second = ServerProcess::start(&dir, &machine_speed());
    let mut p0 = rejoin(&second.url, "after p0", &battle, &tokens[0]).await;
    let mut p1 = rejoin(&second.url, "after p1", &battle, &tokens[1]).await;
    p0.seen_log = seen;
    play_out(&mut [&mut p0, &mut p1], &mut []).await;
    assert!(p0.tracker.is_over());
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_node_holds_its_data_directory_and_node_id_the_same_way() {
    let redis = Redis::start("lock-node");
    let dir = fresh_data_dir("lock-node");
    let url = redis.url();
    let node: Vec<&str> = ["--cluster-url", url.as_str(), "--lease-ms", "1000"]
        .into_iter()
        .chain(machine_speed())
        .collect();
    let first = ServerProcess::start(&dir, &node);
    let id = std::fs::read_to_string(dir.join("node-id")).expect("the node id is kept");
    let refused = ServerProcess::try_start(&dir, &node)
        .err()
        .expect("a second node on the same directory does not start");
    assert_eq!(refused.status.code(), Some(2), "{}", refused.stderr);
    let sentence = last_line(&refused.stderr);
    assert!(
        sentence.contains(&dir.display().to_string())
            && sentence.contains(&format!("(pid {})", first.pid())),
        "{sentence}"
    );
    // The node's id was never taken twice.
    assert_eq!(
        std::fs::read_to_string(dir.join("node-id")).expect("kept"),
        id
    );
    let health = battle_e2e::http::get(first.addr, "/health").await.json();
    assert_eq!(health["status"], "ok", "{health}");
    drop(first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn startup_errors_say_their_real_cause_with_status_2() {
    // An address another program listens on.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("bound").port().to_string();
    let listen = format!("127.0.0.1:{port}");
    let refused = ServerProcess::try_with(&["--listen", &listen, "--data-dir", "none"])
        .err()
        .expect("the address is taken");
    assert_eq!(refused.status.code(), Some(2));
    let sentence = last_line(&refused.stderr);
    assert!(
        sentence.contains(&format!("cannot listen on {listen}"))
            && sentence.contains("another --listen"),
        "{sentence}"
    );

    // A database a newer server wrote: the store is named, not the address.
    let dir = fresh_data_dir("start-newer");
    std::fs::create_dir_all(&dir).expect("a directory");
    let conn = rusqlite::Connection::open(dir.join("battles.sqlite3")).expect("a database");
    conn.pragma_update(None, "user_version", 99)
        .expect("a schema version");
    drop(conn);
    let refused = ServerProcess::try_start(&dir, &[]).err().expect("refused");
    assert_eq!(refused.status.code(), Some(2));
    let sentence = last_line(&refused.stderr);
    assert!(
        sentence.contains(&format!(
            "cannot open the battles kept in {}",
            dir.display()
        )) && sentence.contains("schema version 99"),
        "{sentence}"
    );
    assert!(!sentence.contains("listen"), "{sentence}");
    assert_eq!(
        refused.stderr.trim().lines().count(),
        1,
        "{}",
        refused.stderr
    );

    // A data directory that is a file.
    let file = fresh_data_dir("start-file");
    std::fs::write(&file, "not a directory").expect("a file");
    let refused = ServerProcess::try_start(&file, &[]).err().expect("refused");
    assert_eq!(refused.status.code(), Some(2));
    let sentence = last_line(&refused.stderr);
    assert!(
        sentence.contains(&format!("cannot use the data directory {}", file.display())),
        "{sentence}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&file);
}
