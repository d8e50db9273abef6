//! Names: the name a person gives in `hello` names their seat in every text the server
//! writes (the envelope's `names`, the log, the outcome, `list`), for every viewer, and
//! still does after the server restarts; an engine seat has its ruleset's name; the outcome
//! says how the battle ended.

use battle_e2e::battle_client::ViewTracker;
use battle_e2e::battle_protocol::{BattleStatus, ClientMsg, ServerMsg};
use battle_e2e::{
    durable, fresh_data_dir, settle, start_server, start_server_with, Client, Create,
};
use serde_json::{json, Value};

/// The names `list` gives the seats of `battle`.
async fn listed_names(client: &mut Client, battle: &str) -> Vec<Option<String>> {
    let listed = client.list().await;
    let row = listed
        .iter()
        .find(|b| b.battle_id == battle)
        .expect("listed");
    row.seats.iter().map(|s| s.name.clone()).collect()
}

/// Every line of the log `tracker` holds, as one text.
fn log_text(tracker: &ViewTracker) -> String {
    tracker
        .game()
        .and_then(|g| g["log"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(Value::as_str)
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn hello_names_name_the_seats_everywhere_and_survive_a_restart() {
    let dir = fresh_data_dir("names-restart");
    let server = start_server_with(durable(&dir)).await;
    let mut ana = Client::connect(&server, "Ana").await;
    ana.hello().await;
    let battle = ana.create(Create::synergy(json!({"mode": "pvp"}))).await;
    let mut seat0 = ana.join(&battle, Some(0)).await;
    let waiting = seat0.tracker.view().expect("a view").clone();
    assert_eq!(waiting["names"], json!(["Ana", "Player 2"]), "{waiting}");
    let mut ben = Client::connect(&server, "  Ben\u{7}  ").await;
    ben.hello().await;
    let seat1 = ben.join(&battle, Some(1)).await;
    let mut watcher = Client::connect(&server, "watcher").await;
    let mut watch = watcher.spectate(&battle).await;
    settle(&mut ana, &mut seat0.tracker).await;
    settle(&mut watcher, &mut watch).await;
    for (who, tracker) in [("Ana", &seat0.tracker), ("spectator", &watch)] {
        let view = tracker.view().expect("a view");
        assert_eq!(view["names"], json!(["Ana", "Ben"]), "{who}: {view}");
        let log = log_text(tracker);
        assert!(
            log.starts_with("Battle begins: Ana 60 HP vs Ben 60 HP."),
            "{who}: {log}"
        );
        assert!(
            !log.contains("Player 1") && !log.contains("Player 2"),
            "{who}: {log}"
        );
    }
    let both = [Some("Ana".to_owned()), Some("Ben".to_owned())];
    assert_eq!(listed_names(&mut watcher, &battle).await, both);
    let tokens = (seat0.token.clone(), seat1.token.clone());
    server.drain().await;
    drop((ana, ben, watcher));

    // After a restart, the battle names its seats as before, for clients that say nothing.
    let server = start_server_with(durable(&dir)).await;
    let mut p0 = Client::connect(&server, "p0").await;
    let mut p1 = Client::connect(&server, "p1").await;
    let mut again0 = p0.rejoin(&battle, &tokens.0).await;
    let _again1 = p1.rejoin(&battle, &tokens.1).await;
    settle(&mut p0, &mut again0.tracker).await;
    let view = again0.tracker.view().expect("a view").clone();
    assert_eq!(view["names"], json!(["Ana", "Ben"]), "{view}");
    assert_eq!(listed_names(&mut p0, &battle).await, both);
    let req = p1.req();
    p1.send(ClientMsg::Resign {
        battle_id: battle.clone(),
        req: Some(req),
    })
    .await;
    loop {
        // The patch that ends the battle answers the resignation.
        if let ServerMsg::Patch { req: got, .. } | ServerMsg::Snapshot { req: got, .. } =
            p1.expect_msg().await
        {
            if got == Some(req) {
                break;
            }
        }
    }
    settle(&mut p0, &mut again0.tracker).await;
    assert_eq!(again0.tracker.status(), Some(BattleStatus::Finished));
    let outcome = again0.tracker.outcome().expect("an outcome").clone();
    assert_eq!(
        outcome,
        json!({"reason": "resignation", "summary": "Ben resigns: Ana wins.", "winners": [0]})
    );
    server.drain().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn an_engine_seat_has_its_rulesets_name_and_an_unnamed_seat_is_a_player() {
    let server = start_server().await;
    let mut host = Client::connect(&server, "host").await;
    let battle = host.create(Create::synergy(json!({"mode": "pve"}))).await;
    assert_eq!(
        listed_names(&mut host, &battle).await,
        [None, Some("Training Automaton".to_owned())],
        "nobody named seat 0; the engine's seat has the ruleset's name"
    );
    let mut seat0 = host.join(&battle, Some(0)).await;
    settle(&mut host, &mut seat0.tracker).await;
    let view = seat0.tracker.view().expect("a view");
    assert_eq!(
        view["names"],
        json!(["Player 1", "Training Automaton"]),
        "{view}"
    );
    assert!(
        log_text(&seat0.tracker)
            .starts_with("Battle begins: Player 1 60 HP vs Training Automaton 70 HP."),
        "{}",
        log_text(&seat0.tracker)
    );
    // Two people of the same name are told apart.
    let mut one = Client::connect(&server, "ada").await;
    one.hello().await;
    let duel = one.create(Create::synergy(json!({"mode": "pvp"}))).await;
    let mut first = one.join(&duel, Some(0)).await;
    let mut two = Client::connect(&server, "Ada").await;
    two.hello().await;
    let _second = two.join(&duel, Some(1)).await;
    settle(&mut one, &mut first.tracker).await;
    let view = first.tracker.view().expect("a view");
    assert_eq!(
        view["names"],
        json!(["ada (Player 1)", "Ada (Player 2)"]),
        "{view}"
    );
    server.shutdown().await;
}
