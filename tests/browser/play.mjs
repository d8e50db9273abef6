// The player scenario: opens the page at URL, finds battle BATTLE_ID among the games waiting
// for a player, presses its "Play" button, and plays the whole game as a person would, by
// clicking only visible, enabled move buttons (those of the moves panel, its pickers and
// forms, and the board's own), preferring the kinds in PLAY_PREFER (comma-separated, in
// order; kinds in PLAY_AVOID are never clicked), until the outcome is shown. Every move must
// be accepted (a refusal fails the run), no legal action may be left without a button in the
// game's words (the panel's "Other moves" fallback), and the default screen shows no raw data.
// After the third move the page is reloaded and must take its seat back.
//
// With PLAY_KEYBOARD=1 the first move is made with the keyboard alone (Tab to a move, Enter).
// Ruleset RULESET's own steps run too: gambit writes a rule in the editor before the first
// fight and pauses and resumes one. After PLAY_SHOT_AT moves (default 8) the board is looked at
// both sizes (board-RULESET-1280.png and -390.png in OUT_DIR: no sideways scrolling, controls
// of 44 px) and at the end saved again (board-RULESET-end-1280.png).
//
//     node play.mjs URL OUT_DIR

import { args, checkSizes, note, screenshot, STEP_MS, waitFor, withPage } from "./browser.mjs";

const [url, dir] = args("node play.mjs URL OUT_DIR", 2);
const wanted = process.env.BATTLE_ID;
const ruleset = process.env.RULESET || "game";
const prefer = (process.env.PLAY_PREFER || "").split(",").filter(Boolean);
const avoid = new Set((process.env.PLAY_AVOID || "pause").split(",").filter(Boolean));
const maxMoves = Number(process.env.PLAY_MAX_MOVES || 800);
const shotAt = Number(process.env.PLAY_SHOT_AT || 8);
const limitMs = Number(process.env.PLAY_LIMIT_MS || 140000);

/** How long the other side (or the fight) may take before it is this seat's move again. */
const TURN_MS = 30000;

/** A small seeded generator, so a run's choices can be made again (PLAY_SEED). */
let seed = Number(process.env.PLAY_SEED || 7) >>> 0;
const random = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
};

/** What the page shows by default must not be the game's data: no JSON, no ids. */
const RAW = /\{"|"kind"|\$choose|\b(minion|hero|card|play|unit):\d|\bnull\b|\bundefined\b|\[object /;

/** The visible, enabled move buttons, in page order, with their kind and text. */
function moveButtons(page) {
  return page.$$eval("#battle button.move", (all) =>
    all
      .map((b, index) => ({ b, index }))
      .filter(({ b }) => !b.disabled && b.offsetParent !== null && b.getBoundingClientRect().height > 0)
      .map(({ b, index }) => ({ index, kind: b.dataset.kind || "", text: (b.textContent || "").trim() })),
  );
}

/** Clicks the move button `index` of the page's `#battle button.move` list. */
async function press(page, index) {
  await page.locator("#battle button.move").nth(index).click();
}

/** The buttons that may be clicked now: known, not avoided. */
async function usable(page) {
  return (await moveButtons(page)).filter((b) => !avoid.has(b.kind));
}

/** Waits until a move may be made or the battle is over; true when it is over. */
async function waitForTurn(page) {
  const avoided = [...avoid];
  await waitFor(
    page,
    "it never became this seat's move, and the battle did not end",
    (avoided) =>
      document.querySelector("#outcome")?.dataset.shown === "true" ||
      (document.querySelector("#play")?.dataset.pending === "false" &&
        [...document.querySelectorAll("#battle button.move")].some((b) => !b.disabled && b.offsetParent !== null && !avoided.includes(b.dataset.kind))),
    avoided,
    TURN_MS,
  );
  return (await page.getAttribute("#outcome", "data-shown")) === "true";
}

/** Fails when the panel offers a legal action without words of its own, or shows raw data. */
async function checkWords(page) {
  if ((await page.locator("#legal [data-fallback]").count()) > 0) {
    throw new Error(`a legal action has no move in the game's words: ${(await page.innerText("#legal [data-fallback]")).replace(/\s+/g, " ")}`);
  }
  const shown = await page.evaluate(() => {
    const parts = [...document.querySelectorAll("#battle .stage-main, #play, #turn, #seats, #outcome")];
    return parts.map((p) => /** @type {HTMLElement} */ (p).innerText).join("\n");
  });
  const raw = RAW.exec(shown);
  if (raw) {
    const at = Math.max(0, raw.index - 60);
    throw new Error(`the default screen shows raw data ("${raw[0]}"): …${shown.slice(at, raw.index + 60).replace(/\s+/g, " ")}…`);
  }
}

/** Sends a move and waits for its answer; a refusal fails the run. */
async function settle(page, what) {
  await waitFor(page, `no answer to ${what}`, () => document.querySelector("#play")?.dataset.pending !== "true");
  const error = (await page.isVisible("#play-error")) ? await page.textContent("#play-error") : "";
  if (error) {
    throw new Error(`a move was refused (${what}): ${error}`);
  }
}

/**
 * Makes a move with the keyboard alone: Tab until a move button has the focus, then Enter.
 * Gives the move's kind.
 */
async function keyboardMove(page) {
  for (let presses = 0; presses < 120; presses += 1) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const e = document.activeElement;
      return e instanceof HTMLButtonElement && e.classList.contains("move") && e.closest("#battle") && !e.disabled
        ? { kind: e.dataset.kind || "", text: (e.textContent || "").trim() }
        : null;
    });
    if (focused && !avoid.has(focused.kind)) {
      note(`with the keyboard: ${focused.text}`);
      await page.keyboard.press("Enter");
      await settle(page, focused.text);
      return focused.kind;
    }
  }
  throw new Error("no move button could be reached with the Tab key");
}

/** Gambit: writes a rule with the editor (Arcanist, slot 3: Disrupt when an enemy acts). */
async function gambitWriteRule(page) {
  const edit = page.locator('button[data-key="edit:C:3"]');
  await edit.waitFor({ state: "visible", timeout: STEP_MS });
  note("gambit: writing a rule in the editor");
  await edit.click();
  await page.selectOption('select[data-key="rule-if0:C-3"]', "enemy_acting");
  await page.selectOption('select[data-key="rule-skill:C-3"]', "disrupt");
  await page.click('button[data-key="rule-save:C-3"]');
  await settle(page, "saving a rule");
  await waitFor(page, "the new rule is not shown", () =>
    [...document.querySelectorAll(".unit[data-unit=C] .rule")].some((r) => /enemy is busy/.test(r.textContent || "") && /Disrupt/.test(r.textContent || "")),
  );
}

/**
 * Gambit: pauses the fight just started, looks at it, and resumes it; false when the fight
 * was over before the pause could be made.
 */
async function gambitPause(page, shots) {
  const pause = page.locator('#battle button.move[data-kind="pause"]');
  try {
    await pause.waitFor({ state: "visible", timeout: 3000 });
  } catch {
    return false;
  }
  note("gambit: pausing the fight");
  await pause.click();
  await waitFor(page, "no answer to the pause", () => document.querySelector("#play")?.dataset.pending !== "true");
  if (await page.isVisible("#play-error")) {
    note(`the pause came too late: ${await page.textContent("#play-error")}`);
    return false;
  }
  await page.locator('#battle button.move[data-kind="resume"]').waitFor({ state: "visible", timeout: STEP_MS });
  if (shots) {
    await checkSizes(page, dir, `board-${ruleset}-paused`);
  }
  note("gambit: resuming the fight");
  await page.click('#battle button.move[data-kind="resume"]');
  await settle(page, "resuming");
  return true;
}

await withPage(`play ${ruleset}`, limitMs, async (page) => {
  note(`opening ${url}`);
  await page.goto(url);
  const row = `#open-list li[data-battle-id="${wanted}"]`;
  await waitFor(page, `battle ${wanted} is not among the games waiting for a player`, (sel) => document.querySelector(sel) !== null, row);
  await page.click(`${row} button[data-action="play"]`);
  await waitFor(page, "the page did not sit down", () => document.querySelector("#battle")?.dataset.role === "player");
  await waitFor(page, "the seat's view never arrived", () => document.querySelector("#sync")?.dataset.state === "live");
  const seat = await page.getAttribute("#battle", "data-seat");
  note(`seated at seat ${seat} of ${ruleset} battle ${wanted}`);
  let moves = 0;
  let reloaded = false;
  let shot = false;
  let wroteRule = ruleset !== "gambit";
  let keyboard = process.env.PLAY_KEYBOARD === "1";
  let paused = ruleset !== "gambit";
  while (moves < maxMoves) {
    if (await waitForTurn(page)) {
      break;
    }
    await checkWords(page);
    if (!wroteRule) {
      await gambitWriteRule(page);
      wroteRule = true;
      moves += 1;
      continue;
    }
    if (keyboard) {
      keyboard = false;
      const kind = await keyboardMove(page);
      moves += 1;
      if (!paused && kind === "start") {
        paused = await gambitPause(page, true);
      }
      continue;
    }
    const buttons = await usable(page);
    if (!buttons.length) {
      continue;
    }
    const rank = (b) => {
      const at = prefer.indexOf(b.kind);
      return at === -1 ? prefer.length : at;
    };
    const best = Math.min(...buttons.map(rank));
    const top = buttons.filter((b) => rank(b) === best);
    const pick = top[Math.floor(random() * top.length)];
    await press(page, pick.index);
    await settle(page, pick.text);
    moves += 1;
    if (!paused && pick.kind === "start") {
      paused = await gambitPause(page, true);
    }
    if (moves === shotAt && !shot) {
      shot = true;
      await checkSizes(page, dir, `board-${ruleset}`);
    }
    if (moves === 3 && !reloaded) {
      reloaded = true;
      note("reloading the page: it must take the seat back");
      await page.reload();
      await waitFor(page, "after a reload the page did not take its seat back", () => document.querySelector("#battle")?.dataset.role === "player" && document.querySelector("#sync")?.dataset.state === "live");
      const again = await page.getAttribute("#battle", "data-seat");
      if (again !== seat) {
        throw new Error(`after the reload the page holds seat ${again}, not ${seat}`);
      }
    }
  }
  const over = (await page.getAttribute("#outcome", "data-shown")) === "true";
  if (!over) {
    throw new Error(`the battle did not end within ${maxMoves} moves`);
  }
  if (!shot) {
    await checkSizes(page, dir, `board-${ruleset}`);
  }
  const outcome = (await page.innerText("#outcome")).replace(/\s+/g, " ").trim();
  note(`${moves} moves made; the battle is over: ${outcome}`);
  if (!/^(★|✖|■|=)?\s*(You won|You lost|A draw)/.test(outcome)) {
    throw new Error(`the outcome does not tell the player how it went: "${outcome}"`);
  }
  if ((await page.locator("#log li").count()) < 3) {
    throw new Error("the finished battle's log has fewer than 3 lines");
  }
  await checkWords(page);
  await screenshot(page, dir, `board-${ruleset}-end-1280`);
});
