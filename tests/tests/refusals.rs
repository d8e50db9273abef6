//! Refused actions are answered on the sender's socket only, with the sender's `req`, and
//! change nothing; an accepted action reaches every viewer, its `req` only the actor.

use battle_e2e::battle_client::Applied;
use battle_e2e::battle_protocol::ErrorCode;
use battle_e2e::{assert_resync_matches, pvp_table, start_server, Client, PvpTable, NO_SUCH_CARD};
use serde_json::{json, Value};

#[tokio::test]
async fn illegal_and_out_of_turn_actions_are_refused_to_the_sender_only() {
    let server = start_server().await;
    let PvpTable {
        battle_id,
        mut p0,
        mut seat0,
        mut p1,
        mut seat1,
        mut spectator,
        mut watch,
    } = pvp_table(&server).await;
    assert_eq!(
        watch.to_act(),
        vec![0],
        "seat 0 opens a synergy battle: {:?}",
        watch.view()
    );
    assert!(seat0.tracker.my_turn() && !seat1.tracker.my_turn());
    assert!(
        seat1.tracker.legal_actions().is_empty(),
        "nothing is legal off turn"
    );
    let seq_before = [seat0.tracker.seq(), seat1.tracker.seq(), watch.seq()];

    // Seat 1 acts on seat 0's turn.
    let req = p1.act(&battle_id, json!({"kind": "end_turn"})).await;
    p1.expect_error(ErrorCode::NotYourTurn, Some(req)).await;

    // Seat 0 plays a card it does not hold.
    let req = p0
        .act(
            &battle_id,
            json!({"kind": "play_card", "card": NO_SUCH_CARD}),
        )
        .await;
    p0.expect_error(ErrorCode::IllegalAction, Some(req)).await;

    // Seat 0 sends an action shape the ruleset does not know.
    let req = p0.act(&battle_id, json!({"kind": "dance"})).await;
    p0.expect_error(ErrorCode::BadAction, Some(req)).await;

    // Nobody received anything else: the next message each sees is its own pong.
    p0.assert_pong().await;
    p1.assert_pong().await;
    spectator.assert_pong().await;

    // Nothing changed: a fresh snapshot is the view each already holds, at the same seq.
    assert_resync_matches(&mut p0, &mut seat0.tracker).await;
    assert_resync_matches(&mut p1, &mut seat1.tracker).await;
    assert_resync_matches(&mut spectator, &mut watch).await;
    assert_eq!(
        [seat0.tracker.seq(), seat1.tracker.seq(), watch.seq()],
        seq_before
    );

    // An accepted action: the actor's patch carries its req, the others' patches do not.
    // Playing the last card of the hand keeps the change small (see the next test for a
    // large one).
    let action = last_card_play(seat0.tracker.legal_actions());
    let req = p0.act(&battle_id, action).await;
    let seen = [
        (&mut p0, &mut seat0.tracker, Some(req)),
        (&mut p1, &mut seat1.tracker, None),
        (&mut spectator, &mut watch, None),
    ];
    for (client, tracker, want_req) in seen {
        let before = tracker.seq().expect("seq");
        let msg = client.expect_msg().await;
        match tracker.apply(&msg) {
            // A patch, or a snapshot standing in for a patch larger than the view.
            Ok(Applied::Patch { seq, req: got } | Applied::Snapshot { seq, req: got }) => {
                assert_eq!(seq, before + 1, "{}: seq grows by one", client.name);
                assert_eq!(got, want_req, "{}: req on the patch", client.name);
            }
            other => panic!("{}: expected a patch, got {msg:?} ({other:?})", client.name),
        }
    }
    server.shutdown().await;
}

/// The `play_card` action for the last playable card (the one drawn last).
fn last_card_play(legal: &[Value]) -> Value {
    legal
        .iter()
        .rev()
        .find(|a| a["kind"] == "play_card")
        .cloned()
        .unwrap_or_else(|| panic!("no card to play: {legal:?}"))
}

/// Whatever the size of the change, the actor learns that its act was accepted from the
/// message at the next `seq` carrying its req: a patch, or a snapshot standing in for a patch
/// larger than the view. Playing the first card of a hand shifts every other card in the
/// view, which makes a large patch.
#[tokio::test]
async fn a_large_accepted_change_still_answers_the_actor_with_its_req() {
    let server = start_server().await;
    let mut player = Client::connect(&server, "player").await;
    let battle_id = player.create_synergy(Value::Null, vec![]).await;
    let mut seated = player.join(&battle_id, Some(0)).await;
    let first = seated
        .tracker
        .legal_actions()
        .iter()
        .find(|a| a["kind"] == "play_card")
        .cloned()
        .expect("a card to play");
    let hand = seated.tracker.game().unwrap()["sides"][0]["hand"].clone();
    assert_eq!(
        first["card"], hand[0]["id"],
        "the first legal action plays the first card of the hand"
    );
    let before = seated.tracker.seq().expect("seq");
    let req = player.act(&battle_id, first.clone()).await;
    let msg = player.expect_msg().await;
    match seated.tracker.apply(&msg) {
        Ok(Applied::Patch { seq, req: got } | Applied::Snapshot { seq, req: got }) => {
            assert_eq!(got, Some(req), "the answer carries the act's req: {msg:?}");
            assert_eq!(seq, before + 1, "the answer is the next view");
        }
        other => panic!("expected the answer to act {req}, got {msg:?} ({other:?})"),
    }
    let hand = &seated.tracker.game().unwrap()["sides"][0]["hand"];
    assert!(
        hand.as_array()
            .is_some_and(|h| h.iter().all(|c| c["id"] != first["card"])),
        "the played card left the hand: {hand}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn acting_before_every_seat_is_taken_is_not_started() {
    let server = start_server().await;
    let mut p0 = Client::connect(&server, "p0").await;
    let battle_id = p0.create_synergy(json!({"mode": "pvp"}), vec![]).await;
    let seated = p0.join(&battle_id, Some(0)).await;
    assert_eq!(seated.tracker.view().unwrap()["status"], "waiting");
    assert!(
        seated.tracker.legal_actions().is_empty(),
        "nothing is legal before the start: {:?}",
        seated.tracker.view()
    );
    let req = p0.act(&battle_id, json!({"kind": "end_turn"})).await;
    p0.expect_error(ErrorCode::NotStarted, Some(req)).await;
    p0.assert_pong().await;
    server.shutdown().await;
}

#[tokio::test]
async fn acting_in_a_battle_without_a_seat_is_not_in_battle() {
    let server = start_server().await;
    let mut host = Client::connect(&server, "host").await;
    let battle_id = host.create_synergy(Value::Null, vec![]).await;
    let req = host.act(&battle_id, json!({"kind": "end_turn"})).await;
    host.expect_error(ErrorCode::NotInBattle, Some(req)).await;
    host.assert_pong().await;
    server.shutdown().await;
}
