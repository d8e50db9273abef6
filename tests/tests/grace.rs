//! Disconnect grace: a seat whose holder has been gone longer than the battle's grace is
//! played by the server's bot until the holder comes back with `rejoin`; within the grace
//! the battle waits for it.

use std::time::Duration;

use battle_e2e::battle_protocol::{BattleStatus, ServerMsg};
use battle_e2e::{check_finished, drive, settle, start_server, Client, Create, Drive};
use serde_json::json;

#[tokio::test]
async fn the_bot_plays_an_absent_seat_after_the_grace_and_the_holder_takes_it_back() {
    let server = start_server().await;
    let mut p0 = Client::connect(&server, "p0").await;
    let battle = p0
        .create(Create::synergy(json!({"mode": "pvp"})).grace_ms(100))
        .await;
    let mut seat0 = p0.join(&battle, Some(0)).await;
    let mut p1 = Client::connect(&server, "p1").await;
    let seat1 = p1.join(&battle, Some(1)).await;
    settle(&mut p0, &mut seat0.tracker).await;
    p1.close().await;

    // Seat 0 plays until seat 1 is awaited; within the grace nothing moves.
    settle(&mut p0, &mut seat0.tracker).await;
    while !seat0.tracker.to_act().contains(&1) {
        let entry = seat0
            .tracker
            .legal_actions()
            .first()
            .cloned()
            .expect("seat 0 acts");
        let req = p0.act(&battle, battle_e2e::fill_first(&entry)).await;
        // Read up to the answer (a presence change may come first).
        loop {
            let msg = p0.expect_msg().await;
            let answered = matches!(&msg, ServerMsg::Patch { req: got, .. }
                | ServerMsg::Snapshot { req: got, .. } if *got == Some(req));
            seat0.tracker.apply(&msg).expect("applies");
            if answered {
                break;
            }
        }
    }
    let waiting = seat0.tracker.seq();
    tokio::time::sleep(Duration::from_millis(30)).await;
    settle(&mut p0, &mut seat0.tracker).await;
    assert_eq!(
        seat0.tracker.seq(),
        waiting,
        "within the grace the battle waits for seat 1"
    );

    // Past the grace the server's bot plays seat 1, so seat 0 can play on.
    let mut p1 = Client::connect(&server, "p1 again").await;
    let report = drive(&mut p0, &mut seat0.tracker, &Drive::player()).await;
    check_finished(&seat0.tracker, "p0");
    assert!(report.acts > 0, "{report:?}");

    // Coming back: the seat is the holder's again (the battle is over by now).
    let back = p1.rejoin(&battle, &seat1.token).await;
    assert_eq!(back.tracker.status(), Some(BattleStatus::Finished));
    server.shutdown().await;
}

#[tokio::test]
async fn a_holder_back_within_the_grace_keeps_playing_its_seat() {
    let server = start_server().await;
    let mut p0 = Client::connect(&server, "p0").await;
    let battle = p0
        .create(Create::synergy(json!({"mode": "pvp"})).grace_ms(60_000))
        .await;
    let mut seat0 = p0.join(&battle, Some(0)).await;
    let mut p1 = Client::connect(&server, "p1").await;
    let seat1 = p1.join(&battle, Some(1)).await;
    p1.close().await;
    let mut p1 = Client::connect(&server, "p1 again").await;
    let mut back = p1.rejoin(&battle, &seat1.token).await;
    settle(&mut p0, &mut seat0.tracker).await;
    let play = Drive::player();
    let (r0, r1) = tokio::join!(
        drive(&mut p0, &mut seat0.tracker, &play),
        drive(&mut p1, &mut back.tracker, &play),
    );
    assert!(
        r0.acts > 0 && r1.acts > 0,
        "both holders played: {r0:?} {r1:?}"
    );
    check_finished(&back.tracker, "p1");
    server.shutdown().await;
}
