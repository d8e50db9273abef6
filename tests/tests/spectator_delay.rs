//! `spectator_delay_ms`: spectators receive every change one delay after the players, a
//! spectator who arrives is shown the battle as it was one delay ago (never as it is now),
//! the end reaches them all the same, the delay has a limit, and a battle brought back by a
//! restarted server keeps its delay.
//!
//! Every timing check is a lower bound (a spectator receives a change no sooner than the
//! delay after the player did, less a small tolerance for the player's own reading), which
//! a slow machine can only make easier to meet.
use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;

use battle_e2e::battle_client::{Applied, ViewTracker};
use battle_e2e::battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use battle_e2e::battle_server::RunningServer;
use battle_e2e::*;
use serde_json::{json, Value};
use tokio::time::Instant;

/// The delay of every delayed battle here.
const DELAY: Duration = Duration::from_millis(400);

/// How much later than its arrival a player may note a message (it reads on a busy test
/// runtime); only this much is taken off the delay a spectator must wait.
const TOLERANCE: Duration = Duration::from_millis(20);

/// What every viewer of a synergy battle sees alike: the view without who is looking
/// (`seat`, `legal`, `prompt`), the hands, the battle's id, presence (`seats`) and the
/// clocks (absolute deadlines).
fn public(view: &Value) -> Value {
    let mut view = view.clone();
    if let Some(envelope) = view.as_object_mut() {
        for key in ["battle_id", "seat", "seats", "clocks", "legal", "prompt"] {
            envelope.remove(key);
        }
    }
    if let Some(sides) = view
        .pointer_mut("/game/sides")
        .and_then(Value::as_array_mut)
    {
        for side in sides.iter_mut().filter_map(Value::as_object_mut) {
            side.remove("hand");
        }
    }
    view
}

/// The public view `tracker` holds.
fn public_of(tracker: &ViewTracker) -> Value {
    public(tracker.view().expect("a view"))
}

/// Every public view a client held, with when it got it.
type Views = Vec<(Instant, Value)>;

/// Apply every message to `spectator` until it shows an outcome, noting each view it holds
/// and when it arrived.
async fn watch_to_the_end(spectator: &mut Client, tracker: &mut ViewTracker) -> Views {
    let mut seen = vec![(Instant::now(), public_of(tracker))];
    for _ in 0..MAX_MESSAGES {
        if tracker.is_over() {
            return seen;
        }
        let msg = spectator.expect_msg().await;
        let at = Instant::now();
        match tracker.apply(&msg) {
            Ok(Applied::Patch { .. } | Applied::Snapshot { .. }) => {}
            other => panic!("{}: unexpected {msg:?} ({other:?})", spectator.name),
        }
        seen.push((at, public_of(tracker)));
    }
    panic!("{}: no outcome in {MAX_MESSAGES} messages", spectator.name);
}

/// Each view a spectator held that a player held too (before the battle started there is
/// nothing to compare) came no sooner than the delay after the player got it. Returns how
/// many views were compared.
fn assert_delayed(player: &Views, spectator: &Views) -> usize {
    let mut compared = 0;
    for (seen_at, view) in spectator {
        if view["status"] == "waiting" {
            continue;
        }
        let Some((player_at, _)) = player.iter().find(|(_, held)| held == view) else {
            panic!("the spectator saw a view no player had: {view}");
        };
        assert!(
            *seen_at + TOLERANCE >= *player_at + DELAY,
            "the spectator saw a change {:?} after the player, not {DELAY:?}: {view}",
            seen_at.saturating_duration_since(*player_at)
        );
        compared += 1;
    }
    compared
}

/// A PvE synergy battle (seed 7) played to its end by the client bot, watched from its
/// creation by a spectator; `delay` its spectator delay. Returns what the player and the
/// spectator saw.
async fn play_watched(server: &RunningServer, delay: Option<Duration>) -> (Views, Views) {
    let mut player = Client::connect(server, "player").await;
    let mut create = Create::synergy(json!({"mode": "pve"})).seed(7);
    if let Some(delay) = delay {
        create = create.spectator_delay_ms(delay.as_millis() as u64);
    }
    let creating = Instant::now();
    let battle = player.create(create).await;
    let mut spectator = Client::connect(server, "spectator").await;
    let mut watch = spectator.spectate(&battle).await;
    if let Some(delay) = delay {
        assert!(
            creating.elapsed() >= delay,
            "the first view a spectator gets is the battle as it was created, one delay later"
        );
    }
    let mut seated = player.join(&battle, Some(0)).await;
    let seen = RefCell::new(vec![(Instant::now(), public_of(&seated.tracker))]);
    let note = |at: &Seen<'_>| {
        seen.borrow_mut()
            .push((Instant::now(), public_of(at.tracker)))
    };
    let playing = Drive {
        check: Some(&note),
        ..Drive::player()
    };
    let (_, watched) = tokio::join!(
        drive(&mut player, &mut seated.tracker, &playing),
        watch_to_the_end(&mut spectator, &mut watch),
    );
    check_finished(&watch, "spectator");
    // Everything was released: a resync gives the view the patches built.
    assert_resync_matches(&mut spectator, &mut watch).await;
    (seen.into_inner(), watched)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn spectators_see_every_change_one_delay_after_the_player_and_the_same_end() {
    let server = start_server().await;
    let (player, spectator) = play_watched(&server, Some(DELAY)).await;
    let compared = assert_delayed(&player, &spectator);
    assert!(
        compared >= 3,
        "the spectator saw the battle move: {compared} views"
    );
    let last = |seen: &Views| seen.last().expect("a view").1.clone();
    assert_eq!(
        last(&spectator),
        last(&player),
        "the spectator ends where the player did"
    );

    // The same battle without a delay: its spectator ends on the same view.
    let (_, at_once) = play_watched(&server, None).await;
    assert_eq!(last(&spectator), last(&at_once));
    server.shutdown().await;
}

/// Both seats of a PvP battle, each with its view up to date.
struct Table {
    battle: String,
    players: [(Client, ViewTracker); 2],
    tokens: [String; 2],
}

/// A PvP synergy battle with a spectator delay, both seats taken and settled.
async fn pvp_table(server: &RunningServer) -> Table {
    let mut p0 = Client::connect(server, "p0").await;
    let create =
        Create::synergy(json!({"mode": "pvp"})).spectator_delay_ms(DELAY.as_millis() as u64);
    let battle = p0.create(create).await;
    let seat0 = p0.join(&battle, Some(0)).await;
    let mut p1 = Client::connect(server, "p1").await;
    let seat1 = p1.join(&battle, Some(1)).await;
    let mut table = Table {
        battle,
        tokens: [seat0.token, seat1.token],
        players: [(p0, seat0.tracker), (p1, seat1.tracker)],
    };
    settle_all(&mut table).await;
    table
}

async fn settle_all(table: &mut Table) {
    for (client, tracker) in &mut table.players {
        settle(client, tracker).await;
    }
}

/// One move by the seat whose turn it is (its first legal action); returns when its answer
/// arrived, or `None` when the battle is over. Both views are settled afterwards.
async fn play_move(table: &mut Table) -> Option<Instant> {
    let turn = table.players.iter().position(|(_, t)| t.my_turn())?;
    let (client, tracker) = &mut table.players[turn];
    let entry = tracker.legal_actions().first().cloned()?;
    let req = client.act(&table.battle, fill_first(&entry)).await;
    let answered = loop {
        let msg = client.expect_msg().await;
        let at = Instant::now();
        tracker.apply(&msg).expect("applies");
        if matches!(&msg, ServerMsg::Patch { req: got, .. } | ServerMsg::Snapshot { req: got, .. }
            if *got == Some(req))
        {
            break at;
        }
    };
    settle_all(table).await;
    Some(answered)
}

/// The public view seat 0 holds.
fn table_view(table: &Table) -> Value {
    public_of(&table.players[0].1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_spectator_who_arrives_sees_the_battle_as_it_was_one_delay_ago() {
    let server = start_server().await;
    let mut table = pvp_table(&server).await;
    let mut history = vec![table_view(&table)];
    for _ in 0..2 {
        play_move(&mut table).await.expect("the battle goes on");
        history.push(table_view(&table));
    }
    // Long enough for everything so far to be released.
    tokio::time::sleep(DELAY + Duration::from_millis(200)).await;
    let then = table_view(&table);
    let moved = Instant::now();
    play_move(&mut table).await.expect("the battle goes on");
    let now = table_view(&table);
    assert_ne!(then, now, "a move changes the view");
    history.push(now.clone());

    let mut late = Client::connect(&server, "late spectator").await;
    let mut watch = late.spectate(&table.battle).await;
    let shown = public_of(&watch);
    assert!(
        history.contains(&shown),
        "the newcomer is shown a view the players had: {shown}"
    );
    if moved.elapsed() < DELAY {
        // The last move is not a delay old yet (no wait made it so): it is not shown.
        assert_eq!(shown, then, "the newcomer sees the view of one delay ago");
    }

    // The late spectator follows the rest of the battle to the same end as the players.
    let [(p0, t0), (p1, t1)] = &mut table.players;
    let play = Drive::player();
    let (_, _, _) = tokio::join!(
        drive(p0, t0, &play),
        drive(p1, t1, &play),
        watch_to_the_end(&mut late, &mut watch),
    );
    check_finished(&watch, "late spectator");
    assert_eq!(public_of(&watch), table_view(&table));
    assert_resync_matches(&mut late, &mut watch).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_delay_over_ten_minutes_is_refused() {
    let server = start_server().await;
    let mut host = Client::connect(&server, "host").await;
    for (delay, refused) in [(600_001, true), (600_000, false), (0, false)] {
        let req = host.req();
        host.send(ClientMsg::Create {
            ruleset: "synergy".into(),
            options: None,
            bots: vec![],
            private: false,
            pace_ms: Some(0),
            grace_ms: None,
            seed: None,
            spectator_delay_ms: Some(delay),
            timer: None,
            req: Some(req),
        })
        .await;
        if refused {
            let message = host.expect_error(ErrorCode::BadOptions, Some(req)).await;
            assert!(message.contains("spectator_delay_ms"), "{message}");
            assert!(message.contains("600000"), "{message}");
        } else {
            match host.expect_msg().await {
                ServerMsg::Created { req: got, .. } => assert_eq!(got, Some(req)),
                other => panic!("a delay of {delay} ms is allowed, got {other:?}"),
            }
        }
    }
    server.shutdown().await;
}

/// A fresh data directory for one test.
fn data_dir(name: &str) -> PathBuf {
    fresh_data_dir(&format!("delay-{name}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_restored_battle_keeps_its_delay() {
    let dir = data_dir("restore");
    let server = start_server_with(durable(&dir)).await;
    let mut table = pvp_table(&server).await;
    for _ in 0..2 {
        play_move(&mut table).await.expect("the battle goes on");
    }
    let before = table_view(&table);
    server.drain().await;

    let restarting = Instant::now();
    let server = start_server_with(durable(&dir)).await;
    let [mut p0, mut p1] = [
        Client::connect(&server, "p0 again").await,
        Client::connect(&server, "p1 again").await,
    ];
    let seat0 = p0.rejoin(&table.battle, &table.tokens[0]).await;
    let seat1 = p1.rejoin(&table.battle, &table.tokens[1]).await;
    let mut table = Table {
        battle: table.battle,
        tokens: table.tokens,
        players: [(p0, seat0.tracker), (p1, seat1.tracker)],
    };
    settle_all(&mut table).await;
    assert_eq!(
        table_view(&table),
        before,
        "the battle is back where it was"
    );

    // Nobody sees the restored battle sooner than one delay after the restart.
    let mut spectator = Client::connect(&server, "spectator").await;
    let mut watch = spectator.spectate(&table.battle).await;
    assert!(
        restarting.elapsed() >= DELAY,
        "the restored battle was shown {:?} after the restart",
        restarting.elapsed()
    );
    assert_eq!(public_of(&watch), before);

    // And each move reaches the spectator one delay after the players.
    let answered = play_move(&mut table).await.expect("the battle goes on");
    let moved = table_view(&table);
    let deadline = Instant::now() + TIMEOUT;
    while public_of(&watch) != moved {
        assert!(
            Instant::now() < deadline,
            "the move never reached the spectator"
        );
        let msg = spectator.expect_msg().await;
        watch.apply(&msg).expect("applies");
    }
    assert!(
        Instant::now() + TOLERANCE >= answered + DELAY,
        "the spectator saw the move {:?} after the player",
        answered.elapsed()
    );
    server.drain().await;
    let _ = std::fs::remove_dir_all(&dir);
}
