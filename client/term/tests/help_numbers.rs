//! The numbers the "how to play" pages give are the rules' numbers: each page keeps its
//! numbers in one `NUMBERS` constant, checked here against the constants the rules crate
//! exposes (where it exposes them; the rest follow `docs/rules/<ruleset>.md`).

use battle_rules::TimerSpec;
use battle_term::ui::help::{gambit, heroes, lore, roguelite, synergy, CLOCK};

#[test]
fn the_clock_is_the_standard_clock() {
    let standard = TimerSpec::STANDARD;
    assert_eq!(CLOCK.bank_s * 1000, standard.bank_ms);
    assert_eq!(CLOCK.increment_s * 1000, standard.increment_ms);
    assert_eq!(CLOCK.cap_s * 1000, standard.cap_ms);
    assert_eq!(CLOCK.forfeit_after, standard.forfeit_after);
}

#[test]
fn synergy_numbers() {
    use battle_rules::synergy::{self as rules, cards, score};
    let n = synergy::NUMBERS;
    assert_eq!(n.player_hp, rules::PLAYER_HP);
    assert_eq!(n.automaton_hp, rules::ENEMY_HP);
    assert_eq!(n.energy, rules::ENERGY_PER_TURN);
    assert_eq!(n.draw, rules::TURN_DRAW);
    assert_eq!(n.draw, rules::OPENING_DRAW);
    assert_eq!(n.hand_limit, rules::HAND_LIMIT);
    assert_eq!(n.round_limit, rules::ROUND_LIMIT);
    assert!(cards::POOL.iter().all(|c| c.cost == n.card_cost));
    assert_eq!(n.flame_damage, cards::FLAME_SYNERGY_DAMAGE);
    assert_eq!(n.leaf_block, cards::LEAF_SYNERGY_BLOCK);
    assert_eq!(n.gear_draw, cards::GEAR_SYNERGY_DRAW);
    assert_eq!(n.spectrum_bonus, score::SPECTRUM_BONUS);
    assert_eq!(n.spectrum_multiplier, score::SPECTRUM_MULTIPLIER);
    assert_eq!(n.win_bonus, score::WIN_BONUS);
    assert_eq!(n.healthy_bonus, score::HEALTHY_BONUS);
    assert_eq!(n.healthy_hp, score::HEALTHY_HP);
    assert_eq!(n.automaton_low_hp, battle_rules::synergy::ai::LOW_HP);
    let attack = score::card_score(cards::CardType::Attack, false, 1).total;
    let skill = score::card_score(cards::CardType::Skill, false, 1).total;
    let void = score::card_score(cards::CardType::Attack, true, 1).total;
    assert_eq!(
        (n.attack_score, n.skill_score, n.void_attack_score),
        (attack, skill, void)
    );
}

#[test]
fn gambit_numbers() {
    use battle_rules::gambit::{fight, options, roster, rules, skills, state};
    let n = gambit::NUMBERS;
    assert_eq!(n.slots, rules::SLOTS);
    assert_eq!(n.conditions, rules::MAX_CONDITIONS);
    assert_eq!(n.encounters, roster::ENCOUNTERS.len());
    assert_eq!(n.offered, state::OFFERED);
    assert_eq!(n.max_ticks, fight::MAX_TICKS);
    assert_eq!(n.tick_ms, options::DEFAULT_TICK_MS);
    assert_eq!(n.taunt_ticks, skills::TAUNT_TICKS);
    assert_eq!(n.defend_ticks, skills::DEFEND_TICKS);
    assert_eq!(n.shield, skills::SHIELD_POOL);
    assert_eq!(n.poison_damage, skills::POISON_DAMAGE);
    assert_eq!(n.poison_ticks, skills::POISON_TICKS);
    assert_eq!(n.stun_ticks, skills::STUN_TICKS);
    assert_eq!(n.enraged_bonus, skills::ENRAGED_BONUS);
    assert_eq!(n.execute_pct, skills::EXECUTE_PCT);
    assert_eq!(n.revive_pct, skills::REVIVE_PCT);
}

#[test]
fn heroes_numbers() {
    use battle_rules::heroes::cards::{Kind, CARDS};
    use battle_rules::heroes::items::Tier;
    use battle_rules::heroes::{classes, hero, market, state};
    let n = heroes::NUMBERS;
    assert_eq!(i64::from(n.health), i64::from(hero::START_HEALTH));
    assert_eq!(n.mana_cap, hero::MANA_CAP);
    assert_eq!(n.first_hand, state::OPENING_HAND);
    assert_eq!(n.second_hand, state::OPENING_HAND + 1);
    assert_eq!(n.mulligan, state::MULLIGAN_MAX);
    assert_eq!(n.attack_cost, classes::ATTACK_COST);
    assert_eq!(n.defense_mana, classes::DEFENSE_MANA);
    assert_eq!(
        i64::from(n.defense_armor),
        i64::from(classes::DEFENSE_ARMOR)
    );
    assert_eq!(
        i64::from(n.barbarian_level_armor),
        i64::from(classes::BARBARIAN_LEVEL_ARMOR)
    );
    assert_eq!(n.mage_level_mana, classes::MAGE_LEVEL_MANA);
    assert_eq!(n.max_spell_damage, classes::MAX_SPELL_DAMAGE);
    assert_eq!(n.barbarian_power, classes::BARBARIAN.hero_power.0);
    assert_eq!(n.mage_power, classes::MAGE.hero_power.0);
    assert_eq!(n.barbarian_weapon, classes::BARBARIAN.weapon_damage);
    assert_eq!(n.mage_weapon, classes::MAGE.weapon_damage);
    assert_eq!(n.market, market::MARKET_SIZE);
    assert_eq!(market::tier_of(n.mid_round - 1), Tier::Early);
    assert_eq!(market::tier_of(n.mid_round), Tier::Mid);
    assert_eq!(market::tier_of(n.late_round - 1), Tier::Mid);
    assert_eq!(market::tier_of(n.late_round), Tier::Late);
    assert_eq!(n.round_limit, state::ROUND_LIMIT);
    let bounties: Vec<u32> = CARDS
        .iter()
        .filter_map(|c| match c.kind {
            Kind::Minion { bounty, .. } => Some(bounty),
            _ => None,
        })
        .collect();
    assert_eq!(bounties.iter().min(), Some(&n.bounty_min));
    assert_eq!(bounties.iter().max(), Some(&n.bounty_max));
}

#[test]
fn roguelite_numbers() {
    use battle_rules::roguelite::status::Kind;
    use battle_rules::roguelite::{damage, enemies, equipment, piles, reward, speed, state};
    let n = roguelite::NUMBERS;
    assert_eq!(n.battles, state::BATTLES);
    assert_eq!(n.per_depth, enemies::BATTLES_PER_DEPTH);
    assert_eq!(n.hp, equipment::PLAYER_HP);
    assert_eq!(n.rest_hp, equipment::DEPTH_REST_HP);
    assert_eq!(n.turn_limit, state::TURN_LIMIT);
    assert_eq!(n.energy, state::ENERGY);
    assert_eq!(n.draw, piles::DRAW);
    assert_eq!(n.offered_cards, reward::OFFERED_CARDS);
    let item = |id: &str| {
        equipment::ITEMS
            .iter()
            .find(|i| i.id == id)
            .copied()
            .expect("the item exists")
    };
    assert_eq!(n.repair_kit, item("repair_kit").repair);
    assert_eq!(n.draught, item("healing_draught").heal);
    assert_eq!(n.speed, speed::PLAYER_SPEED);
    assert_eq!(n.variance_pct, speed::VARIANCE_PCT);
    let one_stack = |kind: Kind| {
        let mut statuses = battle_rules::roguelite::status::Statuses::default();
        statuses.gain(kind, 1, 3);
        statuses.speed_modifier()
    };
    assert_eq!(
        n.speed_statuses,
        [
            one_stack(Kind::Haste),
            one_stack(Kind::SuperFast),
            one_stack(Kind::Slow),
            one_stack(Kind::Stall)
        ]
    );
    assert_eq!(n.atk_up_pct, damage::ATK_UP_PCT);
    assert_eq!(n.momentum_pct, damage::MOMENTUM_PCT);
    assert_eq!(n.initiative_pct, damage::INITIATIVE_PCT);
    assert_eq!(n.weak_pct, damage::WEAK_PCT);
    assert_eq!(n.crit_pct, damage::CRIT_BASE);
    assert_eq!(n.crit_max_pct, damage::CRIT_MAX);
    let c = n.caps;
    let caps = [
        (Kind::Bleed, c.bleed),
        (Kind::Poison, c.rot),
        (Kind::Curse, c.rot),
        (Kind::Regeneration, c.regeneration),
        (Kind::Shield, c.shield),
        (Kind::Haste, c.speed),
        (Kind::SuperFast, c.speed),
        (Kind::Slow, c.speed),
        (Kind::Stall, c.speed),
        (Kind::AtkUp, c.atk_up),
        (Kind::Weak, c.weak),
        (Kind::Thorns, c.thorns),
        (Kind::Momentum, c.momentum),
    ];
    for (kind, cap) in caps {
        assert_eq!(kind.cap(), cap, "{}", kind.name());
    }
    // The phases in a row the page gives: under 15 alternates, 15 gives 2, 25 gives 3, 35
    // gives 4.
    assert_eq!(
        [14, 15, 25, 35].map(speed::phases_for),
        [1, 2, 3, 4],
        "the page's phase queue"
    );
}

#[test]
fn lore_numbers() {
    use battle_rules::lore::{decks, state};
    let n = lore::NUMBERS;
    assert_eq!(n.win_lore, state::WIN_LORE);
    assert_eq!(n.deck, decks::DECK_SIZE);
    assert_eq!(n.hand, state::OPENING_HAND);
    assert_eq!(n.copies, decks::MAX_COPIES);
}
