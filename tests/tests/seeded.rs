//! Reproducible battles: a battle created with a `seed` plays the same on any server given
//! the same moves, is marked `seeded` in `list`, and without a seed battles differ.

use battle_e2e::battle_client::ViewTracker;
use battle_e2e::{check_finished, drive, start_server, Client, Create, Drive};
use serde_json::{json, Value};

/// Play a PvE synergy battle with `seed` to its end on a fresh server, always taking the
/// first legal action; the final view of the player, and whether `list` marked it seeded.
async fn play(seed: Option<u64>) -> (Value, bool) {
    let server = start_server().await;
    let mut player = Client::connect(&server, "player").await;
    let mut create = Create::synergy(json!({"mode": "pve"}));
    if let Some(seed) = seed {
        create = create.seed(seed);
    }
    let battle = player.create(create).await;
    let listed = player.list().await;
    let seeded = listed
        .iter()
        .find(|b| b.battle_id == battle)
        .expect("listed")
        .seeded;
    let mut seated = player.join(&battle, Some(0)).await;
    drive(&mut player, &mut seated.tracker, &Drive::player()).await;
    check_finished(&seated.tracker, "player");
    server.shutdown().await;
    (game_of(&seated.tracker), seeded)
}

/// The game part of a view.
fn game_of(tracker: &ViewTracker) -> Value {
    tracker.game().cloned().expect("a game")
}

#[tokio::test]
async fn a_seeded_battle_plays_the_same_on_two_servers() {
    let (first, seeded) = play(Some(42)).await;
    let (second, _) = play(Some(42)).await;
    assert!(
        seeded,
        "a battle created with a seed is marked seeded in list"
    );
    assert_eq!(
        first, second,
        "same seed, same moves: the same battle, log and all"
    );
    let (other, seeded) = play(None).await;
    assert!(!seeded, "a battle without a chosen seed is not marked");
    assert_ne!(
        first["log"], other["log"],
        "another seed plays another battle"
    );
}
