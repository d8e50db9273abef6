//! The message decoder on arbitrary text: it never panics, and a message it accepts reads
//! back the same after the client library writes it again.

#![no_main]

use battle_protocol::ClientMsg;
use battle_server::connection::decode::decode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = decode(text) {
        let again = serde_json::to_string(&msg).expect("a client message serializes");
        let back: ClientMsg = decode(&again).expect("what was accepted is accepted again");
        assert_eq!(back, msg, "{text}");
    }
});
