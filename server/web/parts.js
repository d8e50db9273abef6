// The pieces every board is drawn with: a bar with its numbers written on it (health, lore,
// progress), a labelled number, a tag, a row of pips, a card face, a side's panel, and the
// button of a move. Colour is never the only signal: every bar and tag also says what it shows
// in words, and a shape or mark goes with each colour.

import { h } from "./dom.js";

/** @typedef {import("./types").Move} Move */

/**
 * A bar filled to `now / max` with its numbers on it: "34 / 60 HP". Its colour follows how
 * full it is (`data-level` high, mid, low) unless `kind` names another look (`lore`, `xp`).
 * @param {number} now
 * @param {number} max
 * @param {{unit?: string, kind?: string, label?: string, text?: string}} [options]
 */
export function bar(now, max, options = {}) {
  const unit = options.unit ?? "HP";
  const top = Math.max(1, max);
  const share = Math.max(0, Math.min(1, now / top));
  const level = share <= 0.25 ? "low" : share <= 0.5 ? "mid" : "high";
  const text = options.text ?? `${now} / ${max}${unit ? ` ${unit}` : ""}`;
  return h(
    "div",
    {
      class: `bar bar-${options.kind || "hp"}`,
      dataset: { level },
      role: "meter",
      "aria-valuemin": 0,
      "aria-valuemax": max,
      "aria-valuenow": now,
      "aria-label": options.label ? `${options.label}: ${text}` : text,
    },
    h("div", { class: "bar-fill", style: `width: ${(share * 100).toFixed(1)}%` }),
    h("span", { class: "bar-text", text: options.label ? `${options.label} ${text}` : text }),
  );
}

/**
 * A number with its label above it ("ARMOR 3"); `title` explains it on hover and to screen
 * readers.
 * @param {string} label
 * @param {string | number} value
 * @param {{title?: string, kind?: string}} [options]
 */
export function stat(label, value, options = {}) {
  return h(
    "div",
    { class: `stat${options.kind ? ` stat-${options.kind}` : ""}`, title: options.title || null },
    h("span", { class: "stat-label", text: label }),
    h("span", { class: "stat-value", text: String(value) }),
  );
}

/**
 * A small labelled chip: "you", "to play", "exerted". `kind` picks its look.
 * @param {string} text
 * @param {string} [kind]
 * @param {string} [title]
 */
export function tag(text, kind = "", title = "") {
  return h("span", { class: `tag${kind ? ` tag-${kind}` : ""}`, text, title: title || null });
}

/**
 * `now` filled pips out of `max` with the count written beside them ("●●○ 2 of 3").
 * @param {number} now
 * @param {number} max
 * @param {string} what e.g. "energy"
 */
export function pips(now, max, what) {
  const dots = [];
  for (let i = 0; i < Math.max(max, now); i += 1) {
    dots.push(h("span", { class: i < now ? "pip on" : "pip", "aria-hidden": "true" }));
  }
  return h("span", { class: "pips", title: `${now} of ${max} ${what}` }, dots, h("span", { class: "pips-text", text: ` ${now}/${max}` }));
}

/**
 * A card face: name, cost in its corner, a line of kind, its text, and its numbers
 * (strength/willpower, attack/health: a line, or each number with its name). With `press` it
 * is a button that does that.
 * @param {{name: string, cost?: number | null, costLabel?: string, kind?: string, text?: string,
 *   stats?: string | [string, string | number][], marks?: (HTMLElement | null | false)[], look?: string, key?: string,
 *   title?: string, press?: (() => void) | null, pressed?: boolean | null, disabled?: boolean}} card
 */
export function cardFace(card) {
  const press = card.press || null;
  const costWord = card.costLabel || "cost";
  return h(
    press ? "button" : "div",
    {
      type: press ? "button" : null,
      class: `card${card.look ? ` ${card.look}` : ""}${press ? " card-button" : ""}`,
      title: card.title || null,
      dataset: { key: card.key || null },
      "aria-pressed": card.pressed === null || card.pressed === undefined ? null : String(card.pressed),
      disabled: card.disabled || null,
      on: press ? { click: press } : {},
    },
    h(
      "span",
      { class: "card-top" },
      h("span", { class: "card-name", text: card.name }),
      card.cost === null || card.cost === undefined
        ? null
        : h("span", { class: "card-cost", title: `${costWord} ${card.cost}`, text: String(card.cost) }),
    ),
    card.kind ? h("span", { class: "card-kind", text: card.kind }) : null,
    card.text ? h("span", { class: "card-text", text: card.text }) : null,
    typeof card.stats === "string" && card.stats ? h("span", { class: "card-stats", text: card.stats }) : null,
    Array.isArray(card.stats) && card.stats.length
      ? h(
          "span",
          { class: "card-numbers" },
          card.stats.map(([label, value]) => h("span", { class: "card-number" }, h("strong", { class: "card-number-value", text: String(value) }), ` ${label}`)),
        )
      : null,
    card.marks && card.marks.some(Boolean) ? h("span", { class: "card-marks" }, card.marks) : null,
  );
}

/**
 * A panel for one side of the board: a heading with its name and tags, then its parts.
 * `mine` marks the viewer's side (a "you" tag), `active` the side whose turn it is (a border
 * and a tag, "▶ your turn" or "▶ their turn" unless `turn` words it otherwise: not colour
 * alone).
 * @param {{title: string, tags?: (HTMLElement | null | false)[], active?: boolean, mine?: boolean,
 *   turn?: string, key?: string, look?: string}} head
 * @param {...(HTMLElement | string | null | false | (HTMLElement | null | false)[])} parts
 */
export function sidePanel(head, ...parts) {
  return h(
    "section",
    {
      class: `side${head.active ? " active" : ""}${head.mine ? " mine" : ""}${head.look ? ` ${head.look}` : ""}`,
      dataset: { key: head.key || null },
      "aria-label": head.title,
    },
    h(
      "header",
      { class: "side-head" },
      h("h3", { text: head.title }),
      head.mine ? tag("you", "you") : null,
      head.active ? tag(head.turn || (head.mine ? "▶ your turn" : "▶ their turn"), "turn") : null,
      head.tags || [],
    ),
    parts,
  );
}

/**
 * A heading and its content, as a board's part ("Battlefield", "Market").
 * @param {string} title
 * @param {...(HTMLElement | string | null | false | (HTMLElement | null | false)[])} content
 */
export function area(title, ...content) {
  return h("section", { class: "area", "aria-label": title }, h("h4", { class: "area-title", text: title }), content);
}

/**
 * The button of a move: its label, its kind in `data-kind` (for styling and the tests), its
 * hint as a title. `press` runs when it is pressed.
 * @param {Move} move
 * @param {() => void} press
 * @param {{disabled?: boolean, key?: string}} [options]
 */
export function moveButton(move, press, options = {}) {
  return h("button", {
    type: "button",
    class: `move${move.primary ? " primary" : ""}${move.options ? " opens" : ""}`,
    dataset: { kind: move.kind, key: options.key || null, target: move.target || null },
    title: move.hint || null,
    disabled: options.disabled || null,
    text: move.options ? `${move.label}…` : move.label,
    on: { click: press },
  });
}

/**
 * A choice made by toggling things (the cards to put back, the minions that attack), then one
 * button that sends it. `chosen` holds the choice across redraws (ids no longer offered are
 * dropped from it); a toggle says in words whether it is chosen (`label`), not by colour
 * alone; at most `max` may be chosen.
 * @param {{ids: number[], chosen: Set<number>, max?: number, label: (id: number, on: boolean) => string, key: string,
 *   redraw: () => void, send: {kind: string, text: string, primary?: boolean, disabled?: boolean, press: (ids: number[]) => void}}} choice
 */
export function toggles(choice) {
  const { ids, chosen } = choice;
  for (const id of [...chosen]) {
    if (!ids.includes(id)) {
      chosen.delete(id);
    }
  }
  const max = choice.max ?? ids.length;
  return h(
    "div",
    { class: "choice-form" },
    h(
      "div",
      { class: "toggles" },
      ids.map((id) =>
        h("button", {
          type: "button",
          class: "toggle",
          "aria-pressed": String(chosen.has(id)),
          dataset: { key: `${choice.key}:${id}` },
          text: choice.label(id, chosen.has(id)),
          on: {
            click: () => {
              if (chosen.has(id)) {
                chosen.delete(id);
              } else if (chosen.size < max) {
                chosen.add(id);
              }
              choice.redraw();
            },
          },
        }),
      ),
    ),
    h("button", {
      type: "button",
      class: `move${choice.send.primary ? " primary" : ""}`,
      dataset: { kind: choice.send.kind, key: `${choice.key}-send` },
      disabled: choice.send.disabled || null,
      text: choice.send.text,
      on: { click: () => choice.send.press(ids.filter((id) => chosen.has(id))) },
    }),
  );
}

/**
 * A mulligan: the cards of the opening hand to toggle (those put back say so), then one
 * button ("Keep this hand", "Put back 2 cards and draw 2") that sends `{kind: "mulligan",
 * cards}`.
 * @param {import("./types").View} view
 * @param {import("./types").BoardCtx} ctx
 * @param {number[]} ids the cards that may be put back
 * @param {Set<number>} chosen the cards chosen so far (kept by the board)
 * @param {number} [max]
 */
export function mulligan(view, ctx, ids, chosen, max) {
  return toggles({
    ids,
    chosen,
    max,
    key: "mull",
    redraw: ctx.redraw,
    label: (id, on) => {
      const card = handCard(view, id);
      return `${on ? "↩ put back: " : ""}${card ? `${card.name} (${card.cost})` : "a card"}`;
    },
    send: {
      kind: "mulligan",
      primary: true,
      text: chosen.size ? `Put back ${chosen.size === 1 ? "1 card" : `${chosen.size} cards`} and draw ${chosen.size}` : "Keep this hand",
      press: (cards) => ctx.act({ kind: "mulligan", cards }),
    },
  });
}

/**
 * The viewer's own hand (a board's `sides[seat].hand`, present for the seat alone), or null
 * for a spectator.
 * @param {import("./types").View} view
 * @returns {any[] | null}
 */
export function ownHand(view) {
  const side = view.seat === null ? null : view.game.sides[view.seat];
  return side && Array.isArray(side.hand) ? side.hand : null;
}

/**
 * The viewer's card in hand with instance id `id`, or null.
 * @param {import("./types").View} view
 * @param {number} id
 */
export function handCard(view, id) {
  return (ownHand(view) || []).find((c) => c.id === id) || null;
}

/**
 * A part shown on demand (a `<details>`), which stays open or closed across the board's
 * redraws (a fight redraws it every tick): its state is kept in `ui` under `key`.
 * @param {{[key: string]: any}} ui the board's state (`ctx.ui`)
 * @param {string} key
 * @param {string} summary
 * @param {...(HTMLElement | string | null | false | (HTMLElement | null | false)[])} content
 */
export function disclosure(ui, key, summary, ...content) {
  if (!(ui.opened instanceof Set)) {
    ui.opened = new Set();
  }
  /** @type {Set<string>} */
  const opened = ui.opened;
  const details = h("details", { class: "more", open: opened.has(key) || null, dataset: { key: `more:${key}` } }, h("summary", { text: summary }), content);
  details.addEventListener("toggle", () => {
    if (details.open) {
      opened.add(key);
    } else {
      opened.delete(key);
    }
  });
  return details;
}

/**
 * A status or effect with its count: "Poisoned · 3 ticks".
 * @param {string} name
 * @param {string} [detail]
 * @param {string} [kind] good or bad, for its look (its name says it too)
 * @param {string} [title]
 */
export function effect(name, detail = "", kind = "", title = "") {
  return h(
    "span",
    { class: `effect${kind ? ` effect-${kind}` : ""}`, title: title || null },
    h("span", { class: "effect-name", text: name }),
    detail ? h("span", { class: "effect-detail", text: ` · ${detail}` }) : null,
  );
}
