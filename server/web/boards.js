// The games the page has a board for, by ruleset id: each a module of `boards/` with its
// title, its "how to play" panel, the setups a player may bring (a class, a deck), how it
// draws a view and how it names the moves. A ruleset without one (the test ruleset `blind`)
// is shown through the raw view and played from its legal actions in plain words.

import * as synergy from "./boards/synergy.js";
import * as gambit from "./boards/gambit.js";
import * as heroes from "./boards/heroes.js";
import * as roguelite from "./boards/roguelite.js";
import * as lore from "./boards/lore.js";

/** @typedef {import("./types").Board} Board */

/** @type {{[id: string]: Board}} */
const BOARDS = { synergy, gambit, heroes, roguelite, lore };

/**
 * The board of ruleset `id`, or null when the page has none.
 * @param {string} id
 * @returns {Board | null}
 */
export function boardFor(id) {
  return Object.prototype.hasOwnProperty.call(BOARDS, id) ? BOARDS[id] : null;
}

/**
 * A ruleset's name for people: its board's title, else its id with a capital.
 * @param {string} id
 */
export function gameTitle(id) {
  const board = boardFor(id);
  return board ? board.title : id ? id[0].toUpperCase() + id.slice(1) : "";
}
