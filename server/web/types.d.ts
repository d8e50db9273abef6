// The shapes the page's modules share, for TypeScript's check of their JSDoc (`tsc --checkJs`,
// run by .ci/browser). Types only: nothing here runs or is served.

/** A child of an element `h` builds: a node, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Children as `h` takes them: nested arrays are flattened. */
export type Children = Child | Children[];

/** Any JSON value, as the server sends it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A ruleset's action, as `legal` lists it and `act` sends it. */
export interface Action {
  kind: string;
  [member: string]: any;
}

/** A seat as the view envelope gives it: a word, or (newer servers) an object with a name. */
export type SeatEntry = string | { name?: string; [member: string]: any };

/** The turn clock of one seat. */
export interface Clock {
  bank_ms: number;
  deadline: number | null;
}

/** How a finished battle ended. */
export interface Outcome {
  winners: number[];
  summary: string;
  reason?: string;
}

/** The view envelope every ruleset's view travels in (PROTOCOL.md, "The view envelope"). */
export interface View {
  battle_id: string;
  ruleset: string;
  status: "waiting" | "playing" | "finished" | string;
  seat: number | null;
  seats?: SeatEntry[];
  /** One name per seat, when the server sends them (else `seats[i].name`, else "Player N"). */
  names?: (string | null)[];
  to_act: number[];
  prompt: { decision: string; text: string; min?: number; max?: number } | null;
  legal: Action[];
  outcome: Outcome | null;
  game: any;
  clocks?: Clock[] | null;
}

/** One move the page offers, in the game's words. */
export interface Move {
  /** The button's text. */
  label: string;
  /** The action sent when it is pressed (absent when `options` asks for a second choice). */
  action?: Action;
  /** A second choice (a target, a challenger's victim): each a move of its own. */
  options?: Move[];
  /** What the second choice asks, e.g. "Fireball: choose a target". */
  ask?: string;
  /** The action's kind, for styling and the tests. */
  kind: string;
  /** A longer explanation, shown as the button's title. */
  hint?: string;
  /** A key naming what the move is about on the board (a card, a minion), for the picker. */
  about?: string;
  /** What `about` names, in words ("your Meadow Scout"), for a picker's question. */
  aboutName?: string;
  /** A key naming the target on the board, for a second choice. */
  target?: string;
  /** Drawn as the main move (the one to press when in doubt). */
  primary?: boolean;
}

/** A group of moves under a heading, or a form of the board's own. */
export interface MoveGroup {
  title: string;
  moves?: Move[];
  form?: HTMLElement;
  /** A sentence under the heading. */
  note?: string;
  /** The kinds of legal entries this group's form (or the board) sends. */
  covers?: string[];
}

/** A section of a game's "how to play" panel. */
export interface HelpSection {
  title: string;
  lines: string[];
}

/** A choice of what a player brings to a seat (a class, a deck). */
export interface SetupChoice {
  label: string;
  about?: string;
  /** What `about` names, in words ("your Meadow Scout"), for a picker's question. */
  aboutName?: string;
  setup: { [member: string]: Json } | null;
}

/** What a board draws with, besides the view. */
export interface BoardCtx {
  /** Sends an action for the viewer's seat; resolves when accepted, rejects when refused. */
  act: (action: Action) => Promise<unknown>;
  /** Draws the battle again (after the board changed its own `ui` state). */
  redraw: () => void;
  /** The board's own state, kept across redraws until another battle is shown. */
  ui: { [key: string]: any };
  /** True while an action waits for its answer. */
  pending: boolean;
  /** True when the view is a replay's (nobody acts). */
  replay: boolean;
  /**
   * What pressing the thing on the board named `key` (a card, a minion) does now for the
   * viewer: a move about it, or a choice of the open picker; null when nothing.
   */
  pressFor: (key: string) => (() => void) | null;
  /** The keys of the things the open picker may choose, to mark them on the board. */
  targets: Set<string>;
}

/** A game's board module (server/web/boards/<ruleset>.js). */
export interface Board {
  title: string;
  pitch: string;
  help: HelpSection[];
  setups?: { label: string; choices: SetupChoice[] };
  render: (root: HTMLElement, view: View, ctx: BoardCtx) => void;
  moves: (view: View, ctx: BoardCtx) => MoveGroup[];
  /** What is happening now, for everyone (spectators too): one sentence. */
  situation?: (view: View) => string;
  /** What the seated viewer may do now, in a sentence ("" when the prompt says it all). */
  hint?: (view: View) => string;
}

/** One ruleset as `welcome` lists it. */
export interface RulesetInfo {
  id: string;
  version: number;
  summary: string;
  min_seats: number;
  max_seats: number;
  samples: SampleInfo[];
}

/** One named option set of a ruleset. */
export interface SampleInfo {
  name: string;
  about: string;
  options: Json;
  seats: number;
  engine_seats?: number[];
}

/** A seat in a `battles` record. */
export interface SeatInfo {
  seat: number;
  taken: boolean;
  bot: boolean;
  connected: boolean;
  name?: string;
}

/** One live battle in a `battles` page. */
export interface BattleSummary {
  battle_id: string;
  ruleset: string;
  status: string;
  seats: SeatInfo[];
  spectators: number;
  seeded?: boolean;
}

/** One recently finished battle in a `battles` page. */
export interface FinishedSummary {
  battle_id: string;
  ruleset: string;
  seats: number;
  bots: number[];
  outcome: Outcome;
  ended_at: number;
  steps: number;
  names?: string[];
}

/** A finished battle's replay (PROTOCOL.md, `replay`). */
export interface Replay {
  battle_id: string;
  ruleset: string;
  version: number;
  seats: number;
  bots: number[];
  outcome: Outcome;
  ended_at: number;
  start: View;
  steps: any[][];
  seeded?: boolean;
  names?: string[];
}
