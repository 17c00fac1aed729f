import type { Collection, Doc, DocumentStore, Filter, FindOptions, FindResult } from '#documents';

/** Checkpoints and rebuild states of every projection. */
export const PROJECTIONS_COLLECTION = '_projections';
/** Events a projection set aside after failing on their own (see ProjectionWorker). */
export const DEAD_LETTERS_COLLECTION = '_projection_dead_letters';

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
export type ReadonlyCollection<T extends Doc = Doc> = Pick<
  Collection<T>,
  'name' | 'get' | 'getMany' | 'find' | 'count'
>;

export interface ProjectionStoreOptions {
  /** How long a looked-up generation is trusted; a switch by another process shows within it. Default 500 ms. */
  generationCacheMs?: number;
  /**
   * Reads of a projection this process writes are cached, holding at most this many documents
   * per projection (an answer counts its documents, at least 1; oldest answers out first); 0
   * turns the cache off. Default 10,000.
   */
  readCacheDocuments?: number;
}

/** Finds returning more documents than this are not cached (bulk reads, not the hot path). */
const CACHEABLE_ITEMS = 200;

/** A projection whose batches this process commits: the reads cached since its last commit. */
interface LocalWriter {
  /** The generation this process commits; reads of another (after a switch elsewhere) are not cached. */
  generation: number;
  /** Changes with every commit, so a read that started before one is not cached after it. */
  version: number;
  entries: Map<string, { value: unknown; weight: number }>;
  /** Documents held by `entries`. */
  weight: number;
}

/**
 * How readers reach projection collections: `collection(projection, logical)` resolves the
 * active generation at each call (cached briefly, dropped at once when this process switches).
 *
 * Read cache. A projection's documents change only when a batch commits, so while this process
 * runs a projection live (`attachWriter`, by its worker) the answers of `get`, `getMany`, `find`
 * and `count` are kept in memory until the worker's next commit with writes (`committed`) drops
 * them, and identical reads in between skip the document store. The worker reports the commit
 * before it advances its position, so a read-your-writes wait (which resumes on that position)
 * never meets an answer from before it. A read that was under way when a commit happened is
 * answered but not kept. Projections that run in another process are never cached: nothing
 * here would see their commits. Cached answers are frozen: they are shared by every reader.
 */
export class ProjectionStore {
  private readonly cache = new Map<string, { generation: number; at: number }>();
  private readonly cacheMs: number;
  private readonly readCacheDocuments: number;
  private readonly writers = new Map<string, LocalWriter>();
  private readonly handles = new Map<string, ReadonlyCollection<Doc>>();

  constructor(
    readonly documents: DocumentStore,
    options: ProjectionStoreOptions = {},
  ) {
    this.cacheMs = options.generationCacheMs ?? 500;
    this.readCacheDocuments = Math.max(0, Math.floor(options.readCacheDocuments ?? 10_000));
  }

  collection<T extends Doc = Doc>(projection: string, logical: string): ReadonlyCollection<T> {
    const handleKey = `${projection}\u0000${logical}`;
    let handle = this.handles.get(handleKey);
    if (!handle) {
      const read = <R>(op: string, args: unknown[], run: (c: Collection<T>) => Promise<R>) =>
        this.read(projection, logical, op, args, run);
      handle = {
        name: logical,
        get: (id: string) => read('get', [id], (c) => c.get(id)),
        getMany: (ids: string[]) => read('getMany', [ids], (c) => c.getMany(ids)),
        find: (filter?: Filter, options?: FindOptions): Promise<FindResult<T>> =>
          read('find', [filter, options], (c) => c.find(filter, options)),
        count: (filter?: Filter) => read('count', [filter], (c) => c.count(filter)),
      } as ReadonlyCollection<Doc>;
      this.handles.set(handleKey, handle);
    }
    return handle as unknown as ReadonlyCollection<T>;
  }

  /** This process now commits `projection`'s live batches: its reads may be cached (see the class). */
  attachWriter(projection: string, generation: number): void {
    if (this.readCacheDocuments > 0)
      this.writers.set(projection, { generation, version: 0, entries: new Map(), weight: 0 });
  }

  /** This process stopped committing `projection` (stopped, failed, or moving to another generation). */
  detachWriter(projection: string): void {
    this.writers.delete(projection);
  }

  /** A batch of `projection` with document writes committed: forget what was read before it. */
  committed(projection: string): void {
    const writer = this.writers.get(projection);
    if (!writer) return;
    writer.version++;
    writer.entries.clear();
    writer.weight = 0;
  }

  private async read<T extends Doc, R>(
    projection: string,
    logical: string,
    op: string,
    args: unknown[],
    run: (c: Collection<T>) => Promise<R>,
  ): Promise<R> {
    const generation = await this.generation(projection);
    const physical = generationCollection(logical, generation);
    const collection = this.documents.collection<T>(physical);
    const writer = this.writers.get(projection);
    if (writer?.generation !== generation) return run(collection);
    const key = `${physical}\u0000${op}\u0000${JSON.stringify(args)}`;
    const cached = writer.entries.get(key);
    if (cached !== undefined) return cached.value as R;
    const version = writer.version;
    const result = await run(collection);
    const weight = weightOf(result);
    if (
      writer.version === version &&
      this.writers.get(projection) === writer &&
      weight <= Math.min(CACHEABLE_ITEMS, this.readCacheDocuments)
    ) {
      // Time-dependent filters (a dispatcher's "due before now") make keys that never repeat:
      // the bound is on documents held, so they cannot grow memory, only push older answers out.
      while (writer.weight + weight > this.readCacheDocuments && writer.entries.size > 0) {
        const [oldest, entry] = writer.entries.entries().next().value!;
        writer.entries.delete(oldest);
        writer.weight -= entry.weight;
      }
      writer.entries.set(key, { value: deepFreeze(result), weight });
      writer.weight += weight;
    }
    return result;
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

/** Documents an answer holds (at least 1); more than CACHEABLE_ITEMS means "do not cache". */
function weightOf(result: unknown): number {
  if (result === undefined) return Infinity;
  const items = Array.isArray(result) ? result : (result as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? Math.max(1, items.length) : 1;
}

/** Freezes a read's answer and everything in it, so no reader can change what the next one gets. */
function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
