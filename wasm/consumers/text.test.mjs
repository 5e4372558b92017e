// node text.test.mjs PATH/TO/dist/node.mjs
// D-152: the handle's applyText (and apply, which goes through it) passes
// the command and the events through two buffers in the module's memory
// instead of wasm-bindgen's string conversions. Against the packed package:
// the buffered path gives byte for byte what the string path of the pure
// form gives, for non-ASCII text, for a command large enough to grow the
// module's memory mid-call, and for a non-string argument.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const { createGame, EcazError, text } = await import(pathToFileURL(process.argv[2]).href);
const scenario = JSON.parse(readFileSync(new URL("../../examples/scenarios/bindings.json", import.meta.url), "utf8"));
const commands = scenario.steps.map((s) => JSON.stringify(s.command));

/** The error a call throws (it must throw an EcazError). */
const thrown = (f) => {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof EcazError, `not an EcazError: ${error}`);
    return error;
  }
  assert.fail("no error thrown");
};

/** Plays `commands` on a handle and, alongside, through the pure string form; both must agree. */
function bothWays(inputs) {
  const game = createGame(scenario.setup);
  let state = game.stateText();
  for (const input of inputs) {
    let pure, handle;
    try {
      pure = { events: text.apply(state, input).events };
      state = text.apply(state, input).state;
    } catch (error) {
      pure = { code: error.code, message: error.message };
    }
    try {
      handle = { events: game.applyText(input) };
    } catch (error) {
      handle = { code: error.code, message: error.message };
    }
    assert.deepEqual(handle, pure, `for ${input.slice(0, 80)}`);
    assert.equal(game.stateText(), state);
  }
  game.free();
}

test("D-152: the buffered handle agrees with the string path over the scenario", () => {
  bothWays(commands);
});

test("D-152: non-ASCII text crosses intact both ways (2-, 3- and 4-byte UTF-8, a lone surrogate)", () => {
  const odd = ["stórm", "嵐", "🌪️", "\ud800x"].map((phase) =>
    JSON.stringify({ actor: "host", action: { kind: "endPhase", phase } }),
  );
  bothWays([...odd, commands[0], ...odd, ...commands.slice(1)]);
  const error = thrown(() => createGame(scenario.setup).applyText(odd[1]));
  assert.equal(error.code, "decode/invalid_command");
  assert.ok(error.message.includes("嵐"), error.message);
});

test("D-152: a command that grows the module's memory is refused, and the handle goes on", () => {
  const huge = JSON.stringify({ actor: "host", action: { kind: "endPhase", phase: "x".repeat(24 << 20) } });
  bothWays([commands[0], huge, ...commands.slice(1)]);
});

test("D-152: a non-string command is refused as decode/invalid_json, the handle unchanged", () => {
  const game = createGame(scenario.setup);
  const before = game.stateText();
  for (const value of [5, null, undefined, { actor: "host" }, ["x"]]) {
    assert.equal(thrown(() => game.applyText(value)).code, "decode/invalid_json");
  }
  assert.equal(game.stateText(), before);
});
