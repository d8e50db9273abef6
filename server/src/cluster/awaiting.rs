//! Set-up requests sent to another node and not answered yet.
//!
//! A `create`, `join`, `rejoin` or `spectate` that this node's connection made, and that went
//! to another node's inbox, is answered by a note from that node (the answer's frames, or
//! the admission that follows it). If that node dies first, no answer ever comes: without
//! this list the client would wait for ever. Each such request is kept here until a note for
//! its connection arrives; when a node is found dead, the requests still waiting on it are
//! answered `node_lost` (it may or may not have been carried out: the client looks, or asks
//! again). Moves are not kept: the battle's new owner sends their players a snapshot.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use battle_protocol::{ErrorCode, Req, ServerMsg};
use dashmap::DashMap;

use super::wire::Forwarded;
use crate::connection::outbox::Outbox;

/// How long a request is kept at most: far longer than any answer takes, short enough that
/// a connection closed while waiting is not remembered for long.
const KEPT_FOR: Duration = Duration::from_secs(120);

/// One request waiting for its answer.
#[derive(Debug)]
struct Waiting {
    /// The node instance it was sent to (`<node>/<instance>`).
    owner: String,
    battle: Option<String>,
    req: Option<Req>,
    outbox: Outbox,
    since: Instant,
}

/// The set-up requests of this node's connections waiting on other nodes, by connection.
#[derive(Debug, Default)]
pub struct Awaiting {
    by_conn: DashMap<u64, VecDeque<Waiting>>,
}

impl Awaiting {
    /// Whether `cmd` is a set-up request kept here: one whose answer only a note brings.
    pub fn kept(cmd: &Forwarded) -> bool {
        matches!(
            cmd,
            Forwarded::Create { .. }
                | Forwarded::Join { .. }
                | Forwarded::Rejoin { .. }
                | Forwarded::Spectate { .. }
        )
    }

    /// `outbox`'s request `req` (about `battle`, `None` for a `create`) went to `owner`.
    pub fn sent(&self, owner: &str, battle: Option<String>, req: Option<Req>, outbox: &Outbox) {
        let now = Instant::now();
        let mut queue = self.by_conn.entry(outbox.id().0).or_default();
        while queue
            .front()
            .is_some_and(|w| now.duration_since(w.since) > KEPT_FOR)
        {
            queue.pop_front();
        }
        queue.push_back(Waiting {
            owner: owner.to_string(),
            battle,
            req,
            outbox: outbox.clone(),
            since: now,
        });
    }

    /// A note about `battle` for connection `conn` came (an answer's frames, or an
    /// admission): the oldest request about that battle is answered, or else the oldest
    /// `create` (whose answer names the battle it made). A note that answers nothing kept,
    /// such as a refused move, may end a wait early: the cost is a request that would not
    /// be told `node_lost`, never one told it wrongly.
    pub fn noted(&self, conn: u64, battle: &str) {
        let Some(mut queue) = self.by_conn.get_mut(&conn) else {
            return;
        };
        let about = queue
            .iter()
            .position(|w| w.battle.as_deref() == Some(battle))
            .or_else(|| queue.iter().position(|w| w.battle.is_none()));
        if let Some(at) = about {
            queue.remove(at);
        }
        if queue.is_empty() {
            drop(queue);
            self.by_conn.remove_if(&conn, |_, q| q.is_empty());
        }
    }

    /// The request just kept for `outbox` was not sent after all (it was answered
    /// otherwise): forget it.
    pub fn unsent(&self, outbox: &Outbox) {
        if let Some(mut queue) = self.by_conn.get_mut(&outbox.id().0) {
            queue.pop_back();
        }
    }

    /// The node instance `dead` is gone: answer every request still waiting on it, sent
    /// within `recent`, `node_lost` (an older one was answered by a note that was lost, or
    /// its connection is long gone: it is forgotten). Returns how many were told.
    pub fn lost(&self, dead: &str, recent: Duration) -> usize {
        let mut told = 0;
        for mut entry in self.by_conn.iter_mut() {
            let queue = entry.value_mut();
            let (gone, kept): (VecDeque<Waiting>, VecDeque<Waiting>) = std::mem::take(queue)
                .into_iter()
                .partition(|w| w.owner == dead);
            *queue = kept;
            for waiting in gone {
                if waiting.since.elapsed() > recent {
                    continue;
                }
                told += 1;
                tell_lost(&waiting.outbox, waiting.battle, waiting.req);
            }
        }
        self.by_conn.retain(|_, queue| !queue.is_empty());
        told
    }

    /// Forget the requests kept longer than they could take.
    pub fn tidy(&self) {
        let now = Instant::now();
        self.by_conn.retain(|_, queue| {
            queue.retain(|w| now.duration_since(w.since) <= KEPT_FOR);
            !queue.is_empty()
        });
    }
}

/// Tell `outbox` that its request `req` (about `battle`) was lost with the node that held it.
pub fn tell_lost(outbox: &Outbox, battle: Option<String>, req: Option<Req>) {
    outbox.offer_msg(&ServerMsg::Error {
        code: ErrorCode::NodeLost,
        message: "the server that held this request stopped before it answered: it may or may \
                  not have been done; look (list, rejoin) or ask again"
            .into(),
        battle_id: battle,
        req,
        retry_after_ms: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECENT: Duration = Duration::from_secs(10);

    /// Every message the tap holds.
    fn texts(tap: &mut crate::connection::outbox::Tap) -> Vec<String> {
        std::iter::from_fn(|| tap.try_recv().ok().map(|t| t.to_string())).collect()
    }

    fn error_of(text: &str) -> (String, Option<u64>) {
        let value: serde_json::Value = serde_json::from_str(text).expect("a JSON message");
        (
            value["code"].as_str().unwrap_or_default().to_string(),
            value["req"].as_u64(),
        )
    }

    #[test]
    fn a_request_waiting_on_a_dead_node_is_told_node_lost_and_an_answered_one_is_not() {
        let awaiting = Awaiting::default();
        let (a, mut tap_a) = Outbox::detached(8);
        let (b, mut tap_b) = Outbox::detached(8);
        awaiting.sent("n1/x", None, Some(4), &a);
        awaiting.sent("n1/x", Some("b1".into()), Some(7), &b);
        awaiting.sent("n2/y", Some("b2".into()), Some(8), &b);
        // b's request about b1 was answered; a note about a battle b asked nothing of
        // answers nothing.
        awaiting.noted(b.id().0, "b7");
        awaiting.noted(b.id().0, "b1");
        assert_eq!(awaiting.lost("n1/x", RECENT), 1);
        let told = texts(&mut tap_a);
        assert_eq!(told.len(), 1);
        assert_eq!(error_of(&told[0]), ("node_lost".into(), Some(4)));
        assert!(
            texts(&mut tap_b).is_empty(),
            "b's request on n1 was answered"
        );
        // n2's request is still waiting, and told when n2 goes.
        assert_eq!(awaiting.lost("n2/y", RECENT), 1);
        assert_eq!(
            error_of(&texts(&mut tap_b)[0]),
            ("node_lost".into(), Some(8))
        );
        assert_eq!(awaiting.lost("n2/y", RECENT), 0);
    }

    #[test]
    fn a_create_is_answered_by_a_note_about_the_battle_it_made() {
        let awaiting = Awaiting::default();
        let (a, mut tap_a) = Outbox::detached(8);
        awaiting.sent("n1/x", None, Some(1), &a);
        awaiting.noted(a.id().0, "new1");
        assert_eq!(awaiting.lost("n1/x", RECENT), 0);
        assert!(texts(&mut tap_a).is_empty());
    }

    #[test]
    fn a_request_not_sent_after_all_or_long_past_is_not_told() {
        let awaiting = Awaiting::default();
        let (a, mut tap_a) = Outbox::detached(8);
        awaiting.sent("n1/x", None, Some(1), &a);
        awaiting.sent("n1/x", None, Some(2), &a);
        awaiting.unsent(&a);
        assert_eq!(awaiting.lost("n1/x", RECENT), 1);
        assert_eq!(error_of(&texts(&mut tap_a)[0]).1, Some(1));
        awaiting.sent("n1/x", None, Some(3), &a);
        assert_eq!(
            awaiting.lost("n1/x", Duration::ZERO),
            0,
            "older than recent"
        );
        assert!(texts(&mut tap_a).is_empty());
    }

    #[test]
    fn only_set_up_requests_are_kept() {
        assert!(Awaiting::kept(&Forwarded::Spectate { req: None }));
        assert!(!Awaiting::kept(&Forwarded::Act {
            action: serde_json::Value::Null,
            req: Some(1)
        }));
        assert!(!Awaiting::kept(&Forwarded::Disconnected));
    }
}
