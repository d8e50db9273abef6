//! The terminal client's side of replays, against a real server: a finished battle is listed
//! by `list --finished` with its steps and seed mark, its replay comes back whole, every
//! step's view is the spectator's envelope without `seats` and `clocks`, the last one the
//! spectator's final view; the replay prints as text and saves to a file that reads back the
//! same; and the two refusals (no such battle, not finished) are told as sentences.

use battle_e2e::battle_protocol::{ErrorCode, Replay};
use battle_e2e::{start_server, watch_bots_play, Client, Create};
use battle_term::replay::{export, finished, refusal, text};
use battle_term::{lobby, SessionError};
use serde_json::{json, Value};

/// What a replay's view may not hold: the members that depend on when it was watched.
const NOT_REPLAYED: [&str; 2] = ["seats", "clocks"];

/// `view` without [`NOT_REPLAYED`].
fn as_replayed(view: &Value) -> Value {
    let mut view = view.clone();
    if let Some(envelope) = view.as_object_mut() {
        for key in NOT_REPLAYED {
            envelope.remove(key);
        }
    }
    view
}

#[tokio::test]
async fn a_finished_battle_is_listed_replayed_printed_and_saved() {
    let server = start_server().await;
    let url = server.url();
    let battle = Create::synergy(json!({"mode": "pve"}))
        .bots(vec![0])
        .seed(7);
    // No resync along the way: the final one still checks the view the spectator holds.
    let watched = watch_bots_play(&server, battle, usize::MAX).await;
    let battle_id = watched.battle_id().to_owned();
    let last_seen = watched.view().expect("the spectator's final view");

    let (_, recent) = lobby::list_with_finished(&url)
        .await
        .expect("the server lists battles");
    let recent = recent.expect("finished battles are listed when asked for");
    let listed = recent
        .iter()
        .find(|b| b.battle_id == battle_id)
        .expect("the finished battle is listed");
    assert!(listed.seeded, "created with a seed: marked");
    assert!(listed.steps > 0, "a played battle has steps");
    let table = finished::finished_table(Some(&recent), &url, listed.ended_at);
    assert!(
        table.contains(&battle_id) && table.contains("[seeded]"),
        "{table}"
    );
    assert!(table.contains("replay <id>"), "{table}");

    let replay: Replay = lobby::replay(&url, &battle_id)
        .await
        .expect("a finished battle's replay");
    assert_eq!(replay.steps.len(), listed.steps);
    let views = replay.views().expect("every step applies");
    assert_eq!(views.len(), listed.steps + 1);
    for (step, view) in views.iter().enumerate() {
        for key in NOT_REPLAYED {
            assert!(view.get(key).is_none(), "step {step} holds {key}");
        }
        assert!(view["seat"].is_null(), "step {step}: a spectator's view");
        assert!(view["game"]["log"].is_array(), "step {step} keeps the log");
    }
    assert_eq!(views[views.len() - 1]["status"], "finished");
    assert_eq!(
        views[views.len() - 1],
        as_replayed(last_seen),
        "the last step is what the spectator saw at the end"
    );

    let lines = text::replay_lines(&replay, &views, replay.ended_at);
    assert!(
        lines[0].starts_with(&format!("replay of battle {battle_id}: synergy")),
        "{lines:?}"
    );
    assert_eq!(lines[1], format!("outcome: {}", replay.outcome.summary));
    assert!(lines.iter().any(|l| l.starts_with("step 1: ")), "{lines:?}");
    assert!(
        lines.last().is_some_and(|l| l.starts_with("result: ")),
        "{lines:?}"
    );

    let dir = std::env::temp_dir().join(format!("replay-client-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join(export::default_path(&battle_id));
    let _ = std::fs::remove_file(&path);
    let written = export::export(&replay, &path, false).expect("the replay is written");
    assert_eq!(written.steps, replay.steps.len());
    let back: Replay = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable"))
        .expect("the file holds a replay");
    assert_eq!(back, replay, "the file reads back as the server sent it");
    assert!(matches!(
        export::export(&replay, &path, false),
        Err(export::ExportError::Exists(_))
    ));
    let _ = std::fs::remove_dir_all(&dir);
    server.shutdown().await;
}

#[tokio::test]
async fn refusals_are_told_as_sentences() {
    let server = start_server().await;
    let url = server.url();
    let err = lobby::replay(&url, "nosuchbattle")
        .await
        .expect_err("no such battle");
    assert!(
        matches!(
            err,
            SessionError::Refused {
                code: ErrorCode::NoSuchBattle,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        refusal(&err, &url, "nosuchbattle").as_deref(),
        Some(
            "no finished battle nosuchbattle is kept by this server: it may have expired, or \
             never existed"
        )
    );

    let mut host = Client::connect(&server, "host").await;
    let waiting = host.create(Create::synergy(json!({"mode": "pvp"}))).await;
    let err = lobby::replay(&url, &waiting)
        .await
        .expect_err("the battle has not finished");
    assert!(
        matches!(
            err,
            SessionError::Refused {
                code: ErrorCode::NotFinished,
                ..
            }
        ),
        "{err}"
    );
    let sentence = refusal(&err, &url, &waiting).expect("a sentence");
    assert!(
        sentence.starts_with(&format!("battle {waiting} is still being played"))
            && sentence.contains(&format!("watch {waiting}")),
        "{sentence}"
    );
    server.shutdown().await;
}
