// node --test wasm/tools/wire-schema.test.mjs (run by scripts/npm-test)
// D-260, D-261: wire-schema.mjs types the strings the engine checks from the
// schemas, and refuses to guess: a wire change it cannot type fails the
// package build. Each case below changes a copy of schemas/ the way a Rust
// change would and expects the tool to fail (or, for a new decision kind or
// error code, to carry it into the unions).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const schemas = join(here, "..", "..", "schemas");
const tool = join(here, "wire-schema.mjs");

/** Runs the tool over schemas/ changed by `change(file → document)`; returns its outcome and outputs. */
function run(change = () => {}, codes = ["decode/invalid_json", "rule/stale_frame"]) {
  const dir = mkdtempSync(join(tmpdir(), "wire-schema-"));
  try {
    cpSync(schemas, join(dir, "schemas"), { recursive: true });
    const edit = (file, body) => {
      const path = join(dir, "schemas", file);
      const doc = JSON.parse(readFileSync(path, "utf8"));
      body(doc);
      writeFileSync(path, JSON.stringify(doc));
    };
    change(edit);
    writeFileSync(join(dir, "codes.json"), JSON.stringify(codes));
    const out = join(dir, "wire.json");
    const kinds = join(dir, "kinds.ts");
    const result = spawnSync(process.execPath, [tool, join(dir, "schemas"), out, join(dir, "codes.json"), kinds], {
      encoding: "utf8",
    });
    if (result.status !== 0) return { ok: false, stderr: result.stderr };
    return { ok: true, wire: JSON.parse(readFileSync(out, "utf8")), kinds: readFileSync(kinds, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every schema file that defines `name` (the documents share definitions). */
function everywhere(edit, name, body) {
  for (const file of ["command.json", "event.json", "game.json", "options.json", "scenario.json", "setup.json", "table.json", "view.json", "error.json"]) {
    edit(file, (doc) => {
      const def = doc.$defs?.[name] ?? (doc.title === name ? doc : undefined);
      if (def !== undefined) body(def, doc);
    });
  }
}

test("D-260: the schemas as they are give the unions", () => {
  const { ok, wire, kinds, stderr } = run();
  assert.ok(ok, stderr);
  const defs = wire.$defs;
  assert.deepEqual(defs.EngineErrorCode.enum, ["decode/invalid_json", "rule/stale_frame"]);
  assert.deepEqual(defs.FrameView.properties.kind.allOf, [{ $ref: "#/$defs/FrameKind" }]);
  assert.deepEqual(defs.ErrorReport.properties.code.allOf, [{ $ref: "#/$defs/ErrorCode" }]);
  assert.equal(defs.Setup.properties.factions.tsType, "{ [K in Faction]?: FactionSetup }");
  assert.deepEqual(defs.Command.oneOf, [{ $ref: "#/$defs/HostCommand" }, { $ref: "#/$defs/FactionCommand" }]);
  assert.match(kinds, /export const FRAME_KINDS = \[/);
  // D-261: an action without a frame is the host's unless it is a play.
  const host = new Set(defs.HostAction.oneOf.map((r) => r.$ref.split("/").pop()));
  for (const r of defs.Action.oneOf) {
    const name = r.$ref.split("/").pop();
    const def = defs[name];
    if (def.properties.frame === undefined) assert.equal(host.has(name), !def.properties.kind.const.startsWith("play"), name);
  }
});

test("D-260: a decision kind and an error code added in Rust reach the unions", () => {
  const { ok, wire, kinds, stderr } = run(
    (edit) =>
      everywhere(edit, "Decision", (def, doc) => {
        doc.$defs.NewDecision = { type: "object", properties: { kind: { type: "string", const: "newKind" } }, required: ["kind"] };
        def.oneOf.push({ $ref: "#/$defs/NewDecision" });
      }),
    ["decode/invalid_json", "rule/added_in_rust"],
  );
  assert.ok(ok, stderr);
  assert.ok(wire.$defs.FrameKind.enum.includes("newKind"));
  assert.ok(kinds.includes('"newKind"'));
  assert.ok(wire.$defs.EngineErrorCode.enum.includes("rule/added_in_rust"));
});

test("D-260: a new string-keyed map fails the build until its key type is named", () => {
  const { ok, stderr } = run((edit) =>
    everywhere(edit, "Setup", (def) => {
      def.properties.byTerritory = { type: "object", additionalProperties: { $ref: "#/$defs/Faction" } };
    }),
  );
  assert.ok(!ok);
  assert.match(stderr, /Setup\.byTerritory is a map with no key type/);
});

test("D-260: a typed string that is gone or no longer a string fails the build", () => {
  const gone = run((edit) => everywhere(edit, "FrameView", (def) => delete def.properties.kind));
  assert.ok(!gone.ok);
  assert.match(gone.stderr, /FrameView\.kind is gone/);
  const number = run((edit) => everywhere(edit, "ErrorReport", (def) => (def.properties.code = { type: "integer" })));
  assert.ok(!number.ok);
  assert.match(number.stderr, /ErrorReport\.code is no longer a string/);
  // D-242: `Blocked.code` comes typed by the schemas; a plain string there fails.
  const untyped = run((edit) => everywhere(edit, "Blocked", (def) => (def.properties.code = { type: "string" })));
  assert.ok(!untyped.ok);
  assert.match(untyped.stderr, /Blocked\.code is not typed as EngineErrorCode/);
});

test("D-261: a new Command field fails the build until HostCommand and FactionCommand carry it", () => {
  const { ok, stderr } = run((edit) =>
    everywhere(edit, "Command", (def) => {
      def.properties.requestId = { type: "string" };
    }),
  );
  assert.ok(!ok);
  assert.match(stderr, /Command has new fields: requestId/);
});
