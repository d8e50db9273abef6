// The synergy board: both sides (HP bar, block, energy, score, turn multiplier, focus, this
// turn's sigil counters, hand, draw and discard counts, who holds the seat), the viewer's own
// hand as cards (a playable one is played by clicking it), the other hand as a count, the
// round, and once the battle is over each side's final score and where it comes from. Field
// names follow the ruleset's view (server/rules/src/synergy/view.rs).

import { fill, h } from "./dom.js";

/** The sigils in the order their counters are shown. */
const SIGILS = ["Flame", "Leaf", "Gear", "Void"];

/** The ruleset's states in words (`sides` names the two sides). */
const STATES = {
  ready: () => "setting up",
  playerTurn: (sides) => `${sides[0].name}'s turn`,
  enemyTurn: (sides) => `${sides[1].name}'s turn`,
  resolution: () => "resolving the round",
  gameOver: () => "game over",
};

/** How much energy a side starts each of its turns with. */
const TURN_ENERGY = 3;

function ownHand(view) {
  const seat = view.seat;
  const hand = seat === null ? null : view.game.sides[seat]?.hand;
  return Array.isArray(hand) ? hand : null;
}

/** Names synergy's actions for the play buttons: "Play Ember Strike", "End the turn". */
export function describe(view) {
  const hand = ownHand(view) || [];
  return (action) => {
    if (action.kind === "play_card") {
      const card = hand.find((c) => c.id === action.card);
      return card ? `Play ${card.name}` : `Play card ${action.card}`;
    }
    if (action.kind === "end_turn") {
      return "End the turn";
    }
    return action.kind;
  };
}

function hpBar(side) {
  const max = Math.max(1, side.max_hp);
  const share = Math.max(0, Math.min(1, side.hp / max));
  const level = share <= 0.25 ? "low" : share <= 0.5 ? "mid" : "high";
  return h(
    "div",
    { class: "hp", dataset: { level } },
    h("div", { class: "hp-fill", style: `width: ${(share * 100).toFixed(1)}%` }),
    h("span", { class: "hp-text", text: `${side.hp} / ${side.max_hp} HP` }),
  );
}

function stat(label, value, extra = {}) {
  return h("div", { class: "stat", ...extra }, h("span", { class: "stat-label", text: label }), h("span", { class: "stat-value", text: String(value) }));
}

function energy(side) {
  const pips = [];
  for (let i = 0; i < Math.max(TURN_ENERGY, side.energy); i += 1) {
    pips.push(h("span", { class: i < side.energy ? "pip on" : "pip" }));
  }
  return h("div", { class: "stat" }, h("span", { class: "stat-label", text: "Energy" }), h("span", { class: "stat-value pips", title: `${side.energy} energy` }, pips, ` ${side.energy}`));
}

function sigils(side) {
  return h(
    "div",
    { class: "sigils" },
    SIGILS.map((name) => {
      const count = side.sigils?.[name] ?? 0;
      const lit = count >= 2 ? "synergy" : count >= 1 ? "played" : "none";
      return h("span", { class: `sigil sigil-${name}`, dataset: { lit }, title: `${name} cards played this turn` }, `${name} ${count}`);
    }),
  );
}

function sideBox(view, seat, ctx) {
  const side = view.game.sides[seat];
  const active = view.game.active === seat && view.status === "playing";
  const holder = view.seats ? view.seats[seat] : null;
  const tags = [];
  if (view.seat === seat) {
    tags.push(h("span", { class: "tag you", text: "you" }));
  }
  if (holder && holder !== "connected") {
    tags.push(h("span", { class: `tag holder-${holder}`, text: holder }));
  }
  if (active) {
    tags.push(h("span", { class: "tag turn", text: "to play" }));
  }
  const multiplier = side.turn_multiplier > 1 ? "mult hot" : "mult";
  return h(
    "section",
    { class: active ? "syn-side active" : "syn-side", dataset: { seat } },
    h("header", {}, h("h3", { text: side.name }), h("span", { class: "muted", text: `seat ${seat}` }), tags),
    hpBar(side),
    h(
      "div",
      { class: "stats" },
      stat("Block", side.block),
      energy(side),
      stat("Score", side.score),
      stat("Multiplier", `×${side.turn_multiplier}`, { "class": `stat ${multiplier}` }),
      stat("Focus", side.focus ? `+${side.focus}` : 0),
    ),
    sigils(side),
    h("div", { class: "piles muted", text: `Hand ${side.hand_count} · Draw ${side.draw_count} · Discard ${side.discard_count}` + (side.spectrum_bonus_taken ? " · full spectrum this turn" : "") }),
    handBox(view, seat, ctx),
  );
}

function card(c, playable, ctx) {
  return h(
    playable ? "button" : "div",
    {
      type: playable ? "button" : null,
      class: `card sigil-border-${c.sigil}${playable ? " playable" : ""}`,
      dataset: { cardId: c.id, card: c.card },
      title: playable ? `Play ${c.name}` : c.name,
      on: playable ? { click: () => ctx.act({ kind: "play_card", card: c.id }) } : {},
    },
    h("div", { class: "card-top" }, h("span", { class: "card-name", text: c.name }), h("span", { class: "card-cost", text: String(c.cost) })),
    h("div", { class: `card-sigil sigil sigil-${c.sigil}`, text: `${c.sigil} ${c.type}` }),
    h("div", { class: "card-text", text: c.text }),
    c.synergy ? h("div", { class: "card-synergy", text: "★ synergy now" }) : null,
  );
}

function handBox(view, seat, ctx) {
  const side = view.game.sides[seat];
  if (view.seat === seat && Array.isArray(side.hand)) {
    const playable = new Set(
      (view.legal || []).filter((a) => a.kind === "play_card").map((a) => a.card),
    );
    if (!side.hand.length) {
      return h("div", { class: "hand empty muted", text: "No cards in hand." });
    }
    return h("div", { class: "hand own" }, side.hand.map((c) => card(c, playable.has(c.id), ctx)));
  }
  const backs = [];
  for (let i = 0; i < side.hand_count; i += 1) {
    backs.push(h("span", { class: "card-back" }));
  }
  return h("div", { class: "hand hidden-hand", title: "a hidden hand" }, backs, h("span", { class: "muted", text: ` ${side.hand_count} in hand` }));
}

function resultBox(view) {
  const result = view.game.result;
  if (!result) {
    return null;
  }
  const rows = result.breakdown.map((b, seat) => {
    const name = view.game.sides[seat].name;
    const how = b.zeroed_by
      ? `0 (${b.zeroed_by})`
      : `${b.score} running` + (b.win_bonus ? ` + ${b.win_bonus} win` : "") + (b.hp_bonus ? ` + ${b.hp_bonus} health` : "") + ` = ${b.total}`;
    const won = result.winner === seat;
    return h("tr", { class: won ? "won" : "" }, h("td", { text: `${name}${won ? " (winner)" : ""}` }), h("td", { text: how }));
  });
  return h("section", { class: "syn-result" }, h("h3", { text: "Final scores" }), h("table", {}, rows));
}

/**
 * Draws the board for `view` into `root`. `ctx.act(action)` plays an action for a seated
 * viewer (ignored while another waits for its answer).
 */
export function render(root, view, ctx) {
  const game = view.game;
  if (!game || !Array.isArray(game.sides)) {
    root.replaceChildren();
    return;
  }
  const state = STATES[game.state] ? STATES[game.state](game.sides) : game.state;
  fill(
    root,
    h(
      "div",
      { class: "syn-round" },
      h("strong", { text: `Round ${game.round} of ${game.round_limit}` }),
      ` · ${state} · ${game.mode === "pve" ? "against the Training Automaton" : "player against player"}`,
    ),
    h("div", { class: "syn-sides" }, sideBox(view, 0, ctx), sideBox(view, 1, ctx)),
    resultBox(view),
  );
}
