import type { Doc, Filter, FindOptions, FindResult, IndexSpec } from '#documents';
import type { RecordedEvent } from '#eventstore';

/**
 * A projection: a small evolve over read-model documents (STYLE §6).
 * It names the event types it handles and the collections it owns. The runner feeds it events
 * in position order and commits its writes with its checkpoint (embedded: one transaction,
 * exactly once; MongoDB: idempotent writes guarded by event position, then the checkpoint).
 */
export interface ProjectionDefinition {
  /** Stable name; also the checkpoint key. */
  name: string;
  /** Bump to make the runner rebuild this projection from position 0 on start. */
  version: number;
  /** Exact stored event type names this projection handles. */
  eventTypes: string[];
  /** Logical collections it writes, with their indexes. Nothing else writes them. */
  collections: Array<{ name: string; indexes?: IndexSpec[] }>;
  handle(event: RecordedEvent, ctx: ProjectionContext): Promise<void> | void;
}

/** What a handler sees: reads include the batch's own pending writes. */
export interface ProjectionContext {
  get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null>;
  find<T extends Doc = Doc>(collection: string, filter?: Filter, options?: FindOptions): Promise<FindResult<T>>;
  upsert(collection: string, doc: Doc): void;
  delete(collection: string, id: string): void;
}
