// Playing a seat from the page: the seat's `legal` entries as controls (a button for each
// whole action, sent as it is; a small form for each open entry, whose `$choose` parts are
// filled in the form), the refusal of the last action if there was one, and resigning. The
// controls are rebuilt only when `legal` changes, so a half-filled form survives patches that
// do not touch it; while an action waits for its answer every control is disabled.

import { fill, h } from "./dom.js";
import { isOpen, openForm } from "./choose.js";

/** An action's kind and other members in words: "play card · card 3". */
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

/** An action's members other than its kind in words ("unit A · slot 1"), or its kind. */
function restOf(action) {
  const text = describeAction({ ...action, kind: "" }).replace(/^ · /, "");
  return text === "" ? describeAction({ kind: action.kind }) : text;
}

/** How long the resign button waits for its second click. */
const CONFIRM_MS = 4000;

export class PlayPanel {
  /**
   * `root` is the `#play` element; `actions.act(action)` sends an action and returns a
   * Promise of its answer, `actions.resign()` likewise.
   */
  constructor(root, actions) {
    this.root = root;
    this.actions = actions;
    this.signature = null;
    this.pending = false;
    this.heading = h("h3", { text: "Your move" });
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
    root.replaceChildren(
      this.heading,
      this.prompt,
      this.legal,
      this.error,
      h("div", { class: "play-foot" }, this.resignButton),
    );
    this.setPending(false);
  }

  /** Draws the controls for `view` (a seat's view); `describe` names whole actions. */
  update(view, describe = describeAction) {
    const legal = Array.isArray(view.legal) ? view.legal : [];
    const mine = view.seat !== null && (view.to_act || []).includes(view.seat);
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
    const signature = JSON.stringify(legal);
    if (signature === this.signature) {
      return;
    }
    this.signature = signature;
    const whole = [];
    const open = [];
    legal.forEach((entry, index) => (isOpen(entry) ? open : whole).push([entry, index]));
    const button = (entry, index, text) =>
      h("button", {
        type: "button",
        class: "act",
        dataset: { kind: entry.kind, index, whole: "true" },
        text,
        on: { click: () => this.send(entry) },
      });
    let buttons;
    if (describe !== describeAction) {
      // The ruleset names its actions: one row of buttons.
      buttons = h("div", { class: "act-buttons" }, whole.map(([entry, index]) => button(entry, index, describe(entry))));
    } else {
      // One row per kind, each button naming the rest of its action.
      const kinds = new Map();
      for (const [entry, index] of whole) {
        const kind = String(entry.kind);
        kinds.set(kind, [...(kinds.get(kind) || []), [entry, index]]);
      }
      buttons = [...kinds].map(([kind, entries]) =>
        h(
          "div",
          { class: "act-group" },
          h("span", { class: "act-kind", text: describeAction({ kind }) }),
          h("div", { class: "act-buttons" }, entries.map(([entry, index]) => button(entry, index, restOf(entry)))),
        ),
      );
    }
    const forms = open.map(([entry, index]) => this.openEntry(entry, index));
    fill(
      this.legal,
      whole.length ? buttons : null,
      forms.length ? h("div", { class: "open-entries" }, forms) : null,
      legal.length ? null : h("p", { class: "muted", text: "Nothing to do right now." }),
    );
    this.setPending(this.pending);
  }

  openEntry(entry, index) {
    const { fields, read } = openForm(entry);
    const title = `${describeAction({ kind: entry.kind })}${fixedParts(entry)}`;
    const form = h(
      "form",
      { class: "open-entry", dataset: { kind: entry.kind, index } },
      h("div", { class: "open-title", text: title }),
      h("div", { class: "fields" }, fields),
      h("button", { type: "submit", text: "Send" }),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      let action;
      try {
        action = read();
      } catch (error) {
        this.showError(error.message);
        return;
      }
      this.send(action);
    });
    return form;
  }

  /** Shows why the last action was refused (or clears it with ""). */
  showError(text) {
    this.error.textContent = text;
    this.error.hidden = text === "";
  }

  setPending(pending) {
    this.pending = pending;
    this.root.dataset.pending = String(pending);
    for (const control of this.legal.querySelectorAll("button, input, select")) {
      control.disabled = pending;
    }
  }

  async send(action) {
    if (this.pending) {
      return;
    }
    this.showError("");
    this.setPending(true);
    try {
      await this.actions.act(action);
    } catch (error) {
      this.showError(error.code ? `${error.code}: ${error.message}` : error.message);
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

/** The members of an open entry that are already fixed, in words: " · unit A". */
function fixedParts(entry) {
  const fixed = Object.entries(entry).filter(
    ([key, value]) => key !== "kind" && !isOpen(value) && !(value && value.$choose),
  );
  return fixed.map(([key, value]) => ` · ${key} ${typeof value === "string" ? value : JSON.stringify(value)}`).join("");
}
