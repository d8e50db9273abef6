//! Tests of the outbox: the frame and byte bounds, the direct and queued writes, frames held
//! for a commit.

use super::*;

#[test]
fn full_queue_reports_lagging_asks_for_a_close_and_drops_the_queue() {
    let (outbox, mut tap) = Outbox::detached(1);
    assert_eq!(outbox.offer("a"), Offer::Queued);
    assert_eq!(outbox.offer("b"), Offer::Lagging);
    assert_eq!(tap.close_code(), Some(1013));
    assert_eq!(outbox.offer("c"), Offer::Closed, "nothing after the close");
    assert_eq!(tap.try_recv(), Err(Empty), "the queue went with the close");
    assert_eq!(outbox.queued_bytes(), 0);
    drop(tap);
    assert_eq!(outbox.offer("d"), Offer::Closed);
}

#[test]
fn queued_bytes_follow_every_push_and_pop() {
    let (outbox, mut tap) = Outbox::detached(8);
    let (a, bc) = (Frame::text("a"), [Frame::text("bb"), Frame::text("ccc")]);
    let all = a.len() + bc.iter().map(Frame::len).sum::<usize>();
    assert_eq!(outbox.offer_frame(a.clone()), Offer::Queued);
    assert_eq!(outbox.queued_bytes(), a.len());
    assert_eq!(outbox.offer_frames(bc), Offer::Queued);
    assert_eq!(outbox.queued_bytes(), all);
    assert_eq!(tap.try_recv(), Ok(Utf8Bytes::from("a")));
    assert_eq!(outbox.queued_bytes(), all - a.len());
    while tap.try_recv().is_ok() {}
    assert_eq!(outbox.queued_bytes(), 0);
}

#[test]
fn the_byte_bound_closes_with_1013_and_frees_the_queue_at_once() {
    // Room for many frames but 100 bytes: 3-byte frames (2 of header) fit 33 times.
    let (outbox, mut tap) = Outbox::detached_with(1_000, 100);
    let frame = Frame::text("x");
    for _ in 0..100 / frame.len() {
        assert_eq!(outbox.offer_frame(frame.clone()), Offer::Queued);
    }
    assert!(outbox.queued_bytes() <= 100);
    assert_eq!(outbox.offer_frame(frame.clone()), Offer::Lagging);
    assert_eq!(tap.close_code(), Some(1013));
    assert_eq!(outbox.queued_bytes(), 0, "freed at once, not by the writer");
    assert_eq!(tap.try_recv(), Err(Empty));
    assert_eq!(outbox.offer_frame(frame), Offer::Closed);
}

#[test]
fn a_frame_larger_than_the_bound_passes_alone_but_not_behind_others() {
    let big = Frame::text(&"y".repeat(500));
    let (outbox, mut tap) = Outbox::detached_with(8, 100);
    assert_eq!(
        outbox.offer_frame(big.clone()),
        Offer::Queued,
        "nothing queued"
    );
    assert_eq!(outbox.queued_bytes(), big.len());
    assert_eq!(
        outbox.offer("z"),
        Offer::Lagging,
        "behind a frame over the bound"
    );
    assert_eq!(tap.try_recv(), Err(Empty));
    // Frames offered together count together.
    let (outbox, _tap) = Outbox::detached_with(8, 100);
    assert_eq!(outbox.offer("a"), Offer::Queued);
    let pair = [Frame::text(&"b".repeat(60)), Frame::text(&"c".repeat(60))];
    assert_eq!(outbox.offer_frames(pair), Offer::Lagging);
    assert_eq!(outbox.queued_bytes(), 0);
}

#[tokio::test]
async fn a_lagging_connection_keeps_only_the_frame_the_socket_took_part_of() {
    use tokio::io::AsyncReadExt;
    let (outbox, mut client) = pair_with(64, 256 * 1024).await;
    let socket = outbox.socket().expect("a connected outbox");
    socket2::SockRef::from(socket)
        .set_send_buffer_size(super::super::SEND_BUFFER_BYTES)
        .expect("setsockopt");
    // Far more than the socket buffers take: the first frame is written in part.
    let big = Frame::text(&"w".repeat(1024 * 1024));
    assert_eq!(outbox.offer_frame(big.clone()), Offer::Queued);
    assert_eq!(outbox.queued_bytes(), big.len());
    let small = Frame::text(&"s".repeat(100 * 1024));
    assert_eq!(outbox.offer_frame(small.clone()), Offer::Lagging);
    assert_eq!(
        outbox.queued_bytes(),
        big.len(),
        "the frame begun stays, so the close frame can follow it"
    );
    // The client reads: the whole big frame, then the close frame (1013).
    let close = Frame::close(CloseCode::Again, LAGGING);
    let mut got = vec![0u8; big.len() + close.len()];
    tokio::time::timeout(std::time::Duration::from_secs(10), async {
        // The writer gives a closing connection only a short grace: read at once.
        let _writer = tokio::spawn(super::super::writer::run(outbox.clone()));
        client.read_exact(&mut got).await
    })
    .await
    .expect("read in time")
    .expect("the frame and the close arrive");
    assert_eq!(&got[..big.len()], big.bytes());
    assert_eq!(&got[big.len()..], close.bytes());
}

#[test]
fn an_outbox_is_closed_from_the_close_asked_for_or_its_end() {
    let (outbox, tap) = Outbox::detached(4);
    assert!(!outbox.is_closed());
    outbox.close(CloseCode::Normal, "bye");
    assert!(outbox.is_closed(), "closing: nothing more is sent");
    let (outbox, tap2) = Outbox::detached(4);
    drop(tap2);
    assert!(outbox.is_closed(), "ended");
    drop(tap);
}

#[test]
fn the_first_close_reason_wins() {
    let (outbox, tap) = Outbox::detached(4);
    outbox.close(CloseCode::Size, "frame too large");
    outbox.close_lagging();
    assert_eq!(tap.close_code(), Some(1009));
}

/// A connected pair: the server side's outbox and the client side's raw stream.
async fn pair(capacity: usize) -> (Outbox, TcpStream) {
    pair_with(capacity, usize::MAX).await
}

/// [`pair`], bounded in bytes too.
async fn pair_with(capacity: usize, max_bytes: usize) -> (Outbox, TcpStream) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let client = TcpStream::connect(addr).await.expect("connect");
    let (accepted, _) = listener.accept().await.expect("accept");
    (
        Outbox::new(accepted, capacity, max_bytes, None, Counter::noop()),
        client,
    )
}

#[tokio::test]
async fn frames_reach_the_socket_in_order_without_a_writer() {
    use tokio::io::AsyncReadExt;
    let (outbox, mut client) = pair(4).await;
    let frames: Vec<Frame> = (0..100).map(|i| Frame::text(&format!("m{i}"))).collect();
    for frame in &frames {
        assert_eq!(outbox.offer_frame(frame.clone()), Offer::Queued);
    }
    let expected: Vec<u8> = frames.iter().flat_map(|f| f.bytes().to_vec()).collect();
    let mut got = vec![0u8; expected.len()];
    client
        .read_exact(&mut got)
        .await
        .expect("all frames arrive");
    assert_eq!(got, expected);
}

#[test]
fn frames_offered_together_queue_together_or_not_at_all() {
    let (outbox, mut tap) = Outbox::detached(3);
    assert_eq!(outbox.offer("a"), Offer::Queued);
    let pair = [Frame::text("b"), Frame::text("c")];
    assert_eq!(outbox.offer_frames(pair), Offer::Queued);
    for expected in ["a", "b", "c"] {
        assert_eq!(tap.try_recv(), Ok(Utf8Bytes::from(expected)));
    }
    assert_eq!(outbox.offer("d"), Offer::Queued);
    let three = [Frame::text("e"), Frame::text("f"), Frame::text("g")];
    assert_eq!(outbox.offer_frames(three), Offer::Lagging, "1 + 3 > 3");
    assert_eq!(tap.close_code(), Some(1013));
    assert_eq!(
        tap.try_recv(),
        Err(Empty),
        "none of the three was queued, and the queue went with the close"
    );
}

#[tokio::test]
async fn frames_offered_together_arrive_in_order() {
    use tokio::io::AsyncReadExt;
    let (outbox, mut client) = pair(2).await;
    // More frames than the queue holds: with nothing queued they are written at once.
    let frames: [Frame; 3] = ["reply", "snapshot", "more"].map(Frame::text);
    let expected: Vec<u8> = frames.iter().flat_map(|f| f.bytes().to_vec()).collect();
    assert_eq!(outbox.offer_frames(frames), Offer::Queued);
    assert_eq!(outbox.offer("after"), Offer::Queued);
    let after = Frame::text("after");
    let mut got = vec![0u8; expected.len() + after.len()];
    client
        .read_exact(&mut got)
        .await
        .expect("all frames arrive");
    assert_eq!(&got[..expected.len()], &expected[..]);
    assert_eq!(&got[expected.len()..], after.bytes());
}

/// A connected pair whose outbox waits for `commits`.
async fn gated_pair(commits: &Arc<Commits>) -> (Outbox, TcpStream) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let client = TcpStream::connect(addr).await.expect("connect");
    let (accepted, _) = listener.accept().await.expect("accept");
    (
        Outbox::new(
            accepted,
            8,
            usize::MAX,
            Some(commits.clone()),
            Counter::noop(),
        ),
        client,
    )
}

/// Whatever `client` can read within 50 ms.
async fn read_now(client: &mut TcpStream) -> Vec<u8> {
    use tokio::io::AsyncReadExt;
    let mut got = Vec::new();
    let mut buf = [0u8; 256];
    while let Ok(Ok(n)) =
        tokio::time::timeout(std::time::Duration::from_millis(50), client.read(&mut buf)).await
    {
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
    }
    got
}

#[tokio::test]
async fn a_frame_leaves_only_once_its_ticket_is_committed_and_keeps_its_place() {
    let commits = Arc::new(Commits::default());
    let (outbox, mut client) = gated_pair(&commits).await;
    let (change, later, reply) = (
        Frame::text("change"),
        Frame::text("later"),
        Frame::text("pong"),
    );
    assert_eq!(outbox.offer_frame_at(change.clone(), 1), Offer::Queued);
    assert_eq!(outbox.offer_frame_at(later.clone(), 2), Offer::Queued);
    // Not waiting for anything, but behind frames that wait: it keeps its place.
    assert_eq!(outbox.offer_frame(reply.clone()), Offer::Queued);
    assert!(
        read_now(&mut client).await.is_empty(),
        "nothing before the commit"
    );
    commits.advance(1);
    assert_eq!(
        read_now(&mut client).await,
        change.bytes(),
        "only what is committed"
    );
    commits.advance(2);
    let rest: Vec<u8> = [later.bytes(), reply.bytes()].concat();
    assert_eq!(read_now(&mut client).await, rest);
    // Committed already: straight into the socket.
    assert_eq!(outbox.offer_frame_at(Frame::text("now"), 2), Offer::Queued);
    assert_eq!(read_now(&mut client).await, Frame::text("now").bytes());
}

#[tokio::test]
async fn end_shuts_the_socket_down() {
    use tokio::io::AsyncReadExt;
    let (outbox, mut client) = pair(4).await;
    outbox.end();
    let mut buf = [0u8; 8];
    assert_eq!(client.read(&mut buf).await.expect("clean end"), 0);
    assert_eq!(outbox.offer("late"), Offer::Closed);
}
