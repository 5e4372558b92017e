// What the tests share: the runtime (the Worker in miniflare with a real
// local D1, tools/runtime.ts), an HTTP client, and the in-process reference
// game the HTTP games are compared with.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as joinPath } from "node:path";
import { createGame, type Command, type Setup } from "@ecaz/engine";
import { nextMove } from "../src/table.js";
import { start, type Runtime } from "../tools/runtime.js";

/** The Worker served on 127.0.0.1 with a fresh D1; `stop` removes it. */
export async function runtime(): Promise<Runtime & { stop(): Promise<void> }> {
  const persist = await mkdtemp(joinPath(tmpdir(), "ecaz-workers-host-"));
  const served = await start({ persist });
  return {
    ...served,
    stop: async () => {
      await served.dispose();
      await rm(persist, { recursive: true, force: true });
    },
  };
}

/** One HTTP answer: its status, its JSON body and the body's text. */
export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly text: string;
}

export async function call(
  url: string,
  method: "GET" | "POST",
  body?: unknown,
  credential?: string,
  init: RequestInit = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (credential !== undefined) headers.authorization = `Bearer ${credential}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    ...init,
  });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${method} ${url}: ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, body: parsed, text };
}

/** A room as its creator sees it. */
export interface CreatedRoom {
  readonly code: string;
  readonly hostCredential: string;
}

export async function createRoom(base: string, body: Record<string, unknown>): Promise<CreatedRoom> {
  const answer = await call(`${base}/rooms`, "POST", body);
  if (answer.status !== 201) throw new Error(`create: ${answer.status} ${answer.text}`);
  return { code: String(answer.body.room), hostCredential: String(answer.body.hostCredential) };
}

export async function join(base: string, code: string, faction: string): Promise<string> {
  const answer = await call(`${base}/rooms/${code}/seats/${faction}/join`, "POST");
  if (answer.status !== 201) throw new Error(`join ${faction}: ${answer.status} ${answer.text}`);
  return String(answer.body.credential);
}

/** The room's state text (the host's export). */
export async function stateOf(base: string, room: CreatedRoom): Promise<{ revision: number; state: string }> {
  const answer = await call(`${base}/rooms/${room.code}/host/state`, "GET", undefined, room.hostCredential);
  if (answer.status !== 200) throw new Error(`state: ${answer.status} ${answer.text}`);
  return { revision: Number(answer.body.revision), state: String(answer.body.state) };
}

/** The same game played in-process: every revision's state and the events (text) of the command that made it. */
export interface Reference {
  /** `states[r]`: the state text at revision r. */
  readonly states: string[];
  /** `events[r]`: the events (every audience) of the command that made revision r (r ≥ 1). */
  readonly events: string[];
  readonly commands: Command[];
}

/**
 * The game a room plays when every seat's client sends its bot's command
 * (bot.ts) and the table plays the host (table.ts): the Worker's own move
 * function with every seat a bot.
 */
export function playReference(setup: Setup, turns: number, botSeed: string, maxCommands = 5000): Reference {
  const game = createGame(setup);
  try {
    const firstTurn = game.view("host").turn;
    const bots = new Set<string>(setup.seats);
    const states = [game.stateText()];
    const events = [""];
    const commands: Command[] = [];
    for (let revision = 0; revision < maxCommands; revision += 1) {
      const move = nextMove(game, { revision, tableMode: "auto", lastTurn: firstTurn + turns, botSeed, bots });
      if (move.kind !== "send") break;
      events.push(game.applyText(JSON.stringify(move.command)));
      states.push(game.stateText());
      commands.push(move.command);
    }
    return { states, events, commands };
  } finally {
    game.free();
  }
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
