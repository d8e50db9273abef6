// The synergy board: both sides (health, block, energy, score, the turn's multiplier, focus,
// this turn's sigil counts, the piles), the viewer's own hand as cards to play, the other
// hand as a count, the round, and once the battle is over each side's final score and where
// it comes from. Field names follow the ruleset's view (server/rules/src/synergy/view.rs).

import { fill, h } from "../dom.js";
import { bar, cardFace, ownHand, pips, sidePanel, stat, tag } from "../parts.js";
import { seatName, who } from "../words.js";

/** @typedef {import("../types").View} View */
/** @typedef {import("../types").BoardCtx} BoardCtx */
/** @typedef {import("../types").Move} Move */
/** @typedef {import("../types").MoveGroup} MoveGroup */
/** @typedef {import("../types").HelpSection} HelpSection */

export const title = "Synergy";

export const pitch =
  "A card duel of four sigils: Flame, Leaf, Gear and Void. Play two cards of one sigil in a turn to set off its synergy; knock the other side out or outscore it.";

/** @type {HelpSection[]} */
export const help = [
  {
    title: "Your turn",
    lines: [
      "You get 3 energy and draw 5 cards at the start of each turn; every card costs 1 energy.",
      "Play cards by clicking them (or the buttons under “Your moves”), then end your turn. Cards left in your hand are discarded.",
      "Block soaks up damage before health and is removed at the start of your own next turn.",
    ],
  },
  {
    title: "Sigils and synergy",
    lines: [
      "The second card of a sigil in one turn, and every one after it, sets off the sigil's synergy:",
      "Flame: +3 damage. Leaf: +3 block. Gear: draw 1 more card. Void: the card scores ×1.5.",
      "All four sigils in one turn double the turn's score and add a flat +20.",
    ],
  },
  {
    title: "Winning",
    lines: [
      "Against the Training Automaton you start with 60 health, it with 70; two players start with 60 each.",
      "Knockouts are judged after both sides have played a round: bring the other side to 0 health.",
      "Each card played scores (attack 10, skill 8). The winner adds +100, and a side still standing with 40 health or more +30.",
      "After 40 rounds without a knockout the Automaton wins; between two players it is a draw.",
    ],
  },
];

/** The sigils in the order their counters are shown. */
const SIGILS = ["Flame", "Leaf", "Gear", "Void"];

/** How much energy a side starts each of its turns with. */
const TURN_ENERGY = 3;

/**
 * The side's name: the player's given name for a person's seat, the game's own (the Training
 * Automaton) otherwise.
 * @param {View} view
 * @param {number} seat
 */
function sideName(view, seat) {
  const side = view.game.sides[seat];
  if (view.game.mode === "pve" && seat === 1) {
    return side.name;
  }
  return seatName(view, seat);
}

/**
 * What a card does now, in a few words.
 * @param {any} card
 */
function cardLine(card) {
  return `${card.sigil} ${card.type}${card.synergy ? ", synergy now" : ""}`;
}

/**
 * @param {View} view
 */
export function situation(view) {
  const game = view.game;
  const active = typeof game.active === "number" ? game.active : null;
  const turn = active === null ? "" : ` · ${active === view.seat ? "your" : `${sideName(view, active)}'s`} turn`;
  return `Round ${game.round} of ${game.round_limit}${turn}`;
}

/**
 * The seated viewer's moves: each playable card, and ending the turn.
 * @param {View} view
 * @param {BoardCtx} _ctx
 * @returns {MoveGroup[]}
 */
export function moves(view, _ctx) {
  const hand = ownHand(view) || [];
  /** @type {Move[]} */
  const plays = [];
  /** @type {Move[]} */
  const rest = [];
  for (const action of view.legal || []) {
    if (action.kind === "play_card") {
      const card = hand.find((c) => c.id === action.card);
      plays.push({
        label: card ? `Play ${card.name}` : "Play a card",
        action,
        kind: "play_card",
        hint: card ? `${card.text} (${cardLine(card)})` : undefined,
        about: `card:${action.card}`,
      });
    } else if (action.kind === "end_turn") {
      rest.push({ label: "End your turn", action, kind: "end_turn", primary: plays.length === 0 });
    }
  }
  /** @type {MoveGroup[]} */
  const groups = [];
  if (plays.length) {
    groups.push({ title: "Play a card (1 energy each)", moves: plays });
  }
  if (rest.length) {
    groups.push({ title: plays.length ? "When you are done" : "No card left to play", moves: rest });
  }
  return groups;
}

/**
 * @param {any} side
 */
function energy(side) {
  return h("div", { class: "stat" }, h("span", { class: "stat-label", text: "Energy" }), h("span", { class: "stat-value" }, pips(side.energy, TURN_ENERGY, "energy")));
}

/**
 * This turn's sigil counts, each with its word and whether its synergy is on.
 * @param {any} side
 */
function sigils(side) {
  return h(
    "div",
    { class: "sigils", "aria-label": "Cards of each sigil played this turn" },
    SIGILS.map((name) => {
      const count = side.sigils?.[name] ?? 0;
      const lit = count >= 2 ? "synergy" : count >= 1 ? "played" : "none";
      const mark = count >= 2 ? "★ " : "";
      return h("span", { class: `sigil sigil-${name}`, dataset: { lit }, title: `${name} cards played this turn: ${count}${count >= 2 ? " (synergy on)" : ""}` }, `${mark}${name} ${count}`);
    }),
  );
}

/**
 * @param {View} view
 * @param {number} seat
 * @param {BoardCtx} ctx
 */
function sideBox(view, seat, ctx) {
  const side = view.game.sides[seat];
  const active = view.game.active === seat && view.status === "playing";
  return sidePanel(
    { title: sideName(view, seat), active, mine: view.seat === seat, turn: "▶ to play", key: `side:${seat}` },
    bar(side.hp, side.max_hp, { label: "Health", unit: "" }),
    h(
      "div",
      { class: "stats" },
      stat("Block", side.block, { title: "soaks up damage before health" }),
      energy(side),
      stat("Score", side.score),
      stat("Multiplier", `×${side.turn_multiplier}`, { kind: side.turn_multiplier > 1 ? "hot" : "", title: "this turn's score multiplier" }),
      stat("Focus", side.focus ? `+${side.focus}` : 0, { title: "added to the next attack this turn" }),
    ),
    sigils(side),
    h("p", { class: "piles muted small", text: `Hand ${side.hand_count} · draw pile ${side.draw_count} · discard ${side.discard_count}` + (side.spectrum_bonus_taken ? " · full spectrum this turn" : "") }),
    handBox(view, seat, ctx),
  );
}

/**
 * @param {View} view
 * @param {number} seat
 * @param {BoardCtx} ctx
 */
function handBox(view, seat, ctx) {
  const side = view.game.sides[seat];
  if (view.seat === seat && Array.isArray(side.hand)) {
    if (!side.hand.length) {
      return h("p", { class: "hand empty muted", text: "No cards in hand." });
    }
    return h(
      "div",
      { class: "hand own", "aria-label": "Your hand" },
      side.hand.map((/** @type {any} */ c) => {
        const press = ctx.pressFor(`card:${c.id}`);
        return cardFace({
          name: c.name,
          cost: c.cost,
          costLabel: "energy",
          kind: cardLine(c),
          text: c.text,
          look: `sigil-border-${c.sigil}${press ? " playable" : ""}`,
          key: `card:${c.id}`,
          title: press ? `Play ${c.name}` : `${c.name}: not playable now`,
          press,
          marks: [c.synergy ? tag("★ synergy now", "good") : null],
        });
      }),
    );
  }
  const backs = [];
  for (let i = 0; i < side.hand_count; i += 1) {
    backs.push(h("span", { class: "card-back", "aria-hidden": "true" }));
  }
  return h("div", { class: "hand hidden-hand" }, backs, h("span", { class: "muted small", text: ` ${side.hand_count} cards in hand (hidden)` }));
}

/**
 * Each side's final score and where it comes from.
 * @param {View} view
 */
function resultBox(view) {
  const result = view.game.result;
  if (!result) {
    return null;
  }
  const rows = result.breakdown.map((/** @type {any} */ b, /** @type {number} */ seat) => {
    const name = sideName(view, seat);
    const how = b.zeroed_by
      ? `0 (${b.zeroed_by})`
      : `${b.score} from cards` + (b.win_bonus ? ` + ${b.win_bonus} for the win` : "") + (b.hp_bonus ? ` + ${b.hp_bonus} for health` : "") + ` = ${b.total}`;
    const won = result.winner === seat;
    return h("tr", { class: won ? "won" : "" }, h("td", { text: `${won ? "★ " : ""}${name}${won ? " (winner)" : ""}` }), h("td", { text: how }));
  });
  return h("section", { class: "area syn-result" }, h("h4", { class: "area-title", text: "Final scores" }), h("table", {}, h("tbody", {}, rows)));
}

/**
 * Draws the board for `view` into `root`.
 * @param {HTMLElement} root
 * @param {View} view
 * @param {BoardCtx} ctx
 */
export function render(root, view, ctx) {
  const game = view.game;
  if (!game || !Array.isArray(game.sides)) {
    root.replaceChildren();
    return;
  }
  const opponent = game.mode === "pve" ? "against the Training Automaton" : "player against player";
  const order = view.seat === 1 ? [1, 0] : [0, 1];
  fill(
    root,
    h("p", { class: "board-line" }, h("strong", { text: `Round ${game.round} of ${game.round_limit}` }), ` · ${opponent}`, typeof game.active === "number" && view.status === "playing" ? ` · ${who(view, game.active, true)} ${view.seat === game.active ? "are" : "is"} playing` : ""),
    h("div", { class: "sides two" }, order.map((seat) => sideBox(view, seat, ctx))),
    resultBox(view),
  );
}
