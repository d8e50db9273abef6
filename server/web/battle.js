// One battle on the page, watched or played: holds the view from its `snapshot`, applies each
// `patch` in order and asks for a fresh snapshot (`resync`) when a patch skips a `seq` or does
// not apply; draws the envelope every ruleset shares (status, seats, whose decision, the
// prompt, the clocks, the outcome), the ruleset's own board where the page has one, the log
// and the whole game view as a tree, and the play controls for a seated viewer.

import { fill, h, seatName } from "./dom.js";
import { applyPatch, PatchError } from "./patch.js";
import { PlayPanel, describeAction } from "./play.js";
import { renderTree, TreeState } from "./tree.js";
import * as synergy from "./synergy.js";

/**
 * Rulesets with a board of their own (a module with `render(root, view, ctx)` and
 * `describe(view)`, which names its actions); the others are shown by the tree alone.
 */
const BOARDS = { synergy };

/** How often running clocks are redrawn. */
const CLOCK_TICK_MS = 250;

function formatMs(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, "0")}`;
}

export class BattleScreen {
  /**
   * `root` is the `#battle` section. `actions.send(msg)` sends a message without waiting,
   * `actions.request(msg)` sends one and returns a Promise of its answer.
   */
  constructor(root, actions) {
    this.root = root;
    this.actions = actions;
    this.el = (id) => root.querySelector(`#${id}`);
    this.treeState = new TreeState();
    this.play = new PlayPanel(this.el("play"), {
      act: (action) => this.request({ type: "act", action }),
      resign: () => this.request({ type: "resign" }),
    });
    this.reset(null);
    setInterval(() => this.drawClocks(), CLOCK_TICK_MS);
  }

  /** Starts showing battle `battleId` (null: none), with nothing held yet. */
  reset(battleId) {
    this.battleId = battleId;
    this.view = null;
    this.seq = null;
    this.resyncing = false;
    this.logShown = 0;
    this.treeState = new TreeState();
    this.play.signature = null;
    this.play.showError("");
    this.el("battle-id").textContent = battleId || "";
    this.el("battle-ruleset").textContent = "";
    this.setStatus("connecting");
    this.setSync("");
    this.el("outcome").hidden = true;
    this.el("outcome").dataset.shown = "false";
    this.el("play").hidden = true;
    this.el("log").replaceChildren();
    this.el("tree").replaceChildren();
    this.el("board").replaceChildren();
    this.el("envelope").replaceChildren();
    this.say("");
  }

  /** A sentence above the battle (why it cannot be shown, that it went away). */
  say(text) {
    const note = this.el("battle-note");
    note.textContent = text;
    note.hidden = text === "";
  }

  request(msg) {
    msg.battle_id = this.battleId;
    return this.actions.request(msg);
  }

  setStatus(word) {
    const status = this.el("status");
    status.textContent = word;
    status.dataset.status = word;
  }

  setSync(word) {
    const sync = this.el("sync");
    sync.textContent = word === "resyncing" ? "resyncing…" : word;
    sync.dataset.state = word;
    sync.hidden = word === "";
  }

  /** A `snapshot` or `patch` of the shown battle; anything else is ignored. */
  receive(msg) {
    if (msg.battle_id !== this.battleId) {
      return;
    }
    if (msg.type === "snapshot") {
      this.view = msg.view;
      this.seq = msg.seq;
      this.resyncing = false;
      this.logShown = 0;
      this.el("log").replaceChildren();
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
    this.draw(new Set(msg.ops.map((op) => op.path)));
  }

  resync(why) {
    console.warn(`resync: ${why}`);
    this.resyncing = true;
    this.setSync("resyncing");
    this.request({ type: "resync" }).catch((error) => this.say(`Resync failed: ${error.message}`));
  }

  draw(changed) {
    const view = this.view;
    this.setSync(this.resyncing ? "resyncing" : "live");
    this.setStatus(view.status);
    this.root.dataset.status = view.status;
    this.root.dataset.role = view.seat === null ? "spectator" : "player";
    this.root.dataset.seat = view.seat === null ? "" : String(view.seat);
    this.root.dataset.seq = String(this.seq);
    this.el("battle-ruleset").textContent = view.ruleset;
    this.drawOutcome(view);
    this.drawEnvelope(view);
    const board = BOARDS[view.ruleset];
    const describe = board && view.game ? board.describe(view) : describeAction;
    if (this.treeState.open.size === 0) {
      // Without a board of its own the tree is the main view: open it further.
      this.treeState.openDepth = board ? 2 : 3;
    }
    if (board && view.game) {
      board.render(this.el("board"), view, { act: (action) => this.play.send(action) });
    } else {
      this.el("board").replaceChildren();
    }
    const playing = view.seat !== null && view.status !== "finished";
    this.el("play").hidden = !playing;
    if (playing) {
      this.play.update(view, describe);
    }
    this.drawLog(view);
    const game = view.game;
    if (game === null || game === undefined) {
      fill(this.el("tree"), h("p", { class: "muted", text: "The game starts once every seat is held." }));
    } else {
      renderTree(this.el("tree"), game, this.treeState, { base: "/game", skip: ["log"], changed });
    }
    this.drawClocks();
  }

  drawOutcome(view) {
    const box = this.el("outcome");
    const outcome = view.outcome;
    if (!outcome) {
      box.hidden = true;
      box.dataset.shown = "false";
      return;
    }
    const winners = outcome.winners || [];
    let headline;
    if (!winners.length) {
      headline = "A draw";
    } else if (view.seat !== null) {
      headline = winners.includes(view.seat) ? "You won" : "You lost";
    } else {
      headline = `${winners.map(seatName).join(" and ")} won`;
    }
    fill(box, h("strong", { class: "headline", text: headline }), h("span", { class: "summary", text: outcome.summary }));
    box.dataset.winners = winners.join(",");
    box.dataset.shown = "true";
    box.hidden = false;
  }

  drawEnvelope(view) {
    const seats = (view.seats || []).map((word, seat) => {
      const acting = (view.to_act || []).includes(seat);
      return h(
        "li",
        { class: `seat-chip seat-${word}${acting ? " acting" : ""}`, dataset: { seat, holder: word } },
        `${seatName(seat)}: ${word}`,
        view.seat === seat ? h("strong", { text: " (you)" }) : null,
        acting ? h("span", { class: "acting-mark", text: " · to act" }) : null,
        word === "free" && view.seat === null && view.status === "waiting"
          ? h("button", {
              type: "button",
              class: "take",
              dataset: { action: "take", seat },
              text: `Take seat ${seat}`,
              on: { click: () => this.actions.take(this.battleId, seat) },
            })
          : null,
      );
    });
    const toAct = view.to_act || [];
    const waiting =
      view.status === "finished"
        ? "The battle is over."
        : view.status === "waiting"
          ? "Waiting for every seat to be taken."
          : toAct.length
            ? `Waiting on ${toAct.map((s) => (s === view.seat ? "you" : seatName(s))).join(" and ")}.`
            : "The game moves by itself.";
    const clocks = Array.isArray(view.clocks)
      ? h(
          "ul",
          { id: "clocks", class: "clocks" },
          view.clocks.map((clock, seat) =>
            h("li", { class: "clock", dataset: { seat } }, `${seatName(seat)} `, h("span", { class: "clock-time" })),
          ),
        )
      : null;
    fill(
      this.el("envelope"),
      h("ul", { id: "seats", class: "seat-list" }, seats),
      h("p", { id: "to-act", text: waiting }),
      view.prompt && view.seat === null ? h("p", { id: "prompt", class: "prompt", text: view.prompt.text }) : null,
      clocks ? h("span", { class: "muted small", text: "Clocks:" }) : null,
      clocks,
    );
  }

  drawClocks() {
    const view = this.view;
    if (!view || !Array.isArray(view.clocks)) {
      return;
    }
    const now = Date.now();
    for (const item of this.root.querySelectorAll("#clocks .clock")) {
      const clock = view.clocks[Number(item.dataset.seat)];
      if (!clock) {
        continue;
      }
      const running = typeof clock.deadline === "number" && view.status === "playing";
      const text = running
        ? `${formatMs(clock.deadline - now)} to move · bank ${formatMs(clock.bank_ms)}`
        : `bank ${formatMs(clock.bank_ms)}`;
      item.dataset.running = String(running);
      item.querySelector(".clock-time").textContent = text;
    }
  }

  drawLog(view) {
    const list = this.el("log");
    const lines = view.game && Array.isArray(view.game.log) ? view.game.log : [];
    if (lines.length < this.logShown) {
      list.replaceChildren();
      this.logShown = 0;
    }
    const box = list.parentElement;
    const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
    for (const line of lines.slice(this.logShown)) {
      list.append(h("li", { text: typeof line === "string" ? line : JSON.stringify(line) }));
    }
    this.logShown = lines.length;
    list.dataset.lines = String(lines.length);
    if (atBottom) {
      box.scrollTop = box.scrollHeight;
    }
  }
}
