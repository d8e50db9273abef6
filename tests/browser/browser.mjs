// Shared by the browser test scripts: starts the system Chromium through playwright-core (no
// browser is ever downloaded) with a fresh profile, relays the page's errors and console
// warnings, bounds the whole run, and turns any failure into one line and exit code 1.

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

/** Longest a step waits for the page, unless it says otherwise. */
export const STEP_MS = 15000;

/** Says what the script is doing, on stderr, with the seconds since it started. */
const started = Date.now();
export function note(text) {
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${text}\n`);
}

/**
 * Runs `body(page)` in a fresh headless Chromium, the whole run bounded by `limitMs`. Exits
 * with status 0 when `body` returns, 1 with a message when it throws or runs out of time.
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
      viewport: { width: 1280, height: 900 },
      timeout: STEP_MS,
    });
    context.setDefaultTimeout(STEP_MS);
    const page = context.pages()[0] || (await context.newPage());
    const problems = [];
    page.on("pageerror", (error) => {
      problems.push(error.message);
      note(`page error: ${error.message}`);
    });
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") {
        note(`page console ${msg.type()}: ${msg.text()}`);
      }
    });
    await body(page);
    if (problems.length) {
      throw new Error(`the page threw: ${problems.join("; ")}`);
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
