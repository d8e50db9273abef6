// Filling an open legal entry: the parts of an action written as {"$choose": <JSON Schema>}
// become form fields (a select for const/enum/anyOf, a number input within the bounds for an
// integer, checkboxes for an array of choices, a fieldset per object, or else a JSON text
// field holding a valid guess), and reading the form gives the whole action to send. Only the
// small schema subset the protocol uses is understood; `check` tests a value against it.

import { h } from "./dom.js";

/** A JSON Schema of the subset the protocol uses. @typedef {{[key: string]: any}} Schema */
/** A form field for a schema: its element and how to read its value. @typedef {{element: HTMLElement, read: () => any}} Field */

/**
 * @param {unknown} value
 * @returns {value is {[key: string]: any}}
 */
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** True when `entry` holds a `$choose` anywhere (an open entry), false for a whole action. */
/**
 * @param {unknown} entry
 * @returns {boolean}
 */
export function isOpen(entry) {
  if (Array.isArray(entry)) {
    return entry.some(isOpen);
  }
  if (!isObject(entry)) {
    return false;
  }
  return "$choose" in entry || Object.values(entry).some(isOpen);
}

/** Every value a schema admits, when they are few and listed (const, enum, null, anyOf). */
/**
 * @param {unknown} schema
 * @returns {any[] | null}
 */
export function choices(schema) {
  if (!isObject(schema)) {
    return null;
  }
  if ("const" in schema) {
    return [schema.const];
  }
  if (Array.isArray(schema.enum)) {
    return schema.enum;
  }
  if (schema.type === "null") {
    return [null];
  }
  if (schema.type === "boolean") {
    return [false, true];
  }
  if (Array.isArray(schema.anyOf)) {
    const all = [];
    for (const branch of schema.anyOf) {
      const some = choices(branch);
      if (some === null) {
        return null;
      }
      all.push(...some);
    }
    return all;
  }
  return null;
}

/** A value `schema` admits, as good a guess as the schema allows. */
/**
 * @param {unknown} schema
 * @returns {any}
 */
export function guess(schema) {
  if (!isObject(schema)) {
    return null;
  }
  const listed = choices(schema);
  if (listed !== null) {
    return listed.length ? listed[0] : null;
  }
  if (Array.isArray(schema.anyOf) && schema.anyOf.length) {
    return guess(schema.anyOf[0]);
  }
  switch (schema.type) {
    case "integer":
    case "number": {
      const low = typeof schema.minimum === "number" ? schema.minimum : 0;
      return typeof schema.maximum === "number" ? Math.min(low, schema.maximum) : low;
    }
    case "string":
      return "";
    case "array": {
      const min = schema.minItems || 0;
      const options = choices(schema.items);
      if (options !== null && schema.uniqueItems) {
        return options.slice(0, min);
      }
      return Array.from({ length: min }, () => guess(schema.items));
    }
    case "object": {
      /** @type {{[key: string]: any}} */
      const out = {};
      for (const [key, sub] of Object.entries(schema.properties || {})) {
        out[key] = guess(sub);
      }
      return out;
    }
    default:
      return null;
  }
}

/**
 * @param {unknown} a
 * @param {unknown} b
 */
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Why `value` does not fit `schema`, or null when it does. */
/**
 * @param {unknown} schema
 * @param {any} value
 * @param {string} [where]
 * @returns {string | null}
 */
export function check(schema, value, where = "the value") {
  if (!isObject(schema)) {
    return null;
  }
  if ("const" in schema && !same(schema.const, value)) {
    return `${where} must be ${JSON.stringify(schema.const)}`;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((/** @type {unknown} */ v) => same(v, value))) {
    return `${where} must be one of ${schema.enum.map((/** @type {unknown} */ v) => JSON.stringify(v)).join(", ")}`;
  }
  if (Array.isArray(schema.anyOf)) {
    if (!schema.anyOf.some((/** @type {unknown} */ branch) => check(branch, value, where) === null)) {
      return `${where} fits none of the allowed forms`;
    }
  }
  switch (schema.type) {
    case "null":
      return value === null ? null : `${where} must be null`;
    case "boolean":
      return typeof value === "boolean" ? null : `${where} must be true or false`;
    case "string":
      return typeof value === "string" ? null : `${where} must be text`;
    case "integer":
    case "number":
      if (typeof value !== "number" || (schema.type === "integer" && !Number.isInteger(value))) {
        return `${where} must be ${schema.type === "integer" ? "a whole number" : "a number"}`;
      }
      if (typeof schema.minimum === "number" && value < schema.minimum) {
        return `${where} must be at least ${schema.minimum}`;
      }
      if (typeof schema.maximum === "number" && value > schema.maximum) {
        return `${where} must be at most ${schema.maximum}`;
      }
      return null;
    case "array":
      return checkArray(schema, value, where);
    case "object":
      return checkObject(schema, value, where);
    default:
      return null;
  }
}

/**
 * @param {Schema} schema
 * @param {any} value
 * @param {string} where
 * @returns {string | null}
 */
function checkArray(schema, value, where) {
  if (!Array.isArray(value)) {
    return `${where} must be a list`;
  }
  if (typeof schema.minItems === "number" && value.length < schema.minItems) {
    return `${where}: choose at least ${schema.minItems}`;
  }
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
    return `${where}: choose at most ${schema.maxItems}`;
  }
  if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) {
    return `${where}: each item at most once`;
  }
  for (const [i, item] of value.entries()) {
    const why = check(schema.items, item, `${where}[${i}]`);
    if (why) {
      return why;
    }
  }
  return null;
}

/**
 * @param {Schema} schema
 * @param {any} value
 * @param {string} where
 * @returns {string | null}
 */
function checkObject(schema, value, where) {
  if (!isObject(value)) {
    return `${where} must be an object`;
  }
  for (const key of schema.required || []) {
    if (!(key in value)) {
      return `${where} needs "${key}"`;
    }
  }
  for (const [key, item] of Object.entries(value)) {
    const sub = (schema.properties || {})[key];
    if (sub === undefined && schema.additionalProperties === false) {
      return `${where} may not have "${key}"`;
    }
    const why = check(sub, item, `${where}.${key}`);
    if (why) {
      return why;
    }
  }
  return null;
}

/** How a listed value reads in a select or beside a checkbox. */
/**
 * @param {unknown} value
 */
export function choiceLabel(value) {
  if (value === null) {
    return "none";
  }
  return typeof value === "string" ? value.replaceAll("_", " ") : JSON.stringify(value);
}

let fieldCount = 0;

/** A field for `schema` named `name`: `{element, read()}`; read() throws a sentence. */
/**
 * @param {Schema} schema
 * @param {string} name
 * @returns {Field}
 */
function field(schema, name) {
  const id = `choose-${++fieldCount}`;
  const listed = choices(schema);
  const label = h("label", { for: id, text: name });
  if (listed !== null) {
    const select = h(
      "select",
      { id, name, dataset: { choose: "select" } },
      listed.map((value, i) => h("option", { value: String(i), text: choiceLabel(value) })),
    );
    return { element: h("div", { class: "field" }, label, select), read: () => listed[select.selectedIndex] };
  }
  if (schema.type === "integer") {
    const input = h("input", {
      id,
      name,
      type: "number",
      step: 1,
      min: schema.minimum,
      max: schema.maximum,
      value: String(guess(schema)),
      dataset: { choose: "integer" },
    });
    return {
      element: h("div", { class: "field" }, label, input),
      read: () => {
        const value = Number(input.value);
        const why = input.value.trim() === "" ? `${name}: a number is needed` : check(schema, value, name);
        if (why) {
          throw new Error(why);
        }
        return value;
      },
    };
  }
  const items = schema.type === "array" && schema.uniqueItems ? choices(schema.items) : null;
  if (items !== null) {
    return checkboxes(schema, name, items);
  }
  if (schema.type === "object" && isObject(schema.properties)) {
    /** @type {[string, Field][]} */
    const parts = Object.entries(schema.properties).map(([key, sub]) => [key, field(sub, key)]);
    return {
      element: h("fieldset", { class: "field" }, h("legend", { text: name }), parts.map(([, f]) => f.element)),
      read: () => Object.fromEntries(parts.map(([key, f]) => [key, f.read()])),
    };
  }
  return jsonField(schema, name, id, label);
}

/**
 * @param {Schema} schema
 * @param {string} name
 * @param {any[]} items
 * @returns {Field}
 */
function checkboxes(schema, name, items) {
  const min = schema.minItems || 0;
  const bounds =
    schema.maxItems !== undefined ? `${min} to ${schema.maxItems}` : `at least ${min}`;
  const boxes = items.map((value, i) =>
    h("input", { type: "checkbox", value: String(i), checked: i < min, dataset: { choose: "item" } }),
  );
  const element = h(
    "fieldset",
    { class: "field checks", dataset: { choose: "array" } },
    h("legend", { text: `${name} (choose ${bounds})` }),
    boxes.map((box, i) => h("label", { class: "check" }, box, ` ${choiceLabel(items[i])}`)),
  );
  return {
    element,
    read: () => {
      const value = items.filter((_, i) => boxes[i].checked);
      const why = check(schema, value, name);
      if (why) {
        throw new Error(why);
      }
      return value;
    },
  };
}

/**
 * @param {Schema} schema
 * @param {string} name
 * @param {string} id
 * @param {HTMLElement} label
 * @returns {Field}
 */
function jsonField(schema, name, id, label) {
  const input = h("input", {
    id,
    name,
    class: "json",
    type: "text",
    value: JSON.stringify(guess(schema)),
    dataset: { choose: "json" },
  });
  return {
    element: h("div", { class: "field" }, label, input),
    read: () => {
      let value;
      try {
        value = JSON.parse(input.value);
      } catch {
        throw new Error(`${name}: not valid JSON`);
      }
      const why = check(schema, value, name);
      if (why) {
        throw new Error(why);
      }
      return value;
    },
  };
}

/**
 * The form parts for an open entry: `fields` (elements, one per `$choose`, in the entry's
 * order) and `read()`, which gives the whole action or throws an Error saying what is wrong.
 * @param {any} entry
 * @returns {{fields: HTMLElement[], read: () => any}}
 */
export function openForm(entry) {
  /** @type {HTMLElement[]} */
  const fields = [];
  /**
   * @param {any} value
   * @param {string} name
   * @returns {() => any}
   */
  const build = (value, name) => {
    if (Array.isArray(value)) {
      const parts = value.map((item, i) => build(item, `${name}[${i}]`));
      return () => parts.map((read) => read());
    }
    if (!isObject(value)) {
      return () => value;
    }
    if ("$choose" in value) {
      const f = field(value.$choose, name);
      fields.push(f.element);
      return f.read;
    }
    /** @type {[string, () => any][]} */
    const members = Object.entries(value).map(([key, item]) => [key, build(item, key)]);
    return () => Object.fromEntries(members.map(([key, read]) => [key, read()]));
  };
  const read = build(entry, "action");
  return { fields, read };
}
