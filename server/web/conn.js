// The page's WebSocket to the battle server: which address to use (the page's own origin,
// or `?server=`), connecting again after a drop with a growing delay, numbering requests
// (`req`) and matching each answer to the request that caused it.

/**
 * The WebSocket address: `?server=` when given, else the page's own host.
 * @param {Location | URL} location
 */
export function serverUrl(location) {
  const given = new URLSearchParams(location.search).get("server");
  if (given) {
    return /^wss?:\/\//.test(given) ? given : `ws://${given}`;
  }
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  return `${scheme}${location.host}/`;
}

/** Why a request was refused: the server's `error` message. */
export class ServerError extends Error {
  /**
   * @param {{code: string, message?: string}} msg
   */
  constructor(msg) {
    super(msg.message || msg.code);
    this.name = "ServerError";
    this.code = msg.code;
    this.msg = msg;
  }
}

/** How long a request may wait for its answer. */
const ANSWER_TIMEOUT_MS = 15000;

/** Delays before connecting again, in order; the last one repeats. */
const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

/**
 * One WebSocket connection, connected again whenever it drops. `handlers.open()` runs on each
 * (re)connection, `handlers.message(msg)` for every message received, `handlers.state(word,
 * detail)` when the state changes (`connecting`, `open`, `closed`).
 */
export class Connection {
  /**
   * @param {string} url
   * @param {{open: () => void, message: (msg: any) => void, state: (word: string, detail: string) => void}} handlers
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.nextReq = 1;
    /** @type {Map<number, {resolve: (msg: any) => void, reject: (error: Error) => void, timer: ReturnType<typeof setTimeout>}>} */
    this.pending = new Map();
    this.failures = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
  }

  /** Opens the socket (again). */
  connect() {
    clearTimeout(this.retryTimer);
    this.handlers.state("connecting", this.url);
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.handlers.state("closed", `cannot connect to ${this.url}: ${/** @type {Error} */ (error).message}`);
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.failures = 0;
      this.handlers.state("open", this.url);
      this.handlers.open();
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) {
        return;
      }
      this.socket = null;
      this.failAll(new Error("the connection closed"));
      const delay = RETRY_DELAYS_MS[Math.min(this.failures, RETRY_DELAYS_MS.length - 1)];
      this.failures += 1;
      const why = event.reason ? `: ${event.reason}` : "";
      this.handlers.state(
        "closed",
        `connection closed (${event.code}${why}); trying again in ${delay / 1000} s`,
      );
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  /** True while the socket is open. */
  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /**
   * Sends `msg` as it is (no answer awaited). Returns false when not connected.
   * @param {any} msg
   */
  send(msg) {
    if (!this.socket || !this.open) {
      return false;
    }
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  /**
   * Sends `msg` with a fresh `req` and resolves with the first message carrying it (an
   * `error` rejects with a ServerError). `msg.req` is set, so callers may read it.
   * @param {any} msg
   * @returns {Promise<any>}
   */
  request(msg) {
    const req = this.nextReq++;
    msg.req = req;
    return new Promise((resolve, reject) => {
      if (!this.send(msg)) {
        reject(new Error("not connected to the server"));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(req);
        reject(new Error(`no answer to ${msg.type} within ${ANSWER_TIMEOUT_MS / 1000} s`));
      }, ANSWER_TIMEOUT_MS);
      this.pending.set(req, { resolve, reject, timer });
    });
  }

  /**
   * @param {string} text
   */
  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      console.warn("not JSON from the server", text);
      return;
    }
    // The message is handled first (a patch applied), then its request is answered.
    this.handlers.message(msg);
    const waiting = typeof msg.req === "number" ? this.pending.get(msg.req) : undefined;
    if (waiting) {
      const { resolve, reject, timer } = waiting;
      clearTimeout(timer);
      this.pending.delete(msg.req);
      if (msg.type === "error") {
        reject(new ServerError(msg));
      } else {
        resolve(msg);
      }
    }
  }

  /**
   * @param {Error} error
   */
  failAll(error) {
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this.pending.clear();
  }
}
