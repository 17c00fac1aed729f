import { compareDocs, type Doc, type FindResult, matchesFilter, normalizeSort } from '#documents';
import type { RecordedEvent } from '#eventstore';
import type { ProjectionContext, ProjectionDefinition } from '#projections';

/**
 * Feeds events straight into a projection handler over in-memory collections (no runner, no
 * position guard): what "applying an event twice changes nothing" is about. `find` filters and
 * sorts like the stores and returns everything in one page.
 */
export class MemoryProjection {
  readonly collections = new Map<string, Map<string, Doc>>();
  private position = 0;

  constructor(private readonly projection: ProjectionDefinition) {}

  private readonly ctx: ProjectionContext = {
    get: async <T extends Doc>(collection: string, id: string) => {
      const doc = this.collections.get(collection)?.get(id);
      return doc ? (structuredClone(doc) as T) : null;
    },
    find: async <T extends Doc>(
      collection: string,
      filter?: Record<string, any>,
      options?: { sort?: any },
    ): Promise<FindResult<T>> => {
      const docs = [...(this.collections.get(collection)?.values() ?? [])].filter((d) => matchesFilter(d, filter));
      docs.sort(compareDocs(normalizeSort(options?.sort)));
      return { items: docs.map((d) => structuredClone(d) as T), nextCursor: null };
    },
    upsert: (collection, doc) => {
      let docs = this.collections.get(collection);
      if (!docs) this.collections.set(collection, (docs = new Map()));
      docs.set(doc.id, structuredClone(doc));
    },
    delete: (collection, id) => {
      this.collections.get(collection)?.delete(id);
    },
  };

  record(stream: string, event: { type: string; data: unknown }, revision = 0): RecordedEvent {
    this.position += 1;
    return {
      id: `e-${this.position}`,
      stream,
      revision,
      position: this.position,
      type: event.type,
      data: event.data,
      metadata: {},
      created: new Date(0).toISOString(),
    };
  }

  async apply(event: RecordedEvent): Promise<void> {
    await this.projection.handle(event, this.ctx);
  }

  snapshot(): Record<string, Record<string, Doc>> {
    return Object.fromEntries(
      [...this.collections].map(([name, docs]) => [
        name,
        Object.fromEntries([...docs].map(([id, d]) => [id, structuredClone(d)])),
      ]),
    );
  }
}
