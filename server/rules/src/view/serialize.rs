//! [`to_view`]: a serde `Serializer` that builds a [`ViewValue`] directly.
//!
//! A ruleset describes its view as plain structs and enums deriving `Serialize`; this turns
//! them into the value the server diffs, with no `serde_json::Value` in between. Struct field
//! names and unit variants (states, sigils, kinds) are `&'static str` in serde's data model,
//! so they are borrowed, never copied; other text is inline up to 24 bytes. Members come out
//! in the order the value gives them (a struct's declared order, a map's iteration order), so
//! a view writes byte for byte the JSON `serde_json` writes for the same value. Successive
//! views line up in the diff when they give their members in the same order: use a
//! `BTreeMap` (not a `HashMap`) for a map in a view.
//!
//! Each value is written in place, into the slot of the list or object it belongs to, made
//! ready beforehand: a value built elsewhere and then moved in is written twice, and reading
//! it back straight after its first writing stalls the processor (this is the server's
//! hottest path).
//!
//! The one thing serde_json does not know is [`Only`](super::Only): a member only some
//! viewers see. It reaches this serializer as a tuple struct with a reserved name and becomes
//! a [`ViewValue::Only`]; it may stand only as a struct field or a map value (the diff lines
//! marked members up by key), anywhere else the view is refused.

use std::borrow::Cow;
use std::fmt::Display;

use serde::ser::{self, Serialize};

use super::builders::{ListBuilder, MapBuilder, StructBuilder, TupleStructBuilder};
use super::value::{Key, Text, ViewValue};

/// The tuple-struct name under which [`Only`](super::Only) reaches a serializer.
pub(super) const ONLY_MARK: &str = "$battle_rules::Only";

/// Why a value could not be turned into a view: a shape JSON cannot hold (a map with
/// non-text keys, an integer beyond 64 bits), a misplaced [`Only`](super::Only), or an error
/// of the value's own `Serialize`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("view not built: {0}")]
pub struct ViewError(pub(super) String);

impl ser::Error for ViewError {
    fn custom<T: Display>(msg: T) -> Self {
        ViewError(msg.to_string())
    }
}

/// The view of `value`: what `serde_json` would write for it, with [`Only`](super::Only)
/// members marked for their viewers.
pub fn to_view<T: Serialize + ?Sized>(value: &T) -> Result<ViewValue, ViewError> {
    let mut view = ViewValue::Null;
    value.serialize(Slot {
        slot: &mut view,
        member: false,
    })?;
    Ok(view)
}

/// Serialize a `&'static str` field as a literal: borrowed by the view whatever its length
/// (other text longer than 24 bytes is copied). For `#[serde(serialize_with = "literal")]`;
/// any other serializer writes it as the plain string it is.
pub fn literal<S: ser::Serializer>(text: &&'static str, serializer: S) -> Result<S::Ok, S::Error> {
    // A unit variant's name is the one text serde hands over as `&'static str`.
    serializer.serialize_unit_variant("", 0, text)
}

/// A `&'static str` that views borrow whatever its length (see [`literal`]); any other
/// serializer writes it as the plain string it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Literal(pub &'static str);

impl Serialize for Literal {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        literal(&self.0, serializer)
    }
}

/// Writes one value into `slot`, where it stays: a value is never built elsewhere and
/// moved, so nothing is written twice (the hot path of every view). `member`: the value
/// stands as an object member, the only place where a marked value may stand.
pub(super) struct Slot<'a> {
    pub(super) slot: &'a mut ViewValue,
    pub(super) member: bool,
}

impl<'a> Slot<'a> {
    #[inline(always)]
    fn put(self, value: ViewValue) -> Result<(), ViewError> {
        // The slot holds the `Null` it was made ready with: nothing to drop, and not
        // dropping it spares a call per value.
        std::mem::forget(std::mem::replace(self.slot, value));
        Ok(())
    }

    #[inline(always)]
    fn int<T: TryInto<i64>>(self, n: T) -> Result<(), ViewError> {
        match n.try_into() {
            Ok(n) => self.put(ViewValue::Int(n)),
            Err(_) => Err(ViewError(
                "an integer beyond 64 signed bits has no place in a view".into(),
            )),
        }
    }

    /// Make the slot a list and hand out its items' vector.
    #[inline(always)]
    fn list(self, len: usize) -> &'a mut Vec<ViewValue> {
        std::mem::forget(std::mem::replace(
            self.slot,
            ViewValue::List(Vec::with_capacity(len)),
        ));
        match self.slot {
            ViewValue::List(items) => items,
            _ => unreachable!("the slot was just made a list"),
        }
    }

    /// Make the slot an object and hand out its members' vector.
    #[inline(always)]
    fn object(self, len: usize) -> &'a mut Vec<(Key, ViewValue)> {
        std::mem::forget(std::mem::replace(
            self.slot,
            ViewValue::Object(Vec::with_capacity(len)),
        ));
        match self.slot {
            ViewValue::Object(pairs) => pairs,
            _ => unreachable!("the slot was just made an object"),
        }
    }

    /// Make the slot an object of `len` members to fill in place, in order.
    #[inline(always)]
    fn members(self, len: usize) -> StructBuilder<'a> {
        let pairs = self.object(len);
        pairs.resize_with(len, || (Cow::Borrowed(""), ViewValue::Null));
        StructBuilder { pairs, filled: 0 }
    }

    /// Make the slot `{variant: <slot>}` and hand out the inner slot.
    #[inline(always)]
    fn variant(self, variant: &'static str) -> &'a mut ViewValue {
        let pairs = self.object(1);
        pairs.push((Cow::Borrowed(variant), ViewValue::Null));
        &mut pairs[0].1
    }
}

/// A new member `key` of `pairs`, its slot to write the value into.
#[inline(always)]
pub(super) fn member_slot(pairs: &mut Vec<(Key, ViewValue)>, key: Key) -> Slot<'_> {
    pairs.push((key, ViewValue::Null));
    let last = pairs.len() - 1;
    Slot {
        slot: &mut pairs[last].1,
        member: true,
    }
}

impl<'a> ser::Serializer for Slot<'a> {
    type Ok = ();
    type Error = ViewError;
    type SerializeSeq = ListBuilder<'a>;
    type SerializeTuple = ListBuilder<'a>;
    type SerializeTupleStruct = TupleStructBuilder<'a>;
    type SerializeTupleVariant = ListBuilder<'a>;
    type SerializeMap = MapBuilder<'a>;
    type SerializeStruct = StructBuilder<'a>;
    type SerializeStructVariant = StructBuilder<'a>;

    /// Not human-readable: that is how [`Only`](super::Only) tells this serializer from
    /// serde_json, for which it writes `null` (nothing hidden escapes by accident).
    #[inline(always)]
    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline(always)]
    fn serialize_bool(self, v: bool) -> Result<(), ViewError> {
        self.put(ViewValue::Bool(v))
    }
    #[inline(always)]
    fn serialize_i8(self, v: i8) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_i16(self, v: i16) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_i32(self, v: i32) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_i64(self, v: i64) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_i128(self, v: i128) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_u8(self, v: u8) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_u16(self, v: u16) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_u32(self, v: u32) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_u64(self, v: u64) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_u128(self, v: u128) -> Result<(), ViewError> {
        self.int(v)
    }
    #[inline(always)]
    fn serialize_f32(self, v: f32) -> Result<(), ViewError> {
        self.put(ViewValue::Float(f64::from(v)))
    }
    #[inline(always)]
    fn serialize_f64(self, v: f64) -> Result<(), ViewError> {
        self.put(ViewValue::Float(v))
    }
    #[inline(always)]
    fn serialize_char(self, v: char) -> Result<(), ViewError> {
        self.put(ViewValue::Str(Text::new(v.encode_utf8(&mut [0; 4]))))
    }
    #[inline(always)]
    fn serialize_str(self, v: &str) -> Result<(), ViewError> {
        self.put(ViewValue::Str(Text::new(v)))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), ViewError> {
        self.put(ViewValue::List(
            v.iter().map(|&b| ViewValue::from(b)).collect(),
        ))
    }
    #[inline(always)]
    fn serialize_none(self) -> Result<(), ViewError> {
        self.put(ViewValue::Null)
    }
    #[inline(always)]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), ViewError> {
        value.serialize(self)
    }
    #[inline(always)]
    fn serialize_unit(self) -> Result<(), ViewError> {
        self.put(ViewValue::Null)
    }
    #[inline(always)]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), ViewError> {
        self.put(ViewValue::Null)
    }
    #[inline(always)]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), ViewError> {
        self.put(ViewValue::Str(Text::Lit(variant)))
    }
    #[inline(always)]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), ViewError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), ViewError> {
        let slot = self.variant(variant);
        value.serialize(Slot { slot, member: true })
    }
    #[inline(always)]
    fn serialize_seq(self, len: Option<usize>) -> Result<ListBuilder<'a>, ViewError> {
        let len = len.unwrap_or(0);
        Ok(ListBuilder::new(self.list(len), len))
    }
    #[inline(always)]
    fn serialize_tuple(self, len: usize) -> Result<ListBuilder<'a>, ViewError> {
        Ok(ListBuilder::new(self.list(len), len))
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<TupleStructBuilder<'a>, ViewError> {
        if name == ONLY_MARK {
            if !self.member {
                return Err(ViewError(
                    "a value for some viewers only (Only) may stand only as a struct field \
                     or a map value"
                        .into(),
                ));
            }
            return Ok(TupleStructBuilder::Only(self.slot, None));
        }
        Ok(TupleStructBuilder::List(ListBuilder::new(
            self.list(len),
            len,
        )))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<ListBuilder<'a>, ViewError> {
        let slot = self.variant(variant);
        Ok(ListBuilder::new(Slot { slot, member: true }.list(len), len))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder<'a>, ViewError> {
        Ok(MapBuilder {
            pairs: self.object(len.unwrap_or(0)),
            key: None,
        })
    }
    #[inline(always)]
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<StructBuilder<'a>, ViewError> {
        Ok(self.members(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<StructBuilder<'a>, ViewError> {
        let slot = self.variant(variant);
        Ok(Slot { slot, member: true }.members(len))
    }
}

#[cfg(test)]
#[path = "serialize_tests.rs"]
mod tests;
