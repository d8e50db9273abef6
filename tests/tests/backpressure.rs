//! A battle whose command queue is full makes the sending connection wait: nothing is lost,
//! nothing is reordered, and the connection keeps working.

use battle_e2e::battle_protocol::{ErrorCode, ServerMsg};
use battle_e2e::battle_server::Config;
use battle_e2e::{pvp_table, start_server_with, PvpTable};
use serde_json::json;

#[tokio::test]
async fn commands_to_a_full_battle_queue_wait_and_are_all_answered_in_order() {
    // A queue of one command: a client that sends faster than the actor takes commands
    // finds it full most of the time.
    let server = start_server_with(Config {
        battle_queue: 1,
        ..Config::for_tests()
    })
    .await;
    // Every client stays connected: one leaving would be news (a patch) for the others.
    let PvpTable {
        battle_id,
        mut p1,
        p0: _p0,
        spectator: _spectator,
        ..
    } = pvp_table(&server).await;
    const BURST: u64 = 300;
    let mut reqs = Vec::new();
    for _ in 0..BURST {
        // Seat 1 acts on seat 0's turn: every one is refused, to seat 1 alone.
        reqs.push(p1.act(&battle_id, json!({"kind": "end_turn"})).await);
    }
    for req in reqs {
        match p1.expect_msg().await {
            ServerMsg::Error {
                code: ErrorCode::NotYourTurn,
                req: got,
                ..
            } => assert_eq!(got, Some(req), "answers come in the order sent"),
            other => panic!("expected not_your_turn for req {req}, got {other:?}"),
        }
    }
    p1.assert_pong().await;
}
