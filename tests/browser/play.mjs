// The player scenario: opens the page at URL, waits for a battle with a free seat in the list
// (BATTLE_ID when set, else the first one), takes the seat with its "Take seat" button, and
// plays from the seat's legal actions as a visitor would: the first open entry's form is
// filled and sent once (when there is one), then whole actions are clicked, preferring the
// kinds in PLAY_PREFER (comma-separated; default start,play_card,end_turn), until the outcome
// is shown or PLAY_MAX_MOVES actions (default 300) were accepted. After the third accepted
// action the page is reloaded and must take the seat back by itself. Saves a screenshot while
// playing to OUT_PNG with "-playing" before ".png", and one at the end to OUT_PNG. With
// PLAY_STRICT=1 a refused action fails the run (else up to 10 are shown and passed over).
//
//     node play.mjs URL OUT_PNG

import { args, note, STEP_MS, waitFor, withPage } from "./browser.mjs";

const [url, out] = args("node play.mjs URL OUT_PNG", 2);
const wanted = process.env.BATTLE_ID || null;
const prefer = (process.env.PLAY_PREFER || "start,play_card,end_turn").split(",");
const maxMoves = Number(process.env.PLAY_MAX_MOVES || 300);
const strict = process.env.PLAY_STRICT === "1";
const playingPng = out.replace(/(\.png)?$/, "-playing.png");

/** How long the other side may take before it is this seat's move again. */
const TURN_MS = 30000;

/** Most refused actions tolerated (a refusal is shown and another action tried). */
const MAX_REFUSALS = 10;

const idle = () => {
  const play = document.querySelector("#play");
  return play && play.dataset.pending === "false";
};

async function takeSeat(page) {
  const row = wanted
    ? `#battles tr[data-battle-id="${wanted}"]`
    : '#battles tr:has(button[data-action="take"])';
  await waitFor(page, `no battle with a free seat (${row}) appeared in the list`, (sel) => document.querySelector(sel) !== null, row);
  const id = await page.getAttribute(row, "data-battle-id");
  const button = page.locator(`${row} button[data-action="take"]`).first();
  note(`taking ${await button.textContent()} in battle ${id}`);
  await button.click();
  await waitFor(page, "the page did not sit down", () => document.querySelector("#battle")?.dataset.role === "player");
  return id;
}

/** Sends the first open entry's form as the page filled it. */
async function sendForm(page) {
  const form = page.locator("#legal form.open-entry").first();
  note(`sending the form for ${await form.getAttribute("data-kind")}`);
  await form.locator("button[type=submit]").click();
}

/** Clicks the preferred whole action not in `skip`; returns it, or null when there is none. */
async function clickAction(page, skip) {
  const buttons = await page.$$eval('#legal button[data-whole="true"]', (all) =>
    all.map((b) => ({ kind: b.dataset.kind, index: b.dataset.index, text: b.textContent })),
  );
  const usable = buttons.filter((b) => !skip.has(b.index));
  if (!usable.length) {
    return null;
  }
  const rank = (b) => {
    const at = prefer.indexOf(b.kind);
    return at === -1 ? prefer.length : at;
  };
  const pick = usable.reduce((best, b) => (rank(b) < rank(best) ? b : best));
  await page.click(`#legal button[data-whole="true"][data-index="${pick.index}"]`);
  return pick;
}

await withPage("play", 110000, async (page) => {
  note(`opening ${url}`);
  await page.goto(url);
  const id = await takeSeat(page);
  await waitFor(page, "the seat's view never arrived", () => document.querySelector("#sync")?.dataset.state === "live");
  const seat = await page.getAttribute("#battle", "data-seat");
  let accepted = 0;
  let refused = 0;
  let formSent = false;
  let reloaded = false;
  let skip = new Set();
  let legalSeen = "";
  while (accepted < maxMoves) {
    if ((await page.getAttribute("#outcome", "data-shown")) === "true") {
      break;
    }
    await waitFor(
      page,
      "it never became this seat's move, and the battle did not end",
      () =>
        document.querySelector("#outcome")?.dataset.shown === "true" ||
        (document.querySelector("#play")?.dataset.pending === "false" &&
          document.querySelectorAll("#legal button[data-whole], #legal form").length > 0 &&
          document.querySelector("#play")?.dataset.myTurn === "true"),
      null,
      TURN_MS,
    );
    if ((await page.getAttribute("#outcome", "data-shown")) === "true") {
      break;
    }
    const legal = await page.getAttribute("#play", "data-legal-count");
    const signature = `${legal}:${await page.locator("#legal").innerText()}`;
    if (signature !== legalSeen) {
      skip = new Set();
      legalSeen = signature;
    }
    const hasForm = (await page.locator("#legal form.open-entry").count()) > 0;
    let what;
    let clicked = null;
    if (hasForm && !formSent) {
      formSent = true;
      await sendForm(page);
      what = "the form";
    } else {
      clicked = await clickAction(page, skip);
      if (clicked === null) {
        throw new Error("the seat is awaited but offers no whole action left to click");
      }
      what = clicked.text;
    }
    await waitFor(page, `no answer to ${what}`, idle);
    const error = (await page.isVisible("#play-error")) ? await page.textContent("#play-error") : "";
    if (error) {
      refused += 1;
      note(`refused (${what}): ${error}`);
      if (strict) {
        throw new Error(`an action from legal was refused (${what}): ${error}`);
      }
      if (refused > MAX_REFUSALS) {
        throw new Error(`more than ${MAX_REFUSALS} actions were refused; the last: ${error}`);
      }
      if (clicked) {
        skip.add(clicked.index);
      }
      continue;
    }
    accepted += 1;
    if (accepted === 2) {
      await page.screenshot({ path: playingPng, fullPage: true });
      note(`screenshot while playing saved to ${playingPng}`);
    }
    if (accepted === 3 && !reloaded) {
      reloaded = true;
      note("reloading the page: it must take the seat back");
      await page.reload();
      await waitFor(page, "after a reload the page did not take its seat back", () => document.querySelector("#battle")?.dataset.role === "player" && document.querySelector("#sync")?.dataset.state === "live", null, STEP_MS);
      const again = await page.getAttribute("#battle", "data-seat");
      if (again !== seat) {
        throw new Error(`after the reload the page holds seat ${again}, not ${seat}`);
      }
      note(`seat ${seat} taken back`);
    }
  }
  const shown = (await page.getAttribute("#outcome", "data-shown")) === "true";
  note(`${accepted} actions accepted, ${refused} refused, battle ${id} ${shown ? "finished: " + (await page.innerText("#outcome")).replace(/\s+/g, " ").trim() : "still running"}`);
  if (!shown && accepted < maxMoves) {
    throw new Error("the battle neither finished nor let the seat play its moves");
  }
  if (shown && (await page.locator("#log li").count()) < 3) {
    throw new Error("the finished battle's log has fewer than 3 lines");
  }
  await page.screenshot({ path: out, fullPage: true });
  note(`screenshot saved to ${out}`);
});
