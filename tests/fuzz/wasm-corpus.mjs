// The fuzz corpus through the WASM binding (Node). Every
// case must end as the native engine ends it — accepted, or refused with the
// same stable code — and never trap (a RuntimeError such as `unreachable`,
// or a thrown value that is not an EcazError with a code).
//
// Usage: node tests/fuzz/wasm-corpus.mjs EXPECTATIONS.json [CORPUS_DIR] [MODULE]
//   EXPECTATIONS.json: `ecaz-fuzz expect CORPUS_DIR` (the native outcomes)
//   MODULE: the binding to load (default: wasm/pkg/nodejs/ecaz_wasm.js, built
//   by scripts/wasm-build). The doors are looked up by name below, so
//   switching to the npm package's API only changes `doors`.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const [expectFile, corpusDir = "tests/fuzz/corpus", modulePath = "wasm/pkg/nodejs/ecaz_wasm.js"] =
  process.argv.slice(2);
const expected = JSON.parse(readFileSync(expectFile, "utf8"));
const ecaz = createRequire(import.meta.url)(resolve(modulePath));

const doors = {
  newGame: (c) => ecaz.newGameJson(c.input),
  apply: (c) => ecaz.applyJson(c.state, c.input).state,
  view: (c) => ecaz.viewJson(c.state, c.input),
  options: (c) => ecaz.optionsJson(c.state, c.input),
  load: (c) => {
    const game = ecaz.Game.fromState(c.state);
    try {
      return game.state();
    } finally {
      game.free();
    }
  },
};

const failures = [];
const files = readdirSync(corpusDir).filter((f) => f.endsWith(".json")).sort();
for (const file of files) {
  const c = JSON.parse(readFileSync(join(corpusDir, file), "utf8"));
  let label;
  try {
    doors[c.door](c);
    label = "ok";
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError || typeof e?.code !== "string" || e.name !== "EcazError") {
      failures.push(`${file}: trapped or threw a non-engine error: ${e}`);
      continue;
    }
    label = e.code;
  }
  if (label !== expected[file]) {
    failures.push(`${file}: WASM ${label}, native ${expected[file]}`);
  }
}
console.log(`wasm corpus: ${files.length} cases, ${failures.length} failures`);
for (const f of failures) console.error(f);
process.exit(failures.length === 0 && files.length > 0 ? 0 : 1);
