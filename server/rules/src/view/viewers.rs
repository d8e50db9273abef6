//! [`Viewer`] and [`Viewers`]: who a view is built for, and a set of viewers (the spectators
//! and any seats), the mark on each part of a shared view that says who may see it.
//!
//! A battle's view is built once per change for all of its audiences; the parts only some
//! viewers may see (a hand, the legal actions of a seat) are wrapped in
//! [`ViewValue::Only`](crate::view::value::ViewValue::Only) with the set that sees them. The
//! diff carries the set down the tree, so every operation knows who receives it.

use battle_protocol::Seat;

/// Who a view is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The holder of a seat: sees its own hidden zones.
    Seat(Seat),
    /// A spectator: sees only what every player sees.
    Spectator,
}

/// A set of viewers: bit 0 is the spectators, bit `1 + s` is seat `s` (seats 0 to 62).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Viewers(u64);

impl Viewers {
    /// Nobody.
    pub const NONE: Viewers = Viewers(0);
    /// Every viewer there can be.
    pub const ALL: Viewers = Viewers(u64::MAX);

    /// The spectators.
    pub const SPECTATORS: Viewers = Viewers(1);

    /// The holder of `seat` alone.
    pub fn seat(seat: usize) -> Viewers {
        debug_assert!(seat < 63, "a view marks at most 63 seats");
        Viewers(1u64.checked_shl(seat as u32 + 1).unwrap_or(0))
    }

    /// `viewer` alone.
    pub fn of(viewer: Viewer) -> Viewers {
        match viewer {
            Viewer::Spectator => Viewers::SPECTATORS,
            Viewer::Seat(seat) => Viewers::seat(seat),
        }
    }

    /// The set as bits (bit 0 the spectators, bit `1 + s` seat `s`), as a view carries it
    /// through serde (see [`Only`](super::Only)).
    pub fn bits(self) -> u64 {
        self.0
    }

    /// The set these bits stand for (see [`Viewers::bits`]).
    pub fn from_bits(bits: u64) -> Viewers {
        Viewers(bits)
    }

    /// Whether `viewer` is in the set.
    pub fn contains(self, viewer: Viewer) -> bool {
        !(self & Viewers::of(viewer)).is_empty()
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The viewers in the set: the spectators first, then the seats in order.
    pub fn iter(self) -> impl Iterator<Item = Viewer> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let bit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(match bit {
                0 => Viewer::Spectator,
                n => Viewer::Seat(n - 1),
            })
        })
    }
}

impl std::ops::BitAnd for Viewers {
    type Output = Viewers;
    fn bitand(self, other: Viewers) -> Viewers {
        Viewers(self.0 & other.0)
    }
}

impl std::ops::BitOr for Viewers {
    type Output = Viewers;
    fn bitor(self, other: Viewers) -> Viewers {
        Viewers(self.0 | other.0)
    }
}

impl std::ops::Not for Viewers {
    type Output = Viewers;
    fn not(self) -> Viewers {
        Viewers(!self.0)
    }
}

impl FromIterator<Viewer> for Viewers {
    fn from_iter<I: IntoIterator<Item = Viewer>>(viewers: I) -> Viewers {
        viewers
            .into_iter()
            .fold(Viewers::NONE, |set, viewer| set | Viewers::of(viewer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_exactly_their_viewers() {
        let set: Viewers = [Viewer::Seat(1), Viewer::Spectator, Viewer::Seat(5)]
            .into_iter()
            .collect();
        assert!(set.contains(Viewer::Seat(1)));
        assert!(set.contains(Viewer::Seat(5)));
        assert!(set.contains(Viewer::Spectator));
        assert!(!set.contains(Viewer::Seat(0)));
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [Viewer::Spectator, Viewer::Seat(1), Viewer::Seat(5)]
        );
        assert_eq!(set & Viewers::seat(1), Viewers::seat(1));
        assert!((set & !set).is_empty());
        assert!(Viewers::ALL.contains(Viewer::Seat(62)));
        assert!(Viewers::NONE.iter().next().is_none());
        assert_eq!(Viewers::of(Viewer::Spectator), Viewers::SPECTATORS);
    }
}
