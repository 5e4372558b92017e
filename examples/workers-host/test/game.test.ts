// A 6-seat game of several turns played over HTTP — every
// seat a client that polls its seat and posts its bot's command, racing
// the others and the background table — ends in exactly the state the same
// seeded game reaches in-process, and every answer each seat got equals
// `view` / `options` / `eventsFor` for that seat at that revision (D-201,
// D-204, D-205).

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { text, type Options, type Setup } from "@ecaz/engine";
import { chooseCommand } from "../src/bot.js";
import { call, createRoom, join, playReference, runtime, sleep, stateOf, type Answer } from "./support.js";

const SEATS = ["ecaz", "atreides", "harkonnen", "emperor", "guild", "beneGesserit"] as const;
const SETUP: Setup = { seats: [...SEATS], seed: 20261204 };
const TURNS = 4;
const BOT_SEED = "http-game";

let served: Awaited<ReturnType<typeof runtime>>;
before(async () => {
  served = await runtime();
});
after(async () => {
  await served.stop();
});

/** What one seat's client received. */
interface Seen {
  readonly faction: string;
  readonly reads: Answer[];
  readonly posts: { answer: Answer; ifRevision: number; command: unknown }[];
}

/** A seat's client: polls from its last revision, posts its bot's command at its own frame, until the game is over. */
async function playSeat(base: string, code: string, faction: string, credential: string, over: () => boolean): Promise<Seen> {
  const seen: Seen = { faction, reads: [], posts: [] };
  let since = 0;
  for (let i = 0; i < 20_000 && !over(); i += 1) {
    const read = await call(`${base}/rooms/${code}/seats/${faction}?since=${since}`, "GET", undefined, credential);
    assert.equal(read.status, 200, read.text);
    seen.reads.push(read);
    since = Number(read.body.eventsUpTo);
    const options = read.body.options as Options;
    const revision = Number(read.body.revision);
    if (options.frame === null || options.frame === undefined) {
      await sleep(5);
      continue;
    }
    const command = chooseCommand(options, BOT_SEED, faction, revision);
    assert.notEqual(command, null, `${faction} has a frame and no command`);
    const body = { command, ifRevision: revision, requestId: `${faction}-${revision}` };
    const answer = await call(`${base}/rooms/${code}/seats/${faction}/commands`, "POST", body, credential);
    assert.ok(answer.status === 200 || answer.status === 409, answer.text);
    seen.posts.push({ answer, ifRevision: revision, command });
  }
  return seen;
}

test("D-201: a 6-seat game over HTTP equals the in-process game, and every seat saw exactly its own projection", async () => {
  const reference = playReference(SETUP, TURNS, BOT_SEED);
  const final = reference.states.length - 1;
  assert.ok(final > 30, `the reference game is too short: ${final} commands`);
  const base = served.url;
  const room = await createRoom(base, { setup: SETUP, turns: TURNS, botSeed: BOT_SEED });
  const credentials = await Promise.all(SEATS.map((f) => join(base, room.code, f)));
  let finished = false;
  const watcher = (async () => {
    for (let i = 0; i < 6000 && !finished; i += 1) {
      const { revision } = await stateOf(base, room);
      if (revision >= final) finished = true;
      else await sleep(20);
    }
    finished = true;
  })();
  const seats = await Promise.all(SEATS.map((f, i) => playSeat(base, room.code, f, credentials[i] ?? "", () => finished)));
  await watcher;
  await sleep(300); // a background table would move on here if the reference stopped too early

  // The same state, byte for byte, at the same revision.
  const { revision, state } = await stateOf(base, room);
  assert.equal(revision, final);
  assert.equal(state, reference.states[final]);

  // The host's log: every command's events, every audience.
  const hostLog = await call(`${base}/rooms/${room.code}/host?since=0`, "GET", undefined, room.hostCredential);
  const logged = hostLog.body.events as { revision: number; events: unknown }[];
  assert.equal(logged.length, final);
  for (const row of logged) assert.deepEqual(row.events, JSON.parse(reference.events[row.revision] ?? ""));

  // Every answer each seat got, against the engine's projection for that seat.
  let reads = 0;
  let accepted = 0;
  for (const seat of seats) {
    let since = 0;
    for (const read of seat.reads) {
      const at = Number(read.body.revision);
      const stateAt = reference.states[at] ?? "";
      assert.deepEqual(read.body.view, JSON.parse(text.view(stateAt, seat.faction)), `${seat.faction} view at ${at}`);
      assert.deepEqual(read.body.options, JSON.parse(text.options(stateAt, seat.faction)), `${seat.faction} options at ${at}`);
      const rows = read.body.events as { revision: number; events: unknown }[];
      assert.deepEqual(
        rows.map((r) => r.revision),
        Array.from({ length: Number(read.body.eventsUpTo) - since }, (_, k) => since + 1 + k),
      );
      for (const row of rows) {
        const expected = JSON.parse(text.eventsFor(reference.events[row.revision] ?? "", seat.faction));
        assert.deepEqual(row.events, expected, `${seat.faction} events of ${row.revision}`);
      }
      since = Number(read.body.eventsUpTo);
      reads += 1;
    }
    for (const { answer, ifRevision, command } of seat.posts) {
      if (answer.status !== 200) continue;
      accepted += 1;
      assert.equal(answer.body.revision, ifRevision + 1);
      assert.deepEqual(reference.commands[ifRevision], command);
      const expected = JSON.parse(text.eventsFor(reference.events[ifRevision + 1] ?? "", seat.faction));
      assert.deepEqual(answer.body.events, expected);
    }
  }
  assert.ok(accepted > 0 && reads > final, `${accepted} commands accepted, ${reads} reads`);
  console.log(`http game: ${final} commands (${accepted} from seats), ${reads} reads compared`);
});

test("D-204: bot seats are answered in the background and reach the same game", async () => {
  const reference = playReference(SETUP, 2, "bots");
  const final = reference.states.length - 1;
  const base = served.url;
  const room = await createRoom(base, { setup: SETUP, turns: 2, botSeed: "bots", bots: [...SEATS] });
  let revision = 0;
  for (let i = 0; i < 500 && revision < final; i += 1) {
    // Polls restart a table a failed write stopped; here nothing fails, the table runs on its own.
    revision = (await stateOf(base, room)).revision;
    if (revision < final) await sleep(20);
  }
  await sleep(300);
  const end = await stateOf(base, room);
  assert.equal(end.revision, final);
  assert.equal(end.state, reference.states[final]);
});

test("D-207: a poll returns at most 256 log rows, then continues from eventsUpTo", async () => {
  const base = served.url;
  const room = await createRoom(base, { setup: SETUP, turns: 100, botSeed: "paging", bots: [...SEATS] });
  let revision = 0;
  for (let i = 0; i < 3000 && revision <= 300; i += 1) {
    // The host's poll (not the state export) also restarts the table when one
    // background run has sent its TABLE_STEPS commands and stopped.
    const read = await call(`${base}/rooms/${room.code}/host`, "GET", undefined, room.hostCredential);
    revision = Number(read.body.revision);
    if (revision <= 300) await sleep(50);
  }
  assert.ok(revision > 300, `the room reached revision ${revision} only`);
  const first = await call(`${base}/rooms/${room.code}/host?since=0`, "GET", undefined, room.hostCredential);
  const rows = first.body.events as { revision: number }[];
  assert.equal(rows.length, 256);
  assert.equal(first.body.eventsUpTo, 256);
  assert.equal(first.body.complete, true);
  assert.deepEqual(
    rows.map((r) => r.revision),
    Array.from({ length: 256 }, (_, k) => k + 1),
  );
  const next = await call(`${base}/rooms/${room.code}/host?since=256`, "GET", undefined, room.hostCredential);
  const more = next.body.events as { revision: number }[];
  assert.equal(more[0]?.revision, 257);
  assert.equal(more.at(-1)?.revision, Number(next.body.eventsUpTo));
});
