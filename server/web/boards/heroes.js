// The heroes board: both heroes (health, armor, mana, gold, the class resource, level-up
// progress, the four equipment slots, the three abilities with their upgrades, hand, deck and
// discard counts), the battlefield with each minion's attack and health and its state (new,
// tapped, attacking, blocking), the viewer's hand with cost and text, and the shared market
// with each item's text and price. Targets are chosen by clicking the minion or hero, or from
// the list; the mulligan is cards to toggle; blocking is "who blocks whom", then the attacker
// orders each gang. Field names follow server/rules/src/heroes/view.rs.

import { fill, h } from "../dom.js";
import { area, bar, cardFace, disclosure, handCard, mulligan, pips, sidePanel, stat, tag, toggles } from "../parts.js";
import { listWords, plural, seatName, whose, who } from "../words.js";

/** @typedef {import("../types").View} View */
/** @typedef {import("../types").Action} Action */
/** @typedef {import("../types").BoardCtx} BoardCtx */
/** @typedef {import("../types").Move} Move */
/** @typedef {import("../types").MoveGroup} MoveGroup */
/** @typedef {import("../types").HelpSection} HelpSection */

export const title = "Heroes";

export const pitch =
  "A duel of two heroes: play minions and spells with mana that grows each turn, buy equipment from a shared market with gold, attack, block, and level up. Bring the other hero from 20 health to 0.";

export const setups = {
  label: "Hero class",
  choices: [
    { label: "Barbarian", about: "minions and armor; Rage makes weapon attacks hit harder", setup: { class: "barbarian" } },
    { label: "Mage", about: "spells; Spell Damage adds to damage spells", setup: { class: "mage" } },
  ],
};

/** @type {HelpSection[]} */
export const help = [
  {
    title: "A turn",
    lines: [
      "Each turn your maximum mana grows by 1 (up to 10), your mana refills and you draw a card. The player going first starts with 1 mana, the other with 2 and a fifth card.",
      "Spend mana on cards: minions stay on the battlefield (a new minion cannot attack this turn), spells happen at once, upgrades replace one of your abilities for good, ultimates need a levelled hero.",
      "Once a turn each: your hero power (2 mana), a weapon attack (2 mana: your weapon's damage to an enemy minion or hero; a minion hits back), and one purchase from the market with gold.",
      "Killing a minion earns its bounty in gold. At the end of every turn all minions heal fully.",
    ],
  },
  {
    title: "Combat",
    lines: [
      "Declare attackers: your untapped minions that are not new attack the other hero and tap.",
      "The defender blocks with untapped minions (new ones may block); several may block one attacker, and the attacker orders them: each gets lethal damage in turn.",
      "Blocked attackers hit only their blockers; unblocked ones hit the hero. All damage is dealt at once.",
      "Defensive Ability (needs 3 mana available, once a turn): gain 2 Armor and take half the damage of one hit, rounded up.",
    ],
  },
  {
    title: "Armor, gold and levelling up",
    lines: [
      "Armor absorbs damage point for point and is used up by what it absorbs.",
      "The market shows five items: weapons, chest pieces, jewelry, relics (one per slot; a new one replaces the old) and potions. It refreshes at rounds 4 and 7.",
      "Barbarian: Rage (+1 weapon damage and +1 damage taken per hit, per point); levels up at 8 Armor: weapon attacks deal bonus damage equal to Armor.",
      "Mage: Spell Damage (spend it on a damage spell: +1 damage a point, at most 5 held); levels up at 10 max mana: spells cost 1 less.",
      "A hero at 0 health loses; both at once is a draw; after round 40 the game is a draw.",
    ],
  },
];

/** The equipment slots, in the view's order. */
const SLOTS = ["Weapon", "Chest", "Jewelry", "Relic"];

/** The abilities an upgrade may replace, in the view's order. */
const ABILITIES = ["Hero power", "Weapon attack", "Defensive Ability"];

/** Each class's abilities before upgrades. */
const BASE_ABILITIES = {
  Barbarian: ["Cost 2 mana: gain 2 Armor.", "Cost 2 mana, once a turn: weapon damage (base 2) to an enemy.", "Needs 3 mana available: gain 2 Armor, take half of one hit (rounded up)."],
  Mage: ["Cost 2 mana: gain 1 Spell Damage and draw a card.", "Cost 2 mana, once a turn: weapon damage (base 1) to an enemy.", "Needs 3 mana available: gain 2 Armor, take half of one hit (rounded up)."],
};

/** The upgrade cards, by id: their name and what the ability becomes. */
const UPGRADES = {
  brutal_strike: ["Brutal Strike", "Weapon damage +2; a kill takes no damage back."],
  iron_will: ["Iron Will", "Cost 2 mana: gain 3 Armor."],
  unbroken: ["Unbroken", "Gain 3 Armor and take half of one hit (rounded down)."],
  mana_weave: ["Mana Weave", "Cost 1 mana: gain 1 Spell Damage."],
  blink: ["Blink", "Take no damage from one hit."],
};

/**
 * @param {View} view
 * @param {number} seat
 */
function heroName(view, seat) {
  return `${seatName(view, seat)}'s hero`;
}

/**
 * A minion by id.
 * @param {View} view
 * @param {number} id
 */
function minion(view, id) {
  return view.game.minions.find((/** @type {any} */ m) => m.id === id) || null;
}

/**
 * A minion's numbers: "5/3" (attack / health left), with its damage when it has taken some.
 * @param {any} m
 */
function stats(m) {
  return `${m.attack}/${m.health - m.damage}`;
}

/**
 * "Ben's Goblin (2/3)" or "your Goblin (2/3)".
 * @param {View} view
 * @param {any} m
 */
function minionWords(view, m) {
  return `${whose(view, m.owner)} ${m.name} (${stats(m)})`;
}

/**
 * A target key ("hero:1", "minion:43") in words.
 * @param {View} view
 * @param {string} key
 */
function targetWords(view, key) {
  const [kind, id] = key.split(":");
  if (kind === "hero") {
    const seat = Number(id);
    const side = view.game.sides[seat];
    return `${seat === view.seat ? "your hero" : heroName(view, seat)} (${side.health} health)`;
  }
  const m = minion(view, Number(id));
  return m ? minionWords(view, m) : "a minion";
}

/**
 * @param {View} view
 */
export function situation(view) {
  const game = view.game;
  const phase = {
    choosing: "the die decides who chooses to go first",
    mulligan: "both players may put back cards",
    main: `${whose(view, game.active)} turn`,
    combat: `${whose(view, game.active)} attack`,
    incoming: `a hit on ${who(view, 1 - game.active)} waits for a defence`,
    over: "game over",
  }[/** @type {"main"} */ (game.phase)] || game.phase;
  return `Round ${game.round} · ${phase}`;
}

/**
 * What the seated viewer may do in its main phase, in a sentence.
 * @param {View} view
 */
export function hint(view) {
  const game = view.game;
  if (game.phase !== "main" || view.seat === null) {
    return "";
  }
  const side = game.sides[view.seat];
  const kinds = new Set((view.legal || []).map((a) => a.kind));
  const parts = [];
  if (kinds.has("play")) {
    parts.push(`play cards (${side.mana} mana)`);
  }
  if (kinds.has("buy")) {
    parts.push(`buy from the market (${side.gold} gold)`);
  }
  if (kinds.has("hero_power") || kinds.has("attack")) {
    parts.push("use your hero's abilities");
  }
  if (kinds.has("fight")) {
    parts.push("attack with your minions");
  }
  return parts.length ? `You may ${listWords(parts)}, then end your turn.` : "Nothing more to do: end your turn.";
}

/**
 * The current value of the board's choices (the mulligan's cards, the attackers, the blocks,
 * a gang's order), kept in `ctx.ui` across redraws.
 * @param {BoardCtx} ctx
 */
function choices(ctx) {
  if (!ctx.ui.heroes) {
    ctx.ui.heroes = { mulligan: new Set(), attackers: null, blocks: {}, order: null, spend: null };
  }
  return ctx.ui.heroes;
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
  const game = view.game;
  const side = game.sides[seat];
  const state = choices(ctx);
  /** @type {MoveGroup[]} */
  const groups = [];
  /** @type {Move[]} */
  const plays = [];
  /** @type {Move[]} */
  const weapon = [];
  /** @type {Move[]} */
  const buys = [];
  /** @type {Move[]} */
  const other = [];
  /** @type {Move[]} */
  const defends = [];
  let spendMax = 0;
  for (const entry of legal) {
    switch (entry.kind) {
      case "choose_first":
        other.push({ label: entry.first === seat ? "I go first" : `${seatName(view, entry.first)} goes first`, action: entry, kind: "choose_first", primary: entry.first === seat });
        break;
      case "play": {
        const move = playMove(view, entry, state);
        if (move) {
          plays.push(move);
        }
        const spend = entry.spend && entry.spend.$choose ? entry.spend.$choose.maximum : 0;
        spendMax = Math.max(spendMax, spend || 0);
        break;
      }
      case "hero_power": {
        const text = abilityText(side, 0);
        weapon.push({ label: `Use your hero power: ${text}`, action: entry, kind: "hero_power" });
        break;
      }
      case "attack":
        weapon.push({
          label: `Weapon attack on ${targetWords(view, entry.target)}`,
          action: entry,
          kind: "attack",
          about: entry.target,
          aboutName: targetWords(view, entry.target),
          hint: "2 mana, once a turn: your weapon's damage; a minion hits back",
        });
        break;
      case "buy": {
        const item = game.market[entry.slot];
        buys.push({
          label: item ? `Buy ${item.name} (${item.cost} gold)` : "Buy",
          action: entry,
          kind: "buy",
          hint: item ? item.text : undefined,
          about: `market:${entry.slot}`,
          aboutName: item ? item.name : undefined,
        });
        break;
      }
      case "relic": {
        const relic = side.equipment[3];
        const name = relic ? relic.name : "your relic";
        other.push({
          label: entry.target ? `Use ${name} on ${targetWords(view, entry.target)}` : `Use ${name}`,
          action: entry,
          kind: "relic",
          hint: relic ? relic.text : undefined,
          about: entry.target || undefined,
        });
        break;
      }
      case "end_turn":
        other.push({ label: "End your turn", action: entry, kind: "end_turn" });
        break;
      case "defend":
        defends.push(defendMove(view, entry));
        break;
      default:
        break;
    }
  }
  const mulligan = legal.find((e) => e.kind === "mulligan");
  if (mulligan) {
    groups.push({ title: "Your opening hand", note: "Click the cards you want to put back (up to 3); you draw as many new ones.", form: mulliganForm(view, ctx, state), covers: ["mulligan"] });
  }
  const block = legal.find((e) => e.kind === "block");
  if (block) {
    groups.push({ title: "Block", note: "For each of your minions, choose the attacker it blocks, or nobody. Unblocked attackers hit your hero.", form: blockForm(view, ctx, block, state), covers: ["block"] });
  }
  const order = legal.find((e) => e.kind === "order");
  if (order) {
    groups.push({ title: "Order the blockers", note: "Your attacker deals lethal damage to each blocker in this order; the last gets what is left.", form: orderForm(view, ctx, order, state), covers: ["order"] });
  }
  if (defends.length) {
    groups.push({ title: "Defend", note: "Your Defensive Ability (once a turn, needs 3 mana available) works on one hit.", moves: defends });
  }
  if (plays.length) {
    groups.push({ title: `Play a card (${side.mana} mana left)`, moves: plays });
  }
  if (spendMax > 0) {
    groups.push({ title: "Spell Damage", form: spendForm(ctx, state, spendMax) });
  }
  const fight = legal.find((e) => e.kind === "fight");
  if (fight) {
    groups.push({ title: "Attack with minions", note: "Chosen minions tap and attack the other hero; the defender may block.", form: fightForm(view, ctx, fight, state), covers: ["fight"] });
  }
  if (weapon.length) {
    groups.push({ title: "Your hero's abilities", moves: weapon });
  }
  if (buys.length) {
    groups.push({ title: `Market (${side.gold} gold, one purchase a turn)`, moves: buys });
  }
  if (other.length) {
    groups.push({ title: game.phase === "choosing" ? "You won the roll: who goes first?" : "Other moves", moves: other });
  }
  // Choices of a finished decision are forgotten.
  if (!mulligan) {
    state.mulligan = new Set();
  }
  if (!fight) {
    state.attackers = null;
  }
  if (!block) {
    state.blocks = {};
  }
  if (!order) {
    state.order = null;
  }
  return groups;
}

/**
 * An ability's text now: its upgrade's when it has one, else the class's.
 * @param {any} side
 * @param {number} index
 */
function abilityText(side, index) {
  const upgrade = side.upgrades ? side.upgrades[index] : null;
  if (upgrade && upgrade in UPGRADES) {
    return UPGRADES[/** @type {keyof typeof UPGRADES} */ (upgrade)][1];
  }
  const base = BASE_ABILITIES[/** @type {keyof typeof BASE_ABILITIES} */ (side.class)];
  return base ? base[index] : "";
}

/**
 * A card play in words; with targets it opens a picker.
 * @param {View} view
 * @param {Action} entry
 * @param {any} state
 * @returns {Move | null}
 */
function playMove(view, entry, state) {
  const card = handCard(view, entry.card);
  const name = card ? card.name : "a card";
  const cost = card ? ` (${card.cost} mana)` : "";
  const spendSchema = entry.spend && entry.spend.$choose;
  const spend = spendSchema ? Math.min(spendSchema.maximum, state.spend === null ? spendSchema.maximum : state.spend) : entry.spend || 0;
  const spent = spend ? `, spending ${spend} Spell Damage` : "";
  const targetSchema = entry.target && entry.target.$choose;
  const base = { kind: "play", hint: card ? card.text : undefined, about: `card:${entry.card}`, aboutName: name };
  if (targetSchema) {
    /** @type {string[]} */
    const targets = targetSchema.enum || [];
    return {
      ...base,
      label: `Play ${name}${cost}`,
      ask: `${name}: choose a target${spent}`,
      options: targets.map((t) => ({
        label: `${name} on ${targetWords(view, t)}`,
        action: { kind: "play", card: entry.card, target: t, spend },
        kind: "play",
        target: t,
      })),
    };
  }
  return { ...base, label: `Play ${name}${cost}${spent}`, action: { kind: "play", card: entry.card, target: null, spend } };
}

/**
 * A Defensive Ability answer in words.
 * @param {View} view
 * @param {Action} entry
 * @returns {Move}
 */
function defendMove(view, entry) {
  if (entry.source === null) {
    return { label: "Take it without defending", action: entry, kind: "defend" };
  }
  if (view.game.phase === "incoming") {
    const amount = view.game.pending[entry.source];
    return { label: `Defend against the ${amount}-damage hit`, action: entry, kind: "defend", primary: true };
  }
  const m = minion(view, entry.source);
  return {
    label: m ? `Defend against ${minionWords(view, m)}` : "Defend",
    action: entry,
    kind: "defend",
    about: `minion:${entry.source}`,
    aboutName: m ? minionWords(view, m) : undefined,
  };
}

/**
 * The mulligan: a toggle per card, and one button that says what it does.
 * @param {View} view
 * @param {BoardCtx} ctx
 * @param {any} state
 */
function mulliganForm(view, ctx, state) {
  const hand = view.game.sides[/** @type {number} */ (view.seat)].hand || [];
  return mulligan(view, ctx, hand.map((/** @type {any} */ c) => c.id), state.mulligan, 3);
}

/**
 * The attackers: a toggle per ready minion (all chosen at first), and the button.
 * @param {View} view
 * @param {BoardCtx} ctx
 * @param {Action} entry
 * @param {any} state
 */
function fightForm(view, ctx, entry, state) {
  /** @type {number[]} */
  const ready = entry.attackers.$choose.items.enum;
  if (state.attackers === null) {
    state.attackers = new Set(ready);
  }
  /** @type {Set<number>} */
  const chosen = state.attackers;
  const total = ready.filter((id) => chosen.has(id)).reduce((sum, id) => sum + (minion(view, id)?.attack || 0), 0);
  return toggles({
    ids: ready,
    chosen,
    key: "atk",
    redraw: ctx.redraw,
    label: (id, on) => {
      const m = minion(view, id);
      return `${on ? "⚔ " : ""}${m ? `${m.name} (${stats(m)})` : "a minion"}`;
    },
    send: {
      kind: "fight",
      disabled: chosen.size === 0,
      text: chosen.size ? `Attack ${heroName(view, 1 - /** @type {number} */ (view.seat))} with ${plural(chosen.size, "minion")} (${total} damage)` : "Choose at least one minion",
      press: (attackers) => attackers.length && ctx.act({ kind: "fight", attackers }),
    },
  });
}

/**
 * The blocks: for each of the defender's minions, the attacker it blocks (or nobody).
 * @param {View} view
 * @param {BoardCtx} ctx
 * @param {Action} entry
 * @param {any} state
 */
function blockForm(view, ctx, entry, state) {
  /** @type {number[]} */
  const blockers = entry.blockers;
  const schema = entry.attackers.$choose.items;
  const branch = (schema.anyOf || []).find((/** @type {any} */ b) => Array.isArray(b.enum));
  /** @type {number[]} */
  const attackers = branch ? branch.enum : [];
  const rows = blockers.map((id) => {
    const m = minion(view, id);
    const value = state.blocks[id] ?? "";
    const select = h(
      "select",
      {
        id: `block-${id}`,
        dataset: { key: `block:${id}`, blocker: id },
        on: {
          change: () => {
            state.blocks[id] = select.value;
            ctx.redraw();
          },
        },
      },
      h("option", { value: "", text: "does not block", selected: value === "" }),
      attackers.map((a) => {
        const attacker = minion(view, a);
        return h("option", { value: String(a), text: `blocks ${attacker ? `${attacker.name} (${stats(attacker)})` : "an attacker"}`, selected: value === String(a) });
      }),
    );
    return h("div", { class: "form-line" }, h("label", { for: `block-${id}`, text: m ? `Your ${m.name} (${stats(m)})` : "Your minion" }), select);
  });
  const picked = blockers.map((id) => (state.blocks[id] ? Number(state.blocks[id]) : null));
  const count = picked.filter((p) => p !== null).length;
  return h(
    "div",
    { class: "choice-form" },
    rows,
    h("button", {
      type: "button",
      class: "move",
      dataset: { kind: "block", key: "block-send" },
      text: count ? `Block with ${plural(count, "minion")}` : "Do not block",
      on: { click: () => ctx.act({ kind: "block", blockers, attackers: picked }) },
    }),
  );
}

/**
 * A gang's order: its blockers with buttons to move each up or down.
 * @param {View} view
 * @param {BoardCtx} ctx
 * @param {Action} entry
 * @param {any} state
 */
function orderForm(view, ctx, entry, state) {
  /** @type {number[]} */
  const gang = entry.order.$choose.items.enum;
  if (!state.order || state.order.attacker !== entry.attacker || state.order.ids.length !== gang.length || !gang.every((id) => state.order.ids.includes(id))) {
    state.order = { attacker: entry.attacker, ids: [...gang] };
  }
  /** @type {number[]} */
  const ids = state.order.ids;
  const attacker = minion(view, entry.attacker);
  /**
   * @param {number} from
   * @param {number} to
   */
  const swap = (from, to) => {
    [ids[from], ids[to]] = [ids[to], ids[from]];
    ctx.redraw();
  };
  return h(
    "div",
    { class: "choice-form" },
    h("p", { text: attacker ? `Your ${attacker.name} (${stats(attacker)}) is blocked by:` : "Your attacker is blocked by:" }),
    h(
      "ol",
      { class: "order-list" },
      ids.map((id, i) => {
        const m = minion(view, id);
        return h(
          "li",
          {},
          h("span", { text: m ? minionWords(view, m) : "a minion" }),
          h("button", { type: "button", class: "secondary small-button", dataset: { key: `up:${id}` }, disabled: i === 0 || null, text: "↑ earlier", "aria-label": `Move ${m ? m.name : "it"} earlier`, on: { click: () => swap(i, i - 1) } }),
          h("button", { type: "button", class: "secondary small-button", dataset: { key: `down:${id}` }, disabled: i === ids.length - 1 || null, text: "↓ later", "aria-label": `Move ${m ? m.name : "it"} later`, on: { click: () => swap(i, i + 1) } }),
        );
      }),
    ),
    h("button", {
      type: "button",
      class: "move",
      dataset: { kind: "order", key: "order-send" },
      text: "Confirm this order",
      on: { click: () => ctx.act({ kind: "order", attacker: entry.attacker, order: [...ids] }) },
    }),
  );
}

/**
 * How much Spell Damage the next damage spell spends.
 * @param {BoardCtx} ctx
 * @param {any} state
 * @param {number} max
 */
function spendForm(ctx, state, max) {
  const value = state.spend === null ? max : Math.min(state.spend, max);
  const select = h(
    "select",
    {
      id: "spend",
      dataset: { key: "spend" },
      on: {
        change: () => {
          state.spend = Number(select.value);
          ctx.redraw();
        },
      },
    },
    Array.from({ length: max + 1 }, (_, n) => h("option", { value: String(n), text: `${n} (+${n} damage)`, selected: n === value })),
  );
  return h("div", { class: "form-line" }, h("label", { for: "spend", text: "Spend on your next damage spell:" }), select);
}

/**
 * A hero's panel.
 * @param {View} view
 * @param {number} seat
 * @param {BoardCtx} ctx
 */
function heroBox(view, seat, ctx) {
  const game = view.game;
  const side = game.sides[seat];
  const active = game.active === seat && view.status === "playing";
  const mine = view.seat === seat;
  const tags = [tag(side.class, "class")];
  if (game.first === seat) {
    tags.push(tag("went first", ""));
  }
  const heroKey = `hero:${seat}`;
  const press = ctx.pressFor(heroKey);
  const targeted = ctx.targets.has(heroKey);
  const [now, need] = side.level_progress || [0, 0];
  const level = side.levelled
    ? h("div", { class: "levelled" }, tag("★ levelled up", "good"))
    : bar(Math.min(now, need), need, { kind: "xp", unit: "", text: `Levels up: ${side.level_up.replace(/^Have/, "at").replace(/^Reach/, "at")} (${now}/${need})` });
  const worn = side.equipment.some(Boolean);
  const equipment = worn
    ? h(
        "ul",
        { class: "slots", "aria-label": "Equipment" },
        SLOTS.map((slot, i) => {
          const item = side.equipment[i];
          return h(
            "li",
            { class: item ? "slot filled" : "slot", title: item ? item.text : `no ${slot.toLowerCase()}` },
            h("span", { class: "slot-name", text: slot }),
            h("span", { class: "slot-item", text: item ? item.name : "—" }),
            item ? h("span", { class: "slot-text", text: item.text }) : null,
          );
        }),
      )
    : h("p", { class: "muted small", text: "Equipment: none yet (a weapon, a chest piece, jewelry and a relic can be bought)." });
  const abilities = h(
    "ul",
    { class: "abilities", "aria-label": "Abilities" },
    ABILITIES.map((name, i) => {
      const upgrade = side.upgrades ? side.upgrades[i] : null;
      const upgradeName = upgrade && upgrade in UPGRADES ? UPGRADES[/** @type {keyof typeof UPGRADES} */ (upgrade)][0] : null;
      return h("li", {}, h("strong", { text: upgradeName ? `${name} (${upgradeName})` : name }), `: ${abilityText(side, i)}`);
    }),
  );
  const heroLine = h(
    press ? "button" : "div",
    {
      type: press ? "button" : null,
      class: `hero-face${press ? " pressable" : ""}${targeted ? " targeted" : ""}`,
      dataset: { key: heroKey },
      title: press ? `Choose ${targetWords(view, heroKey)}` : null,
      on: press ? { click: press } : {},
    },
    bar(side.health, side.max_health, { label: "Health", unit: "" }),
    targeted ? h("span", { class: "target-mark", text: "◎ target" }) : null,
  );
  return sidePanel(
    { title: mine ? `Your hero (${seatName(view, seat)})` : heroName(view, seat), tags, active, mine, key: `side:${seat}` },
    h(
      "div",
      { class: "hero-body" },
      h(
        "div",
        {},
        heroLine,
        h(
          "div",
          { class: "stats" },
          stat("Armor", side.armor, { title: "absorbs damage point for point" }),
          h("div", { class: "stat" }, h("span", { class: "stat-label", text: "Mana" }), h("span", { class: "stat-value" }, pips(side.mana, side.max_mana, "mana"))),
          stat("Gold", side.gold, { title: "spent in the market" }),
          stat(side.resource_name, side.resource, { title: side.class === "Mage" ? "+1 damage a point spent on a damage spell" : "+1 weapon damage and +1 damage taken per hit, a point" }),
        ),
        level,
        h("p", { class: "piles muted small", text: `Hand ${side.hand_count} · deck ${side.deck_count} · discard ${side.discard.length}` }),
      ),
      h("div", {}, equipment, disclosure(ctx.ui, `abilities:${seat}`, "Abilities", abilities)),
    ),
  );
}

/**
 * A minion on the battlefield, with its state in words.
 * @param {View} view
 * @param {any} m
 * @param {BoardCtx} ctx
 */
function minionCard(view, m, ctx) {
  const game = view.game;
  const key = `minion:${m.id}`;
  const press = ctx.pressFor(key);
  const targeted = ctx.targets.has(key);
  const combat = game.combat;
  const attacking = combat && combat.attackers.includes(m.id);
  const blocking = combat && combat.blocks ? combat.blocks.find((/** @type {number[]} */ b) => b[0] === m.id) : null;
  const blocked = blocking ? minion(view, blocking[1]) : null;
  return cardFace({
    name: m.name,
    stats: [["attack", m.attack], ["health", m.damage ? `${m.health - m.damage}/${m.health}` : m.health]],
    look: `minion${m.tapped ? " tapped" : ""}${targeted ? " targeted" : ""}${press ? " playable" : ""}`,
    key,
    title: press ? `Choose ${minionWords(view, m)}` : `${m.name}: attack ${m.attack}, health ${m.health - m.damage} of ${m.health}, bounty ${m.bounty} gold`,
    press,
    marks: [
      attacking ? tag("⚔ attacking", "bad") : null,
      blocked ? tag(`🛡 blocks ${blocked.name}`, "good") : null,
      m.sick ? tag("new: attacks next turn", "") : null,
      m.tapped ? tag("tapped", "") : null,
      m.damage ? tag(`${m.damage} damage`, "bad") : null,
      targeted ? tag("◎ target", "target") : null,
      tag(`bounty ${m.bounty}`, "muted"),
    ],
  });
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
  const row = (/** @type {number} */ seat) => {
    const list = game.minions.filter((/** @type {any} */ m) => m.owner === seat);
    return h(
      "div",
      { class: "minion-row", "aria-label": `${whose(view, seat, true)} minions` },
      h("span", { class: "row-label", text: `${whose(view, seat, true)} minions` }),
      list.length ? list.map((/** @type {any} */ m) => minionCard(view, m, ctx)) : h("span", { class: "muted small", text: "none" }),
    );
  };
  const mySide = game.sides[me];
  const hand = Array.isArray(mySide.hand)
    ? area(
        view.seat === null ? `${seatName(view, me)}'s hand` : "Your hand",
        h(
          "div",
          { class: "hand own" },
          mySide.hand.length
            ? mySide.hand.map((/** @type {any} */ c) => {
                const press = ctx.pressFor(`card:${c.id}`);
                const chosen = choices(ctx).mulligan.has(c.id) && game.phase === "mulligan";
                return cardFace({
                  name: c.name,
                  cost: c.cost,
                  costLabel: "mana",
                  text: c.text,
                  key: `card:${c.id}`,
                  look: `${press ? "playable" : ""}${chosen ? " chosen" : ""}`,
                  press,
                  marks: [chosen ? tag("↩ to put back", "bad") : null],
                });
              })
            : h("p", { class: "muted", text: "No cards in hand." }),
        ),
      )
    : null;
  const market = area(
    `Market (${game.market_tier} items; refreshes at rounds 4 and 7)`,
    h(
      "div",
      { class: "market" },
      game.market.map((/** @type {any} */ item, /** @type {number} */ slot) => {
        if (!item) {
          return h("div", { class: "card empty-slot muted", text: "sold" });
        }
        const press = ctx.pressFor(`market:${slot}`);
        return cardFace({ name: item.name, cost: item.cost, costLabel: "gold", text: item.text, key: `market:${slot}`, look: `item${press ? " playable" : ""}`, press, title: press ? `Buy ${item.name} for ${item.cost} gold` : `${item.name}: ${item.cost} gold` });
      }),
    ),
  );
  const pending = game.phase === "incoming" && game.pending.length
    ? h("p", { class: "alert", text: `Incoming: ${game.pending.map((/** @type {number} */ n) => `${n} damage`).join(", ")} to ${whose(view, 1 - game.active)} hero, waiting for a defence.` })
    : null;
  fill(
    root,
    h("p", { class: "board-line" }, h("strong", { text: `Round ${game.round}` }), ` · ${situation(view).replace(/^Round \d+ · /, "")}`, game.rolls && game.phase === "choosing" ? ` · the die: ${seatName(view, 0)} ${game.rolls[0]}, ${seatName(view, 1)} ${game.rolls[1]}` : ""),
    pending,
    heroBox(view, them, ctx),
    area("Battlefield", row(them), h("hr", { class: "battle-line" }), row(me)),
    heroBox(view, me, ctx),
    hand,
    market,
  );
}
