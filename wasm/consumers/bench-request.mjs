// node bench-request.mjs ENTRY STREAM [PAIRS] [MS] — the stateless host's
// request path (ARCHITECTURE §9): `loadGame(text)` → `applyText(command)` →
// `stateText()` → `free()` with the packed package (ENTRY: a built
// package's dist/node.mjs), against Node's own `JSON.parse` +
// `JSON.stringify` of the same state text. STREAM is the benchmark workload
// (examples/bench/mid_game_turn.json): its setup is the 6-faction mid-game
// state, its first command the one applied.
//
// The machine's speed drifts within seconds, so both sides are measured in
// PAIRS back-to-back windows of MS ms (default 60 of 100 ms), in alternating
// order, after a warm-up, and compared pair by pair. Each window also times
// the parts (loadGame against JSON.parse, stateText against
// JSON.stringify). Prints one JSON line: per-pair numbers and the medians.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [entry, streamPath, pairsArg, msArg] = process.argv.slice(2);
if (entry === undefined || streamPath === undefined) throw new Error("usage: bench-request.mjs ENTRY STREAM [PAIRS] [MS]");
const pairs = Number(pairsArg ?? 60);
const ms = Number(msArg ?? 100);

const { createGameText, loadGame } = await import(pathToFileURL(entry).href);
const stream = JSON.parse(readFileSync(streamPath, "utf8"));
const seed = createGameText(JSON.stringify(stream.setup));
const text = seed.stateText();
seed.free();
const command = JSON.stringify(stream.steps[0].command);

const now = () => process.hrtime.bigint();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
let sink = 0;

// One window of `length` ms running `step` over and over: the median ns of
// one step.
const window = (length, step) => {
  const times = [];
  const end = now() + BigInt(length) * 1_000_000n;
  while (now() < end) {
    const t0 = now();
    step();
    times.push(Number(now() - t0));
  }
  return median(times);
};
const request = () => {
  const game = loadGame(text);
  sink += game.applyText(command).length;
  sink += game.stateText().length;
  game.free();
};
const load = () => {
  const game = loadGame(text);
  game.free();
};
const floor = () => {
  sink += JSON.stringify(JSON.parse(text)).length;
};
const parse = () => {
  sink += JSON.parse(text).version;
};
const loaded = loadGame(text);
const write = () => {
  sink += loaded.stateText().length;
};
const parsed = JSON.parse(text);
const stringify = () => {
  sink += JSON.stringify(parsed).length;
};

// Warm-up: V8 keeps optimizing the module and its own JSON code for seconds.
for (let i = 0; i < 4; i++) for (const step of [request, floor, load, parse, write, stringify]) window(250, step);

const rows = [];
for (let i = 0; i < pairs; i++) {
  const order = i % 2 === 0 ? [floor, request] : [request, floor];
  const t = new Map(order.map((step) => [step, window(ms, step)]));
  const part = ms / 4;
  const l = window(part, load);
  const p = window(part, parse);
  const w = window(part, write);
  const s = window(part, stringify);
  rows.push({
    requestNs: t.get(request),
    floorNs: t.get(floor),
    ratio: Math.round((t.get(request) / t.get(floor)) * 1000) / 1000,
    loadRatio: Math.round((l / p) * 1000) / 1000,
    writeRatio: Math.round((w / s) * 1000) / 1000,
  });
}
loaded.free();
console.log(
  JSON.stringify({
    stateBytes: Buffer.byteLength(text),
    pairs: rows,
    medianRatio: median(rows.map((r) => r.ratio)),
    minRatio: Math.min(...rows.map((r) => r.ratio)),
    maxRatio: Math.max(...rows.map((r) => r.ratio)),
    requestMedianNs: median(rows.map((r) => r.requestNs)),
    floorMedianNs: median(rows.map((r) => r.floorNs)),
    loadOverParse: median(rows.map((r) => r.loadRatio)),
    writeOverStringify: median(rows.map((r) => r.writeRatio)),
    sink: sink > 0,
  }),
);
