// The replay scenario: opens the page at URL, finds finished battle BATTLE_ID among the
// recently finished ones, follows its "Watch replay" link, and steps through it as a person
// would: the replay opens at its start; Next three times, Back once; then it plays at the
// fastest speed to its end, where the outcome is shown and Next is disabled. The share link
// must name the replay and the step, and open the same step in a fresh page. Looks at it at
// both sizes (replay-1280.png and replay-390.png in OUT_DIR).
//
//     node replay.mjs URL OUT_DIR

import { args, checkSizes, note, watchErrors, waitFor, withPage } from "./browser.mjs";

const [url, dir] = args("node replay.mjs URL OUT_DIR", 2);
const wanted = process.env.BATTLE_ID;

/** How long a whole replay may take to play at the fastest speed. */
const PLAY_MS = 60000;

/** The step the replay shows. */
const step = (page) => page.getAttribute("#replay", "data-step").then(Number);

await withPage("replay", 110000, async (page, context, problems) => {
  note(`opening ${url}`);
  await page.goto(url);
  const row = `#finished-list li[data-battle-id="${wanted}"]`;
  await waitFor(page, `battle ${wanted} is not among the recently finished`, (sel) => document.querySelector(sel) !== null, row);
  await page.click(`${row} a[data-action="replay"]`);
  await waitFor(page, "the replay did not load", () => document.querySelector("#replay")?.dataset.loaded === "true");
  const steps = Number(await page.getAttribute("#replay", "data-steps"));
  note(`the replay has ${steps} steps`);
  if (steps < 5) {
    throw new Error(`a whole battle's replay has ${steps} steps`);
  }
  if ((await step(page)) !== 0) {
    throw new Error(`the replay opened at step ${await step(page)}, not at its start`);
  }
  if ((await page.getAttribute("#replay-outcome", "data-shown")) === "true") {
    throw new Error("the outcome is shown at the replay's start");
  }
  for (let i = 0; i < 3; i += 1) {
    await page.click("#replay-next");
  }
  await page.click("#replay-back");
  if ((await step(page)) !== 2) {
    throw new Error(`after three steps forward and one back the replay is at step ${await step(page)}, not 2`);
  }
  const text = await page.innerText("#replay-step");
  if (text !== `Step 2 of ${steps}`) {
    throw new Error(`the replay says "${text}" at step 2`);
  }
  const link = await page.inputValue("#replay-link");
  if (!link.endsWith(`#/replay/${wanted}/2`)) {
    throw new Error(`the share link is ${link}`);
  }
  await checkSizes(page, dir, "replay");
  // The share link opens the same step in another page.
  const other = await context.newPage();
  watchErrors(other, problems, "shared page");
  await other.goto(link);
  await waitFor(other, "the shared link did not open the replay at its step", () => document.querySelector("#replay")?.dataset.step === "2");
  await other.close();
  await page.selectOption("#replay-speed", "25");
  await page.click("#replay-play");
  await waitFor(page, "playing did not reach the end", (n) => document.querySelector("#replay")?.dataset.step === String(n), steps, PLAY_MS);
  await waitFor(page, "the outcome is not shown at the end", () => document.querySelector("#replay-outcome")?.dataset.shown === "true");
  if (!(await page.isDisabled("#replay-next"))) {
    throw new Error("Next is still enabled at the end");
  }
  if ((await page.getAttribute("#replay", "data-playing")) !== "false") {
    throw new Error("the replay still plays at its end");
  }
  const outcome = (await page.innerText("#replay-outcome")).replace(/\s+/g, " ").trim();
  note(`at the end: ${outcome}`);
  await page.click("#replay-start");
  if ((await step(page)) !== 0) {
    throw new Error("Start did not go back to the start");
  }
});
