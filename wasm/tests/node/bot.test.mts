// The bot export (D-130): `botCommand(state, actor, profile, seed)`
// returns a command the engine accepts, the same one for the same inputs,
// "null" when the actor has nothing to send; unknown profiles and bad seeds
// throw `decode/invalid_bot`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { applyJson, botCommand, newGameJson } from "../../pkg/nodejs/ecaz_wasm.js";
import { codeOf } from "./common.mjs";

const SETUP = JSON.stringify({ seats: ["ecaz", "atreides"], seed: 3, phase: "revival", placementOpen: true });

test("D-130: a bot's command is accepted and deterministic", () => {
  let state = newGameJson(SETUP);
  for (const profile of ["random", "heuristic"]) {
    const command = botCommand(state, "ecaz", profile, 5);
    assert.equal(command, botCommand(state, "ecaz", profile, 5));
    assert.notEqual(command, "null");
    const outcome = applyJson(state, command);
    assert.ok(outcome.state.length > 0);
  }
  assert.equal(botCommand(state, "atreides", "random", 1), "null");
  // Play Ecaz's placement through to its end with the heuristic bot.
  for (let i = 0; i < 20; i++) {
    const ecaz = botCommand(state, "ecaz", "heuristic", i);
    const host = botCommand(state, "host", "heuristic", i);
    const next = ecaz !== "null" ? ecaz : host;
    if (next === "null") break;
    state = applyJson(state, next).state;
  }
});

test("D-130: unknown profiles and bad seeds are refused", () => {
  const state = newGameJson(SETUP);
  for (const [profile, seed] of [["greedy", 1], ["random", -1], ["random", 1.5], ["random", 2 ** 60]] as const) {
    assert.throws(() => botCommand(state, "ecaz", profile, seed), (e: unknown) => codeOf(e) === "decode/invalid_bot");
  }
});
