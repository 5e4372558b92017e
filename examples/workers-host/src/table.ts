// Who has the move in a room, and what the Worker sends for the seats it
// plays (D-204). One function for the Worker's background runner and for the
// in-process replay the tests compare against, so both play the same game.
//
// The reference table plays the host seat only as far as the engine can
// tell it what is legal: with no frame open it ends the current phase (the
// one host command `options("host")` lists then, protocol §7); at a host
// frame (a Karama window, a host-reactions window) it answers from
// `options("host")`. Everything else a real host reports — the storm,
// arrivals, battles, cards, spice — comes from the game the front end runs,
// through the host endpoint with the host credential (table mode
// `external`).

import type { Command, Game } from "@ecaz/engine";
import { chooseCommand } from "./bot.js";

/** What the background table needs to know of a room. */
export interface TableRoom {
  readonly revision: number;
  readonly tableMode: "auto" | "external";
  /** The table stops when this turn is reached with nothing pending. */
  readonly lastTurn: number;
  readonly botSeed: string;
  /** The factions the Worker plays (the others are players). */
  readonly bots: ReadonlySet<string>;
}

/** The next move of a room. */
export type Move =
  /** The Worker sends `command` as `actor` (the table for the host, or a bot seat). */
  | { readonly kind: "send"; readonly actor: string; readonly command: Command }
  /** A player (or the external host) has the move. */
  | { readonly kind: "wait"; readonly actor: string }
  /** The room's turns are played. */
  | { readonly kind: "over" };

/** The room's next move (the game is not changed). */
export function nextMove(game: Game, room: TableRoom): Move {
  const seen = game.view("host");
  const open = seen.pending.at(-1);
  if (open === undefined && seen.turn >= room.lastTurn) return { kind: "over" };
  const actor: string = open === undefined ? "host" : open.actor;
  const played = actor === "host" ? room.tableMode === "auto" : room.bots.has(actor);
  if (!played) return { kind: "wait", actor };
  const command = chooseCommand(game.options(actor as Parameters<Game["options"]>[0]), room.botSeed, actor, room.revision);
  // The engine guarantees a legal command to whoever has the move (liveness,
  // integration §3.6); none listed means an actor the table cannot play.
  if (command === null) return { kind: "wait", actor };
  return { kind: "send", actor, command };
}
