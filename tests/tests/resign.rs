//! `resign`: any seat of any ruleset gives up; the battle ends at once for everyone, the
//! other side wins, and nothing more can be played.

use battle_e2e::battle_protocol::{BattleStatus, ClientMsg, ErrorCode, ServerMsg};
use battle_e2e::{pvp_table, settle, start_server};

#[tokio::test]
async fn a_resigning_seat_loses_at_once_and_everyone_is_told() {
    let server = start_server().await;
    let mut table = pvp_table(&server).await;
    let battle_id = table.battle_id.clone();
    let req = table.p1.req();
    table
        .p1
        .send(ClientMsg::Resign {
            battle_id: battle_id.clone(),
            req: Some(req),
        })
        .await;
    // The patch that ends the battle answers the resignation.
    let msg = table.p1.expect_msg().await;
    match &msg {
        ServerMsg::Patch { req: got, .. } | ServerMsg::Snapshot { req: got, .. } => {
            assert_eq!(*got, Some(req), "the ending patch carries the req")
        }
        other => panic!("p1: expected the ending patch, got {other:?}"),
    }
    table.seat1.tracker.apply(&msg).expect("applies");
    settle(&mut table.p0, &mut table.seat0.tracker).await;
    settle(&mut table.spectator, &mut table.watch).await;
    for (who, tracker) in [
        ("p0", &table.seat0.tracker),
        ("p1", &table.seat1.tracker),
        ("spectator", &table.watch),
    ] {
        assert_eq!(tracker.status(), Some(BattleStatus::Finished), "{who}");
        let outcome = tracker.outcome().expect("an outcome");
        assert_eq!(
            outcome["winners"],
            serde_json::json!([0]),
            "{who}: {outcome}"
        );
        assert_eq!(outcome["reason"], "resignation", "{who}: {outcome}");
        assert_eq!(
            outcome["summary"], "Player 2 resigns: Player 1 wins.",
            "{who}: {outcome}"
        );
        assert!(
            tracker.legal_actions().is_empty(),
            "{who}: nothing left to play"
        );
    }
    let again = table.p0.req();
    table
        .p0
        .send(ClientMsg::Resign {
            battle_id: battle_id.clone(),
            req: Some(again),
        })
        .await;
    table
        .p0
        .expect_error(ErrorCode::BattleOver, Some(again))
        .await;
    let watcher = table.spectator.req();
    table
        .spectator
        .send(ClientMsg::Resign {
            battle_id,
            req: Some(watcher),
        })
        .await;
    table
        .spectator
        .expect_error(ErrorCode::NotInBattle, Some(watcher))
        .await;
    server.shutdown().await;
}
