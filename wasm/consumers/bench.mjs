// node bench.mjs ENTRY NAME — the package's handle on the benchmark stream
// (examples/bench/mid_game_turn.json, as scripts/bench-bindings measures the
// raw bindings): ENTRY is a built package's dist/node.mjs; NAME is
//   handle_text  game.applyText(command JSON) → events JSON (the C handle's shape)
//   handle       game.apply(command object) → Event[] (with the JSON both ways)
// Median whole-stream time after a warm-up, per command; one JSON line out.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [entry, name] = process.argv.slice(2);
const { loadGame, newState } = await import(pathToFileURL(entry).href);
const scenario = JSON.parse(readFileSync(new URL("../../examples/bench/mid_game_turn.json", import.meta.url), "utf8"));
const start = JSON.stringify(newState(scenario.setup));
const objects = scenario.steps.map((step) => step.command);
const texts = objects.map((command) => JSON.stringify(command));
let sink = 0;
const runs = {
  handle_text: (game) => { for (const c of texts) sink += game.applyText(c).length; },
  handle: (game) => { for (const c of objects) sink += game.apply(c).length; },
};
const run = runs[name];
if (run === undefined) throw new Error(`usage: bench.mjs ENTRY ${Object.keys(runs).join("|")}`);
const now = () => process.hrtime.bigint();
const until = (ms) => now() + BigInt(ms) * 1_000_000n;
for (const end = until(1000); now() < end; ) { const g = loadGame(start); run(g); g.free(); }
const samples = [];
for (const end = until(3000); now() < end; ) {
  const g = loadGame(start);
  const t0 = now();
  run(g);
  samples.push(Number(now() - t0));
  g.free();
}
samples.sort((a, b) => a - b);
const median = samples[Math.floor(samples.length / 2)];
console.log(JSON.stringify({ name, perCommandNs: median / texts.length, samples: samples.length, commands: texts.length, sink }));
