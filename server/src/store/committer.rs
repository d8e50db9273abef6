//! The store's one writer: a thread of its own that takes records from every battle in
//! ticket order and commits them in groups.
//!
//! Group commit without an added delay: each transaction holds everything that arrived while
//! the previous one was being written (up to [`MAX_BATCH`] records), so a record waits at
//! most for the commit in progress and its own. After each commit the watermark rises and the
//! connections holding frames for those records are released ([`Commits::advance`]). Actors
//! never wait for any of this: they hand records over a channel and go on.

use std::sync::Arc;
use std::time::Duration;

use rusqlite::{params, Connection};
use tokio::sync::mpsc::UnboundedReceiver;

use super::commits::{Commits, Ticket};
use super::record::Record;

/// Most records in one transaction.
pub const MAX_BATCH: usize = 4096;

/// How long to wait before trying a failed commit again.
const RETRY: Duration = Duration::from_secs(1);

/// Commit records as they come until every sender is gone and the channel is drained.
pub fn run(
    mut conn: Connection,
    mut rx: UnboundedReceiver<(Ticket, Record)>,
    commits: Arc<Commits>,
) {
    let mut batch = Vec::with_capacity(256);
    while let Some(first) = rx.blocking_recv() {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(record) => batch.push(record),
                Err(_) => break,
            }
        }
        let last = batch.last().map_or(0, |(ticket, _)| *ticket);
        // A failed commit (a full disk, say) is tried again: releasing the frames without
        // it would show clients changes a crash could lose.
        while let Err(err) = write(&mut conn, &batch) {
            tracing::error!(%err, records = batch.len(), "cannot commit the input log; retrying");
            std::thread::sleep(RETRY);
        }
        batch.clear();
        commits.advance(last);
    }
}

/// Write `batch` in one transaction.
fn write(conn: &mut Connection, batch: &[(Ticket, Record)]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut input = tx.prepare_cached(
            "INSERT OR REPLACE INTO inputs (battle, n, input) VALUES (?1, ?2, ?3)",
        )?;
        for (_, record) in batch {
            match record {
                Record::Input {
                    battle,
                    n,
                    input: i,
                } => {
                    // An input is plain data: it always serializes.
                    let text = serde_json::to_string(i).expect("an input serializes");
                    input.execute(params![battle, *n as i64, text])?;
                }
                Record::Created(c) => {
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO battles (id, ruleset, version, options, seed, bots, pace_ms, private)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    )?
                    .execute(params![
                        c.battle,
                        c.ruleset,
                        c.version,
                        c.options,
                        c.seed as i64,
                        serde_json::to_string(&c.bots).expect("seat numbers serialize"),
                        c.pace_ms as i64,
                        c.private,
                    ])?;
                }
                Record::SeatTaken {
                    battle,
                    seat,
                    token_hash,
                    setup,
                } => {
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO seats (battle, seat, token_hash, setup) VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(params![battle, *seat as i64, token_hash, setup])?;
                }
                Record::SeatFreed { battle, seat } => {
                    tx.prepare_cached("DELETE FROM seats WHERE battle = ?1 AND seat = ?2")?
                        .execute(params![battle, *seat as i64])?;
                }
                Record::Finished { battle } => {
                    tx.prepare_cached("UPDATE battles SET finished = 1 WHERE id = ?1")?
                        .execute(params![battle])?;
                }
                Record::Removed { battle } => {
                    for sql in [
                        "DELETE FROM inputs WHERE battle = ?1",
                        "DELETE FROM seats WHERE battle = ?1",
                        "DELETE FROM battles WHERE id = ?1",
                    ] {
                        tx.prepare_cached(sql)?.execute(params![battle])?;
                    }
                }
            }
        }
    }
    tx.commit()
}
