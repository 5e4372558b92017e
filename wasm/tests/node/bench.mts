// The Node side of the bindings benchmarks (run by scripts/bench-bindings; not
// a test): the command stream of examples/bench/mid_game_turn.json through
//   wasm_handle  Game.apply (command JSON in, events JSON out, state inside)
//   wasm_pure    applyJson (state JSON + command JSON in, {state, events} out)
//   node_floor   JSON.parse + JSON.stringify of each state the stream meets:
//                the least a JavaScript engine keeping its state as JSON pays
//   wasm_from_state  Game.fromState + free of the start state (for reference)
// Each is timed as whole streams, many times after a warm-up; the median
// stream time is reported, and divided by the stream length per command.
// One benchmark per process (`node bench.mjs NAME`: what ran before in the
// same process would change the numbers); its result is printed as one JSON
// line on stdout, the human-readable line on stderr.

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { applyJson, Game, newGameJson } from "../../pkg/nodejs/ecaz_wasm.js";
import type { Scenario } from "../../pkg/types/index.js";
import { root } from "./common.mjs";

const scenario = JSON.parse(
  readFileSync(join(root, "examples", "bench", "mid_game_turn.json"), "utf8"),
) as Scenario;
const start = newGameJson(JSON.stringify(scenario.setup));
const commands = scenario.steps.map((step) => JSON.stringify(step.command));

// The states along the stream (the floor's input), from the pure call.
const states: string[] = [];
{
  let state = start;
  for (const command of commands) {
    states.push(state);
    state = applyJson(state, command).state;
  }
}

let sink = 0;

/** The handle's stream: the handle is made before and freed after the timed part. */
function handleStream(game: Game): void {
  for (const command of commands) {
    sink += game.apply(command).length;
  }
}

function pureStream(): void {
  let state = start;
  for (const command of commands) {
    const outcome = applyJson(state, command);
    sink += outcome.events.length;
    state = outcome.state;
  }
}

function floorStream(): void {
  for (const state of states) {
    sink += JSON.stringify(JSON.parse(state)).length;
  }
}

interface Result {
  name: string;
  medianStreamNs: number;
  perCommandNs: number;
  samples: number;
}

/** Time `run` (and only it) on fresh inputs from `prepare`, which `finish` disposes of. */
function measure<T>(
  name: string,
  prepare: () => T,
  run: (input: T) => void,
  finish: (input: T) => void = () => {},
  warmupMs = 1000,
  measureMs = 3000,
): Result {
  const deadline = (ms: number): bigint => process.hrtime.bigint() + BigInt(ms) * 1_000_000n;
  for (const end = deadline(warmupMs); process.hrtime.bigint() < end; ) {
    const input = prepare();
    run(input);
    finish(input);
  }
  const samples: number[] = [];
  for (const end = deadline(measureMs); process.hrtime.bigint() < end; ) {
    const input = prepare();
    const t0 = process.hrtime.bigint();
    run(input);
    samples.push(Number(process.hrtime.bigint() - t0));
    finish(input);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)] ?? NaN;
  return { name, medianStreamNs: median, perCommandNs: median / commands.length, samples: samples.length };
}

const benchmarks: Record<string, () => Result> = {
  wasm_handle: () => measure("wasm_handle", () => Game.fromState(start), handleStream, (game) => game.free()),
  wasm_pure: () => measure("wasm_pure", () => undefined, pureStream),
  node_floor: () => measure("node_floor", () => undefined, floorStream),
  wasm_from_state: () => measure("wasm_from_state", () => undefined, () => Game.fromState(start).free()),
};

const name = process.argv[2] ?? "";
const benchmark = benchmarks[name];
if (benchmark === undefined) {
  console.error(`usage: bench.mjs ${Object.keys(benchmarks).join("|")}`);
  process.exit(2);
}
const r = benchmark();
console.error(
  `${r.name.padEnd(16)} ${(r.medianStreamNs / 1000).toFixed(2).padStart(10)} µs/stream ` +
    `${(r.perCommandNs / 1000).toFixed(3).padStart(9)} µs/command (${r.samples} samples)`,
);
console.log(JSON.stringify({ ...r, commands: commands.length, stateBytes: states.map((s) => s.length), sink }));
