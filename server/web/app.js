// The battle page's entry point: connects to the server (the page's own origin, or
// `?server=ws://host:port`), says hello with the person's name, and routes between the lobby
// (`#/`), one battle (`#/battle/ID`, watched or, holding a seat, played; `#/battle/ID/join`
// takes a free seat, the link a player sends a friend) and a finished battle's replay
// (`#/replay/ID`, or `#/replay/ID/STEP` at a step). A seat's token is kept in sessionStorage
// so that a reload takes the seat back with `rejoin`.

import { Connection, serverUrl } from "./conn.js";
import { DEFAULT_PACE_MS, Lobby, storedName } from "./lobby.js";
import { BattleScreen } from "./battle.js";
import { ReplayScreen } from "./replay.js";

/** @typedef {import("./lobby.js").StartRequest} StartRequest */

/** How often the lobby's lists are asked for while they are shown. */
const LIST_EVERY_MS = 2000;

/** Most live battles asked for on the lobby's one page. */
const LIST_LIMIT = 100;

/** Why a seat may not be had, when the battle can still be watched. */
const SEAT_REFUSALS = new Set(["seat_taken", "no_free_seat", "bad_seat", "battle_over", "bad_setup"]);

/**
 * @param {string} selector
 * @returns {HTMLElement}
 */
const $ = (selector) => /** @type {HTMLElement} */ (document.querySelector(selector));

const url = serverUrl(window.location);
$("#server-url").textContent = url;
/** @type {HTMLInputElement} */ ($("#start-pace")).value = String(DEFAULT_PACE_MS);

/** The seat this page holds in a battle, kept for a reload: `{seat, token}`. */
const seats = {
  /** @param {string} id */
  key: (id) => `battle-seat:${id}`,
  /**
   * @param {string} id
   * @returns {{seat: number, token: string} | null}
   */
  get(id) {
    try {
      return JSON.parse(sessionStorage.getItem(this.key(id)) || "null");
    } catch {
      return null;
    }
  },
  /**
   * @param {string} id
   * @param {number} seat
   * @param {string} token
   */
  set(id, seat, token) {
    sessionStorage.setItem(this.key(id), JSON.stringify({ seat, token }));
  },
  /** @param {string} id */
  drop(id) {
    sessionStorage.removeItem(this.key(id));
  },
};

/**
 * What the address asks for.
 * @typedef {{page: "lobby"} | {page: "battle", id: string, join: boolean} | {page: "replay", id: string, step: number | null}} Route
 */

/**
 * The battle now entered (its id), a seat (and setup) to take in a battle when it is entered
 * next, and the matchmaking request the page waits on.
 * @type {{entered: string | null, takeSeat: Map<string, {seat: number | null, setup: any}>, queued: {ruleset: string, waiting: number, req: number} | null}}
 */
const route = { entered: null, takeSeat: new Map(), queued: null };

const conn = new Connection(url, {
  open: () => {
    greet();
    // The server forgot this connection's battles (and its place in a queue) with the old socket.
    route.entered = null;
    setQueued(null);
    show();
  },
  message: (msg) => receive(msg),
  state: (word, detail) => {
    const box = $("#conn");
    box.dataset.state = word;
    box.textContent = word === "open" ? "connected" : word === "connecting" ? "connecting…" : detail;
  },
});

/**
 * Says hello, with the person's name when they gave one; the welcome's games fill the start
 * form unless `refill` is false (a new name changes nothing else).
 */
function greet(refill = true) {
  const name = storedName();
  /** @type {any} */
  const hello = { type: "hello", protocol: 1 };
  if (name) {
    hello.name = name;
  }
  conn
    .request(hello)
    .then((welcome) => refill && lobby.setRulesets(welcome.rulesets))
    .catch((error) => lobby.say(`The server did not greet the page: ${error.message}`));
}

const lobby = new Lobby($("#lobby"), {
  watch: (id) => go(`#/battle/${encodeURIComponent(id)}`),
  take: (id, seat) => take(id, seat, null),
  start: (request) => start(request),
  unqueue: () => {
    conn.request({ type: "unqueue" }).catch(() => undefined);
    setQueued(null);
  },
  rename: () => greet(false),
  refresh: () => refreshList(),
});

const battle = new BattleScreen($("#battle"), {
  request: (msg) => conn.request(msg),
  send: (msg) => conn.send(msg),
  take: (id, seat) => take(id, seat, null),
  invite: (id) => pageLink(`#/battle/${encodeURIComponent(id)}/join`),
});

const replay = new ReplayScreen($("#replay"), {
  request: (msg) => conn.request(msg),
  link: (id, step) => pageLink(`#/replay/${encodeURIComponent(id)}/${step}`),
  moved: (id, step) => {
    const hash = `#/replay/${encodeURIComponent(id)}/${step}`;
    if (window.location.hash !== hash) {
      history.replaceState(null, "", hash);
    }
  },
});

/**
 * This page's address with another `hash`.
 * @param {string} hash
 */
function pageLink(hash) {
  const { origin, pathname, search } = window.location;
  return `${origin}${pathname}${search}${hash}`;
}

/**
 * @param {{ruleset: string, waiting: number, req: number} | null} queued
 */
function setQueued(queued) {
  route.queued = queued;
  lobby.setQueued(queued);
}

/**
 * @param {any} msg
 */
function receive(msg) {
  switch (msg.type) {
    case "snapshot":
    case "patch":
      battle.receive(msg);
      break;
    case "joined":
      seats.set(msg.battle_id, msg.seat, msg.token);
      break;
    case "matched":
      // The matchmaker seated this page: its snapshot comes next.
      seats.set(msg.battle_id, msg.seat, msg.token);
      setQueued(null);
      battle.reset(msg.battle_id);
      route.entered = msg.battle_id;
      go(`#/battle/${encodeURIComponent(msg.battle_id)}`);
      break;
    case "queued":
      if (route.queued) {
        setQueued({ ...route.queued, waiting: msg.waiting });
      }
      break;
    case "unqueued":
      if (msg.reason !== "requested") {
        lobby.say("The server could not start the game it found (it is busy): try again in a moment.");
      }
      setQueued(null);
      break;
    case "left":
      if (msg.battle_id === route.entered && msg.reason !== "requested") {
        battle.say(
          msg.reason === "expired"
            ? "This battle is over and no longer kept by the server."
            : "Your seat was taken back from another window.",
        );
        route.entered = null;
      }
      break;
    case "error":
      if (msg.req === undefined) {
        console.warn("server error", msg);
      }
      break;
    default:
      break;
  }
}

/**
 * What the address asks for.
 * @returns {Route}
 */
function wanted() {
  const hash = window.location.hash;
  let match = /^#\/battle\/([^/?#]+)(\/join)?/.exec(hash);
  if (match) {
    return { page: "battle", id: decodeURIComponent(match[1]), join: Boolean(match[2]) };
  }
  match = /^#\/replay\/([^/?#]+)(?:\/(\d+))?/.exec(hash);
  if (match) {
    return { page: "replay", id: decodeURIComponent(match[1]), step: match[2] === undefined ? null : Number(match[2]) };
  }
  return { page: "lobby" };
}

/**
 * @param {string} hash
 */
function go(hash) {
  window.location.hash = hash;
}

/**
 * Takes seat `seat` (the first free one when null) of battle `id`, bringing `setup`.
 * @param {string} id
 * @param {number | null} seat
 * @param {any} setup
 */
function take(id, seat, setup) {
  route.takeSeat.set(id, { seat, setup });
  const now = wanted();
  if (now.page === "battle" && now.id === id) {
    // Already shown (as a spectator): leave, then come back to the seat.
    conn.send({ type: "leave", battle_id: id });
    route.entered = null;
    show();
  } else {
    go(`#/battle/${encodeURIComponent(id)}`);
  }
}

/**
 * Starts what the lobby's form asks for: a battle to create (and a seat to take in it), or a
 * wait in matchmaking.
 * @param {StartRequest} request
 */
async function start(request) {
  if (request.kind === "queue") {
    try {
      const queued = await conn.request(request.request);
      if (queued.type === "queued") {
        setQueued({ ruleset: request.request.ruleset, waiting: queued.waiting, req: request.request.req });
      }
    } catch (error) {
      lobby.say(`Matchmaking refused: ${/** @type {Error} */ (error).message}`);
    }
    return;
  }
  try {
    const created = await conn.request(request.request);
    if (request.seat !== null) {
      route.takeSeat.set(created.battle_id, { seat: request.seat, setup: request.setup });
    }
    go(`#/battle/${encodeURIComponent(created.battle_id)}`);
  } catch (error) {
    lobby.say(`The game was not started: ${/** @type {Error} */ (error).message}`);
  }
}

/** Shows what the address asks for, leaving the battle shown before if it changed. */
function show() {
  const now = wanted();
  const id = now.page === "battle" ? now.id : null;
  $("#lobby").hidden = now.page !== "lobby";
  $("#battle").hidden = now.page !== "battle";
  $("#replay").hidden = now.page !== "replay";
  if (route.entered !== null && route.entered !== id) {
    conn.send({ type: "leave", battle_id: route.entered });
    route.entered = null;
  }
  if (now.page !== "replay") {
    replay.leave();
  }
  if (now.page === "lobby") {
    document.title = "Battles";
    battle.reset(null);
    refreshList();
    return;
  }
  if (now.page === "replay") {
    document.title = "Replay";
    if (conn.open) {
      replay.load(now.id, now.step);
    }
    return;
  }
  document.title = "Battle";
  if (now.join && !route.takeSeat.has(now.id) && !seats.get(now.id)) {
    route.takeSeat.set(now.id, { seat: null, setup: null });
  }
  if (route.entered === now.id || !conn.open) {
    return;
  }
  route.entered = now.id;
  enter(now.id);
}

/**
 * Takes back a held seat, takes the seat asked for, or watches.
 * @param {string} id
 */
async function enter(id) {
  battle.reset(id);
  const saved = seats.get(id);
  const wish = route.takeSeat.get(id);
  route.takeSeat.delete(id);
  try {
    if (saved) {
      try {
        await conn.request({ type: "rejoin", battle_id: id, token: saved.token });
        return;
      } catch (error) {
        if (/** @type {any} */ (error).code !== "bad_token") {
          throw error;
        }
        seats.drop(id);
      }
    }
    if (wish !== undefined) {
      try {
        /** @type {any} */
        const join = { type: "join", battle_id: id };
        if (wish.seat !== null) {
          join.seat = wish.seat;
        }
        if (wish.setup) {
          join.setup = wish.setup;
        }
        await conn.request(join);
        return;
      } catch (error) {
        const e = /** @type {any} */ (error);
        if (!SEAT_REFUSALS.has(e.code)) {
          throw error;
        }
        // Someone else was quicker, or the battle ended: watch it instead.
        await conn.request({ type: "spectate", battle_id: id });
        battle.say(
          e.code === "no_free_seat" || e.code === "seat_taken"
            ? "Someone else took that seat first: you are watching instead."
            : `The seat could not be taken (${e.message}); you are watching instead.`,
        );
        return;
      }
    }
    await conn.request({ type: "spectate", battle_id: id });
  } catch (error) {
    if (route.entered === id) {
      route.entered = null;
      battle.setStatus("unavailable");
      const e = /** @type {any} */ (error);
      battle.say(
        e.code === "no_such_battle"
          ? "There is no such battle (it may have ended and been cleared away)."
          : `The battle cannot be shown: ${e.message}`,
      );
    }
  }
}

async function refreshList() {
  if (!conn.open || wanted().page !== "lobby") {
    return;
  }
  try {
    lobby.update(await conn.request({ type: "list", limit: LIST_LIMIT, finished: true }));
    if ($("#lobby-message").dataset.kind === "list") {
      lobby.say("");
    }
  } catch (error) {
    lobby.say(`The list could not be read: ${/** @type {Error} */ (error).message}`, "list");
  }
}

// The view held for the battle shown, for the browser's console and the browser test.
/** @type {any} */ (window).battlePage = { view: () => battle.view, seq: () => battle.seq };

window.addEventListener("hashchange", show);
setInterval(refreshList, LIST_EVERY_MS);
show();
conn.connect();
