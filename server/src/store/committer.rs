//! The store's one writer: a thread of its own that takes records from every battle in
//! ticket order and commits them in groups.
//!
//! Group commit with a short gathering delay: once a record arrives the writer waits
//! [`GATHER`] for more, then commits everything that arrived (up to [`MAX_BATCH`] records) in
//! one transaction, so a record waits at most for the commit in progress, the gathering delay
//! and its own commit. The delay trades a fraction of a millisecond of latency for fewer,
//! larger transactions and fewer wake-ups of this thread under load. After each commit the watermark rises and the
//! connections holding frames for those records are released ([`Commits::advance`]). Actors
//! never wait for any of this: they hand records over a channel and go on.
//!
//! Inputs are appended to one table in commit order. A battle that goes away leaves its rows
//! behind until every battle older than them is gone too: then [`Committer::purge`] drops the
//! whole prefix with one range delete (at most every [`PURGE_EVERY`]).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use battle_rules::input_log::Input;
use rusqlite::{params, Connection};
use tokio::sync::mpsc::UnboundedReceiver;

use super::archive::{self, Retention};
use super::commits::{Commits, Ticket};
use super::quarantine;
use super::record::{Ended, Record};
use super::writable::Writable;

/// Most records in one transaction.
pub const MAX_BATCH: usize = 4096;

/// How long the writer gathers records before each commit.
pub const GATHER: Duration = Duration::from_micros(500);

/// How long to wait before trying a failed commit again.
const RETRY: Duration = Duration::from_millis(500);

/// How often the inputs of battles gone away are dropped.
const PURGE_EVERY: Duration = Duration::from_secs(5);

/// How often finished battles past their retention are dropped.
const PRUNE_EVERY: Duration = Duration::from_secs(60);

/// The writer's state.
pub struct Committer {
    conn: Connection,
    /// Each kept battle, with the last input row written before it was created: none of its
    /// rows is at or below it.
    live: HashMap<String, i64>,
    /// The last input row written.
    last_row: i64,
    /// Rows at or below this one are gone.
    purged: i64,
    last_purge: Instant,
    /// How long finished battles are kept for replays.
    retention: Retention,
    last_prune: Instant,
    /// Whether commits go through, for everyone who asks.
    writable: Arc<Writable>,
}

impl Committer {
    /// The writer for `conn`: rows of battles no longer kept, and finished battles past
    /// `retention`, are dropped now.
    pub fn new(
        conn: Connection,
        retention: Retention,
        writable: Arc<Writable>,
    ) -> rusqlite::Result<Committer> {
        conn.execute(
            "DELETE FROM inputs WHERE battle NOT IN (SELECT id FROM battles)",
            [],
        )?;
        archive::prune(&conn, retention)?;
        let last_row: i64 =
            conn.query_row("SELECT COALESCE(MAX(seq), 0) FROM inputs", [], |r| r.get(0))?;
        let mut live = HashMap::new();
        {
            let mut ids = conn.prepare("SELECT id FROM battles")?;
            let mut rows = ids.query([])?;
            while let Some(row) = rows.next()? {
                live.insert(row.get::<_, String>(0)?, last_row);
            }
            let mut first = conn.prepare("SELECT battle, MIN(seq) FROM inputs GROUP BY battle")?;
            let mut rows = first.query([])?;
            while let Some(row) = rows.next()? {
                live.insert(row.get(0)?, row.get::<_, i64>(1)? - 1);
            }
        }
        Ok(Committer {
            conn,
            live,
            last_row,
            purged: 0,
            last_purge: Instant::now(),
            retention,
            last_prune: Instant::now(),
            writable,
        })
    }

    /// Commit records as they come until every sender is gone and the channel is drained.
    pub fn run(mut self, mut rx: UnboundedReceiver<(Ticket, Record)>, commits: Arc<Commits>) {
        let mut batch = Vec::with_capacity(256);
        while let Some(first) = rx.blocking_recv() {
            batch.push(first);
            std::thread::sleep(GATHER);
            while batch.len() < MAX_BATCH {
                match rx.try_recv() {
                    Ok(record) => batch.push(record),
                    Err(_) => break,
                }
            }
            let last = batch.last().map_or(0, |(ticket, _)| *ticket);
            // A failed commit (a full disk, a read-only filesystem) is tried again until it
            // goes through: releasing the frames without it would show clients changes a
            // crash could lose. Meanwhile the battles refuse moves (`writable`).
            while let Err(err) = self.write(&batch) {
                if self.writable.failed(&err) {
                    tracing::error!(
                        %err,
                        records = batch.len(),
                        "cannot write to the data directory: moves are refused \
                         (store_unavailable) until it can; trying again every {} ms",
                        RETRY.as_millis()
                    );
                }
                if self.writable.is_closing() {
                    tracing::error!(
                        records = batch.len(),
                        "the server stops with changes it could not write: none of them \
                         was shown to anyone"
                    );
                    return;
                }
                std::thread::sleep(RETRY);
            }
            if let Some(lasted) = self.writable.succeeded() {
                tracing::info!(
                    failed = self.writable.failures(),
                    secs = lasted.as_secs(),
                    "the data directory takes writes again: moves are accepted, and the \
                     changes held meanwhile are shown now"
                );
            }
            batch.clear();
            commits.advance(last);
            if self.last_purge.elapsed() >= PURGE_EVERY {
                self.purge();
            }
            if self.last_prune.elapsed() >= PRUNE_EVERY {
                self.last_prune = Instant::now();
                if let Err(err) = archive::prune(&self.conn, self.retention) {
                    tracing::warn!(%err, "cannot drop replays past their retention");
                }
            }
        }
    }

    /// Write `batch` in one transaction.
    fn write(&mut self, batch: &[(Ticket, Record)]) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        let mut last_row = self.last_row;
        let mut created = Vec::new();
        let mut removed = Vec::new();
        {
            let mut insert =
                tx.prepare_cached("INSERT INTO inputs (battle, n, input) VALUES (?1, ?2, ?3)")?;
            for (_, record) in batch {
                match record {
                    Record::Input { battle, n, input } => {
                        insert.execute(params![battle, *n as i64, input_json(input)])?;
                        last_row = tx.last_insert_rowid();
                    }
                    Record::Created(c) => {
                        tx.prepare_cached(
                            "INSERT OR REPLACE INTO battles
                             (id, ruleset, version, options, seed, bots, pace_ms, private, grace_ms,
                              seeded, timer, spectator_delay_ms)
                             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
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
                            c.grace_ms as i64,
                            c.seeded,
                            c.timer
                                .map(|t| serde_json::to_string(&t).expect("a timer serializes")),
                            c.spectator_delay_ms as i64,
                        ])?;
                        created.push((c.battle.clone(), last_row));
                    }
                    Record::SeatTaken {
                        battle,
                        seat,
                        token_hash,
                        setup,
                    } => {
                        tx.prepare_cached(
                            "INSERT OR REPLACE INTO seats (battle, seat, token_hash, setup)
                             VALUES (?1, ?2, ?3, ?4)",
                        )?
                        .execute(params![
                            battle,
                            *seat as i64,
                            token_hash,
                            setup
                        ])?;
                    }
                    Record::SeatFreed { battle, seat } => {
                        tx.prepare_cached("DELETE FROM seats WHERE battle = ?1 AND seat = ?2")?
                            .execute(params![battle, *seat as i64])?;
                    }
                    Record::Finished(ended) => {
                        tx.prepare_cached("UPDATE battles SET finished = 1 WHERE id = ?1")?
                            .execute(params![ended.battle])?;
                        if self.retention.keeps() {
                            keep_replay(&tx, ended)?;
                        }
                    }
                    Record::Removed { battle } => {
                        for sql in [
                            "DELETE FROM seats WHERE battle = ?1",
                            "DELETE FROM battles WHERE id = ?1",
                        ] {
                            tx.prepare_cached(sql)?.execute(params![battle])?;
                        }
                        removed.push(battle.clone());
                    }
                    Record::Quarantined(quarantined) => quarantine::set_aside(&tx, quarantined)?,
                    // Only a cluster has ownership to check.
                    Record::Fence { .. } => {}
                }
            }
        }
        tx.commit()?;
        // Only once committed: a retried batch must not count twice.
        self.last_row = last_row;
        self.live.extend(created);
        for battle in removed {
            self.live.remove(&battle);
        }
        Ok(())
    }

    /// Drop every input row older than the oldest kept battle (rows of battles gone away).
    fn purge(&mut self) {
        self.last_purge = Instant::now();
        let below = self.live.values().copied().min().unwrap_or(self.last_row);
        if below <= self.purged {
            return;
        }
        match self
            .conn
            .execute("DELETE FROM inputs WHERE seq <= ?1", params![below])
        {
            Ok(_) => self.purged = below,
            Err(err) => tracing::warn!(%err, "cannot drop old inputs"),
        }
    }
}

/// Write `ended` into the replays table, its inputs as one JSON array.
fn keep_replay(tx: &rusqlite::Transaction<'_>, ended: &Ended) -> rusqlite::Result<()> {
    let mut inputs = String::with_capacity(ended.inputs.len() * 48 + 2);
    inputs.push('[');
    for (n, input) in ended.inputs.iter().enumerate() {
        if n > 0 {
            inputs.push(',');
        }
        inputs.push_str(&input_json(input));
    }
    inputs.push(']');
    tx.prepare_cached(
        "INSERT OR REPLACE INTO replays
         (id, ruleset, version, options, seed, seats, bots, private, seeded, outcome, ended_at,
          steps, inputs)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
        ended.battle,
        ended.ruleset,
        ended.version,
        ended.options,
        ended.seed as i64,
        ended.seats as i64,
        serde_json::to_string(&ended.bots).expect("seat numbers serialize"),
        ended.private,
        ended.seeded,
        serde_json::to_string(&ended.outcome).expect("an outcome serializes"),
        ended.ended_at as i64,
        ended.steps() as i64,
        inputs,
    ])?;
    Ok(())
}

/// An input as the JSON the input log reads back (`Input`'s serde form), written directly:
/// a move's action is already compact JSON text.
fn input_json(input: &Input) -> String {
    match input {
        Input::Act { seat, action } => {
            format!("{{\"input\":\"act\",\"seat\":{seat},\"action\":{action}}}")
        }
        // Once per seat, and a name needs escaping: serde writes it.
        Input::Setup { .. } => serde_json::to_string(input).expect("an input serializes"),
        Input::Advance => "{\"input\":\"advance\"}".to_owned(),
        Input::Timeout { seat } => format!("{{\"input\":\"timeout\",\"seat\":{seat}}}"),
        Input::Resign { seat } => format!("{{\"input\":\"resign\",\"seat\":{seat}}}"),
        Input::Forfeit { seat } => format!("{{\"input\":\"forfeit\",\"seat\":{seat}}}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inputs_are_written_as_their_serde_form() {
        for input in [
            Input::act(1, &json!({"kind": "play", "card": 4})),
            Input::setup(0, None),
            Input::setup(1, Some(&json!({"deck": ["C001"]}))),
            Input::setup_as(1, None, Some("Ana \"the\" Bold")),
            Input::Advance,
            Input::Timeout { seat: 2 },
            Input::Forfeit { seat: 1 },
            Input::Resign { seat: 1 },
        ] {
            let text = input_json(&input);
            let back: Input = serde_json::from_str(&text).expect("reads back");
            assert_eq!(back, input, "{text}");
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&text).expect("JSON"),
                serde_json::to_value(&input).expect("serializes"),
            );
        }
    }
}
