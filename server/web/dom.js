// Small DOM helpers shared by the battle page's modules: `h` builds an element with its
// attributes, listeners and children in one call; `clear` empties one; `seatWord` and
// `seatName` put a seat's state and number into words.

/**
 * Builds an element. `props` keys: `class`, `text`, `dataset` (an object), `on` (event
 * name to listener), anything else as an attribute (`true` sets it bare, `false`, `null` and
 * `undefined` leave it out). Children are nodes, strings, or arrays of them; `null` and
 * `false` children are skipped.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (key === "class") {
      element.className = value;
    } else if (key === "text") {
      element.textContent = value;
    } else if (key === "dataset") {
      for (const [name, data] of Object.entries(value)) {
        if (data !== null && data !== undefined) {
          element.dataset[name] = String(data);
        }
      }
    } else if (key === "on") {
      for (const [event, listener] of Object.entries(value)) {
        element.addEventListener(event, listener);
      }
    } else if (key === "value" || key === "checked" || key === "selected") {
      element[key] = value;
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(element, child);
    } else {
      element.append(child instanceof Node ? child : String(child));
    }
  }
}

/** Removes every child of `element` and returns it. */
export function clear(element) {
  element.replaceChildren();
  return element;
}

/** Replaces the children of `element` with `children`. */
export function fill(element, ...children) {
  clear(element);
  append(element, children);
  return element;
}

/** A lobby record's seat (`{taken, bot, connected}`) as the view envelope's word for it. */
export function seatWord(seat) {
  if (seat.bot) {
    return "bot";
  }
  if (!seat.taken) {
    return "free";
  }
  return seat.connected ? "connected" : "away";
}

/** How the page names a seat: "Seat 0". */
export function seatName(seat) {
  return `Seat ${seat}`;
}
