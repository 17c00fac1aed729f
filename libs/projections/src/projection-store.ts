import type { Collection, Doc, DocumentStore, Filter, FindOptions, FindResult } from '#documents';

/** Checkpoints and rebuild states of every projection. */
export const PROJECTIONS_COLLECTION = '_projections';

/** Physical name of a projection's logical collection in one generation. */
export function generationCollection(logical: string, generation: number): string {
  return `${logical}__g${generation}`;
}

/** The generation a physical collection name belongs to, when it is one of `logical`'s. */
export function generationOf(logical: string, physical: string): number | null {
  const prefix = `${logical}__g`;
  if (!physical.startsWith(prefix)) return null;
  const rest = physical.slice(prefix.length);
  return /^[1-9][0-9]*$/.test(rest) ? Number(rest) : null;
}

/**
 * `_projections/{name}`: the generation readers see and how far it got. Written only with a cas
 * on (generation, position), so two runners (server and CLI, two processes) never both commit
 * the same batch, and a switch of generation makes the other runner's next commit fail.
 */
export interface ActiveCheckpoint extends Doc {
  kind: 'active';
  name: string;
  version: number;
  generation: number;
  position: number;
  updated_at: string;
}

/** `_projections/{name}:rebuild`: the latest rebuild (its generation, and its own checkpoint while it runs). */
export interface RebuildCheckpoint extends Doc {
  kind: 'rebuild';
  name: string;
  version: number;
  generation: number;
  position: number;
  state: 'running' | 'done' | 'abandoned';
  updated_at: string;
}

export function rebuildCheckpointId(name: string): string {
  return `${name}:rebuild`;
}

/** The read side of a projection's collection: whichever generation is active. */
export type ReadonlyCollection<T extends Doc = Doc> = Pick<Collection<T>, 'name' | 'get' | 'getMany' | 'find' | 'count'>;

export interface ProjectionStoreOptions {
  /** How long a looked-up generation is trusted; a switch by another process shows within it. Default 500 ms. */
  generationCacheMs?: number;
}

/**
 * How readers reach projection collections: `collection(projection, logical)` resolves the
 * active generation at each call (cached briefly, dropped at once when this process switches).
 */
export class ProjectionStore {
  private readonly cache = new Map<string, { generation: number; at: number }>();
  private readonly cacheMs: number;

  constructor(
    readonly documents: DocumentStore,
    options: ProjectionStoreOptions = {},
  ) {
    this.cacheMs = options.generationCacheMs ?? 500;
  }

  collection<T extends Doc = Doc>(projection: string, logical: string): ReadonlyCollection<T> {
    const physical = async () => this.documents.collection<T>(generationCollection(logical, await this.generation(projection)));
    return {
      name: logical,
      get: async (id: string) => (await physical()).get(id),
      getMany: async (ids: string[]) => (await physical()).getMany(ids),
      find: async (filter?: Filter, options?: FindOptions): Promise<FindResult<T>> => (await physical()).find(filter, options),
      count: async (filter?: Filter) => (await physical()).count(filter),
    };
  }

  /** The active generation of a projection (1 before it ever ran). */
  async generation(projection: string): Promise<number> {
    const cached = this.cache.get(projection);
    const now = performance.now();
    if (cached && now - cached.at < this.cacheMs) return cached.generation;
    const active = await this.active(projection);
    const generation = active?.generation ?? 1;
    this.cache.set(projection, { generation, at: now });
    return generation;
  }

  invalidate(projection?: string): void {
    if (projection === undefined) this.cache.clear();
    else this.cache.delete(projection);
  }

  async active(projection: string): Promise<ActiveCheckpoint | null> {
    const doc = await this.documents.collection<ActiveCheckpoint>(PROJECTIONS_COLLECTION).get(projection);
    return doc?.kind === 'active' ? doc : null;
  }

  async rebuildState(projection: string): Promise<RebuildCheckpoint | null> {
    return this.documents.collection<RebuildCheckpoint>(PROJECTIONS_COLLECTION).get(rebuildCheckpointId(projection));
  }
}
