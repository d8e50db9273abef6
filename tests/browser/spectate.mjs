// The spectator scenario: opens the page at URL, waits for a battle between the server's bots
// among the battles being played (BATTLE_ID when set, else the first one), clicks its Watch
// button, looks at it at both sizes while it runs (spectate-1280.png and spectate-390.png in
// OUT_DIR), waits for the outcome to be shown, checks that the log has lines and that the
// raw view, once opened, draws the game's data as a tree, and saves spectate-end-1280.png. With BATTLE_EXPECT_LIVE=1 the battle must still
// be running when the page first shows it, and reach its end through patches (`seq` grows).
// With BATTLE_TAMPER=1 the WebSocket is routed through the script, which drops the page's
// third patch and breaks its sixth (a failing `test` operation first): the page must ask for
// a snapshot (`resync`) each time and still reach the end. With BATTLE_VIEW_OUT the view the
// page holds at the end is written there as JSON.
//
//     node spectate.mjs URL OUT_DIR

import { writeFileSync } from "node:fs";
import { args, checkSizes, note, screenshot, waitFor, withPage } from "./browser.mjs";

const [url, dir] = args("node spectate.mjs URL OUT_DIR", 2);
const wanted = process.env.BATTLE_ID || null;
const expectLive = process.env.BATTLE_EXPECT_LIVE === "1";
const tamper = process.env.BATTLE_TAMPER === "1";
const viewOut = process.env.BATTLE_VIEW_OUT || null;

/** Which of the watched battle's patches the script drops, and which it breaks. */
const DROP_PATCH = 3;
const BREAK_PATCH = 6;

/**
 * Routes the page's WebSocket through the script: forwards everything, but drops and breaks
 * one patch each of the battle (once it is known); counts the page's `resync` requests.
 */
async function interpose(page, state) {
  await page.routeWebSocket(/.*/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      if (typeof message === "string" && JSON.parse(message).type === "resync") {
        state.resyncs += 1;
        note(`the page asked for a resync (${state.resyncs})`);
      }
      server.send(message);
    });
    server.onMessage((message) => {
      const msg = typeof message === "string" ? JSON.parse(message) : null;
      if (msg && msg.type === "patch" && msg.battle_id === state.battle) {
        state.patches += 1;
        if (state.patches === DROP_PATCH) {
          note(`dropping patch ${msg.seq}`);
          return;
        }
        if (state.patches === BREAK_PATCH) {
          note(`breaking patch ${msg.seq}`);
          msg.ops.unshift({ op: "test", path: "/status", value: "not a status" });
          ws.send(JSON.stringify(msg));
          return;
        }
      }
      ws.send(message);
    });
  });
}
/** Patches the page must apply while watching a live battle. */
const MIN_PATCHES = 5;

/** How long the watched battle may take to finish. */
const FINISH_MS = 60000;

await withPage("spectate", 100000, async (page) => {
  const tampered = { battle: null, patches: 0, resyncs: 0 };
  if (tamper) {
    await interpose(page, tampered);
  }
  note(`opening ${url}`);
  await page.goto(url);
  await waitFor(page, "the page never connected to the server", () => document.querySelector("#conn")?.dataset.state === "open");
  const row = wanted
    ? `#live-list li[data-battle-id="${wanted}"]`
    : '#live-list li[data-all-bots="true"]';
  await waitFor(page, `no bot battle (${row}) appeared in the list`, (sel) => document.querySelector(sel) !== null, row);
  const id = await page.getAttribute(row, "data-battle-id");
  note(`watching battle ${id}`);
  tampered.battle = id;
  await page.click(`${row} button[data-action="watch"]`);
  await waitFor(page, "the page did not open the battle", (battle) => location.hash === `#/battle/${battle}`, id);
  await waitFor(page, "no snapshot of the battle was shown", () => document.querySelector("#sync")?.dataset.state === "live");
  const firstStatus = await page.getAttribute("#battle", "data-status");
  const firstSeq = Number(await page.getAttribute("#battle", "data-seq"));
  note(`first shown: ${firstStatus} at seq ${firstSeq}`);
  if (expectLive && firstStatus !== "playing") {
    throw new Error(`the battle was ${firstStatus} when the page first showed it, not playing`);
  }
  if ((await page.locator("#play").isVisible()) || (await page.locator("#battle button.move").count()) > 0) {
    throw new Error("a spectator is offered moves");
  }
  await checkSizes(page, dir, "spectate");
  await waitFor(
    page,
    "the battle's outcome was never shown",
    () => document.querySelector("#outcome")?.dataset.shown === "true",
    null,
    FINISH_MS,
  );
  const outcome = (await page.innerText("#outcome")).replace(/\s+/g, " ").trim();
  const status = await page.getAttribute("#status", "data-status");
  const lines = await page.locator("#log li").count();
  await page.click("#raw summary");
  await waitFor(page, "the raw view, once opened, draws no tree", () => document.querySelectorAll("#tree [data-path]").length >= 3);
  const tree = await page.locator("#tree [data-path]").count();
  const lastSeq = Number(await page.getAttribute("#battle", "data-seq"));
  note(`outcome: ${outcome} (status ${status}, seq ${lastSeq}, ${lines} log lines, ${tree} tree nodes)`);
  if (status !== "finished") {
    throw new Error(`the outcome is shown but the status is "${status}"`);
  }
  if (outcome.length < 5) {
    throw new Error(`the outcome says too little: "${outcome}"`);
  }
  if (lines < 3) {
    throw new Error(`the log has ${lines} lines; a finished battle has more`);
  }
  if (expectLive && lastSeq - firstSeq < MIN_PATCHES) {
    throw new Error(`the page went from seq ${firstSeq} to ${lastSeq}: too few patches for a live battle`);
  }
  if (tamper && tampered.patches >= BREAK_PATCH && tampered.resyncs < 2) {
    throw new Error(`a patch was dropped and one broken, but the page asked for ${tampered.resyncs} resyncs`);
  }
  if (tamper && tampered.patches < BREAK_PATCH) {
    throw new Error(`only ${tampered.patches} patches came: too few to drop and break one each`);
  }
  if (tree < 3) {
    throw new Error(`the game view's tree has ${tree} nodes`);
  }
  if (viewOut) {
    writeFileSync(viewOut, JSON.stringify(await page.evaluate(() => window.battlePage.view())));
    note(`the page's view saved to ${viewOut}`);
  }
  await page.click("#raw summary");
  await screenshot(page, dir, "spectate-end-1280");
});
