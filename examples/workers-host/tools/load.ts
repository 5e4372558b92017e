// `scripts/workers-host load [ROOMS SECONDS]` (docs/PERFORMANCE.md): ROOMS rooms
// of 6 seats, each seat a client that polls its seat and posts its bot's
// commands, for SECONDS, against the Worker in miniflare on 127.0.0.1 — with
// faults: D1 writes failing (src/faults.ts, FAULT_RATE) from the start of the
// run, and the runtime killed (SIGKILL) half-way and restarted on the same
// database. Clients retry a failed POST with the same ifRevision and
// request id, retry some accepted ones on purpose, and send some stale ones.
// Then every room is checked:
//   lost     commands answered as accepted that are not in the room's log at
//            their revision, with their request id (0 expected);
//   doubled  request ids in the log more than once, and retries answered
//            with another revision than the first answer (0 expected);
//   leaks    answers a seat got that differ from view/options/eventsFor for
//            that seat at that revision (0 expected);
//   replay   every room's state equals its setup replayed in-process with
//            the log's commands (counted in `diverged`, 0 expected).
// The last line printed is one JSON object with the figures.

import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGame, text, type Options, type Setup } from "@ecaz/engine";
import { chooseCommand } from "../src/bot.js";
import { appDir } from "./runtime.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(value) ? value : fallback;
}

const ROOMS = Math.max(1, Math.min(200, arg("rooms", 50)));
const SECONDS = Math.max(5, Math.min(600, arg("seconds", 60)));
const FAULT_RATE = arg("fault-rate", 0.05);
const TURNS = 100;
const SEATS = ["ecaz", "atreides", "harkonnen", "emperor", "guild", "beneGesserit"] as const;
/** A seat polls about this often when it has nothing to send. */
const POLL_MS = 400;
/** Share of accepted posts sent again on purpose (same ifRevision, same request id). */
const RETRY_SHARE = 0.2;
/** Share of posts sent on purpose against the previous revision (must be 409). */
const STALE_SHARE = 0.1;

// ---- the runtime as a child process, killed and restarted ----

const persist = await mkdtemp(join(tmpdir(), "ecaz-workers-load-"));
let server: ChildProcess | undefined;
let base = "";
let port = 0;
let serverCpuMs = 0;
/** While true, a runtime that exits by itself is restarted. */
let supervising = false;
let crashes = 0;

/** CPU time (ms) of every process in the server's process group (node + workerd). */
async function groupCpuMs(pgid: number): Promise<number> {
  let ticks = 0;
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // fields[2] = pgrp, [11] = utime, [12] = stime (proc(5), counted from field 3)
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

/** Starts the runtime; a start that dies (clients already knocking on its port) is tried again. */
async function startServer(faultRate: number): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await startOnce(faultRate);
      return;
    } catch (error) {
      if (attempt >= 5) throw error;
      console.log(`the runtime did not start (${String(error)}); again`);
      await sleep(500);
    }
  }
}

async function startOnce(faultRate: number): Promise<void> {
  const child = spawn(
    process.execPath,
    [join(appDir, "dist-node/tools/server.mjs"), "--persist", persist, "--port", String(port), "--fault-rate", String(faultRate)],
    { detached: true, stdio: ["ignore", "pipe", "inherit"] },
  );
  child.on("error", (error) => console.log(`the runtime: ${String(error)}`));
  child.stdout?.on("error", () => undefined);
  child.on("exit", () => {
    // Whatever ended it, its workerd goes too (an orphan would hold the port).
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // the group is gone already
    }
    if (server !== child) return;
    server = undefined;
    // Died by itself (not killed by the run): restarted, as a platform would, and counted.
    if (supervising) {
      crashes += 1;
      console.log("the runtime died by itself; restarting it");
      void startServer(faultRate).catch((error: unknown) => console.log(`restart failed: ${String(error)}`));
    }
  });
  base = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`the runtime exited (${code})`)));
  });
  port = Number(new URL(base).port);
  // Supervised from now on (a start that fails is retried by startServer instead).
  server = child;
}

/** SIGKILL the whole process group (node and its workerd), as a crash would. */
async function killServer(): Promise<void> {
  const child = server;
  if (child?.pid === undefined) return;
  serverCpuMs += await groupCpuMs(child.pid);
  server = undefined;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGKILL");
  await exited;
}

// ---- HTTP with timing ----

const latencies: number[] = [];
let requests = 0;
let networkErrors = 0;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One request; a network failure (the runtime down) is status 0. */
async function send(method: "GET" | "POST", path: string, credential?: string, body?: unknown): Promise<Answer> {
  const started = performance.now();
  requests += 1;
  try {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (credential !== undefined) headers.authorization = `Bearer ${credential}`;
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(20_000),
    });
    const answer = { status: response.status, body: (await response.json()) as Record<string, unknown> };
    latencies.push(performance.now() - started);
    return answer;
  } catch {
    networkErrors += 1;
    return { status: 0, body: {} };
  }
}

/** Until a 2xx/4xx answer (5xx and network failures are retried the same way). */
/** Past this time (ms since the epoch) `until` stops retrying: the run ends even if the runtime never comes back. */
let hardStop = Number.POSITIVE_INFINITY;

class GaveUp extends Error {
  override readonly name = "GaveUp";
}

/** Until a 2xx/4xx answer (5xx and network failures are retried the same way), or the hard stop. */
async function until(method: "GET" | "POST", path: string, credential?: string, body?: unknown): Promise<Answer> {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await send(method, path, credential, body);
    if (answer.status >= 200 && answer.status < 500) return answer;
    if (Date.now() > hardStop) throw new GaveUp(`${method} ${path}: no answer by the hard stop (last status ${answer.status})`);
    await sleep(Math.min(1000, 50 * 2 ** Math.min(attempt, 5)));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---- the rooms and their clients ----

interface Room {
  readonly code: string;
  readonly host: string;
  readonly setup: Setup;
  readonly seats: Record<string, string>;
}

interface Accepted {
  readonly room: string;
  readonly revision: number;
  readonly requestId: string;
}

const accepted: Accepted[] = [];
let commands = 0;
let conflicts = 0;
let doubled = 0;
let staleAccepted = 0;
/** Every seat answer's digest, to compare with the seat's projection after the run. */
const reads: { room: string; faction: string; revision: number; since: number; upTo: number; digest: string }[] = [];

function digest(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

async function seatClient(room: Room, faction: string, deadline: number): Promise<void> {
  const credential = room.seats[faction] ?? "";
  const path = `/rooms/${room.code}/seats/${faction}`;
  let since = 0;
  let posts = 0;
  while (Date.now() < deadline) {
    const read = await until("GET", `${path}?since=${since}`, credential);
    if (read.status !== 200) throw new Error(`${faction} read: ${read.status} ${JSON.stringify(read.body)}`);
    const revision = Number(read.body.revision);
    const upTo = Number(read.body.eventsUpTo);
    reads.push({
      room: room.code,
      faction,
      revision,
      since,
      upTo,
      digest: digest({ view: read.body.view, options: read.body.options, events: read.body.events }),
    });
    since = upTo;
    const options = read.body.options as Options;
    const command = options.frame === null || options.frame === undefined ? null : chooseCommand(options, "load", faction, revision);
    if (command === null) {
      await sleep(POLL_MS * (0.5 + Math.random()));
      continue;
    }
    posts += 1;
    if (revision > 0 && Math.random() < STALE_SHARE) {
      // A slow client: the command against the revision before.
      const stale = await until("POST", `${path}/commands`, credential, { command, ifRevision: revision - 1, requestId: `${faction}-stale-${posts}` });
      if (stale.status === 409) conflicts += 1;
      else if (stale.status === 200) staleAccepted += 1;
    }
    const requestId = `${faction}-${revision}-${posts}`;
    const body = { command, ifRevision: revision, requestId };
    const answer = await until("POST", `${path}/commands`, credential, body);
    if (answer.status === 409) {
      conflicts += 1;
      continue;
    }
    if (answer.status !== 200) throw new Error(`${faction} post: ${answer.status} ${JSON.stringify(answer.body)}`);
    commands += 1;
    accepted.push({ room: room.code, revision: Number(answer.body.revision), requestId });
    if (Math.random() < RETRY_SHARE) {
      const again = await until("POST", `${path}/commands`, credential, body);
      if (again.status !== 200 || again.body.revision !== answer.body.revision) doubled += 1;
    }
  }
}

async function createRooms(): Promise<Room[]> {
  const rooms: Room[] = [];
  for (let i = 0; i < ROOMS; i += 1) {
    const setup: Setup = { seats: [...SEATS], seed: 1000 + i };
    const created = await until("POST", "/rooms", undefined, { setup, turns: TURNS, botSeed: "load" });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
    const code = String(created.body.room);
    const seats: Record<string, string> = {};
    for (const faction of SEATS) {
      const joined = await until("POST", `/rooms/${code}/seats/${faction}/join`);
      if (joined.status !== 201) throw new Error(`join: ${joined.status} ${JSON.stringify(joined.body)}`);
      seats[faction] = String(joined.body.credential);
    }
    rooms.push({ code, host: String(created.body.hostCredential), setup, seats });
  }
  return rooms;
}

// ---- checking every room after the run ----

interface LogRow {
  revision: number;
  actor: string;
  requestId: string | null;
  command: unknown;
  events: unknown;
}

async function check(rooms: Room[]): Promise<{ lost: number; doubledInLog: number; leaks: number; diverged: number; revisions: number; finals: number[] }> {
  let lost = 0;
  let doubledInLog = 0;
  let leaks = 0;
  let diverged = 0;
  let revisions = 0;
  const finals: number[] = [];
  for (const room of rooms) {
    const end = await until("GET", `/rooms/${room.code}/host/state`, room.host);
    const revision = Number(end.body.revision);
    const log: LogRow[] = [];
    for (let since = 0; since < revision; ) {
      const page = await until("GET", `/rooms/${room.code}/host?since=${since}`, room.host);
      const rows = (page.body.events as LogRow[]).filter((r) => r.revision <= revision);
      if (rows.length === 0) break;
      log.push(...rows);
      since = rows.at(-1)?.revision ?? revision;
    }
    revisions += revision;
    finals.push(revision);
    const byRevision = new Map(log.map((row) => [row.revision, row]));
    const ids = new Map<string, number>();
    for (const row of log) if (row.requestId !== null) ids.set(row.requestId, (ids.get(row.requestId) ?? 0) + 1);
    doubledInLog += [...ids.values()].filter((n) => n > 1).length;
    for (const a of accepted.filter((x) => x.room === room.code)) {
      if (byRevision.get(a.revision)?.requestId !== a.requestId) lost += 1;
    }
    // Replay the log in-process: each revision's state, for the final state and every seat's answers.
    const needed = new Set(reads.filter((r) => r.room === room.code).map((r) => r.revision));
    const states = new Map<number, string>();
    const game = createGame(room.setup);
    try {
      if (needed.has(0)) states.set(0, game.stateText());
      for (let r = 1; r <= revision; r += 1) {
        const row = byRevision.get(r);
        if (row === undefined) {
          diverged += 1;
          break;
        }
        game.applyText(JSON.stringify(row.command));
        if (needed.has(r)) states.set(r, game.stateText());
      }
      if (game.stateText() !== end.body.state) diverged += 1;
    } finally {
      game.free();
    }
    const eventsText = new Map(log.map((row) => [row.revision, JSON.stringify(row.events)]));
    for (const read of reads.filter((r) => r.room === room.code)) {
      const state = states.get(read.revision);
      if (state === undefined) {
        leaks += 1;
        continue;
      }
      const events: { revision: number; events: unknown }[] = [];
      for (let r = read.since + 1; r <= read.upTo; r += 1) {
        events.push({ revision: r, events: JSON.parse(text.eventsFor(eventsText.get(r) ?? "[]", read.faction)) });
      }
      const expected = digest({
        view: JSON.parse(text.view(state, read.faction)),
        options: JSON.parse(text.options(state, read.faction)),
        events,
      });
      if (expected !== read.digest) leaks += 1;
    }
  }
  return { lost, doubledInLog, leaks, diverged, revisions, finals };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

// ---- the run ----

try {
  await startServer(0);
  const rooms = await createRooms();
  console.log(`${rooms.length} rooms of ${SEATS.length} seats created and joined at ${base}`);
  // The run: restarted with failing writes, then killed half-way and restarted again.
  await killServer();
  await startServer(FAULT_RATE);
  const revisionsBefore = await Promise.all(rooms.map(async (r) => Number((await until("GET", `/rooms/${r.code}/host/state`, r.host)).body.revision)));
  latencies.length = 0;
  requests = 0;
  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  hardStop = deadline + 60_000;
  supervising = true;
  const clients = rooms.flatMap((room) => SEATS.map((faction) => seatClient(room, faction, deadline)));
  await sleep((SECONDS * 1000) / 2);
  console.log(`killing the runtime (SIGKILL) at ${Math.round((Date.now() - started) / 1000)} s`);
  await killServer();
  await sleep(1000);
  await startServer(FAULT_RATE);
  console.log(`restarted at ${base}`);
  await Promise.all(clients);
  hardStop = Date.now() + 120_000;
  const seconds = (Date.now() - started) / 1000;
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const seatRequests = requests;
  const answered = latencies.length;
  // Checked with writes still failing: reads do not write.
  const result = await check(rooms);
  supervising = false;
  if (server?.pid !== undefined) serverCpuMs += await groupCpuMs(server.pid);
  // Every command the rooms accepted during the run: the seats' and the background table's.
  const roomCommands = result.revisions - revisionsBefore.reduce((a, b) => a + b, 0);
  const summary = {
    rooms: rooms.length,
    seats: rooms.length * SEATS.length,
    seconds: Math.round(seconds * 10) / 10,
    commands: roomCommands,
    seatCommands: commands,
    requests: seatRequests,
    conflicts,
    lost: result.lost,
    doubled: doubled + result.doubledInLog + staleAccepted,
    leaks: result.leaks,
    diverged: result.diverged,
    reads: reads.length,
    roomRevisions: { min: Math.min(...result.finals), max: Math.max(...result.finals) },
    networkErrors,
    restarts: 1,
    crashes,
    faultRate: FAULT_RATE,
    p50Ms: Math.round(p50 * 10) / 10,
    p99Ms: Math.round(p99 * 10) / 10,
    cpuMsPerCommand: Math.round((serverCpuMs / Math.max(1, roomCommands)) * 100) / 100,
    answered,
    cpuMsPerRequest: Math.round((serverCpuMs / Math.max(1, answered)) * 100) / 100,
  };
  console.log(JSON.stringify(summary));
  process.exitCode = summary.lost === 0 && summary.doubled === 0 && summary.leaks === 0 && summary.diverged === 0 ? 0 : 1;
} finally {
  supervising = false;
  await killServer();
  await rm(persist, { recursive: true, force: true });
}
