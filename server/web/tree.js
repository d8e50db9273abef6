// The game view as a readable, collapsible tree: objects and arrays are <details> elements
// (their summary shows the key, the size and a preview of their plain members), plain values
// are coloured by type. Which branches are open is remembered by path across redraws, and
// values a patch just changed are highlighted for a moment.

import { h } from "./dom.js";
import { formatPointer } from "./patch.js";

/** Branches open by default down to this depth, unless the caller says otherwise. */
const OPEN_DEPTH = 2;

/** Arrays longer than this start closed. */
const LONG_ARRAY = 12;

/** How many plain members a closed branch's summary previews. */
const PREVIEW = 4;

/**
 * Remembers which branches were opened or closed by the viewer, by JSON Pointer, so redraws
 * keep them as they were left.
 */
export class TreeState {
  constructor(openDepth = OPEN_DEPTH) {
    /** @type {Map<string, boolean>} */
    this.open = new Map();
    this.openDepth = openDepth;
  }

  /**
   * @param {string} pointer
   * @param {number} depth
   * @param {number} size
   * @returns {boolean}
   */
  isOpen(pointer, depth, size) {
    const chosen = this.open.get(pointer);
    if (chosen !== undefined) {
      return chosen;
    }
    return depth < this.openDepth && size <= LONG_ARRAY;
  }
}

/**
 * @param {unknown} value
 * @returns {value is {[key: string]: any}}
 */
const isBranch = (value) => value !== null && typeof value === "object";

/**
 * @param {unknown} value
 */
function leafText(value) {
  if (typeof value === "string") {
    return value;
  }
  return JSON.stringify(value);
}

/**
 * @param {unknown} value
 */
function leafClass(value) {
  if (value === null) {
    return "t-null";
  }
  return `t-${typeof value}`;
}

/**
 * @param {{[key: string]: any}} value
 */
function preview(value) {
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const plain = entries.filter(([, v]) => !isBranch(v)).slice(0, PREVIEW);
  const text = plain.map(([k, v]) => (Array.isArray(value) ? leafText(v) : `${k}: ${leafText(v)}`));
  const more = entries.length > plain.length ? ", …" : "";
  return text.length ? `${text.join(", ")}${more}` : "";
}

/**
 * @typedef {{state: TreeState, skip: Set<string>, changed: Set<string>}} TreeCtx
 */

/**
 * @param {string | number | null} key
 * @param {any} value
 * @param {(string | number)[]} tokens
 * @param {number} depth
 * @param {TreeCtx} ctx
 * @returns {HTMLElement}
 */
function node(key, value, tokens, depth, ctx) {
  const pointer = formatPointer(tokens);
  const changed = ctx.changed.has(pointer);
  const label = key === null ? null : h("span", { class: "t-key", text: `${key}` });
  if (!isBranch(value)) {
    return h(
      "div",
      { class: changed ? "t-leaf t-changed" : "t-leaf", dataset: { path: pointer } },
      label,
      label ? h("span", { class: "t-colon", text: ": " }) : null,
      h("span", { class: leafClass(value), text: leafText(value) }),
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const size = entries.length;
  const bracket = Array.isArray(value) ? `[${size}]` : `{${size}}`;
  const details = h("details", {
    class: changed ? "t-branch t-changed" : "t-branch",
    dataset: { path: pointer },
    open: ctx.state.isOpen(pointer, depth, size),
  });
  details.addEventListener("toggle", () => ctx.state.open.set(pointer, details.open));
  details.append(
    h(
      "summary",
      {},
      label,
      h("span", { class: "t-size", text: ` ${bracket}` }),
      h("span", { class: "t-preview", text: ` ${preview(value)}` }),
    ),
  );
  const body = h("div", { class: "t-body" });
  for (const [childKey, child] of entries) {
    if (depth === 0 && ctx.skip.has(String(childKey))) {
      continue;
    }
    body.append(node(childKey, child, [...tokens, childKey], depth + 1, ctx));
  }
  if (!body.childNodes.length) {
    body.append(h("div", { class: "t-empty", text: Array.isArray(value) ? "(empty)" : "(none)" }));
  }
  details.append(body);
  return details;
}

/**
 * Draws `value` into `container` as a tree. `options.base` is the pointer of `value` in the
 * view (e.g. `/game`), `options.skip` top-level keys left out (drawn elsewhere), and
 * `options.changed` a Set of pointers the last change touched.
 * @param {HTMLElement} container
 * @param {any} value
 * @param {TreeState} state
 * @param {{base?: string, skip?: string[], changed?: Set<string>}} [options]
 */
export function renderTree(container, value, state, options = {}) {
  const base = options.base || "";
  const tokens = base === "" ? [] : base.slice(1).split("/");
  const ctx = {
    state,
    skip: new Set(options.skip || []),
    changed: options.changed || new Set(),
  };
  if (!isBranch(value)) {
    container.replaceChildren(node(null, value, tokens, 0, ctx));
    return;
  }
  const root = node(null, value, tokens, 0, ctx);
  // The root's own summary adds nothing: its members are shown directly.
  const body = root.querySelector(".t-body");
  container.replaceChildren(...(body ? body.childNodes : []));
}
