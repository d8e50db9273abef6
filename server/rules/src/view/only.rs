//! [`Only`]: the wrapper a ruleset puts around the parts of its view that only some viewers
//! may see (a hand, a sealed choice, a seat's private counters).

use battle_protocol::Seat;
use serde::ser::{Serialize, SerializeTupleStruct, Serializer};

use super::serialize::ONLY_MARK;
use super::viewers::Viewers;

/// A struct field (or map value) that only `viewers` see: for everyone else the member is
/// absent from their view, and its value is never serialized for them.
///
/// ```
/// use battle_rules::view::{to_view, Only, Viewer, Viewers};
/// #[derive(serde::Serialize)]
/// struct Side {
///     hand: Only<Vec<u32>>,
///     hand_count: usize,
/// }
/// let side = Side { hand: Only::seat(0, vec![7, 9]), hand_count: 2 };
/// let view = to_view(&side).unwrap();
/// assert_eq!(view.project(Viewer::Seat(0)).to_json(), r#"{"hand":[7,9],"hand_count":2}"#);
/// assert_eq!(view.project(Viewer::Spectator).to_json(), r#"{"hand_count":2}"#);
/// assert!(Viewers::seat(0).contains(Viewer::Seat(0)));
/// ```
///
/// Mark the same member the same way in every view of a battle (same field, same set), so
/// that successive views line up in the diff. Anywhere but a struct field or a map value
/// (directly in a list, say) the view is refused. Serialized by anything other than the view
/// serializer (serde_json, for instance) it writes `null`: what it hides never escapes by
/// accident.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Only<T> {
    viewers: Viewers,
    value: T,
}

impl<T> Only<T> {
    /// `value`, seen only by `viewers`.
    pub fn new(viewers: Viewers, value: T) -> Only<T> {
        Only { viewers, value }
    }

    /// `value`, seen only by the holder of `seat`.
    pub fn seat(seat: Seat, value: T) -> Only<T> {
        Only::new(Viewers::seat(seat), value)
    }

    /// Who sees the value.
    pub fn viewers(&self) -> Viewers {
        self.viewers
    }

    /// The value.
    pub fn value(&self) -> &T {
        &self.value
    }
}

impl<T: Serialize> Serialize for Only<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            // Not the view serializer: show nothing.
            return serializer.serialize_unit();
        }
        let mut marked = serializer.serialize_tuple_struct(ONLY_MARK, 2)?;
        // As i64, bit for bit: a view holds no unsigned integers beyond i64.
        marked.serialize_field(&(self.viewers.bits() as i64))?;
        marked.serialize_field(&self.value)?;
        marked.end()
    }
}
