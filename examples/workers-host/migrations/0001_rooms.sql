-- The reference host's tables (examples/workers-host). One row per room holds
-- the whole game: the engine's state text and the revision every write
-- compares and swaps (UPDATE … WHERE revision = ?).
CREATE TABLE rooms (
  code TEXT PRIMARY KEY,
  -- The engine's state JSON, exactly as `game.stateText()` wrote it.
  state TEXT NOT NULL,
  -- Accepted commands so far; every write is `revision = revision + 1 … WHERE revision = ?`.
  revision INTEGER NOT NULL,
  -- SHA-256 (hex) of the host credential; the credential itself is never stored.
  host_hash TEXT NOT NULL,
  -- `auto`: the Worker plays the host seat (phase ends, host frames);
  -- `external`: the holder of the host credential reports every host fact.
  table_mode TEXT NOT NULL,
  -- The background table stops once this turn is reached with nothing pending.
  last_turn INTEGER NOT NULL,
  -- Seeds the bots' and the table's choices (never shown to a seat).
  bot_seed TEXT NOT NULL,
  -- The factions the Worker plays, a JSON array (the seats' kinds, kept here
  -- so a poll deciding whether to restart the table reads one row).
  bots TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- One row per faction seated in a room: a `player` seat is claimed once
-- (its credential hash is set by the join), a `bot` seat is answered by the
-- Worker in the background.
CREATE TABLE seats (
  room TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
  faction TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('player', 'bot')),
  credential_hash TEXT,
  PRIMARY KEY (room, faction)
) STRICT;

-- The accepted commands of each room with their events (every audience), one
-- row per revision, written in the same transaction as the room's update.
-- Seats poll it for the events since a revision, filtered for them
-- (`eventsFor`); a retried POST is recognised by its request id here. Bounded:
-- only the newest rows of a room are kept (LOG_KEEP in src/store.ts).
CREATE TABLE log (
  room TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
  revision INTEGER NOT NULL,
  actor TEXT NOT NULL,
  request_id TEXT,
  command TEXT NOT NULL,
  events TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (room, revision)
) STRICT;
