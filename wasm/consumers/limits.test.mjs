// node --expose-gc limits.test.mjs PATH/TO/dist/node.mjs
// D-180, D-181 (docs/integration.md "Input policy"): the packed package
// refuses every input over the 16 MiB cap before it reaches the module, and
// the worst shapes under the cap (a 2^18-number event, a version that is a
// huge array, a padded format-1 state) are refused by the engine without a
// trap: no call poisons a game created before, and the module's memory does
// not grow by more than a small multiple of the cap.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const engine = await import(pathToFileURL(process.argv[2]).href);
const { createGame, createGameText, loadGame, newState, EcazError, MAX_INPUT_BYTES, text } = engine;
const scenario = JSON.parse(readFileSync(new URL("../../examples/scenarios/bindings.json", import.meta.url), "utf8"));
const [first, second] = scenario.steps.map((s) => s.command);
const v1 = readFileSync(new URL("../../tests/fixtures/format/v1/game1-step90-quiet.state.json", import.meta.url), "utf8").trim();

const codeOf = (f) => {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof EcazError, `not an EcazError: ${error}`);
    assert.ok(error.message.length < 1024, `an unbounded message (${error.message.length})`);
    return error.code;
  }
  assert.fail("no error thrown");
};

const zeros = (n) => `[${"0,".repeat(n - 1)}0]`;

test("D-180: every door refuses an input over the cap before the module sees it; older games go on", () => {
  assert.equal(MAX_INPUT_BYTES, 16 * 1024 * 1024);
  const older = createGame(scenario.setup);
  older.apply(first);
  const state = older.stateText();
  // Over the cap in UTF-16 units, and over it in bytes only (3 bytes a unit).
  for (const huge of ["x".repeat(MAX_INPUT_BYTES + 1), "\u20ac".repeat(MAX_INPUT_BYTES / 2)]) {
    const started = performance.now();
    for (const call of [
      () => createGameText(huge),
      () => loadGame(huge),
      () => older.applyText(huge),
      () => older.view(huge),
      () => text.newGame(huge),
      () => text.apply(state, huge),
      () => text.apply(huge, "{}"),
      () => text.view(huge, "host"),
      () => text.options(state, huge),
      () => text.eventsFor(huge, "host"),
      () => text.narrate(state, huge, "host"),
      () => text.exportSetup(huge),
    ]) {
      assert.equal(codeOf(call), "decode/input_too_large");
    }
    console.log(`12 refusals of ${huge.length} units: ${(performance.now() - started).toFixed(0)} ms`);
  }
  // The game from before is unharmed.
  older.apply(second);
  older.free();
});

test("D-180, D-181: the worst shapes under the cap are refused without a trap", () => {
  const older = createGame(scenario.setup);
  const before = older.stateText();
  const state = newState(scenario.setup);
  const event = `{"audience":{"kind":"host"},"event":{"kind":"tableSynced","differences":[{"path":"deck","before":${zeros(5_000_000)},"after":[]}]}}`;
  assert.ok(event.length < MAX_INPUT_BYTES);
  assert.equal(codeOf(() => text.eventsFor(`[${event}]`, "host")), "decode/invalid_events");
  assert.equal(codeOf(() => text.narrate(JSON.stringify(state), event, "host")), "decode/invalid_command");
  assert.equal(codeOf(() => loadGame(`{"version":${zeros(8_000_000)}}`)), "state/unsupported_version");
  const padded = `${v1.slice(0, -1)},"zz":${zeros(8_000_000)}}`;
  assert.equal(codeOf(() => loadGame(padded)), "decode/invalid_state");
  assert.equal(older.stateText(), before);
  older.apply(first);
  older.free();
});

test("D-180: a command at the cap does not leave a handle's memory growing", () => {
  const game = createGame(scenario.setup);
  // A refused command padded with spaces to the cap: read in full each time.
  const bad = '{"actor":"host","action":{"kind":"endPhase","phase":"nope"}}';
  const padded = bad + " ".repeat(MAX_INPUT_BYTES - bad.length);
  const rss = [];
  for (let i = 0; i < 3; i++) {
    assert.equal(codeOf(() => game.applyText(padded)), "decode/invalid_command");
    globalThis.gc?.();
    rss.push(process.memoryUsage().rss);
  }
  // Repeating it costs nothing more: the memory reached the first time is reused.
  assert.ok(rss[2] - rss[0] < 32 * 1024 * 1024, `grew ${rss[2] - rss[0]} bytes`);
  console.log(`rss after each of three 16 MiB commands: ${rss.map((r) => (r / 2 ** 20).toFixed(0)).join(", ")} MiB`);
  game.apply(first);
  game.free();
});
