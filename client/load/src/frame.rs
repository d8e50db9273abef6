//! `Frame`: one server message as the load generator decodes it.
//!
//! A frame is decoded flat, into the handful of fields the load test reads, rather than into
//! a `ServerMsg` (serde buffers every internally tagged enum into an intermediate tree before
//! decoding it), by the load generator's own JSON [`Reader`]. A snapshot's view is decoded
//! straight into a [`Node`] tree, a patch's operations into [`Ops`]: one buffer of
//! operations and one of their paths, sized for a usual patch.
//!
//! A valid frame is a JSON object that a serde derive of these fields would accept: `type` is
//! required, every other field is optional (`null` counts as absent, except for an
//! operation's `value`), unknown fields are skipped, and a field given twice is an error.

use std::borrow::Cow;
use std::ops::Range;

use battle_protocol::{ErrorCode, Req};

use super::node::Node;
use super::patch::OpKind;
use super::reader::{DecodeError, Reader};

/// One server frame. Fields a frame type does not have stay `None`.
#[derive(Debug)]
pub struct Frame<'a> {
    /// The message type (`patch`, `snapshot`, `error`, ...).
    pub kind: Cow<'a, str>,
    /// The battle the message is about.
    pub battle_id: Option<Cow<'a, str>>,
    /// Snapshot and patch number.
    pub seq: Option<u64>,
    /// The request this message answers.
    pub req: Option<Req>,
    /// An error's code.
    pub code: Option<ErrorCode>,
    /// Why a `left` happened.
    pub reason: Option<Cow<'a, str>>,
    /// A seat's token (`joined`).
    pub token: Option<Cow<'a, str>>,
    /// A snapshot's view.
    pub view: Option<Node>,
    /// Whether the frame carried operations (they are in the [`Ops`] it was decoded with).
    pub has_ops: bool,
}

/// One decoded operation, its path kept in [`Ops`].
#[derive(Debug)]
struct Op {
    /// `None` for an operation the load test does not take (`move`, `copy`, unknown).
    kind: Option<OpKind>,
    /// Where its path lies in [`Ops::paths`].
    path: Range<usize>,
    /// The value, when given (`Some(Null)` for a JSON `null`).
    value: Option<Node>,
}

/// The operations of the last decoded patch.
#[derive(Debug, Default)]
pub struct Ops {
    ops: Vec<Op>,
    /// Every operation's path, one after the other.
    paths: String,
}

/// Operations a patch usually has at most, and bytes their paths usually take.
const USUAL_OPS: usize = 32;
const USUAL_PATH_BYTES: usize = 1024;

impl Ops {
    /// Buffers with room for a usual patch.
    pub fn with_capacity() -> Ops {
        Ops {
            ops: Vec::with_capacity(USUAL_OPS),
            paths: String::with_capacity(USUAL_PATH_BYTES),
        }
    }

    fn clear(&mut self) {
        self.ops.clear();
        self.paths.clear();
    }

    /// Take the operations out in order, as `(kind, path, value)`; the buffers stay.
    pub fn drain(&mut self) -> impl Iterator<Item = (Option<OpKind>, &str, Option<Node>)> + '_ {
        let paths = &self.paths;
        self.ops
            .drain(..)
            .map(move |op| (op.kind, &paths[op.path], op.value))
    }
}

/// Fill `slot` once; a second value for the same field is an error.
fn once<T>(reader: &Reader<'_>, slot: &mut Option<T>, value: T) -> Result<(), DecodeError> {
    if slot.replace(value).is_some() {
        return reader.fail("duplicate field");
    }
    Ok(())
}

/// A field that may be `null` (then absent).
fn optional<'a, T>(
    reader: &mut Reader<'a>,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T, DecodeError>,
) -> Result<Option<T>, DecodeError> {
    if reader.null()? {
        return Ok(None);
    }
    read(reader).map(Some)
}

impl<'a> Frame<'a> {
    /// Decode one text frame; a patch's operations replace those held in `ops`.
    pub fn decode(text: &'a str, ops: &mut Ops) -> Result<Frame<'a>, DecodeError> {
        ops.clear();
        let mut r = Reader::new(text);
        let mut kind = None;
        let mut battle_id = None;
        let mut seq = None;
        let mut req = None;
        let mut code = None;
        let mut reason = None;
        let mut token = None;
        let mut view = None;
        let mut has_ops = None;
        if r.open(b'{', b'}')? {
            loop {
                let field = r.string()?;
                r.expect(b':', "expected `:`")?;
                match field.as_ref() {
                    "type" => {
                        let value = r.string()?;
                        once(&r, &mut kind, value)?;
                    }
                    "battle_id" => {
                        let value = optional(&mut r, Reader::string)?;
                        once(&r, &mut battle_id, value)?;
                    }
                    "seq" => {
                        let value = optional(&mut r, Reader::unsigned)?;
                        once(&r, &mut seq, value)?;
                    }
                    "req" => {
                        let value = optional(&mut r, Reader::unsigned)?;
                        once(&r, &mut req, value)?;
                    }
                    "code" => {
                        let value = optional(&mut r, error_code)?;
                        once(&r, &mut code, value)?;
                    }
                    "reason" => {
                        let value = optional(&mut r, Reader::string)?;
                        once(&r, &mut reason, value)?;
                    }
                    "token" => {
                        let value = optional(&mut r, Reader::string)?;
                        once(&r, &mut token, value)?;
                    }
                    "view" => {
                        let value = optional(&mut r, Reader::node)?;
                        once(&r, &mut view, value)?;
                    }
                    "ops" => {
                        let present = !r.null()?;
                        if present {
                            read_ops(&mut r, ops)?;
                        }
                        once(&r, &mut has_ops, present)?;
                    }
                    _ => r.skip()?,
                }
                if !r.more(b'}')? {
                    break;
                }
            }
        }
        r.close();
        if !r.at_end() {
            return r.fail("trailing characters");
        }
        Ok(Frame {
            kind: match kind {
                Some(kind) => kind,
                None => return r.fail("missing field `type`"),
            },
            battle_id: battle_id.flatten(),
            seq: seq.flatten(),
            req: req.flatten(),
            code: code.flatten(),
            reason: reason.flatten(),
            token: token.flatten(),
            view: view.flatten(),
            has_ops: has_ops.unwrap_or(false),
        })
    }
}

/// An error code, read by its serde definition.
fn error_code(r: &mut Reader<'_>) -> Result<ErrorCode, DecodeError> {
    let raw = r.raw()?;
    serde_json::from_str(raw).or_else(|_| r.fail("unknown error code"))
}

/// The `ops` array, appended to `ops`.
fn read_ops(r: &mut Reader<'_>, ops: &mut Ops) -> Result<(), DecodeError> {
    if r.open(b'[', b']')? {
        loop {
            if !read_usual_op(r, ops)? {
                read_op(r, ops)?;
            }
            if !r.more(b']')? {
                break;
            }
        }
    }
    r.close();
    Ok(())
}

/// How the server writes the start of each kind of operation, through the opening quote of
/// its path.
const USUAL_STARTS: [(&[u8], OpKind); 4] = [
    (br#"{"op":"replace","path":""#, OpKind::Replace),
    (br#"{"op":"add","path":""#, OpKind::Add),
    (br#"{"op":"remove","path":""#, OpKind::Remove),
    (br#"{"op":"test","path":""#, OpKind::Test),
];

/// One operation written exactly the server's way (`{"op":"..","path":"..","value":..}`,
/// no whitespace, no escapes in the path), appended to `ops`: such an operation is read
/// without looking up its field names. `false`, with nothing taken, for any other
/// spelling, which [`read_op`] then reads in full.
fn read_usual_op(r: &mut Reader<'_>, ops: &mut Ops) -> Result<bool, DecodeError> {
    let start = r.offset();
    if r.peek() != Some(b'{') {
        return Ok(false);
    }
    let Some(kind) = USUAL_STARTS
        .iter()
        .find_map(|&(prefix, kind)| r.take_exact(prefix).then_some(kind))
    else {
        return Ok(false);
    };
    let Some(path) = r.plain_string_rest() else {
        r.rewind(start);
        return Ok(false);
    };
    let value = if r.take_exact(br#","value":"#) {
        r.enter()?;
        let value = r.node()?;
        r.close();
        Some(value)
    } else {
        None
    };
    if !r.take_exact(b"}") {
        // More fields, or whitespace: the general reader takes it from the start.
        r.rewind(start);
        return Ok(false);
    }
    let from = ops.paths.len();
    ops.paths.push_str(path);
    ops.ops.push(Op {
        kind: Some(kind),
        path: from..ops.paths.len(),
        value,
    });
    Ok(true)
}

/// One operation object, appended to `ops`.
fn read_op(r: &mut Reader<'_>, ops: &mut Ops) -> Result<(), DecodeError> {
    let mut kind = None;
    let mut path = None;
    let mut value = None;
    if r.open(b'{', b'}')? {
        loop {
            let field = r.string()?;
            r.expect(b':', "expected `:`")?;
            match field.as_ref() {
                "op" => {
                    let name = r.string()?;
                    once(r, &mut kind, OpKind::parse(&name))?;
                }
                "path" => {
                    let text = r.string()?;
                    let start = ops.paths.len();
                    ops.paths.push_str(&text);
                    once(r, &mut path, start..ops.paths.len())?;
                }
                "value" => {
                    let node = r.node()?;
                    once(r, &mut value, node)?;
                }
                _ => r.skip()?,
            }
            if !r.more(b'}')? {
                break;
            }
        }
    }
    r.close();
    let (Some(kind), Some(path)) = (kind, path) else {
        return r.fail("an operation needs `op` and `path`");
    };
    ops.ops.push(Op { kind, path, value });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use serde::Deserialize;
    use serde_json::{json, Value};

    /// The same fields decoded by serde derives, as the reference for what is valid.
    #[derive(Deserialize)]
    struct Reference {
        #[serde(rename = "type")]
        kind: String,
        battle_id: Option<String>,
        seq: Option<u64>,
        req: Option<u64>,
        code: Option<ErrorCode>,
        reason: Option<String>,
        token: Option<String>,
        view: Option<Value>,
        ops: Option<Vec<ReferenceOp>>,
    }

    #[derive(Deserialize)]
    struct ReferenceOp {
        op: String,
        path: String,
        #[serde(default, deserialize_with = "present")]
        value: Option<Value>,
    }

    fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
        Value::deserialize(d).map(Some)
    }

    /// A frame's fields in one comparable form.
    type Summary = (
        String,
        Option<String>,
        [Option<u64>; 2],
        Option<ErrorCode>,
        [Option<String>; 2],
        Option<Value>,
        Option<Vec<(Option<OpKind>, String, Option<Value>)>>,
    );

    fn ours(text: &str) -> Option<Summary> {
        let mut ops = Ops::default();
        let f = Frame::decode(text, &mut ops).ok()?;
        let list: Vec<_> = ops
            .drain()
            .map(|(k, p, v)| (k, p.to_owned(), v.map(|v| v.to_value())))
            .collect();
        Some((
            f.kind.into_owned(),
            f.battle_id.map(Cow::into_owned),
            [f.seq, f.req],
            f.code,
            [f.reason.map(Cow::into_owned), f.token.map(Cow::into_owned)],
            f.view.map(|v| v.to_value()),
            f.has_ops.then_some(list),
        ))
    }

    fn reference(text: &str) -> Option<Summary> {
        let f: Reference = serde_json::from_str(text).ok()?;
        Some((
            f.kind,
            f.battle_id,
            [f.seq, f.req],
            f.code,
            [f.reason, f.token],
            f.view,
            f.ops.map(|ops| {
                ops.into_iter()
                    .map(|op| (OpKind::parse(&op.op), op.path, op.value))
                    .collect()
            }),
        ))
    }

    /// Damaged frames are accepted and refused exactly as serde derives accept and refuse
    /// them, with the same fields when accepted.
    #[test]
    fn agrees_with_serde_derives() {
        let frames = [
            r#"{"type":"patch","battle_id":"b1","seq":7,"ops":[{"op":"replace","path":"/game/sides/0/hp","value":55},{"op":"add","path":"/game/log/5","value":"P2 plays \"Null\": 5 damage"},{"op":"remove","path":"/legal/0"},{"op":"test","path":"/seat","value":null}],"req":13}"#,
            r#"{"type":"snapshot","battle_id":"b1","seq":1,"view":{"battle_id":"b1","game":{"round":1,"sides":[{"hp":60,"sigils":{"Flame":0}}],"ratio":0.5,"neg":-3},"legal":[{"card":6,"kind":"play_card"}],"outcome":null,"seat":0,"status":"playing","to_act":[0]}}"#,
            r#"{"type":"error","code":"not_your_turn","message":"not now","battle_id":"b1","req":3}"#,
            r#"{"type":"left","battle_id":"b1","reason":"expired"}"#,
            r#"{"type":"joined","battle_id":"b1","seat":1,"token":"9f2c","req":4}"#,
        ];
        let mut rng = SmallRng::seed_from_u64(29);
        for text in frames {
            assert!(ours(text).is_some(), "{text}");
            assert_eq!(ours(text), reference(text), "{text}");
            for cut in 0..text.len() {
                assert_eq!(
                    ours(&text[..cut]),
                    reference(&text[..cut]),
                    "{}",
                    &text[..cut]
                );
            }
            for _ in 0..3000 {
                let mut bytes = text.as_bytes().to_vec();
                for _ in 0..rng.random_range(1..3) {
                    const SUBSTITUTES: &[u8] = b"{}[]\",:\\ 0-1.eEtfnu/\x01az";
                    let at = rng.random_range(0..bytes.len());
                    bytes[at] = SUBSTITUTES[rng.random_range(0..SUBSTITUTES.len())];
                }
                let damaged = String::from_utf8(bytes).expect("ASCII bytes replaced by ASCII");
                assert_eq!(ours(&damaged), reference(&damaged), "{damaged}");
            }
        }
    }

    /// Operations as owned values.
    type OpList = Vec<(Option<OpKind>, String, Option<Node>)>;

    fn decode(text: &str) -> Result<(Frame<'_>, OpList), String> {
        let mut ops = Ops::default();
        let frame = Frame::decode(text, &mut ops).map_err(|e| e.to_string())?;
        let list = ops
            .drain()
            .map(|(kind, path, value)| (kind, path.to_owned(), value))
            .collect();
        Ok((frame, list))
    }

    #[test]
    fn decodes_a_patch() {
        let (frame, ops) = decode(
            r#"{"type":"patch","battle_id":"b","seq":3,"ops":[{"op":"replace","path":"/a~1b","value":null},{"path":"/l/-","value":{"x":[1]},"op":"add"},{"op":"remove","path":"/\u0061"},{"op":"move","from":"/a","path":"/b"}],"req":4,"extra":[1,{"y":2}]}"#,
        )
        .expect("valid");
        assert_eq!(frame.kind, "patch");
        assert_eq!(frame.battle_id.as_deref(), Some("b"));
        assert_eq!((frame.seq, frame.req, frame.code), (Some(3), Some(4), None));
        assert!(frame.has_ops && frame.view.is_none());
        assert_eq!(
            ops,
            vec![
                (Some(OpKind::Replace), "/a~1b".to_owned(), Some(Node::Null)),
                (
                    Some(OpKind::Add),
                    "/l/-".to_owned(),
                    Some(Node::from(&json!({"x": [1]})))
                ),
                (Some(OpKind::Remove), "/a".to_owned(), None),
                (None, "/b".to_owned(), None),
            ]
        );
    }

    #[test]
    fn decodes_other_messages() {
        let (frame, ops) = decode(
            r#"{"type":"snapshot","battle_id":"b","seq":1,"view":{"status":"waiting"},"ops":null}"#,
        )
        .expect("valid");
        assert_eq!(frame.view, Some(Node::from(&json!({"status": "waiting"}))));
        assert!(!frame.has_ops && ops.is_empty());

        let (frame, _) = decode(
            r#"{"type":"error","code":"not_your_turn","message":"x","battle_id":null,"req":3,"seq":null}"#,
        )
        .expect("valid");
        assert_eq!(
            (
                frame.kind.as_ref(),
                frame.code,
                frame.req,
                frame.battle_id,
                frame.seq
            ),
            ("error", Some(ErrorCode::NotYourTurn), Some(3), None, None)
        );
        let (frame, _) =
            decode(r#"{"type":"left","battle_id":"b","reason":"kicked \"x\""}"#).expect("valid");
        assert_eq!(frame.reason.as_deref(), Some("kicked \"x\""));
    }

    #[test]
    fn refuses_what_a_derive_would_refuse() {
        for bad in [
            r#"{"battle_id":"b"}"#,
            r#"{"type":"patch","type":"patch"}"#,
            r#"{"type":"patch","seq":"1"}"#,
            r#"{"type":"patch","seq":-1}"#,
            r#"{"type":"error","code":"no_such_code"}"#,
            r#"{"type":"patch","ops":[{"path":"/a"}]}"#,
            r#"{"type":"patch","ops":[{"op":"add","value":1}]}"#,
            r#"{"type":"patch","ops":[{"op":"add","path":"/a","value":1,"value":2}]}"#,
            r#"{"type":"patch","ops":{"op":"add"}}"#,
            r#"{"type":"patch","ops":[]"#,
            r#"{"type":"patch"} trailing"#,
            r#"["type","patch"]"#,
        ] {
            assert!(decode(bad).is_err(), "{bad}");
        }
    }

    /// A buffer reused for the next frame holds only that frame's operations.
    #[test]
    fn buffers_are_reused() {
        let mut ops = Ops::default();
        let long = r#"{"type":"patch","seq":2,"ops":[{"op":"add","path":"/a","value":1},{"op":"add","path":"/b","value":2}]}"#;
        Frame::decode(long, &mut ops).expect("valid");
        assert_eq!(ops.ops.len(), 2);
        let short = r#"{"type":"patch","seq":3,"ops":[{"op":"remove","path":"/c"}]}"#;
        Frame::decode(short, &mut ops).expect("valid");
        let list: Vec<_> = ops.drain().map(|(k, p, _)| (k, p.to_owned())).collect();
        assert_eq!(list, vec![(Some(OpKind::Remove), "/c".to_owned())]);
        assert!(ops.ops.is_empty() && ops.paths.capacity() > 0);
    }
}
