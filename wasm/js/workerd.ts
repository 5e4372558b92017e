// The Cloudflare Workers entry (`workerd` and `worker` conditions): Workers
// refuse to compile WASM from bytes at run time and have no `fs`, so the
// module is imported as a module (wrangler and workerd hand a compiled
// `WebAssembly.Module` for a `.wasm` import) and instantiated on import.

import { install } from "./api.js";
import * as glue from "./glue/ecaz_wasm.js";
import wasmModule from "./ecaz_wasm_bg.wasm";

install(glue, wasmModule);

export * from "./api.js";
