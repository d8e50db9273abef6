//! Shared helpers for the end-to-end tests in `tests/tests/*.rs`.
//!
//! Every test starts its own server in-process on `127.0.0.1:0` and talks to it over real
//! WebSocket connections. Every wait is bounded by [`TIMEOUT`] and every loop by a message or
//! step count, so a server that hangs or loops makes a test fail with a message instead of
//! hanging it. Helpers panic (with the client's name and what was expected) rather than
//! return errors: they exist to make assertions.

pub mod binary;
pub mod cluster;
pub mod follower;
pub mod http;
pub mod process;
pub mod terminal;

use std::time::Duration;

use battle_client::{Applied, Connection, ViewTracker};
use battle_protocol::json_patch;
use battle_protocol::{BattleSummary, ClientMsg, ErrorCode, Req, RulesetInfo, Seat, ServerMsg};
use battle_server::lobby::Page;
use battle_server::{Config, RunningServer};
use serde_json::Value;

pub use battle_client;
pub use battle_protocol;
pub use battle_server;

/// Longest wait for any single message.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// Most messages one driver loop reads before it declares the battle endless.
pub const MAX_MESSAGES: usize = 20_000;

/// A fresh, empty data directory for one test, named after `test` and this process.
pub fn fresh_data_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("battle-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The test settings, keeping battles in `dir`.
pub fn durable(dir: &std::path::Path) -> Config {
    Config {
        data_dir: Some(dir.to_path_buf()),
        ..Config::for_tests()
    }
}

/// Start a server with the test settings (ephemeral port, no pacing).
pub async fn start_server() -> RunningServer {
    start_server_with(Config::for_tests()).await
}

/// Start a server with `config`, which should listen on port 0.
pub async fn start_server_with(config: Config) -> RunningServer {
    battle_server::start(config)
        .await
        .expect("the server starts on an ephemeral port")
}

/// Create a waiting synergy PvP battle straight in the server's lobby, without a
/// connection (no request, no per-connection limit): for tests that need many battles
/// listed. Returns its id.
pub fn create_in_lobby(server: &RunningServer, private: bool) -> String {
    let request = battle_server::lobby::CreateRequest {
        ruleset: "synergy".into(),
        options: Some(serde_json::json!({"mode": "pvp"})),
        private,
        ..Default::default()
    };
    // Each battle from an address of its own (a /64 of the documentation range), so that
    // neither quota ever refuses these.
    static NEXT: std::sync::atomic::AtomicU16 = std::sync::atomic::AtomicU16::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let address = std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, n, 0, 0, 0, 1);
    let creator = server.lobby().quotas().creator(Some(address.into()));
    let (battle_id, _) = server
        .lobby()
        .create(request, &creator)
        .unwrap_or_else(|refused| {
            panic!(
                "the lobby refused a battle: {}: {}",
                refused.code, refused.message
            )
        });
    battle_id
}

/// A test client: a [`Connection`] with a name for failure messages and a `req` counter.
pub struct Client {
    /// Shown in every panic message, e.g. `"p0"` or `"spectator"`.
    pub name: String,
    /// The underlying connection, for raw access.
    pub conn: Connection,
    next_req: Req,
}

/// What `join` or `rejoin` gave back.
pub struct Seated {
    /// The seat the server assigned.
    pub seat: Seat,
    /// The seat's rejoin token.
    pub token: String,
    /// The view, built from the snapshot that followed `joined`.
    pub tracker: ViewTracker,
}

impl Client {
    /// Connect to `server` under `name`.
    pub async fn connect(server: &RunningServer, name: &str) -> Client {
        Client::connect_url(&server.url(), name).await
    }

    /// Connect to the server at `url` (a server in another process, say) under `name`.
    pub async fn connect_url(url: &str, name: &str) -> Client {
        let conn = tokio::time::timeout(TIMEOUT, Connection::connect(url))
            .await
            .unwrap_or_else(|_| panic!("{name}: connect timed out"))
            .unwrap_or_else(|e| panic!("{name}: connect failed: {e}"));
        Client {
            name: name.to_string(),
            conn,
            next_req: 1,
        }
    }

    /// A fresh correlation number.
    pub fn req(&mut self) -> Req {
        let req = self.next_req;
        self.next_req += 1;
        req
    }

    /// Send a protocol message.
    pub async fn send(&mut self, msg: ClientMsg) {
        self.conn
            .send(&msg)
            .await
            .unwrap_or_else(|e| panic!("{}: send {msg:?} failed: {e}", self.name));
    }

    /// Send a raw text frame.
    pub async fn send_text(&mut self, text: &str) {
        self.conn
            .send_text(text)
            .await
            .unwrap_or_else(|e| panic!("{}: send {text:?} failed: {e}", self.name));
    }

    /// The next message, as raw text and decoded, within [`TIMEOUT`].
    pub async fn expect_frame(&mut self) -> (String, ServerMsg) {
        let text = tokio::time::timeout(TIMEOUT, self.conn.recv_text())
            .await
            .unwrap_or_else(|_| panic!("{}: no message within {TIMEOUT:?}", self.name))
            .unwrap_or_else(|e| panic!("{}: receive failed: {e}", self.name));
        let msg = battle_client::decode(text.clone())
            .unwrap_or_else(|e| panic!("{}: undecodable message: {e}", self.name));
        (text, msg)
    }

    /// The next message within [`TIMEOUT`].
    pub async fn expect_msg(&mut self) -> ServerMsg {
        self.expect_frame().await.1
    }

    /// The next message must be an `error` with `code` and `req`; returns its text message.
    pub async fn expect_error(&mut self, code: ErrorCode, req: Option<Req>) -> String {
        match self.expect_msg().await {
            ServerMsg::Error {
                code: got,
                message,
                req: got_req,
                ..
            } => {
                assert_eq!(got, code, "{}: wrong error code ({message})", self.name);
                assert_eq!(got_req, req, "{}: error {code} must echo req", self.name);
                assert!(
                    !message.is_empty(),
                    "{}: error {code} has an empty message",
                    self.name
                );
                message
            }
            other => panic!("{}: expected error {code}, got {other:?}", self.name),
        }
    }

    /// Send `ping` with a fresh `req`; the very next message must be the matching `pong`.
    /// Proves both that the connection still works and that nothing else was queued for it.
    pub async fn assert_pong(&mut self) {
        let req = self.req();
        self.send(ClientMsg::Ping { req: Some(req) }).await;
        match self.expect_msg().await {
            ServerMsg::Pong { req: got } => {
                assert_eq!(got, Some(req), "{}: pong must echo req", self.name)
            }
            other => panic!(
                "{}: expected only a pong after ping, got {other:?}",
                self.name
            ),
        }
    }

    /// `hello` with protocol 1; returns the rulesets from `welcome`.
    pub async fn hello(&mut self) -> Vec<RulesetInfo> {
        let req = self.req();
        self.send(ClientMsg::Hello {
            protocol: battle_protocol::PROTOCOL_VERSION,
            name: Some(self.name.clone()),
            req: Some(req),
        })
        .await;
        match self.expect_msg().await {
            ServerMsg::Welcome {
                protocol,
                rulesets,
                req: got,
                ..
            } => {
                assert_eq!(protocol, battle_protocol::PROTOCOL_VERSION);
                assert_eq!(got, Some(req), "{}: welcome must echo req", self.name);
                rulesets
            }
            other => panic!("{}: expected welcome, got {other:?}", self.name),
        }
    }

    /// Send `create` and return the new battle's id.
    pub async fn create(&mut self, msg: Create) -> String {
        let req = self.req();
        self.send(msg.message(Some(req))).await;
        match self.expect_msg().await {
            ServerMsg::Created {
                battle_id,
                req: got,
            } => {
                assert_eq!(got, Some(req), "{}: created must echo req", self.name);
                assert!(!battle_id.is_empty());
                battle_id
            }
            other => panic!("{}: expected created, got {other:?}", self.name),
        }
    }

    /// Create a public synergy battle with `options` and `bots`, paced at 0 ms.
    pub async fn create_synergy(&mut self, options: Value, bots: Vec<Seat>) -> String {
        self.create(Create::synergy(options).bots(bots)).await
    }

    /// `join` (seat `None` = first free) with the ruleset's default setup: expects `joined`
    /// then the `snapshot`.
    pub async fn join(&mut self, battle_id: &str, seat: Option<Seat>) -> Seated {
        self.join_with(battle_id, seat, None).await
    }

    /// `join` bringing `setup`: expects `joined` then the `snapshot`.
    pub async fn join_with(
        &mut self,
        battle_id: &str,
        seat: Option<Seat>,
        setup: Option<Value>,
    ) -> Seated {
        let req = self.req();
        self.send(ClientMsg::Join {
            battle_id: battle_id.to_string(),
            seat,
            setup,
            req: Some(req),
        })
        .await;
        self.expect_seated(battle_id, req).await
    }

    /// `rejoin` with `token`: expects `joined` then the `snapshot`.
    pub async fn rejoin(&mut self, battle_id: &str, token: &str) -> Seated {
        let req = self.req();
        self.send(ClientMsg::Rejoin {
            battle_id: battle_id.to_string(),
            token: token.to_string(),
            req: Some(req),
        })
        .await;
        self.expect_seated(battle_id, req).await
    }

    async fn expect_seated(&mut self, battle_id: &str, req: Req) -> Seated {
        let (seat, token) = match self.expect_msg().await {
            ServerMsg::Joined {
                battle_id: got_id,
                seat,
                token,
                req: got,
            } => {
                assert_eq!(got_id, battle_id, "{}: joined the wrong battle", self.name);
                assert_eq!(got, Some(req), "{}: joined must echo req", self.name);
                assert!(!token.is_empty(), "{}: empty seat token", self.name);
                (seat, token)
            }
            other => panic!("{}: expected joined, got {other:?}", self.name),
        };
        let tracker = self.expect_snapshot(battle_id).await;
        assert_eq!(
            tracker.seat(),
            Some(seat),
            "{}: a seat's snapshot must name its seat",
            self.name
        );
        Seated {
            seat,
            token,
            tracker,
        }
    }

    /// `spectate`: expects `spectating` then the `snapshot`.
    pub async fn spectate(&mut self, battle_id: &str) -> ViewTracker {
        let req = self.req();
        self.send(ClientMsg::Spectate {
            battle_id: battle_id.to_string(),
            req: Some(req),
        })
        .await;
        match self.expect_msg().await {
            ServerMsg::Spectating {
                battle_id: got_id,
                req: got,
            } => {
                assert_eq!(got_id, battle_id);
                assert_eq!(got, Some(req), "{}: spectating must echo req", self.name);
            }
            other => panic!("{}: expected spectating, got {other:?}", self.name),
        }
        let tracker = self.expect_snapshot(battle_id).await;
        assert_eq!(
            tracker.view().expect("snapshot applied")["seat"],
            Value::Null,
            "{}: a spectator's view has seat null",
            self.name
        );
        tracker
    }

    /// The next message must be a snapshot of `battle_id`; returns a tracker holding it.
    pub async fn expect_snapshot(&mut self, battle_id: &str) -> ViewTracker {
        let msg = self.expect_msg().await;
        let mut tracker = ViewTracker::new(battle_id);
        match tracker.apply(&msg) {
            Ok(Applied::Snapshot { .. }) => {}
            other => panic!(
                "{}: expected a snapshot of {battle_id}, got {msg:?} ({other:?})",
                self.name
            ),
        }
        check_envelope(tracker.view().expect("snapshot applied"), battle_id);
        tracker
    }

    /// `list`: the public battles, every page of them (at most [`MAX_MESSAGES`] pages).
    pub async fn list(&mut self) -> Vec<BattleSummary> {
        let mut battles = Vec::new();
        let mut cursor = None;
        for _ in 0..MAX_MESSAGES {
            let page = self.list_page(cursor.take(), None).await;
            battles.extend(page.battles);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return battles,
            }
        }
        panic!("{}: list gave no last page", self.name);
    }

    /// One `list` page: at most `limit` battles created after `cursor`.
    pub async fn list_page(&mut self, cursor: Option<String>, limit: Option<u32>) -> Page {
        let req = self.req();
        self.send(ClientMsg::List {
            finished: false,
            limit,
            cursor,
            req: Some(req),
        })
        .await;
        match self.expect_msg().await {
            ServerMsg::Battles {
                battles,
                total,
                next_cursor,
                req: got,
                ..
            } => {
                assert_eq!(got, Some(req), "{}: battles must echo req", self.name);
                Page {
                    battles,
                    total,
                    next_cursor,
                }
            }
            other => panic!("{}: expected battles, got {other:?}", self.name),
        }
    }

    /// Send `act` with a fresh `req`; returns the `req`.
    pub async fn act(&mut self, battle_id: &str, action: Value) -> Req {
        let req = self.req();
        self.send(ClientMsg::Act {
            battle_id: battle_id.to_string(),
            action,
            req: Some(req),
        })
        .await;
        req
    }

    /// Close the connection.
    pub async fn close(self) {
        let name = self.name;
        tokio::time::timeout(TIMEOUT, self.conn.close())
            .await
            .unwrap_or_else(|_| panic!("{name}: close timed out"))
            .unwrap_or_else(|e| panic!("{name}: close failed: {e}"));
    }
}

/// The fields of a `create`, with builder-style defaults.
#[derive(Debug, Clone)]
pub struct Create {
    pub ruleset: String,
    pub options: Option<Value>,
    pub bots: Vec<Seat>,
    pub private: bool,
    pub pace_ms: Option<u64>,
    pub grace_ms: Option<u64>,
    pub seed: Option<u64>,
    pub timer: Option<Value>,
    pub spectator_delay_ms: Option<u64>,
}

impl Create {
    /// A public synergy battle with `options`, paced at 0 ms.
    pub fn synergy(options: Value) -> Create {
        Create::of("synergy", options)
    }

    /// A public battle of `ruleset` with `options`, paced at 0 ms.
    pub fn of(ruleset: &str, options: Value) -> Create {
        Create {
            ruleset: ruleset.to_string(),
            options: if options.is_null() {
                None
            } else {
                Some(options)
            },
            bots: Vec::new(),
            private: false,
            pace_ms: Some(0),
            grace_ms: None,
            seed: None,
            timer: None,
            spectator_delay_ms: None,
        }
    }

    /// Seats the server plays.
    pub fn bots(mut self, bots: Vec<Seat>) -> Create {
        self.bots = bots;
        self
    }

    /// Hidden from `list`.
    pub fn private(mut self) -> Create {
        self.private = true;
        self
    }

    /// Delay before each engine or bot move.
    pub fn pace_ms(mut self, pace_ms: u64) -> Create {
        self.pace_ms = Some(pace_ms);
        self
    }

    /// The turn timer (`"off"` or its numbers).
    pub fn timer(mut self, timer: Value) -> Create {
        self.timer = Some(timer);
        self
    }

    /// Spectators see every change this much later than the players.
    pub fn spectator_delay_ms(mut self, ms: u64) -> Create {
        self.spectator_delay_ms = Some(ms);
        self
    }

    /// A reproducible battle with this seed.
    pub fn seed(mut self, seed: u64) -> Create {
        self.seed = Some(seed);
        self
    }

    /// How long a seat's holder may be gone before the server's bot decides for it.
    pub fn grace_ms(mut self, grace_ms: u64) -> Create {
        self.grace_ms = Some(grace_ms);
        self
    }

    /// The `create` message, with `req`.
    pub fn message(self, req: Option<Req>) -> ClientMsg {
        ClientMsg::Create {
            ruleset: self.ruleset,
            options: self.options,
            bots: self.bots,
            private: self.private,
            pace_ms: self.pace_ms,
            grace_ms: self.grace_ms,
            seed: self.seed,
            spectator_delay_ms: self.spectator_delay_ms,
            timer: self.timer,
            req,
        }
    }
}

/// Assert the view envelope has every field the protocol promises, of the right type.
pub fn check_envelope(view: &Value, battle_id: &str) {
    assert_eq!(view["battle_id"], Value::from(battle_id), "view: {view}");
    assert!(view["ruleset"].is_string(), "view.ruleset: {view}");
    assert!(
        matches!(
            view["status"].as_str(),
            Some("waiting" | "playing" | "finished")
        ),
        "view.status: {view}"
    );
    assert!(
        view["seat"].is_null() || view["seat"].is_u64(),
        "view.seat: {view}"
    );
    assert!(view["to_act"].is_array(), "view.to_act: {view}");
    assert!(view["legal"].is_array(), "view.legal: {view}");
    assert!(
        view["outcome"].is_null() || view["outcome"].is_object(),
        "view.outcome: {view}"
    );
    assert!(
        view["prompt"].is_null() || view["prompt"]["decision"].is_string(),
        "view.prompt: {view}"
    );
    let names = view["names"].as_array().expect("view.names");
    assert!(
        names.len() == view["seats"].as_array().map_or(0, Vec::len)
            && names
                .iter()
                .all(|n| n.as_str().is_some_and(|n| !n.is_empty())),
        "view.names: a name for every seat: {view}"
    );
    // No game until every seat is set up and the battle starts.
    let waiting = view["status"] == "waiting";
    assert_eq!(view["game"].is_null(), waiting, "view.game: {view}");
    assert!(waiting || view["game"].is_object(), "view.game: {view}");
}

/// Assert a finished view is coherent: status finished, an outcome with winners and a
/// non-empty summary, nobody to act and nothing legal.
pub fn check_finished(tracker: &ViewTracker, who: &str) {
    let view = tracker.view().expect("a view");
    assert_eq!(view["status"], "finished", "{who}: final status: {view}");
    let outcome = tracker
        .outcome()
        .unwrap_or_else(|| panic!("{who}: no outcome"));
    assert!(
        outcome["winners"].is_array(),
        "{who}: outcome.winners: {outcome}"
    );
    let summary = outcome["summary"].as_str().unwrap_or_default();
    assert!(
        !summary.is_empty(),
        "{who}: outcome has no summary: {outcome}"
    );
    assert!(
        matches!(
            outcome["reason"].as_str(),
            Some("knockout" | "score" | "completed" | "resignation" | "time" | "limit" | "other")
        ),
        "{who}: outcome.reason: {outcome}"
    );
    assert!(
        tracker.to_act().is_empty(),
        "{who}: nobody acts after the end: {view}"
    );
    assert!(
        tracker.legal_actions().is_empty(),
        "{who}: no legal actions after the end: {view}"
    );
}

/// One message a driver saw, handed to a [`Drive::check`] hook after it was applied.
pub struct Seen<'a> {
    /// The client's name.
    pub who: &'a str,
    /// The frame exactly as received.
    pub text: &'a str,
    /// The decoded message.
    pub msg: &'a ServerMsg,
    /// The tracker after applying the message.
    pub tracker: &'a ViewTracker,
}

/// How [`drive`] follows a battle.
pub struct Drive<'h> {
    /// Act as the client bot: whenever this seat must act, send its first legal action.
    pub act: bool,
    /// Every this many patches (and once at the end), send `resync` and assert that the
    /// snapshot equals the view built from patches at the same `seq`.
    pub resync_every: Option<usize>,
    /// Called after every applied message.
    pub check: Option<&'h dyn Fn(&Seen<'_>)>,
}

impl Drive<'_> {
    /// Act as a client bot, no resync checks.
    pub fn player() -> Drive<'static> {
        Drive {
            act: true,
            resync_every: None,
            check: None,
        }
    }

    /// Watch only, no resync checks.
    pub fn watcher() -> Drive<'static> {
        Drive {
            act: false,
            resync_every: None,
            check: None,
        }
    }
}

/// What [`drive`] saw.
#[derive(Debug, Default, Clone)]
pub struct DriveReport {
    /// Messages received.
    pub messages: usize,
    /// Patches applied.
    pub patches: usize,
    /// Actions sent (all accepted).
    pub acts: usize,
    /// Resync snapshots compared with the patched view.
    pub resyncs_checked: usize,
    /// Changes of the view: patches plus snapshots sent in place of a patch.
    pub changes: usize,
    /// Snapshots the server sent in place of a patch (the next `seq`, unrequested).
    pub snapshots_for_patches: usize,
    /// Accepted acts answered by such a snapshot, which cannot carry the act's `req`.
    pub reqs_lost: Vec<Req>,
}

/// Follow one battle on `client` until `tracker` shows an outcome: apply every snapshot and
/// patch, act when `drive.act` says so, and check resyncs. Panics on any error message, any
/// gap or bad patch, any unexpected message, a refused first legal action, a patch carrying a
/// `req` this client did not send, or more than [`MAX_MESSAGES`] messages.
///
/// Resync answers are told apart by their `req`. A snapshot at the next `seq` without the
/// resync's `req` is the server sending a change whole instead of as a patch (when that is
/// smaller): it is applied and counted, and if it answers this client's act it must carry the
/// act's `req`. A lost act `req` fails the drive at the end, after every other check ran.
pub async fn drive(
    client: &mut Client,
    tracker: &mut ViewTracker,
    drive: &Drive<'_>,
) -> DriveReport {
    let battle_id = tracker.battle_id().to_string();
    let mut report = DriveReport::default();
    let mut pending_act: Option<Req> = None;
    let mut pending_resync: Option<Req> = None;
    let mut final_resync_done = false;
    let mut patches_since_resync = 0;
    loop {
        let over = tracker.is_over();
        if over && pending_act.is_none() && pending_resync.is_none() {
            if drive.resync_every.is_some() && !final_resync_done {
                final_resync_done = true;
                let req = client.req();
                pending_resync = Some(req);
                client
                    .send(ClientMsg::Resync {
                        battle_id: battle_id.clone(),
                        req: Some(req),
                    })
                    .await;
            } else {
                break;
            }
        }
        if drive.act && !over && pending_act.is_none() && tracker.my_turn() {
            let entry = tracker.legal_actions().first().cloned().unwrap_or_else(|| {
                panic!(
                    "{}: seat in to_act but no legal action: {:?}",
                    client.name,
                    tracker.view()
                )
            });
            let action = fill_first(&entry);
            pending_act = Some(client.act(&battle_id, action).await);
            report.acts += 1;
        }
        if let Some(every) = drive.resync_every {
            if pending_resync.is_none() && patches_since_resync >= every {
                patches_since_resync = 0;
                let req = client.req();
                pending_resync = Some(req);
                client
                    .send(ClientMsg::Resync {
                        battle_id: battle_id.clone(),
                        req: Some(req),
                    })
                    .await;
            }
        }

        let (text, msg) = client.expect_frame().await;
        report.messages += 1;
        assert!(
            report.messages <= MAX_MESSAGES,
            "{}: more than {MAX_MESSAGES} messages without an outcome",
            client.name
        );
        match &msg {
            ServerMsg::Snapshot { seq, view, req, .. } => {
                let current = tracker.seq().expect("a tracked view");
                if req.is_some() && *req == pending_resync {
                    // The answer to our resync: it must equal what the patches built, at the
                    // same seq.
                    assert_same_view(&client.name, tracker, *seq, view);
                    pending_resync = None;
                    report.resyncs_checked += 1;
                } else if *seq == current + 1 {
                    // The next view, sent whole instead of as a patch (it was smaller).
                    report.snapshots_for_patches += 1;
                    match (*req, pending_act) {
                        (Some(got), Some(want)) if got == want => pending_act = None,
                        (Some(got), _) => panic!(
                            "{}: a snapshot carries req {got}, which is not this client's \
                             pending act or resync",
                            client.name
                        ),
                        // Nobody else moves during this seat's turn, so with an act pending
                        // this snapshot is its answer, and the answer lost the act's req.
                        (None, Some(want)) => {
                            report.reqs_lost.push(want);
                            pending_act = None;
                        }
                        (None, None) => {}
                    }
                } else {
                    panic!(
                        "{}: snapshot at seq {seq} (req {req:?}) while the view is at {current}: \
                         neither the resync answer (req {pending_resync:?}) nor the next view",
                        client.name
                    );
                }
            }
            ServerMsg::Patch { .. } => {}
            ServerMsg::Error { req, .. } if req.is_some() && *req == pending_act => panic!(
                "{}: the first legal action was refused: {msg:?}; view was {:?}",
                client.name,
                tracker.view()
            ),
            other => panic!("{}: unexpected message {other:?}", client.name),
        }
        let tracker_seq_before = tracker.seq();
        let applied = tracker
            .apply(&msg)
            .unwrap_or_else(|e| panic!("{}: cannot apply {msg:?}: {e}", client.name));
        match applied {
            Applied::Patch { req, .. } => {
                report.patches += 1;
                report.changes += 1;
                patches_since_resync += 1;
                if let Some(req) = req {
                    assert_eq!(
                        Some(req),
                        pending_act,
                        "{}: a patch carries req {req}, which is not this client's pending act",
                        client.name
                    );
                    pending_act = None;
                }
            }
            Applied::Snapshot { seq, .. } => {
                if Some(seq) != tracker_seq_before {
                    report.changes += 1;
                    patches_since_resync += 1;
                }
            }
            Applied::Ignored => panic!("{}: message for another battle: {msg:?}", client.name),
        }
        check_envelope(tracker.view().expect("view"), &battle_id);
        if let Some(check) = drive.check {
            check(&Seen {
                who: &client.name,
                text: &text,
                msg: &msg,
                tracker,
            });
        }
    }
    assert!(
        report.reqs_lost.is_empty(),
        "{}: {} of {} accepted acts were answered with a snapshot (no req) instead of a patch \
         carrying the act's req (reqs {:?}); the protocol says the acting client's patch \
         carries the same req. Report: {report:?}",
        client.name,
        report.reqs_lost.len(),
        report.acts,
        report.reqs_lost
    );
    report
}

/// `entry` (one of a view's `legal` entries) as an action: each `{"$choose": schema}` of an
/// open entry filled with the first value its schema admits (the fewest, lowest items),
/// from the protocol's description alone, as any client would.
pub fn fill_first(entry: &Value) -> Value {
    match entry {
        Value::Object(map) if map.len() == 1 && map.contains_key("$choose") => {
            first_admitted(&map["$choose"])
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill_first(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(fill_first).collect()),
        other => other.clone(),
    }
}

/// The first value a schema of the protocol's subset admits.
fn first_admitted(schema: &Value) -> Value {
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(first) = schema["enum"].as_array().and_then(|v| v.first()) {
        return first.clone();
    }
    if let Some(first) = schema["anyOf"].as_array().and_then(|v| v.first()) {
        return first_admitted(first);
    }
    let min = schema["minItems"].as_u64().unwrap_or(0) as usize;
    match schema["type"].as_str() {
        Some("integer") => schema["minimum"].clone(),
        Some("array") => match schema["items"]["enum"].as_array() {
            Some(values) => Value::Array(values.iter().take(min).cloned().collect()),
            None => Value::Array(vec![first_admitted(&schema["items"]); min]),
        },
        Some("object") => Value::Object(
            schema["properties"]
                .as_object()
                .map(|p| {
                    p.iter()
                        .map(|(k, s)| (k.clone(), first_admitted(s)))
                        .collect()
                })
                .unwrap_or_default(),
        ),
        _ => Value::Null,
    }
}

/// Create `battle` (its seats played by the server's bots) from a host connection, watch it
/// to its end as a spectator that checks a resync every `resync_every` patches, and return
/// the spectator's finished view.
pub async fn watch_bots_play(
    server: &RunningServer,
    battle: Create,
    resync_every: usize,
) -> ViewTracker {
    let mut host = Client::connect(server, "host").await;
    let battle_id = host.create(battle).await;
    let mut spectator = Client::connect(server, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    let checking = Drive {
        act: false,
        resync_every: Some(resync_every),
        check: None,
    };
    drive(&mut spectator, &mut watch, &checking).await;
    check_finished(&watch, "spectator");
    // The host created the battle but holds no seat and watches nothing: it hears nothing.
    host.assert_pong().await;
    watch
}

/// Assert that `tracker` (built from patches) is at `seq` and equals `view` (a fresh
/// snapshot), showing the difference as a JSON patch when it does not.
pub fn assert_same_view(who: &str, tracker: &ViewTracker, seq: u64, view: &Value) {
    assert_eq!(
        tracker.seq(),
        Some(seq),
        "{who}: resync snapshot seq differs from the patched view's seq"
    );
    let mine = tracker.view().expect("a view before resync");
    if mine != view {
        let diff = json_patch::diff(mine, view);
        panic!(
            "{who}: view built from patches differs from the fresh snapshot at seq {seq}; \
             patch from mine to snapshot: {}",
            serde_json::to_string(&diff).unwrap_or_default()
        );
    }
}

/// A number that is no card instance id in any battle (instance ids are small).
pub const NO_SUCH_CARD: u64 = 999_999;

/// A PvP synergy battle with both seats taken and a spectator, everyone's view up to date.
pub struct PvpTable {
    pub battle_id: String,
    pub p0: Client,
    pub seat0: Seated,
    pub p1: Client,
    pub seat1: Seated,
    pub spectator: Client,
    pub watch: ViewTracker,
}

/// Create a PvP battle on `server`, seat `p0` and `p1`, attach a spectator, and [`settle`]
/// all three views.
pub async fn pvp_table(server: &RunningServer) -> PvpTable {
    let mut p0 = Client::connect(server, "p0").await;
    let battle_id = p0
        .create_synergy(serde_json::json!({"mode": "pvp"}), vec![])
        .await;
    let mut seat0 = p0.join(&battle_id, Some(0)).await;
    assert_eq!(seat0.seat, 0);
    assert_eq!(
        seat0.tracker.status(),
        Some(battle_protocol::BattleStatus::Waiting),
        "a PvP battle waits for its second player"
    );
    let mut p1 = Client::connect(server, "p1").await;
    let mut seat1 = p1.join(&battle_id, Some(1)).await;
    assert_eq!(seat1.seat, 1);
    let mut spectator = Client::connect(server, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    settle(&mut p0, &mut seat0.tracker).await;
    settle(&mut p1, &mut seat1.tracker).await;
    settle(&mut spectator, &mut watch).await;
    for (who, t) in [
        ("p0", &seat0.tracker),
        ("p1", &seat1.tracker),
        ("spectator", &watch),
    ] {
        assert_eq!(
            t.status(),
            Some(battle_protocol::BattleStatus::Playing),
            "{who}: both seats are taken, so the battle plays"
        );
    }
    PvpTable {
        battle_id,
        p0,
        seat0,
        p1,
        seat1,
        spectator,
        watch,
    }
}

/// Apply every message already on its way to `client` (ping, then read up to the pong);
/// only snapshots and patches of `tracker`'s battle may come before the pong. Returns how
/// many were applied.
pub async fn settle(client: &mut Client, tracker: &mut ViewTracker) -> usize {
    let req = client.req();
    client.send(ClientMsg::Ping { req: Some(req) }).await;
    for applied in 0..MAX_MESSAGES {
        let msg = client.expect_msg().await;
        if let ServerMsg::Pong { req: got } = msg {
            assert_eq!(got, Some(req), "{}: pong must echo req", client.name);
            return applied;
        }
        match tracker.apply(&msg) {
            Ok(Applied::Patch { .. } | Applied::Snapshot { .. }) => {}
            other => panic!("{}: while settling, got {msg:?} ({other:?})", client.name),
        }
    }
    panic!("{}: no pong after {MAX_MESSAGES} messages", client.name);
}

/// Send `resync` and assert the snapshot equals `tracker`'s view at the same `seq` (the
/// tracker must be settled: no message may be on its way).
pub async fn assert_resync_matches(client: &mut Client, tracker: &mut ViewTracker) {
    let battle_id = tracker.battle_id().to_string();
    let req = client.req();
    client
        .send(ClientMsg::Resync {
            battle_id: battle_id.clone(),
            req: Some(req),
        })
        .await;
    match client.expect_msg().await {
        ServerMsg::Snapshot {
            seq,
            view,
            req: got,
            ..
        } => {
            assert_eq!(
                got,
                Some(req),
                "{}: the resync snapshot echoes req",
                client.name
            );
            assert_same_view(&client.name, tracker, seq, &view);
        }
        other => panic!("{}: expected a resync snapshot, got {other:?}", client.name),
    }
}

/// A view's `game` with every side's `hand` removed: what all viewers must agree on.
pub fn public_game(tracker: &ViewTracker) -> Value {
    let mut game = tracker.game().cloned().expect("a view with a game");
    if let Some(sides) = game.get_mut("sides").and_then(Value::as_array_mut) {
        for side in sides {
            if let Some(side) = side.as_object_mut() {
                side.remove("hand");
            }
        }
    }
    game
}
