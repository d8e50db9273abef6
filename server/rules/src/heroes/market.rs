//! The shared shop market (spec "Shop Structure", "Shop Refresh Timing", "Purchasing
//! Rules"): five face-up items from the tier deck of the round — early in rounds 1–3, mid
//! from round 4, late from round 7 — each tier deck shuffled with the battle's seeded
//! generator. A bought slot stays empty until the next refresh.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::items::{Item, Tier, ITEMS};

/// Face-up items.
pub const MARKET_SIZE: usize = 5;

/// The tier of round `round` (1-based): early 1–3, mid 4–6, late 7 on (spec).
pub fn tier_of(round: u32) -> Tier {
    match round {
        0..=3 => Tier::Early,
        4..=6 => Tier::Mid,
        _ => Tier::Late,
    }
}

/// The market.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Market {
    /// The tier on show.
    pub tier: Tier,
    /// The five slots; `None` once bought, until the next refresh.
    pub slots: [Option<&'static Item>; MARKET_SIZE],
}

impl Market {
    /// The market of round 1: five early items.
    pub fn new(rng: &mut ChaCha8Rng) -> Market {
        Market {
            tier: Tier::Early,
            slots: deal(Tier::Early, rng),
        }
    }

    /// At the start of `round`: refresh to the round's tier when it changes (rounds 4 and 7:
    /// spec). Returns whether it refreshed.
    pub fn start_round(&mut self, round: u32, rng: &mut ChaCha8Rng) -> bool {
        let tier = tier_of(round);
        if tier == self.tier {
            return false;
        }
        self.tier = tier;
        self.slots = deal(tier, rng);
        true
    }

    /// Take the item in `slot` (0-based), leaving the slot empty; `None` when it is empty.
    pub fn take(&mut self, slot: usize) -> Option<&'static Item> {
        self.slots.get_mut(slot)?.take()
    }
}

/// Five items of `tier`, its deck shuffled.
fn deal(tier: Tier, rng: &mut ChaCha8Rng) -> [Option<&'static Item>; MARKET_SIZE] {
    let mut deck: Vec<&'static Item> = ITEMS.iter().filter(|i| i.tier == tier).collect();
    deck.shuffle(rng);
    let mut slots = [None; MARKET_SIZE];
    for (slot, item) in slots.iter_mut().zip(deck) {
        *slot = Some(item);
    }
    slots
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn shop_refreshes_at_rounds_4_and_7_and_bought_slots_stay_empty_until_then() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut market = Market::new(&mut rng);
        assert!(market
            .slots
            .iter()
            .all(|s| s.is_some_and(|i| i.tier == Tier::Early)));
        let bought = market.take(2).expect("an item");
        assert_eq!(bought.tier, Tier::Early);
        assert!(market.take(2).is_none(), "the slot stays empty");
        for round in 2..=3 {
            assert!(
                !market.start_round(round, &mut rng),
                "same items in rounds 1-3"
            );
            assert!(market.slots[2].is_none());
        }
        assert!(market.start_round(4, &mut rng), "round 4: refresh");
        assert!(market
            .slots
            .iter()
            .all(|s| s.is_some_and(|i| i.tier == Tier::Mid)));
        assert!(!market.start_round(6, &mut rng));
        assert!(market.start_round(7, &mut rng), "round 7: refresh");
        assert!(market
            .slots
            .iter()
            .all(|s| s.is_some_and(|i| i.tier == Tier::Late)));
        assert!(
            !market.start_round(12, &mut rng),
            "late for the rest of the game"
        );
    }

    #[test]
    fn the_same_seed_deals_the_same_market() {
        let deal_of = |seed| Market::new(&mut ChaCha8Rng::seed_from_u64(seed)).slots;
        assert_eq!(deal_of(9), deal_of(9));
        assert!(
            (0..20).any(|seed| deal_of(seed) != deal_of(0)),
            "seeds vary it"
        );
    }
}
