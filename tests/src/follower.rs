//! Following a battle played over several nodes of a cluster: a [`Follower`] applies every
//! snapshot and patch, resyncs on a gap, and acts for its seat, taking in its stride the
//! refusals a battle that moves between nodes may give.

use std::time::Duration;

use battle_client::{Applied, ViewTracker};
use battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use serde_json::Value;

use crate::{fill_first, Client};

/// How a player or spectator follows a battle across failovers: it applies every snapshot
/// and patch, resyncs on a gap, and (a player) acts whenever its seat is awaited, trying
/// again after a refusal the cluster may give while a battle moves.
pub struct Follower {
    /// Its connection.
    pub client: Client,
    /// The battle's view as it holds it.
    pub tracker: ViewTracker,
    /// Whether it plays a seat.
    act: bool,
    /// The `req` of its `act` waiting for an answer.
    pub pending: Option<u64>,
    /// Log lines as long as they were ever seen: what a failover may not lose.
    pub seen_log: usize,
    /// Resyncs asked for after a gap or a patch that did not fit.
    pub resyncs: usize,
}

impl Follower {
    /// Follow the battle `tracker` holds on `client`; acting for its seat when `act`.
    pub fn new(client: Client, tracker: ViewTracker, act: bool) -> Follower {
        Follower {
            client,
            tracker,
            act,
            pending: None,
            seen_log: 0,
            resyncs: 0,
        }
    }

    /// The battle's id.
    pub fn battle(&self) -> String {
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
    pub async fn maybe_act(&mut self) {
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
    pub async fn step(&mut self, wait: Duration) -> bool {
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

    /// Follow until the battle is over (bounded).
    pub async fn to_the_end(&mut self) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while !self.tracker.is_over() {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{}: the battle did not end in time: {:?}",
                self.client.name,
                self.tracker.view()
            );
            self.maybe_act().await;
            if !self.step(Duration::from_millis(500)).await && self.pending.is_some() {
                // An act whose answer was lost in a move: ask where the battle is.
                self.pending = None;
                let battle = self.battle();
                self.client
                    .send(ClientMsg::Resync {
                        battle_id: battle,
                        req: None,
                    })
                    .await;
            }
        }
    }
}

/// Play `players` and `watchers` to the end of their battle together (bounded in time).
pub async fn play_out(players: &mut [&mut Follower], watchers: &mut [&mut Follower]) {
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

/// Play until `players` made `moves` accepted moves between them, or their battle ended
/// (bounded in time); how many they made.
pub async fn advance(players: &mut [&mut Follower], moves: usize) -> usize {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let mut made = 0;
    while made < moves && !players.iter().all(|p| p.tracker.is_over()) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{moves} moves were not made in time"
        );
        for player in players.iter_mut() {
            player.maybe_act().await;
            let was_pending = player.pending.is_some();
            player.step(Duration::from_millis(20)).await;
            if was_pending && player.pending.is_none() {
                made += 1;
            }
        }
    }
    // What is still on its way for each: settled.
    for player in players.iter_mut() {
        while player.pending.is_some() && player.step(Duration::from_millis(500)).await {}
        while player.step(Duration::from_millis(50)).await {}
    }
    made
}
