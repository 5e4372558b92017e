// The D1 side of the host (migrations/0001_rooms.sql). Every write is one
// `batch` (one transaction): a room's update is a compare-and-swap on its
// revision, and the log row of the command goes in the same transaction
// only when the swap happened (`changes() = 1`), so the room and its log
// never disagree.

import type { Db } from "./faults.js";

/** Log rows kept per room (older ones are dropped as new ones come in; D-207). */
export const LOG_KEEP = 2048;

/** A room as stored. */
export interface RoomRow {
  readonly code: string;
  readonly state: string;
  readonly revision: number;
  readonly host_hash: string;
  readonly table_mode: "auto" | "external";
  readonly last_turn: number;
  readonly bot_seed: string;
  /** JSON array of the factions the Worker plays. */
  readonly bots: string;
  readonly updated_at: number;
}

/** A room with the credential hash of one of its seats (null: no such seat, not joined, or a bot). */
export interface RoomAndSeat extends RoomRow {
  readonly seat_hash: string | null;
}

/** A seat as stored. */
export interface SeatRow {
  readonly faction: string;
  readonly kind: "player" | "bot";
  readonly credential_hash: string | null;
}

/** A log row: the command that made `revision`, and its events (every audience). */
export interface LogRow {
  readonly revision: number;
  readonly actor: string;
  readonly request_id: string | null;
  readonly command: string;
  readonly events: string;
}

const ROOM_COLUMNS = "code, state, revision, host_hash, table_mode, last_turn, bot_seed, bots, updated_at";

export async function loadRoom(db: Db, code: string): Promise<RoomRow | null> {
  return db.prepare(`SELECT ${ROOM_COLUMNS} FROM rooms WHERE code = ?`).bind(code).first<RoomRow>();
}

/** The room and one seat's credential hash, in one query (every seat request starts with it). */
export async function loadRoomAndSeat(db: Db, code: string, faction: string): Promise<RoomAndSeat | null> {
  return db
    .prepare(
      `SELECT ${ROOM_COLUMNS}, (SELECT credential_hash FROM seats WHERE room = rooms.code AND faction = ?) AS seat_hash FROM rooms WHERE code = ?`,
    )
    .bind(faction, code)
    .first<RoomAndSeat>();
}

export async function loadSeat(db: Db, code: string, faction: string): Promise<SeatRow | null> {
  return db
    .prepare("SELECT faction, kind, credential_hash FROM seats WHERE room = ? AND faction = ?")
    .bind(code, faction)
    .first<SeatRow>();
}

/** A new room and its seats, in one transaction. */
export async function insertRoom(
  db: Db,
  room: Omit<RoomRow, "updated_at">,
  seats: readonly { faction: string; kind: "player" | "bot" }[],
  now: number,
): Promise<void> {
  const statements = [
    db
      .prepare(
        "INSERT INTO rooms (code, state, revision, host_hash, table_mode, last_turn, bot_seed, bots, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(room.code, room.state, room.revision, room.host_hash, room.table_mode, room.last_turn, room.bot_seed, room.bots, now, now),
    ...seats.map((seat) =>
      db.prepare("INSERT INTO seats (room, faction, kind) VALUES (?, ?, ?)").bind(room.code, seat.faction, seat.kind),
    ),
  ];
  await db.batch(statements);
}

/** Claims a player seat that has no credential yet; false when it is not free. */
export async function claimSeat(db: Db, code: string, faction: string, hash: string): Promise<boolean> {
  const [result] = await db.batch([
    db
      .prepare(
        "UPDATE seats SET credential_hash = ? WHERE room = ? AND faction = ? AND kind = 'player' AND credential_hash IS NULL",
      )
      .bind(hash, code, faction),
  ]);
  return result?.meta.changes === 1;
}

/** What a commit writes: the new state and the log row of the command. */
export interface Commit {
  readonly state: string;
  readonly actor: string;
  readonly requestId: string | null;
  readonly command: string;
  readonly events: string;
}

/**
 * The compare-and-swap: the room moves from `revision` to `revision + 1`
 * only if it is still at `revision`; false when another write won.
 */
export async function commit(db: Db, code: string, revision: number, change: Commit, now: number): Promise<boolean> {
  const next = revision + 1;
  const [swap] = await db.batch([
    db
      .prepare("UPDATE rooms SET state = ?, revision = ?, updated_at = ? WHERE code = ? AND revision = ?")
      .bind(change.state, next, now, code, revision),
    db
      .prepare(
        "INSERT INTO log (room, revision, actor, request_id, command, events, at) SELECT ?, ?, ?, ?, ?, ?, ? WHERE changes() = 1",
      )
      .bind(code, next, change.actor, change.requestId, change.command, change.events, now),
    db.prepare("DELETE FROM log WHERE room = ? AND revision <= ?").bind(code, next - LOG_KEEP),
  ]);
  return swap?.meta.changes === 1;
}

/** The log row that made `revision`, if it is still kept. */
export async function loggedAt(db: Db, code: string, revision: number): Promise<LogRow | null> {
  return db
    .prepare("SELECT revision, actor, request_id, command, events FROM log WHERE room = ? AND revision = ?")
    .bind(code, revision)
    .first<LogRow>();
}

/** The log rows after `since` up to `upTo`, oldest first, at most `limit`. */
export async function logBetween(db: Db, code: string, since: number, upTo: number, limit: number): Promise<LogRow[]> {
  const { results } = await db
    .prepare(
      "SELECT revision, actor, request_id, command, events FROM log WHERE room = ? AND revision > ? AND revision <= ? ORDER BY revision LIMIT ?",
    )
    .bind(code, since, upTo, limit)
    .all<LogRow>();
  return results;
}
