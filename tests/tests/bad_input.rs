//! Bad input is answered with the right error code, echoes `req` when the message had one,
//! and never costs the connection: after every refusal a ping still gets its pong.

use battle_e2e::battle_client::ClientError;
use battle_e2e::battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use battle_e2e::{start_server, Client, Create, TIMEOUT};
use serde_json::{json, Value};

/// Send `text`, expect the error `code` echoing `req`, then prove the connection still works.
async fn refused(client: &mut Client, text: &str, code: ErrorCode, req: Option<u64>) {
    client.send_text(text).await;
    let message = client.expect_error(code, req).await;
    assert!(!message.is_empty());
    client.assert_pong().await;
}

/// Send `msg`, expect the error `code` echoing its `req`, then ping.
async fn refused_msg(client: &mut Client, msg: ClientMsg, code: ErrorCode) {
    let text = serde_json::to_string(&msg).expect("encodable");
    refused(client, &text, code, msg.req()).await;
}

#[tokio::test]
async fn malformed_frames_keep_the_connection_usable() {
    let server = start_server().await;
    let mut probe = Client::connect(&server, "probe").await;

    refused(&mut probe, "this is not json", ErrorCode::BadJson, None).await;
    refused(&mut probe, "{\"type\":\"ping\"", ErrorCode::BadJson, None).await;
    refused(&mut probe, "[1,2,3]", ErrorCode::BadJson, None).await;
    refused(
        &mut probe,
        r#"{"type":"nope","req":2}"#,
        ErrorCode::UnknownType,
        Some(2),
    )
    .await;
    refused(&mut probe, r#"{"req":3}"#, ErrorCode::UnknownType, Some(3)).await;
    refused(
        &mut probe,
        r#"{"type":"join","req":4}"#,
        ErrorCode::BadMessage,
        Some(4),
    )
    .await;
    refused(
        &mut probe,
        r#"{"type":"join","battle_id":7,"req":5}"#,
        ErrorCode::BadMessage,
        Some(5),
    )
    .await;

    probe
        .conn
        .send_binary(vec![0, 1, 2, 3])
        .await
        .expect("send binary");
    probe.expect_error(ErrorCode::UnsupportedFrame, None).await;
    probe.assert_pong().await;

    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Hello {
            protocol: 99,
            name: None,
            req: Some(req),
        },
        ErrorCode::UnsupportedProtocol,
    )
    .await;
    // The right protocol still works afterwards.
    let rulesets = probe.hello().await;
    assert!(!rulesets.is_empty());
    server.shutdown().await;
}

#[tokio::test]
async fn refused_creates_and_joins_keep_the_connection_usable() {
    let server = start_server().await;
    let mut probe = Client::connect(&server, "probe").await;
    let mut holder = Client::connect(&server, "holder").await;

    // create
    let bad_creates = [
        (
            Create::synergy(Value::Null),
            "chess",
            ErrorCode::UnknownRuleset,
        ),
        (
            Create::synergy(json!({"deck": ["C001", "C002", "NOPE", "C003", "C004"]})),
            "synergy",
            ErrorCode::BadOptions,
        ),
        (
            Create::synergy(json!({"deck": ["C001"]})),
            "synergy",
            ErrorCode::BadOptions,
        ),
        (
            Create::synergy(json!({"mode": "chess"})),
            "synergy",
            ErrorCode::BadOptions,
        ),
        (
            Create::synergy(json!({"colour": "blue"})),
            "synergy",
            ErrorCode::BadOptions,
        ),
        (
            Create::synergy(json!({"mode": "pvp"})).bots(vec![5]),
            "synergy",
            ErrorCode::BadOptions,
        ),
    ];
    for (create, ruleset, code) in bad_creates {
        let req = probe.req();
        refused_msg(
            &mut probe,
            ClientMsg::Create {
                ruleset: ruleset.to_string(),
                options: create.options,
                bots: create.bots,
                private: create.private,
                pace_ms: create.pace_ms,
                grace_ms: create.grace_ms,
                seed: create.seed,
                spectator_delay_ms: create.spectator_delay_ms,
                timer: create.timer,
                req: Some(req),
            },
            code,
        )
        .await;
    }
    assert!(
        probe.list().await.is_empty(),
        "refused creates made no battle"
    );

    // join / rejoin
    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Join {
            battle_id: "no-such-battle".into(),
            seat: None,
            setup: None,
            req: Some(req),
        },
        ErrorCode::NoSuchBattle,
    )
    .await;
    let pvp = holder.create_synergy(json!({"mode": "pvp"}), vec![]).await;
    let seated = holder.join(&pvp, Some(0)).await;
    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Rejoin {
            battle_id: pvp.clone(),
            token: format!("{}-wrong", seated.token),
            req: Some(req),
        },
        ErrorCode::BadToken,
    )
    .await;
    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Rejoin {
            battle_id: "no-such-battle".into(),
            token: seated.token.clone(),
            req: Some(req),
        },
        ErrorCode::NoSuchBattle,
    )
    .await;
    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Join {
            battle_id: pvp.clone(),
            seat: Some(0),
            setup: None,
            req: Some(req),
        },
        ErrorCode::SeatTaken,
    )
    .await;
    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Join {
            battle_id: pvp.clone(),
            seat: Some(7),
            setup: None,
            req: Some(req),
        },
        ErrorCode::BadSeat,
    )
    .await;
    // Seat 1 of a PvE battle is the Training Automaton's.
    let pve = holder.create_synergy(Value::Null, vec![]).await;
    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Join {
            battle_id: pve.clone(),
            seat: Some(1),
            setup: None,
            req: Some(req),
        },
        ErrorCode::BadSeat,
    )
    .await;
    // Once both PvP seats are taken there is no free seat.
    let mut second = Client::connect(&server, "second").await;
    second.join(&pvp, None).await;
    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Join {
            battle_id: pvp.clone(),
            seat: None,
            setup: None,
            req: Some(req),
        },
        ErrorCode::NoFreeSeat,
    )
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn spectators_cannot_act_and_leaving_stops_updates() {
    let server = start_server().await;
    let mut holder = Client::connect(&server, "holder").await;
    let battle_id = holder.create_synergy(Value::Null, vec![]).await;
    holder.join(&battle_id, Some(0)).await;

    let mut probe = Client::connect(&server, "probe").await;
    let watch = probe.spectate(&battle_id).await;
    assert_eq!(watch.seat(), None);
    assert!(
        watch.legal_actions().is_empty(),
        "spectators have no legal actions"
    );
    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Act {
            battle_id: battle_id.clone(),
            action: json!({"kind": "end_turn"}),
            req: Some(req),
        },
        ErrorCode::SpectatorsCannotAct,
    )
    .await;

    let req = probe.req();
    probe
        .send(ClientMsg::Leave {
            battle_id: battle_id.clone(),
            req: Some(req),
        })
        .await;
    match probe.expect_msg().await {
        ServerMsg::Left {
            battle_id: got,
            reason,
            req: got_req,
        } => {
            assert_eq!(got, battle_id);
            assert_eq!(reason, "requested");
            assert_eq!(got_req, Some(req));
        }
        other => panic!("probe: expected left, got {other:?}"),
    }
    // After leaving, the holder's moves no longer reach the probe.
    let first = holder_first_legal(&mut holder, &battle_id).await;
    let req = holder.act(&battle_id, first).await;
    // Wait until the holder sees its move applied (a patch with its req, or a snapshot:
    // whether a large change carries the req is checked in refusals.rs).
    for _ in 0..100 {
        match holder.expect_msg().await {
            ServerMsg::Patch { req: Some(got), .. } if got == req => break,
            ServerMsg::Snapshot { .. } => break,
            ServerMsg::Patch { .. } => continue,
            other => panic!("holder: expected its patch, got {other:?}"),
        }
    }
    probe.assert_pong().await;
    let req = probe.req();
    refused_msg(
        &mut probe,
        ClientMsg::Resync {
            battle_id: battle_id.clone(),
            req: Some(req),
        },
        ErrorCode::NotInBattle,
    )
    .await;
    server.shutdown().await;
}

/// The holder's first legal action, from a fresh snapshot.
async fn holder_first_legal(holder: &mut Client, battle_id: &str) -> Value {
    holder
        .send(ClientMsg::Resync {
            battle_id: battle_id.to_string(),
            req: None,
        })
        .await;
    loop {
        match holder.expect_msg().await {
            ServerMsg::Snapshot { view, .. } => {
                return view["legal"]
                    .as_array()
                    .and_then(|legal| legal.first().cloned())
                    .unwrap_or_else(|| panic!("holder: nothing legal: {view}"));
            }
            ServerMsg::Patch { .. } => continue,
            other => panic!("holder: expected a snapshot, got {other:?}"),
        }
    }
}

/// A frame above `max_frame_bytes` is answered with `unsupported_frame`. The WebSocket layer
/// cannot read on past a frame it refused to buffer, so closing afterwards is acceptable, but
/// only with a close frame (code 1009, "message too big"), never by silently dropping the
/// connection.
#[tokio::test]
async fn oversized_frame_is_refused_with_an_error() {
    let server = start_server().await;
    let mut probe = Client::connect(&server, "probe").await;
    let limit = battle_server::Config::for_tests().max_frame_bytes;
    let huge = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(limit + 1));
    probe.send_text(&huge).await;
    match tokio::time::timeout(TIMEOUT, probe.conn.recv()).await {
        Ok(Ok(ServerMsg::Error { code, .. })) => assert_eq!(code, ErrorCode::UnsupportedFrame),
        other => panic!(
            "expected error unsupported_frame for a {}-byte frame, got {other:?}",
            huge.len()
        ),
    }
    let req = probe.req();
    let _ = probe.conn.send(&ClientMsg::Ping { req: Some(req) }).await;
    match tokio::time::timeout(TIMEOUT, probe.conn.recv()).await {
        Ok(Ok(ServerMsg::Pong { req: got })) => assert_eq!(got, Some(req)),
        Ok(Err(ClientError::Closed {
            code: Some(code), ..
        })) => assert_eq!(code, 1009),
        other => panic!("after the error: expected pong or a close frame, got {other:?}"),
    }
    server.shutdown().await;
}
