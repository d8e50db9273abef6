// Small DOM helpers shared by the battle page's modules: `h` builds an element with its
// attributes, listeners and children in one call; `clear` and `fill` empty or refill one;
// `redraw` redraws a part of the page only where it changed, without losing the keyboard's
// place in it.

/** @typedef {import("./types").Children} Children */

/**
 * Builds an element. `props` keys: `class`, `text`, `dataset` (an object), `on` (event
 * name to listener), anything else as an attribute (`true` sets it bare, `false`, `null` and
 * `undefined` leave it out). Children are nodes, strings, or arrays of them; `null` and
 * `false` children are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {{[key: string]: any}} [props]
 * @param {...Children} children
 * @returns {HTMLElementTagNameMap[K]}
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
      element.textContent = String(value);
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
    } else if (key === "value" || key === "checked" || key === "selected" || key === "disabled") {
      /** @type {any} */ (element)[key] = value;
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} element
 * @param {Children[]} children
 */
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

/**
 * Removes every child of `element` and returns it.
 * @template {Element} E
 * @param {E} element
 * @returns {E}
 */
export function clear(element) {
  element.replaceChildren();
  return element;
}

/**
 * Replaces the children of `element` with `children`.
 * @template {Element} E
 * @param {E} element
 * @param {...Children} children
 * @returns {E}
 */
export function fill(element, ...children) {
  clear(element);
  append(element, children);
  return element;
}

/**
 * Redraws what `root` holds: `draw(into)` builds the new content into a fresh element, which
 * replaces `root`'s only when it differs (so a button is never swapped for its twin under a
 * pointer, which would lose the click: a fight redraws several times a second). After a
 * change the keyboard focus goes back to the element with the same `data-key`, if it was
 * inside `root` before (a patch never throws a keyboard player back to the top of the page).
 * @param {HTMLElement} root
 * @param {(into: HTMLElement) => void} draw
 */
export function redraw(root, draw) {
  const fresh = document.createElement(root.tagName);
  draw(fresh);
  if (fresh.innerHTML === root.innerHTML) {
    return;
  }
  const active = document.activeElement;
  const key = active instanceof HTMLElement && root.contains(active) ? active.dataset.key : undefined;
  root.replaceChildren(...fresh.childNodes);
  if (key !== undefined) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again instanceof HTMLElement && !again.hasAttribute("disabled")) {
      again.focus({ preventScroll: true });
    }
  }
}
