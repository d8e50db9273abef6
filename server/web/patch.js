// JSON Patch (RFC 6902) for the battle page: applies a patch's operations (add, remove,
// replace, move, copy, test) to a copy of a JSON document, with JSON Pointer paths (RFC 6901:
// `~1` is `/`, `~0` is `~`, `-` is the end of an array). The first operation that cannot be
// applied throws a PatchError and the document passed in is left as it was, so the page can
// ask the server for a fresh snapshot instead.

/** Why a patch could not be applied. `index` is the failing operation's place in the patch. */
export class PatchError extends Error {
  /**
   * @param {string} message
   * @param {number | null} [index]
   */
  constructor(message, index = null) {
    super(index === null ? message : `operation ${index}: ${message}`);
    this.name = "PatchError";
    this.index = index;
  }
}

/** @typedef {{[key: string]: any}} JsonObject */

/**
 * @param {object} object
 * @param {string} key
 */
const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

/**
 * @param {unknown} value
 * @returns {value is JsonObject}
 */
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A JSON Pointer as its unescaped reference tokens (`""` is the whole document).
 * @param {unknown} pointer
 * @returns {string[]}
 */
export function parsePointer(pointer) {
  if (typeof pointer !== "string") {
    throw new PatchError(`a path must be a string, not ${JSON.stringify(pointer)}`);
  }
  if (pointer === "") {
    return [];
  }
  if (!pointer.startsWith("/")) {
    throw new PatchError(`the path "${pointer}" does not start with "/"`);
  }
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~(?![01])/.test(token)) {
        throw new PatchError(`the path "${pointer}" has a "~" not followed by 0 or 1`);
      }
      // RFC 6901: "~1" first, then "~0", so that "~01" reads as "~1".
      return token.replaceAll("~1", "/").replaceAll("~0", "~");
    });
}

/**
 * Writes `tokens` back as a JSON Pointer (the inverse of parsePointer).
 * @param {(string | number)[]} tokens
 */
export function formatPointer(tokens) {
  return tokens.map((t) => "/" + String(t).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

/**
 * An array index token: digits without leading zeros, below `limit` (inclusive when `end`).
 * @param {any[]} array
 * @param {string} token
 * @param {{end: boolean}} options
 */
function arrayIndex(array, token, { end }) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) {
    throw new PatchError(`"${token}" is not an array index`);
  }
  const index = Number(token);
  if (index > array.length || (!end && index === array.length)) {
    throw new PatchError(`index ${index} is out of bounds (length ${array.length})`);
  }
  return index;
}

/**
 * Sets an object member as an own, plain property, whatever its name (`__proto__` too).
 * @param {JsonObject} object
 * @param {string} key
 * @param {any} value
 */
function setMember(object, key, value) {
  Object.defineProperty(object, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/**
 * The value at `tokens`, which must exist.
 * @param {any} doc
 * @param {string[]} tokens
 * @returns {any}
 */
function valueAt(doc, tokens) {
  let node = doc;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      node = node[arrayIndex(node, token, { end: false })];
    } else if (isObject(node) && hasOwn(node, token)) {
      node = node[token];
    } else {
      throw new PatchError(`nothing at "${formatPointer(tokens)}"`);
    }
  }
  return node;
}

/**
 * The container that holds the last token of `tokens`, and that token.
 * @param {any} doc
 * @param {string[]} tokens
 * @returns {{parent: any, key: string}}
 */
function parentOf(doc, tokens) {
  const parent = valueAt(doc, tokens.slice(0, -1));
  if (!Array.isArray(parent) && !isObject(parent)) {
    throw new PatchError(`the parent of "${formatPointer(tokens)}" is not an object or array`);
  }
  return { parent, key: tokens[tokens.length - 1] };
}

/**
 * Adds `value` at `tokens`; returns the (possibly new) document.
 * @param {any} doc
 * @param {string[]} tokens
 * @param {any} value
 * @returns {any}
 */
function add(doc, tokens, value) {
  if (tokens.length === 0) {
    return value;
  }
  const { parent, key } = parentOf(doc, tokens);
  if (Array.isArray(parent)) {
    const index = key === "-" ? parent.length : arrayIndex(parent, key, { end: true });
    parent.splice(index, 0, value);
  } else {
    setMember(parent, key, value);
  }
  return doc;
}

/**
 * Removes the value at `tokens` and returns it.
 * @param {any} doc
 * @param {string[]} tokens
 * @returns {any}
 */
function remove(doc, tokens) {
  if (tokens.length === 0) {
    throw new PatchError("the whole document cannot be removed");
  }
  const { parent, key } = parentOf(doc, tokens);
  if (Array.isArray(parent)) {
    return parent.splice(arrayIndex(parent, key, { end: false }), 1)[0];
  }
  if (!hasOwn(parent, key)) {
    throw new PatchError(`nothing to remove at "${formatPointer(tokens)}"`);
  }
  const removed = parent[key];
  delete parent[key];
  return removed;
}

/**
 * Replaces the existing value at `tokens`; returns the (possibly new) document.
 * @param {any} doc
 * @param {string[]} tokens
 * @param {any} value
 * @returns {any}
 */
function replace(doc, tokens, value) {
  if (tokens.length === 0) {
    return value;
  }
  const { parent, key } = parentOf(doc, tokens);
  if (Array.isArray(parent)) {
    parent[arrayIndex(parent, key, { end: false })] = value;
  } else if (hasOwn(parent, key)) {
    setMember(parent, key, value);
  } else {
    throw new PatchError(`nothing to replace at "${formatPointer(tokens)}"`);
  }
  return doc;
}

/**
 * Structural equality of two JSON values (object member order does not matter).
 * @param {any} a
 * @param {any} b
 * @returns {boolean}
 */
export function jsonEqual(a, b) {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => hasOwn(b, k) && jsonEqual(a[k], b[k]))
    );
  }
  return false;
}

/**
 * A deep copy of a JSON value whose members are all own, plain properties.
 * @param {any} value
 * @returns {any}
 */
function copy(value) {
  if (Array.isArray(value)) {
    return value.map(copy);
  }
  if (isObject(value)) {
    const out = {};
    for (const key of Object.keys(value)) {
      setMember(out, key, copy(value[key]));
    }
    return out;
  }
  return value;
}

/**
 * The member `name` of operation `op`, which must be present.
 * @param {JsonObject} op
 * @param {string} name
 */
function member(op, name) {
  if (!hasOwn(op, name)) {
    throw new PatchError(`"${op.op}" needs "${name}"`);
  }
  return op[name];
}

/**
 * Applies one operation to `doc` (changed in place); returns the (possibly new) document.
 * @param {any} doc
 * @param {any} op
 * @returns {any}
 */
function applyOne(doc, op) {
  if (!isObject(op) || typeof op.op !== "string") {
    throw new PatchError(`not an operation: ${JSON.stringify(op)}`);
  }
  const path = parsePointer(member(op, "path"));
  switch (op.op) {
    case "add":
      return add(doc, path, copy(member(op, "value")));
    case "remove":
      remove(doc, path);
      return doc;
    case "replace":
      return replace(doc, path, copy(member(op, "value")));
    case "move": {
      const fromText = member(op, "from");
      const from = parsePointer(fromText);
      if (fromText === op.path) {
        valueAt(doc, from);
        return doc;
      }
      if (op.path.startsWith(fromText + "/")) {
        throw new PatchError(`"${fromText}" cannot be moved into itself ("${op.path}")`);
      }
      const moved = remove(doc, from);
      return add(doc, path, moved);
    }
    case "copy":
      return add(doc, path, copy(valueAt(doc, parsePointer(member(op, "from")))));
    case "test":
      if (!jsonEqual(valueAt(doc, path), member(op, "value"))) {
        throw new PatchError(`the value at "${op.path}" is not the one tested`);
      }
      return doc;
    default:
      throw new PatchError(`unknown operation "${op.op}"`);
  }
}

/**
 * Applies `ops` (an array of RFC 6902 operations) to a copy of `doc` and returns the copy.
 * Throws PatchError, naming the failing operation, when one cannot be applied; `doc` itself
 * is never changed.
 * @param {any} doc
 * @param {any[]} ops
 * @returns {any}
 */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) {
    throw new PatchError("a patch must be an array of operations");
  }
  let out = copy(doc);
  ops.forEach((op, index) => {
    try {
      out = applyOne(out, op);
    } catch (error) {
      if (error instanceof PatchError && error.index === null) {
        throw new PatchError(error.message, index);
      }
      throw error;
    }
  });
  return out;
}
