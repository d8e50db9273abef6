//! Tests of what nodes send each other: every message reads back as it was written.

use super::*;
use serde_json::json;

#[test]
fn notes_read_back_as_they_were_written() {
    let notes = [
        Note::Frames {
            conn: 7,
            battle: "b1".into(),
            bytes: Bytes::from_static(b"\x81\x05hello\n\x81\x01x"),
        },
        Note::Admit {
            conn: 7,
            battle: "b1".into(),
            viewer: Viewer::Seat(1),
            seq: 4,
            token_hash: Some("ab12".into()),
        },
        Note::Admit {
            conn: 8,
            battle: "b1".into(),
            viewer: Viewer::Spectator,
            seq: 1,
            token_hash: None,
        },
        Note::Dismiss {
            conn: 9,
            battle: "b2".into(),
        },
        Note::Close {
            conn: 9,
            battle: "b2".into(),
            code: 1013,
            reason: "too slow to keep up".into(),
        },
        Note::NotHere {
            conn: 3,
            battle: "b3".into(),
        },
    ];
    for note in notes {
        let back = Note::decode(Bytes::from(note.encode())).expect("readable");
        assert_eq!(back, note);
    }
    assert!(Note::decode(Bytes::from_static(b"x 1 b\n")).is_err());
    assert!(Note::decode(Bytes::from_static(b"f one b\n")).is_err());
    assert!(Note::decode(Bytes::from_static(b"no line")).is_err());
}

#[test]
fn changes_carry_their_viewer_seq_and_frame() {
    let frame = b"\x81\x02{}";
    for viewer in [Viewer::Seat(0), Viewer::Seat(3), Viewer::Spectator] {
        let got = decode_change(Bytes::from(encode_change(viewer, 7, frame))).expect("ok");
        assert_eq!(
            got,
            Change::Frame {
                viewer,
                seq: 7,
                frame: Bytes::from_static(frame)
            }
        );
        let beacon = decode_change(Bytes::from(encode_beacon(viewer, 9))).expect("ok");
        assert_eq!(beacon, Change::Beacon { viewer, seq: 9 });
    }
    assert!(decode_change(Bytes::from_static(b"x s 1\n")).is_err());
}

#[test]
fn the_seq_of_a_frame_is_read_off_its_head() {
    let patch = b"\x81\x7e\x01\x00{\"type\":\"patch\",\"battle_id\":\"b\",\"seq\":42,\"ops\":[]}";
    assert_eq!(frame_seq(patch), Some(42));
    let snapshot = b"\x81\x30{\"type\":\"snapshot\",\"battle_id\":\"b\",\"seq\":3,\"view\":{}}";
    assert_eq!(frame_seq(snapshot), Some(3));
    assert_eq!(frame_seq(b"\x81\x02{}"), None);
}

#[test]
fn inbox_entries_are_json_with_their_command() {
    let entry = InboxEntry {
        from: "n2".into(),
        conn: 12,
        battle: "b".into(),
        cmd: Forwarded::Act {
            action: json!({"kind": "end_turn"}),
            req: Some(4),
        },
    };
    let text = serde_json::to_string(&entry).expect("serializes");
    assert_eq!(
        serde_json::from_str::<Value>(&text).expect("json"),
        json!({"from": "n2", "conn": 12, "battle": "b", "cmd": "act",
               "action": {"kind": "end_turn"}, "req": 4})
    );
    assert_eq!(
        serde_json::from_str::<InboxEntry>(&text).expect("reads back"),
        entry
    );
    let reattach = InboxEntry {
        from: "n2".into(),
        conn: 1,
        battle: "b".into(),
        cmd: Forwarded::Reattach {
            role: Role::Seat {
                seat: 1,
                token_hash: "h".into(),
            },
        },
    };
    let text = serde_json::to_string(&reattach).expect("serializes");
    assert_eq!(
        serde_json::from_str::<InboxEntry>(&text).expect("reads back"),
        reattach
    );
}

#[test]
fn a_seat_for_a_matched_connection_reads_back() {
    let seat = InboxEntry {
        from: "n1/abcd".into(),
        conn: 5,
        battle: "b".into(),
        cmd: Forwarded::Seat {
            to: "n2/wxyz".into(),
            n: 3,
            seat: 1,
            setup: Some(json!({"deck": ["C001"]})),
            req: Some(9),
        },
    };
    let text = serde_json::to_string(&seat).expect("serializes");
    assert_eq!(
        serde_json::from_str::<Value>(&text).expect("json"),
        json!({"from": "n1/abcd", "conn": 5, "battle": "b", "cmd": "seat", "to": "n2/wxyz",
               "n": 3, "seat": 1, "setup": {"deck": ["C001"]}, "req": 9})
    );
    assert_eq!(
        serde_json::from_str::<InboxEntry>(&text).expect("reads"),
        seat
    );
    let unmatched = InboxEntry {
        from: "n1/abcd".into(),
        conn: 5,
        battle: String::new(),
        cmd: Forwarded::Unmatched {
            to: "n2/wxyz".into(),
            n: 3,
            reason: "server_busy".into(),
            req: None,
        },
    };
    let text = serde_json::to_string(&unmatched).expect("serializes");
    assert_eq!(
        serde_json::from_str::<InboxEntry>(&text).expect("reads"),
        unmatched
    );
}

#[test]
fn moves_read_back() {
    assert_eq!(
        decode_moved(&encode_moved("b1", "n2/x9")),
        Some(("b1", "n2/x9"))
    );
    assert_eq!(decode_moved("gone b1"), None);
}
