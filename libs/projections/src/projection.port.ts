import type { Doc, Filter, FindOptions, FindResult, IndexSpec } from '#documents';
import type { RecordedEvent } from '#eventstore';

/**
 * A projection: a small evolve over read-model documents (STYLE §6).
 * It names the event types it handles and the collections it owns. The runner feeds it events
 * in position order and commits its writes with its checkpoint (embedded: one transaction,
 * exactly once; MongoDB: idempotent writes guarded by event position, then the checkpoint).
 *
 * Handlers must be deterministic functions of the events and the documents they read (no clock,
 * no randomness, no I/O): a rebuild then equals the incremental result.
 */
export interface ProjectionDefinition {
  /** Stable name; also the checkpoint key. `[A-Za-z0-9_-]+`. */
  name: string;
  /** Bump to make the runner rebuild this projection from position 0 on start. */
  version: number;
  /** Exact stored event type names this projection handles (others are skipped, and passed). */
  eventTypes: string[];
  /**
   * Logical collections it writes, with their indexes. Nothing else writes them. Each is stored
   * per generation as `{name}__g{generation}`; read them through ProjectionStore.
   */
  collections: Array<{ name: string; indexes?: IndexSpec[] }>;
  handle(event: RecordedEvent, ctx: ProjectionContext): Promise<void> | void;
}

/**
 * What a handler sees: reads include the batch's own pending writes; collections are the
 * logical names the projection declared. `get`/`find` return copies: change one and pass it
 * to `upsert`, nothing else sees the change; a document passed to `upsert` is taken as it is
 * (do not change it afterwards). Written documents carry `_position`, the position of the
 * event that wrote them last (the idempotence guard).
 */
export interface ProjectionContext {
  get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null>;
  find<T extends Doc = Doc>(collection: string, filter?: Filter, options?: FindOptions): Promise<FindResult<T>>;
  upsert(collection: string, doc: Doc): void;
  delete(collection: string, id: string): void;
}

export type ProjectionState = 'catching_up' | 'live' | 'stopped' | 'failed';

export interface ProjectionStatus {
  name: string;
  version: number;
  /** Active generation: the one readers see. */
  generation: number;
  /** Last position the active generation has passed (handled or skipped). */
  position: number;
  /** Head position of `$all` minus `position`; 0 when caught up. */
  lag: number;
  state: ProjectionState;
  last_error: string | null;
  /** A rebuild into a fresh generation, while it runs. */
  rebuilding: { generation: number; position: number } | null;
  /** Events of the active generation set aside after failing on their own (at most 1,000 counted). */
  dead_letters: number;
  /**
   * Where it runs, when runs are owned (ADR 0067): the process holding its lease (`here`: this
   * one), until `expires_at` unless renewed; null while nobody holds it. Absent without owners.
   */
  owner?: { id: string; here: boolean; expires_at: string; term: number } | null;
}

export interface RebuildResult {
  name: string;
  /** The generation readers see from now on. */
  generation: number;
  /** Position the new generation had reached at the switch. */
  position: number;
  /** Events read from position 0 (handled or skipped). */
  events: number;
  ms: number;
}

export interface WaitForOptions {
  /** Default: every projection of the runner. */
  projections?: string[];
  /** Default 5000 ms. */
  timeoutMs?: number;
}

/** waitFor gave up: the named projections had not passed the position in time. */
export class ProjectionTimeoutError extends Error {
  constructor(
    readonly position: number,
    /** The projections still behind, with where they were. */
    readonly behind: Array<{ name: string; position: number }>,
    readonly timeoutMs: number,
  ) {
    super(
      `Projections did not reach position ${position} within ${timeoutMs} ms: ` +
        behind.map((b) => `${b.name} at ${b.position}`).join(', '),
    );
    this.name = 'ProjectionTimeoutError';
  }
}

export class UnknownProjectionError extends Error {
  constructor(readonly projection: string) {
    super(`Unknown projection ${projection}`);
    this.name = 'UnknownProjectionError';
  }
}
