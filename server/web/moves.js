// Playing a seat from the page: the moves panel. A board names the seat's legal actions as
// moves in the game's words (`Board.moves`), each a button; a move that needs a second choice
// (a target, a challenger's victim) opens a picker listing the choices, which the board also
// offers by clicking the things on it. Legal entries no board move covers are still offered,
// in plain words (and, for open entries, as a small form), so nothing legal is ever out of
// reach. While an action waits for its answer every move is disabled; a refusal is shown.

import { fill, h, redraw } from "./dom.js";
import { isOpen, openForm } from "./choose.js";
import { jsonEqual } from "./patch.js";
import { moveButton } from "./parts.js";

/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").Move} Move */
/** @typedef {import("./types").MoveGroup} MoveGroup */
/** @typedef {import("./types").View} View */

/**
 * An action's kind and other members in words, for actions no board names: "play card ·
 * card 3".
 * @param {Action} action
 */
export function describeAction(action) {
  const kind = typeof action.kind === "string" ? action.kind.replaceAll("_", " ") : "action";
  const rest = Object.entries(action)
    .filter(([key]) => key !== "kind")
    .map(([key, value]) => {
      const shown = typeof value === "string" ? value : JSON.stringify(value);
      return `${key.replaceAll("_", " ")} ${shown}`;
    });
  return rest.length ? `${kind} · ${rest.join(" · ")}` : kind;
}

/**
 * Every action the moves of `groups` send, options included.
 * @param {MoveGroup[]} groups
 * @returns {Action[]}
 */
function actionsOf(groups) {
  /** @type {Action[]} */
  const found = [];
  /** @param {Move[]} moves */
  const walk = (moves) => {
    for (const move of moves) {
      if (move.action) {
        found.push(move.action);
      }
      if (move.options) {
        walk(move.options);
      }
    }
  };
  for (const group of groups) {
    walk(group.moves || []);
  }
  return found;
}

/**
 * The legal entries no move of `groups` covers: a whole action is covered when a move sends
 * it, an open entry when a move sends an action of its kind, and any entry of a kind a group
 * says it covers (with a form of its own, or controls on the board).
 * @param {Action[]} legal
 * @param {MoveGroup[]} groups
 */
export function uncovered(legal, groups) {
  const sent = actionsOf(groups);
  const kinds = new Set(sent.map((a) => a.kind));
  const claimed = new Set(groups.flatMap((group) => group.covers || []));
  return legal.filter((entry) =>
    claimed.has(entry.kind) ? false : isOpen(entry) ? !kinds.has(entry.kind) : !sent.some((a) => jsonEqual(a, entry)),
  );
}

/**
 * The moves of `level` about the thing named `key`, as one move opening them as choices.
 * @param {Move[]} level
 * @param {string} key
 * @returns {Move | null}
 */
function chooserFor(level, key) {
  const about = level.filter((m) => m.about === key);
  if (!about.length) {
    return null;
  }
  const name = about[0].aboutName;
  return { label: "Choose", kind: "choose", ask: name ? `${name}: choose a move` : "Choose a move", options: about };
}

/** How long the resign button waits for its second click. */
const CONFIRM_MS = 4000;

/** A move's key among its siblings, stable across redraws. */
const keyOf = (/** @type {Move} */ move) => `${move.kind}:${move.label}`;

export class MovesPanel {
  /**
   * `root` is the `#play` element; `actions.act(action)` sends an action and returns a
   * Promise of its answer, `actions.resign()` likewise, `actions.redraw()` draws the battle
   * again (when a picker opens or closes).
   * @param {HTMLElement} root
   * @param {{act: (action: Action) => Promise<unknown>, resign: () => Promise<unknown>, redraw: () => void}} actions
   */
  constructor(root, actions) {
    this.root = root;
    this.actions = actions;
    this.pending = false;
    /** The moves opened so far, by key: a picker when not empty. @type {string[]} */
    this.picking = [];
    /** The current groups (from the last draw). @type {MoveGroup[]} */
    this.groups = [];
    this.heading = h("h3", { id: "play-heading", text: "Your move" });
    this.prompt = h("p", { id: "play-prompt", class: "prompt" });
    this.legal = h("div", { id: "legal" });
    this.error = h("p", { id: "play-error", class: "error", role: "alert", hidden: true });
    this.resignButton = h("button", {
      type: "button",
      id: "resign",
      class: "danger",
      text: "Resign",
      on: { click: () => this.resign() },
    });
    root.replaceChildren(this.heading, this.prompt, this.legal, this.error, h("div", { class: "play-foot" }, this.resignButton));
  }

  /** Forgets the picker and the last refusal (another battle is shown). */
  reset() {
    this.picking = [];
    this.groups = [];
    this.showError("");
  }

  /**
   * The move opened last, following `picking` through the groups; null when none is open (or
   * it is no longer offered, which closes the picker).
   * @returns {Move | null}
   */
  opened() {
    /** @type {Move[]} */
    let level = this.groups.flatMap((g) => g.moves || []);
    /** @type {Move | null} */
    let found = null;
    for (const key of this.picking) {
      const next = key.startsWith("about:") ? chooserFor(level, key.slice("about:".length)) : level.find((m) => keyOf(m) === key);
      if (!next || !next.options) {
        this.picking = [];
        return null;
      }
      found = next;
      level = next.options;
    }
    return found;
  }

  /**
   * What pressing the thing on the board named `key` does now, or null when nothing: with a
   * picker open, the choice whose `target` (or `about`) is `key`; otherwise the moves about
   * `key` (one is pressed at once, several open a picker of their own).
   * @param {string} key
   * @returns {(() => void) | null}
   */
  pressFor(key) {
    const open = this.opened();
    if (open && open.options) {
      const choice = open.options.find((m) => m.target === key) || open.options.find((m) => m.about === key);
      return choice ? () => this.press(choice) : null;
    }
    const all = this.groups.flatMap((g) => g.moves || []);
    const about = all.filter((m) => m.about === key);
    if (about.length === 1) {
      return () => this.press(about[0]);
    }
    if (about.length > 1) {
      return () => {
        if (!this.pending) {
          this.picking = [`about:${key}`];
          this.actions.redraw();
        }
      };
    }
    return null;
  }

  /**
   * The keys of the things the open picker may choose (to mark them on the board).
   * @returns {Set<string>}
   */
  targets() {
    const open = this.opened();
    return new Set(open && open.options ? open.options.map((m) => m.target || m.about || "").filter(Boolean) : []);
  }

  /**
   * Presses `move`: sends its action, or opens its choices.
   * @param {Move} move
   */
  press(move) {
    if (this.pending) {
      return;
    }
    if (move.options) {
      if (move.options.length === 1 && move.options[0].action && !move.ask) {
        this.press(move.options[0]);
        return;
      }
      this.picking = [...this.picking, keyOf(move)];
      this.actions.redraw();
      return;
    }
    if (move.action) {
      this.picking = [];
      this.send(move.action);
    }
  }

  /** Closes the picker. */
  cancel() {
    this.picking = [];
    this.actions.redraw();
  }

  /**
   * Draws the panel for `view` (a seat's view): the board's `groups`, and the legal entries
   * they leave out.
   * @param {View} view
   * @param {MoveGroup[]} groups
   */
  update(view, groups) {
    const legal = Array.isArray(view.legal) ? view.legal : [];
    const mine = view.seat !== null && (view.to_act || []).includes(view.seat);
    this.groups = groups;
    this.root.dataset.myTurn = String(mine);
    this.root.dataset.legalCount = String(legal.length);
    this.prompt.textContent = view.prompt && mine ? view.prompt.text : "";
    this.heading.textContent =
      view.status === "finished"
        ? "The battle is over"
        : mine
          ? "Your move"
          : legal.length
            ? "You may act"
            : "Waiting for the other side";
    this.resignButton.hidden = view.status !== "playing";
    const rest = uncovered(legal, groups);
    const open = this.opened();
    redraw(this.legal, (into) => {
      if (open && open.options) {
        fill(into, this.picker(open));
      } else {
        fill(
          into,
          groups.map((group) => this.group(group)),
          rest.length ? this.fallback(rest) : null,
          legal.length ? null : h("p", { class: "muted", text: mine ? "Nothing to do right now." : "Nothing to do until the other side has moved." }),
        );
      }
    });
    this.setPending(this.pending);
  }

  /**
   * @param {MoveGroup} group
   */
  group(group) {
    // Moves that read the same do the same (two copies of a card in hand): one button each.
    const seen = new Set();
    const moves = (group.moves || []).filter((move) => {
      const key = keyOf(move);
      if (seen.has(key)) {
        return false;
      }
      seen.add(key);
      return true;
    });
    return h(
      "div",
      { class: "move-group", dataset: { group: group.title } },
      group.title ? h("h4", { class: "move-group-title", text: group.title }) : null,
      group.note ? h("p", { class: "muted small", text: group.note }) : null,
      moves.length
        ? h("div", { class: "move-buttons" }, moves.map((move) => moveButton(move, () => this.press(move), { key: keyOf(move) })))
        : null,
      group.form || null,
    );
  }

  /**
   * The open picker: its question, a button per choice, and a way back.
   * @param {Move} open
   */
  picker(open) {
    const options = open.options || [];
    return h(
      "div",
      { class: "move-group picker", dataset: { picking: open.kind } },
      h("h4", { class: "move-group-title", text: open.ask || `${open.label}: choose` }),
      h("p", { class: "muted small", text: "Choose below, or click a highlighted card on the board." }),
      h("div", { class: "move-buttons" }, options.map((move) => moveButton(move, () => this.press(move), { key: `pick:${keyOf(move)}` }))),
      h("div", { class: "move-buttons" }, h("button", { type: "button", class: "secondary", dataset: { key: "pick-cancel" }, text: "Cancel", on: { click: () => this.cancel() } })),
    );
  }

  /**
   * Legal entries no board move names: buttons for whole actions, a small form for each open
   * entry.
   * @param {Action[]} entries
   */
  fallback(entries) {
    const whole = entries.filter((e) => !isOpen(e));
    const open = entries.filter((e) => isOpen(e));
    return h(
      "div",
      { class: "move-group fallback", dataset: { fallback: "true" } },
      h("h4", { class: "move-group-title", text: "Other moves" }),
      whole.length
        ? h(
            "div",
            { class: "move-buttons" },
            whole.map((entry, i) =>
              moveButton({ label: describeAction(entry), kind: entry.kind }, () => this.send(entry), { key: `fallback:${i}` }),
            ),
          )
        : null,
      open.map((entry) => this.openEntry(entry)),
    );
  }

  /**
   * @param {Action} entry
   */
  openEntry(entry) {
    const { fields, read } = openForm(entry);
    const form = h(
      "form",
      { class: "open-entry", dataset: { kind: entry.kind } },
      h("div", { class: "open-title", text: entry.kind.replaceAll("_", " ") }),
      h("div", { class: "fields" }, fields),
      h("button", { type: "submit", class: "move", dataset: { kind: entry.kind }, text: "Send" }),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      let action;
      try {
        action = read();
      } catch (error) {
        this.showError(error instanceof Error ? error.message : String(error));
        return;
      }
      this.send(/** @type {Action} */ (action));
    });
    return form;
  }

  /**
   * Shows why the last action was refused (or clears it with "").
   * @param {string} text
   */
  showError(text) {
    this.error.textContent = text;
    this.error.hidden = text === "";
  }

  /**
   * @param {boolean} pending
   */
  setPending(pending) {
    this.pending = pending;
    this.root.dataset.pending = String(pending);
    const battle = this.root.closest("#battle") || this.root;
    for (const control of battle.querySelectorAll("#legal button, #legal input, #legal select, .board button.move, .board .pressable")) {
      /** @type {HTMLButtonElement} */ (control).disabled = pending;
    }
  }

  /**
   * Sends `action` (once: nothing else is sent until it is answered).
   * @param {Action} action
   */
  async send(action) {
    if (this.pending) {
      return;
    }
    this.showError("");
    this.setPending(true);
    try {
      await this.actions.act(action);
    } catch (error) {
      const e = /** @type {{code?: string, message: string}} */ (error);
      this.showError(e.code ? `That move was refused: ${e.message}` : e.message);
    } finally {
      this.setPending(false);
    }
  }

  resign() {
    const button = this.resignButton;
    if (button.dataset.confirm !== "true") {
      button.dataset.confirm = "true";
      button.textContent = "Click again to resign";
      setTimeout(() => {
        button.dataset.confirm = "false";
        button.textContent = "Resign";
      }, CONFIRM_MS);
      return;
    }
    button.dataset.confirm = "false";
    button.textContent = "Resign";
    this.actions.resign().catch((error) => this.showError(error.message));
  }
}
