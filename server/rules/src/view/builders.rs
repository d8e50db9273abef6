//! The compound parts of [`to_view`](super::to_view)'s serializer: lists, tuple structs (and
//! the [`Only`](super::Only) mark they carry), structs and maps, each value written in place
//! into a slot made ready beforehand.

use std::borrow::Cow;

use serde::ser::{self, Serialize};

use super::serialize::{member_slot, Slot, ViewError};
use super::value::{Key, Text, ViewValue};
use super::viewers::Viewers;

/// A list's items, each written in place into items made ready beforehand when the length
/// is known (an item pushed as a whole would be built beside the vector and copied in).
pub(super) struct ListBuilder<'a> {
    items: &'a mut Vec<ViewValue>,
    /// Items written so far.
    filled: usize,
}

impl<'a> ListBuilder<'a> {
    #[inline(always)]
    pub(super) fn new(items: &'a mut Vec<ViewValue>, len: usize) -> ListBuilder<'a> {
        items.resize_with(len, || ViewValue::Null);
        ListBuilder { items, filled: 0 }
    }

    #[inline(always)]
    pub(super) fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ViewError> {
        if self.filled == self.items.len() {
            self.items.push(ViewValue::Null);
        }
        let slot = &mut self.items[self.filled];
        self.filled += 1;
        value.serialize(Slot {
            slot,
            member: false,
        })
    }

    #[inline(always)]
    fn finish(self) -> Result<(), ViewError> {
        self.items.truncate(self.filled);
        Ok(())
    }
}

impl ser::SerializeSeq for ListBuilder<'_> {
    type Ok = ();
    type Error = ViewError;
    #[inline(always)]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ViewError> {
        self.item(value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), ViewError> {
        self.finish()
    }
}

impl ser::SerializeTuple for ListBuilder<'_> {
    type Ok = ();
    type Error = ViewError;
    #[inline(always)]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ViewError> {
        self.item(value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), ViewError> {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for ListBuilder<'_> {
    type Ok = ();
    type Error = ViewError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ViewError> {
        self.item(value)
    }
    fn end(self) -> Result<(), ViewError> {
        self.finish()
    }
}

/// A tuple struct: a list, or an [`Only`](super::Only)'s viewers and then its value.
pub(super) enum TupleStructBuilder<'a> {
    List(ListBuilder<'a>),
    Only(&'a mut ViewValue, Option<Viewers>),
}

impl ser::SerializeTupleStruct for TupleStructBuilder<'_> {
    type Ok = ();
    type Error = ViewError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ViewError> {
        match self {
            TupleStructBuilder::List(list) => list.item(value),
            TupleStructBuilder::Only(_, viewers @ None) => {
                let mut bits = ViewValue::Null;
                value.serialize(Slot {
                    slot: &mut bits,
                    member: false,
                })?;
                let ViewValue::Int(bits) = bits else {
                    return Err(ViewError("Only's viewers must come first".into()));
                };
                // The bits were written from a u64, bit for bit, by `Only` itself.
                *viewers = Some(Viewers::from_bits(bits as u64));
                Ok(())
            }
            TupleStructBuilder::Only(slot, Some(viewers)) => {
                if matches!(slot, ViewValue::Only(..)) {
                    return Err(ViewError("Only holds exactly viewers and one value".into()));
                }
                **slot = ViewValue::Only(*viewers, Box::new(ViewValue::Null));
                let ViewValue::Only(_, inner) = &mut **slot else {
                    unreachable!("the slot was just marked");
                };
                value.serialize(Slot {
                    slot: inner,
                    member: false,
                })
            }
        }
    }
    fn end(self) -> Result<(), ViewError> {
        match self {
            TupleStructBuilder::List(list) => list.finish(),
            TupleStructBuilder::Only(ViewValue::Only(..), _) => Ok(()),
            TupleStructBuilder::Only(..) => {
                Err(ViewError("Only holds exactly viewers and one value".into()))
            }
        }
    }
}

/// A struct's members, each written in place into members made ready beforehand (a member
/// pushed as a whole would be built beside the vector and copied in); sorted at the end.
pub(super) struct StructBuilder<'a> {
    pub(super) pairs: &'a mut Vec<(Key, ViewValue)>,
    /// Members written so far.
    pub(super) filled: usize,
}

impl StructBuilder<'_> {
    #[inline(always)]
    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ViewError> {
        if self.filled == self.pairs.len() {
            // More fields than announced: a hand-written `Serialize` miscounted.
            self.pairs.push((Cow::Borrowed(""), ViewValue::Null));
        }
        let (slot_key, slot) = &mut self.pairs[self.filled];
        self.filled += 1;
        *slot_key = Cow::Borrowed(key);
        value.serialize(Slot { slot, member: true })
    }

    #[inline(always)]
    fn finish(self) -> Result<(), ViewError> {
        // Fields skipped by `skip_serializing_if` leave members unused.
        self.pairs.truncate(self.filled);
        Ok(())
    }
}

impl ser::SerializeStruct for StructBuilder<'_> {
    type Ok = ();
    type Error = ViewError;
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ViewError> {
        self.field(key, value)
    }
    #[inline(always)]
    fn end(self) -> Result<(), ViewError> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for StructBuilder<'_> {
    type Ok = ();
    type Error = ViewError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ViewError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), ViewError> {
        self.finish()
    }
}

/// A map's entries, in the map's order; keys become text as `serde_json` writes them.
pub(super) struct MapBuilder<'a> {
    pub(super) pairs: &'a mut Vec<(Key, ViewValue)>,
    pub(super) key: Option<Key>,
}

impl ser::SerializeMap for MapBuilder<'_> {
    type Ok = ();
    type Error = ViewError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), ViewError> {
        let mut text = ViewValue::Null;
        key.serialize(Slot {
            slot: &mut text,
            member: false,
        })?;
        self.key = Some(match text {
            ViewValue::Str(Text::Lit(text)) => Cow::Borrowed(text),
            ViewValue::Str(Text::Own(text)) => Cow::Owned(text.as_str().to_string()),
            ViewValue::Int(n) => Cow::Owned(itoa::Buffer::new().format(n).to_string()),
            ViewValue::Bool(b) => Cow::Borrowed(if b { "true" } else { "false" }),
            _ => {
                return Err(ViewError(
                    "a view's map keys must be text or numbers".into(),
                ))
            }
        });
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ViewError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ViewError("a map value came without its key".into()))?;
        value.serialize(member_slot(self.pairs, key))
    }
    fn end(self) -> Result<(), ViewError> {
        Ok(())
    }
}
