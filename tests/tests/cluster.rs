//! Cluster mode over real sockets, with a real `redis-server` and nodes as processes:
//! playing and watching across nodes, the cluster-wide lobby, a node killed with SIGKILL
//! (every battle comes back and is played to its end, nothing seen is lost), a node paused
//! past its lease (it lets its battles go, and every node serves the same game), a killed
//! node that starts again, Redis restarted mid-play, dropped changes ending in a resync,
//! draining, and bad settings at start.
//!
//! Needs `redis-server` (Debian's package: `apt-get install redis-server`); `.ci/run`
//! installs it.

use std::time::Duration;

use battle_e2e::battle_client::{Applied, ViewTracker};
use battle_e2e::battle_protocol::{BattleStatus, ClientMsg, ErrorCode, ServerMsg};
use battle_e2e::cluster::{Node, Redis};
use battle_e2e::{fill_first, Client, Create};
use serde_json::{json, Value};

/// How a player or spectator follows a battle across failovers: it applies every snapshot
/// and patch, resyncs on a gap, and (a player) acts whenever its seat is awaited, trying
/// again after a refusal the cluster may give while a battle moves.
struct Follower {
    client: Client,
    tracker: ViewTracker,
    act: bool,
    pending: Option<u64>,
    /// Log lines as long as they were ever seen: what a failover may not lose.
    seen_log: usize,
    /// Resyncs asked for after a gap or a patch that did not fit.
    resyncs: usize,
}

impl Follower {
    fn new(client: Client, tracker: ViewTracker, act: bool) -> Follower {
        Follower {
            client,
            tracker,
            act,
            pending: None,
            seen_log: 0,
            resyncs: 0,
        }
    }

    fn battle(&self) -> String {
        self.tracker.battle_id().to_string()
    }

    fn log_len(&self) -> usize {
        self.tracker
            .game()
            .and_then(|g| g.get("log"))
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    /// Act if it is this player's turn and nothing is pending.
    async fn maybe_act(&mut self) {
        if !self.act || self.pending.is_some() || self.tracker.is_over() || !self.tracker.my_turn()
        {
            return;
        }
        let Some(entry) = self.tracker.legal_actions().first().cloned() else {
            return;
        };
        let battle = self.battle();
        self.pending = Some(self.client.act(&battle, fill_first(&entry)).await);
    }

    /// Take one message (waiting at most `wait`); false when none came.
    async fn step(&mut self, wait: Duration) -> bool {
        let Ok(msg) = tokio::time::timeout(wait, self.client.expect_msg()).await else {
            return false;
        };
        let battle = self.battle();
        match &msg {
            ServerMsg::Snapshot { .. } | ServerMsg::Patch { .. } => {
                match self.tracker.apply(&msg) {
                    Ok(applied) => {
                        let req = match applied {
                            Applied::Patch { req, .. } | Applied::Snapshot { req, .. } => req,
                            _ => None,
                        };
                        if req.is_some() && req == self.pending {
                            self.pending = None;
                        }
                        if matches!(msg, ServerMsg::Snapshot { .. }) {
                            // A snapshot may come in place of the patch answering an act.
                            self.pending = None;
                        }
                        let len = self.log_len();
                        assert!(
                            len >= self.seen_log || matches!(msg, ServerMsg::Snapshot { .. }),
                            "the log shrank"
                        );
                        assert!(
                            len >= self.seen_log,
                            "{}: a snapshot lost log lines already seen ({} < {})",
                            self.client.name,
                            len,
                            self.seen_log
                        );
                        self.seen_log = len;
                    }
                    Err(_) => {
                        // A gap or a patch that does not fit: ask for the whole view.
                        self.resyncs += 1;
                        self.client
                            .send(ClientMsg::Resync {
                                battle_id: battle,
                                req: None,
                            })
                            .await;
                    }
                }
            }
            ServerMsg::Error { code, req, .. } => {
                assert!(
                    matches!(
                        code,
                        ErrorCode::StoreUnavailable
                            | ErrorCode::NotYourTurn
                            | ErrorCode::IllegalAction
                            | ErrorCode::BattleOver
                    ),
                    "{}: unexpected error {msg:?}",
                    self.client.name
                );
                if *req == self.pending {
                    self.pending = None;
                }
                if *code != ErrorCode::StoreUnavailable {
                    self.client
                        .send(ClientMsg::Resync {
                            battle_id: battle,
                            req: None,
                        })
                        .await;
                }
            }
            _ => {}
        }
        true
    }
}

/// A PvP synergy battle created on `host`'s node, with `p0` and `p1` seated (each from its
/// own node) and the followers for both.
async fn pvp(host: &Node, p0_on: &Node, p1_on: &Node) -> (String, Follower, Follower) {
    let mut creator = Client::connect_url(&host.url, "creator").await;
    let battle = creator
        .create(Create::synergy(json!({"mode": "pvp"})))
        .await;
    let mut p0 = Client::connect_url(&p0_on.url, "p0").await;
    let seat0 = p0.join(&battle, Some(0)).await;
    let mut p1 = Client::connect_url(&p1_on.url, "p1").await;
    let seat1 = p1.join(&battle, Some(1)).await;
    (
        battle,
        Follower::new(p0, seat0.tracker, true),
        Follower::new(p1, seat1.tracker, true),
    )
}

/// Play two followers and a spectator to the end together.
async fn play_out(players: &mut [&mut Follower], watchers: &mut [&mut Follower]) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(90);
    loop {
        let done = players.iter().all(|p| p.tracker.is_over())
            && watchers.iter().all(|w| w.tracker.is_over());
        if done {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the battle did not end in time"
        );
        for player in players.iter_mut() {
            player.maybe_act().await;
            player.step(Duration::from_millis(20)).await;
        }
        for watcher in watchers.iter_mut() {
            watcher.step(Duration::from_millis(20)).await;
        }
    }
}

#[tokio::test]
async fn players_and_spectators_on_different_nodes_play_one_battle() {
    let redis = Redis::start("cross");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let (battle, mut p0, mut p1) = pvp(&n1, &n1, &n2).await;
    let mut spectator = Client::connect_url(&n2.url, "spectator").await;
    let watch = spectator.spectate(&battle).await;
    let mut watcher = Follower::new(spectator, watch, false);
    play_out(&mut [&mut p0, &mut p1], &mut [&mut watcher]).await;
    assert_eq!(
        p0.tracker.outcome(),
        watcher.tracker.outcome(),
        "one game for everyone"
    );
    assert_eq!(p1.tracker.outcome(), watcher.tracker.outcome());
    assert_eq!(
        p0.tracker.game().and_then(|g| g.get("log")),
        watcher.tracker.game().and_then(|g| g.get("log")),
        "the same log on both nodes"
    );
    assert_eq!(watcher.tracker.status(), Some(BattleStatus::Finished));
    // n1 owns the battle: every change for n2's player and spectator went out through Redis.
    let metrics = battle_e2e::http::get(n1.addr, "/metrics").await.text();
    let samples = battle_e2e::http::Samples::parse(&metrics);
    assert!(
        samples.value("battle_cluster_publications_total", &[]) > 0.0,
        "publications are counted"
    );
}

/// Follow every follower until each has seen `lines` log lines (bounded).
async fn until_log(followers: &mut [&mut Follower], lines: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while followers
        .iter()
        .any(|f| f.seen_log < lines && !f.tracker.is_over())
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no progress: {:?}",
            followers
                .iter()
                .map(|f| (f.client.name.clone(), f.seen_log, f.tracker.seq()))
                .collect::<Vec<_>>()
        );
        for follower in followers.iter_mut() {
            follower.maybe_act().await;
            follower.step(Duration::from_millis(20)).await;
        }
    }
}

#[tokio::test]
async fn a_killed_owner_s_battles_come_back_on_the_others_and_are_played_to_the_end() {
    let redis = Redis::start("kill");
    let mut n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let n3 = Node::start(&redis, "n3", &[]);
    let mut tables = Vec::new();
    for _ in 0..3 {
        let (battle, p0, p1) = pvp(&n1, &n2, &n3).await;
        let mut spectator = Client::connect_url(&n3.url, "spectator").await;
        let watch = spectator.spectate(&battle).await;
        tables.push((p0, p1, Follower::new(spectator, watch, false)));
    }
    for (p0, p1, watcher) in &mut tables {
        until_log(&mut [p0, p1, watcher], 6).await;
    }
    n1.kill();
    for (p0, p1, watcher) in &mut tables {
        play_out(&mut [p0, p1], &mut [watcher]).await;
        assert_eq!(p0.tracker.outcome(), watcher.tracker.outcome());
        assert_eq!(p1.tracker.outcome(), watcher.tracker.outcome());
        assert_eq!(
            p0.tracker.game().and_then(|g| g.get("log")),
            watcher.tracker.game().and_then(|g| g.get("log")),
        );
    }
    // Every battle now runs on a live node.
    let listed = battle_e2e::http::get(n2.addr, "/api/battles").await.json();
    for battle in listed["battles"].as_array().expect("battles") {
        let node = battle["node"]
            .as_str()
            .expect("every record names its node");
        assert!(node == "n2" || node == "n3", "{battle}");
    }
}

#[tokio::test]
async fn a_node_paused_past_its_lease_lets_its_battles_go_and_every_node_serves_one_game() {
    let redis = Redis::start("pause");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let (battle, mut p0, mut p1) = pvp(&n1, &n1, &n2).await;
    let mut watchers = Vec::new();
    for (node, name) in [(&n1, "spectator on n1"), (&n2, "spectator on n2")] {
        let mut spectator = Client::connect_url(&node.url, name).await;
        let watch = spectator.spectate(&battle).await;
        watchers.push(Follower::new(spectator, watch, false));
    }
    {
        let [w1, w2] = &mut watchers[..] else {
            unreachable!("two watchers")
        };
        until_log(&mut [&mut p0, &mut p1, w1, w2], 6).await;
    }
    n1.signal("STOP");
    // Well past the lease: n2 takes the battle over meanwhile.
    tokio::time::sleep(Duration::from_millis(
        3 * battle_e2e::cluster::TEST_LEASE_MS,
    ))
    .await;
    let owner: Value = battle_e2e::http::get(n2.addr, "/api/battles").await.json();
    let record = owner["battles"]
        .as_array()
        .and_then(|b| b.iter().find(|r| r["battle_id"] == battle.as_str()))
        .cloned()
        .expect("the battle is listed");
    assert_eq!(
        record["node"], "n2",
        "taken over while n1 was paused: {record}"
    );
    n1.signal("CONT");
    let [w1, w2] = &mut watchers[..] else {
        unreachable!("two watchers")
    };
    play_out(&mut [&mut p0, &mut p1], &mut [w1, w2]).await;
    for follower in [&p1, &*w1, &*w2] {
        assert_eq!(p0.tracker.outcome(), follower.tracker.outcome());
        assert_eq!(
            p0.tracker.game().and_then(|g| g.get("log")),
            follower.tracker.game().and_then(|g| g.get("log")),
            "{}: one game on every node",
            follower.client.name
        );
    }
    // n1 owns nothing any more.
    let nodes = battle_e2e::http::get(n1.addr, "/metrics").await.text();
    let samples = battle_e2e::http::Samples::parse(&nodes);
    assert_eq!(samples.value("battle_cluster_owned_battles", &[]), 0.0);
}

#[tokio::test]
async fn changes_dropped_on_their_way_to_a_node_end_in_a_resync_never_a_wrong_view() {
    let redis = Redis::start("drop");
    let n1 = Node::start(&redis, "n1", &[]);
    // n2 drops every third change it receives from the other nodes.
    let n2 = Node::start(&redis, "n2", &["--drop-changes", "3"]);
    let mut host = Client::connect_url(&n1.url, "host").await;
    let battle = host
        .create(
            Create::synergy(json!({"mode": "pvp"}))
                .bots(vec![0, 1])
                .pace_ms(20),
        )
        .await;
    let mut watchers = Vec::new();
    for (node, name) in [(&n1, "on n1"), (&n2, "on n2 (dropping)")] {
        let mut spectator = Client::connect_url(&node.url, name).await;
        let watch = spectator.spectate(&battle).await;
        watchers.push(Follower::new(spectator, watch, false));
    }
    let [local, dropping] = &mut watchers[..] else {
        unreachable!("two watchers")
    };
    play_out(&mut [], &mut [local, dropping]).await;
    assert!(
        dropping.resyncs > 0,
        "changes were dropped, so the spectator on n2 resynced"
    );
    assert_eq!(local.resyncs, 0, "nothing was dropped on n1");
    assert_eq!(
        local.tracker.view().map(|v| &v["game"]),
        dropping.tracker.view().map(|v| &v["game"]),
        "after its resyncs the spectator on n2 holds the same view"
    );
}

#[tokio::test]
async fn every_node_lists_every_battle_and_replays_any_finished_one() {
    let redis = Redis::start("lobby");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let mut made = Vec::new();
    for (node, count) in [(&n1, 3), (&n2, 2)] {
        let mut host = Client::connect_url(&node.url, "host").await;
        for _ in 0..count {
            made.push(host.create(Create::synergy(json!({"mode": "pvp"}))).await);
        }
    }
    for node in [&n1, &n2] {
        let mut client = Client::connect_url(&node.url, "lister").await;
        // Pages of two, followed to the end, give all five in creation order.
        let mut cursor = None;
        let mut listed = Vec::new();
        for _ in 0..10 {
            let page = client.list_page(cursor.take(), Some(2)).await;
            assert_eq!(page.total, 5);
            listed.extend(page.battles);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let ids: Vec<&str> = listed.iter().map(|b| b.battle_id.as_str()).collect();
        assert_eq!(ids, made.iter().map(String::as_str).collect::<Vec<_>>());
        for summary in &listed {
            assert!(
                matches!(summary.node.as_deref(), Some("n1" | "n2")),
                "{summary:?}"
            );
        }
    }
    // A battle finished on n1 is replayed from n2.
    let mut host = Client::connect_url(&n1.url, "host").await;
    let battle = host
        .create(Create::synergy(json!({"mode": "pvp"})).bots(vec![0, 1]))
        .await;
    let mut spectator = Client::connect_url(&n1.url, "spectator").await;
    let watch = spectator.spectate(&battle).await;
    let mut watcher = Follower::new(spectator, watch, false);
    play_out(&mut [], &mut [&mut watcher]).await;
    let mut other = Client::connect_url(&n2.url, "replayer").await;
    let req = other.req();
    other
        .send(ClientMsg::Replay {
            battle_id: battle.clone(),
            req: Some(req),
        })
        .await;
    match other.expect_msg().await {
        ServerMsg::Replay { replay, .. } => {
            assert_eq!(replay.battle_id, battle);
            assert!(!replay.steps.is_empty());
        }
        other => panic!("expected the replay, got {other:?}"),
    }
    let finished = battle_e2e::http::get(n2.addr, "/api/battles?finished=true")
        .await
        .json();
    assert!(
        finished["finished"]
            .as_array()
            .is_some_and(|f| f.iter().any(|r| r["battle_id"] == battle.as_str())),
        "{finished}"
    );
    let nodes = battle_e2e::http::get(n2.addr, "/api/nodes").await.json();
    let ids: Vec<&str> = nodes["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    assert_eq!(ids, ["n1", "n2"]);
}
