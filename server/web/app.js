// The battle page's entry point: connects to the server (the page's own origin, or
// `?server=ws://host:port`), says hello, and routes between the list of battles (`#/`) and
// one battle (`#/battle/ID`), which it watches or, holding a seat, plays. The seat token is
// kept in sessionStorage so that a reload takes the seat back with `rejoin`.

import { Connection, serverUrl } from "./conn.js";
import { DEFAULT_PACE_MS, Lobby } from "./lobby.js";
import { BattleScreen } from "./battle.js";

/** How often the list of battles is asked for while it is shown. */
const LIST_EVERY_MS = 2000;

/** Most battles asked for on the list's one page. */
const LIST_LIMIT = 100;

/** Why a seat may not be had, when the battle can still be watched. */
const SEAT_REFUSALS = new Set(["seat_taken", "no_free_seat", "bad_seat", "battle_over", "bad_setup"]);

const $ = (selector) => document.querySelector(selector);

const url = serverUrl(window.location);
$("#server-url").textContent = url;
$("#create-form").elements.pace.value = String(DEFAULT_PACE_MS);

/** The seat this page holds in a battle, kept for a reload: `{seat, token}`. */
const seats = {
  key: (id) => `battle-seat:${id}`,
  get(id) {
    try {
      return JSON.parse(sessionStorage.getItem(this.key(id)));
    } catch {
      return null;
    }
  },
  set(id, seat, token) {
    sessionStorage.setItem(this.key(id), JSON.stringify({ seat, token }));
  },
  drop(id) {
    sessionStorage.removeItem(this.key(id));
  },
};

/** The battle now entered (its id), and a seat to take in it when it is entered next. */
const route = { entered: null, takeSeat: new Map() };

const conn = new Connection(url, {
  open: () => {
    conn
      .request({ type: "hello", protocol: 1, name: "web page" })
      .then((welcome) => lobby.setRulesets(welcome.rulesets))
      .catch((error) => lobby.say(`The server did not greet the page: ${error.message}`));
    // The server forgot this connection's battles with the old socket.
    route.entered = null;
    show();
  },
  message: (msg) => receive(msg),
  state: (word, detail) => {
    const box = $("#conn");
    box.dataset.state = word;
    box.textContent = word === "open" ? "connected" : word === "connecting" ? "connecting…" : detail;
  },
});

const lobby = new Lobby($("#lobby"), {
  watch: (id) => go(id),
  take: (id, seat) => take(id, seat),
  create: (request, mySeat) => create(request, mySeat),
});

const battle = new BattleScreen($("#battle"), {
  request: (msg) => conn.request(msg),
  send: (msg) => conn.send(msg),
  take: (id, seat) => take(id, seat),
});

function receive(msg) {
  switch (msg.type) {
    case "snapshot":
    case "patch":
      battle.receive(msg);
      break;
    case "joined":
      seats.set(msg.battle_id, msg.seat, msg.token);
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

/** The battle id in the address (`#/battle/ID`), or null for the list. */
function wantedBattle() {
  const match = /^#\/battle\/([^/?#]+)/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

function go(id) {
  window.location.hash = id === null ? "#/" : `#/battle/${encodeURIComponent(id)}`;
}

function take(id, seat) {
  route.takeSeat.set(id, seat);
  if (wantedBattle() === id) {
    // Already shown (as a spectator): leave, then come back to the seat.
    conn.send({ type: "leave", battle_id: id });
    route.entered = null;
    show();
  } else {
    go(id);
  }
}

async function create(request, mySeat) {
  try {
    const created = await conn.request(request);
    if (mySeat !== null) {
      route.takeSeat.set(created.battle_id, mySeat);
    }
    go(created.battle_id);
  } catch (error) {
    lobby.say(`The battle was not created: ${error.message}`);
  }
}

/** Shows what the address asks for, leaving the battle shown before if it changed. */
function show() {
  const id = wantedBattle();
  $("#lobby").hidden = id !== null;
  $("#battle").hidden = id === null;
  document.title = id === null ? "Battles" : `Battle ${id}`;
  if (route.entered !== null && route.entered !== id) {
    conn.send({ type: "leave", battle_id: route.entered });
    route.entered = null;
  }
  if (id === null) {
    battle.reset(null);
    refreshList();
    return;
  }
  if (route.entered === id || !conn.open) {
    return;
  }
  route.entered = id;
  enter(id);
}

/** Takes back a held seat, takes the seat asked for, or watches. */
async function enter(id) {
  battle.reset(id);
  const saved = seats.get(id);
  const seat = route.takeSeat.get(id);
  route.takeSeat.delete(id);
  try {
    if (saved) {
      try {
        await conn.request({ type: "rejoin", battle_id: id, token: saved.token });
        return;
      } catch (error) {
        if (error.code !== "bad_token") {
          throw error;
        }
        seats.drop(id);
      }
    }
    if (seat !== undefined) {
      try {
        await conn.request({ type: "join", battle_id: id, seat });
        return;
      } catch (error) {
        if (!SEAT_REFUSALS.has(error.code)) {
          throw error;
        }
        // Someone else was quicker, or the battle ended: watch it instead.
        await conn.request({ type: "spectate", battle_id: id });
        battle.say(`Seat ${seat} could not be taken (${error.message}); watching instead.`);
        return;
      }
    }
    await conn.request({ type: "spectate", battle_id: id });
  } catch (error) {
    if (route.entered === id) {
      route.entered = null;
      battle.setStatus("unavailable");
      battle.say(
        error.code === "no_such_battle"
          ? "There is no such battle (it may have ended and been cleared away)."
          : `The battle cannot be shown: ${error.message}`,
      );
    }
  }
}

async function refreshList() {
  if (!conn.open || wantedBattle() !== null) {
    return;
  }
  try {
    lobby.update(await conn.request({ type: "list", limit: LIST_LIMIT }));
    if ($("#lobby-message").dataset.kind === "list") {
      lobby.say("");
    }
  } catch (error) {
    lobby.say(`The list could not be read: ${error.message}`, "list");
  }
}

// The view held for the battle shown, for the browser's console and the browser test.
window.battlePage = { view: () => battle.view, seq: () => battle.seq };

$("#back").addEventListener("click", () => go(null));
window.addEventListener("hashchange", show);
setInterval(refreshList, LIST_EVERY_MS);
show();
conn.connect();
