//! Disk faults, over a real `battle-server` process whose data directory is on a small
//! filesystem the test mounts (as root; skipped, saying so, where mounting is not allowed):
//!
//! - a tmpfs filled up: moves that cannot be committed are refused with `store_unavailable`
//!   (a move already taken when the disk filled waits, shown to nobody), everything that
//!   needs no write goes on (watching, `list`, replays, `/health` saying `degraded`), and the
//!   server recovers by itself once space returns;
//! - an ext4 filesystem that turns read-only (the kernel's reaction to a disk error, set off
//!   through `/sys/fs/ext4/<dev>/trigger_fs_error`; `mount -o remount,ro` is refused while
//!   the server holds its files open for writing): the same refusals and reads.
//!
//! After each, the server is killed with SIGKILL and started again on the directory: every
//! move any client was shown is there, and nothing else. (A filesystem that turns read-only
//! on an error never writes back what was still in memory, as after a power loss: that
//! server runs with `--fsync`, as a server must that is to survive one.)

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use battle_e2e::battle_client::ViewTracker;
use battle_e2e::battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use battle_e2e::http::{get, scrape};
use battle_e2e::process::{machine_speed, ServerProcess};
use battle_e2e::{fill_first, public_game, settle, Client, Create};
use serde_json::json;

/// A filesystem mounted for one test, unmounted when dropped.
struct Mounted {
    path: PathBuf,
    /// The image file of a loop-mounted filesystem.
    image: Option<PathBuf>,
}

impl Mounted {
    /// A tmpfs of `size` (e.g. `16m`), or `None` (said on stderr) where mounting is refused.
    fn tmpfs(name: &str, size: &str) -> Option<Mounted> {
        let path = scratch(name);
        std::fs::create_dir_all(&path).expect("a mount point");
        let size = format!("size={size}");
        if !run(
            "mount",
            &["-t", "tmpfs", "-o", &size, "tmpfs", path_str(&path)],
        ) {
            eprintln!(
                "skipped: cannot mount a tmpfs at {} (the disk-fault tests need root, or \
                 CAP_SYS_ADMIN)",
                path.display()
            );
            return None;
        }
        Some(Mounted { path, image: None })
    }

    /// An ext4 filesystem in a 32 MiB image, loop-mounted to turn read-only on an error
    /// (`errors=remount-ro`), or `None` (said on stderr) where that cannot be done.
    fn ext4(name: &str) -> Option<Mounted> {
        let path = scratch(name);
        let image = path.with_extension("img");
        std::fs::create_dir_all(&path).expect("a mount point");
        let file = std::fs::File::create(&image).expect("an image file");
        file.set_len(32 << 20).expect("32 MiB");
        drop(file);
        let mkfs = ["mkfs.ext4", "/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4"]
            .into_iter()
            .find(|mkfs| run(mkfs, &["-q", "-F", path_str(&image)]));
        if mkfs.is_none() {
            eprintln!("skipped: mkfs.ext4 is not available to make a filesystem to fault");
            return None;
        }
        let mounted = Mounted {
            path,
            image: Some(image),
        };
        if !mounted.mount_image() {
            eprintln!(
                "skipped: cannot loop-mount an ext4 image at {} (needs root and a loop device)",
                mounted.path.display()
            );
            return None;
        }
        Some(mounted)
    }

    fn mount_image(&self) -> bool {
        let image = self.image.as_ref().expect("an image");
        run(
            "mount",
            &[
                "-o",
                "loop,errors=remount-ro",
                path_str(image),
                path_str(&self.path),
            ],
        )
    }

    /// Fill the filesystem up with a file of zeros; how many bytes it took.
    fn fill(&self) -> u64 {
        let mut filler = std::fs::File::create(self.path.join("filler")).expect("a filler");
        let chunk = vec![0u8; 64 << 10];
        let mut written = 0;
        loop {
            match filler.write(&chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => written += n as u64,
            }
        }
        let _ = filler.write_all(&[0]);
        written
    }

    /// Give the space back.
    fn unfill(&self) {
        std::fs::remove_file(self.path.join("filler")).expect("the filler goes");
    }

    /// The ext4 filesystem turns read-only, as the kernel makes it on a disk error.
    fn turn_read_only(&self) {
        let out = Command::new("findmnt")
            .args(["-n", "-o", "SOURCE", path_str(&self.path)])
            .output()
            .expect("findmnt runs");
        let source = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let device = Path::new(&source)
            .file_name()
            .expect("a device")
            .to_string_lossy()
            .into_owned();
        std::fs::write(
            format!("/sys/fs/ext4/{device}/trigger_fs_error"),
            "disk fault test",
        )
        .expect("an ext4 error is set off");
        assert!(
            std::fs::write(self.path.join("probe"), "x").is_err(),
            "the filesystem is read-only now"
        );
    }

    /// Unmount, repair (the error is recorded in the filesystem), and mount again writable.
    fn repair(&self) {
        assert!(run("umount", &[path_str(&self.path)]), "unmounted");
        let image = self.image.as_ref().expect("an image");
        let fsck = ["e2fsck", "/usr/sbin/e2fsck", "/sbin/e2fsck"];
        assert!(
            fsck.iter().any(|e2fsck| {
                Command::new(e2fsck)
                    .args(["-fy", path_str(image)])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status()
                    .is_ok_and(|s| s.code().is_some_and(|c| c <= 1))
            }),
            "e2fsck repairs the filesystem"
        );
        assert!(self.mount_image(), "mounted again");
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        run("umount", &[path_str(&self.path)]);
        let _ = std::fs::remove_dir_all(&self.path);
        if let Some(image) = &self.image {
            let _ = std::fs::remove_file(image);
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("battle-disk-{name}-{}", std::process::id()))
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Run a command quietly; whether it succeeded.
fn run(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// What became of a move.
#[derive(Debug, PartialEq)]
enum Moved {
    /// Answered: committed and shown.
    Acked,
    /// Refused with `store_unavailable`: nothing was done.
    Refused,
    /// No answer in time: taken, and waiting for its commit.
    Held,
}

/// A PvP battle with both players and a spectator, each with the view it was shown.
struct Table {
    battle: String,
    players: [Client; 2],
    views: [ViewTracker; 2],
    tokens: [String; 2],
    spectator: Client,
    watched: ViewTracker,
}

impl Table {
    async fn open(url: &str) -> Table {
        let mut p0 = Client::connect_url(url, "p0").await;
        let battle = p0.create(Create::synergy(json!({"mode": "pvp"}))).await;
        let seat0 = p0.join(&battle, Some(0)).await;
        let mut p1 = Client::connect_url(url, "p1").await;
        let seat1 = p1.join(&battle, Some(1)).await;
        let mut spectator = Client::connect_url(url, "spectator").await;
        let watched = spectator.spectate(&battle).await;
        let mut table = Table {
            battle,
            players: [p0, p1],
            views: [seat0.tracker, seat1.tracker],
            tokens: [seat0.token, seat1.token],
            spectator,
            watched,
        };
        table.settle().await;
        table
    }

    /// Apply everything on its way to every client.
    async fn settle(&mut self) {
        for (client, view) in self.players.iter_mut().zip(self.views.iter_mut()) {
            settle(client, view).await;
        }
        settle(&mut self.spectator, &mut self.watched).await;
    }

    /// The seat whose move it is, as the players were shown.
    fn mover(&self) -> usize {
        if self.views[0].my_turn() {
            0
        } else {
            1
        }
    }

    /// The mover's first legal move, and what became of it within `wait`.
    async fn try_move(&mut self, wait: Duration) -> Moved {
        let seat = self.mover();
        let entry = self.views[seat]
            .legal_actions()
            .first()
            .cloned()
            .expect("a legal move");
        let battle = self.battle.clone();
        let req = self.players[seat].act(&battle, fill_first(&entry)).await;
        self.answer(seat, req, wait).await
    }

    /// Wait (at most `wait`) for the answer to `req` on `seat`'s connection.
    async fn answer(&mut self, seat: usize, req: u64, wait: Duration) -> Moved {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let frame =
                tokio::time::timeout_at(deadline, self.players[seat].conn.recv_text()).await;
            let Ok(frame) = frame else {
                return Moved::Held;
            };
            let msg = battle_client::decode(frame.expect("the connection is open"))
                .expect("a server message");
            match &msg {
                ServerMsg::Error {
                    code: ErrorCode::StoreUnavailable,
                    req: got,
                    message,
                    ..
                } if *got == Some(req) => {
                    assert!(message.contains("cannot be written now"), "{message}");
                    return Moved::Refused;
                }
                ServerMsg::Patch { req: got, .. } | ServerMsg::Snapshot { req: got, .. } => {
                    self.views[seat].apply(&msg).expect("the patch applies");
                    if *got == Some(req) {
                        self.settle().await;
                        return Moved::Acked;
                    }
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    /// Moves acknowledged one after the other: `count` of them.
    async fn play(&mut self, count: usize) {
        for _ in 0..count {
            assert_eq!(self.try_move(Duration::from_secs(10)).await, Moved::Acked);
        }
    }

    /// Nothing reaches the other player nor the spectator within `quiet`.
    async fn nothing_shown(&mut self, to_the_other_of: usize, quiet: Duration) {
        let other = &mut self.players[1 - to_the_other_of];
        let got = tokio::time::timeout(quiet, other.conn.recv_text()).await;
        assert!(got.is_err(), "the other player was shown {got:?}");
        let got = tokio::time::timeout(quiet, self.spectator.conn.recv_text()).await;
        assert!(got.is_err(), "the spectator was shown {got:?}");
    }
}

/// A finished battle on `url` (a player resigns), for its replay.
async fn finished_battle(url: &str) -> String {
    let mut p0 = Client::connect_url(url, "resigner").await;
    let battle = p0
        .create(Create::synergy(json!({"mode": "pve"})).bots(vec![1]))
        .await;
    let mut seated = p0.join(&battle, Some(0)).await;
    let req = p0.req();
    p0.send(ClientMsg::Resign {
        battle_id: battle.clone(),
        req: Some(req),
    })
    .await;
    // Its answer is the patch that ends the battle.
    loop {
        let msg = p0.expect_msg().await;
        seated.tracker.apply(&msg).expect("applies");
        if let ServerMsg::Patch { req: got, .. } | ServerMsg::Snapshot { req: got, .. } = &msg {
            if *got == Some(req) {
                break;
            }
        }
    }
    assert!(seated.tracker.is_over(), "the resignation ended it");
    battle
}

/// A server on a data directory, with a battle finished (for its replay), one that nobody
/// plays (to watch), and a table whose players made four moves.
struct Scene {
    server: ServerProcess,
    finished: String,
    quiet: String,
    table: Table,
}

impl Scene {
    async fn set(dir: &Path, flags: &[&str]) -> Scene {
        let server = ServerProcess::start(dir, flags);
        let finished = finished_battle(&server.url).await;
        let quiet = Client::connect_url(&server.url, "quiet")
            .await
            .create(Create::synergy(json!({"mode": "pvp"})))
            .await;
        let mut table = Table::open(&server.url).await;
        table.play(4).await;
        Scene {
            server,
            finished,
            quiet,
            table,
        }
    }
}

/// Moves until one is refused with `store_unavailable` (bounded); whether one was held on
/// the way (taken when the fault began), and by which seat.
async fn until_refused(table: &mut Table) -> Option<usize> {
    let mut held = None;
    for _ in 0..300 {
        let seat = table.mover();
        match table.try_move(Duration::from_secs(2)).await {
            Moved::Acked => {}
            Moved::Held => {
                assert!(
                    held.is_none(),
                    "only the move under way when the fault began waits"
                );
                held = Some(seat);
            }
            Moved::Refused => return held,
        }
    }
    panic!("300 moves went through a full or read-only disk");
}

/// While the store is out: `/health` says degraded, and what needs no write is served.
async fn reads_go_on(server: &ServerProcess, quiet_battle: &str, finished: &str) {
    let health = get(server.addr, "/health").await.json();
    assert_eq!(health["status"], "degraded", "{health}");
    assert_eq!(health["store"], "unavailable", "{health}");
    assert!(health["store_problem"].is_string(), "{health}");
    assert_eq!(
        scrape(server.addr)
            .await
            .value("battle_store_available", &[]),
        0.0
    );
    let mut reader = Client::connect_url(&server.url, "reader").await;
    let listed: Vec<String> = reader
        .list()
        .await
        .into_iter()
        .map(|b| b.battle_id)
        .collect();
    assert!(listed.contains(&quiet_battle.to_string()), "{listed:?}");
    let watched = reader.spectate(quiet_battle).await;
    assert!(watched.view().is_some());
    let req = reader.req();
    reader
        .send(ClientMsg::Replay {
            battle_id: finished.to_string(),
            req: Some(req),
        })
        .await;
    match reader.expect_msg().await {
        ServerMsg::Replay { req: got, .. } => assert_eq!(got, Some(req)),
        other => panic!("a replay is served while the disk takes no writes: {other:?}"),
    }
    // What needs a write is refused, saying why.
    let req = reader.req();
    reader
        .send(Create::synergy(json!({"mode": "pvp"})).message(Some(req)))
        .await;
    reader
        .expect_error(ErrorCode::StoreUnavailable, Some(req))
        .await;
}

/// A server started again on `dir` (the one before killed): both players take their seats
/// back and find the battle exactly as they were last shown it.
async fn comes_back_as_shown(dir: &Path, table: &Table) {
    let again = ServerProcess::start(dir, &machine_speed());
    let health = get(again.addr, "/health").await.json();
    assert_eq!(health["quarantined"], 0, "{health}");
    for (seat, token) in table.tokens.iter().enumerate() {
        let mut client = Client::connect_url(&again.url, &format!("p{seat} again")).await;
        let seated = client.rejoin(&table.battle, token).await;
        assert_eq!(
            public_game(&seated.tracker),
            public_game(&table.views[seat]),
            "p{seat}: the battle comes back as it was last shown, no less and no more"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_moves_serves_reads_and_recovers_when_space_returns() {
    let Some(disk) = Mounted::tmpfs("full", "16m") else {
        return;
    };
    let dir = disk.path.join("data");
    let Scene {
        server,
        finished,
        quiet,
        mut table,
    } = Scene::set(&dir, &machine_speed()).await;

    let filled = disk.fill();
    eprintln!("the filesystem is full ({filled} bytes of filler)");
    let held = until_refused(&mut table).await;
    eprintln!("moves are refused; one was held: {held:?}");
    if let Some(seat) = held {
        table.nothing_shown(seat, Duration::from_secs(1)).await;
    }
    reads_go_on(&server, &quiet, &finished).await;

    disk.unfill();
    if let Some(seat) = held {
        // The move taken when the disk filled is committed now, and shown to everyone.
        let mut shown = false;
        for _ in 0..200 {
            let msg =
                tokio::time::timeout(Duration::from_secs(10), table.players[seat].expect_msg())
                    .await
                    .expect("the held move is shown once space returns");
            let answered = matches!(
                &msg,
                ServerMsg::Patch { req: Some(_), .. } | ServerMsg::Snapshot { req: Some(_), .. }
            );
            table.views[seat].apply(&msg).expect("applies");
            if answered {
                shown = true;
                break;
            }
        }
        assert!(shown, "the held move's answer came");
        table.settle().await;
    }
    // Recovered by itself: moves are taken again and /health says ok.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        match table.try_move(Duration::from_secs(10)).await {
            Moved::Acked => break,
            Moved::Refused => {
                assert!(tokio::time::Instant::now() < deadline, "no recovery");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Moved::Held => panic!("a move after recovery waits"),
        }
    }
    let health = get(server.addr, "/health").await.json();
    assert_eq!(health["status"], "ok", "{health}");
    table.play(2).await;
    let mut server = server;
    server.kill();
    comes_back_as_shown(&dir, &table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filesystem_turned_read_only_refuses_moves_and_loses_nothing_shown() {
    let Some(disk) = Mounted::ext4("ro") else {
        return;
    };
    let dir = disk.path.join("data");
    // A filesystem that turns read-only on a disk error never writes back what it had not
    // written yet: as after a power loss, only commits that waited for the disk (--fsync)
    // are sure to be there.
    let fsync: Vec<&str> = machine_speed().into_iter().chain(["--fsync"]).collect();
    let Scene {
        server,
        finished,
        quiet,
        mut table,
    } = Scene::set(&dir, &fsync).await;

    disk.turn_read_only();
    let held = until_refused(&mut table).await;
    eprintln!("moves are refused; one was held: {held:?}");
    if let Some(seat) = held {
        table.nothing_shown(seat, Duration::from_secs(1)).await;
    }
    reads_go_on(&server, &quiet, &finished).await;

    // Killed during the fault; the disk repaired; started again: what was shown is there,
    // and the move never shown is not.
    let mut server = server;
    server.kill();
    disk.repair();
    comes_back_as_shown(&dir, &table).await;
}
