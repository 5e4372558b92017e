// Malformed input through every function of the WASM API: bad JSON, wrong
// JSON types, unknown kinds, non-string arguments, truncated and mutated
// documents, random text. Every failure must be a thrown JS Error with a
// stable `code` (never a trap, an abort or a plain string), and a refused
// command must leave a handle's state unchanged.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  applyJson,
  type EcazError,
  Game,
  newGameJson,
  optionsJson,
  viewJson,
} from "../../pkg/nodejs/ecaz_wasm.js";
import type { Setup } from "../../pkg/types/index.js";
import { codeOf } from "./common.mjs";

const setup: Setup = { seats: ["ecaz", "harkonnen", "atreides"], seed: 7 };
const SETUP = JSON.stringify(setup);
const COMMAND = JSON.stringify({ actor: "host", action: { kind: "endPhase", phase: "storm" } });

/** Call `f`; if it throws, the thrown value must be an EcazError with a known code. */
function refusedOrAccepted(what: string, f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (error) {
    const code = codeOf(error);
    assert.ok(error instanceof Error);
    assert.equal(error.name, "EcazError", what);
    assert.match(code, /^(decode|state|setup|rule)\//, `${what}: ${code}`);
    assert.ok(error.message.length > 0, what);
    return code;
  }
}

/** Every function with `input` in every input position. */
function everyFunction(game: Game, state: string, input: unknown): void {
  const value = input as string; // deliberately untyped input
  refusedOrAccepted("newGameJson", () => newGameJson(value));
  refusedOrAccepted("applyJson(state)", () => applyJson(value, COMMAND));
  refusedOrAccepted("applyJson(command)", () => applyJson(state, value));
  refusedOrAccepted("viewJson(state)", () => viewJson(value, "host"));
  refusedOrAccepted("viewJson(viewer)", () => viewJson(state, value));
  refusedOrAccepted("optionsJson(state)", () => optionsJson(value, "host"));
  refusedOrAccepted("optionsJson(actor)", () => optionsJson(state, value));
  refusedOrAccepted("new Game", () => new Game(value).free());
  refusedOrAccepted("Game.fromState", () => Game.fromState(value).free());
  refusedOrAccepted("game.view", () => game.view(value));
  refusedOrAccepted("game.options", () => game.options(value));
  const before = game.state();
  if (refusedOrAccepted("game.apply", () => game.apply(value)) !== null) {
    assert.equal(game.state(), before, "a refused command changed the state");
  }
}

function expectCode(code: string, f: () => unknown): EcazError {
  try {
    f();
  } catch (error) {
    assert.equal(codeOf(error), code);
    return error as EcazError;
  }
  assert.fail(`expected ${code}, but it was accepted`);
}

test("bad JSON, wrong types and unknown kinds are thrown Errors with codes", () => {
  const game = new Game(SETUP);
  const state = game.state();
  expectCode("decode/invalid_json", () => newGameJson("{"));
  expectCode("decode/invalid_json", () => newGameJson(""));
  expectCode("decode/invalid_json", () => applyJson(state, "not json"));
  expectCode("decode/invalid_command", () => game.apply('{"actor":"host","action":{"kind":"noSuchKind"}}'));
  expectCode("decode/invalid_command", () => game.apply('{"actor":5,"action":{}}'));
  expectCode("decode/invalid_command", () => game.apply('{"actor":"host","action":{"kind":"endPhase","phase":7}}'));
  expectCode("decode/invalid_command", () => game.apply("[1,2]"));
  expectCode("decode/invalid_setup", () => newGameJson('{"seats":"ecaz"}'));
  expectCode("decode/invalid_viewer", () => game.view("nobody"));
  expectCode("decode/invalid_viewer", () => viewJson(state, '"nobody"'));
  expectCode("state/unsupported_version", () => Game.fromState('{"version":999}'));
  expectCode("rule/not_seated", () => game.apply('{"actor":"fremen","action":{"kind":"finishPlacement","frame":1}}'));
  game.free();
});

test("rule errors carry the rule id, setup errors every problem", () => {
  const game = new Game(SETUP);
  for (const phase of ["storm", "spiceBlow", "choamCharity", "bidding", "revival"]) {
    game.apply(JSON.stringify({ actor: "host", action: { kind: "endPhase", phase } }));
  }
  const place = { actor: "ecaz", action: { kind: "place", frame: 1, token: "ecaz", territory: "imperial_basin" } };
  const error = expectCode("rule/not_a_stronghold", () => game.apply(JSON.stringify(place)));
  assert.equal(error.rule, "R-PLC-3");
  assert.equal(error.problems, undefined);
  game.free();

  const invalid = expectCode("setup/invalid", () => new Game('{"seats":["ecaz","ecaz"],"seed":1}'));
  assert.ok(Array.isArray(invalid.problems) && invalid.problems.length > 0);
  for (const problem of invalid.problems ?? []) {
    assert.equal(typeof problem.path, "string");
    assert.equal(typeof problem.message, "string");
  }
  assert.equal(invalid.rule, undefined);
});

test("non-string arguments are refused as decode/invalid_json", () => {
  const game = new Game(SETUP);
  const state = game.state();
  for (const value of [undefined, null, 42, true, {}, [], { actor: "host" }, Symbol("x"), 10n]) {
    const what = typeof value;
    expectCode("decode/invalid_json", () => newGameJson(value as unknown as string));
    expectCode("decode/invalid_json", () => applyJson(state, value as unknown as string));
    expectCode("decode/invalid_json", () => game.apply(value as unknown as string));
    expectCode("decode/invalid_json", () => game.view(value as unknown as string));
    everyFunction(game, state, value);
    assert.equal(game.state(), state, what);
  }
  game.free();
});

test("truncated, mutated and random input never traps", () => {
  let game = new Game(SETUP);
  const state = game.state();
  for (let cut = 0; cut < COMMAND.length; cut++) {
    expectCode("decode/invalid_json", () => applyJson(state, COMMAND.slice(0, cut)));
    everyFunction(game, state, COMMAND.slice(0, cut));
  }
  for (let cut = 0; cut < state.length; cut += 41) {
    assert.notEqual(refusedOrAccepted("truncated state", () => Game.fromState(state.slice(0, cut))), null);
  }
  // A deterministic generator (xorshift32).
  let seed = 0x2545f491;
  const next = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const alphabet = '{}[]":,0123456789-.eE truefalsnul\\u00ff\u00e9\ud800\u{1F600}';
  for (let round = 0; round < 400; round++) {
    let text = "";
    for (let i = next(40); i > 0; i--) {
      text += alphabet[next(alphabet.length)];
    }
    everyFunction(game, state, text);
  }
  for (let round = 0; round < 300; round++) {
    const base = [COMMAND, SETUP, state][next(3)] ?? COMMAND;
    const at = next(base.length);
    const mutated = base.slice(0, at) + (alphabet[next(alphabet.length)] ?? "") + base.slice(at + next(3));
    everyFunction(game, state, mutated);
    // An accepted mutation moved the game on: start again from the setup.
    if (game.state() !== state) {
      game.free();
      game = new Game(SETUP);
    }
  }
  everyFunction(game, state, "[".repeat(100_000));
  everyFunction(game, state, "x".repeat(1_000_000));
  game.free();
});
