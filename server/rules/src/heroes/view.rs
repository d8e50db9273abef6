//! The view, built once for every viewer: everything the spec lists as public (minions,
//! heroes, gold, equipment, upgrades, hand counts, discard piles, level-up status, the
//! market) and each hand marked for its own seat alone; a deck is only a count.

use serde::Serialize;

use super::cards::Card;
use super::items::Item;
use super::state::{Heroes, Phase};
use crate::view::{literal, Only};

/// The whole game.
#[derive(Serialize)]
pub struct HeroesView<'a> {
    /// Whose turn it is.
    active: usize,
    /// The combat in progress, if any.
    combat: Option<CombatView>,
    /// Who went first.
    first: usize,
    /// The five market slots (`null`: bought until the next refresh).
    market: Vec<Option<ItemView>>,
    /// The market's tier: early, mid, late.
    #[serde(serialize_with = "literal")]
    market_tier: &'static str,
    /// Minions in play.
    minions: Vec<MinionView>,
    /// Hits waiting for the defending hero's answer (phase `incoming`).
    pending: Vec<u32>,
    /// `choosing`, `mulligan`, `main`, `combat`, `incoming`, `over`.
    #[serde(serialize_with = "literal")]
    phase: &'static str,
    result: Option<ResultView<'a>>,
    /// The die rolls for first player.
    rolls: [u32; 2],
    round: u32,
    sides: [SideView; 2],
}

#[derive(Serialize)]
struct ResultView<'a> {
    summary: &'a str,
    winners: &'a [usize],
}

#[derive(Serialize)]
struct CombatView {
    attackers: Vec<u32>,
    /// `[blocker, attacker]` pairs, once declared.
    blocks: Option<Vec<[u32; 2]>>,
}

#[derive(Serialize)]
struct ItemView {
    cost: u32,
    #[serde(serialize_with = "literal")]
    id: &'static str,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    #[serde(serialize_with = "literal")]
    text: &'static str,
}

fn item_view(item: &'static Item) -> ItemView {
    ItemView {
        cost: item.cost,
        id: item.id,
        name: item.name,
        text: item.text,
    }
}

#[derive(Serialize)]
struct MinionView {
    attack: u32,
    bounty: u32,
    damage: u32,
    health: u32,
    id: u32,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    owner: usize,
    sick: bool,
    tapped: bool,
}

#[derive(Serialize)]
struct CardView {
    #[serde(serialize_with = "literal")]
    card: &'static str,
    cost: u32,
    id: u32,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    #[serde(serialize_with = "literal")]
    text: &'static str,
}

fn card_view(id: u32, card: &'static Card) -> CardView {
    CardView {
        card: card.id,
        cost: card.cost,
        id,
        name: card.name,
        text: card.text,
    }
}

#[derive(Serialize)]
struct SideView {
    armor: i32,
    #[serde(serialize_with = "literal")]
    class: &'static str,
    deck_count: usize,
    discard: Vec<CardView>,
    equipment: Vec<Option<ItemView>>,
    gold: u32,
    hand: Only<Vec<CardView>>,
    hand_count: usize,
    health: i32,
    levelled: bool,
    /// The level-up condition's progress: [now, needed] (armor, or max mana).
    level_progress: [i32; 2],
    #[serde(serialize_with = "literal")]
    level_up: &'static str,
    mana: u32,
    max_health: i32,
    max_mana: u32,
    mulliganed: bool,
    resource: u32,
    #[serde(serialize_with = "literal")]
    resource_name: &'static str,
    /// Upgrades on the hero power, Attack and Defensive Ability (card ids).
    upgrades: Vec<Option<&'static str>>,
}

impl Heroes {
    /// Every viewer's view.
    pub fn view_all(&self) -> HeroesView<'_> {
        let side_view = |seat: usize| {
            let side = &self.sides[seat];
            let hero = &side.hero;
            SideView {
                armor: hero.armor,
                class: hero.class.name,
                deck_count: side.deck.len(),
                discard: side
                    .discard
                    .iter()
                    .map(|h| card_view(h.id, h.card))
                    .collect(),
                equipment: hero.equipment.iter().map(|i| i.map(item_view)).collect(),
                gold: hero.gold,
                hand: Only::seat(
                    seat,
                    side.hand.iter().map(|h| card_view(h.id, h.card)).collect(),
                ),
                hand_count: side.hand.len(),
                health: hero.health,
                levelled: hero.levelled,
                level_progress: {
                    let (now, needed) = hero.level_progress();
                    [now, needed]
                },
                level_up: hero.class.level_up,
                mana: hero.mana,
                max_health: hero.max_health,
                max_mana: hero.max_mana,
                mulliganed: side.mulliganed,
                resource: hero.resource,
                resource_name: hero.class.resource,
                upgrades: side.upgrades.iter().map(|u| u.map(|c| c.id)).collect(),
            }
        };
        HeroesView {
            active: self.active,
            combat: match &self.phase {
                Phase::Combat(c) => Some(CombatView {
                    attackers: c.attackers.clone(),
                    blocks: c
                        .blocks
                        .as_ref()
                        .map(|b| b.iter().map(|&(x, y)| [x, y]).collect()),
                }),
                _ => None,
            },
            first: self.first,
            market: self.market.slots.iter().map(|i| i.map(item_view)).collect(),
            market_tier: match self.market.tier {
                super::items::Tier::Early => "early",
                super::items::Tier::Mid => "mid",
                super::items::Tier::Late => "late",
            },
            minions: self
                .minions
                .iter()
                .map(|m| MinionView {
                    attack: m.attack,
                    bounty: m.bounty,
                    damage: m.damage,
                    health: m.health,
                    id: m.id,
                    name: self.minion_cards.get(&m.id).map_or("Token", |c| c.name),
                    owner: m.owner,
                    sick: m.sick,
                    tapped: m.tapped,
                })
                .collect(),
            pending: self.pending.clone(),
            phase: match self.phase {
                Phase::Choosing(_) => "choosing",
                Phase::Mulligan => "mulligan",
                Phase::Main => "main",
                Phase::Combat(_) => "combat",
                Phase::Incoming => "incoming",
                Phase::Over => "over",
            },
            result: self.finish.as_ref().map(|outcome| ResultView {
                summary: &outcome.summary,
                winners: &outcome.winners,
            }),
            rolls: self.rolls,
            round: self.round,
            sides: [side_view(0), side_view(1)],
        }
    }
}
