// The browser example (examples/browser/) in headless Chromium: a tiny static
// server on a free localhost port serves the repository's examples/ and
// wasm/pkg/; the page loads the `--target web` build, plays the bindings
// scenario and prints its transcript, which must agree with the native
// engine's run event for event.

import assert from "node:assert/strict";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { after, before, test } from "node:test";

import { type Browser, chromium } from "playwright-core";

import { firstDifference, type Line, outDir, readTranscript, root, writeTranscript } from "./common.mjs";

const CHROMIUM = process.env["CHROMIUM"] ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

/** Serve files under examples/ and wasm/pkg/ only, read-only, GET only. */
function serve(): Promise<{ server: Server; base: string }> {
  const allowed = [join(root, "examples") + sep, join(root, "wasm", "pkg") + sep];
  const server = createServer((request, response) => {
    const path = normalize(join(root, decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname)));
    const type = TYPES[extname(path)];
    const ok =
      request.method === "GET" &&
      type !== undefined &&
      allowed.some((dir) => path.startsWith(dir)) &&
      existsSync(path) &&
      statSync(path).isFile();
    if (!ok) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": type, "cache-control": "no-store" });
    createReadStream(path).pipe(response);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: `http://127.0.0.1:${port}` });
    });
  });
}

let server: Server | undefined;
let base = "";
let browser: Browser | undefined;

before(async () => {
  ({ server, base } = await serve());
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 60_000 });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

test("the browser example plays the scenario and agrees with the native engine", async () => {
  assert.ok(browser);
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") {
      problems.push(`console error: ${message.text()}`);
    }
  });
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`));
  page.on("response", (response) => {
    if (response.status() >= 400) {
      problems.push(`HTTP ${response.status()}: ${response.url()}`);
    }
  });

  await page.goto(`${base}/examples/browser/index.html`);
  await page.waitForSelector('body[data-status="done"], body[data-status="failed"]', { timeout: 60_000 });
  const status = await page.locator("#status").textContent();
  assert.equal(await page.locator("body").getAttribute("data-status"), "done", status ?? "");
  assert.deepEqual(problems, []);

  const text = (await page.locator("#transcript").textContent()) ?? "";
  const lines = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Line);
  writeTranscript("browser.jsonl", lines);
  await page.screenshot({ path: join(outDir, "browser.png"), fullPage: true });

  const native = readTranscript(join(outDir, "native.jsonl"));
  assert.equal(firstDifference(native, lines), null, "the browser transcript differs from the native run");

  // What a person sees: a row per step, the trigger step ending in `resume`.
  assert.equal(await page.locator("#steps tr").count(), native.length);
  const trigger = await page.locator("#steps tr").nth(9).locator("code").allTextContents();
  assert.deepEqual(trigger, ["ambassadorTriggered", "spiceGained", "effectResolved", "resume"]);
  assert.equal(await page.locator("#steps tr").nth(10).locator("td.error").textContent(), "rule/stale_frame");
  await page.close();
});
