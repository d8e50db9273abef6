//! The fixed card pool of spec section 6 and each card's pure numeric effect (section 4).
//!
//! A card definition is static data; what a card does when it resolves is computed by
//! [`CardDef::effect`] from an [`EffectContext`] alone, so the same card in the same context
//! always gives the same numbers.

/// A card's type (spec section 4): attacks score 10, skills score 8 (section 9.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CardType {
    /// Deals damage.
    Attack,
    /// Any other numeric effect.
    Skill,
}

impl CardType {
    /// The lowercase name used in views.
    pub fn as_str(self) -> &'static str {
        match self {
            CardType::Attack => "attack",
            CardType::Skill => "skill",
        }
    }

    /// Base score for resolving a card of this type (spec 9.1).
    pub fn base_score(self) -> u32 {
        match self {
            CardType::Attack => 10,
            CardType::Skill => 8,
        }
    }
}

/// The four sigils of spec section 5, shown in views by their capitalised names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Sigil {
    /// Synergy: +3 final attack damage.
    Flame,
    /// Synergy: +3 final block gain.
    Leaf,
    /// Synergy: one extra card drawn when the card resolves.
    Gear,
    /// Synergy: the card's score gain x1.5, rounded down.
    Void,
}

impl Sigil {
    /// Every sigil, in the order the per-turn counters are stored and shown.
    pub const ALL: [Sigil; 4] = [Sigil::Flame, Sigil::Leaf, Sigil::Gear, Sigil::Void];

    /// Position of this sigil in [`Sigil::ALL`] (and in a side's counters).
    pub fn index(self) -> usize {
        match self {
            Sigil::Flame => 0,
            Sigil::Leaf => 1,
            Sigil::Gear => 2,
            Sigil::Void => 3,
        }
    }

    /// The capitalised name used in views and the log.
    pub fn as_str(self) -> &'static str {
        match self {
            Sigil::Flame => "Flame",
            Sigil::Leaf => "Leaf",
            Sigil::Gear => "Gear",
            Sigil::Void => "Void",
        }
    }
}

/// What kind of numeric effect a card has; the amount is always the card's base value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EffectKind {
    /// Deal damage to the opposing side.
    Damage,
    /// Gain block.
    Block,
    /// Draw cards.
    Draw,
    /// Add to the damage of the next attack this turn (Ashen Focus).
    Focus,
    /// Remove block from the opposing side, never below 0 (Void Echo).
    StripBlock,
}

/// One card definition: the fields of spec section 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardDef {
    /// Stable id, "C001".."C010".
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Attack or skill.
    pub kind: CardType,
    /// Energy needed to play it (`energyCost`).
    pub cost: u32,
    /// The number its effect uses (`baseValue`).
    pub value: u32,
    /// Its sigil.
    pub sigil: Sigil,
    /// Its effect.
    pub effect: EffectKind,
    /// What it does, in a player's words (shown with the card; our own wording).
    pub text: &'static str,
}

/// Everything a card's effect may depend on when it resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EffectContext {
    /// Whether this card's sigil synergy is active (its sigil counter, this card included, is 2
    /// or more).
    pub synergy: bool,
    /// Pending Ashen Focus damage of the playing side (only attacks use it).
    pub focus: u32,
}

/// The numbers a resolving card produces. Fields a card does not touch stay 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EffectOutput {
    /// Damage dealt to the opposing side, before its block absorbs any.
    pub damage: u32,
    /// Block gained by the playing side.
    pub block: u32,
    /// Cards the playing side draws (Gear synergy's extra card included).
    pub draw: u32,
    /// Focus added for the next attack this turn.
    pub focus_gain: u32,
    /// Block removed from the opposing side.
    pub strip_block: u32,
    /// Whether the pending focus was used up by this card.
    pub focus_used: bool,
}

/// Flame synergy bonus to a damage card's final damage (spec 5.3).
pub const FLAME_SYNERGY_DAMAGE: u32 = 3;
/// Leaf synergy bonus to a block card's final block gain (spec 5.3).
pub const LEAF_SYNERGY_BLOCK: u32 = 3;
/// Gear synergy's extra card drawn (spec 5.3).
pub const GEAR_SYNERGY_DRAW: u32 = 1;

impl CardDef {
    /// The card's pure numeric effect in `ctx` (spec section 4's `effect(context)`).
    ///
    /// Flame synergy adds to damage cards only, Leaf synergy to block cards only, Gear synergy
    /// adds a draw to every Gear card; Void synergy changes only the score (see `score.rs`).
    pub fn effect(&self, ctx: EffectContext) -> EffectOutput {
        let mut out = EffectOutput::default();
        match self.effect {
            EffectKind::Damage => {
                let flame = if ctx.synergy && self.sigil == Sigil::Flame {
                    FLAME_SYNERGY_DAMAGE
                } else {
                    0
                };
                out.damage = self.value + ctx.focus + flame;
                out.focus_used = ctx.focus > 0;
            }
            EffectKind::Block => {
                let leaf = if ctx.synergy && self.sigil == Sigil::Leaf {
                    LEAF_SYNERGY_BLOCK
                } else {
                    0
                };
                out.block = self.value + leaf;
            }
            EffectKind::Draw => out.draw = self.value,
            EffectKind::Focus => out.focus_gain = self.value,
            EffectKind::StripBlock => out.strip_block = self.value,
        }
        if ctx.synergy && self.sigil == Sigil::Gear {
            out.draw += GEAR_SYNERGY_DRAW;
        }
        out
    }

    /// Whether this card deals damage (every attack in the pool does).
    pub fn deals_damage(&self) -> bool {
        self.effect == EffectKind::Damage
    }

    /// Whether this card gains block.
    pub fn gains_block(&self) -> bool {
        self.effect == EffectKind::Block
    }
}

const fn card(
    id: &'static str,
    name: &'static str,
    kind: CardType,
    value: u32,
    sigil: Sigil,
    effect: EffectKind,
    text: &'static str,
) -> CardDef {
    CardDef {
        id,
        name,
        kind,
        cost: 1,
        value,
        sigil,
        effect,
        text,
    }
}

/// The ten cards of spec section 6, in id order. Every card costs 1 energy.
pub const POOL: [CardDef; 10] = [
    card(
        "C001",
        "Ember Strike",
        CardType::Attack,
        7,
        Sigil::Flame,
        EffectKind::Damage,
        "Deal 7 damage. Flame synergy: +3 damage.",
    ),
    card(
        "C002",
        "Ember Strike+",
        CardType::Attack,
        9,
        Sigil::Flame,
        EffectKind::Damage,
        "Deal 9 damage. Flame synergy: +3 damage.",
    ),
    card(
        "C003",
        "Thorn Jab",
        CardType::Attack,
        6,
        Sigil::Leaf,
        EffectKind::Damage,
        "Deal 6 damage. Counts toward Leaf synergy (which adds block to Leaf block cards).",
    ),
    card(
        "C004",
        "Cog Shot",
        CardType::Attack,
        6,
        Sigil::Gear,
        EffectKind::Damage,
        "Deal 6 damage. Gear synergy: draw 1 card.",
    ),
    card(
        "C005",
        "Null Pierce",
        CardType::Attack,
        5,
        Sigil::Void,
        EffectKind::Damage,
        "Deal 5 damage. Void synergy: x1.5 score for this card.",
    ),
    card(
        "C006",
        "Bark Guard",
        CardType::Skill,
        8,
        Sigil::Leaf,
        EffectKind::Block,
        "Gain 8 block. Leaf synergy: +3 block.",
    ),
    card(
        "C007",
        "Clockwork Guard",
        CardType::Skill,
        7,
        Sigil::Gear,
        EffectKind::Block,
        "Gain 7 block. Gear synergy: draw 1 card.",
    ),
    card(
        "C008",
        "Spark Cycle",
        CardType::Skill,
        1,
        Sigil::Gear,
        EffectKind::Draw,
        "Draw 1 card. Gear synergy: draw 1 more.",
    ),
    card(
        "C009",
        "Ashen Focus",
        CardType::Skill,
        2,
        Sigil::Flame,
        EffectKind::Focus,
        "Your next attack this turn deals +2 damage. Counts toward Flame synergy.",
    ),
    card(
        "C010",
        "Void Echo",
        CardType::Skill,
        2,
        Sigil::Void,
        EffectKind::StripBlock,
        "The opponent loses 2 block (not below 0). Void synergy: x1.5 score for this card.",
    ),
];

/// The pool card with this id ("C001".."C010", in any letter case: "c001" too), if any.
pub fn find(id: &str) -> Option<&'static CardDef> {
    POOL.iter().find(|def| def.id.eq_ignore_ascii_case(id))
}
