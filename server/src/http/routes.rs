//! The plain HTTP pages: `GET /health` (a small JSON body; 503 while the server drains),
//! `GET /metrics` (the Prometheus text format), `GET /api/battles` (the records `list`
//! gives, as JSON, paged the same way) and the web page's files.
//!
//! Only `GET` and `HEAD` are answered (`405` otherwise); `/metrics` and `/api/battles` cost
//! a pass over the lobby or a page of it, so each connection's requests for them share the
//! lobby-read rate of WebSocket clients (`429` with `Retry-After` beyond it).

use battle_protocol::{BattleSummary, ErrorCode, FinishedSummary};
use bytes::Bytes;
use hyper::header::{HeaderValue, ALLOW, CACHE_CONTROL, CONNECTION, CONTENT_TYPE, RETRY_AFTER};
use hyper::{Method, Request, Response, StatusCode};
use serde::Serialize;
use std::sync::Arc;

use super::{assets, Body};
use crate::lobby::Lobby;
use crate::rate::{retry_after_ms, Bucket};
use crate::refusal::Refusal;

/// The Prometheus text format's media type.
const METRICS_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// `/health`'s body.
#[derive(Debug, Serialize)]
struct Health {
    /// `ok`; `degraded` while the store takes no writes (moves are refused, the rest is
    /// served); `draining` while the server shuts down.
    status: &'static str,
    version: &'static str,
    uptime_secs: u64,
    /// Battles under way or waiting for players.
    battles: usize,
    /// Battles that ended and are still listed (for the finished-battle time).
    finished: usize,
    /// Open WebSocket connections.
    connections: usize,
    /// Battles set aside because they could not be restored (`battle-server quarantine`).
    quarantined: usize,
    /// `ok`, `unavailable` (the data directory takes no writes, or a cluster's Redis is out
    /// of reach), or `memory` (no data directory: battles are not kept).
    store: &'static str,
    /// While the store is unavailable: why, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    store_problem: Option<String>,
}

/// `/api/battles`'s body: the fields of the `battles` message.
#[derive(Debug, Serialize)]
struct BattlesPage {
    battles: Vec<BattleSummary>,
    total: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    finished: Option<Vec<FinishedSummary>>,
}

/// An error as JSON: the protocol's code and a sentence.
#[derive(Debug, Serialize)]
struct Problem<'a> {
    code: ErrorCode,
    message: &'a str,
}

/// Answer a plain HTTP request.
pub async fn answer<B>(
    request: &Request<B>,
    lobby: &Arc<Lobby>,
    bucket: &Bucket,
) -> Response<Body> {
    let path = request.uri().path();
    let route = match path {
        "/health" => "health",
        "/metrics" => "metrics",
        "/api/battles" => "api_battles",
        "/api/nodes" => "api_nodes",
        _ if assets::asset(path).is_some() => "page",
        _ => "other",
    };
    lobby.metrics().http_request(route);
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut response = text(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET and HEAD are answered here",
        );
        response
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    match route {
        "health" => health(lobby),
        "api_nodes" => nodes(lobby).await,
        "metrics" | "api_battles" => {
            if let Err(wait) = bucket.take() {
                lobby.metrics().rate_limited.increment(1);
                return too_many(wait);
            }
            if route == "metrics" {
                let page = lobby.metrics().render(&lobby.reading());
                with_type(StatusCode::OK, METRICS_TYPE, page.into())
            } else {
                battles(request.uri().query(), lobby).await
            }
        }
        "page" => {
            let asset = assets::asset(path).expect("the route was chosen because it exists");
            let mut response = with_type(
                StatusCode::OK,
                asset.content_type,
                Bytes::from_static(asset.body),
            );
            response
                .headers_mut()
                .insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            response
        }
        _ => text(StatusCode::NOT_FOUND, "no such page here"),
    }
}

/// `/health`: 200 while serving (`degraded` too: reads are served), 503 while draining.
fn health(lobby: &Lobby) -> Response<Body> {
    let draining = lobby.is_draining();
    let store = lobby.store();
    let available = store.is_available();
    let (mut live, mut finished) = (0, 0);
    lobby.for_each_summary(|summary| match summary.status {
        battle_protocol::BattleStatus::Finished => finished += 1,
        _ => live += 1,
    });
    let body = Health {
        status: match (draining, available) {
            (true, _) => "draining",
            (false, false) => "degraded",
            (false, true) => "ok",
        },
        version: env!("CARGO_PKG_VERSION"),
        uptime_secs: lobby.metrics().uptime().as_secs(),
        battles: live,
        finished,
        connections: lobby.connection_count(),
        quarantined: lobby.quarantined_count(),
        store: match (store.is_durable(), available) {
            (false, _) => "memory",
            (true, true) => "ok",
            (true, false) => "unavailable",
        },
        store_problem: (!available).then(|| store.unavailable_reason()),
    };
    let status = if draining {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    };
    json(status, &body)
}

/// `/api/battles?limit=N&cursor=C&finished=true`: one page of the public battles, as `list`.
async fn battles(query: Option<&str>, lobby: &Arc<Lobby>) -> Response<Body> {
    let mut limit = None;
    let mut cursor = None;
    let mut finished = false;
    for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        match &*key {
            "limit" => match value.parse::<u32>() {
                Ok(n) => limit = Some(n),
                Err(_) => {
                    return problem(
                        StatusCode::BAD_REQUEST,
                        ErrorCode::BadMessage,
                        &format!("limit: a count of battles, not {value:?}"),
                    )
                }
            },
            "cursor" => cursor = Some(value.into_owned()),
            "finished" => finished = matches!(&*value, "" | "1" | "true"),
            _ => {}
        }
    }
    let page = match lobby.page(cursor.as_deref(), limit).await {
        Ok(page) => page,
        Err(Refusal { code, message }) => return problem(StatusCode::BAD_REQUEST, code, &message),
    };
    let finished = if finished && cursor.is_none() {
        match lobby.finished_battles().await {
            Ok(finished) => Some(finished),
            Err(Refusal { code, message }) => {
                return problem(StatusCode::INTERNAL_SERVER_ERROR, code, &message)
            }
        }
    } else {
        None
    };
    let body = BattlesPage {
        battles: page.battles,
        total: page.total,
        next_cursor: page.next_cursor,
        finished,
    };
    json(StatusCode::OK, &body)
}

/// `/api/nodes`: the live nodes of the cluster with their load (on a single server, itself).
async fn nodes(lobby: &Lobby) -> Response<Body> {
    let Some(cluster) = lobby.cluster() else {
        let me = serde_json::json!([{
            "id": "local",
            "battles": lobby.len(),
            "draining": lobby.is_draining(),
        }]);
        return json(StatusCode::OK, &serde_json::json!({ "nodes": me }));
    };
    let mut conn = cluster.conn.clone();
    match crate::cluster::node::live(&mut conn).await {
        Ok(nodes) => json(StatusCode::OK, &serde_json::json!({ "nodes": nodes })),
        Err(err) => problem(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::StoreUnavailable,
            &format!("the cluster's nodes cannot be read now: {err}"),
        ),
    }
}

/// `429 Too Many Requests`, with the seconds to wait.
fn too_many(wait: std::time::Duration) -> Response<Body> {
    let ms = retry_after_ms(wait);
    let mut response = text(
        StatusCode::TOO_MANY_REQUESTS,
        &format!("too many requests for this page; retry in {ms} ms"),
    );
    let secs = ms.div_ceil(1000).max(1);
    response.headers_mut().insert(
        RETRY_AFTER,
        HeaderValue::from_str(&secs.to_string()).expect("digits are a valid header value"),
    );
    response
}

/// A JSON response.
fn json(status: StatusCode, body: &impl Serialize) -> Response<Body> {
    let bytes = serde_json::to_vec(body).expect("the bodies are plain data and serialize");
    let mut response = with_type(status, "application/json", bytes.into());
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// An error as JSON.
fn problem(status: StatusCode, code: ErrorCode, message: &str) -> Response<Body> {
    json(status, &Problem { code, message })
}

/// A one-sentence plain-text response.
pub fn text(status: StatusCode, sentence: &str) -> Response<Body> {
    with_type(
        status,
        "text/plain; charset=utf-8",
        Bytes::from(format!("{sentence}\n")),
    )
}

/// A response of `status` with `body` of `content_type`.
fn with_type(status: StatusCode, content_type: &'static str, body: Bytes) -> Response<Body> {
    let mut response = Response::new(Body::new(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// `response`, after which the connection closes.
pub fn closing(mut response: Response<Body>) -> Response<Body> {
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}
