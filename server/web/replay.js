// A finished battle's replay (`#/replay/ID`): asks the server for it (`replay`), rebuilds the
// view at any step from its start and its patches (one every CHECKPOINT steps is kept, so
// stepping back costs at most that many patches), and draws it on a stage as a spectator saw
// it. Stepped forward and back, to the start or the end, or played at a chosen speed; a link
// to share opens the same replay at the same step.

import { fill, h } from "./dom.js";
import { applyPatch } from "./patch.js";
import { Stage } from "./stage.js";
import { gameTitle } from "./boards.js";
import { ago, nameOf } from "./words.js";

/** @typedef {import("./types").View} View */
/** @typedef {import("./types").Replay} Replay */

/** Every how many steps a view is kept. */
const CHECKPOINT = 50;

/** The speeds offered: steps a second. */
const SPEEDS = [
  [1, "1 step a second"],
  [2, "2 steps a second"],
  [4, "4 steps a second"],
  [10, "10 steps a second"],
  [25, "25 steps a second"],
];

export class ReplayScreen {
  /**
   * `root` is the `#replay` section; `request(msg)` asks the server and resolves with its
   * answer; `link(id, step)` is the address of the replay at a step.
   * @param {HTMLElement} root
   * @param {{request: (msg: any) => Promise<any>, link: (id: string, step: number) => string, moved: (id: string, step: number) => void}} actions
   */
  constructor(root, actions) {
    this.root = root;
    this.actions = actions;
    /** @type {Replay | null} */
    this.replay = null;
    /** @type {View[]} the view at every CHECKPOINT-th step */
    this.kept = [];
    /** @type {View | null} */
    this.view = null;
    this.step = 0;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;
    this.note = h("p", { id: "replay-note", class: "note", role: "status", hidden: true });
    this.heading = h("h2", { id: "replay-heading", text: "Replay" });
    this.about = h("p", { id: "replay-about", class: "muted" });
    const button = (/** @type {string} */ id, /** @type {string} */ text, /** @type {string} */ label, /** @type {() => void} */ click) =>
      h("button", { type: "button", id, class: "secondary", text, "aria-label": label, title: label, on: { click } });
    this.startButton = button("replay-start", "◀◀ Start", "Back to the start", () => this.go(0));
    this.backButton = button("replay-back", "◀ Back", "One step back", () => this.go(this.step - 1));
    this.playButton = h("button", { type: "button", id: "replay-play", text: "▶ Play", on: { click: () => this.toggle() } });
    this.nextButton = button("replay-next", "Next ▶", "One step forward", () => this.go(this.step + 1));
    this.endButton = button("replay-end", "End ▶▶", "To the end", () => this.go(this.steps()));
    this.speed = h(
      "select",
      { id: "replay-speed", "aria-label": "Speed", on: { change: () => this.restart() } },
      SPEEDS.map(([value, text]) => h("option", { value: String(value), text: String(text), selected: value === 2 })),
    );
    this.seek = h("input", {
      type: "range",
      id: "replay-seek",
      min: "0",
      max: "0",
      value: "0",
      "aria-label": "Step",
      on: { input: () => this.go(Number(this.seek.value)) },
    });
    this.position = h("span", { id: "replay-step", class: "replay-step", role: "status" });
    this.share = h("input", { type: "text", id: "replay-link", readonly: true, "aria-label": "Link to this replay" });
    const stageRoot = h("div", { class: "stage" });
    root.replaceChildren(
      h("div", { class: "battle-head" }, h("a", { class: "button secondary", href: "#/", text: "← All battles" }), this.heading),
      this.about,
      this.note,
      h(
        "div",
        { class: "replay-controls panel", role: "group", "aria-label": "Replay controls" },
        h("div", { class: "replay-buttons" }, this.startButton, this.backButton, this.playButton, this.nextButton, this.endButton),
        h("div", { class: "replay-seek" }, this.seek, this.position),
        h("label", { class: "replay-speed" }, "Speed ", this.speed),
        h(
          "div",
          { class: "replay-share" },
          h("label", { for: "replay-link", text: "Share this replay:" }),
          this.share,
          h("button", { type: "button", id: "replay-copy", class: "secondary", text: "Copy link", on: { click: () => this.copy() } }),
        ),
      ),
      stageRoot,
    );
    this.stage = new Stage(stageRoot, "replay-");
    document.addEventListener("keydown", (event) => this.key(event));
  }

  /**
   * Shows the replay of battle `id` at `step` (its start when null).
   * @param {string} id
   * @param {number | null} step
   */
  async load(id, step) {
    this.stop();
    if (this.replay && this.replay.battle_id === id) {
      this.go(step === null ? this.step : step);
      return;
    }
    this.replay = null;
    this.view = null;
    this.kept = [];
    this.stage.reset();
    this.root.dataset.loaded = "false";
    this.heading.textContent = "Replay";
    this.about.textContent = "Loading the replay…";
    this.say("");
    let answer;
    try {
      answer = await this.actions.request({ type: "replay", battle_id: id });
    } catch (error) {
      const e = /** @type {{code?: string, message: string}} */ (error);
      this.about.textContent = "";
      this.say(
        e.code === "not_finished"
          ? "This battle is still being played: its replay comes once it is over."
          : e.code === "no_such_battle"
            ? "The server keeps no replay of this battle (it never existed, or it is too old)."
            : `The replay could not be loaded: ${e.message}`,
      );
      if (e.code === "not_finished") {
        fill(this.note, this.note.textContent || "", " ", h("a", { href: `#/battle/${encodeURIComponent(id)}`, text: "Watch it live" }));
      }
      return;
    }
    /** @type {Replay} */
    const replay = answer.replay;
    this.replay = replay;
    this.kept = [this.withSeats(replay.start)];
    this.heading.textContent = `Replay: ${gameTitle(replay.ruleset)}`;
    const given = replay.names || replay.start.names || null;
    const names = Array.from({ length: replay.seats }, (_, seat) => {
      const name = nameOf(given && typeof given[seat] === "string" ? { name: /** @type {string} */ (given[seat]) } : null, seat);
      return replay.bots.includes(seat) ? `${name} (bot)` : name;
    });
    fill(
      this.about,
      `${names.join(" against ")} · ended ${ago(replay.ended_at)} · ${replay.steps.length} steps`,
      replay.seeded ? " · played with a known seed" : "",
    );
    this.seek.max = String(replay.steps.length);
    this.root.dataset.loaded = "true";
    this.root.dataset.steps = String(replay.steps.length);
    this.go(step === null ? 0 : step);
  }

  /**
   * A replay's view with the seats it leaves out put back: names where the server gave them,
   * the bots marked.
   * @param {View} view
   */
  withSeats(view) {
    const replay = /** @type {Replay} */ (this.replay);
    return {
      ...view,
      seats: Array.from({ length: replay.seats }, (_, seat) => ({
        name: replay.names ? replay.names[seat] : undefined,
        state: replay.bots.includes(seat) ? "bot" : "connected",
      })),
      clocks: null,
    };
  }

  /** How many steps the replay has. */
  steps() {
    return this.replay ? this.replay.steps.length : 0;
  }

  /**
   * The view after `step` steps.
   * @param {number} step
   */
  viewAt(step) {
    const replay = /** @type {Replay} */ (this.replay);
    const base = Math.min(Math.floor(step / CHECKPOINT), this.kept.length - 1);
    let view = this.kept[base];
    for (let at = base * CHECKPOINT; at < step; at += 1) {
      view = applyPatch(view, replay.steps[at]);
      if ((at + 1) % CHECKPOINT === 0 && this.kept.length === (at + 1) / CHECKPOINT) {
        this.kept.push(view);
      }
    }
    return view;
  }

  /**
   * Shows step `step` (kept within the replay).
   * @param {number} step
   */
  go(step) {
    if (!this.replay) {
      return;
    }
    const target = Math.max(0, Math.min(this.steps(), Math.round(step)));
    const view = target === this.step + 1 && this.view ? applyPatch(this.view, this.replay.steps[this.step]) : this.viewAt(target);
    this.step = target;
    this.view = view;
    if (target % CHECKPOINT === 0 && this.kept.length === target / CHECKPOINT) {
      this.kept.push(view);
    }
    const total = this.steps();
    this.position.textContent = `Step ${target} of ${total}`;
    this.root.dataset.step = String(target);
    this.seek.value = String(target);
    this.startButton.disabled = target === 0;
    this.backButton.disabled = target === 0;
    this.nextButton.disabled = target === total;
    this.endButton.disabled = target === total;
    this.share.value = this.actions.link(this.replay.battle_id, target);
    // The outcome is the replay's at its last step (a view's own outcome says it too).
    const shown = target === total && !view.outcome ? { ...view, outcome: this.replay.outcome, status: "finished" } : view;
    this.stage.draw(
      shown,
      { act: async () => undefined, redraw: () => this.go(this.step), ui: {}, pending: false, replay: true, pressFor: () => null, targets: new Set() },
      new Set(),
      { seats: this.replay.seats },
    );
    this.actions.moved(this.replay.battle_id, target);
    if (target === total) {
      this.stop();
    }
  }

  /** Plays from here, or stops playing. */
  toggle() {
    if (this.timer !== null) {
      this.stop();
      return;
    }
    if (this.step >= this.steps()) {
      this.go(0);
    }
    this.start();
  }

  start() {
    const perSecond = Number(this.speed.value) || 2;
    this.timer = setInterval(() => this.go(this.step + 1), 1000 / perSecond);
    this.playButton.textContent = "⏸ Pause";
    this.root.dataset.playing = "true";
  }

  stop() {
    if (this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
    this.playButton.textContent = "▶ Play";
    this.root.dataset.playing = "false";
  }

  /** A new speed applies at once while playing. */
  restart() {
    if (this.timer !== null) {
      this.stop();
      this.start();
    }
  }

  /** Leaves the replay (another page is shown). */
  leave() {
    this.stop();
  }

  copy() {
    this.share.select();
    if (navigator.clipboard) {
      navigator.clipboard.writeText(this.share.value).catch(() => undefined);
    }
  }

  /**
   * Arrow keys step, space plays, while the replay is shown and no field has the keyboard.
   * @param {KeyboardEvent} event
   */
  key(event) {
    if (this.root.hidden || !this.replay) {
      return;
    }
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) {
      return;
    }
    if (event.key === "ArrowRight") {
      this.go(this.step + 1);
    } else if (event.key === "ArrowLeft") {
      this.go(this.step - 1);
    } else if (event.key === "Home") {
      this.go(0);
    } else if (event.key === "End") {
      this.go(this.steps());
    } else {
      return;
    }
    event.preventDefault();
  }

  /**
   * @param {string} text
   */
  say(text) {
    this.note.textContent = text;
    this.note.hidden = text === "";
  }
}
