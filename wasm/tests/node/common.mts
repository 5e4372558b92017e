// Shared by the Node tests: paths, the scenario file, transcripts and errors.
//
// A transcript is one JSON line per scenario step:
//   {"step":N,"events":[…]}    an accepted command and its events
//   {"step":N,"error":"code"}  a rejected command and its error code
// The C test, these tests and the browser page write it; scripts/ffi-check
// writes the native engine's (from `ecaz replay`) to target/bindings/native.jsonl.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

import type { Event, Scenario } from "../../pkg/types/index.js";

/** The repository root (this file is wasm/tests/node/*.mts, or wasm/pkg/tests/*.mjs once compiled). */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** Where the transcripts and other outputs of the bindings' tests go. */
export const outDir = process.env["ECAZ_BINDINGS_OUT"] ?? join(root, "target", "bindings");

/** The scenario every client of the bindings plays. */
export const scenarioPath = join(root, "examples", "scenarios", "bindings.json");

export function readScenario(): Scenario {
  return JSON.parse(readFileSync(scenarioPath, "utf8")) as Scenario;
}

export interface Line {
  step: number;
  events?: Event[];
  error?: string;
}

export function readTranscript(path: string): Line[] {
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: run scripts/ffi-check first (it writes the native and C transcripts)`);
  }
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Line);
}

export function writeTranscript(name: string, lines: Line[]): string {
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, name);
  writeFileSync(path, lines.map((line) => JSON.stringify(line) + "\n").join(""));
  return path;
}

/** The first step where two transcripts differ, or null. */
export function firstDifference(a: Line[], b: Line[]): string | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (!isDeepStrictEqual(a[i], b[i])) {
      return `step ${i + 1}:\n  ${JSON.stringify(a[i])}\n  ${JSON.stringify(b[i])}`;
    }
  }
  return null;
}

/** The stable code of an error thrown by the WASM API (throws if there is none). */
export function codeOf(error: unknown): string {
  if (!(error instanceof Error)) {
    throw new Error(`not an Error: ${String(error)}`);
  }
  const code: unknown = (error as Error & { code?: unknown }).code;
  if (typeof code !== "string") {
    throw new Error(`an Error without a code: ${error.name}: ${error.message}`);
  }
  return code;
}
