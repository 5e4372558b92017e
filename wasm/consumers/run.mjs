// node run.mjs esm|cjs SCENARIO OUT.jsonl: plays through the ESM or the CommonJS build.
import { writeFileSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

const [form, scenarioPath, out] = process.argv.slice(2);
const { play } =
  form === "cjs" ? createRequire(import.meta.url)("./out/play.cjs") : await import("./out/play.mjs");
const played = play(JSON.parse(readFileSync(scenarioPath, "utf8")));
writeFileSync(out, played.lines.map((line) => JSON.stringify(line) + "\n").join(""));
console.log(`${form}: ${played.lines.length} steps, Ecaz sees ${played.view.ambassadors.placement.placed} placed`);
