//! One lobby for the whole cluster, read from Redis by any node: `list` in pages (the
//! public battles by creation number, each with its record), the recently finished
//! battles, and replays.

use battle_protocol::{BattleSummary, ClientMsg, ErrorCode, FinishedSummary, Replay};
use redis::aio::ConnectionManager;

use super::keys;
use crate::config::Config;
use crate::lobby::{Page, FINISHED_LISTED};
use crate::refusal::Refusal;
use crate::store::Ended;

/// A store error as a refusal.
fn unavailable(err: redis::RedisError) -> Refusal {
    Refusal::new(
        ErrorCode::StoreUnavailable,
        format!("the cluster's lobby cannot be read now: {err}"),
    )
}

/// One page of the public battles of every node, oldest first, after the creation number
/// `cursor` names; at most `limit` (as `list` takes them).
pub async fn list(
    conn: &mut ConnectionManager,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> Result<Page, Refusal> {
    let limit = match limit {
        Some(0) => {
            return Err(Refusal::new(
                ErrorCode::BadMessage,
                format!(
                    "limit: 1 to {} battles per page, not 0",
                    ClientMsg::LIST_LIMIT_MAX
                ),
            ))
        }
        Some(n) => n.min(ClientMsg::LIST_LIMIT_MAX),
        None => ClientMsg::LIST_LIMIT_DEFAULT,
    } as usize;
    let after: u64 = match cursor {
        None => 0,
        Some(text) => text.parse().map_err(|_| {
            Refusal::new(
                ErrorCode::BadMessage,
                format!(
                    "cursor: {text:?} is not a cursor this server gave; pass back a page's \
                     next_cursor as it came, or leave it out for the first page"
                ),
            )
        })?,
    };
    let (ids, total): (Vec<(String, u64)>, usize) = redis::pipe()
        .cmd("ZRANGE")
        .arg(keys::LOBBY)
        .arg(format!("({after}"))
        .arg("+inf")
        .arg("BYSCORE")
        .arg("LIMIT")
        .arg(0)
        .arg(limit + 1)
        .arg("WITHSCORES")
        .zcard(keys::LOBBY)
        .query_async(conn)
        .await
        .map_err(unavailable)?;
    let more = ids.len() > limit;
    let ids: Vec<(String, u64)> = ids.into_iter().take(limit).collect();
    let next_cursor = more
        .then(|| ids.last().map(|(_, seq)| seq.to_string()))
        .flatten();
    let battles = if ids.is_empty() {
        Vec::new()
    } else {
        let texts: Vec<Option<String>> = redis::cmd("HMGET")
            .arg(keys::SUMMARIES)
            .arg(ids.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>())
            .query_async(conn)
            .await
            .map_err(unavailable)?;
        texts
            .into_iter()
            .flatten()
            .filter_map(|text| serde_json::from_str::<BattleSummary>(&text).ok())
            .collect()
    };
    Ok(Page {
        battles,
        total,
        next_cursor,
    })
}

/// The most recently finished public battles still kept, newest first.
pub async fn recently_finished(
    conn: &mut ConnectionManager,
) -> Result<Vec<FinishedSummary>, Refusal> {
    let ids: Vec<String> = redis::cmd("ZREVRANGE")
        .arg(keys::FINISHED)
        .arg(0)
        .arg(FINISHED_LISTED as i64 - 1)
        .query_async(conn)
        .await
        .map_err(unavailable)?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let texts: Vec<Option<String>> = redis::cmd("MGET")
        .arg(ids.iter().map(|id| keys::replay(id)).collect::<Vec<_>>())
        .query_async(conn)
        .await
        .map_err(unavailable)?;
    let mut gone = Vec::new();
    let mut finished = Vec::new();
    for (id, text) in ids.iter().zip(texts) {
        match text.and_then(|t| serde_json::from_str::<Ended>(&t).ok()) {
            Some(ended) => finished.push(crate::store::finished_summary(&ended)),
            None => gone.push(id.clone()),
        }
    }
    if !gone.is_empty() {
        // Past their retention: forgotten from the list too.
        let _: redis::RedisResult<()> = redis::cmd("ZREM")
            .arg(keys::FINISHED)
            .arg(gone)
            .query_async(conn)
            .await;
    }
    Ok(finished)
}

/// A finished battle as its spectators saw it, rebuilt from what Redis keeps.
pub async fn replay(
    conn: &mut ConnectionManager,
    config: &Config,
    battle: &str,
) -> Result<Replay, Refusal> {
    let (kept, live): (Option<String>, (Option<String>, Option<String>)) = redis::pipe()
        .get(keys::replay(battle))
        .cmd("HMGET")
        .arg(keys::battle(battle))
        .arg("owner")
        .arg("finished")
        .query_async(conn)
        .await
        .map_err(unavailable)?;
    let Some(text) = kept else {
        if live.0.is_some() && live.1.is_none() {
            return Err(Refusal::new(
                ErrorCode::NotFinished,
                format!(
                    "battle {battle:?} is still being played: spectate it; its replay comes \
                     once it is over"
                ),
            ));
        }
        return Err(Refusal::new(
            ErrorCode::NoSuchBattle,
            format!(
                "no finished battle {battle:?} is kept (it may be past the server's replay \
                 retention, or never existed)"
            ),
        ));
    };
    let ended: Ended = serde_json::from_str(&text).map_err(|err| {
        Refusal::new(
            ErrorCode::Internal,
            format!("battle {battle:?} is kept in a form this server cannot read: {err}"),
        )
    })?;
    if ended.ended_at > crate::store::unix_now_ms() {
        return Err(Refusal::new(
            ErrorCode::NotFinished,
            format!(
                "battle {battle:?} is over, but its spectators have not been shown the end \
                 yet (it has a spectator delay): its replay comes then"
            ),
        ));
    }
    let config = config.clone();
    let id = battle.to_string();
    tokio::task::spawn_blocking(move || crate::replay::build(&ended, &config))
        .await
        .map_err(|_| Refusal::new(ErrorCode::Internal, "the replay failed"))?
        .map_err(|err| {
            Refusal::new(
                ErrorCode::NoSuchBattle,
                format!("battle {id:?} is kept but this server cannot replay it: {err}"),
            )
        })
}
