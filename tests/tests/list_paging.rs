//! `list` in pages: a `limit` and a `cursor` in, at most `limit` battles, the `total` and a
//! `next_cursor` out. The pages cover every public battle once, oldest first, and a cursor
//! stays good while battles come and go between pages.

use std::time::Duration;

use battle_e2e::battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use battle_e2e::battle_server::lobby::Page;
use battle_e2e::{create_in_lobby, start_server, start_server_with, Client};
use battle_server::Config;

/// The ids on a page.
fn ids(page: &Page) -> Vec<String> {
    page.battles.iter().map(|b| b.battle_id.clone()).collect()
}

/// Every page of `limit` battles from the first; checks each page's size and `total`.
async fn all_pages(client: &mut Client, limit: u32, total: usize) -> Vec<Page> {
    let mut pages = Vec::new();
    let mut cursor = None;
    // More pages than the battles could fill: a missing last page fails the test.
    for _ in 0..=total {
        let page = client.list_page(cursor.take(), Some(limit)).await;
        assert_eq!(page.total, total, "every page counts every public battle");
        assert!(
            page.battles.len() <= limit as usize,
            "at most limit per page"
        );
        cursor = page.next_cursor.clone();
        pages.push(page);
        if cursor.is_none() {
            return pages;
        }
    }
    panic!("list gave more pages than there are battles");
}

#[tokio::test]
async fn pages_cover_every_public_battle_once_in_creation_order() {
    let server = start_server().await;
    let mut client = Client::connect(&server, "lister").await;
    let empty = client.list_page(None, None).await;
    assert_eq!((empty.battles.len(), empty.total), (0, 0));
    assert_eq!(empty.next_cursor, None, "one empty page is the last");
    let mut public = Vec::new();
    for n in 0..29 {
        // Every fifth is private: counted nowhere, listed on no page.
        let private = n % 5 == 4;
        let id = create_in_lobby(&server, private);
        if !private {
            public.push(id);
        }
    }
    assert_eq!(public.len(), 24);
    let pages = all_pages(&mut client, 5, 24).await;
    let sizes: Vec<usize> = pages.iter().map(|p| p.battles.len()).collect();
    assert_eq!(sizes, [5, 5, 5, 5, 4]);
    let listed: Vec<String> = pages.iter().flat_map(ids).collect();
    assert_eq!(listed, public, "each public battle once, oldest first");
    // A limit that divides the count exactly: the page holding the last battle is the last.
    let pages = all_pages(&mut client, 6, 24).await;
    assert_eq!(pages.len(), 4, "no empty page after the last battle");
    let one = all_pages(&mut client, 24, 24).await;
    assert_eq!(ids(&one[0]), public);
    // The helper that follows every page sees the same.
    let every: Vec<String> = client
        .list()
        .await
        .into_iter()
        .map(|b| b.battle_id)
        .collect();
    assert_eq!(every, public);
    server.shutdown().await;
}

#[tokio::test]
async fn limits_default_to_50_are_held_to_200_and_bad_requests_are_refused() {
    let server = start_server().await;
    for _ in 0..250 {
        create_in_lobby(&server, false);
    }
    let mut client = Client::connect(&server, "lister").await;
    let default = client.list_page(None, None).await;
    assert_eq!((default.battles.len(), default.total), (50, 250));
    assert!(default.next_cursor.is_some());
    let held = client.list_page(None, Some(1_000)).await;
    assert_eq!(held.battles.len(), 200, "a larger limit is taken as 200");
    let rest = client
        .list_page(held.next_cursor.clone(), Some(1_000))
        .await;
    assert_eq!((rest.battles.len(), rest.next_cursor), (50, None));

    for (limit, cursor) in [(Some(0), None), (None, Some("not-a-cursor"))] {
        let req = client.req();
        client
            .send(ClientMsg::List {
                finished: false,
                limit,
                cursor: cursor.map(String::from),
                req: Some(req),
            })
            .await;
        let why = client.expect_error(ErrorCode::BadMessage, Some(req)).await;
        assert!(
            why.contains(if limit.is_some() { "limit" } else { "cursor" }),
            "{why}"
        );
    }

    // The recently finished battles come with the first page, not with the next ones.
    for (cursor, expect_finished) in [(None, true), (default.next_cursor.clone(), false)] {
        let req = client.req();
        client
            .send(ClientMsg::List {
                finished: true,
                limit: Some(10),
                cursor,
                req: Some(req),
            })
            .await;
        match client.expect_msg().await {
            ServerMsg::Battles {
                battles,
                total,
                finished,
                req: got,
                ..
            } => {
                assert_eq!((battles.len(), total, got), (10, 250, Some(req)));
                assert_eq!(finished.is_some(), expect_finished);
            }
            other => panic!("expected battles, got {other:?}"),
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_cursor_survives_battles_expiring_and_arriving_between_pages() {
    // Battles nobody watches go away after the idle time; watched ones stay.
    let config = Config {
        idle_ttl: Duration::from_secs(2),
        ..Config::for_tests()
    };
    let server = start_server_with(config).await;
    let mut watcher = Client::connect(&server, "watcher").await;
    let mut lister = Client::connect(&server, "lister").await;
    // b0..b11; the page's last (b3, the cursor's own battle) and the one after it expire.
    let expiring = [0, 3, 4, 7, 10];
    let mut created = Vec::new();
    for n in 0..12 {
        let id = create_in_lobby(&server, false);
        if !expiring.contains(&n) {
            watcher.spectate(&id).await;
        }
        created.push(id);
    }
    let first = lister.list_page(None, Some(4)).await;
    assert_eq!(ids(&first), created[..4], "taken well within the idle time");
    assert_eq!(first.total, 12);
    let cursor = first.next_cursor.clone().expect("more pages follow");

    // Two battles arrive (watched, so they stay); the unwatched ones expire.
    let mut arrived = Vec::new();
    for _ in 0..2 {
        let id = create_in_lobby(&server, false);
        watcher.spectate(&id).await;
        arrived.push(id);
    }
    let staying = created.len() - expiring.len() + arrived.len();
    for _ in 0..100 {
        if server.lobby().len() == staying {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        server.lobby().len(),
        staying,
        "the unwatched battles expired"
    );

    // From the cursor, whose battle is gone: the battles after it that are still there,
    // then the new ones, each once.
    let mut rest = Vec::new();
    let mut cursor = Some(cursor);
    for _ in 0..staying {
        let page = lister.list_page(cursor.take(), Some(4)).await;
        assert_eq!(page.total, staying);
        rest.extend(ids(&page));
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(cursor, None, "the pages end");
    let expected: Vec<String> = (4..12)
        .filter(|n| !expiring.contains(n))
        .map(|n| created[n].clone())
        .chain(arrived)
        .collect();
    assert_eq!(rest, expected);
    server.shutdown().await;
}

#[tokio::test]
async fn the_terminal_client_follows_every_page_or_stops_at_its_limit() {
    use battle_term::lobby;
    let server = start_server().await;
    let created: Vec<String> = (0..450).map(|_| create_in_lobby(&server, false)).collect();
    let every = lobby::list_battles(&server.url(), false, None)
        .await
        .expect("a listing");
    let listed: Vec<String> = every.battles.iter().map(|b| b.battle_id.clone()).collect();
    assert_eq!((listed, every.total), (created.clone(), 450), "three pages");
    assert_eq!(lobby::more_line(&every), "");
    let some = lobby::list_battles(&server.url(), true, Some(250))
        .await
        .expect("a listing");
    let listed: Vec<String> = some.battles.iter().map(|b| b.battle_id.clone()).collect();
    assert_eq!(listed, created[..250]);
    assert!(
        some.finished.is_some(),
        "finished battles come with the first page"
    );
    assert!(lobby::more_line(&some).starts_with("... and 200 more (450 open battles"));
    server.shutdown().await;
}
