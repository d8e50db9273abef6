//! The player's armor (its AP and DEF%) and the items found between battles, as data.

/// A suit of armor: its durability (max AP) and DEF%.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Armor {
    /// Stable id.
    pub id: &'static str,
    /// Shown name.
    pub name: &'static str,
    /// Durability: max AP (a new suit is put on whole).
    pub ap: u32,
    /// DEF%: incoming attack damage is reduced by this percentage.
    pub def_pct: u32,
}

/// Every armor, weakest first; the player starts in the first.
pub static ARMORS: &[Armor] = &[
    Armor {
        id: "quilted_jerkin",
        name: "Quilted Jerkin",
        ap: 15,
        def_pct: 5,
    },
    Armor {
        id: "riveted_hauberk",
        name: "Riveted Hauberk",
        ap: 25,
        def_pct: 10,
    },
    Armor {
        id: "warden_plate",
        name: "Warden Plate",
        ap: 35,
        def_pct: 15,
    },
];

/// A consumable item, used at once when taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// Stable id.
    pub id: &'static str,
    /// Shown name.
    pub name: &'static str,
    /// AP restored.
    pub repair: u32,
    /// HP restored.
    pub heal: u32,
}

/// The items.
pub static ITEMS: &[Item] = &[
    Item {
        id: "repair_kit",
        name: "Repair Kit",
        repair: 15,
        heal: 0,
    },
    Item {
        id: "healing_draught",
        name: "Healing Draught",
        repair: 0,
        heal: 20,
    },
];

/// The player's HP.
pub const PLAYER_HP: u32 = 80;
/// HP restored when the run goes down to a new depth.
pub const DEPTH_REST_HP: u32 = 20;
