//! Two people and a spectator: everyone agrees on the battle, patches always rebuild the
//! same view a fresh snapshot gives, and hidden information stays hidden on the wire.

use battle_e2e::battle_protocol::ServerMsg;
use battle_e2e::{
    check_finished, drive, public_game, pvp_table, start_server, Drive, PvpTable, Seen,
};

#[tokio::test]
async fn pvp_players_and_spectator_agree_and_patches_match_snapshots() {
    let server = start_server().await;
    let PvpTable {
        battle_id: _,
        mut p0,
        mut seat0,
        mut p1,
        mut seat1,
        mut spectator,
        mut watch,
    } = pvp_table(&server).await;

    let player = Drive {
        act: true,
        resync_every: Some(4),
        check: None,
    };
    let watcher = Drive {
        act: false,
        resync_every: Some(4),
        check: None,
    };
    let (r0, r1, rs) = tokio::join!(
        drive(&mut p0, &mut seat0.tracker, &player),
        drive(&mut p1, &mut seat1.tracker, &player),
        drive(&mut spectator, &mut watch, &watcher),
    );

    for (who, t) in [
        ("p0", &seat0.tracker),
        ("p1", &seat1.tracker),
        ("spectator", &watch),
    ] {
        check_finished(t, who);
    }
    assert!(
        r0.acts > 0 && r1.acts > 0,
        "both players acted: {r0:?} {r1:?}"
    );
    for (who, r) in [("p0", &r0), ("p1", &r1), ("spectator", &rs)] {
        assert!(r.resyncs_checked >= 2, "{who}: {r:?}");
    }
    // Every viewer saw every move: the same number of changes since the table settled.
    assert_eq!(
        r0.changes, r1.changes,
        "both players saw the same number of changes"
    );
    assert_eq!(r0.changes, rs.changes, "the spectator saw every change too");

    // All three agree on the outcome and on everything public.
    assert_eq!(seat0.tracker.outcome(), seat1.tracker.outcome());
    assert_eq!(seat0.tracker.outcome(), watch.outcome());
    let public = public_game(&watch);
    assert_eq!(
        public_game(&seat0.tracker),
        public,
        "p0 and the spectator disagree"
    );
    assert_eq!(
        public_game(&seat1.tracker),
        public,
        "p1 and the spectator disagree"
    );
    assert_eq!(seat0.tracker.view().unwrap()["seat"], 0);
    assert_eq!(seat1.tracker.view().unwrap()["seat"], 1);
    server.shutdown().await;
}

/// The viewer's own hand is shown, the other's never: not in the view, not in any frame.
fn hand_rule(own: Option<usize>) -> impl Fn(&Seen<'_>) {
    move |seen: &Seen<'_>| {
        let sides = &seen.tracker.game().expect("game")["sides"];
        for seat in 0..2 {
            let hand = &sides[seat]["hand"];
            if Some(seat) == own {
                assert!(
                    hand.is_array(),
                    "{}: seat {seat} must see its own hand: {}",
                    seen.who,
                    sides[seat]
                );
                let count = sides[seat]["hand_count"].as_u64();
                assert_eq!(
                    hand.as_array().map(|h| h.len() as u64),
                    count,
                    "{}: hand and hand_count disagree",
                    seen.who
                );
            } else {
                assert!(
                    hand.is_null(),
                    "{}: seat {seat}'s hand leaked into this view: {}",
                    seen.who,
                    sides[seat]
                );
                assert!(
                    sides[seat]["hand_count"].is_u64(),
                    "{}: the hand size is public",
                    seen.who
                );
            }
        }
        // Over the wire: no frame this viewer gets may even mention another side's hand.
        if let ServerMsg::Patch { ops, .. } = seen.msg {
            for op in ops.iter() {
                let path = serde_json::to_value(op).expect("op")["path"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                for seat in 0..2 {
                    if Some(seat) != own {
                        let hand = format!("/game/sides/{seat}/hand");
                        assert!(
                            path != hand && !path.starts_with(&format!("{hand}/")),
                            "{}: patch touches seat {seat}'s hand: {}",
                            seen.who,
                            seen.text
                        );
                    }
                }
            }
        }
        if own.is_none() {
            assert!(
                !seen.text.contains("\"hand\""),
                "{}: a spectator frame holds a hand: {}",
                seen.who,
                seen.text
            );
        }
    }
}

#[tokio::test]
async fn hands_are_hidden_from_the_other_seat_and_spectators() {
    let server = start_server().await;
    let PvpTable {
        battle_id: _,
        mut p0,
        mut seat0,
        mut p1,
        mut seat1,
        mut spectator,
        mut watch,
    } = pvp_table(&server).await;

    let rule0 = hand_rule(Some(0));
    let rule1 = hand_rule(Some(1));
    let rule_spectator = hand_rule(None);
    // The views as they are after joining must already follow the rule.
    for (who, tracker, rule) in [
        ("p0", &seat0.tracker, &rule0 as &dyn Fn(&Seen<'_>)),
        ("p1", &seat1.tracker, &rule1),
        ("spectator", &watch, &rule_spectator),
    ] {
        let text = serde_json::to_string(tracker.view().expect("view")).expect("json");
        rule(&Seen {
            who,
            text: &text,
            msg: &ServerMsg::Pong { req: None },
            tracker,
        });
    }

    let drive0 = Drive {
        act: true,
        resync_every: Some(6),
        check: Some(&rule0),
    };
    let drive1 = Drive {
        act: true,
        resync_every: Some(6),
        check: Some(&rule1),
    };
    let drive_spectator = Drive {
        act: false,
        resync_every: Some(6),
        check: Some(&rule_spectator),
    };
    let (r0, r1, rs) = tokio::join!(
        drive(&mut p0, &mut seat0.tracker, &drive0),
        drive(&mut p1, &mut seat1.tracker, &drive1),
        drive(&mut spectator, &mut watch, &drive_spectator),
    );
    for (who, r) in [("p0", &r0), ("p1", &r1), ("spectator", &rs)] {
        assert!(r.changes > 10, "{who} checked a whole battle: {r:?}");
    }
    check_finished(&watch, "spectator");
    server.shutdown().await;
}
