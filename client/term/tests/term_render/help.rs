//! The "how to play" page of every ruleset: what a newcomer needs (goal, turn, resources,
//! statuses and keywords with their numbers, scoring) on the first screen and below, the
//! keys at its end, and scrolling when it is longer than the screen.

use battle_term::ui::help::sections;
use battle_term::ui::Screen;
use battle_term::Link;
use serde_json::Value;

use super::{assert_snapshot, render_with, Extras};

/// The terminal people try the client in (tmux's 120 x 40).
const ROOMY: Option<(u16, u16)> = Some((120, 40));

/// The help page over `view`'s screen, scrolled `rows` down.
fn page(view: Value, rows: usize) -> String {
    render_with(
        view,
        Link::Connected,
        Extras {
            show_help: true,
            help_scroll: rows,
            size: ROOMY,
            ..Extras::default()
        },
    )
}

/// The page's text, one paragraph a line, as [`sections`] gives it before wrapping.
fn paragraphs(view: &Value) -> String {
    let tracker = super::tracker(view.clone());
    let link = Link::Connected;
    let screen = Screen::of(&tracker, &link);
    sections(&screen)
        .iter()
        .flat_map(|s| std::iter::once(s.heading.clone()).chain(s.lines.iter().cloned()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every needle is on the page, and the page's title names the ruleset.
fn assert_teaches(view: &Value, needles: &[&str]) {
    let text = paragraphs(view);
    let title = needles[0];
    assert!(
        page(view.clone(), 0).contains(title),
        "the title is {title:?}"
    );
    for needle in &needles[1..] {
        assert!(text.contains(needle), "the page lacks {needle:?}:\n{text}");
    }
}

#[test]
fn synergy_page() {
    let view = super::mid_battle(Some(0));
    assert_teaches(
        &view,
        &[
            "how to play synergy",
            "Bring the other side to 0 HP. You start with 60 HP, the Training Automaton with 70",
            "After round 40",
            "You draw 5 cards",
            "have 3 energy. Every card costs 1",
            "Block absorbs damage before HP",
            "• Flame: +3 damage",
            "• Leaf: +3 block",
            "• Gear: the card draws 1 more card.",
            "• Void: the card scores x1.5",
            "all four sigils in one turn gives +20",
            "scores 10 (attack) or 8 (skill)",
            "the winner gets +100 and a side with 40 HP or more +30",
            "• [1] Ember Strike (Flame attack): Deal 7 damage.",
            "1..9       play the card",
        ],
    );
    assert_snapshot("help_synergy", &page(view, 0));
}

#[test]
fn gambit_page() {
    let view = super::gambit::planning();
    assert_teaches(
        &view,
        &[
            "how to play gambit",
            "win 6 encounters in a row",
            "reaches 600 ticks",
            "Each character has 3 rule slots",
            "up to 2 conditions",
            "• Taunting (4 ticks)",
            "• Defending (3 ticks): damage taken is halved",
            "a pool of 30",
            "• Poisoned: 5 damage every tick for 4 ticks",
            "• Stunned (2 ticks)",
            "• Enraged: the next attack deals +15",
            "at or below 25%",
            "one of 3 offered skills",
            "The skills in this battle",
            "Tab ← →    select a character",
        ],
    );
    assert_snapshot("help_gambit", &page(view, 0));
}

#[test]
fn heroes_page() {
    let mut view = super::heroes::main_phase(Some(0));
    view["clocks"] = serde_json::json!([{"bank_ms": 120_000, "deadline": null},
        {"bank_ms": 120_000, "deadline": null}]);
    assert_teaches(
        &view,
        &[
            "how to play heroes",
            "Bring the other hero from 20 health to 0",
            "after round 40",
            "4 cards and 1 mana, the second with 5 cards and 2 mana",
            "up to 3 cards (mulligan)",
            "max mana goes up by 1 (to 10",
            "once a turn, 2 mana",
            "summoning sickness",
            "its bounty (1 to 3 gold)",
            "Armor absorbs damage point for point",
            "while you have 3 mana available (it costs none)",
            "gain 2 Armor and take half of that hit",
            "Rage: each point adds 1 to your Attack's damage and 1 to each hit you take",
            "Levels up at 8 Armor",
            "Spell Damage (at most 5)",
            "Levels up at 10 max mana: spells cost 1 less",
            "Channeled",
            "from round 4, late items from round 7",
            "The clock",
            "a 2:00 bank, +15 s a decision, at most 1:30 for one",
            "after 3 such decisions in a row the seat forfeits",
            "Enter      take the action under the cursor",
        ],
    );
    assert_snapshot("help_heroes", &page(view, 0));
}

#[test]
fn roguelite_page() {
    let view = super::roguelite::player_phase(Some(0));
    assert_teaches(
        &view,
        &[
            "how to play roguelite",
            "Win a run of 9 card battles through 3 depths",
            "after your 30th phase",
            "You start with 80 HP",
            "+20 HP",
            "a Repair Kit, +15 AP; a Healing Draught, +20 HP",
            "you get 3 energy and draw 5 cards",
            "yours is 50",
            "Haste +15, Super Fast +30, Slow -10, Stall -15",
            "initiative: +10%",
            "Guard first, then AP",
            "Armor Break",
            "a 10% chance plus the card's own, at most 80%",
            "• Bleed (1): 5% of max HP",
            "• Poison (20), Curse (20): 2 HP a stack",
            "• Regeneration (10): heals 3 HP a stack",
            "• Attack Up (5): +20% attack damage a stack. Weak (1): -30%",
            "• Thorns (10)",
            "• Momentum (3, yours)",
        ],
    );
    assert_snapshot("help_roguelite", &page(view, 0));
}

#[test]
fn lore_page() {
    let view = super::lore::main_phase(Some(0));
    assert_teaches(
        &view,
        &[
            "how to play lore",
            "Be the first to 20 lore",
            "draw from an empty deck loses",
            "Each deck holds 60 cards (at most 4 of one card)",
            "draws 7",
            "Once a turn you may ink a card marked inkable: it is shown to both players",
            "drying",
            "Quest: exert a ready, dry character of yours to gain its lore.",
            "Challenge:",
            "The bag",
            "resolves all of theirs first",
            "every inked card is named as it goes into the inkwell",
            "e          end your turn",
        ],
    );
    assert_snapshot("help_lore", &page(view, 0));
}

#[test]
fn a_long_page_scrolls_and_says_where_it_is() {
    let view = super::roguelite::player_phase(Some(0));
    let top = page(view.clone(), 0);
    assert!(top.contains("rows 1-"), "{top}");
    assert!(top.contains("Goal") && !top.contains("Keys"), "{top}");
    let end = page(view.clone(), 10_000);
    assert!(end.contains("Keys"), "the end shows the keys:\n{end}");
    assert!(!end.contains("Goal"), "{end}");
    assert_snapshot("help_roguelite_end", &end);
}
