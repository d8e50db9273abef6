//! Taking a seat back with its token: after a disconnect, and while the old connection is
//! still open (which then gets `left{reason:"replaced"}`).

use std::time::Duration;

use battle_e2e::battle_client::Applied;
use battle_e2e::battle_protocol::{BattleStatus, ErrorCode, ServerMsg};
use battle_e2e::{pvp_table, settle, start_server, Client, PvpTable};
use serde_json::json;

/// Poll `list` until `battle_id`'s `seat` shows `connected == want` (bounded).
async fn wait_connected(lister: &mut Client, battle_id: &str, seat: usize, want: bool) {
    for _ in 0..200 {
        let battles = lister.list().await;
        let battle = battles
            .iter()
            .find(|b| b.battle_id == battle_id)
            .unwrap_or_else(|| panic!("{battle_id} is not listed: {battles:?}"));
        if battle.seats[seat].connected == want {
            assert!(battle.seats[seat].taken, "a disconnected seat stays taken");
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("seat {seat} of {battle_id} never showed connected == {want}");
}

#[tokio::test]
async fn rejoin_after_disconnect_gives_back_the_same_seat_and_a_snapshot() {
    let server = start_server().await;
    let PvpTable {
        battle_id,
        p0,
        seat0,
        mut p1,
        mut seat1,
        spectator: _spectator,
        watch: _watch,
    } = pvp_table(&server).await;
    let token = seat0.token.clone();
    let hand_before = seat0.tracker.game().unwrap()["sides"][0]["hand"].clone();
    assert!(hand_before.is_array());

    p0.close().await;
    let mut lister = Client::connect(&server, "lister").await;
    wait_connected(&mut lister, &battle_id, 0, false).await;
    // The other player is told, by a patch of the envelope's `seats`.
    settle(&mut p1, &mut seat1.tracker).await;
    let seats = &seat1.tracker.view().expect("a view")["seats"];
    assert_eq!(seats[0], "away", "seat 0 is held but its holder is gone");

    let mut back = Client::connect(&server, "p0-again").await;
    let mut seated = back.rejoin(&battle_id, &token).await;
    assert_eq!(seated.seat, 0, "rejoin gives back the same seat");
    assert_eq!(seated.tracker.status(), Some(BattleStatus::Playing));
    let game = seated.tracker.game().expect("game");
    assert_eq!(
        game["sides"][0]["hand"], hand_before,
        "nothing happened while away, so the hand is the same"
    );
    assert_eq!(
        seated.tracker.seq(),
        seat0.tracker.seq().map(|seq| seq + 1),
        "only the seat's own absence changed while away: one step on"
    );
    wait_connected(&mut lister, &battle_id, 0, true).await;
    settle(&mut p1, &mut seat1.tracker).await;
    assert_eq!(
        seat1.tracker.view().expect("a view")["seats"][0],
        "connected",
        "the other player sees seat 0 come back"
    );

    // The seat plays on from the new connection and the other player sees it.
    assert!(
        seated.tracker.my_turn(),
        "seat 0 opens: {:?}",
        seated.tracker.view()
    );
    let action = seated.tracker.legal_actions()[0].clone();
    let req = back.act(&battle_id, action).await;
    let before = seated.tracker.seq().expect("seq");
    let msg = back.expect_msg().await;
    match seated.tracker.apply(&msg) {
        // A patch, or a snapshot standing in for a large patch: either carries the req.
        Ok(Applied::Patch { seq, req: got } | Applied::Snapshot { seq, req: got }) => {
            assert_eq!(got, Some(req), "p0-again: the answer carries the act's req");
            assert_eq!(seq, before + 1);
        }
        other => panic!("p0-again: expected the answer to its act, got {msg:?} ({other:?})"),
    }
    let before = seat1.tracker.seq();
    assert!(settle(&mut p1, &mut seat1.tracker).await >= 1);
    assert!(seat1.tracker.seq() > before);
    server.shutdown().await;
}

#[tokio::test]
async fn rejoin_while_connected_replaces_the_old_connection() {
    let server = start_server().await;
    let mut old = Client::connect(&server, "old").await;
    let battle_id = old.create_synergy(json!({"mode": "pvp"}), vec![]).await;
    let seated = old.join(&battle_id, Some(0)).await;

    let mut new = Client::connect(&server, "new").await;
    let again = new.rejoin(&battle_id, &seated.token).await;
    assert_eq!(again.seat, 0);

    match old.expect_msg().await {
        ServerMsg::Left {
            battle_id: got,
            reason,
            req,
        } => {
            assert_eq!(got, battle_id);
            assert_eq!(reason, "replaced");
            assert_eq!(req, None, "nobody on the old connection asked for this");
        }
        other => panic!("old: expected left(replaced), got {other:?}"),
    }
    // The old connection is still open but no longer holds the seat.
    old.assert_pong().await;
    let req = old.act(&battle_id, json!({"kind": "end_turn"})).await;
    old.expect_error(ErrorCode::NotInBattle, Some(req)).await;

    // The new connection gets the battle's updates: a second player's arrival.
    let mut p1 = Client::connect(&server, "p1").await;
    p1.join(&battle_id, Some(1)).await;
    let mut tracker = again.tracker;
    assert!(settle(&mut new, &mut tracker).await >= 1);
    assert_eq!(tracker.status(), Some(BattleStatus::Playing));
    // ...and the old one nothing.
    old.assert_pong().await;

    // A token only opens its own battle.
    let other = p1.create_synergy(json!({"mode": "pvp"}), vec![]).await;
    let req = old.req();
    old.send(battle_protocol::ClientMsg::Rejoin {
        battle_id: other,
        token: seated.token.clone(),
        req: Some(req),
    })
    .await;
    old.expect_error(ErrorCode::BadToken, Some(req)).await;
    server.shutdown().await;
}
