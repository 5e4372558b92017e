// node wasm/tools/wire-schema.mjs SCHEMAS_DIR OUT.json CODES.json OUT-KINDS.ts
// Merges schemas/*.json into one schema whose definitions are every wire type
// once (the documents share their Rust types, so a name means one type), so
// json2ts emits one self-contained file with real names. The state document
// `Game` is named `GameState` (the package's handle class is `Game`).
//
// D-260: the strings the engine checks are typed as the unions it accepts,
// generated here from the schemas (themselves generated from the Rust enums)
// and from the module's own `errorCodes()` (CODES.json, error-codes.mjs), so a
// code or a decision kind added on the Rust side reaches the types at the next
// package build and no list is kept by hand:
// - `FrameKind`: the `kind` of every `Decision` variant (`FrameView.kind`,
//   `decisionOpened.decisionKind`);
// - `EngineErrorCode` (`Blocked.code` and `Refusal.code`, typed so by the
//   schemas' `ErrorCode` enum, D-242; a scenario step's `error`) and
//   `ErrorCode` = it plus the package's own codes (`ErrorReport.code`);
// - maps keyed by a faction or an Ambassador token are keyed by that union;
// - `Command` = `HostCommand | FactionCommand`: host actions only with
//   `actor: "host"`, faction actions only with a faction (D-261).
// OUT-KINDS.ts gets the same lists as runtime constants.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The package's own error codes (api.ts throws them): a trap, a handle from before it, no module yet, a freed handle. */
const PACKAGE_ERROR_CODES = ["internal/panic", "internal/poisoned", "internal/not_loaded", "internal/freed"];

const [dir, out, codesFile, kindsOut] = process.argv.slice(2);
// The schemas' `ErrorCode` (D-242: the engine's codes, `ApplyError::CODES`) is
// the package's `EngineErrorCode`; the package's `ErrorCode` adds its own codes.
const rename = { Game: "GameState", ErrorCode: "EngineErrorCode" };
const renamed = (name) => rename[name] ?? name;
const defs = {};
const roots = {};
for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const schema = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const { $defs = {}, $schema: _, ...root } = schema;
  for (const [name, def] of [...Object.entries($defs), [root.title, root]]) {
    const key = renamed(name);
    // A root document's schemars title is dropped (as in the other files'
    // $defs), except where the name changes.
    const { title: _title, ...untitled } = def;
    const variant = typeof def.properties?.kind?.const === "string";
    const body = JSON.stringify(variant ? def : name === key ? untitled : { ...untitled, title: key });
    if (defs[key] !== undefined && JSON.stringify(defs[key]) !== body) {
      throw new Error(`${file}: definition ${name} differs from another schema's`);
    }
    defs[key] = JSON.parse(body);
  }
  roots[file.replace(/\.json$/, "")] = { $ref: `#/$defs/${renamed(root.title)}` };
}
// json2ts copies a referenced type under a numbered name (`Forces1`) where a
// `$ref` has sibling keywords (a property's description or default): keep the
// bare `$ref` so every use is the named type.
const bare = (value) => {
  if (Array.isArray(value)) return value.map(bare);
  if (value === null || typeof value !== "object") return value;
  if (typeof value.$ref === "string") return { $ref: value.$ref === "#/$defs/ErrorCode" ? "#/$defs/EngineErrorCode" : value.$ref };
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bare(v)]));
};
for (const key of Object.keys(defs)) defs[key] = bare(defs[key]);
typed(defs, JSON.parse(readFileSync(codesFile, "utf8")));
const text = JSON.stringify({ title: "WireDocuments", type: "object", properties: roots, $defs: defs }, null, 1)
  .replaceAll('"#/$defs/Game"', '"#/$defs/GameState"');
writeFileSync(out, text);


function fail(message) {
  throw new Error(`wire-schema: ${message} (wasm/tools/wire-schema.mjs, D-260)`);
}

function refName(node) {
  const ref = node?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) fail(`not a $ref: ${JSON.stringify(node)}`);
  return ref.slice("#/$defs/".length);
}

/** The variants of a tagged union definition: [kind, definition name]. */
function variants(defs, union) {
  const def = defs[union];
  if (!Array.isArray(def?.oneOf)) fail(`${union} is not a oneOf of variants`);
  return def.oneOf.map((ref) => {
    const name = refName(ref);
    const kind = defs[name]?.properties?.kind?.const;
    if (typeof kind !== "string") fail(`${union} variant ${name} has no constant kind`);
    return [kind, name];
  });
}

/** Replace the type of `def.prop` by `type`, keeping its description and nullability. */
function retype(defs, def, prop, type) {
  const node = defs[def]?.properties?.[prop];
  if (node === undefined) fail(`${def}.${prop} is gone: review the typed strings`);
  const nullable = Array.isArray(node.type) && node.type.includes("null");
  if (!nullable && node.type !== "string") fail(`${def}.${prop} is no longer a string`);
  const { description } = node;
  defs[def].properties[prop] = nullable
    ? { description, anyOf: [type, { type: "null" }] }
    : { description, allOf: [type] };
}

/** Check that `def.prop` is already the named type (a `$ref`, alone or as `allOf: [$ref]`). */
function typedAs(defs, def, prop, name) {
  const node = defs[def]?.properties?.[prop];
  if (node === undefined) fail(`${def}.${prop} is gone: review the typed strings`);
  const target = node.$ref ?? (Array.isArray(node.allOf) && node.allOf.length === 1 ? node.allOf[0].$ref : undefined);
  if (target !== `#/$defs/${name}`) fail(`${def}.${prop} is not typed as ${name}`);
}

function typed(defs, engineCodes) {
  if (!Array.isArray(engineCodes) || engineCodes.some((c) => typeof c !== "string")) fail("CODES.json is not a list of codes");
  const ref = (name) => ({ $ref: `#/$defs/${name}` });
  const frameKinds = variants(defs, "Decision").map(([kind]) => kind);
  const strings = (description, values) => ({ description, type: "string", enum: values });
  defs.FrameKind = strings("The kind of a decision (a frame), as `FrameView.kind` and `decisionOpened` name it.", frameKinds);
  defs.EngineErrorCode = strings(
    "A stable error code of the engine (`ApplyError::CODES`; docs/protocol.md lists what each means).",
    engineCodes,
  );
  defs.PackageErrorCode = strings(
    "The package's own codes: a trap in the module, a handle from before it, no module loaded yet, a freed handle.",
    PACKAGE_ERROR_CODES,
  );
  defs.ErrorCode = {
    description: "Every code an error can carry: the engine's and the package's.",
    anyOf: [ref("EngineErrorCode"), ref("PackageErrorCode")],
  };
  retype(defs, "FrameView", "kind", ref("FrameKind"));
  retype(defs, "DecisionOpenedEvent", "decisionKind", ref("FrameKind"));
  retype(defs, "ErrorReport", "code", ref("ErrorCode"));
  // D-242: typed by the schemas themselves (their `ErrorCode`, renamed above).
  typedAs(defs, "Blocked", "code", "EngineErrorCode");
  typedAs(defs, "Refusal", "code", "EngineErrorCode");
  retype(defs, "Step", "error", ref("EngineErrorCode"));

  // Maps: every string-keyed map of the wire is keyed by a union (its Rust
  // key is an enum); a new map fails here until its key type is named.
  const keys = {
    "Setup.factions": "Faction",
    "TableFacts.factions": "Faction",
    "AmbassadorsSetup.zones": "Ambassador",
  };
  for (const [name, def] of Object.entries(defs)) {
    for (const [prop, node] of Object.entries(def.properties ?? {})) {
      if (node?.type !== "object" || typeof node.additionalProperties !== "object") continue;
      const key = keys[`${name}.${prop}`];
      if (key === undefined) fail(`${name}.${prop} is a map with no key type here`);
      if (defs[key] === undefined) fail(`${name}.${prop}: key type ${key} is not a definition`);
      const value = refName(node.additionalProperties);
      def.properties[prop] = { description: node.description, tsType: `{ [K in ${key}]?: ${value} }` };
      delete keys[`${name}.${prop}`];
    }
  }
  if (Object.keys(keys).length > 0) fail(`maps gone: ${Object.keys(keys).join(", ")}`);

  // D-261: an action without a frame is a host report, except a Nexus play
  // (`play…`, the player's own initiative: `Action::is_play`); an action
  // with a frame answers a decision and is a faction's, except the host's
  // answers to its own windows (documented "(host)" in the Rust enum).
  const actions = variants(defs, "Action");
  const host = [];
  const faction = [];
  for (const [kind, name] of actions) {
    const def = defs[name];
    const answers = def.properties?.frame !== undefined;
    const hostDoc = /\(host\)/.test(def.description ?? "");
    const isHost = answers ? hostDoc : !kind.startsWith("play");
    if (!answers && kind.startsWith("play") && hostDoc) fail(`${kind}: a play documented as a host action`);
    (isHost ? host : faction).push([kind, name]);
  }
  defs.HostAction = { description: "What only the host sends (reports and the answers to its own windows).", oneOf: host.map(([, n]) => ref(n)) };
  defs.FactionAction = { description: "What a faction sends (its decisions and its Nexus plays).", oneOf: faction.map(([, n]) => ref(n)) };
  const command = defs.Command;
  const ifRevision = command?.properties?.ifRevision;
  if (command?.properties?.actor === undefined || command.properties.action === undefined || ifRevision === undefined) {
    fail("Command changed shape: review HostCommand and FactionCommand");
  }
  const known = new Set(["actor", "action", "ifRevision"]);
  const extra = Object.keys(command.properties).filter((p) => !known.has(p));
  if (extra.length > 0) fail(`Command has new fields: ${extra.join(", ")}`);
  const one = (description, actor, action) => ({
    description,
    type: "object",
    properties: {
      action: { description: "What the actor does.", allOf: [ref(action)] },
      actor: actor,
      ifRevision,
    },
    additionalProperties: false,
    required: ["action", "actor"],
  });
  defs.HostCommand = one("A command of the host: a report, or its answer to one of its windows.", { description: "The host.", const: "host", type: "string" }, "HostAction");
  defs.FactionCommand = one("A command of a faction: its decision or its Nexus play.", { description: "The faction that decides.", allOf: [ref("Faction")] }, "FactionAction");
  defs.Command = { description: command.description, oneOf: [ref("HostCommand"), ref("FactionCommand")] };

  const list = (values) => JSON.stringify(values, null, 2);
  writeFileSync(
    kindsOut,
    "// Generated by scripts/package from schemas/ (wasm/tools/wire-schema.mjs). Do not edit.\n" +
      "/** D-260: every decision (frame) kind. */\n" +
      `export const FRAME_KINDS = ${list(frameKinds)} as const;\n` +
      "/** D-261: the action kinds only the host sends; every other kind is a faction's. */\n" +
      `export const HOST_ACTION_KINDS = ${list(host.map(([k]) => k))} as const;\n` +
      "/** The package's own error codes (`PackageErrorCode`). */\n" +
      `export const PACKAGE_ERROR_CODES = ${list(PACKAGE_ERROR_CODES)} as const;\n`,
  );
}
