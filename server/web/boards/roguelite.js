// The roguelite board: the run's progress (battle, depth, round, the player's phases against
// the limit), the round's phase queue, both fighters with HP, AP (and armor break), Guard,
// speed, energy and statuses with stacks and turns, the enemy's intent, the hand, the piles,
// the rewards with what each does, and the enemy's actions one at a time as they come (the
// latest line of the log, drawn large). Field names follow server/rules/src/roguelite/view.rs.

import { fill, h } from "../dom.js";
import { area, bar, cardFace, effect, pips, sidePanel, stat, tag } from "../parts.js";
import { plural } from "../words.js";

/** @typedef {import("../types").View} View */
/** @typedef {import("../types").BoardCtx} BoardCtx */
/** @typedef {import("../types").Move} Move */
/** @typedef {import("../types").MoveGroup} MoveGroup */
/** @typedef {import("../types").HelpSection} HelpSection */

export const title = "Roguelite";

export const pitch =
  "A dungeon run of nine card battles through three depths, the last against the Hollow Regent. Speed decides who moves when; damage goes to Guard, then armor (AP), then health.";

/** @type {HelpSection[]} */
export const help = [
  {
    title: "The run",
    lines: [
      "Nine battles, three at each depth, one enemy at a time; the ninth is the boss. You start with 80 HP, a Quilted Jerkin (15 AP, 5% defence) and ten cards: 5 Slash, 4 Parry, 1 Rivet.",
      "HP and AP carry over between battles; going down a depth heals 20 HP. After each won battle choose a reward (two cards and one piece of gear) or skip.",
      "You lose the run at 0 HP, or when an enemy still stands after your 30th phase against it.",
    ],
  },
  {
    title: "Your phase",
    lines: [
      "Your Guard resets, statuses count down, you get 3 energy and draw 5 cards. Cards cost 1 or 2 energy; play what you can pay for, then end your turn (the hand is discarded).",
      "The enemy's intent shows the skills it will use next: guard up before a big hit.",
    ],
  },
  {
    title: "Speed",
    lines: [
      "Each round both speeds are rolled (your base is 50, ±5%). The faster side takes 2 phases in a row from 15 points ahead, 3 from 25, one more for every further 10.",
      "Haste +15, Super Fast +30, Slow −10, Stall −15 a stack. Being faster than the enemy gives you initiative: +10% attack damage.",
    ],
  },
  {
    title: "Damage and defence",
    lines: [
      "A hit: base power, +20% per Attack Up, +10% per Momentum, +10% initiative, ×0.7 while Weak; 10% chance of a critical (×1.5); less the defender's armor DEF%.",
      "Damage goes to Guard, then AP, then HP. With armor at 0 AP (Armor Break) half of each hit goes straight to HP.",
      "Bleed: 5% of max HP after each card or action. Poison and Curse: 2 a stack at the end of the phase. Regeneration heals 3 a stack (halved while Cursed). Shield gives Guard each phase. Thorns hit back.",
    ],
  },
];

/** Each status's name and what it does, for its chip's title. */
const STATUSES = {
  bleed: ["Bleed", "loses 5% of max HP after each card played or action taken", "bad"],
  poison: ["Poison", "loses 2 HP a stack at the end of its phase", "bad"],
  curse: ["Curse", "loses 2 HP a stack at the end of its phase; halves Regeneration", "bad"],
  regeneration: ["Regeneration", "heals 3 HP a stack at the start of its phase", "good"],
  shield: ["Shield", "gains a stack of Guard at the start of its phase", "good"],
  haste: ["Haste", "+15 speed a stack", "good"],
  superFast: ["Super Fast", "+30 speed a stack", "good"],
  slow: ["Slow", "−10 speed a stack", "bad"],
  stall: ["Stall", "−15 speed a stack", "bad"],
  atkUp: ["Attack Up", "+20% attack damage a stack", "good"],
  weak: ["Weak", "−30% attack damage", "bad"],
  momentum: ["Momentum", "+10% attack damage a stack; grows with each phase you attack in", "good"],
  thorns: ["Thorns", "deals its stacks back to each attacker that hits", "good"],
};

/** Each stage in words. */
const STAGES = {
  playerPhase: "your phase",
  enemyStart: "the enemy's phase begins",
  enemyAct: "the enemy acts",
  enemyEnd: "the enemy's phase ends",
  reward: "choosing a reward",
  over: "the run is over",
};

/**
 * A fighter's statuses as chips: "Poison ×3 · 2 turns".
 * @param {any[]} statuses
 */
function statusChips(statuses) {
  if (!statuses || !statuses.length) {
    return h("p", { class: "muted small", text: "No statuses." });
  }
  return h(
    "div",
    { class: "effects", "aria-label": "Statuses" },
    statuses.map((s) => {
      const known = STATUSES[/** @type {keyof typeof STATUSES} */ (s.status)];
      const name = known ? known[0] : s.status;
      const parts = [];
      if (s.stacks > 1 || s.status === "momentum") {
        parts.push(`×${s.stacks}`);
      }
      if (s.turns) {
        parts.push(plural(s.turns, "turn"));
      }
      return effect(known && known[2] === "bad" ? `▼ ${name}` : `▲ ${name}`, parts.join(", "), known ? known[2] : "", known ? `${name}: ${known[1]}` : name);
    }),
  );
}

/**
 * The player's side or the enemy's (`who` "player" or "enemy").
 * @param {View} view
 * @param {"player" | "enemy"} who
 */
function fighter(view, who) {
  const game = view.game;
  const f = game[who];
  const acting = who === "player" ? game.stage === "playerPhase" : ["enemyStart", "enemyAct", "enemyEnd"].includes(game.stage);
  const broken = f.max_ap > 0 && f.ap === 0;
  const tags = [];
  if (broken) {
    tags.push(tag("⚠ Armor Break: half of each hit goes to HP", "bad"));
  }
  if (who === "player" && f.initiative) {
    tags.push(tag("initiative +10% damage", "good"));
  }
  const armor = f.max_ap > 0
    ? bar(f.ap, f.max_ap, { kind: "ap", unit: "AP", label: who === "player" ? `Armor (${f.armor})` : "Armor" })
    : h("p", { class: "muted small", text: "No armor." });
  const parts = [
    bar(f.hp, f.max_hp),
    armor,
    h(
      "div",
      { class: "stats" },
      stat("Guard", f.guard, { title: "takes damage first; resets at the start of its own phase" }),
      stat("Defence", `${f.def_pct}%`, { title: "armor: each hit is reduced by this much" }),
      stat("Speed", f.speed, { title: "rolled this round; decides the phase order" }),
      who === "player"
        ? h("div", { class: "stat" }, h("span", { class: "stat-label", text: "Energy" }), h("span", { class: "stat-value" }, pips(f.energy, f.max_energy, "energy")))
        : stat("Energy", `${f.energy} of ${Math.floor((f.energy_base * f.add_energy) / 100)}`, { title: `actions this phase; ${f.energy_base} a phase${f.add_energy !== 100 ? `, ${f.add_energy}% next` : ""}` }),
      who === "enemy" ? stat("Attack", f.atk, { title: "its skills hit for a share of this" }) : null,
    ),
    statusChips(f.statuses),
  ];
  if (who === "enemy" && game.stage !== "over" && game.stage !== "reward") {
    const intent = f.intent || [];
    parts.push(
      h(
        "div",
        { class: "intent" },
        h("strong", { text: acting ? "Still to do this phase: " : "Intends next: " }),
        intent.length ? intent.join(", then ") : "nothing more",
      ),
    );
  }
  return sidePanel({ title: who === "player" ? "You" : f.name, tags, active: acting && view.status === "playing", turn: "▶ acting", mine: who === "player" && view.seat === 0, key: who }, parts);
}

/**
 * The round's phases to come, the current first.
 * @param {View} view
 */
function queue(view) {
  const game = view.game;
  const runs = game.queue || [];
  if (!runs.length) {
    return null;
  }
  return h(
    "ol",
    { class: "phase-queue", "aria-label": "Phases to come this round, the current first" },
    runs.map((/** @type {any} */ run, /** @type {number} */ i) =>
      h("li", { class: `phase-run phase-${run.side}${i === 0 ? " now" : ""}` }, i === 0 ? "▶ " : "", `${run.side === "player" ? "You" : game.enemy.name}: ${plural(run.phases, "phase")}`),
    ),
  );
}

/**
 * @param {View} view
 */
export function situation(view) {
  const game = view.game;
  const stage = STAGES[/** @type {keyof typeof STAGES} */ (game.stage)] || game.stage;
  return `Battle ${game.battle} of ${game.battles} (depth ${game.depth}, ${game.depth_name}) against ${game.enemy.name} · ${stage}`;
}

/**
 * The seated viewer's moves: each card it can pay for, ending the turn, a reward or skipping.
 * @param {View} view
 * @param {BoardCtx} _ctx
 * @returns {MoveGroup[]}
 */
export function moves(view, _ctx) {
  const game = view.game;
  const hand = Array.isArray(game.player.hand) ? game.player.hand : [];
  /** @type {Move[]} */
  const plays = [];
  /** @type {Move[]} */
  const rewards = [];
  /** @type {Move[]} */
  const rest = [];
  for (const entry of view.legal || []) {
    if (entry.kind === "play") {
      const card = hand.find((/** @type {any} */ c) => c.id === entry.card);
      plays.push({
        label: card ? `Play ${card.name} (${card.cost} energy): ${card.text}` : "Play a card",
        action: entry,
        kind: "play",
        about: `card:${entry.card}`,
      });
    } else if (entry.kind === "end_turn") {
      rest.push({ label: "End your turn", action: entry, kind: "end_turn", primary: plays.length === 0 });
    } else if (entry.kind === "take") {
      const offer = (game.offer || []).find((/** @type {any} */ o) => o.id === entry.reward);
      const sort = offer ? { card: "card for your deck", armor: "armor", item: "item, used at once" }[/** @type {"card"} */ (offer.sort)] : "";
      rewards.push({
        label: offer ? `Take ${offer.name} (${sort}): ${offer.text}` : "Take it",
        action: entry,
        kind: "take",
        about: `offer:${entry.reward}`,
      });
    } else if (entry.kind === "skip") {
      rewards.push({ label: "Skip the reward", action: entry, kind: "skip" });
    }
  }
  /** @type {MoveGroup[]} */
  const groups = [];
  if (rewards.length) {
    groups.push({ title: "Choose a reward", moves: rewards });
  }
  if (plays.length) {
    groups.push({ title: `Play a card (${game.player.energy} energy left)`, moves: plays });
  }
  if (rest.length) {
    groups.push({ title: plays.length ? "When you are done" : "No card you can pay for", moves: rest });
  }
  return groups;
}

/**
 * The latest thing that happened, drawn large: during the enemy's phases it is its action.
 * @param {View} view
 */
function latest(view) {
  const log = view.game.log || [];
  if (!log.length || view.game.stage === "over") {
    return null;
  }
  const enemyTurn = ["enemyStart", "enemyAct", "enemyEnd"].includes(view.game.stage);
  return h("p", { class: `latest${enemyTurn ? " enemy" : ""}`, role: "status", "aria-live": "polite" }, h("span", { class: "latest-label", text: enemyTurn ? "Enemy: " : "Last: " }), log[log.length - 1]);
}

/**
 * Draws the board for `view` into `root`.
 * @param {HTMLElement} root
 * @param {View} view
 * @param {BoardCtx} ctx
 */
export function render(root, view, ctx) {
  const game = view.game;
  if (!game || !game.player || !game.enemy) {
    root.replaceChildren();
    return;
  }
  const player = game.player;
  const hand = Array.isArray(player.hand)
    ? area(
        "Your hand",
        h(
          "div",
          { class: "hand own" },
          player.hand.length
            ? player.hand.map((/** @type {any} */ c) => {
                const press = ctx.pressFor(`card:${c.id}`);
                return cardFace({ name: c.name, cost: c.cost, costLabel: "energy", text: c.text, key: `card:${c.id}`, look: press ? "playable" : "", press, title: press ? `Play ${c.name}` : c.name });
              })
            : h("p", { class: "muted small", text: game.stage === "playerPhase" ? "No cards left in hand." : game.stage === "over" ? "The run is over." : "You draw 5 cards at the start of your phase." }),
        ),
        h("p", { class: "piles muted small", text: `Draw pile ${player.draw_count} · discard ${player.discard_count} · deck ${player.deck_size} cards` }),
      )
    : h("p", { class: "piles muted small", text: `Hand ${player.hand_count} · draw pile ${player.draw_count} · discard ${player.discard_count} · deck ${player.deck_size} cards` });
  const offer = game.offer && game.offer.length
    ? area(
        "Rewards",
        h(
          "div",
          { class: "hand" },
          game.offer.map((/** @type {any} */ o) => {
            const press = ctx.pressFor(`offer:${o.id}`);
            return cardFace({ name: o.name, kind: o.sort, text: o.text, key: `offer:${o.id}`, look: `item${press ? " playable" : ""}`, press, title: press ? `Take ${o.name}` : o.name });
          }),
        ),
      )
    : null;
  const phases = game.stage === "playerPhase" ? ` · your phase ${game.turn} of at most ${game.turn_limit}` : "";
  fill(
    root,
    h(
      "p",
      { class: "board-line" },
      h("strong", { text: `Battle ${game.battle} of ${game.battles}` }),
      ` · depth ${game.depth} of ${game.depths}, ${game.depth_name} · round ${game.round}${phases}`,
    ),
    queue(view),
    latest(view),
    h("div", { class: "sides two" }, fighter(view, "player"), fighter(view, "enemy")),
    offer,
    hand,
  );
}
