// The stage: everything the page draws for one view of a battle, live or replayed. Who plays
// whom, whose turn it is and what the viewer may do now (the turn banner, with the clocks),
// the outcome and how it ended, the game's own board (or, for a game without one, the view as
// a tree), the log as it comes, the game's "how to play" panel, and the raw view behind a
// toggle. The live battle (battle.js) and the replay (replay.js) each hold one.

import { fill, h, redraw } from "./dom.js";
import { renderTree, TreeState } from "./tree.js";
import { boardFor, gameTitle } from "./boards.js";
import { clockText, listWords, outcomeHeadline, reasonWords, seatName, seatState, stateWords, who } from "./words.js";

/** @typedef {import("./types").View} View */
/** @typedef {import("./types").Board} Board */
/** @typedef {import("./types").BoardCtx} BoardCtx */

/** How often running clocks are redrawn. */
const CLOCK_TICK_MS = 250;

/**
 * The sentence the turn banner says when the viewer is not the one awaited.
 * @param {View} view
 * @param {Board | null} board
 */
function situation(view, board) {
  if (board && board.situation && view.game) {
    try {
      return board.situation(view);
    } catch (error) {
      console.warn("situation", error);
    }
  }
  return "";
}

export class Stage {
  /**
   * Builds the stage's parts inside `root`. `prefix` starts every id it gives (the live battle
   * uses none, the replay "replay-"), so both can be in the page at once.
   * @param {HTMLElement} root
   * @param {string} prefix
   * @param {{play?: HTMLElement | null, take?: (seat: number) => void, invite?: () => string | null}} [hooks]
   */
  constructor(root, prefix, hooks = {}) {
    this.root = root;
    this.hooks = hooks;
    const id = (/** @type {string} */ name) => `${prefix}${name}`;
    this.title = h("h2", { class: "stage-title", id: id("title") });
    this.seats = h("ul", { class: "seat-list", id: id("seats"), "aria-label": "Players" });
    this.turn = h("div", { class: "turn-banner", id: id("turn"), role: "status", "aria-live": "polite" });
    this.outcome = h("div", { class: "outcome", id: id("outcome"), role: "status", hidden: true, dataset: { shown: "false" } });
    this.invite = h("div", { class: "invite panel", id: id("invite"), hidden: true });
    this.board = h("div", { class: "board", id: id("board") });
    this.log = h("ol", { class: "log", id: id("log"), "aria-live": "off" });
    this.logBox = h("div", { class: "log-box", tabindex: "0", "aria-label": "What happened, latest last" }, this.log);
    this.logPanel = h("section", { class: "panel log-panel" }, h("h3", { text: "What happened" }), this.logBox);
    this.help = h("details", { class: "help panel", id: id("help") });
    this.tree = h("div", { class: "tree", id: id("tree") });
    this.raw = h("details", { class: "raw panel", id: id("raw") }, h("summary", { text: "Raw view (the game's data, for developers)" }), this.tree);
    this.raw.addEventListener("toggle", () => this.drawTree(new Set()));
    this.treeState = new TreeState();
    this.logShown = 0;
    /** @type {View | null} */
    this.view = null;
    /** @type {Board | null} */
    this.shownBoard = null;
    /** Whether the raw view was opened or closed by hand (then it stays so). */
    this.rawTouched = false;
    this.raw.querySelector("summary")?.addEventListener("click", () => {
      this.rawTouched = true;
    });
    root.replaceChildren(
      h("div", { class: "stage-head" }, this.title, this.seats),
      this.turn,
      this.outcome,
      this.invite,
      h(
        "div",
        { class: "stage-grid" },
        h("div", { class: "stage-main" }, this.board),
        h(
          "div",
          { class: "stage-side" },
          hooks.play || null,
          this.logPanel,
        ),
      ),
      this.help,
      this.raw,
    );
    setInterval(() => this.drawClocks(), CLOCK_TICK_MS);
  }

  /** Forgets the view shown (another battle comes). */
  reset() {
    this.view = null;
    this.logShown = 0;
    this.log.replaceChildren();
    this.board.replaceChildren();
    this.tree.replaceChildren();
    this.treeState = new TreeState();
    this.shownBoard = null;
    this.rawTouched = false;
    this.raw.open = false;
    this.title.textContent = "";
    this.seats.replaceChildren();
    this.turn.replaceChildren();
    this.turn.hidden = true;
    this.invite.hidden = true;
    this.help.replaceChildren();
    this.outcome.hidden = true;
    this.outcome.dataset.shown = "false";
  }

  /**
   * Draws `view`. `ctx` is what the board draws with; `changed` the pointers the last patch
   * touched (for the raw view). `names` overrides the seat names (a replay's).
   * @param {View} view
   * @param {BoardCtx} ctx
   * @param {Set<string>} changed
   * @param {{seats?: number}} [extra]
   */
  draw(view, ctx, changed, extra = {}) {
    this.view = view;
    const board = boardFor(view.ruleset);
    const seatCount = extra.seats ?? (view.seats ? view.seats.length : 0);
    this.title.textContent = gameTitle(view.ruleset);
    this.drawSeats(view, seatCount);
    this.drawTurn(view, board);
    this.drawOutcome(view, seatCount);
    this.drawInvite(view);
    if (this.shownBoard !== board) {
      this.shownBoard = board;
      this.drawHelp(view, board);
      // While waiting for players there is time to read the rules.
      this.help.open = view.status === "waiting";
      if (!this.rawTouched) {
        // Without a board of its own the raw view is the main view: open it.
        this.raw.open = board === null;
      }
    }
    this.root.dataset.board = board ? view.ruleset : "";
    if (board && view.game) {
      redraw(this.board, (into) => {
        try {
          board.render(into, view, ctx);
        } catch (error) {
          console.error("the board could not be drawn", error);
          fill(into, h("p", { class: "error", text: "The board could not be drawn; the raw view below shows the game." }));
          this.raw.open = true;
        }
      });
    } else if (view.game) {
      fill(this.board, h("p", { class: "muted", text: "This game has no board of its own: its state is shown in the raw view below." }));
    } else {
      fill(this.board, h("p", { class: "muted waiting-note", text: "The game starts once every seat is taken." }));
    }
    this.logPanel.hidden = !view.game;
    this.drawLog(view);
    this.drawTree(changed);
    this.drawClocks();
  }

  /**
   * The players, each with the state of their seat and a mark on whoever is awaited.
   * @param {View} view
   * @param {number} seatCount
   */
  drawSeats(view, seatCount) {
    const items = [];
    for (let seat = 0; seat < seatCount; seat += 1) {
      const entry = view.seats ? view.seats[seat] : null;
      const state = entry === null || entry === undefined ? "" : seatState(entry);
      const acting = (view.to_act || []).includes(seat) && view.status === "playing";
      items.push(
        h(
          "li",
          { class: `seat-chip seat-${state || "known"}${acting ? " acting" : ""}`, dataset: { seat, holder: state } },
          acting ? h("span", { class: "acting-mark", "aria-label": "to act", text: "▶ " }) : null,
          h("strong", { text: seatName(view, seat) }),
          view.seat === seat ? " (you)" : null,
          state && state !== "connected" ? h("span", { class: "seat-state", text: ` · ${stateWords(state)}` }) : null,
          state === "free" && view.seat === null && view.status === "waiting" && this.hooks.take
            ? h("button", {
                type: "button",
                class: "take",
                dataset: { action: "take", seat },
                text: "Take this seat",
                on: { click: () => this.hooks.take && this.hooks.take(seat) },
              })
            : null,
        ),
      );
    }
    fill(this.seats, items);
  }

  /**
   * The turn banner: whose turn it is and what the viewer may do now, and the clocks.
   * @param {View} view
   * @param {Board | null} board
   */
  drawTurn(view, board) {
    const toAct = view.to_act || [];
    const mine = view.seat !== null && toAct.includes(view.seat);
    const where = situation(view, board);
    let kind = "wait";
    let head;
    let line = "";
    let more = "";
    if (view.status === "finished") {
      kind = "over";
      head = "The battle is over";
      line = where;
    } else if (view.status === "waiting") {
      const free = (view.seats || []).map(seatState).filter((s) => s === "free").length;
      head = "Waiting for players";
      line = `${free === 1 ? "One seat is" : `${free} seats are`} still free; the game starts when every seat is taken.`;
    } else if (mine) {
      kind = "mine";
      head = "Your turn";
      line = view.prompt ? view.prompt.text : "Choose a move.";
      more = (board && board.hint && view.game && board.hint(view)) || where;
    } else if (toAct.length) {
      head = `Waiting for ${listWords(toAct.map((s) => who(view, s)))}`;
      line = where;
    } else {
      kind = "auto";
      head = "The game plays itself";
      line = where;
      if (view.seat !== null && (view.legal || []).length) {
        kind = "auto-mine";
      }
    }
    const clocks = Array.isArray(view.clocks) && view.status === "playing"
      ? h(
          "ul",
          { class: "clocks", "aria-label": "Clocks" },
          view.clocks.map((_, seat) =>
            h("li", { class: "clock", dataset: { seat } }, h("span", { class: "clock-name", text: `${who(view, seat, true)}: ` }), h("span", { class: "clock-time" })),
          ),
        )
      : null;
    this.turn.hidden = false;
    this.turn.dataset.kind = kind;
    this.root.dataset.myTurn = String(mine);
    fill(
      this.turn,
      h("span", { class: "turn-icon", "aria-hidden": "true", text: kind === "mine" ? "▶" : kind === "over" ? "■" : "…" }),
      h(
        "div",
        { class: "turn-text" },
        h("strong", { class: "turn-head", text: head }),
        line ? h("span", { class: "turn-line", text: line }) : null,
        more ? h("span", { class: "turn-more muted small", text: more }) : null,
      ),
      mine && this.hooks.play ? h("a", { class: "turn-jump", href: "#play", text: "Your moves ↓", on: { click: jumpToMoves } }) : null,
      clocks,
    );
  }

  /**
   * The outcome: the headline for this viewer, how it ended and the server's sentence.
   * @param {View} view
   * @param {number} seatCount
   */
  drawOutcome(view, seatCount) {
    const outcome = view.outcome;
    if (!outcome) {
      this.outcome.hidden = true;
      this.outcome.dataset.shown = "false";
      return;
    }
    const headline = outcomeHeadline(outcome, view.seat, (s) => seatName(view, s), seatCount);
    const how = reasonWords(outcome);
    const won = view.seat !== null && (outcome.winners || []).includes(view.seat);
    const result = view.seat === null ? "watched" : won ? "won" : outcome.winners.length || seatCount === 1 ? "lost" : "draw";
    fill(
      this.outcome,
      h("span", { class: "outcome-icon", "aria-hidden": "true", text: { won: "★", lost: "✖", draw: "=", watched: "■" }[result] }),
      h(
        "div",
        {},
        h("strong", { class: "headline", text: how ? `${headline} ${how}` : headline }),
        h("span", { class: "summary", text: outcome.summary }),
      ),
    );
    this.outcome.dataset.winners = (outcome.winners || []).join(",");
    this.outcome.dataset.reason = outcome.reason || "";
    this.outcome.dataset.result = result;
    this.outcome.dataset.shown = "true";
    this.outcome.hidden = false;
  }

  /**
   * The link for a friend, while the viewer waits in a battle with a free seat for a person.
   * @param {View} view
   */
  drawInvite(view) {
    const link = this.hooks.invite ? this.hooks.invite() : null;
    const free = (view.seats || []).some((s) => seatState(s) === "free");
    if (!link || view.seat === null || view.status !== "waiting" || !free) {
      this.invite.hidden = true;
      return;
    }
    if (this.invite.dataset.link === link && !this.invite.hidden) {
      return;
    }
    this.invite.dataset.link = link;
    const field = h("input", { type: "text", id: "invite-link", readonly: true, value: link, "aria-label": "Link for your opponent" });
    const copied = h("span", { class: "muted small", role: "status" });
    fill(
      this.invite,
      h("h3", { text: "Invite a friend" }),
      h("p", { text: "Send this link to the person you want to play: it opens this battle on the free seat, and the game starts as soon as they arrive." }),
      h(
        "div",
        { class: "invite-row" },
        field,
        h("button", {
          type: "button",
          id: "invite-copy",
          text: "Copy link",
          on: {
            click: () => {
              field.select();
              const done = () => (copied.textContent = "Copied.");
              if (navigator.clipboard) {
                navigator.clipboard.writeText(link).then(done, () => (copied.textContent = "Select the link and copy it."));
              } else {
                copied.textContent = "Select the link and copy it.";
              }
            },
          },
        }),
        copied,
      ),
    );
    this.invite.hidden = false;
  }

  /**
   * The game's "how to play" panel.
   * @param {View} view
   * @param {Board | null} board
   */
  drawHelp(view, board) {
    if (!board) {
      this.help.hidden = true;
      return;
    }
    this.help.hidden = false;
    fill(
      this.help,
      h("summary", { text: `How to play ${board.title}` }),
      h("p", { class: "help-pitch", text: board.pitch }),
      h(
        "div",
        { class: "help-sections" },
        board.help.map((section) =>
          h("section", { class: "help-section" }, h("h4", { text: section.title }), h("ul", {}, section.lines.map((line) => h("li", { text: line })))),
        ),
      ),
    );
  }

  /**
   * The log's new lines, as they come (the server writes them for this viewer already).
   * @param {View} view
   */
  drawLog(view) {
    const lines = view.game && Array.isArray(view.game.log) ? view.game.log : [];
    if (lines.length < this.logShown) {
      this.log.replaceChildren();
      this.logShown = 0;
    }
    const box = this.logBox;
    const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
    const fresh = lines.slice(this.logShown);
    for (const line of fresh) {
      this.log.append(h("li", { text: typeof line === "string" ? line : JSON.stringify(line) }));
    }
    this.logShown = lines.length;
    this.log.dataset.lines = String(lines.length);
    if (atBottom || fresh.length) {
      box.scrollTop = box.scrollHeight;
    }
  }

  /**
   * The raw view, drawn only while it is open.
   * @param {Set<string>} changed
   */
  drawTree(changed) {
    const view = this.view;
    if (!this.raw.open || !view) {
      return;
    }
    const game = view.game;
    if (this.treeState.open.size === 0) {
      this.treeState.openDepth = this.shownBoard ? 2 : 3;
    }
    if (game === null || game === undefined) {
      fill(this.tree, h("p", { class: "muted", text: "The game starts once every seat is taken." }));
    } else {
      renderTree(this.tree, game, this.treeState, { base: "/game", skip: ["log"], changed });
    }
  }

  /** The running clocks' countdowns. */
  drawClocks() {
    const view = this.view;
    if (!view || !Array.isArray(view.clocks)) {
      return;
    }
    const now = Date.now();
    for (const item of this.turn.querySelectorAll(".clock")) {
      const li = /** @type {HTMLElement} */ (item);
      const clock = view.clocks[Number(li.dataset.seat)];
      const time = li.querySelector(".clock-time");
      if (!clock || !time) {
        continue;
      }
      const deadline = clock.deadline;
      const running = typeof deadline === "number" && view.status === "playing";
      time.textContent =
        typeof deadline === "number" && running
          ? `${clockText(deadline - now)} to move (bank ${clockText(clock.bank_ms)})`
          : `bank ${clockText(clock.bank_ms)}`;
      li.dataset.running = String(running);
    }
  }
}

/**
 * Scrolls the moves panel into view and puts the keyboard there.
 * @param {Event} event
 */
function jumpToMoves(event) {
  event.preventDefault();
  const play = document.getElementById("play");
  if (play) {
    play.scrollIntoView({ behavior: "smooth", block: "start" });
    const first = play.querySelector("button:not([disabled])");
    if (first instanceof HTMLElement) {
      first.focus({ preventScroll: true });
    }
  }
}
