// The local runtime: the Worker bundled with esbuild and served by
// miniflare (workerd + a SQLite-backed D1, no mock), the migrations applied
// as `wrangler d1 migrations apply` would. Used by tools/server.ts, the
// tests and the load run.

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { Miniflare } from "miniflare";

/** The folder of the app: this file runs bundled as dist-node/tools/*.mjs or dist-node/test/*.mjs. */
export const appDir = join(import.meta.dirname, "../..");

/** Bundles src/worker.ts (and the engine's `workerd` build) into dist/. */
export async function build(): Promise<void> {
  await esbuild.build({
    entryPoints: [join(appDir, "src/worker.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker"],
    target: "es2022",
    loader: { ".wasm": "copy" },
    assetNames: "[name]",
    outdir: join(appDir, "dist"),
    logLevel: "warning",
  });
}

export interface RuntimeOptions {
  /** Where D1 keeps its SQLite files (kept across restarts). */
  readonly persist: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** The share of D1 writes that fail (src/faults.ts); 0 for none. */
  readonly faultRate?: number;
  /**
   * Apply the migrations through this instance (the default). The server
   * migrates with a private instance first instead (`migrateOnly`): then
   * nothing but the Worker talks to the served instance, whose port clients
   * may already be knocking on after a restart.
   */
  readonly migrate?: boolean;
}

/** The D1 binding as miniflare hands it to Node. */
export type Database = Awaited<ReturnType<Miniflare["getD1Database"]>>;

export interface Runtime {
  readonly url: string;
  readonly mf: Miniflare;
  readonly db: Database;
  dispose(): Promise<void>;
}

/** Serves dist/worker.js on 127.0.0.1 with the D1 binding DB, migrated. */
export async function start(options: RuntimeOptions): Promise<Runtime> {
  const dist = join(appDir, "dist");
  const mf = new Miniflare({
    modules: [
      { type: "ESModule", path: join(dist, "worker.js"), contents: await readFile(join(dist, "worker.js"), "utf8") },
      { type: "CompiledWasm", path: join(dist, "ecaz_wasm_bg.wasm"), contents: await readFile(join(dist, "ecaz_wasm_bg.wasm")) },
    ],
    modulesRoot: dist,
    compatibilityDate: "2025-09-01",
    d1Databases: ["DB"],
    d1Persist: options.persist,
    bindings: { FAULT_WRITE_RATE: String(options.faultRate ?? 0) },
    host: "127.0.0.1",
    port: options.port ?? 0,
  });
  const url = String(await mf.ready).replace(/\/$/, "");
  const db = await mf.getD1Database("DB");
  if (options.migrate ?? true) await migrate(db);
  return { url, mf, db, dispose: () => mf.dispose() };
}

/** Applies the migrations to the database at `persist` through a private instance (a free port), then stops it. */
export async function migrateOnly(persist: string): Promise<void> {
  const runtime = await start({ persist, port: 0 });
  await runtime.dispose();
}

/** Applies migrations/*.sql not yet applied, in name order, recording each in d1_migrations (wrangler's table). */
export async function migrate(db: Database): Promise<void> {
  await db
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)",
    )
    .run();
  const { results } = await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
  const applied = new Set(results.map((r) => r.name));
  const dir = join(appDir, "migrations");
  for (const name of (await readdir(dir)).filter((n) => n.endsWith(".sql")).sort()) {
    if (applied.has(name)) continue;
    const sql = (await readFile(join(dir, name), "utf8"))
      .split("\n")
      .filter((line) => !line.trimStart().startsWith("--"))
      .join("\n");
    const statements = sql
      .split(/;\s*$/m)
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    await db.batch([
      ...statements.map((s) => db.prepare(s)),
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(name),
    ]);
  }
}
