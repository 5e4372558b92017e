// D-180 (docs/integration.md "Input policy") through the raw wasm-bindgen
// exports: a string over the cap is refused before it is copied into the
// module, the worst shapes under the cap are refused by the engine, and a
// game created before every refusal goes on (no trap, no poisoning).

import assert from "node:assert/strict";
import { test } from "node:test";

import { eventsForJson, Game, narrate, newGameJson, viewJson } from "../../pkg/nodejs/ecaz_wasm.js";
import { codeOf } from "./common.mjs";

const MAX_INPUT_BYTES = 16 * 1024 * 1024;
const SETUP = JSON.stringify({ seats: ["ecaz", "harkonnen", "atreides"], seed: 7 });
const COMMAND = JSON.stringify({ actor: "host", action: { kind: "endPhase", phase: "storm" } });

function expectCode(code: string, f: () => unknown): void {
  try {
    f();
  } catch (error) {
    assert.equal(codeOf(error), code);
    assert.ok((error as Error).message.length < 1024, "an unbounded message");
    return;
  }
  assert.fail(`expected ${code}, but it was accepted`);
}

const zeros = (n: number): string => `[${"0,".repeat(n - 1)}0]`;

test("D-180: the raw exports refuse an input over the cap; a game from before goes on", () => {
  const older = new Game(SETUP);
  const state = older.state();
  const huge = "x".repeat(MAX_INPUT_BYTES + 1);
  expectCode("decode/input_too_large", () => newGameJson(huge));
  expectCode("decode/input_too_large", () => viewJson(huge, "host"));
  expectCode("decode/input_too_large", () => new Game(huge));
  expectCode("decode/input_too_large", () => Game.fromState(huge));
  expectCode("decode/input_too_large", () => older.apply(huge));
  expectCode("decode/input_too_large", () => eventsForJson(huge, "host"));
  expectCode("decode/input_too_large", () => narrate(state, huge, "host"));
  // Within the UTF-16 bound but over it in bytes: the engine's own check.
  expectCode("decode/input_too_large", () => newGameJson("\u20ac".repeat(MAX_INPUT_BYTES / 2)));
  assert.equal(older.inputBuffer(MAX_INPUT_BYTES + 1), 0);
  const event = `{"audience":{"kind":"host"},"event":{"kind":"tableSynced","differences":[{"path":"deck","before":${zeros(
    5_000_000,
  )},"after":[]}]}}`;
  expectCode("decode/invalid_events", () => eventsForJson(`[${event}]`, "host"));
  expectCode("decode/invalid_command", () => narrate(state, event, "host"));
  expectCode("state/unsupported_version", () => Game.fromState(`{"version":${zeros(8_000_000)}}`));
  assert.equal(older.state(), state);
  older.apply(COMMAND);
  older.free();
});
