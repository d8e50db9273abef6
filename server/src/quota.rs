//! Quotas on open battles: how many battles one connection, and one client address, may
//! have created that are not yet under way; and how fast one address may create, and send
//! messages (all its connections together).
//!
//! A battle is *open* from its `create` until it is under way: started (every seat held)
//! with a person in it, seated or watching. A battle its bots fill at once stays open until
//! someone watches it. Each open battle holds a [`Claim`] on its creator's counters (the
//! actor keeps it, so a battle that expires gives it back); over either quota, `create` is
//! refused with `server_busy`. So a client that floods `create` holds at most its quota of
//! battles, which nobody joined and which expire after the unjoined TTL, and the rest of the
//! server's battles stay for everyone else.
//!
//! The matchmaker's battles count against no connection's or address's quota: they are
//! created with [`Quotas::matchmaker`], whose open battles are counted but never refused,
//! because its players are sent in as each battle is made (it is under way at once), `queue`
//! draws on the same create buckets as `create`, and `--max-battles` bounds them like any
//! battle.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use battle_protocol::ErrorCode;
use dashmap::DashMap;

use crate::config::{Config, Rate};
use crate::rate::Bucket;
use crate::refusal::Refusal;
use crate::store::unix_now_ms;

/// How often, at most, addresses nobody uses any more are forgotten.
const SWEEP_EVERY_MS: u64 = 10_000;

/// The open-battle quotas and every client address's counters.
pub struct Quotas {
    per_connection: usize,
    per_address: usize,
    create_rate: Rate,
    message_rate: Rate,
    addresses: DashMap<IpAddr, Arc<Address>>,
    /// When the addresses were last swept (Unix milliseconds).
    swept_at: AtomicU64,
}

/// One client address: its open battles, its create bucket and its message bucket, shared
/// by its connections.
pub struct Address {
    ip: IpAddr,
    open: AtomicUsize,
    creates: Bucket,
    messages: Bucket,
    /// When it last created (Unix milliseconds): its bucket is full again one burst later.
    created_at: AtomicU64,
}

/// One connection's standing: its own open battles and its address.
pub struct Creator {
    open: Arc<AtomicUsize>,
    address: Arc<Address>,
    /// Its open battles are held to the quotas (all but the matchmaker's).
    limited: bool,
}

/// One open battle, counted against its creator and its creator's address until dropped.
#[derive(Debug)]
pub struct Claim {
    open: Arc<AtomicUsize>,
    address: Arc<Address>,
}

impl std::fmt::Debug for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Address")
            .field("ip", &self.ip)
            .field("open", &self.open.load(Ordering::Relaxed))
            .finish()
    }
}

impl Quotas {
    /// The quotas `config` sets, with no address known yet.
    pub fn new(config: &Config) -> Quotas {
        Quotas {
            per_connection: config.max_open_battles_per_connection,
            per_address: config.max_open_battles_per_ip,
            create_rate: config.ip_create_rate,
            message_rate: config.ip_message_rate,
            addresses: DashMap::new(),
            swept_at: AtomicU64::new(unix_now_ms()),
        }
    }

    /// The standing of a new connection from `peer` (unknown peers share one address).
    pub fn creator(&self, peer: Option<IpAddr>) -> Creator {
        self.sweep();
        let ip = peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |ip| ip.to_canonical());
        let address = self
            .addresses
            .entry(ip)
            .or_insert_with(|| {
                Arc::new(Address {
                    ip,
                    open: AtomicUsize::new(0),
                    creates: Bucket::new(self.create_rate),
                    messages: Bucket::new(self.message_rate),
                    created_at: AtomicU64::new(0),
                })
            })
            .clone();
        Creator {
            open: Arc::new(AtomicUsize::new(0)),
            address,
            limited: true,
        }
    }

    /// The matchmaker's standing: its open battles are counted (on an address of their own,
    /// known to no connection) but never refused, since each is under way as soon as it is
    /// made.
    pub fn matchmaker(&self) -> Creator {
        let ip = IpAddr::V4(Ipv4Addr::UNSPECIFIED);
        Creator {
            open: Arc::new(AtomicUsize::new(0)),
            address: Arc::new(Address {
                ip,
                open: AtomicUsize::new(0),
                creates: Bucket::new(Rate::UNLIMITED),
                messages: Bucket::new(Rate::UNLIMITED),
                created_at: AtomicU64::new(0),
            }),
            limited: false,
        }
    }

    /// Count a new battle against `creator` and its address, or refuse it (`server_busy`,
    /// saying which quota is full).
    pub fn claim(&self, creator: &Creator) -> Result<Claim, Refusal> {
        if !creator.limited {
            creator.open.fetch_add(1, Ordering::AcqRel);
            creator.address.open.fetch_add(1, Ordering::AcqRel);
            return Ok(Claim {
                open: creator.open.clone(),
                address: creator.address.clone(),
            });
        }
        if !take(&creator.open, self.per_connection) {
            return Err(Refusal::new(
                ErrorCode::ServerBusy,
                format!(
                    "this connection has {} battles created and not yet under way, its limit: \
                     one of them must start (every seat held, someone in it) or expire first",
                    self.per_connection
                ),
            ));
        }
        if !take(&creator.address.open, self.per_address) {
            creator.open.fetch_sub(1, Ordering::AcqRel);
            return Err(Refusal::new(
                ErrorCode::ServerBusy,
                format!(
                    "your address ({}) has {} battles created and not yet under way, its \
                     limit: one of them must start (every seat held, someone in it) or expire \
                     first",
                    creator.address.ip, self.per_address
                ),
            ));
        }
        Ok(Claim {
            open: creator.open.clone(),
            address: creator.address.clone(),
        })
    }

    /// How many client addresses are known (open connections or recent creates).
    pub fn addresses(&self) -> usize {
        self.addresses.len()
    }

    /// Forget the addresses no connection and no open battle uses any more and whose create
    /// bucket is full again (so forgetting it changes nothing), at most every few seconds.
    fn sweep(&self) {
        let now = unix_now_ms();
        let last = self.swept_at.load(Ordering::Relaxed);
        if now.saturating_sub(last) < SWEEP_EVERY_MS
            || self
                .swept_at
                .compare_exchange(last, now, Ordering::AcqRel, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let refill_ms = refill_time(self.create_rate).as_millis() as u64;
        self.addresses.retain(|_, address| {
            Arc::strong_count(address) > 1
                || now.saturating_sub(address.created_at.load(Ordering::Relaxed)) < refill_ms
        });
    }
}

impl Creator {
    /// Take a token from the address's create bucket; without one, how long until there is
    /// one.
    pub fn take_create(&self) -> Result<(), Duration> {
        self.address
            .created_at
            .store(unix_now_ms(), Ordering::Relaxed);
        self.address.creates.take()
    }

    /// The address's create rate.
    pub fn create_rate(&self) -> Rate {
        self.address.creates.rate()
    }

    /// Take a token from the address's message bucket; without one, how long until there
    /// is one.
    pub fn take_message(&self) -> Result<(), Duration> {
        self.address.messages.take()
    }

    /// The address's message rate (all its connections together).
    pub fn message_rate(&self) -> Rate {
        self.address.messages.rate()
    }

    /// Battles this connection created that are not yet under way.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }
}

impl Claim {
    /// Whether the battle was created from `ip` (never for the matchmaker's battles, which
    /// no address created).
    pub fn created_from(&self, ip: IpAddr) -> bool {
        !self.address.ip.is_unspecified() && self.address.ip == ip.to_canonical()
    }
}

impl crate::battle::CreatorClaim for Claim {
    fn created_from(&self, ip: IpAddr) -> bool {
        Claim::created_from(self, ip)
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::AcqRel);
        self.address.open.fetch_sub(1, Ordering::AcqRel);
    }
}

pub use crate::battle::under_way;

/// Add one to `count` unless it is at `limit` (0: no limit); whether it was added.
fn take(count: &AtomicUsize, limit: usize) -> bool {
    count
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (limit == 0 || n < limit).then_some(n + 1)
        })
        .is_ok()
}

/// How long an empty bucket for `rate` takes to fill.
fn refill_time(rate: Rate) -> Duration {
    if rate.per_sec == 0 {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(f64::from(rate.burst.max(1)) / f64::from(rate.per_sec))
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_protocol::{BattleStatus, BattleSummary, SeatInfo};

    fn quotas(per_connection: usize, per_address: usize) -> Quotas {
        Quotas::new(&Config {
            max_open_battles_per_connection: per_connection,
            max_open_battles_per_ip: per_address,
            ..Config::for_tests()
        })
    }

    fn ip(last: u8) -> Option<IpAddr> {
        Some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
    }

    #[test]
    fn a_connection_holds_at_most_its_quota_and_gets_it_back() {
        let quotas = quotas(2, 100);
        let creator = quotas.creator(ip(1));
        let first = quotas.claim(&creator).expect("one");
        let _second = quotas.claim(&creator).expect("two");
        let Refusal { code, message } = quotas.claim(&creator).expect_err("three is over");
        assert_eq!(code, ErrorCode::ServerBusy);
        assert!(message.contains("this connection"), "{message}");
        drop(first);
        assert_eq!(creator.open(), 1);
        quotas
            .claim(&creator)
            .expect("room again once a battle is under way");
    }

    #[test]
    fn an_address_is_shared_by_its_connections_but_not_by_others() {
        let quotas = quotas(10, 3);
        let (a, b) = (quotas.creator(ip(1)), quotas.creator(ip(1)));
        let claims: Vec<Claim> = (0..3)
            .map(|i| {
                quotas
                    .claim(if i % 2 == 0 { &a } else { &b })
                    .expect("within")
            })
            .collect();
        let Refusal { message, .. } = quotas.claim(&b).expect_err("the address is full");
        assert!(message.contains("127.0.0.1"), "{message}");
        assert_eq!(b.open(), 1, "a refused claim is not counted");
        let other = quotas.creator(ip(2));
        quotas
            .claim(&other)
            .expect("another address has its own quota");
        drop(claims);
        quotas.claim(&b).expect("room again");
    }

    #[test]
    fn zero_means_no_limit() {
        let quotas = quotas(0, 0);
        let creator = quotas.creator(None);
        let claims: Vec<Claim> = (0..1000)
            .map(|_| quotas.claim(&creator).expect("no limit"))
            .collect();
        assert_eq!(creator.open(), 1000);
        drop(claims);
        assert_eq!(creator.open(), 0);
    }

    #[test]
    fn the_matchmaker_is_counted_but_never_refused_nor_shares_an_address() {
        let quotas = quotas(1, 1);
        let matchmaker = quotas.matchmaker();
        let claims: Vec<Claim> = (0..10)
            .map(|_| quotas.claim(&matchmaker).expect("never refused"))
            .collect();
        assert_eq!(matchmaker.open(), 10);
        let unknown = quotas.creator(None);
        quotas
            .claim(&unknown)
            .expect("a connection of unknown address keeps its own quota");
        assert_eq!(
            quotas.addresses(),
            1,
            "the matchmaker's address is not listed"
        );
        drop(claims);
        assert_eq!(matchmaker.open(), 0);
    }

    #[test]
    fn ipv4_mapped_addresses_are_the_ipv4_address() {
        let quotas = quotas(10, 1);
        let v4 = quotas.creator(ip(7));
        let mapped = quotas.creator(Some("::ffff:127.0.0.7".parse().expect("an address")));
        let _claim = quotas.claim(&v4).expect("first");
        assert!(quotas.claim(&mapped).is_err(), "the same address");
        assert_eq!(quotas.addresses(), 1);
    }

    #[test]
    fn a_battle_is_under_way_once_started_with_a_person_in_it() {
        let seat = |taken, bot| SeatInfo {
            seat: 0,
            taken,
            bot,
            connected: taken && !bot,
            name: None,
        };
        let summary = |status, seats, spectators| BattleSummary {
            battle_id: "b".into(),
            ruleset: "synergy".into(),
            status,
            seats,
            spectators,
            seeded: false,
            node: None,
        };
        let waiting = summary(BattleStatus::Waiting, vec![seat(true, false)], 0);
        assert!(!under_way(&waiting), "a seat is still free");
        let played = summary(
            BattleStatus::Playing,
            vec![seat(true, false), seat(true, true)],
            0,
        );
        assert!(under_way(&played));
        let bots_alone = summary(
            BattleStatus::Playing,
            vec![seat(true, true), seat(true, true)],
            0,
        );
        assert!(!under_way(&bots_alone), "nobody is there");
        let watched = summary(
            BattleStatus::Finished,
            vec![seat(true, true), seat(true, true)],
            1,
        );
        assert!(under_way(&watched));
    }
}
