// The lobby, in the game's words: the games waiting for a player (each with one "Play"
// button), the form that starts a game (a game and a variant by name, a class or deck from a
// list, against the bot by default, or a friend with a link, or anyone through matchmaking,
// or two bots to watch), the battles being played now (to watch), and the recently finished
// ones (to replay). Rows are keyed by battle id and redrawn only when they change, so their
// buttons stay put while the lists refresh.

import { clear, fill, h } from "./dom.js";
import { boardFor, gameTitle } from "./boards.js";
import { ago, capitalize, listWords, nameOf, plural, seatState } from "./words.js";

/** @typedef {import("./types").RulesetInfo} RulesetInfo */
/** @typedef {import("./types").SampleInfo} SampleInfo */
/** @typedef {import("./types").BattleSummary} BattleSummary */
/** @typedef {import("./types").FinishedSummary} FinishedSummary */
/** @typedef {import("./types").SeatInfo} SeatInfo */

/** The pace offered for the server's bots, in milliseconds per move. */
export const DEFAULT_PACE_MS = 600;

/** How many recently finished battles are shown until "Show all" is pressed. */
const FINISHED_SHOWN = 10;

/** The waits offered before matchmaking gives up on people and brings the bot. */
const BOT_AFTER = [
  [30000, "play the bot after 30 seconds"],
  [120000, "play the bot after 2 minutes"],
  [0, "wait for a person as long as it takes"],
];

/**
 * What a start request asks for: `create` with the seat to take (null: only watch) and its
 * setup, or `queue`.
 * @typedef {{kind: "create", request: any, seat: number | null, setup: any}
 *   | {kind: "queue", request: any}} StartRequest
 */

/**
 * How the lobby names a battle's players: "Ana against the bot".
 * @param {SeatInfo[]} seats
 */
function players(seats) {
  const names = seats.map((seat) => {
    if (seat.bot) {
      return seat.name ? `${seat.name} (bot)` : "the bot";
    }
    if (!seat.taken) {
      return "a free seat";
    }
    return nameOf(seat, seat.seat);
  });
  return names.length === 1 ? `${capitalize(names[0])}, alone` : capitalize(names.join(" against "));
}

/**
 * Who played a finished battle: "Player 1 against the bot".
 * @param {FinishedSummary} battle
 */
function finishedPlayers(battle) {
  const names = Array.from({ length: battle.seats }, (_, seat) =>
    battle.bots.includes(seat) ? "the bot" : nameOf(battle.names ? { name: battle.names[seat] } : null, seat),
  );
  return names.length === 1 ? `${names[0]}, alone` : names.join(" against ");
}

/**
 * The seats people play in a variant (those its engine does not).
 * @param {SampleInfo} sample
 */
function seatsForPeople(sample) {
  const engine = new Set(sample.engine_seats || []);
  const seats = [];
  for (let seat = 0; seat < sample.seats; seat += 1) {
    if (!engine.has(seat)) {
      seats.push(seat);
    }
  }
  return seats;
}

export class Lobby {
  /**
   * `root` is the `#lobby` section (index.html gives its parts); `actions` has `watch(id)`,
   * `take(id, seat)`, `start(request)`, `unqueue()`, `rename(name)` and `refresh()` (the
   * lists again, now).
   * @param {HTMLElement} root
   * @param {{watch: (id: string) => void, take: (id: string, seat: number | null) => void,
   *   start: (request: StartRequest) => void, unqueue: () => void, rename: (name: string) => void, refresh: () => void}} actions
   */
  constructor(root, actions) {
    this.root = root;
    this.actions = actions;
    /** @type {Map<string, {row: HTMLElement, signature: string}>} */
    this.rows = new Map();
    /** @type {RulesetInfo[]} */
    this.rulesets = [];
    const find = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
    this.openList = find("#open-list");
    this.openBox = find("#open-seats");
    this.liveList = find("#live-list");
    this.finishedList = find("#finished-list");
    this.message = find("#lobby-message");
    this.form = /** @type {HTMLFormElement} */ (find("#start-form"));
    this.queueBox = find("#queue-status");
    this.field = (/** @type {string} */ name) => /** @type {HTMLInputElement & HTMLSelectElement} */ (this.form.elements.namedItem(name));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.field("ruleset").addEventListener("change", () => this.fillSamples());
    this.field("sample").addEventListener("change", () => this.fillOpponents());
    for (const radio of this.form.querySelectorAll('input[name="opponent"]')) {
      radio.addEventListener("change", () => this.fillButton());
    }
    const name = this.field("name");
    name.value = storedName();
    name.addEventListener("change", () => {
      const value = name.value.trim().slice(0, 24);
      name.value = value;
      try {
        localStorage.setItem(NAME_KEY, value);
      } catch {
        // A page without storage forgets the name on reload; nothing else changes.
      }
      this.actions.rename(value);
    });
    find("#queue-cancel").addEventListener("click", () => this.actions.unqueue());
    /** Whether every finished battle the server keeps listed is shown, or only the latest. */
    this.allFinished = false;
    find("#finished-more").addEventListener("click", () => {
      this.allFinished = true;
      find("#finished-more").hidden = true;
      this.actions.refresh();
    });
    fill(this.field("bot_after"), BOT_AFTER.map(([ms, text]) => h("option", { value: String(ms), text: String(text) })));
  }

  /**
   * Shows a sentence above the lists (an error, or nothing with "").
   * @param {string} text
   * @param {string} [kind]
   */
  say(text, kind = "error") {
    this.message.textContent = text;
    this.message.dataset.kind = kind;
    this.message.hidden = text === "";
  }

  /**
   * Shows that the page waits in matchmaking (`waiting` people in the pool), or not (null).
   * @param {{ruleset: string, waiting: number} | null} queued
   */
  setQueued(queued) {
    this.queueBox.hidden = queued === null;
    this.form.dataset.queued = String(queued !== null);
    const submit = /** @type {HTMLButtonElement} */ (this.form.querySelector("button[type=submit]"));
    submit.disabled = queued !== null || this.rulesets.length === 0;
    if (queued) {
      const others = Math.max(0, queued.waiting - 1);
      /** @type {HTMLElement} */ (this.queueBox.querySelector(".queue-text")).textContent =
        `Looking for an opponent for ${gameTitle(queued.ruleset)}… ${others ? `${plural(others, "other player")} waiting too.` : "Nobody else is waiting yet."}`;
    }
  }

  /**
   * Shows one `battles` answer: the live battles (those waiting for a player first, apart)
   * and the recently finished ones.
   * @param {{battles?: BattleSummary[], finished?: FinishedSummary[]}} page
   */
  update(page) {
    const battles = page.battles || [];
    const finished = page.finished || [];
    const seen = new Set();
    const open = battles.filter((b) => b.status === "waiting" && b.seats.some((s) => !s.taken && !s.bot));
    const live = battles.filter((b) => b.status !== "finished" && !open.includes(b));
    const endedHere = battles.filter((b) => b.status === "finished" && !finished.some((f) => f.battle_id === b.battle_id));
    const moreButton = /** @type {HTMLButtonElement} */ (this.root.querySelector("#finished-more"));
    const kept = this.allFinished ? finished : finished.slice(0, FINISHED_SHOWN);
    moreButton.hidden = kept.length === finished.length;
    moreButton.textContent = `Show all ${finished.length}`;
    this.place(this.openList, open.map((b) => [b.battle_id, b, () => this.openRow(b)]), seen);
    this.place(this.liveList, live.map((b) => [b.battle_id, b, () => this.liveRow(b)]), seen);
    this.place(
      this.finishedList,
      [
        ...endedHere.map((b) => /** @type {[string, any, () => HTMLElement]} */ ([b.battle_id, b, () => this.endedRow(b)])),
        ...kept.map((f) => /** @type {[string, any, () => HTMLElement]} */ ([`finished:${f.battle_id}`, { ...f, now: Math.floor(Date.now() / 30000) }, () => this.finishedRow(f)])),
      ],
      seen,
    );
    for (const [id, entry] of this.rows) {
      if (!seen.has(id)) {
        entry.row.remove();
        this.rows.delete(id);
      }
    }
    this.openBox.hidden = open.length === 0;
    /** @type {HTMLElement} */ (this.root.querySelector("#no-live")).hidden = live.length > 0;
    /** @type {HTMLElement} */ (this.root.querySelector("#no-finished")).hidden = finished.length + endedHere.length > 0;
    /** @type {HTMLElement} */ (this.root.querySelector("#live-count")).textContent = live.length ? `${live.length}` : "";
  }

  /**
   * Puts the rows of `items` in `list` in their order, redrawing only those that changed.
   * @param {HTMLElement} list
   * @param {[string, any, () => HTMLElement][]} items
   * @param {Set<string>} seen
   */
  place(list, items, seen) {
    /** @type {ChildNode | null} */
    let previous = null;
    for (const [key, data, draw] of items) {
      seen.add(key);
      const signature = JSON.stringify(data);
      let entry = this.rows.get(key);
      if (!entry || entry.signature !== signature) {
        const row = draw();
        if (entry) {
          entry.row.replaceWith(row);
        }
        entry = { row, signature };
        this.rows.set(key, entry);
      }
      /** @type {ChildNode | null} */
      const wanted = previous ? previous.nextSibling : list.firstChild;
      if (wanted !== entry.row) {
        list.insertBefore(entry.row, wanted);
      }
      previous = entry.row;
    }
  }

  /**
   * A battle waiting for a player: who waits, and one Play button.
   * @param {BattleSummary} battle
   */
  openRow(battle) {
    const waiting = battle.seats.filter((s) => s.taken && !s.bot).map((s) => nameOf(s, s.seat));
    const bots = battle.seats.filter((s) => s.bot).length;
    const free = battle.seats.filter((s) => !s.taken && !s.bot);
    const who = waiting.length
      ? `${listWords(waiting)} ${waiting.length === 1 ? "waits" : "wait"} for an opponent`
      : bots
        ? "Play against the bot"
        : `${plural(free.length, "seat")} free`;
    return this.row(battle, [
      h("span", { class: "row-game", text: gameTitle(battle.ruleset) }),
      h("span", { class: "row-text", text: who }),
    ], [
      h("button", {
        type: "button",
        class: "primary",
        dataset: { action: "play" },
        text: "Play",
        "aria-label": `Play ${gameTitle(battle.ruleset)}: ${who}`,
        on: { click: () => this.actions.take(battle.battle_id, free.length ? free[0].seat : null) },
      }),
    ]);
  }

  /**
   * A battle being played: its players and watchers, and a Watch button.
   * @param {BattleSummary} battle
   */
  liveRow(battle) {
    const watching = battle.spectators ? ` · ${battle.spectators} watching` : "";
    return this.row(battle, [
      h("span", { class: "row-game", text: gameTitle(battle.ruleset) }),
      h("span", { class: "row-text", text: `${players(battle.seats)}${watching}` }),
      battle.seeded ? h("span", { class: "tag tag-warn", title: "created with a known seed: its moves could be known in advance", text: "known seed" }) : null,
      battle.seats.some((s) => seatState(s) === "away") ? h("span", { class: "tag", text: "a player is away" }) : null,
    ], [
      h("button", {
        type: "button",
        class: "secondary",
        dataset: { action: "watch" },
        text: "Watch",
        "aria-label": `Watch ${gameTitle(battle.ruleset)}: ${players(battle.seats)}`,
        on: { click: () => this.actions.watch(battle.battle_id) },
      }),
    ]);
  }

  /**
   * A battle that just ended and is still listed, before its replay is kept.
   * @param {BattleSummary} battle
   */
  endedRow(battle) {
    return this.row(battle, [
      h("span", { class: "row-game", text: gameTitle(battle.ruleset) }),
      h("span", { class: "row-text", text: `${players(battle.seats)} · just ended` }),
    ], [
      h("button", { type: "button", class: "secondary", dataset: { action: "watch" }, text: "See the end", on: { click: () => this.actions.watch(battle.battle_id) } }),
    ]);
  }

  /**
   * A finished battle: how it ended, when, and a link to its replay.
   * @param {FinishedSummary} battle
   */
  finishedRow(battle) {
    const href = `#/replay/${encodeURIComponent(battle.battle_id)}`;
    const row = h(
      "li",
      { class: "battle-row", dataset: { battleId: battle.battle_id, ruleset: battle.ruleset, status: "finished", steps: battle.steps } },
      h(
        "div",
        { class: "row-main" },
        h("span", { class: "row-game", text: gameTitle(battle.ruleset) }),
        h("span", { class: "row-text", text: battle.outcome.summary }),
        h("span", { class: "row-when muted small", text: `${finishedPlayers(battle)} · ${ago(battle.ended_at)} · ${plural(battle.steps, "step")}` }),
      ),
      h("div", { class: "row-actions" }, h("a", { class: "button secondary", href, dataset: { action: "replay" }, text: "Watch replay", "aria-label": `Watch the replay: ${battle.outcome.summary}` })),
    );
    return row;
  }

  /**
   * A row of a list: its words and its buttons.
   * @param {BattleSummary} battle
   * @param {(HTMLElement | null)[]} words
   * @param {HTMLElement[]} buttons
   */
  row(battle, words, buttons) {
    return h(
      "li",
      {
        class: "battle-row",
        dataset: {
          battleId: battle.battle_id,
          ruleset: battle.ruleset,
          status: battle.status,
          allBots: String(battle.seats.every((s) => s.bot)),
          freeSeats: battle.seats.filter((s) => !s.taken).map((s) => s.seat).join(","),
        },
      },
      h("div", { class: "row-main" }, words),
      h("div", { class: "row-actions" }, buttons),
    );
  }

  /**
   * The rulesets from `welcome`: fills the form's choices.
   * @param {RulesetInfo[]} rulesets
   */
  setRulesets(rulesets) {
    this.rulesets = rulesets || [];
    const select = this.field("ruleset");
    const kept = select.value;
    fill(select, this.rulesets.map((r) => h("option", { value: r.id, text: gameTitle(r.id) })));
    if (this.rulesets.some((r) => r.id === kept)) {
      select.value = kept;
    }
    /** @type {HTMLButtonElement} */ (this.form.querySelector("button[type=submit]")).disabled = this.rulesets.length === 0;
    this.fillSamples();
  }

  /** @returns {RulesetInfo | undefined} */
  ruleset() {
    return this.rulesets.find((r) => r.id === this.field("ruleset").value);
  }

  /** @returns {SampleInfo | undefined} */
  sample() {
    const ruleset = this.ruleset();
    return ruleset ? ruleset.samples[this.field("sample").selectedIndex] : undefined;
  }

  /** The variants of the chosen game, its pitch, and its setups (a class, a deck). */
  fillSamples() {
    const ruleset = this.ruleset();
    const samples = ruleset ? ruleset.samples : [];
    fill(this.field("sample"), samples.map((s, i) => h("option", { value: String(i), text: capitalize(s.about) })));
    /** @type {HTMLElement} */ (this.form.querySelector("#sample-row")).hidden = samples.length < 2;
    const board = ruleset ? boardFor(ruleset.id) : null;
    /** @type {HTMLElement} */ (this.form.querySelector("#game-pitch")).textContent = board ? board.pitch : ruleset ? ruleset.summary : "";
    const setupRow = /** @type {HTMLElement} */ (this.form.querySelector("#setup-row"));
    const setups = board && board.setups ? board.setups : null;
    setupRow.hidden = setups === null;
    if (setups) {
      /** @type {HTMLElement} */ (setupRow.querySelector(".setup-label")).textContent = setups.label;
      fill(this.field("setup"), setups.choices.map((c, i) => h("option", { value: String(i), text: c.about ? `${c.label}: ${c.about}` : c.label })));
    } else {
      clear(this.field("setup"));
    }
    this.fillOpponents();
  }

  /** Who the person may play against in the chosen variant. */
  fillOpponents() {
    const sample = this.sample();
    const people = sample ? seatsForPeople(sample).length : 0;
    const box = /** @type {HTMLElement} */ (this.form.querySelector("#opponent-row"));
    box.hidden = people < 2;
    const alone = /** @type {HTMLElement} */ (this.form.querySelector("#alone-note"));
    alone.hidden = people !== 1;
    if (sample && people === 1) {
      alone.textContent = sample.engine_seats && sample.engine_seats.length ? "You play against the game's own opponent." : "A game for one: you play it alone.";
    }
    if (people < 2) {
      const bot = /** @type {HTMLInputElement} */ (this.form.querySelector('input[name="opponent"][value="bot"]'));
      bot.checked = true;
    }
    this.fillButton();
  }

  /** The start button says what it does. */
  fillButton() {
    const sample = this.sample();
    const people = sample ? seatsForPeople(sample).length : 0;
    const opponent = this.opponent();
    const button = /** @type {HTMLButtonElement} */ (this.form.querySelector("button[type=submit]"));
    /** @type {HTMLElement} */ (this.form.querySelector("#bot-after-row")).hidden = opponent !== "anyone" || people < 2;
    button.textContent =
      people < 2
        ? "Start"
        : opponent === "friend"
          ? "Start and get a link"
          : opponent === "anyone"
            ? "Find an opponent"
            : opponent === "watch"
              ? "Start the bots"
              : "Play against the bot";
  }

  /** @returns {string} */
  opponent() {
    const checked = /** @type {HTMLInputElement | null} */ (this.form.querySelector('input[name="opponent"]:checked'));
    return checked ? checked.value : "bot";
  }

  submit() {
    const ruleset = this.ruleset();
    const sample = this.sample();
    if (!ruleset || !sample) {
      this.say("The server has not said which games it offers yet.");
      return;
    }
    const pace = Number(this.field("pace").value);
    if (!Number.isInteger(pace) || pace < 0 || pace > 60000) {
      this.say("The bot's pace is a whole number of milliseconds, from 0 to 60000.");
      return;
    }
    this.say("");
    const board = boardFor(ruleset.id);
    const setups = board && board.setups ? board.setups.choices : [];
    const chosen = setups[this.field("setup").selectedIndex];
    const setup = chosen ? chosen.setup : null;
    const people = seatsForPeople(sample);
    if (!people.length) {
      this.actions.start({ kind: "create", request: { type: "create", ruleset: ruleset.id, options: sample.options, bots: [], pace_ms: pace }, seat: null, setup: null });
      return;
    }
    const opponent = people.length < 2 ? "bot" : this.opponent();
    if (opponent === "anyone") {
      const wait = Number(this.field("bot_after").value);
      /** @type {any} */
      const request = { type: "queue", ruleset: ruleset.id, sample: sample.name };
      if (setup) {
        request.setup = setup;
      }
      if (wait > 0) {
        request.bot_after_ms = wait;
      }
      this.actions.start({ kind: "queue", request });
      return;
    }
    const mine = opponent === "watch" ? null : people[0];
    const bots = opponent === "friend" ? [] : people.filter((s) => s !== mine);
    this.actions.start({
      kind: "create",
      request: { type: "create", ruleset: ruleset.id, options: sample.options, bots, pace_ms: pace },
      seat: mine,
      setup,
    });
  }
}

/** Where the person's name is kept between visits. */
const NAME_KEY = "battle-name";

/** The name the person gave before, or "". */
export function storedName() {
  try {
    return (localStorage.getItem(NAME_KEY) || "").trim().slice(0, 24);
  } catch {
    return "";
  }
}
