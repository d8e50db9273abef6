// The gambit board: both teams with HP bars, shields and statuses, each unit's intent (the
// skill it is doing, its locked targets and the ticks left, and what it would do next), the
// "why" of its last choice, and the party's program as three rule slots per character, edited
// in place with skills, conditions and targeting chosen from lists in the game's words. Start,
// pause and resume the fight; take an offered skill for a character. The fight ticks live.
// Field names follow server/rules/src/gambit/view.rs.

import { fill, h } from "../dom.js";
import { area, bar, cardFace, disclosure, effect, sidePanel, tag } from "../parts.js";
import { listWords, plural, seatName, who } from "../words.js";

/** @typedef {import("../types").View} View */
/** @typedef {import("../types").Action} Action */
/** @typedef {import("../types").BoardCtx} BoardCtx */
/** @typedef {import("../types").Move} Move */
/** @typedef {import("../types").MoveGroup} MoveGroup */
/** @typedef {import("../types").HelpSection} HelpSection */

export const title = "Gambit";

export const pitch =
  "Program a party of three with IF–THEN rules, then watch the fight play itself tick by tick. Win six encounters, the last against the Warlord — or pit your program against another player's.";

/** @type {HelpSection[]} */
export const help = [
  {
    title: "Programming",
    lines: [
      "Each character has three rule slots, checked from 1 down: the first rule whose conditions all hold and whose skill finds a target fires. An empty slot or a rule without a target is skipped; a character with nothing to do stands idle.",
      "A rule is a skill the character knows, up to two conditions, and optionally a way to pick its target (otherwise the skill's usual one, mostly the lowest HP).",
      "Edit the rules before a fight, or pause a fight (against scripted enemies) to change them; new rules apply from the next choice.",
    ],
  },
  {
    title: "A tick",
    lines: [
      "Idle characters choose at the start of a tick and lock their targets. Every action counts down one tick; a 1-tick skill lands the tick it is chosen.",
      "Actions landing together: damage (halved while Defending, +15 if Enraged), then healing, shields absorb damage, HP changes all at once, statuses land.",
      "Poison deals 5 a tick for 4 ticks. Taunting lasts 4 ticks and draws the enemies' new single-target choices by HP. Disrupt and Concuss cancel an action in progress.",
    ],
  },
  {
    title: "The run",
    lines: [
      "The party: Vanguard (120 HP), Mender (90), Arcanist (80). Six encounters; between them the party is healed fully and may learn one of the offered skills.",
      "The run is lost when the whole party is knocked out, or a fight reaches 600 ticks. In a duel the party left standing wins; both down at once, or 600 ticks, is a draw.",
    ],
  },
];

/** Each condition in words, as it reads after "if". */
const CONDITIONS = {
  always: "always",
  self_hp_below_25: "my HP is below 25%",
  self_hp_below_50: "my HP is below 50%",
  self_hp_below_75: "my HP is below 75%",
  ally_hp_below_25: "an ally's HP is below 25%",
  ally_hp_below_50: "an ally's HP is below 50%",
  ally_hp_below_75: "an ally's HP is below 75%",
  enemy_hp_below_25: "an enemy's HP is below 25%",
  enemy_hp_below_50: "an enemy's HP is below 50%",
  ally_knocked_out: "an ally is knocked out",
  ally_poisoned: "an ally is poisoned",
  enemy_taunting: "an enemy is taunting",
  enemy_acting: "an enemy is busy with an action",
  self_unshielded: "I have no shield",
  more_than_2_enemies: "more than 2 enemies stand",
};

/** Each targeting mode in words. */
const TARGETS = {
  lowest_hp: "the lowest HP",
  highest_hp: "the highest HP",
  first: "the first in order",
  ignore_taunt: "the lowest HP, ignoring taunt",
  myself: "myself",
};

/** Each status in words, and whether it helps. */
const STATUSES = {
  poisoned: ["Poisoned", "loses 5 HP a tick", "bad"],
  stunned: ["Stunned", "cannot choose an action", "bad"],
  taunting: ["Taunting", "enemies choosing by HP must pick it", "good"],
  defending: ["Defending", "takes half damage", "good"],
  enraged: ["Enraged", "its next attack deals +15", "good"],
};

/**
 * @param {string} id
 */
function conditionWords(id) {
  return CONDITIONS[/** @type {keyof typeof CONDITIONS} */ (id)] || id.replaceAll("_", " ");
}

/**
 * @param {string | null} id
 */
function targetWords(id) {
  return id === null ? "its usual target" : TARGETS[/** @type {keyof typeof TARGETS} */ (id)] || id.replaceAll("_", " ");
}

/**
 * The team the viewer programs (0 for a spectator, who sees the party first).
 * @param {View} view
 */
function myTeam(view) {
  return view.seat === null ? 0 : view.seat;
}

/**
 * Every unit by id, with its team and its name for people ("Grunt 2" where two share a name).
 * @param {View} view
 * @returns {Map<string, {unit: any, team: number, name: string}>}
 */
function units(view) {
  /** @type {Map<string, {unit: any, team: number, name: string}>} */
  const all = new Map();
  view.game.teams.forEach((/** @type {any} */ team, /** @type {number} */ t) => {
    for (const unit of team.units) {
      const twins = team.units.filter((/** @type {any} */ u) => u.name === unit.name).length;
      const number = twins > 1 ? unit.id.replace(/\D/g, "") : "";
      all.set(unit.id, { unit, team: t, name: number ? `${unit.name} ${number}` : unit.name });
    }
  });
  return all;
}

/**
 * A unit's name as the viewer reads it: "your Vanguard", "Ben's Vanguard", "Grunt 2".
 * @param {View} view
 * @param {Map<string, {unit: any, team: number, name: string}>} all
 * @param {string} id
 */
function unitWords(view, all, id) {
  const found = all.get(id);
  if (!found) {
    return id;
  }
  if (view.game.mode === "pvp") {
    return found.team === view.seat ? `your ${found.name}` : `${seatName(view, found.team)}'s ${found.name}`;
  }
  return found.name;
}

/**
 * A skill's name and glossary entry.
 * @param {View} view
 * @param {string} id
 */
function skill(view, id) {
  const found = (view.game.skills || []).find((/** @type {any} */ s) => s.id === id);
  return found || { id, name: id.replaceAll("_", " "), text: "", ticks: 0 };
}

/**
 * A rule in words: "If an ally's HP is below 75%: Mend (its usual target)".
 * @param {View} view
 * @param {any} rule
 */
function ruleWords(view, rule) {
  const conditions = rule.conditions && rule.conditions.length ? rule.conditions : ["always"];
  const when = conditions.includes("always") && conditions.length === 1 ? "Always" : `If ${conditions.map(conditionWords).join(" and ")}`;
  const aim = rule.target ? ` on ${targetWords(rule.target)}` : "";
  return `${when}: ${skill(view, rule.skill).name}${aim}`;
}

/**
 * A "why" line with ids and condition names put into words.
 * @param {View} view
 * @param {Map<string, {unit: any, team: number, name: string}>} all
 * @param {string} line
 */
function whyWords(view, all, line) {
  let text = line;
  for (const [id, found] of all) {
    text = text.replace(new RegExp(`\\b${id}\\b`, "g"), view.game.mode === "pvp" ? unitWords(view, all, id) : found.name);
  }
  for (const [id, words] of Object.entries(CONDITIONS)) {
    text = text.replace(new RegExp(`\\b${id} false\\b`, "g"), `“${words}” is not true`).replace(new RegExp(`\\b${id}\\b`, "g"), `“${words}”`);
  }
  return text;
}

/**
 * @param {View} view
 */
export function situation(view) {
  const game = view.game;
  const where = game.mode === "pve" ? `Encounter ${game.encounter} of ${game.encounters}` : "Duel";
  const phase = {
    planning: game.mode === "pve" ? "planning: edit the rules, then start" : `planning (${game.ready.filter(Boolean).length} of ${game.ready.length} ready)`,
    fighting: `fighting, tick ${game.tick}`,
    paused: `paused at tick ${game.tick}`,
    reward: "choosing a skill to learn",
    over: "over",
  }[/** @type {"planning"} */ (game.phase)] || game.phase;
  return `${where} · ${phase}`;
}

/**
 * The rule being edited (unit and slot, and the choices so far), kept across redraws.
 * @param {BoardCtx} ctx
 */
function editing(ctx) {
  if (!ctx.ui.gambit) {
    ctx.ui.gambit = { edit: null };
  }
  return ctx.ui.gambit;
}

/**
 * The seated viewer's moves: start, ready, pause, resume, the offered skills; the program is
 * edited on the board (its moves are covered there).
 * @param {View} view
 * @param {BoardCtx} ctx
 * @returns {MoveGroup[]}
 */
export function moves(view, ctx) {
  const game = view.game;
  const legal = view.legal || [];
  const all = units(view);
  /** @type {Move[]} */
  const main = [];
  /** @type {Map<string, Move>} */
  const offers = new Map();
  /** @type {Move[]} */
  const skips = [];
  for (const entry of legal) {
    switch (entry.kind) {
      case "start":
        main.push({ label: game.mode === "pvp" ? "My program is ready" : "Start the fight", action: entry, kind: "start", primary: true });
        break;
      case "pause":
        main.push({ label: "Pause the fight (to change the rules)", action: entry, kind: "pause" });
        break;
      case "resume":
        main.push({ label: "Resume the fight", action: entry, kind: "resume", primary: true });
        break;
      case "take": {
        const s = skill(view, entry.skill);
        let move = offers.get(entry.skill);
        if (!move) {
          move = { label: `Learn ${s.name}`, kind: "take", hint: s.text, ask: `${s.name} (${plural(s.ticks, "tick")}): ${s.text} Who learns it?`, options: [] };
          offers.set(entry.skill, move);
        }
        /** @type {Move[]} */ (move.options).push({ label: `Teach ${s.name} to the ${unitWords(view, all, entry.unit)}`, action: entry, kind: "take", target: `unit:${entry.unit}` });
        break;
      }
      case "skip":
        skips.push({ label: "Skip: learn nothing", action: entry, kind: "skip" });
        break;
      default:
        break;
    }
  }
  /** @type {MoveGroup[]} */
  const groups = [];
  const editable = legal.some((e) => e.kind === "set_rule" || e.kind === "clear_rule" || e.kind === "move_rule");
  if (offers.size || skips.length) {
    groups.push({ title: "Learn a skill", note: "The party is healed before the next encounter. A new skill needs a rule to be used.", moves: [...offers.values(), ...skips] });
  }
  if (editable) {
    groups.push({ title: "Your party's rules", note: "Edit them on the board, under each character.", covers: ["set_rule", "clear_rule", "move_rule"] });
  }
  if (main.length) {
    groups.push({ title: game.phase === "fighting" ? "The fight runs by itself" : "Fight", moves: main });
  }
  if (!editable) {
    editing(ctx).edit = null;
  }
  return groups;
}

/**
 * The program of one of the viewer's units: its three slots, each with its rule in words and
 * the controls the legal actions allow (edit, move up or down, clear).
 * @param {View} view
 * @param {any} unit
 * @param {BoardCtx} ctx
 */
function program(view, unit, ctx) {
  const legal = view.legal || [];
  const setRule = legal.find((e) => e.kind === "set_rule" && e.unit === unit.id) || null;
  const state = editing(ctx);
  if (!Array.isArray(unit.rules)) {
    return h("p", { class: "muted small", text: "Its rules stay hidden until the fight starts." });
  }
  const slots = unit.rules.map((/** @type {any} */ rule, /** @type {number} */ i) => {
    const slot = i + 1;
    const has = (/** @type {string} */ kind, /** @type {any} */ extra = {}) =>
      legal.find((e) => e.kind === kind && e.unit === unit.id && e.slot === slot && Object.entries(extra).every(([k, v]) => e[k] === v)) || null;
    const clear = has("clear_rule");
    const up = has("move_rule", { direction: "up" });
    const down = has("move_rule", { direction: "down" });
    const isEditing = state.edit && state.edit.unit === unit.id && state.edit.slot === slot;
    const controls = [];
    if (setRule && !isEditing) {
      controls.push(
        h("button", {
          type: "button",
          class: "move small-button",
          dataset: { kind: "set_rule", key: `edit:${unit.id}:${slot}` },
          text: rule ? "Edit" : "Write a rule",
          "aria-label": `${rule ? "Edit" : "Write"} rule ${slot} of the ${unit.name}`,
          on: {
            click: () => {
              state.edit = {
                unit: unit.id,
                slot,
                skill: rule ? rule.skill : unit.skills[0],
                conditions: rule ? rule.conditions.filter((/** @type {string} */ c) => c !== "always") : [],
                target: rule ? rule.target : null,
              };
              ctx.redraw();
            },
          },
        }),
      );
    }
    if (up) {
      controls.push(h("button", { type: "button", class: "move secondary small-button", dataset: { kind: "move_rule", key: `up:${unit.id}:${slot}` }, text: "↑", title: "Check it earlier", "aria-label": `Move rule ${slot} of the ${unit.name} up`, on: { click: () => ctx.act(up) } }));
    }
    if (down) {
      controls.push(h("button", { type: "button", class: "move secondary small-button", dataset: { kind: "move_rule", key: `down:${unit.id}:${slot}` }, text: "↓", title: "Check it later", "aria-label": `Move rule ${slot} of the ${unit.name} down`, on: { click: () => ctx.act(down) } }));
    }
    if (clear) {
      controls.push(h("button", { type: "button", class: "move secondary small-button", dataset: { kind: "clear_rule", key: `clear:${unit.id}:${slot}` }, text: "Clear", "aria-label": `Clear rule ${slot} of the ${unit.name}`, on: { click: () => ctx.act(clear) } }));
    }
    return h(
      "li",
      { class: `rule${rule ? "" : " empty"}`, dataset: { slot } },
      h("span", { class: "rule-slot", text: `${slot}.` }),
      h("span", { class: "rule-text", text: rule ? ruleWords(view, rule) : "empty" }),
      controls.length ? h("span", { class: "rule-controls" }, controls) : null,
      isEditing && setRule ? editor(view, unit, setRule, ctx) : null,
    );
  });
  return h("div", { class: "program" }, h("h5", { text: "Rules (checked from 1 down)" }), h("ol", { class: "rules" }, slots));
}

/**
 * The rule editor: a skill, up to two conditions and a target, each from a list in words.
 * @param {View} view
 * @param {any} unit
 * @param {Action} entry the unit's `set_rule` open entry
 * @param {BoardCtx} ctx
 */
function editor(view, unit, entry, ctx) {
  const state = editing(ctx);
  const edit = state.edit;
  /** @type {string[]} */
  const skills = entry.skill.$choose.enum;
  /** @type {string[]} */
  const conditions = entry.conditions.$choose.items.enum.filter((/** @type {string} */ c) => c !== "always");
  const targetBranch = (entry.target.$choose.anyOf || []).find((/** @type {any} */ b) => Array.isArray(b.enum));
  /** @type {string[]} */
  const targets = targetBranch ? targetBranch.enum : [];
  const id = `${unit.id}-${edit.slot}`;
  const skillSelect = h(
    "select",
    { id: `rule-skill-${id}`, dataset: { key: `rule-skill:${id}`, field: "skill" }, on: { change: () => (edit.skill = skillSelect.value) } },
    skills.map((s) => {
      const known = skill(view, s);
      return h("option", { value: s, text: `${known.name} (${plural(known.ticks, "tick")}): ${known.text}`, selected: s === edit.skill });
    }),
  );
  const conditionSelect = (/** @type {number} */ n) => {
    const select = h(
      "select",
      {
        id: `rule-if${n}-${id}`,
        dataset: { key: `rule-if${n}:${id}`, field: `condition${n}` },
        on: {
          change: () => {
            const chosen = [...edit.conditions];
            chosen[n] = select.value;
            edit.conditions = chosen.filter(Boolean);
          },
        },
      },
      h("option", { value: "", text: n === 0 ? "always" : "(no second condition)", selected: !edit.conditions[n] }),
      conditions.map((c) => h("option", { value: c, text: conditionWords(c), selected: edit.conditions[n] === c })),
    );
    return select;
  };
  const targetSelect = h(
    "select",
    { id: `rule-target-${id}`, dataset: { key: `rule-target:${id}`, field: "target" }, on: { change: () => (edit.target = targetSelect.value || null) } },
    h("option", { value: "", text: "its usual target", selected: edit.target === null }),
    targets.map((t) => h("option", { value: t, text: targetWords(t), selected: edit.target === t })),
  );
  const save = () => {
    const chosen = [...new Set(edit.conditions.filter(Boolean))].slice(0, 2);
    state.edit = null;
    ctx.act({ kind: "set_rule", unit: unit.id, slot: edit.slot, skill: edit.skill, conditions: chosen, target: edit.target });
  };
  return h(
    "div",
    { class: "rule-editor", role: "group", "aria-label": `Rule ${edit.slot} of the ${unit.name}` },
    h("div", { class: "form-line" }, h("label", { for: `rule-if0-${id}`, text: "If" }), conditionSelect(0)),
    h("div", { class: "form-line" }, h("label", { for: `rule-if1-${id}`, text: "and" }), conditionSelect(1)),
    h("div", { class: "form-line" }, h("label", { for: `rule-skill-${id}`, text: "then use" }), skillSelect),
    h("div", { class: "form-line" }, h("label", { for: `rule-target-${id}`, text: "on" }), targetSelect),
    h(
      "div",
      { class: "move-buttons" },
      h("button", { type: "button", class: "move primary", dataset: { kind: "set_rule", key: `rule-save:${id}` }, text: "Save the rule", on: { click: save } }),
      h("button", { type: "button", class: "secondary", dataset: { key: `rule-cancel:${id}` }, text: "Cancel", on: { click: () => ((state.edit = null), ctx.redraw()) } }),
    ),
  );
}

/**
 * One unit: HP, shield, statuses, what it is doing and would do next, why, and (for the
 * viewer's own units) its program.
 * @param {View} view
 * @param {Map<string, {unit: any, team: number, name: string}>} all
 * @param {any} unit
 * @param {boolean} mine
 * @param {BoardCtx} ctx
 */
function unitCard(view, all, unit, mine, ctx) {
  const game = view.game;
  const key = `unit:${unit.id}`;
  const press = ctx.pressFor(key);
  const targeted = ctx.targets.has(key);
  const name = all.get(unit.id)?.name || unit.name;
  const doing = unit.doing;
  const intent = unit.down
    ? h("p", { class: "intent down", text: "✖ Knocked out" })
    : doing
      ? h(
          "p",
          { class: "intent" },
          h("strong", { text: `${doing.state === "queued" ? "Begins" : "Doing"} ${skill(view, doing.skill).name}` }),
          ` → ${listWords(doing.targets.map((/** @type {string} */ t) => unitWords(view, all, t)))} · ${plural(doing.ticks_left, "tick")} left of ${doing.ticks}`,
          h("span", { class: "tick-pips", "aria-hidden": "true", text: ` ${"●".repeat(Math.max(0, doing.ticks - doing.ticks_left))}${"○".repeat(Math.max(0, doing.ticks_left))}` }),
        )
      : h("p", { class: "intent idle muted", text: game.phase === "fighting" || game.phase === "paused" ? "Idle" : "Ready" });
  const next = unit.next && !unit.down
    ? h("p", { class: "next muted small", text: `Then: ${skill(view, unit.next.skill).name} → ${listWords(unit.next.targets.map((/** @type {string} */ t) => unitWords(view, all, t)))}` })
    : null;
  // A "busy" line of an idle unit is about an action that has since landed: not shown.
  const stale = !doing && unit.why && unit.why.length === 1 && /^busy/.test(unit.why[0]);
  const why = unit.why && unit.why.length && !unit.down && !stale && game.phase !== "planning"
    ? h("div", { class: "why-lines" }, h("span", { class: "why-title", text: "Why: " }), h("ul", {}, unit.why.map((/** @type {string} */ line) => h("li", { text: whyWords(view, all, line) }))))
    : null;
  const statuses = unit.statuses.length
    ? h(
        "div",
        { class: "effects" },
        unit.statuses.map((/** @type {any} */ s) => {
          const known = STATUSES[/** @type {keyof typeof STATUSES} */ (s.status)];
          return effect(known ? `${known[2] === "bad" ? "▼" : "▲"} ${known[0]}` : s.status, s.ticks ? plural(s.ticks, "tick") : "until its next attack", known ? known[2] : "", known ? `${known[0]}: ${known[1]}` : "");
        }),
      )
    : null;
  const body = [
    bar(unit.hp, unit.max_hp),
    unit.shield ? h("p", { class: "shield small", text: `🛡 Shield ${unit.shield}` }) : null,
    statuses,
    intent,
    next,
    why,
    mine && ctx && (game.phase === "planning" || game.phase === "paused") ? program(view, unit, ctx) : null,
    mine && game.phase !== "planning" && game.phase !== "paused" && Array.isArray(unit.rules)
      ? disclosure(ctx.ui, `rules:${unit.id}`, "Its rules", h("ol", {}, unit.rules.map((/** @type {any} */ r) => h("li", { text: r ? ruleWords(view, r) : "empty" }))))
      : null,
    !mine && !Array.isArray(unit.rules) ? h("p", { class: "muted small", text: "Its rules stay hidden until the fight starts." }) : null,
    !mine && Array.isArray(unit.rules) && game.mode === "pve" && game.phase === "planning"
      ? h("div", { class: "program" }, h("h5", { text: "Its rules" }), h("ol", { class: "rules" }, unit.rules.filter(Boolean).map((/** @type {any} */ r, /** @type {number} */ i) => h("li", { class: "rule" }, h("span", { class: "rule-slot", text: `${i + 1}.` }), h("span", { class: "rule-text", text: ruleWords(view, r) })))))
      : null,
    !mine && Array.isArray(unit.rules) && game.phase !== "planning"
      ? disclosure(ctx.ui, `rules:${unit.id}`, "Its rules", h("ol", {}, unit.rules.map((/** @type {any} */ r) => h("li", { text: r ? ruleWords(view, r) : "empty" }))))
      : null,
    disclosure(
      ctx.ui,
      `skills:${unit.id}`,
      `Knows: ${unit.skills.map((/** @type {string} */ s) => skill(view, s).name).join(", ")}`,
      h(
        "ul",
        {},
        unit.skills.map((/** @type {string} */ s) => {
          const known = skill(view, s);
          return h("li", {}, h("strong", { text: known.name }), ` (${plural(known.ticks, "tick")}): ${known.text}`);
        }),
      ),
    ),
  ];
  return h(
    press ? "button" : "article",
    {
      type: press ? "button" : null,
      class: `unit${unit.down ? " down" : ""}${doing ? " busy" : ""}${targeted ? " targeted" : ""}${press ? " pressable" : ""}`,
      dataset: { key, unit: unit.id },
      "aria-label": `${name}${unit.down ? ", knocked out" : `, ${unit.hp} of ${unit.max_hp} HP`}`,
      on: press ? { click: press } : {},
    },
    h("header", { class: "unit-head" }, h("h4", { text: name }), unit.down ? tag("✖ down", "bad") : null, targeted ? tag("◎ choose", "target") : null),
    press ? body.slice(0, 4) : body,
  );
}

/**
 * Draws the board for `view` into `root`.
 * @param {HTMLElement} root
 * @param {View} view
 * @param {BoardCtx} ctx
 */
export function render(root, view, ctx) {
  const game = view.game;
  if (!game || !Array.isArray(game.teams)) {
    root.replaceChildren();
    return;
  }
  const all = units(view);
  const mine = myTeam(view);
  const order = mine === 1 ? [1, 0] : [0, 1];
  const teams = order.map((t) => {
    const team = game.teams[t];
    const isMine = view.seat !== null && t === view.seat;
    const standing = team.units.filter((/** @type {any} */ u) => !u.down).length;
    const teamName = game.mode === "pvp" ? (t === view.seat ? `Your party (${seatName(view, t)})` : `${seatName(view, t)}'s party`) : t === 0 ? (view.seat === 0 ? "Your party" : "The party") : "Enemies";
    const tags = [tag(`${standing} of ${team.units.length} standing`, standing ? "" : "bad")];
    if (game.mode === "pvp" && game.phase === "planning") {
      tags.push(game.ready[t] ? tag("✔ ready", "good") : tag("programming…", ""));
    }
    return sidePanel(
      { title: teamName, tags, mine: isMine, key: `team:${t}`, look: "team" },
      h("div", { class: "units" }, team.units.map((/** @type {any} */ u) => unitCard(view, all, u, isMine, ctx))),
    );
  });
  const offering = game.offering && game.offering.length
    ? area(
        "Skills on offer",
        h(
          "div",
          { class: "hand" },
          game.offering.map((/** @type {any} */ s) => cardFace({ name: s.name, kind: `${plural(s.ticks, "tick")} to land`, text: s.text, key: `offer:${s.id}`, look: "item" })),
        ),
      )
    : null;
  const pace = game.tick_ms ? ` · a tick every ${(game.tick_ms / 1000).toFixed(game.tick_ms % 1000 ? 2 : 0)} s` : "";
  fill(
    root,
    h(
      "p",
      { class: "board-line" },
      h("strong", { text: game.mode === "pve" ? `Encounter ${game.encounter} of ${game.encounters}` : "Duel" }),
      ` · ${situation(view).split(" · ").slice(1).join(" · ")}`,
      game.phase === "fighting" ? pace : "",
      game.mode === "pvp" && game.phase === "planning" && view.seat !== null ? ` · ${who(view, 1 - view.seat, true)} cannot see your rules until the fight starts` : "",
    ),
    offering,
    h("div", { class: "sides two teams" }, teams),
  );
}
