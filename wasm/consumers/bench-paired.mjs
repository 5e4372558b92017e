// node bench-paired.mjs ENTRY NATIVE [PAIRS] [MS] — the package's speed
// budget, measured pair by pair: the package's game.applyText (ENTRY: a
// built package's dist/node.mjs) against the native C ABI handle (NATIVE:
// the `paired` bench binary of ecaz-ffi, ffi/benches/paired.rs, which also
// hands out the stream so both sides read the same bytes).
//
// The machine's speed drifts by up to 2× within seconds, so a WASM median
// from one minute and a native one from the next do not compare. Here each
// pair is a native window and a WASM window of MS ms (default 100) run back
// to back, in alternating order, after a warm-up of both; the ratio is taken
// per pair. Prints one JSON line: the per-pair numbers, the median ratio,
// its range, each side's median and the ratio of the two sides' best windows.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [entry, nativeBin, pairsArg, msArg] = process.argv.slice(2);
if (entry === undefined || nativeBin === undefined) throw new Error("usage: bench-paired.mjs ENTRY NATIVE [PAIRS] [MS]");
const pairs = Number(pairsArg ?? 120);
const ms = Number(msArg ?? 100);

const native = spawn(nativeBin, [], { stdio: ["pipe", "pipe", "inherit"] });
const lines = createInterface({ input: native.stdout })[Symbol.asyncIterator]();
const nextLine = async () => {
  const { value, done } = await lines.next();
  if (done) throw new Error("the native bench ended early");
  return JSON.parse(value);
};
const { state, commands } = await nextLine();
const nativeWindow = async (length) => {
  native.stdin.write(`${length}\n`);
  return (await nextLine()).perCommandNs;
};

const { loadGame } = await import(pathToFileURL(entry).href);
const now = () => process.hrtime.bigint();
let sink = 0;
const wasmWindow = (length) => {
  const times = [];
  const end = now() + BigInt(length) * 1_000_000n;
  while (now() < end) {
    const game = loadGame(state);
    const t0 = now();
    for (const command of commands) sink += game.applyText(command).length;
    times.push(Number(now() - t0));
    game.free();
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1] / commands.length;
};

// Warm-up: V8 keeps optimizing the module for seconds.
for (let i = 0; i < 4; i++) {
  wasmWindow(1000);
  await nativeWindow(250);
}
const rows = [];
for (let i = 0; i < pairs; i++) {
  let n, w;
  if (i % 2 === 0) {
    n = await nativeWindow(ms);
    w = wasmWindow(ms);
  } else {
    w = wasmWindow(ms);
    n = await nativeWindow(ms);
  }
  rows.push({ nativeNs: Math.round(n), wasmNs: Math.round(w), ratio: Math.round((w / n) * 1000) / 1000 });
}
native.stdin.end();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ratios = rows.map((r) => r.ratio);
console.log(
  JSON.stringify({
    pairs: rows,
    medianRatio: median(ratios),
    minRatio: Math.min(...ratios),
    maxRatio: Math.max(...ratios),
    // Each side's fastest window, wherever it fell: the two at their best.
    bestRatio: Math.min(...rows.map((r) => r.wasmNs)) / Math.min(...rows.map((r) => r.nativeNs)),
    nativeMedianNs: median(rows.map((r) => r.nativeNs)),
    wasmMedianNs: median(rows.map((r) => r.wasmNs)),
    commands: commands.length,
    sink,
  }),
);
