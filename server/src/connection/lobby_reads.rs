//! The reader's lobby requests that are answered off its task: `list` with the finished
//! battles or in a cluster (read from the store or Redis), and `replay` (rebuilt off the
//! runtime's threads). Each answer is sent when ready; answers to later requests may come
//! first, and `req` tells them apart.

use std::sync::Arc;

use battle_protocol::{FinishedSummary, Req, ServerMsg};

use super::outbox::Outbox;
use crate::lobby::{Lobby, Page};
use crate::refusal::Refusal;

/// The `battles` answer for `page` (with the finished battles, on a first page that asked
/// for them).
pub fn battles(page: Page, finished: Option<Vec<FinishedSummary>>, req: Option<Req>) -> ServerMsg {
    ServerMsg::Battles {
        battles: page.battles,
        total: page.total,
        next_cursor: page.next_cursor,
        finished,
        req,
    }
}

/// Answer `list`: one page, and with `finished` (on the first page only) the recently
/// finished battles.
pub async fn list(
    lobby: Arc<Lobby>,
    outbox: Outbox,
    cursor: Option<String>,
    limit: Option<u32>,
    finished: bool,
    req: Option<Req>,
) {
    let page = match lobby.page(cursor.as_deref(), limit).await {
        Ok(page) => page,
        Err(Refusal { code, message }) => {
            outbox.offer_msg(&ServerMsg::error(code, message, req));
            return;
        }
    };
    let msg = if finished && cursor.is_none() {
        match lobby.finished_battles().await {
            Ok(finished) => battles(page, Some(finished), req),
            Err(Refusal { code, message }) => ServerMsg::error(code, message, req),
        }
    } else {
        battles(page, None, req)
    };
    outbox.offer_msg(&msg);
}

/// Answer `replay`.
pub async fn replay(lobby: Arc<Lobby>, outbox: Outbox, battle_id: String, req: Option<Req>) {
    let msg = match lobby.replay_of(&battle_id).await {
        Ok(replay) => ServerMsg::Replay {
            replay: Box::new(replay),
            req,
        },
        Err(Refusal { code, message }) => ServerMsg::Error {
            code,
            message,
            battle_id: Some(battle_id),
            req,
            retry_after_ms: None,
        },
    };
    outbox.offer_msg(&msg);
}
