// The browser consumer: bundled by esbuild (browser conditions), loaded in
// headless Chromium; the page publishes the result for the test to read.
import { play } from "./out/play.mjs";
import scenario from "./scenario.json";

try {
  globalThis.ecazResult = { ok: true, ...play(scenario) };
} catch (error) {
  globalThis.ecazResult = { ok: false, error: String(error), code: error?.code };
}
