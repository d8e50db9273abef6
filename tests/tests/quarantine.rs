//! A bad record never stops the service, over real `battle-server` processes: battles whose
//! logs are damaged on purpose (an input written twice, a gap, a ruleset version this build
//! does not have, an input the rules refuse) are set aside at start, each logged with its
//! id and the reason and counted in `/health` and `/metrics`, while every other battle is
//! restored and plays on. `battle-server quarantine` lists them, refuses to change them while
//! a server holds the directory, drops one for good, and retries one: a battle fixed meanwhile
//! replays and comes back on the next start.

use std::path::Path;
use std::time::Duration;

use battle_e2e::battle_protocol::ErrorCode;
use battle_e2e::follower::{advance, play_out, Follower};
use battle_e2e::http::{get, scrape};
use battle_e2e::process::{machine_speed, pvp_battle, rejoin, run_command, ServerProcess};
use battle_e2e::{fresh_data_dir, Client};
use battle_protocol::ClientMsg;

/// One battle of the first server: its id and its players' tokens.
struct Kept {
    battle: String,
    tokens: [String; 2],
}

/// `battle-server --data-dir DIR quarantine ARGS`: its exit code, stdout and stderr.
fn quarantine(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let dir = dir.display().to_string();
    let mut all = vec!["--data-dir", dir.as_str(), "quarantine"];
    all.extend_from_slice(args);
    let (status, out, err) = run_command(&all);
    (status.code(), out, err)
}

fn database(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join("battles.sqlite3")).expect("the database opens")
}

/// Rejoin both seats of `kept` on `url` and play the battle to its end.
async fn plays_to_the_end(url: &str, kept: &Kept) {
    let mut p0 = rejoin(url, "again p0", &kept.battle, &kept.tokens[0]).await;
    let mut p1 = rejoin(url, "again p1", &kept.battle, &kept.tokens[1]).await;
    play_out(&mut [&mut p0, &mut p1], &mut []).await;
    assert!(p0.tracker.is_over() && p1.tracker.is_over());
}

/// `rejoin` of a battle set aside is answered `no_such_battle`.
async fn is_not_served(url: &str, kept: &Kept) {
    let mut client = Client::connect_url(url, "set aside").await;
    let req = client.req();
    client
        .send(ClientMsg::Rejoin {
            battle_id: kept.battle.clone(),
            token: kept.tokens[0].clone(),
            req: Some(req),
        })
        .await;
    client
        .expect_error(ErrorCode::NoSuchBattle, Some(req))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damaged_battles_are_set_aside_and_every_other_battle_comes_back() {
    let dir = fresh_data_dir("quarantine");
    let mut first = ServerProcess::start(&dir, &machine_speed());
    let mut kept = Vec::new();
    let mut players: Vec<Follower> = Vec::new();
    for b in 0..6 {
        let (mut p0, mut p1, tokens) = pvp_battle(&first.url, &format!("battle {b}")).await;
        assert!(
            advance(&mut [&mut p0, &mut p1], 4).await >= 3,
            "moves were made"
        );
        kept.push(Kept {
            battle: p0.battle(),
            tokens,
        });
        players.extend([p0, p1]);
    }
    assert!(first.terminate(Duration::from_secs(20)).success());
    drop(players);

    // Damage four logs on purpose; battles 4 and 5 stay as they were.
    let db = database(&dir);
    let id = |b: usize| kept[b].battle.clone();
    db.execute(
        "INSERT INTO inputs (battle, n, input) SELECT battle, n, input FROM inputs
         WHERE battle = ?1 AND n = 2",
        [id(0)],
    )
    .expect("an input written twice");
    db.execute("DELETE FROM inputs WHERE battle = ?1 AND n = 2", [id(1)])
        .expect("a gap");
    db.execute(
        "UPDATE battles SET version = version + 100 WHERE id = ?1",
        [id(2)],
    )
    .expect("a version this build does not have");
    db.execute(
        "UPDATE inputs SET input = '{\"input\":\"act\",\"seat\":0,\"action\":{\"kind\":\"no_such_move\"}}'
         WHERE battle = ?1 AND n = (SELECT MAX(n) FROM inputs WHERE battle = ?1)",
        [id(3)],
    )
    .expect("an input the rules refuse");
    drop(db);

    let mut second = ServerProcess::start(&dir, &machine_speed());
    let log = second.stderr();
    for (b, why) in [
        (0, "input 2 is written twice"),
        (1, "input 3 follows input 1"),
        (2, "version"),
        (3, "does not replay"),
    ] {
        let line = log
            .lines()
            .find(|line| line.contains(&id(b)) && line.contains("set aside"))
            .unwrap_or_else(|| panic!("battle {b} is logged as set aside:\n{log}"));
        assert!(line.contains(why), "battle {b}: {line}");
    }
    let health = get(second.addr, "/health").await.json();
    assert_eq!(health["status"], "ok", "{health}");
    assert_eq!(health["quarantined"], 4, "{health}");
    assert_eq!(
        health["battles"], 2,
        "only the sound battles are live: {health}"
    );
    let metrics = scrape(second.addr).await;
    assert_eq!(metrics.value("battle_quarantined_battles", &[]), 4.0);
    for damaged in &kept[..4] {
        is_not_served(&second.url, damaged).await;
    }
    for sound in &kept[4..] {
        plays_to_the_end(&second.url, sound).await;
    }

    // Listed beside the running server; not changed while it holds the directory.
    let (code, out, _) = quarantine(&dir, &["list"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("4 battles are set aside"), "{out}");
    for b in 0..4 {
        assert!(out.contains(&id(b)), "{out}");
    }
    let (code, _, err) = quarantine(&dir, &["drop", &id(0)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("(pid {})", second.pid())) && err.contains("stop it first"),
        "{err}"
    );
    assert!(second.terminate(Duration::from_secs(20)).success());

    // Retried unchanged, it still does not replay and stays set aside.
    let (code, _, err) = quarantine(&dir, &["retry", &id(2)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("still does not replay"), "{err}");
    // Fixed (as a build with that version would read it), it replays and leaves quarantine.
    database(&dir)
        .execute(
            "UPDATE battles SET version = version - 100 WHERE id = ?1",
            [id(2)],
        )
        .expect("fixed");
    let (code, out, err) = quarantine(&dir, &["retry", &id(2)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("out of quarantine"), "{out}");
    // Dropped for good: its rows are gone.
    let (code, out, err) = quarantine(&dir, &["drop", &id(0)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("dropped for good"), "{out}");
    let rows: i64 = database(&dir)
        .query_row(
            "SELECT COUNT(*) FROM inputs WHERE battle = ?1",
            [id(0)],
            |r| r.get(0),
        )
        .expect("counted");
    assert_eq!(rows, 0);
    let (code, _, err) = quarantine(&dir, &["drop", "nosuchbattle"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("no battle \"nosuchbattle\" is set aside"),
        "{err}"
    );
    let (_, out, _) = quarantine(&dir, &["list"]);
    assert!(out.starts_with("2 battles are set aside"), "{out}");

    // The retried battle comes back and plays on; the two still set aside stay aside.
    let third = ServerProcess::start(&dir, &machine_speed());
    plays_to_the_end(&third.url, &kept[2]).await;
    let health = get(third.addr, "/health").await.json();
    assert_eq!(health["quarantined"], 2, "{health}");
    drop(third);
    let _ = std::fs::remove_dir_all(&dir);
}
