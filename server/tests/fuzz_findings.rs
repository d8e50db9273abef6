//! Inputs the fuzz targets (`fuzz/`) found to break something, kept as regression tests:
//! each must now be handled without a panic, as its comment says.

use std::ops::ControlFlow;

use battle_server::connection::frame_reader::FrameReader;

/// A binary fragment, then a continuation frame whose 64-bit length (`0xffff...`) added to
/// what was gathered overflowed the size check.
#[test]
fn a_continuation_with_a_huge_length_is_refused_not_a_panic() {
    let mut stream = vec![
        0x02, 0x85, 0x0a, 0x81, 0x81, 0x81, 0x81, 0x81, 0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0x81, 0x5b, 0x81, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x07,
    ];
    let read = FrameReader::new(4096).feed(&mut stream, |_| ControlFlow::Continue(()));
    assert!(read.is_err(), "{read:?}");
    // The same shape on its own: a fragment, then a continuation claiming 2^64 - 1 bytes
    // (its header whole, mask included).
    let mut huge = vec![0x02, 0x80, 0, 0, 0, 0, 0x80, 0xff];
    huge.extend_from_slice(&[0xff; 8]);
    huge.extend_from_slice(&[0; 4]);
    let read = FrameReader::new(4096).feed(&mut huge, |_| ControlFlow::Continue(()));
    assert!(read.is_err(), "{read:?}");
}
