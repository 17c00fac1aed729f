/**
 * Tables of the embedded event store. The file is shared with the document store, so every
 * name starts with `es_`.
 *
 * - `position` is the global `$all` position: INTEGER PRIMARY KEY AUTOINCREMENT, so it is
 *   never reused even after the newest rows were deleted or rolled back, starts at 1 and only grows.
 * - (stream, revision) is unique: two writers can never both claim a revision.
 * - Event ids the appender gave (`id_given = 1`) are unique: they back idempotent re-appends
 *   and a reused one is refused. Ids generated here are random UUID v4s (122 random bits), unique
 *   without an index. The index is partial because a unique index over every id costs one
 *   random B-tree page per event: a 64-append group commit dirtied ~64 more pages, which halved
 *   durable append throughput in test/bench. (EventStoreDB itself enforces no global id
 *   uniqueness; its idempotency is per stream, as here.)
 * - `metadata` is NULL when empty (most events), read back as `{}`.
 * No separate streams table: the current revision is max(revision) over the unique index, one
 * B-tree seek, and not having to update a second table keeps appends cheaper.
 */
export const EVENT_STORE_SCHEMA = `
CREATE TABLE IF NOT EXISTS es_events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  stream   TEXT    NOT NULL,
  revision INTEGER NOT NULL,
  id       TEXT    NOT NULL,
  id_given INTEGER,
  type     TEXT    NOT NULL,
  data     TEXT    NOT NULL,
  metadata TEXT,
  created  TEXT    NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS es_events_stream_revision ON es_events (stream, revision);
CREATE UNIQUE INDEX IF NOT EXISTS es_events_given_id ON es_events (id) WHERE id_given = 1;
`;

/** Column order of every read, in `raw()` mode (arrays are cheaper than row objects). */
export const EVENT_COLUMNS = 'position, stream, revision, id, type, data, metadata, created';

export type EventRow = [
  position: number,
  stream: string,
  revision: number,
  id: string,
  type: string,
  data: string,
  metadata: string | null,
  created: string,
];
