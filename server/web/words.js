// The page's words for what every game shares: a seat's name (the name its holder gave, else
// "Player N"), a seat's state, the outcome from the viewer's side ("You won", "Ana won", "A
// draw") and how the battle ended, times and counts. Boards use these so one person has one
// name everywhere on the page.

/** @typedef {import("./types").View} View */
/** @typedef {import("./types").SeatEntry} SeatEntry */
/** @typedef {import("./types").Outcome} Outcome */

/**
 * A seat's display name: the `name` its holder gave, when the server sends one, else
 * "Player N" (1-based, as the server's own log lines say).
 * @param {SeatEntry | {name?: string} | null | undefined} entry
 * @param {number} seat
 */
export function nameOf(entry, seat) {
  if (entry && typeof entry === "object" && typeof entry.name === "string" && entry.name.trim() !== "") {
    return entry.name.trim();
  }
  return `Player ${seat + 1}`;
}

/**
 * The name of seat `seat` in `view`: the envelope's `names[seat]` when the server sends a
 * list of names, else its `seats[seat].name`, else "Player N".
 * @param {View} view
 * @param {number} seat
 */
export function seatName(view, seat) {
  const listed = Array.isArray(view.names) ? view.names[seat] : null;
  if (typeof listed === "string" && listed.trim() !== "") {
    return listed.trim();
  }
  return nameOf(view.seats ? view.seats[seat] : null, seat);
}

/**
 * How the page speaks of seat `seat` to the viewer: "you" for the viewer's own seat, its name
 * otherwise. `capital` starts it with a capital letter.
 * @param {View} view
 * @param {number} seat
 * @param {boolean} [capital]
 */
export function who(view, seat, capital = false) {
  if (view.seat === seat) {
    return capital ? "You" : "you";
  }
  return seatName(view, seat);
}

/**
 * "your" for the viewer's own seat, "Ana's" for another.
 * @param {View} view
 * @param {number} seat
 * @param {boolean} [capital]
 */
export function whose(view, seat, capital = false) {
  if (view.seat === seat) {
    return capital ? "Your" : "your";
  }
  return `${seatName(view, seat)}'s`;
}

/**
 * A seat's state as one word: `free`, `bot`, `connected` or `away`. The envelope sends a word;
 * a `battles` record (or a newer envelope) sends an object.
 * @param {SeatEntry | {taken?: boolean, bot?: boolean, connected?: boolean, state?: string} | null | undefined} entry
 */
export function seatState(entry) {
  if (typeof entry === "string") {
    return entry;
  }
  if (!entry || typeof entry !== "object") {
    return "free";
  }
  /** @type {{[key: string]: any}} */
  const fields = entry;
  for (const key of ["state", "holder", "word"]) {
    if (typeof fields[key] === "string") {
      return fields[key];
    }
  }
  if (entry.bot) {
    return "bot";
  }
  if (!entry.taken) {
    return "free";
  }
  return entry.connected ? "connected" : "away";
}

/** Each seat state in words for people. */
const STATE_WORDS = {
  free: "seat free",
  bot: "played by the bot",
  connected: "here",
  away: "away (connection lost)",
};

/**
 * @param {string} state
 */
export function stateWords(state) {
  return STATE_WORDS[/** @type {keyof typeof STATE_WORDS} */ (state)] || state;
}

/** How each `outcome.reason` reads after "won" or in a sentence of its own. */
const REASONS = {
  knockout: "by knockout",
  score: "on the count",
  completed: "at the end of the run",
  resignation: "by resignation",
  time: "on time",
  limit: "at the turn limit",
};

/**
 * How the battle ended, in a few words ("by resignation"), or "" when the server did not say.
 * @param {Outcome} outcome
 */
export function reasonWords(outcome) {
  const reason = outcome.reason;
  return reason && reason in REASONS ? REASONS[/** @type {keyof typeof REASONS} */ (reason)] : "";
}

/**
 * The outcome's headline for the viewer: "You won" / "You lost" for a seated viewer, "A draw",
 * "Ana won" (or "Ana and Ben won") for a spectator, "The run is lost" for a run nobody won.
 * @param {Outcome} outcome
 * @param {number | null} mySeat
 * @param {(seat: number) => string} name
 * @param {number} seats how many seats the battle has
 */
export function outcomeHeadline(outcome, mySeat, name, seats) {
  const winners = outcome.winners || [];
  if (!winners.length) {
    if (seats === 1) {
      return mySeat === null ? "The run was lost" : "You lost";
    }
    return "A draw";
  }
  if (mySeat !== null) {
    return winners.includes(mySeat) ? "You won" : "You lost";
  }
  return `${winners.map(name).join(" and ")} won`;
}

/**
 * Minutes and seconds: "1:05".
 * @param {number} ms
 */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, "0")}`;
}

/**
 * How long ago a moment was, roughly: "just now", "4 min ago", "2 h ago".
 * @param {number} at Unix milliseconds
 * @param {number} [now]
 */
export function ago(at, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) {
    return "just now";
  }
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) {
    return `${minutes} min ago`;
  }
  const hours = Math.round(minutes / 60);
  if (hours < 48) {
    return `${hours} h ago`;
  }
  return `${Math.round(hours / 24)} days ago`;
}

/**
 * "1 card", "3 cards".
 * @param {number} count
 * @param {string} one
 * @param {string} [many]
 */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The first letter in capitals.
 * @param {string} text
 */
export function capitalize(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * Names joined as people write them: "A", "A and B", "A, B and C".
 * @param {string[]} items
 */
export function listWords(items) {
  if (items.length <= 1) {
    return items.join("");
  }
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
