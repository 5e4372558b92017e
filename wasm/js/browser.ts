// The browser and bundler entry: on import the package fetches and compiles
// `ecaz_wasm_bg.wasm` from next to this file (bundlers such as Vite and
// webpack recognise `new URL(…, import.meta.url)` and emit the file). If that
// fails (a bundler that does not copy it), the import still succeeds and
// `await init(url)` loads the module from where the app serves it.

import { init, setLoader } from "./api.js";
import * as glue from "./glue/ecaz_wasm.js";

async function compile(source: unknown): Promise<object> {
  const from = source ?? new URL("./ecaz_wasm_bg.wasm", import.meta.url);
  if (from instanceof WebAssembly.Module) return from;
  if (from instanceof ArrayBuffer || ArrayBuffer.isView(from)) return WebAssembly.compile(from as BufferSource);
  const response = from instanceof Response ? from : await fetch(from as string | URL);
  if (!response.ok) throw new Error(`cannot fetch the engine's module: ${response.status} ${response.url}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

setLoader(compile, glue);
try {
  await init();
} catch {
  // Left for an explicit `await init(url)`; calls until then throw internal/not_loaded.
}

export * from "./api.js";
