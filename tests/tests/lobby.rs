//! The lobby: `welcome` lists the rulesets, `list` the public battles with their seats.

use battle_e2e::battle_protocol::BattleStatus;
use battle_e2e::{start_server, Client, Create};
use serde_json::{json, Value};

#[tokio::test]
async fn welcome_lists_the_synergy_ruleset() {
    let server = start_server().await;
    let mut client = Client::connect(&server, "client").await;
    let rulesets = client.hello().await;
    let synergy = rulesets
        .iter()
        .find(|r| r.id == "synergy")
        .unwrap_or_else(|| panic!("synergy not offered: {rulesets:?}"));
    assert_eq!((synergy.min_seats, synergy.max_seats), (2, 2));
    assert_eq!(synergy.version, 1);
    assert!(!synergy.summary.is_empty());
    // Its samples, with the battles they make: PvE has the Training Automaton on seat 1.
    let samples: Vec<(&str, usize, &[usize])> = synergy
        .samples
        .iter()
        .map(|s| (s.name.as_str(), s.seats, s.engine_seats.as_slice()))
        .collect();
    assert_eq!(samples, [("pve", 2, &[1][..]), ("pvp", 2, &[][..])]);
    assert_eq!(synergy.samples[1].options, json!({"mode": "pvp"}));
    server.shutdown().await;
}

#[tokio::test]
async fn list_shows_public_battles_with_seats_and_hides_private_ones() {
    let server = start_server().await;
    let mut host = Client::connect(&server, "host").await;
    assert!(host.list().await.is_empty(), "a new server has no battles");

    let pvp = host.create_synergy(json!({"mode": "pvp"}), vec![]).await;
    let pve = host.create_synergy(Value::Null, vec![]).await;
    let hidden = host
        .create(Create::synergy(json!({"mode": "pvp"})).private())
        .await;

    let battles = host.list().await;
    assert_eq!(battles.len(), 2, "{battles:?}");
    assert!(
        battles.iter().all(|b| b.battle_id != hidden),
        "a private battle is not listed: {battles:?}"
    );
    let listed = |id: &str| {
        battles
            .iter()
            .find(|b| b.battle_id == id)
            .unwrap_or_else(|| panic!("{id} not listed: {battles:?}"))
            .clone()
    };
    let p = listed(&pvp);
    assert_eq!(p.ruleset, "synergy");
    assert_eq!(p.status, BattleStatus::Waiting);
    assert_eq!(p.spectators, 0);
    assert_eq!(p.seats.len(), 2);
    for (i, seat) in p.seats.iter().enumerate() {
        assert_eq!(seat.seat, i);
        assert!(!seat.taken && !seat.bot && !seat.connected, "{seat:?}");
    }
    let e = listed(&pve);
    assert_eq!(e.status, BattleStatus::Waiting);
    assert!(!e.seats[0].taken && !e.seats[0].bot, "{:?}", e.seats);
    assert!(
        e.seats[1].taken && e.seats[1].bot && e.seats[1].connected,
        "seat 1 of a PvE battle is the engine's: {:?}",
        e.seats
    );

    // A join, a spectator and a private battle that fills up change what is listed.
    let mut p0 = Client::connect(&server, "p0").await;
    p0.join(&pvp, Some(0)).await;
    let mut spectator = Client::connect(&server, "spectator").await;
    spectator.spectate(&pvp).await;
    let mut joiner = Client::connect(&server, "joiner").await;
    joiner.join(&hidden, None).await;

    let battles = host.list().await;
    assert_eq!(battles.len(), 2, "{battles:?}");
    let p = battles
        .iter()
        .find(|b| b.battle_id == pvp)
        .expect("still listed");
    assert_eq!(p.status, BattleStatus::Waiting, "one seat is still free");
    assert!(p.seats[0].taken && p.seats[0].connected && !p.seats[0].bot);
    assert!(!p.seats[1].taken);
    assert_eq!(p.spectators, 1);

    let mut p1 = Client::connect(&server, "p1").await;
    p1.join(&pvp, Some(1)).await;
    let battles = host.list().await;
    let p = battles
        .iter()
        .find(|b| b.battle_id == pvp)
        .expect("still listed");
    assert_eq!(p.status, BattleStatus::Playing, "both seats taken: {p:?}");
    assert!(p.seats.iter().all(|s| s.taken && s.connected && !s.bot));
    server.shutdown().await;
}

#[tokio::test]
async fn bot_seats_are_listed_as_bots() {
    let server = start_server().await;
    let mut host = Client::connect(&server, "host").await;
    // Slow bots so the battle is still playing when listed.
    let id = host
        .create(
            Create::synergy(json!({"mode": "pvp"}))
                .bots(vec![1])
                .pace_ms(1000),
        )
        .await;
    let battles = host.list().await;
    let b = battles.iter().find(|b| b.battle_id == id).expect("listed");
    assert!(!b.seats[0].taken && !b.seats[0].bot, "{b:?}");
    assert!(
        b.seats[1].taken && b.seats[1].bot && b.seats[1].connected,
        "{b:?}"
    );
    assert_eq!(b.status, BattleStatus::Waiting);
    server.shutdown().await;
}
