// The list of live battles and the form that starts one. Each battle is a table row keyed by
// its id (`tr[data-battle-id]`), updated in place when a new `battles` page arrives so its
// buttons stay put while the page refreshes: Watch, and "Take seat N" for every free seat.
// The form offers the server's rulesets and samples (from `welcome`), who plays each seat
// (the server's bot, you, or left free for someone else) and the bots' pace.

import { clear, fill, h, seatName, seatWord } from "./dom.js";

/** The pace offered for the server's bots, in milliseconds per move. */
const DEFAULT_PACE_MS = 600;

export class Lobby {
  /**
   * `root` holds `#battles` (a table body), `#battle-count`, `#lobby-message` and
   * `#create-form`; `actions` has `watch(id)`, `take(id, seat)` and `create(request, mySeat)`.
   */
  constructor(root, actions) {
    this.root = root;
    this.actions = actions;
    this.rows = new Map();
    this.rulesets = [];
    this.body = root.querySelector("#battles");
    this.count = root.querySelector("#battle-count");
    this.message = root.querySelector("#lobby-message");
    this.form = root.querySelector("#create-form");
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.form.elements.ruleset.addEventListener("change", () => this.fillSamples());
    this.form.elements.sample.addEventListener("change", () => this.fillSeats());
  }

  /** Shows a sentence above the list (an error, or nothing with ""). */
  say(text, kind = "error") {
    this.message.textContent = text;
    this.message.dataset.kind = kind;
    this.message.hidden = text === "";
  }

  /** Shows one `battles` page: rows added, changed in place, or removed. */
  update(page) {
    const battles = page.battles || [];
    const seen = new Set();
    let previous = null;
    for (const battle of battles) {
      seen.add(battle.battle_id);
      const signature = JSON.stringify(battle);
      let entry = this.rows.get(battle.battle_id);
      if (!entry) {
        entry = { row: h("tr", { dataset: { battleId: battle.battle_id } }), signature: "" };
        this.rows.set(battle.battle_id, entry);
      }
      if (entry.signature !== signature) {
        entry.signature = signature;
        this.drawRow(entry.row, battle);
      }
      // Keep the server's order (oldest first) without moving rows that are in place.
      const wanted = previous ? previous.nextSibling : this.body.firstChild;
      if (wanted !== entry.row) {
        this.body.insertBefore(entry.row, wanted);
      }
      previous = entry.row;
    }
    for (const [id, entry] of this.rows) {
      if (!seen.has(id)) {
        entry.row.remove();
        this.rows.delete(id);
      }
    }
    const total = page.total ?? battles.length;
    this.count.textContent =
      total === battles.length ? `${total} live` : `${battles.length} of ${total} live shown`;
    this.root.querySelector("#no-battles").hidden = battles.length > 0;
  }

  drawRow(row, battle) {
    const words = battle.seats.map(seatWord);
    row.dataset.status = battle.status;
    row.dataset.ruleset = battle.ruleset;
    row.dataset.seats = words.join(",");
    row.dataset.allBots = String(words.every((w) => w === "bot"));
    row.dataset.freeSeats = battle.seats.filter((s) => !s.taken).map((s) => s.seat).join(",");
    const seats = battle.seats.map((seat, i) =>
      h("span", { class: `seat-chip seat-${words[i]}`, text: `${seat.seat}: ${words[i]}` }),
    );
    const take = battle.seats
      .filter((seat) => !seat.taken && !seat.bot)
      .map((seat) =>
        h("button", {
          type: "button",
          class: "take",
          dataset: { action: "take", seat: seat.seat },
          text: `Take seat ${seat.seat}`,
          on: { click: () => this.actions.take(battle.battle_id, seat.seat) },
        }),
      );
    fill(
      row,
      h("td", {}, h("code", { text: battle.battle_id })),
      h("td", { text: battle.ruleset }),
      h("td", {}, h("span", { class: `status status-${battle.status}`, text: battle.status }),
        battle.seeded ? h("span", { class: "seeded", title: "created with a known seed", text: " seeded" }) : null),
      h("td", { class: "seats" }, seats),
      h("td", { class: "num", text: String(battle.spectators) }),
      h(
        "td",
        {},
        h("div", { class: "actions" }, h("button", {
          type: "button",
          dataset: { action: "watch" },
          text: "Watch",
          on: { click: () => this.actions.watch(battle.battle_id) },
        }), take),
      ),
    );
  }

  /** The rulesets from `welcome`: fills the form's choices. */
  setRulesets(rulesets) {
    this.rulesets = rulesets || [];
    const select = this.form.elements.ruleset;
    const kept = select.value;
    fill(select, this.rulesets.map((r) => h("option", { value: r.id, text: r.id })));
    if (this.rulesets.some((r) => r.id === kept)) {
      select.value = kept;
    }
    this.form.querySelector("button[type=submit]").disabled = this.rulesets.length === 0;
    this.fillSamples();
  }

  ruleset() {
    return this.rulesets.find((r) => r.id === this.form.elements.ruleset.value);
  }

  sample() {
    const ruleset = this.ruleset();
    return ruleset ? ruleset.samples[this.form.elements.sample.selectedIndex] : undefined;
  }

  fillSamples() {
    const ruleset = this.ruleset();
    const samples = ruleset ? ruleset.samples : [];
    fill(
      this.form.elements.sample,
      samples.map((s, i) => h("option", { value: String(i), text: `${s.name}: ${s.about}` })),
    );
    this.form.querySelector("#ruleset-summary").textContent = ruleset ? ruleset.summary : "";
    this.fillSeats();
  }

  /** One choice per seat: the server's bot (the default), you, or free for someone else. */
  fillSeats() {
    const box = clear(this.form.querySelector("#create-seats"));
    const sample = this.sample();
    if (!sample) {
      return;
    }
    const engine = new Set(sample.engine_seats || []);
    for (let seat = 0; seat < sample.seats; seat += 1) {
      if (engine.has(seat)) {
        box.append(h("span", { class: "seat-pick" }, `${seatName(seat)}: the game's own engine`));
        continue;
      }
      const select = h(
        "select",
        { name: `seat-${seat}`, dataset: { seat } },
        h("option", { value: "bot", text: "server bot" }),
        h("option", { value: "me", text: "me" }),
        h("option", { value: "free", text: "free (someone else)" }),
      );
      box.append(h("label", { class: "seat-pick" }, `${seatName(seat)}: `, select));
    }
  }

  submit() {
    const ruleset = this.ruleset();
    const sample = this.sample();
    if (!ruleset || !sample) {
      this.say("The server has not said which games it offers yet.");
      return;
    }
    const picks = [...this.form.querySelectorAll("#create-seats select")].map((select) => ({
      seat: Number(select.dataset.seat),
      who: select.value,
    }));
    const mine = picks.filter((p) => p.who === "me");
    if (mine.length > 1) {
      this.say("You can take only one seat of a battle.");
      return;
    }
    const pace = Number(this.form.elements.pace.value);
    if (!Number.isInteger(pace) || pace < 0) {
      this.say("The pace is a whole number of milliseconds, 0 or more.");
      return;
    }
    this.say("");
    const request = {
      type: "create",
      ruleset: ruleset.id,
      options: sample.options,
      bots: picks.filter((p) => p.who === "bot").map((p) => p.seat),
      pace_ms: pace,
    };
    this.actions.create(request, mine.length ? mine[0].seat : null);
  }
}

export { DEFAULT_PACE_MS };
