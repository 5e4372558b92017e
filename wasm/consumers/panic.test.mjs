// node panic.test.mjs PATH/TO/test-panic/dist/node.mjs
// D-91: a trap never leaves a broken engine in use. Against the
// test-panic build (its module has a deliberate panic entry): the trapping
// call throws internal/panic, the module is instantiated afresh, every handle
// from before throws internal/poisoned, and a game restored from its saved
// state goes on exactly as one that never saw the trap.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const engine = await import(pathToFileURL(process.argv[2]).href);
const { createGame, loadGame, EcazError, text, __testPanic } = engine;
const scenario = JSON.parse(readFileSync(new URL("../../examples/scenarios/bindings.json", import.meta.url), "utf8"));
const [first, ...rest] = scenario.steps.map((s) => s.command);

const codeOf = (f) => {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof EcazError, `not an EcazError: ${error}`);
    return error.code;
  }
  assert.fail("no error thrown");
};

test("D-91: a panic throws internal/panic, older handles are poisoned, the engine goes on", () => {
  const reference = createGame(scenario.setup);
  const old = createGame(scenario.setup);
  reference.apply(first);
  old.apply(first);
  const saved = old.stateText();

  assert.equal(codeOf(() => __testPanic()), "internal/panic");
  for (const call of [() => old.apply(rest[0]), () => old.view("ecaz"), () => old.stateText(), () => old.options("host")]) {
    assert.equal(codeOf(call), "internal/poisoned");
  }
  assert.equal(codeOf(() => reference.apply(rest[0])), "internal/poisoned");
  old.free(); // freeing a poisoned handle is harmless

  // The fresh instance works, and a restored game goes on as if nothing happened.
  const restored = loadGame(saved);
  const again = createGame(scenario.setup);
  again.apply(first);
  assert.equal(again.stateText(), saved);
  for (const command of rest.slice(0, 6)) {
    assert.deepEqual(restored.apply(command), again.apply(command));
  }
  assert.equal(restored.stateText(), again.stateText());
  assert.ok(text.newGame(JSON.stringify(scenario.setup)).length > 0);

  // A second trap recovers the same way.
  assert.equal(codeOf(() => __testPanic()), "internal/panic");
  assert.equal(codeOf(() => restored.view("host")), "internal/poisoned");
  assert.equal(createGame(scenario.setup).view("spectator").viewer, "spectator");
});
