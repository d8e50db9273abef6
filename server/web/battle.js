// One battle on the page, watched or played live: holds the view from its `snapshot`, applies
// each `patch` in order and asks for a fresh snapshot (`resync`) when a patch skips a `seq` or
// does not apply; draws it on its stage (stage.js) with, for a seated viewer, the moves panel
// (moves.js) that the board's moves fill.

import { h } from "./dom.js";
import { applyPatch, PatchError } from "./patch.js";
import { MovesPanel } from "./moves.js";
import { Stage } from "./stage.js";
import { boardFor } from "./boards.js";

/** @typedef {import("./types").View} View */
/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").BoardCtx} BoardCtx */
/** @typedef {import("./types").MoveGroup} MoveGroup */

export class BattleScreen {
  /**
   * `root` is the `#battle` section. `actions.send(msg)` sends a message without waiting,
   * `actions.request(msg)` sends one and returns a Promise of its answer, `actions.take(id,
   * seat)` takes a free seat, `actions.invite(id)` the link that lands a friend on a free seat.
   * @param {HTMLElement} root
   * @param {{request: (msg: any) => Promise<any>, send: (msg: any) => boolean, take: (id: string, seat: number) => void,
   *   invite: (id: string) => string}} actions
   */
  constructor(root, actions) {
    this.root = root;
    this.actions = actions;
    /** @type {string | null} */
    this.battleId = null;
    /** @type {View | null} */
    this.view = null;
    /** @type {number | null} */
    this.seq = null;
    this.resyncing = false;
    /** The board's own state (selections, half-made choices), kept across redraws. */
    this.ui = {};
    this.statusChip = h("span", { id: "status", class: "status", dataset: { status: "connecting" }, text: "connecting" });
    this.syncChip = h("span", { id: "sync", class: "sync", hidden: true });
    this.idText = h("code", { id: "battle-id" });
    this.note = h("p", { id: "battle-note", class: "note", role: "status", hidden: true });
    const play = h("section", { id: "play", class: "panel play", hidden: true, "aria-label": "Your moves" });
    this.play = new MovesPanel(play, {
      act: (action) => this.request({ type: "act", action }),
      resign: () => this.request({ type: "resign" }),
      redraw: () => this.redraw(),
    });
    const stageRoot = h("div", { class: "stage" });
    root.replaceChildren(
      h(
        "div",
        { class: "battle-head" },
        h("a", { id: "back", class: "button secondary", href: "#/", text: "← All battles" }),
        h("span", { class: "muted small" }, "Battle ", this.idText),
        this.statusChip,
        this.syncChip,
      ),
      this.note,
      stageRoot,
    );
    this.stage = new Stage(stageRoot, "", {
      play,
      take: (seat) => this.battleId && this.actions.take(this.battleId, seat),
      invite: () => (this.battleId ? this.actions.invite(this.battleId) : null),
    });
    this.reset(null);
  }

  /**
   * Starts showing battle `battleId` (null: none), with nothing held yet.
   * @param {string | null} battleId
   */
  reset(battleId) {
    this.battleId = battleId;
    this.view = null;
    this.seq = null;
    this.resyncing = false;
    this.ui = {};
    this.play.reset();
    this.play.root.hidden = true;
    this.idText.textContent = battleId || "";
    this.setStatus("connecting");
    this.setSync("");
    this.stage.reset();
    this.say("");
  }

  /**
   * A sentence above the battle (why it cannot be shown, that it went away).
   * @param {string} text
   */
  say(text) {
    this.note.textContent = text;
    this.note.hidden = text === "";
  }

  /**
   * @param {any} msg
   */
  request(msg) {
    msg.battle_id = this.battleId;
    return this.actions.request(msg);
  }

  /**
   * @param {string} word
   */
  setStatus(word) {
    const words = { waiting: "waiting for players", playing: "being played", finished: "finished", connecting: "connecting", unavailable: "unavailable" };
    this.statusChip.textContent = words[/** @type {keyof typeof words} */ (word)] || word;
    this.statusChip.dataset.status = word;
  }

  /**
   * @param {string} word
   */
  setSync(word) {
    this.syncChip.textContent = word === "resyncing" ? "catching up…" : word;
    this.syncChip.dataset.state = word;
    this.syncChip.hidden = word === "";
  }

  /**
   * A `snapshot` or `patch` of the shown battle; anything else is ignored.
   * @param {any} msg
   */
  receive(msg) {
    if (msg.battle_id !== this.battleId) {
      return;
    }
    if (msg.type === "snapshot") {
      this.view = msg.view;
      this.seq = msg.seq;
      this.resyncing = false;
      this.draw(new Set());
      return;
    }
    if (msg.type !== "patch" || this.resyncing) {
      return;
    }
    if (this.seq === null || msg.seq > this.seq + 1) {
      this.resync(`patch ${msg.seq} came after ${this.seq}`);
      return;
    }
    if (msg.seq <= this.seq) {
      // Sent before the snapshot now held: already part of it.
      return;
    }
    try {
      this.view = applyPatch(this.view, msg.ops);
    } catch (error) {
      if (!(error instanceof PatchError)) {
        throw error;
      }
      this.resync(`patch ${msg.seq} does not apply: ${error.message}`);
      return;
    }
    this.seq = msg.seq;
    this.draw(new Set(msg.ops.map((/** @type {{path: string}} */ op) => op.path)));
  }

  /**
   * @param {string} why
   */
  resync(why) {
    console.warn(`resync: ${why}`);
    this.resyncing = true;
    this.setSync("resyncing");
    this.request({ type: "resync" }).catch((error) => this.say(`Catching up failed: ${error.message}`));
  }

  /** Draws the view held again (the board's own state changed). */
  redraw() {
    if (this.view) {
      this.draw(new Set());
    }
  }

  /**
   * @param {Set<string>} changed
   */
  draw(changed) {
    const view = /** @type {View} */ (this.view);
    this.setSync(this.resyncing ? "resyncing" : "live");
    this.setStatus(view.status);
    this.root.dataset.status = view.status;
    this.root.dataset.role = view.seat === null ? "spectator" : "player";
    this.root.dataset.seat = view.seat === null ? "" : String(view.seat);
    this.root.dataset.seq = String(this.seq);
    this.root.dataset.ruleset = view.ruleset;
    const board = boardFor(view.ruleset);
    const playing = view.seat !== null && view.status === "playing";
    /** @type {BoardCtx & {pressFor: (key: string) => (() => void) | null, targets: Set<string>}} */
    const ctx = {
      act: (action) => this.play.send(action),
      redraw: () => this.redraw(),
      ui: this.ui,
      pending: this.play.pending,
      replay: false,
      pressFor: () => null,
      targets: new Set(),
    };
    /** @type {MoveGroup[]} */
    let groups = [];
    if (playing && board && view.game) {
      try {
        groups = board.moves(view, ctx);
      } catch (error) {
        console.error("the moves could not be named", error);
      }
    }
    this.play.groups = groups;
    if (playing) {
      ctx.pressFor = (key) => this.play.pressFor(key);
      ctx.targets = this.play.targets();
    }
    this.stage.draw(view, ctx, changed);
    this.play.root.hidden = !playing;
    if (playing) {
      this.play.update(view, groups);
    }
  }
}
