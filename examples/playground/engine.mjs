// @ts-check
// The one module of the playground that knows which build of the engine it
// loads. Today: the wasm-bindgen `web` build of wasm/ (scripts/wasm-build),
// copied to ./engine/ by scripts/playground. The object below has the shape
// of the npm package @ecaz/engine's `text` namespace (every value JSON text)
// plus its board data, so moving to the package's browser build changes
// this file only: `import { init, text, board } from "./engine/browser.mjs"`,
// `await init()`, `export const engine = { ...text, boardJson: () => JSON.stringify(board()) }`.

import init, { applyJson, boardJson, narrate, newGameJson, optionsJson, viewJson } from "./engine/ecaz_wasm.js";

await init();

export const engine = {
  newGame: newGameJson,
  apply: applyJson,
  view: viewJson,
  options: optionsJson,
  narrate,
  boardJson,
};
