//! The web page in a real browser: Chromium, driven by the scripts in `tests/browser/`
//! through playwright-core, opens the page, and a visitor watches a battle between the
//! server's bots to its end (`spectate.mjs`; one of its patches lost and one broken on the
//! way, so the page must resync, and its final view must be the test's own), takes a free
//! seat and plays a synergy battle against a bot from its legal actions (`play.mjs`), and
//! fills a gambit open entry's form before starting the fight. Each scenario saves a
//! screenshot, which must not be blank.
//!
//! Ignored by default: they need Chromium (`/usr/bin/chromium`, or `BATTLE_CHROMIUM`), Node
//! (`node`, or `BATTLE_NODE`) and `npm ci` in `tests/browser`; `.ci/browser` installs those
//! and runs them. The browser opens the page the test server serves on its own port; with
//! `BATTLE_PAGE_URL` it opens that copy of the page instead (say
//! `python3 -m http.server -d server/web 8000` and `http://127.0.0.1:8000/`), told the test
//! server's address with `?server=`. Screenshots go to `BATTLE_SCREENSHOT_DIR` (default: the
//! temporary directory).

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use battle_e2e::battle_server::RunningServer;
use battle_e2e::{check_finished, drive, start_server, Client, Create, Drive};
use serde_json::{json, Value};

/// The longest a browser script may run before it is stopped and the test fails (each script
/// bounds itself well below this).
const SCRIPT_LIMIT: Duration = Duration::from_secs(150);

/// The bots' pace in the watched battle: slow enough that the page sees it being played, with
/// the patches it tampers with (a synergy battle between bots takes some 20 to 80 moves),
/// quick enough to end soon.
const WATCHED_PACE_MS: u64 = 400;

/// Only one browser at a time: two at once on a small machine make every wait slower.
static BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// `tests/browser/`, where the scripts and their `node_modules` are.
fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("browser")
}

/// Where the scenario `name` saves its screenshot.
fn screenshot_path(name: &str) -> PathBuf {
    let dir = std::env::var_os("BATTLE_SCREENSHOT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    std::fs::create_dir_all(&dir).expect("the screenshot directory can be made");
    dir.join(format!("battle-browser-{name}-{}.png", std::process::id()))
}

/// The address the browser opens: `BATTLE_PAGE_URL` with `?server=` the test server, or the
/// test server itself, which must then answer a plain `GET /` with the page.
fn page_url(server: &RunningServer) -> String {
    if let Ok(base) = std::env::var("BATTLE_PAGE_URL") {
        let join = if base.contains('?') { '&' } else { '?' };
        return format!("{base}{join}server={}", server.url());
    }
    let answer = plain_get(server, "/");
    assert!(
        answer.starts_with("HTTP/1.1 200") && answer.contains("<html"),
        "the server does not serve the page at / (it answered {:?}); to run against another \
         copy of the page, set BATTLE_PAGE_URL (e.g. `python3 -m http.server -d server/web \
         8000` and BATTLE_PAGE_URL=http://127.0.0.1:8000/)",
        answer.lines().next().unwrap_or("nothing")
    );
    format!("http://{}/", server.addr)
}

/// The server's whole answer to a plain HTTP `GET path`, as text (lossy), within a few
/// seconds.
fn plain_get(server: &RunningServer, path: &str) -> String {
    let mut stream = std::net::TcpStream::connect(server.addr).expect("the server accepts");
    let limit = Some(Duration::from_secs(5));
    stream.set_read_timeout(limit).expect("a non-zero timeout");
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    );
    stream
        .write_all(request.as_bytes())
        .expect("the request is sent");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// Runs `node tests/browser/<script> URL OUT` with `env` added, its output shown as it runs;
/// panics unless it exits with 0 within [`SCRIPT_LIMIT`].
async fn run_script(script: &str, url: &str, out: &Path, env: &[(&str, &str)]) {
    let dir = scripts_dir();
    assert!(
        dir.join("node_modules/playwright-core").is_dir(),
        "{} has no node_modules/playwright-core: run `npm ci` there (or .ci/browser)",
        dir.display()
    );
    let node = std::env::var("BATTLE_NODE").unwrap_or_else(|_| "node".into());
    let mut command = Command::new(&node);
    command
        .arg(script)
        .arg(url)
        .arg(out)
        .current_dir(&dir)
        .stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    eprintln!("browser: node {script} {url} {}", out.display());
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {node} (is Node installed?): {e}"));
    let script = script.to_string();
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        loop {
            match child.try_wait().expect("the script's status can be read") {
                Some(status) => {
                    assert!(status.success(), "{script} failed ({status}): see above");
                    return;
                }
                None if started.elapsed() > SCRIPT_LIMIT => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("{script} ran longer than {SCRIPT_LIMIT:?} and was stopped");
                }
                None => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    })
    .await
    .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
}

/// Asserts that the PNG at `path` shows a drawn page: a sensible size, many colours, and a
/// good share of pixels that are not the background (its most common colour).
fn assert_not_blank(path: &Path) {
    let file = std::fs::File::open(path)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}", path.display()));
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder
        .read_info()
        .unwrap_or_else(|e| panic!("{} is not a PNG: {e}", path.display()));
    let size = reader
        .output_buffer_size()
        .expect("a screenshot's size fits in memory");
    let mut buffer = vec![0; size];
    let frame = reader
        .next_frame(&mut buffer)
        .unwrap_or_else(|e| panic!("{} cannot be decoded: {e}", path.display()));
    assert_eq!(
        frame.bit_depth,
        png::BitDepth::Eight,
        "{}: a screenshot has 8-bit channels",
        path.display()
    );
    let channels = frame.color_type.samples();
    assert!(
        channels >= 3,
        "{}: a screenshot is in colour, not {:?}",
        path.display(),
        frame.color_type
    );
    let (width, height) = (frame.width, frame.height);
    assert!(
        width >= 800 && height >= 600,
        "{}: {width}x{height} is too small for the page",
        path.display()
    );
    let pixels = &buffer[..frame.buffer_size()];
    let mut counts: HashMap<[u8; 3], u64> = HashMap::new();
    for pixel in pixels.chunks_exact(channels) {
        *counts.entry([pixel[0], pixel[1], pixel[2]]).or_default() += 1;
    }
    let total = u64::from(width) * u64::from(height);
    let background = counts.values().copied().max().unwrap_or(0);
    let drawn = total - background;
    let colours: HashSet<_> = counts.keys().collect();
    eprintln!(
        "browser: {} is {width}x{height}, {} colours, {:.1}% not background",
        path.display(),
        colours.len(),
        drawn as f64 * 100.0 / total as f64
    );
    assert!(
        colours.len() >= 100,
        "{}: only {} colours: the page looks blank",
        path.display(),
        colours.len()
    );
    assert!(
        drawn * 10 >= total,
        "{}: only {drawn} of {total} pixels differ from the background",
        path.display()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium and Node; .ci/browser runs it"]
async fn a_visitor_watches_a_bot_battle_to_its_end() {
    let _one_browser = BROWSER.lock().await;
    let server = start_server().await;
    let url = page_url(&server);
    let mut host = Client::connect(&server, "host").await;
    let battle_id = host
        .create(
            Create::synergy(Value::Null)
                .bots(vec![0, 1])
                .pace_ms(WATCHED_PACE_MS),
        )
        .await;
    // The test watches too, to the end, checking every patch as the page should apply it.
    let mut spectator = Client::connect(&server, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    let out = screenshot_path("spectate");
    let view_out = out.with_extension("json");
    let view_path = view_out.to_str().expect("the temporary path is UTF-8");
    let env = [
        ("BATTLE_ID", battle_id.as_str()),
        ("BATTLE_EXPECT_LIVE", "1"),
        ("BATTLE_TAMPER", "1"),
        ("BATTLE_VIEW_OUT", view_path),
    ];
    let watching = Drive::watcher();
    let ((), report) = tokio::join!(
        run_script("spectate.mjs", &url, &out, &env),
        drive(&mut spectator, &mut watch, &watching),
    );
    check_finished(&watch, "spectator");
    assert!(report.changes >= 10, "a played battle: {report:?}");
    // The page's patches (and resyncs) built the very view the test's client built.
    let page_view: Value = serde_json::from_slice(
        &std::fs::read(&view_out).unwrap_or_else(|e| panic!("no view at {view_path}: {e}")),
    )
    .expect("the script writes the view as JSON");
    let view = watch.view().expect("a finished view");
    assert!(
        page_view == *view,
        "the page's final view differs from the test's:\n page: {page_view}\n test: {view}"
    );
    let _ = std::fs::remove_file(&view_out);
    assert_not_blank(&out);
    server.shutdown().await;
}

/// After a visitor played a battle in the page: it is over, its seat 0 was held by a person
/// (not a bot), and a line of its log shows the visitor's doing (`move_words`).
async fn assert_played_by_the_page(server: &RunningServer, battle_id: &str, move_words: &str) {
    let mut after = Client::connect(server, "after").await;
    let tracker = after.spectate(battle_id).await;
    let view = tracker.view().expect("a snapshot");
    assert_eq!(
        view["status"], "finished",
        "the page played to the end: {view}"
    );
    assert!(
        view["outcome"]["summary"]
            .as_str()
            .is_some_and(|s| !s.is_empty()),
        "an outcome with a summary: {view}"
    );
    assert_ne!(view["seats"][0], "bot", "seat 0 was the page's: {view}");
    assert_ne!(view["seats"][0], "free", "seat 0 was taken: {view}");
    let log = view["game"]["log"].as_array().expect("a log");
    assert!(
        log.iter()
            .filter_map(Value::as_str)
            .any(|line| line.contains(move_words)),
        "no line of the log has {move_words:?}; its first lines: {:?}",
        &log[..log.len().min(8)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium and Node; .ci/browser runs it"]
async fn a_visitor_takes_a_free_seat_and_plays_to_the_end() {
    let _one_browser = BROWSER.lock().await;
    let server = start_server().await;
    let url = page_url(&server);
    let mut host = Client::connect(&server, "host").await;
    let battle_id = host
        .create(Create::synergy(json!({"mode": "pvp"})).bots(vec![1]))
        .await;
    let out = screenshot_path("play");
    let env = [
        ("BATTLE_ID", battle_id.as_str()),
        ("PLAY_STRICT", "1"),
        ("PLAY_PREFER", "play_card,end_turn"),
    ];
    run_script("play.mjs", &url, &out, &env).await;
    assert_not_blank(&out);
    let stem = out
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("the name is UTF-8");
    assert_not_blank(&out.with_file_name(format!("{stem}-playing.png")));
    assert_played_by_the_page(&server, &battle_id, "Player 1 plays").await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium and Node; .ci/browser runs it"]
async fn a_visitor_fills_an_open_entry_and_starts_the_fight() {
    let _one_browser = BROWSER.lock().await;
    let server = start_server().await;
    let url = page_url(&server);
    let mut host = Client::connect(&server, "host").await;
    let battle_id = host
        .create(Create::of("gambit", json!({"mode": "pvp", "tick_ms": 20})).bots(vec![1]))
        .await;
    let out = screenshot_path("open-entry");
    let env = [
        ("BATTLE_ID", battle_id.as_str()),
        ("PLAY_STRICT", "1"),
        ("PLAY_PREFER", "start"),
    ];
    run_script("play.mjs", &url, &out, &env).await;
    assert_not_blank(&out);
    // The form's rule was accepted (PLAY_STRICT, so nothing the page sent was refused), and
    // the fight began: the page's `start` was the first or the second of the two.
    assert_played_by_the_page(&server, &battle_id, "Both parties are ready").await;
    server.shutdown().await;
}
