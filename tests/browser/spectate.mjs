// The spectator scenario: opens the page at URL, waits for a battle between the server's bots
// in the list (BATTLE_ID when set, else the first one), clicks its Watch button, waits for
// the outcome to be shown, checks that the log has lines and that the game view's tree is
// drawn, and saves a screenshot to OUT_PNG. With BATTLE_EXPECT_LIVE=1 the battle must still
// be running when the page first shows it, and reach its end through patches (`seq` grows).
//
//     node spectate.mjs URL OUT_PNG

import { args, note, waitFor, withPage } from "./browser.mjs";

const [url, out] = args("node spectate.mjs URL OUT_PNG", 2);
const wanted = process.env.BATTLE_ID || null;
const expectLive = process.env.BATTLE_EXPECT_LIVE === "1";

/** Patches the page must apply while watching a live battle. */
const MIN_PATCHES = 5;

/** How long the watched battle may take to finish. */
const FINISH_MS = 60000;

await withPage("spectate", 100000, async (page) => {
  note(`opening ${url}`);
  await page.goto(url);
  await waitFor(page, "the page never connected to the server", () => document.querySelector("#conn")?.dataset.state === "open");
  const row = wanted
    ? `#battles tr[data-battle-id="${wanted}"]`
    : '#battles tr[data-all-bots="true"]';
  await waitFor(page, `no bot battle (${row}) appeared in the list`, (sel) => document.querySelector(sel) !== null, row);
  const id = await page.getAttribute(row, "data-battle-id");
  note(`watching battle ${id}`);
  await page.click(`${row} button[data-action="watch"]`);
  await waitFor(page, "the page did not open the battle", (battle) => location.hash === `#/battle/${battle}`, id);
  await waitFor(page, "no snapshot of the battle was shown", () => document.querySelector("#sync")?.dataset.state === "live");
  const firstStatus = await page.getAttribute("#battle", "data-status");
  const firstSeq = Number(await page.getAttribute("#battle", "data-seq"));
  note(`first shown: ${firstStatus} at seq ${firstSeq}`);
  if (expectLive && firstStatus !== "playing") {
    throw new Error(`the battle was ${firstStatus} when the page first showed it, not playing`);
  }
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
  if (tree < 3) {
    throw new Error(`the game view's tree has ${tree} nodes`);
  }
  await page.screenshot({ path: out, fullPage: true });
  note(`screenshot saved to ${out}`);
});
