// The reference multiplayer host for @ecaz/engine on Cloudflare Workers + D1
// (docs/integration.md §9.4): rooms, seats with credentials, each seat's own
// projection, commands as compare-and-swaps on the room's revision, and the
// seats the Worker plays (the host table, bot seats) answered in the
// background with `ctx.waitUntil`.
//
//   POST /rooms                                 create a room from a setup → the host credential (once)
//   POST /rooms/:room/seats/:faction/join       claim a player seat → its credential (once)
//   GET  /rooms/:room/seats/:faction?since=N    my seat: view, options, my events after revision N
//   POST /rooms/:room/seats/:faction/commands   {command, ifRevision, requestId?} as that faction
//   GET  /rooms/:room/host?since=N              the host's view, options and every event
//   POST /rooms/:room/host/commands             host reports, with the host credential
//   GET  /rooms/:room/host/state                the engine's state text (to back up or replay), host only
//
// Seat and host requests carry `Authorization: Bearer <credential>`.

import { createGameText, loadGame, text, type Game } from "@ecaz/engine";
import { bearer, credentialMatches, hashCredential, newCredential, newRoomCode, newSeed } from "./credentials.js";
import { failingWrites, type Db } from "./faults.js";
import { count, errorResponse, HttpError, json, object, readJson } from "./http.js";
import {
  claimSeat,
  commit,
  insertRoom,
  loadRoom,
  loadRoomAndSeat,
  loadSeat,
  logBetween,
  loggedAt,
  type RoomRow,
} from "./store.js";
import { nextMove, type TableRoom } from "./table.js";

export interface Env {
  DB: D1Database;
  /** Load runs only: the share of D1 writes that fail (src/faults.ts). */
  FAULT_WRITE_RATE?: string;
}

/** Log rows returned per poll at most (a client asks again from `eventsUpTo`). */
const EVENTS_PAGE = 256;
/**
 * Commands the background table sends per invocation at most (a request's
 * `waitUntil` is bounded in time); the next poll of any seat or the host
 * continues after STALL_MS.
 */
const TABLE_STEPS = 200;
/** A poll restarts the background table when the room has not moved for this long (a crash or a failed write stopped it). */
const STALL_MS = 500;
/** How many turns a room plays unless the setup asks for another number. */
const DEFAULT_TURNS = 10;
const MAX_TURNS = 100;

interface Host {
  readonly db: Db;
  readonly ctx: ExecutionContext;
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const host: Host = { db: failingWrites(env.DB, Number(env.FAULT_WRITE_RATE ?? "0")), ctx };
    try {
      return await route(request, host);
    } catch (error) {
      return errorResponse(error);
    }
  },
} satisfies ExportedHandler<Env>;

const ROOM = "([a-z0-9]{1,16})";
const FACTION = "([A-Za-z]{1,24})";
const routes: readonly [string, RegExp, (h: Host, r: Request, m: string[]) => Promise<Response>][] = [
  ["POST", /^\/rooms$/, (h, r) => createRoom(h, r)],
  ["POST", new RegExp(`^/rooms/${ROOM}/seats/${FACTION}/join$`), (h, _r, m) => join(h, at(m, 1), at(m, 2))],
  ["GET", new RegExp(`^/rooms/${ROOM}/seats/${FACTION}$`), (h, r, m) => readSeat(h, r, at(m, 1), at(m, 2))],
  ["POST", new RegExp(`^/rooms/${ROOM}/seats/${FACTION}/commands$`), (h, r, m) => post(h, r, at(m, 1), at(m, 2))],
  ["GET", new RegExp(`^/rooms/${ROOM}/host$`), (h, r, m) => readSeat(h, r, at(m, 1), "host")],
  ["POST", new RegExp(`^/rooms/${ROOM}/host/commands$`), (h, r, m) => post(h, r, at(m, 1), "host")],
  ["GET", new RegExp(`^/rooms/${ROOM}/host/state$`), (h, r, m) => readState(h, r, at(m, 1))],
];

function at(match: string[], i: number): string {
  return match[i] ?? "";
}

async function route(request: Request, host: Host): Promise<Response> {
  const path = new URL(request.url).pathname;
  let known = false;
  for (const [method, pattern, handle] of routes) {
    const match = pattern.exec(path);
    if (match === null) continue;
    known = true;
    if (method === request.method) return handle(host, request, [...match]);
  }
  if (known) throw new HttpError(405, "request/method_not_allowed", "this path does not take that method");
  throw new HttpError(404, "request/not_found", "no such endpoint");
}

// ---- rooms and seats ----

async function createRoom(host: Host, request: Request): Promise<Response> {
  const body = object(await readJson(request), "the body");
  const setup = object(body.setup, "setup");
  // The seed is the host's secret (D-82): drawn here when the creator gives none.
  const seeded = setup.seed === undefined ? { ...setup, seed: newSeed() } : setup;
  const tableMode = body.table ?? "auto";
  if (tableMode !== "auto" && tableMode !== "external") {
    throw new HttpError(400, "request/invalid_field", 'table must be "auto" or "external"');
  }
  const turns = body.turns === undefined ? DEFAULT_TURNS : count(body.turns, "turns");
  if (turns < 1 || turns > MAX_TURNS) throw new HttpError(400, "request/invalid_field", `turns must be 1 to ${MAX_TURNS}`);
  const botSeed = body.botSeed ?? String(newSeed());
  if (typeof botSeed !== "string" || botSeed.length > 64) {
    throw new HttpError(400, "request/invalid_field", "botSeed must be a string of at most 64 characters");
  }
  const game = createGameText(JSON.stringify(seeded)); // the engine checks the setup (setup/… codes)
  let state: string;
  let turn: number;
  let seats: string[];
  try {
    state = game.stateText();
    const seen = game.view("host");
    turn = seen.turn;
    seats = seen.seats;
  } finally {
    game.free();
  }
  const bots = body.bots ?? [];
  if (!Array.isArray(bots) || !bots.every((b) => typeof b === "string" && seats.includes(b))) {
    throw new HttpError(400, "request/invalid_field", "bots must list seated factions");
  }
  const credential = newCredential();
  const code = newRoomCode();
  const room = {
    code,
    state,
    revision: 0,
    host_hash: await hashCredential(credential),
    table_mode: tableMode,
    last_turn: turn + turns,
    bot_seed: botSeed,
    bots: JSON.stringify(seats.filter((f) => bots.includes(f))),
  } as const;
  const seatRows = seats.map((faction) => ({ faction, kind: bots.includes(faction) ? ("bot" as const) : ("player" as const) }));
  await insertRoom(host.db, room, seatRows, Date.now());
  host.ctx.waitUntil(runTable(host, code));
  return json(201, { room: code, hostCredential: credential, revision: 0, seats: seatRows });
}

async function join(host: Host, code: string, faction: string): Promise<Response> {
  await requireRoom(host, code);
  const seat = await loadSeat(host.db, code, faction);
  if (seat === null || seat.kind !== "player") {
    throw new HttpError(404, "seat/not_found", "this room has no player seat of that faction");
  }
  const credential = newCredential();
  if (!(await claimSeat(host.db, code, faction, await hashCredential(credential)))) {
    throw new HttpError(409, "seat/taken", "this seat is already taken");
  }
  return json(201, { room: code, faction, credential });
}

async function requireRoom(host: Host, code: string): Promise<RoomRow> {
  const room = await loadRoom(host.db, code);
  if (room === null) throw new HttpError(404, "room/not_found", "no such room");
  return room;
}

/**
 * The room, once the request's credential opens `viewer`'s seat (the host
 * credential for "host"). Every refusal is the same 401, whether the seat
 * exists, is free, is a bot or belongs to someone else.
 */
async function authorize(host: Host, request: Request, code: string, viewer: string): Promise<RoomRow> {
  let room: RoomRow | null;
  let stored: string | null;
  if (viewer === "host") {
    room = await loadRoom(host.db, code);
    stored = room?.host_hash ?? null;
  } else {
    const found = await loadRoomAndSeat(host.db, code, viewer);
    room = found;
    stored = found?.seat_hash ?? null;
  }
  if (room === null) throw new HttpError(404, "room/not_found", "no such room");
  if (!(await credentialMatches(bearer(request) ?? "", stored))) {
    throw new HttpError(401, "auth/invalid", "this credential does not open this seat");
  }
  return room;
}

// ---- reading a seat ----

async function readSeat(host: Host, request: Request, code: string, viewer: string): Promise<Response> {
  const room = await authorize(host, request, code, viewer);
  const sinceParam = new URL(request.url).searchParams.get("since");
  const since = sinceParam === null ? room.revision : parseSince(sinceParam, room.revision);
  const game = loadGame(room.state);
  let view: unknown;
  let options: unknown;
  try {
    view = game.view(viewer as Parameters<Game["view"]>[0]);
    options = game.options(viewer as Parameters<Game["options"]>[0]);
    if (Date.now() - room.updated_at > STALL_MS) kickIfStalled(host, game, room);
  } finally {
    game.free();
  }
  const rows = since < room.revision ? await logBetween(host.db, code, since, room.revision, EVENTS_PAGE) : [];
  // The host also gets each command (who sent it, its request id): the room's record, to audit or replay it.
  const events = rows.map((row) =>
    viewer === "host"
      ? { revision: row.revision, actor: row.actor, requestId: row.request_id, command: JSON.parse(row.command) as unknown, events: eventsOf(row.events, viewer) }
      : { revision: row.revision, events: eventsOf(row.events, viewer) },
  );
  const eventsUpTo = rows.length === EVENTS_PAGE ? (rows.at(-1)?.revision ?? since) : room.revision;
  // `complete` is false when the log no longer holds the oldest asked-for rows (LOG_KEEP).
  const complete = since === room.revision || rows[0]?.revision === since + 1;
  return json(200, { room: code, viewer, revision: room.revision, view, options, events, eventsUpTo, complete });
}

/** The room's state text: everything, the RNG included, so the host credential only. */
async function readState(host: Host, request: Request, code: string): Promise<Response> {
  const room = await authorize(host, request, code, "host");
  return json(200, { room: code, revision: room.revision, state: room.state });
}

function parseSince(param: string, revision: number): number {
  const since = /^\d{1,15}$/.test(param) ? Number(param) : -1;
  if (since < 0 || since > revision) {
    throw new HttpError(400, "request/invalid_since", "since must be a revision of this room (0 to the current one)");
  }
  return since;
}

/** The events of one command that `viewer` may see (all of them for the host). */
function eventsOf(events: string, viewer: string): unknown {
  return JSON.parse(viewer === "host" ? events : text.eventsFor(events, viewer)) as unknown;
}

// ---- commands ----

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

async function post(host: Host, request: Request, code: string, actor: string): Promise<Response> {
  const room = await authorize(host, request, code, actor);
  const body = object(await readJson(request), "the body");
  const command = object(body.command, "command");
  const ifRevision = count(body.ifRevision, "ifRevision");
  const requestId = body.requestId ?? null;
  if (requestId !== null && (typeof requestId !== "string" || !REQUEST_ID.test(requestId))) {
    throw new HttpError(400, "request/invalid_field", "requestId must be 1 to 64 characters of A-Z a-z 0-9 . _ : -");
  }
  // A seat acts only as its own faction, the host credential only as the host.
  if (command.actor !== actor) {
    throw new HttpError(403, "auth/wrong_actor", "this seat may send commands only as its own actor");
  }
  if (room.revision !== ifRevision) return retryOrConflict(host, room, actor, ifRevision, requestId);
  const commandText = JSON.stringify(command);
  const game = loadGame(room.state);
  let events: string;
  let state: string;
  try {
    events = game.applyText(commandText); // an EcazError answers 4xx; nothing is written
    state = game.stateText();
  } finally {
    game.free();
  }
  const change = { state, actor, requestId, command: commandText, events };
  if (!(await commit(host.db, code, ifRevision, change, Date.now()))) {
    return retryOrConflict(host, await requireRoom(host, code), actor, ifRevision, requestId);
  }
  host.ctx.waitUntil(runTable(host, code));
  return json(200, { room: code, revision: ifRevision + 1, events: eventsOf(events, actor) });
}

/**
 * A command whose `ifRevision` is not the room's (D-200): if the command
 * that made `ifRevision + 1` is this actor's with this `requestId`, this is a
 * retry of a command already applied, answered as it was (`replayed: true`);
 * anything else is a 409 with the room's revision. Never applied twice.
 */
async function retryOrConflict(
  host: Host,
  room: RoomRow,
  actor: string,
  ifRevision: number,
  requestId: string | null,
): Promise<Response> {
  if (requestId !== null && ifRevision < room.revision) {
    const row = await loggedAt(host.db, room.code, ifRevision + 1);
    if (row !== null && row.actor === actor && row.request_id === requestId) {
      return json(200, { room: room.code, revision: row.revision, events: eventsOf(row.events, actor), replayed: true });
    }
  }
  throw new HttpError(409, "room/conflict", "the room moved on: read it again and send against its revision", {
    revision: room.revision,
  });
}

// ---- the background table and bots ----

/** What the table needs of a room. */
function tableOf(room: RoomRow): TableRoom {
  const bots = JSON.parse(room.bots) as unknown;
  return {
    revision: room.revision,
    tableMode: room.table_mode,
    lastTurn: room.last_turn,
    botSeed: room.bot_seed,
    bots: new Set(Array.isArray(bots) ? bots.filter((b): b is string => typeof b === "string") : []),
  };
}

/** Restarts the background table when the Worker has the move and nothing moved for STALL_MS. */
function kickIfStalled(host: Host, game: Game, room: RoomRow): void {
  if (nextMove(game, tableOf(room)).kind === "send") host.ctx.waitUntil(runTable(host, room.code));
}

/**
 * Sends the commands of the seats the Worker plays (D-204) while it has the
 * move, each as its own compare-and-swap. Best effort: a conflict reloads,
 * a failed write stops it, and the next poll after STALL_MS starts it again.
 */
async function runTable(host: Host, code: string): Promise<void> {
  try {
    for (let step = 0; step < TABLE_STEPS; step += 1) {
      const room = await loadRoom(host.db, code);
      if (room === null) return;
      const table = tableOf(room);
      const game = loadGame(room.state);
      let change: { state: string; actor: string; requestId: null; command: string; events: string };
      try {
        const move = nextMove(game, table);
        if (move.kind !== "send") return;
        const command = JSON.stringify(move.command);
        const events = game.applyText(command);
        change = { state: game.stateText(), actor: move.actor, requestId: null, command, events };
      } finally {
        game.free();
      }
      await commit(host.db, code, room.revision, change, Date.now());
    }
  } catch {
    // A failed write or read: the next poll restarts the table (STALL_MS).
  }
}
