//! Property tests of the message decoder: every message a client can write decodes to
//! itself; the fast path for `act` agrees with the general one on any act-like frame; and
//! no text at all makes it panic or answer anything but `bad_json`, `unknown_type` or
//! `bad_message` (with the frame's `req` when it has a readable one).

use battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use battle_server::connection::decode::decode;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Any JSON value without floats (numbers a client sends are integers), a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A JSON value that reads back as `Some` (not `null`) when optional.
fn some_json() -> impl Strategy<Value = Option<Value>> {
    prop::option::of(json_value().prop_filter("null reads back as absent", |v| !v.is_null()))
}

/// Battle ids and tokens: usually plausible, sometimes any text.
fn id() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z0-9]{1,12}", ".{0,16}"]
}

/// Any message a client could send.
fn client_msg() -> impl Strategy<Value = ClientMsg> {
    let req = || prop::option::of(any::<u64>());
    prop_oneof![
        (any::<u32>(), prop::option::of(".{0,10}"), req()).prop_map(|(protocol, name, req)| {
            ClientMsg::Hello {
                protocol,
                name,
                req,
            }
        }),
        (
            any::<bool>(),
            prop::option::of(any::<u32>()),
            prop::option::of(".{0,8}"),
            req()
        )
            .prop_map(|(finished, limit, cursor, req)| ClientMsg::List {
                finished,
                limit,
                cursor,
                req
            }),
        (
            id(),
            some_json(),
            prop::collection::vec(0usize..8, 0..3),
            any::<bool>(),
            (
                prop::option::of(any::<u64>()),
                prop::option::of(any::<u64>())
            ),
            (
                prop::option::of(any::<u64>()),
                prop::option::of(any::<u64>())
            ),
            some_json(),
            req()
        )
            .prop_map(
                |(
                    ruleset,
                    options,
                    bots,
                    private,
                    (pace_ms, grace_ms),
                    (seed, delay),
                    timer,
                    req,
                )| {
                    ClientMsg::Create {
                        ruleset,
                        options,
                        bots,
                        private,
                        pace_ms,
                        grace_ms,
                        seed,
                        spectator_delay_ms: delay,
                        timer,
                        req,
                    }
                }
            ),
        (id(), prop::option::of(0usize..8), some_json(), req()).prop_map(
            |(battle_id, seat, setup, req)| ClientMsg::Join {
                battle_id,
                seat,
                setup,
                req
            }
        ),
        (id(), id(), req()).prop_map(|(battle_id, token, req)| ClientMsg::Rejoin {
            battle_id,
            token,
            req
        }),
        (id(), req()).prop_map(|(battle_id, req)| ClientMsg::Spectate { battle_id, req }),
        (id(), json_value(), req()).prop_map(|(battle_id, action, req)| ClientMsg::Act {
            battle_id,
            action,
            req
        }),
        (id(), req()).prop_map(|(battle_id, req)| ClientMsg::Resync { battle_id, req }),
        (id(), req()).prop_map(|(battle_id, req)| ClientMsg::Resign { battle_id, req }),
        (id(), req()).prop_map(|(battle_id, req)| ClientMsg::Leave { battle_id, req }),
        (id(), req()).prop_map(|(battle_id, req)| ClientMsg::Replay { battle_id, req }),
        req().prop_map(|req| ClientMsg::Ping { req }),
    ]
}

/// An object that looks like an `act`: its members drawn from the right ones, wrong ones
/// and extra ones, in any order (duplicates included, written by hand).
fn act_like() -> impl Strategy<Value = String> {
    let member = prop_oneof![
        Just(("type".to_string(), json!("act"))),
        Just(("type".to_string(), json!("acts"))),
        id().prop_map(|b| ("battle_id".to_string(), json!(b))),
        any::<i64>().prop_map(|n| ("battle_id".to_string(), json!(n))),
        json_value().prop_map(|a| ("action".to_string(), a)),
        any::<u64>().prop_map(|n| ("req".to_string(), json!(n))),
        any::<i64>().prop_map(|n| ("req".to_string(), json!(n))),
        Just(("req".to_string(), Value::Null)),
        json_value().prop_map(|v| ("extra".to_string(), v)),
    ];
    prop::collection::vec(member, 0..6).prop_map(|members| {
        let parts: Vec<String> = members
            .iter()
            .map(|(k, v)| format!("{}:{}", json!(k), v))
            .collect();
        format!("{{{}}}", parts.join(","))
    })
}

/// The answer to a frame `decode` refused: one of the three codes, echoing `req` when the
/// frame is an object with an unsigned `req`.
fn check_refusal(text: &str, answer: &ServerMsg) {
    let ServerMsg::Error { code, req, .. } = answer else {
        panic!("a refusal is an error message: {answer:?}");
    };
    assert!(
        matches!(
            code,
            ErrorCode::BadJson | ErrorCode::UnknownType | ErrorCode::BadMessage
        ),
        "{code} for {text}"
    );
    let readable = serde_json::from_str::<Map<String, Value>>(text)
        .ok()
        .and_then(|object| object.get("req").and_then(Value::as_u64));
    if *code != ErrorCode::BadJson {
        assert_eq!(*req, readable, "the refusal echoes req: {text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn every_message_decodes_to_itself(msg in client_msg()) {
        let text = serde_json::to_string(&msg).expect("a client message serializes");
        prop_assert_eq!(decode(&text).expect("a written message is read"), msg);
    }

    #[test]
    fn the_act_fast_path_agrees_with_the_general_one(text in act_like()) {
        let general = serde_json::from_str::<ClientMsg>(&text);
        match (decode(&text), general) {
            (Ok(fast), Ok(general)) => prop_assert_eq!(fast, general),
            (Err(answer), Err(_)) => check_refusal(&text, &answer),
            (fast, general) => prop_assert!(false, "{text}: decode {fast:?}, serde {general:?}"),
        }
    }

    #[test]
    fn any_text_is_read_or_refused_with_a_code(text in ".{0,80}") {
        if let Err(answer) = decode(&text) {
            check_refusal(&text, &answer);
        }
    }

    #[test]
    fn any_object_is_read_or_refused_with_a_code(
        kind in prop_oneof![
            prop::sample::select(ClientMsg::TYPES.to_vec()).prop_map(String::from),
            ".{0,8}",
        ],
        members in prop::collection::btree_map(
            prop_oneof![
                prop::sample::select(vec![
                    "battle_id", "req", "action", "seat", "token", "ruleset", "options",
                    "protocol", "finished", "setup", "bots", "private",
                ]).prop_map(String::from),
                "[a-z]{1,6}",
            ],
            json_value(),
            0..5,
        ),
    ) {
        let mut object: Map<String, Value> = members.into_iter().collect();
        object.insert("type".into(), Value::from(kind));
        let text = Value::Object(object).to_string();
        match decode(&text) {
            Ok(msg) => {
                let again = serde_json::to_string(&msg).expect("serializes");
                prop_assert_eq!(decode(&again).expect("read again"), msg);
            }
            Err(answer) => check_refusal(&text, &answer),
        }
    }
}
