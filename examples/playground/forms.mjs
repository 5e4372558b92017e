// @ts-check
// Form fields built from the JSON Schema of commands (schemas/command.json):
// every host report gets a form without hand-written code per report. Enum
// ids show the engine's printed names (board data). `field(schema)` returns
// the input node and a `read()` that gives the JSON value.

/**
 * @typedef {{ node: HTMLElement, read: () => unknown }} Field
 * @typedef {{ defs: Record<string, any>, names: Map<string, string>, defaults: Record<string, unknown> }} Context
 */

/**
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {string} [text]
 */
export function h(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Follow references to the schema that says what a value is: a `$ref`, and
 * the one-element `allOf: [{ $ref }]` the schemas use to give a referenced
 * type a description of its own (e.g. `entrant`: "Who arrives.").
 * @param {any} schema @param {Context} cx
 */
function resolve(schema, cx) {
  let s = schema;
  for (;;) {
    if (s && typeof s.$ref === "string") s = cx.defs[s.$ref.replace("#/$defs/", "")];
    else if (s && Array.isArray(s.allOf) && s.allOf.length === 1) s = s.allOf[0];
    else break;
  }
  return s ?? {};
}

/** @param {any} s */
const isEnum = (s) => Array.isArray(s.oneOf) && s.oneOf.every((/** @type {any} */ o) => o.const !== undefined);
/** @param {any} s */
const isUnion = (s) => Array.isArray(s.oneOf) && s.oneOf.every((/** @type {any} */ o) => o.properties?.kind?.const);

/**
 * A labelled field for one property.
 * @param {string} name
 * @param {any} schema
 * @param {Context} cx
 * @returns {Field}
 */
export function field(name, schema, cx) {
  const s = resolve(schema, cx);
  const label = h("label", { class: "field" });
  label.append(h("span", {}, name));
  const inner = input(name, s, schema, cx);
  label.append(inner.node);
  if (schema.description) label.title = schema.description;
  return { node: label, read: inner.read };
}

/**
 * @param {string} name
 * @param {any} s resolved schema
 * @param {any} raw the property schema (for `default`)
 * @param {Context} cx
 * @returns {Field}
 */
function input(name, s, raw, cx) {
  if (Array.isArray(s.oneOf)) s = { ...s, oneOf: s.oneOf.map((/** @type {any} */ o) => resolve(o, cx)) };
  if (Array.isArray(raw.anyOf) || Array.isArray(s.anyOf)) {
    const options = (raw.anyOf ?? s.anyOf).filter((/** @type {any} */ o) => o.type !== "null");
    const box = h("span");
    const on = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", "data-field": `${name}?` }));
    const inner = input(name, resolve(options[0], cx), options[0], cx);
    box.append(on, inner.node);
    return { node: box, read: () => (on.checked ? inner.read() : null) };
  }
  if (isEnum(s)) {
    const select = /** @type {HTMLSelectElement} */ (h("select", { "data-field": name }));
    for (const o of s.oneOf) {
      select.append(h("option", { value: String(o.const) }, cx.names.get(String(o.const)) ?? String(o.const)));
    }
    const fallback = cx.defaults[name];
    if (typeof fallback === "string") select.value = fallback;
    return { node: select, read: () => select.value };
  }
  if (isUnion(s)) {
    return union(name, s, cx);
  }
  if (s.type === "boolean") {
    const box = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", "data-field": name }));
    box.checked = raw.default === true;
    return { node: box, read: () => box.checked };
  }
  if (s.type === "integer") {
    const fallback = cx.defaults[name] ?? raw.default ?? 0;
    const number = /** @type {HTMLInputElement} */ (
      h("input", { type: "number", min: String(s.minimum ?? 0), value: String(fallback), "data-field": name })
    );
    if (s.maximum !== undefined) number.max = String(s.maximum);
    return { node: number, read: () => Number(number.value) };
  }
  if (s.type === "array") {
    const item = resolve(s.items, cx);
    const text = /** @type {HTMLInputElement} */ (
      h("input", {
        type: "text",
        "data-field": name,
        placeholder: item.type === "object" || isUnion(item) ? "JSON array" : "comma-separated",
      })
    );
    return {
      node: text,
      read: () => {
        if (item.type === "object") return text.value.trim() === "" ? [] : JSON.parse(text.value);
        return text.value
          .split(",")
          .map((v) => v.trim())
          .filter((v) => v !== "")
          .map((v) => (item.type === "integer" ? Number(v) : v));
      },
    };
  }
  if (s.type === "object") {
    const box = h("span", { class: "nested" });
    const fields = Object.entries(s.properties ?? {}).map(([k, p]) => [k, field(k, p, cx)]);
    fields.forEach(([, f]) => box.append(/** @type {Field} */ (f).node));
    return {
      node: box,
      read: () => Object.fromEntries(fields.map(([k, f]) => [k, /** @type {Field} */ (f).read()])),
    };
  }
  const text = /** @type {HTMLInputElement} */ (h("input", { type: "text", "data-field": name }));
  return { node: text, read: () => text.value };
}

/**
 * A kind-tagged union (Origin, LeaderCustody …): a kind select and the
 * fields of the chosen variant.
 * @param {string} name
 * @param {any} s
 * @param {Context} cx
 * @returns {Field}
 */
function union(name, s, cx) {
  const box = h("span", { class: "union" });
  const select = /** @type {HTMLSelectElement} */ (h("select", { "data-field": `${name}.kind` }));
  for (const o of s.oneOf) select.append(h("option", { value: o.properties.kind.const }, o.properties.kind.const));
  const body = h("span", { class: "nested" });
  /** @type {[string, Field][]} */
  let fields = [];
  const show = () => {
    const variant = s.oneOf.find((/** @type {any} */ o) => o.properties.kind.const === select.value);
    body.replaceChildren();
    fields = Object.entries(variant?.properties ?? {})
      .filter(([k]) => k !== "kind")
      .map(([k, p]) => [k, field(`${name}.${k}`, p, cx)]);
    fields.forEach(([, f]) => body.append(f.node));
  };
  select.addEventListener("change", show);
  show();
  box.append(select, body);
  return {
    node: box,
    read: () => ({ kind: select.value, ...Object.fromEntries(fields.map(([k, f]) => [k.split(".").pop() ?? k, f.read()])) }),
  };
}

/**
 * The form of one action variant: its fields, and `read()` → the action.
 * @param {any} variant
 * @param {Context} cx
 * @returns {Field}
 */
export function actionForm(variant, cx) {
  const kind = variant.properties.kind.const;
  const box = h("div", { class: "action-form", "data-kind": kind });
  const fields = Object.entries(variant.properties)
    .filter(([k]) => k !== "kind")
    .map(([k, p]) => /** @type {[string, Field]} */ ([k, field(k, p, cx)]));
  fields.forEach(([, f]) => box.append(f.node));
  if (variant.description) box.prepend(h("p", { class: "hint" }, variant.description.split("\n").join(" ")));
  return { node: box, read: () => ({ kind, ...Object.fromEntries(fields.map(([k, f]) => [k, f.read()])) }) };
}
