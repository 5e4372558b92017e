// `scripts/workers-host serve`, and the child process the load run kills and
// restarts: builds nothing, serves dist/ until SIGINT/SIGTERM.
//   node dist-node/server.mjs --persist DIR [--port N] [--fault-rate R]
// Prints one line `listening <url>` once it answers.

import { migrateOnly, start } from "./runtime.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const persist = arg("persist", ".wrangler/d1");
await migrateOnly(persist);
const runtime = await start({
  migrate: false,
  persist,
  port: Number(arg("port", "8787")),
  faultRate: Number(arg("fault-rate", "0")),
});
console.log(`listening ${runtime.url}`);
const stop = (): void => {
  void runtime.dispose().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
