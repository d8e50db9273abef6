// The lobby scenario, with two people (two pages of one browser): the start form offers the
// games by name and plays against the bot unless told otherwise (Heroes as a Mage: seated at
// once, the board shows the class); a game against a friend gives a link that lands the
// friend on the free seat (Lore: both seated, the game starts); matchmaking from the form
// meets the two (Synergy between two people: both seated in one battle). Looks at the lobby at
// both sizes while one waits in matchmaking (lobby-1280.png, lobby-390.png in OUT_DIR), and at
// the invitation (invite-1280.png, invite-390.png).
//
//     node lobby.mjs URL OUT_DIR

import { args, checkSizes, note, STEP_MS, watchErrors, waitFor, withPage } from "./browser.mjs";

const [url, dir] = args("node lobby.mjs URL OUT_DIR", 2);

/** Opens the lobby in `page` and waits for the server's games. */
async function openLobby(page) {
  await page.goto(url);
  await waitFor(page, "the start form never offered the games", () => document.querySelectorAll("#start-game option").length > 0);
}

/** Chooses in the start form: a game, a variant, a setup (by visible text), an opponent. */
async function choose(page, { game, variant, setup, opponent }) {
  await page.selectOption("#start-game", { label: game });
  if (variant) {
    await page.selectOption("#start-sample", { label: variant });
  }
  if (setup) {
    const options = await page.$$eval("#start-setup option", (all) => all.map((o) => o.textContent || ""));
    const label = options.find((o) => o.startsWith(setup));
    if (!label) {
      throw new Error(`no setup "${setup}" among ${options.join(" / ")}`);
    }
    await page.selectOption("#start-setup", { label });
  }
  if (opponent) {
    await page.check(`input[name="opponent"][value="${opponent}"]`);
  }
}

/** Waits until `page` holds a seat in a battle being played; gives its id and seat. */
async function seated(page, what) {
  await waitFor(page, `${what}: not seated in a started battle`, () => {
    const battle = document.querySelector("#battle");
    return battle?.dataset.role === "player" && battle.dataset.status === "playing";
  }, null, STEP_MS);
  return {
    id: decodeURIComponent((/#\/battle\/([^/]+)/.exec(page.url()) || [])[1] || ""),
    seat: await page.getAttribute("#battle", "data-seat"),
  };
}

await withPage("lobby", 110000, async (page, context, problems) => {
  note(`opening ${url}`);
  await openLobby(page);
  await page.fill("#start-name", "Ana");
  await page.dispatchEvent("#start-name", "change");

  // The form plays against the bot unless told otherwise.
  const defaultOpponent = await page.$eval('input[name="opponent"]:checked', (r) => /** @type {HTMLInputElement} */ (r).value);
  if (defaultOpponent !== "bot") {
    throw new Error(`the form's default opponent is "${defaultOpponent}", not the bot`);
  }
  await choose(page, { game: "Heroes", setup: "Mage" });
  await page.click(".more-options summary");
  await page.fill("#start-pace", "0");
  const label = (await page.innerText("#start-form button[type=submit]")).trim();
  if (label !== "Play against the bot") {
    throw new Error(`the start button says "${label}"`);
  }
  await page.click("#start-form button[type=submit]");
  const heroes = await seated(page, "heroes against the bot");
  await waitFor(page, "the board does not show the Mage", () => /Mage/.test(document.querySelector("#board")?.textContent || ""));
  note(`heroes battle ${heroes.id}: seated at ${heroes.seat} as a Mage against the bot`);

  // A friend's link lands the friend on the free seat.
  await page.click("#back");
  await choose(page, { game: "Lore", setup: "Tidewater", opponent: "friend" });
  await page.click("#start-form button[type=submit]");
  await waitFor(page, "no invitation link was shown", () => document.querySelector("#invite") !== null && !document.querySelector("#invite")?.hidden);
  const link = await page.inputValue("#invite-link");
  note(`the invitation: ${link}`);
  await checkSizes(page, dir, "invite");
  const friend = await context.newPage();
  watchErrors(friend, problems, "friend");
  await friend.goto(link);
  const theirs = await seated(friend, "the friend");
  const mine = await seated(page, "the host");
  if (theirs.id !== mine.id || theirs.seat === mine.seat) {
    throw new Error(`the friend is at seat ${theirs.seat} of ${theirs.id}, the host at ${mine.seat} of ${mine.id}`);
  }
  if (await page.isVisible("#invite")) {
    throw new Error("the invitation is still shown once the friend sat down");
  }
  note(`lore battle ${mine.id}: host at seat ${mine.seat}, friend at seat ${theirs.seat}`);

  // Matchmaking meets the two.
  await page.click("#back");
  await choose(page, { game: "Synergy", variant: "Two people", opponent: "anyone" });
  await page.selectOption("#start-bot-after", "0");
  if ((await page.innerText("#start-form button[type=submit]")).trim() !== "Find an opponent") {
    throw new Error("the start button does not say it finds an opponent");
  }
  await page.click("#start-form button[type=submit]");
  await waitFor(page, "the lobby does not say it is looking for an opponent", () => !document.querySelector("#queue-status")?.hidden);
  await checkSizes(page, dir, "lobby");
  await friend.click("#back");
  await waitFor(friend, "the friend's lobby did not load", () => document.querySelectorAll("#start-game option").length > 0);
  await choose(friend, { game: "Synergy", variant: "Two people", opponent: "anyone" });
  await friend.selectOption("#start-bot-after", "0");
  await friend.click("#start-form button[type=submit]");
  const first = await seated(page, "the first to look");
  const second = await seated(friend, "the second to look");
  if (first.id !== second.id || first.seat === second.seat) {
    throw new Error(`matchmaking put them at seat ${first.seat} of ${first.id} and seat ${second.seat} of ${second.id}`);
  }
  note(`synergy battle ${first.id}: matched at seats ${first.seat} and ${second.seat}`);
});
