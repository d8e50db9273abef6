//! Failover: every live node looks, four times a lease, for node instances whose lease has
//! run out and that still own battles, and claims its share of them.
//!
//! A dead instance's battle goes first to the live node its id hashes to (so that the
//! battles spread between the live nodes), and to any live node once it has been
//! unclaimed for a lease. Claiming is one compare-and-set in Redis that checks the owner is
//! still dead and raises the epoch ([`super::scripts`]). The claimer reads the battle back
//! (its creation and log), replays it, starts its actor and says on the cluster channel that
//! the battle moved; every node with connections in the battle then takes them back to the
//! new owner ([`moved`]), which sends each a snapshot. Connections of the dead node are
//! gone with it: their clients reconnect to any node and `rejoin` with their token.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

use redis::aio::ConnectionManager;

use super::committer::Op;
use super::follow::Member;
use super::forward::Forward;
use super::log::ReadError;
use super::wire::{self, Forwarded};
use super::{keys, log, Cluster};
use crate::battle::Command;
use crate::store::Quarantined;
use battle_protocol::ServerMsg;

/// Look for dead instances until the cluster goes away.
pub async fn run(cluster: Arc<Cluster>) {
    let every = cluster.config.lease / 4;
    let mut conn = cluster.conn.clone();
    // When each dead instance was first seen dead.
    let mut seen_dead: HashMap<String, Instant> = HashMap::new();
    let mut tidied = Instant::now();
    loop {
        tokio::time::sleep(every).await;
        let Some(lobby) = cluster.lobby() else {
            return;
        };
        if let Err(err) = look(&cluster, &mut conn, &mut seen_dead).await {
            tracing::debug!(%err, "cannot look for dead nodes now");
        }
        let aside: redis::RedisResult<usize> = redis::cmd("HLEN")
            .arg(keys::QUARANTINE)
            .query_async(&mut conn)
            .await;
        if let Ok(count) = aside {
            lobby.set_quarantined_in_cluster(count);
        }
        if tidied.elapsed() >= TIDY_EVERY {
            tidied = Instant::now();
            tidy(&cluster, &lobby, &mut conn).await;
        }
    }
}

/// How often a node forgets what it no longer needs and prunes the finished battles.
const TIDY_EVERY: Duration = Duration::from_secs(60);

/// Forget the owners of battles nobody here needs (looked up again when needed), and drop
/// the finished battles past the replay retention (or beyond the most kept) from the list.
async fn tidy(cluster: &Cluster, lobby: &crate::lobby::Lobby, conn: &mut ConnectionManager) {
    cluster.awaiting.tidy();
    cluster.owners.retain(|battle, _| {
        cluster.follows.follows(battle) || lobby.local_handle(battle).is_some()
    });
    let retention = lobby.config().retention;
    let cutoff = retention.cutoff(crate::store::unix_now_ms());
    let most = retention.most as i64;
    let _: redis::RedisResult<()> = redis::pipe()
        .cmd("ZREMRANGEBYSCORE")
        .arg(keys::FINISHED)
        .arg("-inf")
        .arg(format!("({cutoff}"))
        .ignore()
        .cmd("ZREMRANGEBYRANK")
        .arg(keys::FINISHED)
        .arg(0)
        .arg(-(most + 1))
        .ignore()
        .query_async(conn)
        .await;
}

/// One look: claim what is due of every dead instance's battles.
async fn look(
    cluster: &Arc<Cluster>,
    conn: &mut ConnectionManager,
    seen_dead: &mut HashMap<String, Instant>,
) -> redis::RedisResult<()> {
    let instances: Vec<String> = redis::cmd("SMEMBERS")
        .arg(keys::INSTANCES)
        .query_async(conn)
        .await?;
    let mut pipe = redis::pipe();
    for instance in &instances {
        pipe.cmd("HMGET")
            .arg(keys::node(Cluster::node_of(instance)))
            .arg("instance")
            .arg("draining");
    }
    let held: Vec<(Option<String>, Option<String>)> = pipe.query_async(conn).await?;
    let mut live = Vec::new();
    let mut dead = Vec::new();
    for (owner, (current, draining)) in instances.iter().zip(held) {
        let (_, instance) = owner.split_once('/').unwrap_or((owner, ""));
        if current.as_deref() == Some(instance) {
            if draining.as_deref() != Some("1") {
                live.push(owner.clone());
            }
        } else {
            dead.push(owner.clone());
        }
    }
    seen_dead.retain(|owner, _| dead.contains(owner));
    cluster.dead.retain(|owner, _| dead.contains(owner));
    for owner in &dead {
        cluster.dead.insert(owner.clone(), ());
    }
    if live.is_empty() || !live.contains(&cluster.owner) || cluster.is_draining() {
        return Ok(());
    }
    live.sort();
    for owner in dead {
        let first_seen = *seen_dead.entry(owner.clone()).or_insert_with(Instant::now);
        super::inbox::forget_instance(cluster, &owner);
        // What was sent to it since it could have stopped: within a few leases.
        let told = cluster
            .awaiting
            .lost(&owner, cluster.config.lease * 3 + Duration::from_secs(2));
        if told > 0 {
            tracing::warn!(node = %owner, told, "requests lost with a dead node: told node_lost");
        }
        let battles: Vec<String> = redis::cmd("SMEMBERS")
            .arg(keys::owned(&owner))
            .query_async(conn)
            .await?;
        if battles.is_empty() {
            let _: () = redis::cmd("SREM")
                .arg(keys::INSTANCES)
                .arg(&owner)
                .query_async(conn)
                .await?;
            continue;
        }
        let overdue = first_seen.elapsed() >= cluster.config.lease;
        for battle in battles {
            let mine = live[share(&battle, live.len())] == cluster.owner;
            if mine || overdue {
                claim(cluster, conn, &battle, &owner).await;
            }
        }
    }
    Ok(())
}

/// Which of `n` live nodes a battle goes to first.
fn share(battle: &str, n: usize) -> usize {
    let mut hasher = DefaultHasher::new();
    battle.hash(&mut hasher);
    (hasher.finish() % n as u64) as usize
}

/// Claim `battle` from the dead instance `dead`, and take it over if the claim holds.
async fn claim(cluster: &Arc<Cluster>, conn: &mut ConnectionManager, battle: &str, dead: &str) {
    let claimed: redis::RedisResult<Option<u64>> = cluster
        .scripts
        .claim
        .prepare_invoke()
        .arg(battle)
        .arg(dead)
        .arg(&cluster.owner)
        .invoke_async(conn)
        .await;
    match claimed {
        Ok(Some(epoch)) => {
            tracing::info!(%battle, from = %dead, epoch, "battle taken over");
            take_over(cluster, battle, epoch).await;
            if let Some(lobby) = cluster.lobby() {
                lobby.metrics().cluster.failovers_taken.increment(1);
            }
        }
        Ok(None) => {}
        Err(err) => tracing::warn!(%battle, %err, "cannot claim a battle"),
    }
}

/// Load a battle now owned here at `epoch`, start it, and say it moved.
pub async fn take_over(cluster: &Arc<Cluster>, battle: &str, epoch: u64) {
    let Some(lobby) = cluster.lobby() else {
        return;
    };
    let mut conn = cluster.conn.clone();
    let read = log::read_battle(&mut conn, battle).await;
    if let Err(ReadError::Redis(err)) = &read {
        // Nothing is known to be wrong with the battle: it stays this node's, to be
        // claimed again if this node goes.
        tracing::error!(%battle, %err, "a battle taken over cannot be read back now");
        return;
    }
    let length = read.as_ref().map_or(0, |(_, length)| *length);
    cluster.link.send(Op::Own {
        battle: battle.to_string(),
        epoch,
        length,
    });
    let members = cluster.follows.take(battle).await;
    let adopted = match read {
        Ok((saved, _)) => lobby
            .adopt(saved, epoch)
            .map_err(|why| format!("its log does not replay on this node: {why}")),
        Err(err) => Err(err.to_string()),
    };
    if let Err(reason) = adopted {
        // Set aside like a battle a single server cannot restore; the others go on.
        lobby.set_aside(Quarantined {
            battle: battle.to_string(),
            reason,
            since_ms: crate::store::unix_now_ms(),
        });
        let left = ServerMsg::Left {
            battle_id: battle.to_string(),
            reason: "quarantined".into(),
            req: None,
        };
        for member in members {
            member.outbox.offer_msg(&left);
        }
        return;
    }
    cluster
        .owners
        .insert(battle.to_string(), cluster.owner.clone());
    reattach_here(&lobby, battle, members).await;
    let _: redis::RedisResult<()> = redis::cmd("PUBLISH")
        .arg(keys::CLUSTER_CHANNEL)
        .arg(wire::encode_moved(battle, &cluster.owner))
        .query_async(&mut conn)
        .await;
}

/// A draining node handed `battle` here: take it over at its new epoch.
pub async fn take_handed(cluster: &Arc<Cluster>, battle: &str) {
    let mut conn = cluster.conn.clone();
    let held: redis::RedisResult<(Option<String>, Option<u64>)> = redis::cmd("HMGET")
        .arg(keys::battle(battle))
        .arg("owner")
        .arg("epoch")
        .query_async(&mut conn)
        .await;
    match held {
        Ok((Some(owner), Some(epoch))) if owner == cluster.owner => {
            take_over(cluster, battle, epoch).await;
        }
        _ => tracing::warn!(%battle, "a battle handed here is not ours: left alone"),
    }
}

/// `battle` moved to `owner`: connections here take their places back there.
pub async fn moved(cluster: &Arc<Cluster>, battle: &str, owner: &str) {
    cluster.owners.insert(battle.to_string(), owner.to_string());
    if owner == cluster.owner {
        return;
    }
    if let Some(lobby) = cluster.lobby() {
        if lobby.local_handle(battle).is_some() {
            // Still running here: this node was cut off (or paused) past its lease. It lets
            // the battle go; its connections follow it to the new owner.
            tracing::warn!(%battle, %owner, "another node took this battle: let go");
            lobby.fenced(battle);
            return;
        }
    }
    if !cluster.follows.follows(battle) {
        return;
    }
    for member in cluster.follows.members(battle) {
        let Some(role) = member.role() else {
            continue;
        };
        cluster.forward(Forward {
            battle: battle.to_string(),
            from: member.outbox,
            cmd: Forwarded::Reattach { role },
        });
    }
}

/// Members that followed a battle now owned here: each takes its place in the local actor.
/// This waits for room in the actor's queue rather than dropping a member when the queue is
/// full (its players may already be sending moves there): a member left out would be told
/// `not_in_battle` for every move it made in a seat it holds.
pub async fn reattach_here(lobby: &crate::lobby::Lobby, battle: &str, members: Vec<Member>) {
    let Some(handle) = lobby.local_handle(battle) else {
        return;
    };
    for member in members {
        if let Some(role) = member.role() {
            let reattach = Command::Reattach {
                from: member.outbox,
                role,
            };
            if handle.send(reattach).await.is_err() {
                // The battle ended meanwhile: nothing left to take a place in.
                return;
            }
        }
    }
}
