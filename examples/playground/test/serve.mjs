// A static file server for the built playground (target/playground/), on
// 127.0.0.1 only, GET only, no directory listings, nothing outside the folder.
// `node serve.mjs DIR PORT` serves until stopped; the browser test imports `serve`.

import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

/**
 * Serve `dir` on 127.0.0.1:`port` (0 = a free port).
 * @param {string} dir
 * @param {number} port
 * @returns {Promise<{ server: import("node:http").Server, base: string }>}
 */
export function serve(dir, port) {
  const root = resolve(dir) + sep;
  const server = createServer((request, response) => {
    let path = normalize(join(root, decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname)));
    if (path + sep === root || path.endsWith(sep)) {
      path = join(path, "index.html");
    }
    const type = TYPES[extname(path)];
    const ok =
      request.method === "GET" && type !== undefined && path.startsWith(root) && existsSync(path) && statSync(path).isFile();
    if (!ok) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": type, "cache-control": "no-store" });
    createReadStream(path).pipe(response);
  });
  return new Promise((done) => {
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const actual = typeof address === "object" && address !== null ? address.port : port;
      done({ server, base: `http://127.0.0.1:${actual}` });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [dir, port] = process.argv.slice(2);
  const { base } = await serve(dir ?? ".", Number(port ?? "8417"));
  console.log(`playground on ${base}/`);
}
