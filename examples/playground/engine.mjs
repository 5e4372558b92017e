// @ts-check
// The one module of the playground that knows which build of the engine it
// loads: the browser build of the npm package @ecaz/engine (dist/browser.mjs
// and its .wasm), unpacked from the packed tarball by scripts/playground into
// ./engine/, as every host installs it. Importing it fetches and compiles the
// module next to it; `init()` is a no-op then and loads it if that failed.
// `engine` is the package's `text` namespace (every value JSON text) plus its
// board data as text.

import { board, init, text } from "./engine/browser.mjs";

await init();

export const engine = {
  ...text,
  boardJson: () => JSON.stringify(board()),
};
