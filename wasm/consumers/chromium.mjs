// node chromium.mjs REPO_ROOT WEB_DIR OUT.jsonl: serves WEB_DIR on 127.0.0.1,
// opens it in headless Chromium (playwright-core from the repository's dev
// tools) and writes the page's transcript.
import { createReadStream, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { extname, join } from "node:path";

const [root, web, out] = process.argv.slice(2);
const { chromium } = createRequire(join(root, "package.json"))("playwright-core");
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer((req, res) => {
  const path = join(web, new URL(req.url ?? "/", "http://x").pathname.replace(/\/$/, "/index.html"));
  res.setHeader("content-type", types[extname(path)] ?? "application/octet-stream");
  createReadStream(path).on("error", () => res.writeHead(404).end()).pipe(res);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address();
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const page = await browser.newPage();
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => globalThis.ecazResult !== undefined, null, { timeout: 30000 });
  const result = await page.evaluate(() => globalThis.ecazResult);
  if (!result.ok) throw new Error(`the page failed: ${result.error}`);
  writeFileSync(out, result.lines.map((line) => JSON.stringify(line) + "\n").join(""));
  console.log(`browser: ${result.lines.length} steps, Ecaz sees ${result.view.ambassadors.placement.placed} placed`);
} finally {
  await browser.close();
  server.close();
}
