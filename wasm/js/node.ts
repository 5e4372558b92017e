// The Node entry (ESM `import`, and `require` through the CommonJS build of
// this file): the module is read from the package's own folder, compiled and
// instantiated on import, so `createGame` works at once. No network.

import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";

import { install, type TextBridge } from "./api.js";
import * as glue from "./glue/ecaz_wasm.js";

/** Text through the module's memory with `Buffer` (D-153): no view of each piece. */
const bufferText: TextBridge = {
  view: (buffer) => Buffer.from(buffer),
  write: (bytes, text, at, room) => (bytes as Buffer).write(text, at, room, "utf8"),
  read: (bytes, at, len) => (bytes as Buffer).toString("utf8", at, at + len),
};

install(glue, new WebAssembly.Module(readFileSync(new URL("./ecaz_wasm_bg.wasm", import.meta.url))), bufferText);

export * from "./api.js";
