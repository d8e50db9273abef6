//! Applying RFC 6902 operations to a [`Node`] tree: `add`, `remove`, `replace` and `test`,
//! the ones the server sends. Pointers follow RFC 6901 as `json_patch` reads them: `~1` is
//! `/`, `~0` is `~`, array indices are decimal without leading zeros, and `-` is the end of
//! an array (for `add` only).

use std::borrow::Cow;

use super::node::{member, member_mut, Node, Str};

/// An operation kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    /// Insert into an array or set an object member (replacing it if present).
    Add,
    /// Take out an array item or object member that must exist.
    Remove,
    /// Set a value that must exist.
    Replace,
    /// Check that a value exists and equals the given one.
    Test,
}

impl OpKind {
    /// The kind named `name`; `None` for the operations the load test does not take
    /// (`move`, `copy`) and for anything else.
    pub fn parse(name: &str) -> Option<OpKind> {
        match name {
            "add" => Some(OpKind::Add),
            "remove" => Some(OpKind::Remove),
            "replace" => Some(OpKind::Replace),
            "test" => Some(OpKind::Test),
            _ => None,
        }
    }
}

// Paths are a few short tokens: plain byte loops find their slashes and tildes faster
// than the general string searchers, whose set-up costs more than the search.

/// Position of the first `byte` in `text`.
#[inline]
fn find(text: &str, byte: u8) -> Option<usize> {
    text.bytes().position(|b| b == byte)
}

/// Position of the last `/` in `text`.
#[inline]
fn find_last_slash(text: &str) -> Option<usize> {
    text.bytes().rposition(|b| b == b'/')
}

/// One pointer token as an object key, unescaped.
fn token(raw: &str) -> Cow<'_, str> {
    if find(raw, b'~').is_some() {
        Cow::Owned(raw.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(raw)
    }
}

/// An array index token: digits only, no leading zero (RFC 6901).
fn index(raw: &str) -> Option<usize> {
    let bytes = raw.as_bytes();
    if bytes.is_empty() || bytes.len() > 18 || (bytes[0] == b'0' && bytes.len() > 1) {
        return None;
    }
    bytes.iter().try_fold(0usize, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + usize::from(b - b'0'))
    })
}

/// The node a path of raw tokens (`a/0/b`, unescaped here) leads to.
fn walk<'d>(mut node: &'d mut Node, mut dirs: &str) -> Option<&'d mut Node> {
    loop {
        let (raw, rest) = match find(dirs, b'/') {
            Some(at) => (&dirs[..at], Some(&dirs[at + 1..])),
            None => (dirs, None),
        };
        node = match node {
            Node::Object(members) => member_mut(members, &token(raw))?,
            Node::Array(items) => items.get_mut(index(raw)?)?,
            _ => return None,
        };
        match rest {
            Some(rest) => dirs = rest,
            None => return Some(node),
        }
    }
}

/// Where an operation's path points.
enum Target<'p> {
    /// The whole document (the empty path).
    Root,
    /// The member or item `last` of the node the raw tokens `dirs` lead to (`None`: the
    /// document itself).
    Child {
        dirs: Option<&'p str>,
        last: &'p str,
    },
}

/// Split a path into its target; `None` for a path that is not a JSON pointer.
fn target(path: &str) -> Option<Target<'_>> {
    let Some(rest) = path.strip_prefix('/') else {
        return path.is_empty().then_some(Target::Root);
    };
    Some(match find_last_slash(rest) {
        Some(at) => Target::Child {
            dirs: Some(&rest[..at]),
            last: &rest[at + 1..],
        },
        None => Target::Child {
            dirs: None,
            last: rest,
        },
    })
}

/// Whether `path` is `/{dirs}/{last}` with a `last` holding no `/`.
fn is_under(path: &str, dirs: &str) -> bool {
    let Some(rest) = path.strip_prefix('/').and_then(|p| p.strip_prefix(dirs)) else {
        return false;
    };
    rest.strip_prefix('/')
        .is_some_and(|last| find(last, b'/').is_none())
}

/// Apply the operations of one patch in order; `None` as soon as one does not fit, and then
/// `doc` holds the operations before it (the caller drops it).
///
/// Consecutive operations under the same parent, as in most patches
/// (`/game/sides/0/energy`, `/game/sides/0/score`, ...), share one walk to that parent:
/// an operation changes only a child of its parent, so the parent stays where it is.
pub fn apply_all<'p, I>(doc: &mut Node, ops: I) -> Option<()>
where
    I: IntoIterator<Item = (Option<OpKind>, &'p str, Option<Node>)>,
{
    let mut ops = ops.into_iter();
    let mut next = ops.next();
    while let Some((kind, path, value)) = next.take() {
        match target(path)? {
            Target::Root => apply_root(doc, kind?, value)?,
            Target::Child { dirs: None, last } => apply_child(doc, kind?, last, value)?,
            Target::Child {
                dirs: Some(dirs),
                last,
            } => {
                let parent = walk(doc, dirs)?;
                apply_child(parent, kind?, last, value)?;
                loop {
                    match ops.next() {
                        // `path` is `/{dirs}/{last}`.
                        Some((kind, path, value)) if is_under(path, dirs) => {
                            apply_child(parent, kind?, &path[dirs.len() + 2..], value)?;
                        }
                        other => {
                            next = other;
                            break;
                        }
                    }
                }
                continue;
            }
        }
        next = ops.next();
    }
    Some(())
}

/// An operation on the whole document.
fn apply_root(doc: &mut Node, kind: OpKind, value: Option<Node>) -> Option<()> {
    match kind {
        OpKind::Add | OpKind::Replace => {
            *doc = value?;
            Some(())
        }
        OpKind::Test => (value? == *doc).then_some(()),
        OpKind::Remove => None,
    }
}

/// An operation on the child `last` (a raw token) of `parent`.
fn apply_child(parent: &mut Node, kind: OpKind, last: &str, value: Option<Node>) -> Option<()> {
    match (kind, parent) {
        (OpKind::Add, Node::Object(members)) => {
            let value = value?;
            let key = token(last);
            match member_mut(members, &key) {
                Some(slot) => *slot = value,
                None => members.push((Str::new(&key), value)),
            }
        }
        (OpKind::Add, Node::Array(items)) => {
            let value = value?;
            if last == "-" {
                items.push(value);
            } else {
                let at = index(last)?;
                if at > items.len() {
                    return None;
                }
                items.insert(at, value);
            }
        }
        (OpKind::Remove, Node::Object(members)) => {
            let key = token(last);
            let at = members.iter().position(|(k, _)| k.is(&key))?;
            members.remove(at);
        }
        (OpKind::Remove, Node::Array(items)) => {
            let at = index(last)?;
            if at >= items.len() {
                return None;
            }
            items.remove(at);
        }
        (OpKind::Replace, Node::Object(members)) => {
            *member_mut(members, &token(last))? = value?;
        }
        (OpKind::Replace, Node::Array(items)) => {
            *items.get_mut(index(last)?)? = value?;
        }
        (OpKind::Test, Node::Object(members)) => {
            return (*member(members, &token(last))? == value?).then_some(());
        }
        (OpKind::Test, Node::Array(items)) => {
            return (*items.get(index(last)?)? == value?).then_some(());
        }
        _ => return None,
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::super::node::tests::{random_key, random_value};
    use super::*;
    use battle_protocol::json_patch;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use serde_json::{json, Value};

    /// Escape a key as a pointer token.
    fn escape(key: &str) -> String {
        key.replace('~', "~0").replace('/', "~1")
    }

    /// A pointer into `doc`: usually to something that exists (or, for arrays, one past the
    /// end), sometimes to something that does not.
    fn random_path(rng: &mut SmallRng, doc: &Value) -> String {
        let mut path = String::new();
        let mut node = doc;
        loop {
            if rng.random_range(0..4) == 0 {
                return path;
            }
            match node {
                Value::Object(map) if !map.is_empty() && rng.random_range(0..6) != 0 => {
                    let at = rng.random_range(0..map.len());
                    let (key, next) = map.iter().nth(at).expect("index within the map");
                    path.push('/');
                    path.push_str(&escape(key));
                    node = next;
                }
                Value::Array(items) if rng.random_range(0..6) != 0 => {
                    let at = rng.random_range(0..=items.len());
                    path.push('/');
                    match rng.random_range(0..12) {
                        0 => path.push('-'),
                        1 => path.push_str(&format!("0{at}")),
                        _ => path.push_str(&at.to_string()),
                    }
                    match items.get(at) {
                        Some(next) => node = next,
                        None => return path,
                    }
                }
                _ => {
                    path.push('/');
                    path.push_str(&escape(&random_key(rng)));
                    return path;
                }
            }
        }
    }

    fn random_op(rng: &mut SmallRng, doc: &Value) -> Value {
        let path = random_path(rng, doc);
        let value = if rng.random_range(0..5) == 0 {
            // `test` against what is there, so that tests pass as often as they fail.
            doc.pointer(&path).cloned().unwrap_or(Value::Null)
        } else {
            random_value(rng, 2)
        };
        match rng.random_range(0..4) {
            0 => json!({"op": "add", "path": path, "value": value}),
            1 => json!({"op": "remove", "path": path}),
            2 => json!({"op": "replace", "path": path, "value": value}),
            _ => json!({"op": "test", "path": path, "value": value}),
        }
    }

    /// Apply one operation alone.
    fn apply(doc: &mut Node, kind: OpKind, path: &str, value: Option<Node>) -> Option<()> {
        apply_all(doc, [(Some(kind), path, value)])
    }

    fn apply_value(doc: &mut Node, op: &Value) -> Option<()> {
        let kind = OpKind::parse(op["op"].as_str().expect("op name")).expect("known op");
        let path = op["path"].as_str().expect("path");
        apply(doc, kind, path, op.get("value").map(Node::from))
    }

    /// Random operations on random documents: accepted and refused exactly when `json_patch`
    /// accepts and refuses them, with the same resulting document.
    #[test]
    fn agrees_with_json_patch() {
        let mut rng = SmallRng::seed_from_u64(3);
        let (mut applied, mut refused) = (0, 0);
        for _ in 0..400 {
            let mut expected = json!({"status": "playing", "game": random_value(&mut rng, 4)});
            let mut doc = Node::from(&expected);
            for _ in 0..40 {
                let op = random_op(&mut rng, &expected);
                let patch: json_patch::Patch =
                    serde_json::from_value(json!([op.clone()])).expect("a valid patch");
                let mut copy = doc.clone();
                match json_patch::patch(&mut expected, &patch) {
                    Ok(()) => {
                        applied += 1;
                        assert_eq!(apply_value(&mut doc, &op), Some(()), "{op}");
                        assert_eq!(doc.to_value(), expected, "after {op}");
                    }
                    Err(_) => {
                        refused += 1;
                        assert_eq!(apply_value(&mut copy, &op), None, "{op} on {expected}");
                    }
                }
            }
        }
        // Both outcomes are well exercised.
        assert!(applied > 3000 && refused > 3000, "{applied} / {refused}");
    }

    /// Whole random patches, each applied to a fresh copy: accepted exactly when `json_patch`
    /// accepts them, with the same result. Paths are drawn from a small set so that
    /// consecutive operations often share a parent.
    #[test]
    fn whole_patches_agree_with_json_patch() {
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut applied, mut refused) = (0, 0);
        for _ in 0..300 {
            let start = json!({"s": [{"a": 1, "b": [1, 2], "c": {"x": 0}}, {"a": 2}], "t": 0});
            let mut expected = start.clone();
            let mut ops = Vec::new();
            for _ in 0..rng.random_range(1..8) {
                // Ops are drawn against the document as the earlier ones left it.
                let op = random_op(&mut rng, &expected);
                let patch: json_patch::Patch =
                    serde_json::from_value(json!([op.clone()])).expect("a valid patch");
                if json_patch::patch(&mut expected, &patch).is_err() && rng.random_range(0..3) != 0
                {
                    continue;
                }
                ops.push(op);
            }
            let patch: json_patch::Patch =
                serde_json::from_value(Value::Array(ops.clone())).expect("a valid patch");
            let mut expected = start.clone();
            let mut doc = Node::from(&start);
            let list = ops.iter().map(|op| {
                (
                    OpKind::parse(op["op"].as_str().expect("op name")),
                    op["path"].as_str().expect("path"),
                    op.get("value").map(Node::from),
                )
            });
            match json_patch::patch(&mut expected, &patch) {
                Ok(()) => {
                    applied += 1;
                    assert_eq!(apply_all(&mut doc, list), Some(()), "{ops:?}");
                    assert_eq!(doc.to_value(), expected, "{ops:?}");
                }
                Err(_) => {
                    refused += 1;
                    assert_eq!(apply_all(&mut doc, list), None, "{ops:?}");
                }
            }
        }
        assert!(applied > 50 && refused > 50, "{applied} / {refused}");
    }

    #[test]
    fn pointer_details() {
        let mut doc = Node::from(&json!({"a/b": {"~": [1, 2]}, "": 0, "l": []}));
        assert_eq!(
            apply(
                &mut doc,
                OpKind::Test,
                "/a~1b/~0/1",
                Some(Node::from(&json!(2)))
            ),
            Some(())
        );
        assert_eq!(
            apply(&mut doc, OpKind::Replace, "/", Some(Node::Null)),
            Some(())
        );
        assert_eq!(
            apply(&mut doc, OpKind::Add, "/l/-", Some(Node::Bool(true))),
            Some(())
        );
        assert_eq!(
            apply(&mut doc, OpKind::Add, "/l/01", Some(Node::Null)),
            None
        );
        assert_eq!(apply(&mut doc, OpKind::Remove, "/l/+0", None), None);
        assert_eq!(apply(&mut doc, OpKind::Remove, "/l/-", None), None);
        assert_eq!(apply(&mut doc, OpKind::Remove, "", None), None);
        assert_eq!(apply(&mut doc, OpKind::Add, "l", Some(Node::Null)), None);
        assert_eq!(apply(&mut doc, OpKind::Replace, "/l/0", None), None);
        assert_eq!(
            doc.to_value(),
            json!({"a/b": {"~": [1, 2]}, "": null, "l": [true]})
        );
        assert_eq!(
            apply(&mut doc, OpKind::Add, "", Some(Node::from(&json!([])))),
            Some(())
        );
        assert_eq!(doc.to_value(), json!([]));
        assert_eq!(OpKind::parse("move"), None);
        assert_eq!(index("18446744073709551615"), None);
        assert_eq!(index("123"), Some(123));
        assert!(is_under("/a/b/c", "a/b") && is_under("/a/b/", "a/b"));
        assert!(!is_under("/a/b/c/d", "a/b") && !is_under("/a/bc/d", "a/b"));
        assert!(!is_under("/a/b", "a/b") && !is_under("a/b/c", "a/b"));
    }
}
