// Shared by the browser test scripts: starts the system Chromium through playwright-core (no
// browser is ever downloaded) with a fresh profile at 1280x800, fails the run on any error the
// page throws or logs, bounds the whole run, and turns any failure into one line and exit code
// 1. Also the checks every scenario makes of how the page looks: a screenshot at both sizes,
// and at 390x844 (a phone) no horizontal scrolling and every control at least 44 px high.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

/** The Chromium to drive: BATTLE_CHROMIUM, else Debian's. */
const EXECUTABLE = process.env.BATTLE_CHROMIUM || "/usr/bin/chromium";

/** Chromium's flags: headless, no sandbox (root in CI), and no connection of its own. */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The two sizes the page is made for: a laptop's window and a phone's. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** The smallest a control may be, in CSS pixels (a finger's width). */
const TOUCH_PX = 44;

/** Longest a step waits for the page, unless it says otherwise. */
export const STEP_MS = 15000;

/** Says what the script is doing, on stderr, with the seconds since it started. */
const started = Date.now();
export function note(text) {
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${text}\n`);
}

/**
 * Watches `page` for errors: uncaught ones and console errors go to `problems` (the run fails
 * on any); console warnings are shown.
 */
export function watchErrors(page, problems, label = "page") {
  page.on("pageerror", (error) => {
    problems.push(`${label}: ${error.message}`);
    note(`${label} error: ${error.message}`);
  });
  page.on("console", (msg) => {
    if (msg.type() === "error") {
      problems.push(`${label} console: ${msg.text()}`);
      note(`${label} console error: ${msg.text()}`);
    } else if (msg.type() === "warning") {
      note(`${label} console warning: ${msg.text()}`);
    }
  });
}

/**
 * Runs `body(page, context, problems)` in a fresh headless Chromium, the whole run bounded by
 * `limitMs`. Exits with status 0 when `body` returns and the page logged no error, 1 with a
 * message when it throws, an error was logged, or it runs out of time.
 */
export async function withPage(name, limitMs, body) {
  const profile = mkdtempSync(join(tmpdir(), "battle-browser-"));
  let context = null;
  const timer = setTimeout(() => {
    note(`${name}: FAILED: the run took longer than ${limitMs / 1000} s`);
    process.exit(1);
  }, limitMs);
  let failed = false;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: EXECUTABLE,
      headless: true,
      args: ARGS,
      viewport: DESKTOP,
      timeout: STEP_MS,
    });
    context.setDefaultTimeout(STEP_MS);
    const page = context.pages()[0] || (await context.newPage());
    const problems = [];
    watchErrors(page, problems);
    await body(page, context, problems);
    if (problems.length) {
      throw new Error(`the page logged errors: ${problems.join("; ")}`);
    }
    note(`${name}: passed`);
  } catch (error) {
    failed = true;
    note(`${name}: FAILED: ${error.message.split("\n")[0]}`);
  } finally {
    clearTimeout(timer);
    if (context) {
      await context.close().catch(() => {});
    }
    rmSync(profile, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

/** The command line's arguments after the script, or a usage message and exit code 2. */
export function args(usage, count) {
  const given = process.argv.slice(2);
  if (given.length < count) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  return given;
}

/** Waits until `test()` (run in the page) is true, or throws `what` after `ms`. */
export async function waitFor(page, what, test, arg, ms = STEP_MS) {
  try {
    await page.waitForFunction(test, arg, { timeout: ms, polling: 100 });
  } catch {
    throw new Error(`${what} (waited ${ms / 1000} s)`);
  }
}

/** Saves a screenshot of the whole page to `dir/name.png`. */
export async function screenshot(page, dir, name) {
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  note(`screenshot ${path}`);
  return path;
}

/**
 * Looks at the page as a phone shows it: no horizontal scrolling, and every visible control
 * (button, link drawn as a button, field, summary, the label of a radio button) at least 44
 * px high and wide. Saves a screenshot to
 * `dir/name-390.png` (and, before, one at the desktop size to `dir/name-1280.png`), then puts
 * the desktop size back. Throws, naming what is wrong.
 */
export async function checkSizes(page, dir, name) {
  await screenshot(page, dir, `${name}-1280`);
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(200);
  try {
    const wide = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    if (wide.scroll > wide.width) {
      const culprits = await page.evaluate(() =>
        [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && e.offsetParent !== null)
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`),
      );
      throw new Error(`${name}: the phone layout scrolls sideways (${wide.scroll} px wide for ${wide.width}): ${culprits.join(", ")}`);
    }
    const small = await page.evaluate((least) =>
      [...document.querySelectorAll("button, a.button, select, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), summary, label.choice")]
        .filter((e) => e.offsetParent !== null && !e.closest(".tree"))
        .map((e) => ({ e, box: e.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && box.height > 0 && (box.height < least - 0.5 || box.width < least - 0.5))
        .slice(0, 5)
        .map(({ e, box }) => `${e.tagName.toLowerCase()} "${(e.textContent || e.getAttribute("aria-label") || "").trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`),
    TOUCH_PX);
    if (small.length) {
      throw new Error(`${name}: controls smaller than ${TOUCH_PX} px on a phone: ${small.join("; ")}`);
    }
    await screenshot(page, dir, `${name}-390`);
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}
