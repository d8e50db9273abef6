//! The frame reader on arbitrary client bytes: it never panics, and what it makes of a
//! stream does not depend on how the stream was cut into reads (nor on pauses).

#![no_main]

use std::ops::ControlFlow;

use battle_server::connection::frame_reader::{Fed, FrameReader, Inbound};
use libfuzzer_sys::fuzz_target;

/// Largest message the reader accepts here: small, so the size limit is reached too.
const MAX_MESSAGE: usize = 4096;

/// What the reader made of a stream: each event, then how it ended.
/// `cuts` gives each read's length less one, in turn (none: one read of everything).
fn read(data: &[u8], cuts: &[u8], pause_every: Option<usize>) -> (Vec<String>, String) {
    let mut reader = FrameReader::new(MAX_MESSAGE);
    let mut events = Vec::new();
    let mut rest = data;
    let mut cuts = cuts.iter().copied().cycle();
    let mut seen = 0usize;
    while !rest.is_empty() {
        let n = cuts.next().map_or(rest.len(), |cut| usize::from(cut) + 1).min(rest.len());
        let mut chunk = rest[..n].to_vec();
        rest = &rest[n..];
        let mut fed = reader.feed(&mut chunk, |inbound| record(&mut events, &mut seen, pause_every, inbound));
        // A pause is resumed with an empty buffer until the chunk is used up.
        while let Ok(Fed::Paused) = fed {
            fed = reader.feed(&mut [], |inbound| record(&mut events, &mut seen, pause_every, inbound));
        }
        match fed {
            Ok(Fed::Done) => {}
            Ok(Fed::Closed) => return (events, "closed".into()),
            Ok(Fed::Paused) => unreachable!("resumed above"),
            Err(err) => return (events, format!("error {:?}", err.close_code())),
        }
    }
    (events, "open".into())
}

fn record(
    events: &mut Vec<String>,
    seen: &mut usize,
    pause_every: Option<usize>,
    inbound: Inbound<'_>,
) -> ControlFlow<()> {
    events.push(match inbound {
        Inbound::Text(text) => format!("text {text}"),
        Inbound::Binary(payload) => format!("binary {payload:?}"),
        Inbound::Ping(payload) => format!("ping {payload:?}"),
        Inbound::Close(code) => format!("close {code:?}"),
    });
    *seen += 1;
    match pause_every {
        Some(every) if *seen % every == 0 => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    }
}

fuzz_target!(|input: &[u8]| {
    // The first bytes choose how the stream is cut; the rest is the stream.
    let (cuts, data) = input.split_at(input.len().min(4));
    let whole = read(data, &[], None);
    let cut = read(data, if cuts.is_empty() { &[0] } else { cuts }, Some(2));
    assert_eq!(whole, cut, "the same stream read in other pieces");
});
