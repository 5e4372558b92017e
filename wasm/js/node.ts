// The Node entry (ESM `import`, and `require` through the CommonJS build of
// this file): the module is read from the package's own folder, compiled and
// instantiated on import, so `createGame` works at once. No network.

import { readFileSync } from "node:fs";

import { install } from "./api.js";
import * as glue from "./glue/ecaz_wasm.js";

install(glue, new WebAssembly.Module(readFileSync(new URL("./ecaz_wasm_bg.wasm", import.meta.url))));

export * from "./api.js";
