// Unit tests of the page's pure modules (the JSON Patch applier, the open-entry schema
// helpers, the words for seats and outcomes, the check that every legal entry has a move),
// run by Node's test runner: `node --test` in tests/browser. The modules are copied
// into a temporary folder marked as ES modules, since server/web has no package.json.

import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const web = fileURLToPath(new URL("../../server/web/", import.meta.url));
const copy = mkdtempSync(join(tmpdir(), "battle-web-"));
cpSync(web, copy, { recursive: true });
writeFileSync(join(copy, "package.json"), '{"type": "module"}\n');
const load = (name) => import(pathToFileURL(join(copy, name)).href);
const { applyPatch, parsePointer, formatPointer, jsonEqual, PatchError } = await load("patch.js");
const { choices, guess, check, isOpen } = await load("choose.js");
process.on("exit", () => rmSync(copy, { recursive: true, force: true }));

const fails = (doc, ops, pattern) =>
  assert.throws(() => applyPatch(doc, ops), (e) => e instanceof PatchError && pattern.test(e.message));

test("add: object members, array positions, the end of an array, the whole document", () => {
  const doc = { a: 1, list: [1, 2] };
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/b", value: { c: [3] } }]), { a: 1, list: [1, 2], b: { c: [3] } });
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/list/0", value: 0 }]).list, [0, 1, 2]);
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/list/2", value: 3 }]).list, [1, 2, 3]);
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/list/-", value: 9 }]).list, [1, 2, 9]);
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/a", value: null }]).a, null);
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "", value: [7] }]), [7]);
  assert.deepEqual(doc, { a: 1, list: [1, 2] }, "the input is never changed");
});

test("add refuses a missing parent, a bad index and an index past the end", () => {
  fails({ a: {} }, [{ op: "add", path: "/x/y", value: 1 }], /nothing at "\/x"/);
  fails({ l: [1] }, [{ op: "add", path: "/l/2", value: 1 }], /out of bounds/);
  fails({ l: [1] }, [{ op: "add", path: "/l/01", value: 1 }], /not an array index/);
  fails({ l: [1] }, [{ op: "add", path: "/l/-1", value: 1 }], /not an array index/);
  fails({ s: "text" }, [{ op: "add", path: "/s/x", value: 1 }], /not an object or array/);
  fails({}, [{ op: "add", path: "x", value: 1 }], /does not start with/);
  fails({}, [{ op: "add", path: "/x" }], /needs "value"/);
});

test("remove and replace need the target to exist", () => {
  const doc = { a: 1, l: [1, 2, 3], o: { k: 1 } };
  assert.deepEqual(applyPatch(doc, [{ op: "remove", path: "/l/1" }]).l, [1, 3]);
  assert.deepEqual(applyPatch(doc, [{ op: "remove", path: "/o/k" }]).o, {});
  assert.deepEqual(applyPatch(doc, [{ op: "replace", path: "/l/2", value: 30 }]).l, [1, 2, 30]);
  assert.deepEqual(applyPatch(doc, [{ op: "replace", path: "", value: 5 }]), 5);
  fails(doc, [{ op: "remove", path: "/missing" }], /nothing to remove/);
  fails(doc, [{ op: "remove", path: "/l/3" }], /out of bounds/);
  fails(doc, [{ op: "remove", path: "/l/-" }], /not an array index/);
  fails(doc, [{ op: "replace", path: "/missing", value: 1 }], /nothing to replace/);
  fails(doc, [{ op: "replace", path: "/l/3", value: 1 }], /out of bounds/);
  fails(doc, [{ op: "remove", path: "" }], /whole document/);
});

test("move and copy", () => {
  const doc = { a: { b: 1 }, l: [1, 2, 3] };
  assert.deepEqual(applyPatch(doc, [{ op: "move", from: "/a/b", path: "/c" }]), { a: {}, l: [1, 2, 3], c: 1 });
  assert.deepEqual(applyPatch(doc, [{ op: "move", from: "/l/0", path: "/l/-" }]).l, [2, 3, 1]);
  assert.deepEqual(applyPatch(doc, [{ op: "move", from: "/l/2", path: "/l/0" }]).l, [3, 1, 2]);
  assert.deepEqual(applyPatch(doc, [{ op: "move", from: "/a", path: "/a" }]), doc);
  const copied = applyPatch(doc, [{ op: "copy", from: "/a", path: "/d" }, { op: "replace", path: "/d/b", value: 2 }]);
  assert.deepEqual(copied, { a: { b: 1 }, l: [1, 2, 3], d: { b: 2 } }, "a copy is not shared");
  fails(doc, [{ op: "move", from: "/a", path: "/a/b/c" }], /into itself/);
  fails(doc, [{ op: "move", from: "/nope", path: "/x" }], /nothing/);
  fails(doc, [{ op: "copy", path: "/x" }], /needs "from"/);
});

test("test compares JSON values structurally", () => {
  const doc = { a: { x: [1, { y: null }], z: "s" } };
  assert.deepEqual(applyPatch(doc, [{ op: "test", path: "/a", value: { z: "s", x: [1, { y: null }] } }]), doc);
  fails(doc, [{ op: "test", path: "/a/z", value: "t" }], /not the one tested/);
  fails(doc, [{ op: "test", path: "/a/x", value: [1] }], /not the one tested/);
  fails(doc, [{ op: "test", path: "/a/x/1", value: { y: null, w: 1 } }], /not the one tested/);
  fails(doc, [{ op: "test", path: "/a/q", value: 1 }], /nothing at/);
  assert.ok(jsonEqual(1, 1.0) && !jsonEqual(1, "1") && !jsonEqual(null, {}) && !jsonEqual([], {}));
});

test("~0 and ~1 in paths", () => {
  assert.deepEqual(parsePointer("/a~1b/c~0d/~01"), ["a/b", "c~d", "~1"]);
  assert.deepEqual(parsePointer(""), []);
  assert.deepEqual(parsePointer("/"), [""]);
  assert.equal(formatPointer(["a/b", "c~d", 3]), "/a~1b/c~0d/3");
  const doc = { "a/b": 1, "m~n": 2, "": 3 };
  assert.deepEqual(applyPatch(doc, [{ op: "replace", path: "/a~1b", value: 10 }, { op: "remove", path: "/m~0n" }, { op: "replace", path: "/", value: 4 }]), { "a/b": 10, "": 4 });
  fails(doc, [{ op: "remove", path: "/m~2n" }], /"~" not followed/);
});

test("a failed operation names itself and leaves the document untouched", () => {
  const doc = { n: 1, l: [] };
  assert.throws(
    () => applyPatch(doc, [{ op: "replace", path: "/n", value: 2 }, { op: "add", path: "/l/-", value: 1 }, { op: "test", path: "/n", value: 1 }]),
    (e) => e instanceof PatchError && e.index === 2 && /^operation 2: /.test(e.message),
  );
  assert.deepEqual(doc, { n: 1, l: [] });
  fails(doc, [{ op: "jump", path: "/n" }], /unknown operation "jump"/);
  fails(doc, [{ path: "/n" }], /not an operation/);
  fails(doc, {}, /must be an array/);
});

test("__proto__ is an ordinary member", () => {
  const doc = JSON.parse('{"__proto__": {"x": 1}}');
  const out = applyPatch(doc, [{ op: "add", path: "/__proto__/y", value: 2 }, { op: "add", path: "/o", value: JSON.parse('{"__proto__": 3}') }]);
  assert.deepEqual(Object.keys(out), ["__proto__", "o"]);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.equal(({}).y, undefined);
});

test("open entries: listed choices, guesses that pass the check", () => {
  const rule = {
    kind: "set_rule",
    unit: "A",
    slot: { $choose: { type: "integer", minimum: 1, maximum: 3 } },
    skill: { $choose: { enum: ["strike", "taunt"] } },
    conditions: { $choose: { type: "array", items: { enum: ["always", "low", "high"] }, uniqueItems: true, minItems: 1, maxItems: 2 } },
    target: { $choose: { anyOf: [{ type: "null" }, { enum: ["first", "last"] }] } },
  };
  assert.ok(isOpen(rule) && !isOpen({ kind: "end_turn", card: 3 }) && isOpen([{ a: { $choose: {} } }]));
  assert.deepEqual(choices(rule.target.$choose), [null, "first", "last"]);
  assert.deepEqual(choices({ const: 4 }), [4]);
  assert.equal(choices({ type: "integer" }), null);
  for (const key of ["slot", "skill", "conditions", "target"]) {
    const schema = rule[key].$choose;
    assert.equal(check(schema, guess(schema)), null, `${key}: ${JSON.stringify(guess(schema))}`);
  }
  assert.deepEqual(guess(rule.conditions.$choose), ["always"]);
  assert.equal(guess({ type: "integer", minimum: 5, maximum: 9 }), 5);
  assert.equal(guess({ type: "integer", maximum: -2 }), -2);
  const object = { type: "object", properties: { a: { const: 1 }, b: { type: "array", items: { type: "integer", minimum: 2 }, minItems: 2 } }, required: ["a"], additionalProperties: false };
  assert.deepEqual(guess(object), { a: 1, b: [2, 2] });
  assert.equal(check(object, guess(object)), null);
});

test("check says what is wrong", () => {
  const slot = { type: "integer", minimum: 1, maximum: 3 };
  assert.match(check(slot, 0), /at least 1/);
  assert.match(check(slot, 4), /at most 3/);
  assert.match(check(slot, 1.5), /whole number/);
  const list = { type: "array", items: { enum: [1, 2, 3] }, uniqueItems: true, minItems: 1, maxItems: 2 };
  assert.match(check(list, []), /at least 1/);
  assert.match(check(list, [1, 2, 3]), /at most 2/);
  assert.match(check(list, [1, 1]), /at most once/);
  assert.match(check(list, [4]), /one of/);
  assert.match(check({ anyOf: [{ type: "null" }, { const: "x" }] }, "y"), /none of/);
  const object = { type: "object", properties: { a: { type: "null" } }, required: ["a"], additionalProperties: false };
  assert.match(check(object, {}), /needs "a"/);
  assert.match(check(object, { a: null, b: 1 }), /may not have "b"/);
  assert.equal(check(object, { a: null }), null);
});

const words = await load("words.js");
const { uncovered } = await load("moves.js");

test("a seat is named by the server's names, else its seat's name, else Player N", () => {
  const view = { seats: ["connected", { name: " Ben ", state: "connected" }, "bot"] };
  assert.equal(words.seatName(view, 0), "Player 1");
  assert.equal(words.seatName(view, 1), "Ben");
  assert.equal(words.seatName({ ...view, names: ["Ana", null, "Training Automaton"] }, 0), "Ana");
  assert.equal(words.seatName({ ...view, names: ["Ana", null, "Training Automaton"] }, 1), "Ben");
  assert.equal(words.seatName({ ...view, names: ["Ana", null, "Training Automaton"] }, 2), "Training Automaton");
  assert.equal(words.who({ ...view, seat: 1 }, 1, true), "You");
  assert.equal(words.whose({ ...view, seat: 0 }, 1), "Ben's");
});

test("a seat's state reads the envelope's word or a record's flags", () => {
  assert.equal(words.seatState("away"), "away");
  assert.equal(words.seatState({ state: "bot" }), "bot");
  assert.equal(words.seatState({ seat: 0, taken: false, bot: false, connected: false }), "free");
  assert.equal(words.seatState({ seat: 0, taken: true, bot: true, connected: true }), "bot");
  assert.equal(words.seatState({ seat: 0, taken: true, bot: false, connected: false }), "away");
});

test("the outcome is told from the viewer's side, and how it ended when the server says", () => {
  const name = (s) => `Player ${s + 1}`;
  assert.equal(words.outcomeHeadline({ winners: [0], summary: "" }, 0, name, 2), "You won");
  assert.equal(words.outcomeHeadline({ winners: [0], summary: "" }, 1, name, 2), "You lost");
  assert.equal(words.outcomeHeadline({ winners: [1], summary: "" }, null, name, 2), "Player 2 won");
  assert.equal(words.outcomeHeadline({ winners: [], summary: "" }, 0, name, 2), "A draw");
  assert.equal(words.outcomeHeadline({ winners: [], summary: "" }, 0, name, 1), "You lost");
  assert.equal(words.reasonWords({ winners: [], summary: "", reason: "time" }), "on time");
  assert.equal(words.reasonWords({ winners: [], summary: "" }), "");
  assert.equal(words.reasonWords({ winners: [], summary: "", reason: "something new" }), "");
});

test("legal entries no board move covers are found, so none is ever out of reach", () => {
  const legal = [
    { kind: "play", card: 3 },
    { kind: "end_turn" },
    { kind: "mulligan", cards: { $choose: { type: "array", items: { enum: [1, 2] } } } },
    { kind: "set_rule", unit: "A", slot: { $choose: { type: "integer" } } },
  ];
  const groups = [{ title: "", moves: [{ label: "Play", kind: "play", options: [{ label: "x", kind: "play", action: { kind: "play", card: 3 } }] }] }];
  assert.deepEqual(uncovered(legal, groups).map((e) => e.kind), ["end_turn", "mulligan", "set_rule"]);
  const more = [...groups, { title: "", covers: ["mulligan", "set_rule"] }, { title: "", moves: [{ label: "End", kind: "end_turn", action: { kind: "end_turn" } }] }];
  assert.deepEqual(uncovered(legal, more), []);
});
