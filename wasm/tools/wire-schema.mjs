// node wasm/tools/wire-schema.mjs SCHEMAS_DIR OUT.json
// Merges schemas/*.json into one schema whose definitions are every wire type
// once (the documents share their Rust types, so a name means one type), so
// json2ts emits one self-contained file with real names. The state document
// `Game` is named `GameState` (the package's handle class is `Game`).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [dir, out] = process.argv.slice(2);
const rename = { Game: "GameState" };
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
  if (typeof value.$ref === "string") return { $ref: value.$ref };
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bare(v)]));
};
for (const key of Object.keys(defs)) defs[key] = bare(defs[key]);
const text = JSON.stringify({ title: "WireDocuments", type: "object", properties: roots, $defs: defs }, null, 1)
  .replaceAll('"#/$defs/Game"', '"#/$defs/GameState"');
writeFileSync(out, text);
