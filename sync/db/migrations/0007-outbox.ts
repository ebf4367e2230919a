/**
 * 0007: the outbox. Local edits the server has not confirmed yet, in the order the user made
 * them. Unlike the server data these tables can never be rebuilt: they are not in
 * `serverDataTables`, a re-bootstrap keeps them, and every later migration must carry their
 * rows over. The logic lives in sync/outbox; see its types.ts for what the columns hold.
 *
 * - `mutation_id` is the client mutation id: AUTOINCREMENT, so an id is never reused even
 *   after the newest row is settled, and the replay order only ever rises.
 * - `entity` is the key of the entity the row edits (`task:-3`, `checklist:17`); a local
 *   (negative) key is re-keyed to the server's id when the create is confirmed.
 * - `path`, `body` are the request's path parameters and JSON body; they may hold local ids,
 *   replaced by server ids when the row is sent. `depends_on` lists the entity keys the row
 *   references: a local one blocks the row until it is mapped.
 * - `base` is the server's copy of the entity before the first pending edit (for rollback).
 * - Times are epoch ms.
 */
export const up = `
CREATE TABLE outbox (
  mutation_id INTEGER PRIMARY KEY AUTOINCREMENT,
  entity TEXT NOT NULL,
  kind TEXT NOT NULL,
  operation_id TEXT NOT NULL,
  path TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(path) AND json_type(path) = 'object'),
  body TEXT CHECK (body IS NULL OR json_valid(body)),
  idempotency_key TEXT NOT NULL UNIQUE,
  depends_on TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(depends_on) AND json_type(depends_on) = 'array'),
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'inflight', 'failed', 'conflict')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  last_error TEXT CHECK (last_error IS NULL OR json_valid(last_error)),
  base TEXT CHECK (base IS NULL OR json_valid(base)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
-- Ready rows: pending, due, in replay order.
CREATE INDEX outbox_ready ON outbox(next_attempt_at, mutation_id) WHERE state = 'pending';
-- Per entity: the rows of one entity in order (coalescing, "no earlier row for the entity").
CREATE INDEX outbox_entity ON outbox(entity, mutation_id);

-- Upload files, copied into <dataDir>/outbox-files/ when the upload was enqueued.
CREATE TABLE outbox_files (
  mutation_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  -- relative to the data directory
  path TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  content_type TEXT,
  PRIMARY KEY (mutation_id, position)
) STRICT, WITHOUT ROWID;

-- Local (negative) ids given to entities created offline, and the server's id once known.
CREATE TABLE local_ids (
  entity_kind TEXT NOT NULL,
  local_id INTEGER NOT NULL CHECK (local_id < 0),
  server_id INTEGER NOT NULL CHECK (server_id > 0),
  PRIMARY KEY (entity_kind, local_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX local_ids_server ON local_ids(entity_kind, server_id);
`;
