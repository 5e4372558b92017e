// One test per security rule of the host (D-202, D-203,
// D-206), and the retry rule (D-200). Every refused request leaves the room's
// state byte for byte as it was. The rooms here use table mode `external`,
// so nothing moves between two reads but what the test sends.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, test } from "node:test";
import { text, type Options, type Setup } from "@ecaz/engine";
import { call, createRoom, join, runtime, stateOf, type CreatedRoom } from "./support.js";

const SETUP: Setup = { seats: ["ecaz", "atreides", "harkonnen"], seed: 7 };
const PHASES = ["storm", "spiceBlow", "choamCharity", "bidding", "revival"] as const;

let served: Awaited<ReturnType<typeof runtime>>;
let base = "";
before(async () => {
  served = await runtime();
  base = served.url;
});
after(async () => {
  await served.stop();
});

interface Table {
  readonly room: CreatedRoom;
  readonly seats: { readonly ecaz: string; readonly atreides: string };
}

/** A room with Ecaz and Atreides joined (Harkonnen free), advanced by the host to Ecaz's placement. */
async function table(): Promise<Table> {
  const room = await createRoom(base, { setup: SETUP, table: "external", bots: [] });
  const seats = { ecaz: await join(base, room.code, "ecaz"), atreides: await join(base, room.code, "atreides") };
  for (const [i, phase] of PHASES.entries()) {
    const command = { actor: "host", action: { kind: "endPhase", phase } };
    const answer = await call(`${base}/rooms/${room.code}/host/commands`, "POST", { command, ifRevision: i }, room.hostCredential);
    assert.equal(answer.status, 200, answer.text);
  }
  return { room, seats };
}

function url(t: Table, path: string): string {
  return `${base}/rooms/${t.room.code}${path}`;
}

/** Runs `refused`, then checks the room's state text did not change. */
async function unchanged(t: Table, refused: () => Promise<void>): Promise<void> {
  const before = await stateOf(base, t.room);
  await refused();
  assert.deepEqual(await stateOf(base, t.room), before);
}

/** An error body: only these keys, whatever went wrong. */
function assertErrorShape(body: Record<string, unknown>, code: string): void {
  assert.equal(body.code, code);
  assert.equal(typeof body.message, "string");
  for (const key of Object.keys(body)) assert.ok(["code", "message", "rule", "problems", "revision"].includes(key), key);
}

async function ecazPlace(t: Table): Promise<{ command: unknown; ifRevision: number }> {
  const read = await call(url(t, "/seats/ecaz"), "GET", undefined, t.seats.ecaz);
  const options = read.body.options as Options;
  const command = options.commands[0];
  assert.ok(command !== undefined);
  return { command, ifRevision: Number(read.body.revision) };
}

test("D-203: credentials are random, 256 bits, and stored only as their SHA-256", async () => {
  const a = await table();
  const b = await table();
  const all = [a.room.hostCredential, b.room.hostCredential, a.seats.ecaz, a.seats.atreides, b.seats.ecaz, b.seats.atreides];
  assert.equal(new Set(all).size, all.length);
  for (const credential of all) assert.match(credential, /^[A-Za-z0-9_-]{43}$/);
  const rooms = await served.db.prepare("SELECT * FROM rooms").all();
  const seats = await served.db.prepare("SELECT * FROM seats").all();
  const stored = JSON.stringify([rooms.results, seats.results]);
  for (const credential of all) assert.ok(!stored.includes(credential), "a credential is stored as is");
  const sha = (s: string): string => createHash("sha256").update(s).digest("hex");
  const hostRow = rooms.results.find((r) => r.code === a.room.code);
  assert.equal(hostRow?.host_hash, sha(a.room.hostCredential));
  const ecazRow = seats.results.find((r) => r.room === a.room.code && r.faction === "ecaz");
  assert.equal(ecazRow?.credential_hash, sha(a.seats.ecaz));
});

test("D-203: a seat is claimed once; a bot seat and an unseated faction cannot be joined", async () => {
  const t = await table();
  const again = await call(url(t, "/seats/ecaz/join"), "POST");
  assert.equal(again.status, 409);
  assertErrorShape(again.body, "seat/taken");
  const bots = await createRoom(base, { setup: SETUP, table: "external", bots: ["harkonnen"] });
  const bot = await call(`${base}/rooms/${bots.code}/seats/harkonnen/join`, "POST");
  assert.equal(bot.status, 404);
  assertErrorShape(bot.body, "seat/not_found");
  const unseated = await call(url(t, "/seats/fremen/join"), "POST");
  assert.equal(unseated.status, 404);
  // The first credential still opens the seat: the refused join changed nothing.
  assert.equal((await call(url(t, "/seats/ecaz"), "GET", undefined, t.seats.ecaz)).status, 200);
});

test("D-202: a seat acts only as its own faction (a command naming another actor is 403)", async () => {
  const t = await table();
  const { command, ifRevision } = await ecazPlace(t);
  await unchanged(t, async () => {
    // Atreides, with its own credential on its own seat, sends Ecaz's command.
    const answer = await call(url(t, "/seats/atreides/commands"), "POST", { command, ifRevision }, t.seats.atreides);
    assert.equal(answer.status, 403);
    assertErrorShape(answer.body, "auth/wrong_actor");
    // A seat cannot send host reports either.
    const report = { actor: "host", action: { kind: "endPhase", phase: "shipmentMovement" } };
    const host = await call(url(t, "/seats/atreides/commands"), "POST", { command: report, ifRevision }, t.seats.atreides);
    assert.equal(host.status, 403);
  });
});

test("D-202: a client replaying another seat's request with its own credential is refused", async () => {
  const t = await table();
  const { command, ifRevision } = await ecazPlace(t);
  await unchanged(t, async () => {
    // Ecaz's exact request (path and body), sent with Atreides' credential.
    const answer = await call(url(t, "/seats/ecaz/commands"), "POST", { command, ifRevision }, t.seats.atreides);
    assert.equal(answer.status, 401);
    assertErrorShape(answer.body, "auth/invalid");
    // And the same for Ecaz's read.
    const read = await call(url(t, "/seats/ecaz?since=0"), "GET", undefined, t.seats.atreides);
    assert.equal(read.status, 401);
  });
  // Ecaz itself is accepted with exactly that request.
  const own = await call(url(t, "/seats/ecaz/commands"), "POST", { command, ifRevision }, t.seats.ecaz);
  assert.equal(own.status, 200, own.text);
});

test("D-202: a seat reads only its own projection (view, options and events for that seat)", async () => {
  // A card drawn by Atreides: an event only Atreides (and the host) may see.
  const draw = { actor: "host", action: { kind: "drawCard", faction: "atreides" } };
  const room = await createRoom(base, { setup: SETUP, table: "external", bots: [] });
  const seats = { ecaz: await join(base, room.code, "ecaz"), atreides: await join(base, room.code, "atreides") };
  const report = await call(`${base}/rooms/${room.code}/host/commands`, "POST", { command: draw, ifRevision: 0 }, room.hostCredential);
  assert.equal(report.status, 200, report.text);
  const all = report.body.events as { audience: { kind: string } }[];
  assert.ok(all.some((e) => e.audience.kind !== "public"), "the draw has a private event");
  const { state } = await stateOf(base, room);
  const events = (await call(`${base}/rooms/${room.code}/host?since=0`, "GET", undefined, room.hostCredential)).body
    .events as { events: unknown[] }[];
  const logged = JSON.stringify(events[0]?.events);
  for (const faction of ["ecaz", "atreides"] as const) {
    const read = await call(`${base}/rooms/${room.code}/seats/${faction}?since=0`, "GET", undefined, seats[faction]);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.view, JSON.parse(text.view(state, faction)));
    assert.deepEqual(read.body.options, JSON.parse(text.options(state, faction)));
    const rows = read.body.events as { revision: number; events: unknown }[];
    assert.deepEqual(rows, [{ revision: 1, events: JSON.parse(text.eventsFor(logged, faction)) }]);
    const seen = read.body.view as { factions: { faction: string; hand: unknown }[] };
    for (const other of seen.factions.filter((f) => f.faction !== faction)) assert.equal(other.hand, null);
  }
  // Ecaz saw fewer events than Atreides: the card drawn stayed Atreides'.
  const ecaz = JSON.parse(text.eventsFor(logged, "ecaz")) as unknown[];
  const atreides = JSON.parse(text.eventsFor(logged, "atreides")) as unknown[];
  assert.ok(ecaz.length < atreides.length, `${ecaz.length} vs ${atreides.length}`);
});

test("D-200: commands racing on one revision: exactly one is applied, the others are 409", async () => {
  const t = await table();
  const read = await call(url(t, "/seats/ecaz"), "GET", undefined, t.seats.ecaz);
  const options = read.body.options as Options;
  const ifRevision = Number(read.body.revision);
  const start = await stateOf(base, t.room);
  const commands = options.commands.slice(0, 8);
  assert.ok(commands.length >= 4);
  const answers = await Promise.all(
    commands.map((command) => call(url(t, "/seats/ecaz/commands"), "POST", { command, ifRevision }, t.seats.ecaz)),
  );
  const won = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
  assert.equal(won.length, 1, answers.map((a) => a.status).join(" "));
  for (const answer of answers.filter((a) => a.status !== 200)) {
    assert.equal(answer.status, 409, answer.text);
    assert.equal(answer.body.revision, ifRevision + 1);
  }
  // The room is the winner applied to the state they all read, and its log has the winner alone.
  const winner = JSON.stringify(commands[won[0] ?? 0]);
  const end = await stateOf(base, t.room);
  assert.equal(end.revision, ifRevision + 1);
  assert.equal(end.state, text.apply(start.state, winner).state);
  const log = (await call(url(t, `/host?since=${ifRevision}`), "GET", undefined, t.room.hostCredential)).body.events as unknown[];
  assert.equal(log.length, 1);
});

test("D-202: host reports and the host's reads need the host credential", async () => {
  const t = await table();
  const report = { actor: "host", action: { kind: "endPhase", phase: "shipmentMovement" } };
  await unchanged(t, async () => {
    for (const credential of [t.seats.ecaz, undefined, "A".repeat(43)]) {
      const post = await call(url(t, "/host/commands"), "POST", { command: report, ifRevision: 5 }, credential);
      assert.equal(post.status, 401);
      assertErrorShape(post.body, "auth/invalid");
      for (const path of ["/host", "/host/state"]) {
        const read = await call(url(t, path), "GET", undefined, credential);
        assert.equal(read.status, 401);
      }
    }
  });
});

test("D-206: every refusal of a credential is the same answer, revealing nothing of the seat", async () => {
  const t = await table();
  const bots = await createRoom(base, { setup: SETUP, table: "external", bots: ["harkonnen"] });
  const answers = [
    await call(url(t, "/seats/ecaz"), "GET", undefined, t.seats.atreides), // a joined seat, another's credential
    await call(url(t, "/seats/harkonnen"), "GET", undefined, t.seats.atreides), // a free seat
    await call(url(t, "/seats/fremen"), "GET", undefined, t.seats.atreides), // no such seat
    await call(url(t, "/seats/ecaz"), "GET"), // no credential
    await call(`${base}/rooms/${bots.code}/seats/harkonnen`, "GET", undefined, t.seats.atreides), // a bot seat
  ];
  for (const answer of answers) {
    assert.equal(answer.status, 401);
    assert.equal(answer.text, answers[0]?.text);
  }
});

test("D-206: an engine refusal is the engine's report and nothing more; the room is unchanged", async () => {
  const t = await table();
  const { ifRevision } = await ecazPlace(t);
  await unchanged(t, async () => {
    const stale = { actor: "ecaz", action: { kind: "place", frame: 999, token: "emperor", territory: "arrakeen" } };
    const answer = await call(url(t, "/seats/ecaz/commands"), "POST", { command: stale, ifRevision }, t.seats.ecaz);
    assert.equal(answer.status, 422);
    assertErrorShape(answer.body, String(answer.body.code));
    assert.match(String(answer.body.code), /^rule\//);
    const malformed = { actor: "ecaz", action: { kind: "noSuchAction" } };
    const bad = await call(url(t, "/seats/ecaz/commands"), "POST", { command: malformed, ifRevision }, t.seats.ecaz);
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.code), /^decode\//);
  });
});

test("D-206: unknown rooms and malformed input get clear 4xx JSON answers", async () => {
  const t = await table();
  const cases: [string, "GET" | "POST", unknown, string | undefined, number, string][] = [
    [`${base}/rooms/nosuchroom/seats/ecaz`, "GET", undefined, t.seats.ecaz, 404, "room/not_found"],
    [`${base}/rooms/nosuchroom/seats/ecaz/join`, "POST", undefined, undefined, 404, "room/not_found"],
    [`${base}/rooms/NOT-A-CODE/host`, "GET", undefined, undefined, 404, "request/not_found"],
    [`${base}/nowhere`, "GET", undefined, undefined, 404, "request/not_found"],
    [`${base}/rooms`, "GET", undefined, undefined, 405, "request/method_not_allowed"],
    [`${base}/rooms`, "POST", "{not json", undefined, 400, "request/invalid_json"],
    [`${base}/rooms`, "POST", { setup: [] }, undefined, 400, "request/invalid_field"],
    [`${base}/rooms`, "POST", { setup: { seats: ["ecaz"], seed: 1 } }, undefined, 400, "setup/invalid"],
    [`${base}/rooms`, "POST", { setup: SETUP, turns: 0 }, undefined, 400, "request/invalid_field"],
    [`${base}/rooms`, "POST", { setup: SETUP, bots: ["fremen"] }, undefined, 400, "request/invalid_field"],
    [url(t, "/seats/ecaz?since=-1"), "GET", undefined, t.seats.ecaz, 400, "request/invalid_since"],
    [url(t, "/seats/ecaz?since=99"), "GET", undefined, t.seats.ecaz, 400, "request/invalid_since"],
    [url(t, "/seats/ecaz/commands"), "POST", { command: "x", ifRevision: 5 }, t.seats.ecaz, 400, "request/invalid_field"],
    [url(t, "/seats/ecaz/commands"), "POST", { command: {}, ifRevision: -1 }, t.seats.ecaz, 400, "request/invalid_field"],
    [url(t, "/seats/ecaz/commands"), "POST", { command: {}, ifRevision: 5, requestId: "a b" }, t.seats.ecaz, 400, "request/invalid_field"],
  ];
  await unchanged(t, async () => {
    for (const [target, method, body, credential, status, code] of cases) {
      const answer = await call(target, method, body, credential);
      assert.equal(answer.status, status, `${method} ${target}: ${answer.text}`);
      assertErrorShape(answer.body, code);
    }
  });
});

test("D-206: bodies are capped at 64 KiB, with or without a Content-Length", async () => {
  const t = await table();
  const big = JSON.stringify({ command: { actor: "ecaz", pad: "x".repeat(70 * 1024) }, ifRevision: 5 });
  await unchanged(t, async () => {
    const declared = await call(url(t, "/seats/ecaz/commands"), "POST", big, t.seats.ecaz);
    assert.equal(declared.status, 413);
    assertErrorShape(declared.body, "request/too_large");
    // Streamed without a length: counted as it arrives.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
        controller.close();
      },
    });
    const streamed = await call(url(t, "/seats/ecaz/commands"), "POST", undefined, t.seats.ecaz, {
      body: stream,
      duplex: "half",
    } as RequestInit);
    assert.equal(streamed.status, 413);
    const created = await call(`${base}/rooms`, "POST", JSON.stringify({ setup: SETUP, pad: "x".repeat(70 * 1024) }));
    assert.equal(created.status, 413);
  });
});

test("D-200: a retried POST is answered as the first, never applied twice; a stale one is a 409 with the revision", async () => {
  const t = await table();
  const { command, ifRevision } = await ecazPlace(t);
  const body = { command, ifRevision, requestId: "place-1" };
  const first = await call(url(t, "/seats/ecaz/commands"), "POST", body, t.seats.ecaz);
  assert.equal(first.status, 200, first.text);
  const after = await stateOf(base, t.room);
  assert.equal(after.revision, ifRevision + 1);
  await unchanged(t, async () => {
    const retry = await call(url(t, "/seats/ecaz/commands"), "POST", body, t.seats.ecaz);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.replayed, true);
    assert.equal(retry.body.revision, first.body.revision);
    assert.deepEqual(retry.body.events, first.body.events);
    // Without the request id, or with another one: a conflict naming the current revision.
    for (const other of [{ command, ifRevision }, { command, ifRevision, requestId: "place-2" }]) {
      const stale = await call(url(t, "/seats/ecaz/commands"), "POST", other, t.seats.ecaz);
      assert.equal(stale.status, 409);
      assertErrorShape(stale.body, "room/conflict");
      assert.equal(stale.body.revision, ifRevision + 1);
    }
    // Another seat reusing Ecaz's request id does not get Ecaz's answer.
    const report = { actor: "host", action: { kind: "endPhase", phase: "revival" } };
    const host = await call(url(t, "/host/commands"), "POST", { command: report, ifRevision, requestId: "place-1" }, t.room.hostCredential);
    assert.equal(host.status, 409);
  });
});
