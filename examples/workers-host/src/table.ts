// Who has the move in a room, and what the Worker sends for the seats it
// plays (D-204). One function for the Worker's background runner and for the
// in-process replay the tests compare against, so both play the same game.
//
// The reference table plays the host seat as far as the engine can tell it
// what is legal: with no frame open it ends the current phase (the one host
// command `options("host")` lists then, protocol §7), except that in the
// Shipment and Movement phase it first reports shipments — one to three
// forces of a seated faction from its reserves into a stronghold, each kept
// only if the engine accepts it (so Ambassadors trigger and seats get
// decisions), about two a turn; at a host frame (a Karama window, a
// host-reactions window) it answers from `options("host")`. Everything else
// a real host reports — the storm, movement, battles, cards, spice — comes
// from the game the front end runs, through the host endpoint with the host
// credential (table mode `external`).

import { text, type Command, type Game } from "@ecaz/engine";
import { chooseCommand, draw } from "./bot.js";

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
  if (open === undefined && seen.phase === "shipmentMovement") {
    const shipment = shipmentOf(game, seen, room);
    if (shipment !== null) return { kind: "send", actor: "host", command: shipment };
  }
  const command = chooseCommand(game.options(actor as Parameters<Game["options"]>[0]), room.botSeed, actor, room.revision);
  // The engine guarantees a legal command to whoever has the move (liveness,
  // integration §3.6); none listed means an actor the table cannot play.
  if (command === null) return { kind: "wait", actor };
  return { kind: "send", actor, command };
}

/** The strongholds a shipment may go to, with their sector (the board's; the HMS is not shipped to). */
const STRONGHOLDS = [
  ["arrakeen", 10],
  ["carthag", 11],
  ["sietch_tabr", 14],
  ["habbanya_ridge_sietch", 17],
  ["tueks_sietch", 5],
] as const;

/**
 * With two chances in three (the table's seeded draw), a shipment of a
 * seated faction with reserves into a stronghold; null to end the phase
 * instead, or when the engine would refuse the one drawn.
 */
function shipmentOf(game: Game, seen: ReturnType<Game["view"]>, room: TableRoom): Command | null {
  const at = (salt: string): number => draw(room.botSeed, `host/${salt}`, room.revision);
  if (at("ship") >= 2 / 3) return null;
  const shippers = seen.factions.filter((f) => (f.reserves.normal ?? 0) > 0);
  const entrant = shippers[Math.floor(at("entrant") * shippers.length)];
  const stronghold = STRONGHOLDS[Math.floor(at("where") * STRONGHOLDS.length)];
  if (entrant === undefined || stronghold === undefined) return null;
  const normal = 1 + Math.floor(at("count") * Math.min(3, entrant.reserves.normal ?? 1));
  const command = {
    actor: "host",
    action: {
      kind: "arrive",
      entrant: entrant.faction,
      cause: "shipment",
      from: { kind: "reserves" },
      territory: stronghold[0],
      sector: stronghold[1],
      normal,
    },
  } as Command;
  try {
    text.apply(game.stateText(), JSON.stringify(command));
    return command;
  } catch {
    return null;
  }
}
