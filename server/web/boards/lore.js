// The lore board: the race to 20 lore, each player's ink (ready and total) and inkwell (its
// cards for its owner alone), the cards in play with strength, willpower, damage, drying and
// exerted, the viewer's hand with cost, the inkwell mark and text, the bag of triggers and
// whose resolution is next. A challenge is chosen by clicking the challenger, then its target.
// Field names follow server/rules/src/lore/view.rs.

import { fill, h } from "../dom.js";
import { area, bar, cardFace, handCard, mulligan, sidePanel, stat, tag } from "../parts.js";
import { listWords, plural, seatName, whose, who } from "../words.js";

/** @typedef {import("../types").View} View */
/** @typedef {import("../types").Action} Action */
/** @typedef {import("../types").BoardCtx} BoardCtx */
/** @typedef {import("../types").Move} Move */
/** @typedef {import("../types").MoveGroup} MoveGroup */
/** @typedef {import("../types").HelpSection} HelpSection */

export const title = "Lore";

export const pitch =
  "A race to 20 lore. Put cards into your inkwell for ink, spend ink to play characters, then send them questing for lore or challenging the other side's characters.";

export const setups = {
  label: "Deck",
  choices: [
    { label: "Emberfall", about: "cheap fighters, damage, and exerting to challenge", setup: { ready_deck: "emberfall" } },
    { label: "Tidewater", about: "sturdy questers, card draw, lore from items and locations", setup: { ready_deck: "tidewater" } },
  ],
};

/** @type {HelpSection[]} */
export const help = [
  {
    title: "Winning",
    lines: [
      "The first player to 20 lore wins at once. A player who must draw from an empty deck loses.",
      "Each player starts with 7 cards and may put any of them back once (you draw back to 7).",
    ],
  },
  {
    title: "A turn",
    lines: [
      "Your cards and ink ready up, your characters stop drying, your locations give their lore, and you draw a card (not on the game's very first turn).",
      "Then, in any order: ink one card a turn (only cards with the ◆ inkwell mark) — it becomes 1 ink for good;",
      "play cards by exerting that much ready ink: characters enter drying (they cannot quest or challenge until your next turn), actions happen at once, items and locations stay;",
      "quest: exert a ready, dry character to gain its lore;",
      "challenge: exert a ready, dry character to fight an exerted opposing character (or a location): each deals its strength to the other; damage at or above willpower banishes.",
      "Pass the turn when you are done.",
    ],
  },
  {
    title: "The bag",
    lines: [
      "Triggered abilities (“when you play…”, “at the start of your turn…”) wait in the bag.",
      "The player whose turn it is resolves all of theirs first, in the order they choose; then the other player. Nothing else may be done while a trigger waits.",
    ],
  },
];

/**
 * Every card in play, by id.
 * @param {View} view
 * @param {number} id
 * @returns {any}
 */
function inPlay(view, id) {
  for (const side of view.game.sides) {
    const card = side.play.find((/** @type {any} */ c) => c.id === id);
    if (card) {
      return card;
    }
  }
  return null;
}

/**
 * The owner of the card in play with id `id`.
 * @param {View} view
 * @param {number} id
 */
function ownerOf(view, id) {
  return view.game.sides.findIndex((/** @type {any} */ s) => s.play.some((/** @type {any} */ c) => c.id === id));
}

/**
 * A card in play in words: "Ben's Copper Squire (2 strength, 1 of 3 willpower left)".
 * @param {View} view
 * @param {number} id
 */
function playWords(view, id) {
  const card = inPlay(view, id);
  if (!card) {
    return "a card";
  }
  const owner = ownerOf(view, id);
  const numbers =
    card.kind === "character"
      ? ` (${card.strength} strength, ${card.willpower - card.damage} of ${card.willpower} willpower left)`
      : card.kind === "location"
        ? ` (location, ${card.willpower - card.damage} of ${card.willpower} willpower left)`
        : "";
  return `${whose(view, owner)} ${card.name}${numbers}`;
}

/**
 * A card's numbers, each over its name: strength, willpower, lore.
 * @param {any} c
 * @returns {[string, number | string][]}
 */
function numbers(c) {
  if (c.kind === "character") {
    return [["strength", c.strength], ["willpower", c.willpower], ["lore", c.lore]];
  }
  if (c.kind === "location") {
    return [["willpower", c.willpower], ["lore a turn", c.lore]];
  }
  return [];
}

/**
 * The same in one line of words: "2 strength, 3 willpower, 1 lore".
 * @param {any} c
 */
function numberWords(c) {
  return numbers(c).map(([label, value]) => `${value} ${label}`).join(", ");
}

/**
 * @param {View} view
 */
export function situation(view) {
  const game = view.game;
  const lore = game.sides.map((/** @type {any} */ s, /** @type {number} */ seat) => `${who(view, seat, true)}: ${s.lore}`).join(", ");
  const phase = {
    mulligan: "opening hands",
    set: `${whose(view, game.active)} turn begins`,
    main: `${whose(view, game.active)} turn`,
    end: `${whose(view, game.active)} turn ends`,
    over: "game over",
  }[/** @type {"main"} */ (game.phase)] || game.phase;
  const bag = game.bag.length ? ` · ${plural(game.bag.length, "trigger")} in the bag` : "";
  return `Turn ${game.turn} · ${phase} · lore (${game.win_lore} wins) ${lore}${bag}`;
}

/**
 * What the seated viewer may do in its main phase, in a sentence.
 * @param {View} view
 */
export function hint(view) {
  const game = view.game;
  if (game.phase !== "main" || view.seat === null || game.bag.length) {
    return "";
  }
  const side = game.sides[view.seat];
  const kinds = new Set((view.legal || []).map((a) => a.kind));
  const parts = [];
  if (kinds.has("ink")) {
    parts.push("ink a card");
  }
  if (kinds.has("play")) {
    parts.push(`play cards with your ${side.ink_ready} ready ink`);
  }
  if (kinds.has("quest")) {
    parts.push("quest");
  }
  if (kinds.has("challenge")) {
    parts.push("challenge");
  }
  return parts.length ? `You may ${listWords(parts)}, then pass the turn.` : "Nothing more to do: pass the turn.";
}

/**
 * The open parts of the mulligan, kept across redraws.
 * @param {BoardCtx} ctx
 */
function choices(ctx) {
  if (!ctx.ui.lore) {
    ctx.ui.lore = { mulligan: new Set() };
  }
  return ctx.ui.lore;
}

/**
 * The seated viewer's moves, in words.
 * @param {View} view
 * @param {BoardCtx} ctx
 * @returns {MoveGroup[]}
 */
export function moves(view, ctx) {
  const legal = view.legal || [];
  const seat = /** @type {number} */ (view.seat);
  const side = view.game.sides[seat];
  /** @type {Move[]} */
  const inks = [];
  /** @type {Move[]} */
  const plays = [];
  /** @type {Move[]} */
  const characters = [];
  /** @type {Move[]} */
  const resolves = [];
  /** @type {Move[]} */
  const rest = [];
  for (const entry of legal) {
    switch (entry.kind) {
      case "ink": {
        const card = handCard(view, entry.card);
        const name = card ? card.name : "a card";
        inks.push({ label: `Ink ${name}`, action: entry, kind: "ink", hint: "put it into your inkwell: 1 more ink for good", about: `card:${entry.card}`, aboutName: name });
        break;
      }
      case "play": {
        const card = handCard(view, entry.card);
        const name = card ? card.name : "a card";
        const base = { kind: "play", hint: card ? card.text || numberWords(card) : undefined, about: `card:${entry.card}`, aboutName: name };
        const schema = entry.target && entry.target.$choose;
        if (schema) {
          /** @type {number[]} */
          const targets = schema.enum || [];
          plays.push({
            ...base,
            label: `Play ${name} (${card ? card.cost : "?"} ink)`,
            ask: `${name}: choose a character`,
            options: targets.map((t) => ({ label: `${name} on ${playWords(view, t)}`, action: { kind: "play", card: entry.card, target: t }, kind: "play", target: `play:${t}` })),
          });
        } else {
          plays.push({ ...base, label: `Play ${name} (${card ? card.cost : "?"} ink)`, action: entry });
        }
        break;
      }
      case "quest": {
        const card = inPlay(view, entry.character);
        const name = card ? card.name : "a character";
        characters.push({ label: `Quest with ${name} (+${card ? card.lore : "?"} lore)`, action: entry, kind: "quest", about: `play:${entry.character}`, aboutName: `Your ${name}`, primary: false });
        break;
      }
      case "challenge": {
        const card = inPlay(view, entry.challenger);
        const name = card ? card.name : "a character";
        /** @type {number[]} */
        const targets = entry.target.$choose.enum || [];
        characters.push({
          label: `Challenge with ${name} (${card ? card.strength : "?"} strength)`,
          kind: "challenge",
          about: `play:${entry.challenger}`,
          aboutName: `Your ${name}`,
          ask: `${name} challenges: choose an exerted opposing character or a location`,
          options: targets.map((t) => ({ label: `Challenge ${playWords(view, t)} with ${name}`, action: { kind: "challenge", challenger: entry.challenger, target: t }, kind: "challenge", target: `play:${t}` })),
        });
        break;
      }
      case "resolve": {
        const trigger = view.game.bag.find((/** @type {any} */ t) => t.id === entry.trigger);
        const name = trigger ? trigger.name : "a trigger";
        const base = { kind: "resolve", hint: trigger ? trigger.text : undefined, about: `bag:${entry.trigger}`, aboutName: name };
        const schema = entry.target && entry.target.$choose;
        if (schema) {
          /** @type {number[]} */
          const targets = schema.enum || [];
          resolves.push({
            ...base,
            label: `Resolve ${name}: ${trigger ? trigger.text : ""}`,
            ask: `${name}: ${trigger ? trigger.text : ""} Choose the character.`,
            options: targets.map((t) => ({ label: `${name} on ${playWords(view, t)}`, action: { kind: "resolve", trigger: entry.trigger, target: t }, kind: "resolve", target: `play:${t}` })),
          });
        } else {
          resolves.push({ ...base, label: `Resolve ${name}: ${trigger ? trigger.text : ""}`, action: entry });
        }
        break;
      }
      case "pass_turn":
        rest.push({ label: "Pass the turn", action: entry, kind: "pass_turn" });
        break;
      default:
        break;
    }
  }
  /** @type {MoveGroup[]} */
  const groups = [];
  const mulligan = legal.find((e) => e.kind === "mulligan");
  if (mulligan) {
    groups.push({ title: "Your opening hand", note: "Click the cards you want to put on the bottom of your deck; you draw back to 7.", form: mulliganForm(view, ctx, mulligan), covers: ["mulligan"] });
  } else {
    choices(ctx).mulligan = new Set();
  }
  if (resolves.length) {
    groups.push({ title: "Resolve a trigger from the bag", note: "Choose which of yours resolves next.", moves: resolves });
  }
  if (inks.length) {
    groups.push({ title: "Ink a card (once a turn)", moves: inks });
  }
  if (plays.length) {
    groups.push({ title: `Play a card (${side.ink_ready} ink ready)`, moves: plays });
  }
  if (characters.length) {
    groups.push({ title: "Your ready characters", moves: characters });
  }
  if (rest.length) {
    groups.push({ title: "When you are done", moves: rest });
  }
  return groups;
}

/**
 * The mulligan: a toggle per card and one button.
 * @param {View} view
 * @param {BoardCtx} ctx
 * @param {Action} entry
 */
function mulliganForm(view, ctx, entry) {
  return mulligan(view, ctx, entry.cards.$choose.items.enum, choices(ctx).mulligan);
}

/**
 * A card in play: its numbers now, its damage, and whether it is ready, exerted or drying.
 * @param {View} view
 * @param {any} c
 * @param {BoardCtx} ctx
 */
function playCard(view, c, ctx) {
  const key = `play:${c.id}`;
  const press = ctx.pressFor(key);
  const targeted = ctx.targets.has(key);
  const isCharacter = c.kind === "character";
  const left = c.willpower === null ? null : c.willpower - c.damage;
  return cardFace({
    name: c.name,
    kind: c.kind,
    text: c.text,
    stats: numbers(c),
    key,
    look: `in-play${c.exerted ? " tapped" : ""}${targeted ? " targeted" : ""}${press ? " playable" : ""}`,
    press,
    title: press ? `${c.name}: choose` : c.text || c.name,
    marks: [
      c.damage ? tag(`${c.damage} damage (${left} left)`, "bad") : null,
      isCharacter && c.drying ? tag("drying: acts next turn", "") : null,
      c.exerted ? tag("↷ exerted", "") : isCharacter && !c.drying ? tag("ready", "good") : null,
      targeted ? tag("◎ target", "target") : null,
    ],
  });
}

/**
 * One player's panel: lore, ink, counts, inkwell (own) and cards in play.
 * @param {View} view
 * @param {number} seat
 * @param {BoardCtx} ctx
 */
function sideBox(view, seat, ctx) {
  const game = view.game;
  const side = game.sides[seat];
  const active = game.active === seat && view.status === "playing";
  const mine = view.seat === seat;
  const tags = [];
  if (game.first === seat) {
    tags.push(tag("went first", ""));
  }
  if (side.inked && active) {
    tags.push(tag("inked this turn", ""));
  }
  const inkwell = Array.isArray(side.inkwell)
    ? h("p", { class: "inkwell small", text: side.inkwell.length ? `Inkwell: ${side.inkwell.map((/** @type {any} */ c) => c.name).join(", ")}` : "Inkwell: empty" })
    : null;
  const cards = side.play;
  return sidePanel(
    { title: mine ? `You (${seatName(view, seat)})` : seatName(view, seat), tags, active, mine, key: `side:${seat}` },
    bar(side.lore, game.win_lore, { kind: "lore", unit: "lore", label: "Lore" }),
    h(
      "div",
      { class: "stats" },
      stat("Ink ready", `${side.ink_ready} of ${side.ink_total}`, { title: "ready ink pays for cards; it readies at the start of the turn" }),
      stat("Hand", side.hand_count),
      stat("Deck", side.deck_count),
      stat("Discard", side.discard.length),
    ),
    inkwell,
    h(
      "div",
      { class: "in-play", "aria-label": `${whose(view, seat, true)} cards in play` },
      cards.length ? cards.map((/** @type {any} */ c) => playCard(view, c, ctx)) : h("p", { class: "muted small", text: "Nothing in play." }),
    ),
  );
}

/**
 * The bag: every trigger waiting, its owner, and who chooses next.
 * @param {View} view
 * @param {BoardCtx} ctx
 */
function bagBox(view, ctx) {
  const game = view.game;
  if (!game.bag.length) {
    return null;
  }
  const chooser = typeof game.chooser === "number" ? `${who(view, game.chooser, true)} ${view.seat === game.chooser ? "choose" : "chooses"} which of ${view.seat === game.chooser ? "yours" : "theirs"} resolves next.` : "";
  return area(
    `The bag (${plural(game.bag.length, "trigger")})`,
    h("p", { class: "small", text: chooser }),
    h(
      "ul",
      { class: "bag" },
      game.bag.map((/** @type {any} */ t) => {
        const press = ctx.pressFor(`bag:${t.id}`);
        return h(
          press ? "button" : "li",
          { type: press ? "button" : null, class: `bag-item${press ? " pressable" : ""}`, dataset: { key: `bag:${t.id}` }, on: press ? { click: press } : {} },
          h("strong", { text: `${t.name}` }),
          ` (${whose(view, t.owner)}): ${t.text}`,
        );
      }),
    ),
  );
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
  const me = view.seat === null ? 0 : view.seat;
  const them = 1 - me;
  const mySide = game.sides[me];
  const hand = Array.isArray(mySide.hand)
    ? area(
        "Your hand",
        h(
          "div",
          { class: "hand own" },
          mySide.hand.length
            ? mySide.hand.map((/** @type {any} */ c) => {
                const press = ctx.pressFor(`card:${c.id}`);
                const putBack = game.phase === "mulligan" && choices(ctx).mulligan.has(c.id);
                return cardFace({
                  name: c.name,
                  cost: c.cost,
                  costLabel: "ink",
                  kind: c.kind,
                  text: c.text,
                  stats: numbers(c),
                  key: `card:${c.id}`,
                  look: `${press ? "playable" : ""}${putBack ? " chosen" : ""}`,
                  press,
                  marks: [c.inkable ? tag("◆ inkable", "ink") : tag("not inkable", "muted"), putBack ? tag("↩ to put back", "bad") : null],
                });
              })
            : h("p", { class: "muted", text: "No cards in hand." }),
        ),
      )
    : null;
  fill(
    root,
    sideBox(view, them, ctx),
    bagBox(view, ctx),
    sideBox(view, me, ctx),
    hand,
  );
}
