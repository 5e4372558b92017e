// The Node entry (ESM `import`, and `require` through the CommonJS build of
// this file): the module is read from the package's own folder, compiled and
// instantiated on import, so `createGame` works at once. No network.

import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";

import { install, type TextBridge } from "./api.js";
import * as glue from "./glue/ecaz_wasm.js";

/** `Buffer`'s UTF-8 methods without the encoding dispatch of `write` and `toString` (Node has had them since its first versions). */
interface Utf8Buffer extends Buffer {
  utf8Write?(text: string, at: number, room: number): number;
  utf8Slice?(start: number, end: number): string;
}
const direct = Buffer.prototype as Utf8Buffer;

/** Text through the module's memory with `Buffer` (D-153): no view of each piece. */
const bufferText: TextBridge =
  typeof direct.utf8Write === "function" && typeof direct.utf8Slice === "function"
    ? {
        view: (buffer) => Buffer.from(buffer),
        write: (bytes, text, at, room) => (bytes as Required<Utf8Buffer>).utf8Write(text, at, room),
        read: (bytes, at, len) => (bytes as Required<Utf8Buffer>).utf8Slice(at, at + len),
      }
    : {
        view: (buffer) => Buffer.from(buffer),
        write: (bytes, text, at, room) => (bytes as Buffer).write(text, at, room, "utf8"),
        read: (bytes, at, len) => (bytes as Buffer).toString("utf8", at, at + len),
      };

install(glue, new WebAssembly.Module(readFileSync(new URL("./ecaz_wasm_bg.wasm", import.meta.url))), bufferText);

export * from "./api.js";
