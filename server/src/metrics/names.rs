//! The name, kind, unit and help text of every series the server exports: the list a
//! dashboard is built from (PROTOCOL.md's "Metrics" section shows the same).

use metrics::Unit;

/// Moves people made that their battle accepted, by ruleset.
pub const ACTIONS_ACCEPTED: &str = "battle_actions_accepted_total";
/// Moves refused, by error code.
pub const ACTIONS_REFUSED: &str = "battle_actions_refused_total";
/// From a move's arrival to its patch handed to the players' sockets.
pub const ACTION_LATENCY: &str = "battle_action_latency_seconds";
/// Moves the server's bot made, by ruleset.
pub const BOT_MOVES: &str = "battle_bot_moves_total";
/// Engine steps, by ruleset.
pub const ENGINE_STEPS: &str = "battle_engine_steps_total";
/// Decisions whose clock ran out, by ruleset.
pub const TIMEOUTS: &str = "battle_timeouts_total";
/// Battles created, by ruleset.
pub const BATTLES_CREATED: &str = "battle_battles_created_total";
/// Battles finished, by ruleset.
pub const BATTLES_FINISHED: &str = "battle_battles_finished_total";
/// Live battles, by ruleset and status.
pub const BATTLES: &str = "battle_battles";
/// Open WebSocket connections.
pub const CONNECTIONS: &str = "battle_connections";
/// WebSocket connections opened.
pub const CONNECTIONS_OPENED: &str = "battle_connections_opened_total";
/// Seats whose holder (a person) is connected.
pub const PLAYERS: &str = "battle_players_connected";
/// Spectators watching (one per battle watched).
pub const SPECTATORS: &str = "battle_spectators";
/// WebSocket frames written to clients.
pub const FRAMES_SENT: &str = "battle_frames_sent_total";
/// Bytes written to clients over WebSocket.
pub const BYTES_SENT: &str = "battle_bytes_sent_total";
/// Connections closed with 1013 because their outbox overflowed.
pub const OUTBOX_OVERFLOWS: &str = "battle_outbox_overflows_total";
/// Requests refused over a rate limit.
pub const RATE_LIMITED: &str = "battle_rate_limited_total";
/// Players waiting in the matchmaker.
pub const QUEUED: &str = "battle_matchmaker_waiting";
/// Players the matchmaker put into battles.
pub const PLAYERS_MATCHED: &str = "battle_matchmaker_matched_total";
/// HTTP requests answered, by route.
pub const HTTP_REQUESTS: &str = "battle_http_requests_total";
/// Cluster mode: battles this node owns.
pub const OWNED: &str = "battle_cluster_owned_battles";
/// Cluster mode: battles this node took over from a dead node.
pub const FAILOVERS: &str = "battle_cluster_failovers_taken_total";
/// Cluster mode: moves sent to another node's battle.
pub const FORWARDED: &str = "battle_cluster_forwarded_actions_total";
/// Cluster mode: messages published to other nodes (changes and notes).
pub const PUBLICATIONS: &str = "battle_cluster_publications_total";
/// Cluster mode: writes refused because another node owns the battle now.
pub const FENCING: &str = "battle_cluster_fencing_refusals_total";
/// Cluster mode: one batch of writes to Redis, sent to answered.
pub const REDIS_ROUND_TRIP: &str = "battle_cluster_redis_round_trip_seconds";
/// Battles set aside because they could not be restored.
pub const QUARANTINED: &str = "battle_quarantined_battles";
/// 1 while the store takes writes, 0 while it does not (moves are refused).
pub const STORE_AVAILABLE: &str = "battle_store_available";
/// Commits to the data directory that failed (a full or read-only disk).
pub const STORE_COMMIT_FAILURES: &str = "battle_store_commit_failures_total";
/// Seconds since the server started.
pub const UPTIME: &str = "battle_uptime_seconds";
/// Always 1, labelled with the server's version.
pub const BUILD_INFO: &str = "battle_build_info";

/// The routes HTTP requests are counted under.
pub const HTTP_ROUTES: [&str; 7] = [
    "health",
    "metrics",
    "api_battles",
    "api_nodes",
    "page",
    "upgrade",
    "other",
];

/// What kind of series a name is.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Counter,
    Gauge,
    Histogram,
}

/// Every series: name, kind, unit, help.
pub const DESCRIPTIONS: &[(&str, Kind, Option<Unit>, &str)] = &[
    (
        ACTIONS_ACCEPTED,
        Kind::Counter,
        None,
        "Moves people made that their battle accepted, by ruleset.",
    ),
    (
        ACTIONS_REFUSED,
        Kind::Counter,
        None,
        "Moves refused, by error code.",
    ),
    (
        ACTION_LATENCY,
        Kind::Histogram,
        Some(Unit::Seconds),
        "From a move's arrival at the server to its patch handed to the players' sockets.",
    ),
    (
        BOT_MOVES,
        Kind::Counter,
        None,
        "Moves the server's bot made for a seat, by ruleset.",
    ),
    (
        ENGINE_STEPS,
        Kind::Counter,
        None,
        "Engine steps (ticks, enemy phases), by ruleset.",
    ),
    (
        TIMEOUTS,
        Kind::Counter,
        None,
        "Decisions whose clock ran out, by ruleset.",
    ),
    (
        BATTLES_CREATED,
        Kind::Counter,
        None,
        "Battles created, by ruleset.",
    ),
    (
        BATTLES_FINISHED,
        Kind::Counter,
        None,
        "Battles that reached an outcome, by ruleset.",
    ),
    (
        BATTLES,
        Kind::Gauge,
        None,
        "Live battles, by ruleset and status.",
    ),
    (
        CONNECTIONS,
        Kind::Gauge,
        None,
        "Open WebSocket connections.",
    ),
    (
        CONNECTIONS_OPENED,
        Kind::Counter,
        None,
        "WebSocket connections opened.",
    ),
    (
        PLAYERS,
        Kind::Gauge,
        None,
        "Seats whose holder, a person, is connected.",
    ),
    (
        SPECTATORS,
        Kind::Gauge,
        None,
        "Spectators watching, one per battle watched.",
    ),
    (
        FRAMES_SENT,
        Kind::Counter,
        None,
        "WebSocket frames written to clients.",
    ),
    (
        BYTES_SENT,
        Kind::Counter,
        Some(Unit::Bytes),
        "Bytes written to clients over WebSocket.",
    ),
    (
        OUTBOX_OVERFLOWS,
        Kind::Counter,
        None,
        "Connections closed with 1013 because they could not keep up.",
    ),
    (
        RATE_LIMITED,
        Kind::Counter,
        None,
        "Requests refused over a rate limit.",
    ),
    (
        QUEUED,
        Kind::Gauge,
        None,
        "Players waiting in the matchmaker.",
    ),
    (
        PLAYERS_MATCHED,
        Kind::Counter,
        None,
        "Players the matchmaker put into battles.",
    ),
    (
        HTTP_REQUESTS,
        Kind::Counter,
        None,
        "HTTP requests answered, by route.",
    ),
    (
        OWNED,
        Kind::Gauge,
        None,
        "Cluster mode: battles this node owns.",
    ),
    (
        FAILOVERS,
        Kind::Counter,
        None,
        "Cluster mode: battles taken over from a dead node.",
    ),
    (
        FORWARDED,
        Kind::Counter,
        None,
        "Cluster mode: moves sent to another node's battle.",
    ),
    (
        PUBLICATIONS,
        Kind::Counter,
        None,
        "Cluster mode: messages published to other nodes (changes and notes).",
    ),
    (
        FENCING,
        Kind::Counter,
        None,
        "Cluster mode: writes refused because another node owns the battle now.",
    ),
    (
        REDIS_ROUND_TRIP,
        Kind::Histogram,
        Some(Unit::Seconds),
        "Cluster mode: one batch of writes to Redis, sent to answered.",
    ),
    (
        QUARANTINED,
        Kind::Gauge,
        None,
        "Battles set aside because they could not be restored (see battle-server quarantine).",
    ),
    (
        STORE_AVAILABLE,
        Kind::Gauge,
        None,
        "1 while the store takes writes; 0 while it does not and moves are refused.",
    ),
    (
        STORE_COMMIT_FAILURES,
        Kind::Counter,
        None,
        "Commits to the data directory that failed (a full or read-only disk).",
    ),
    (
        UPTIME,
        Kind::Gauge,
        Some(Unit::Seconds),
        "Seconds since the server started.",
    ),
    (
        BUILD_INFO,
        Kind::Gauge,
        None,
        "Always 1, labelled with the server's version.",
    ),
];
