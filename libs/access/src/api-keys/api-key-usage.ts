import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { BoundedCache, CLOCK, type Clock } from '#kernel';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';

/** `api_key_usage/{key_id}`: when a key was last used. Not a projection: written by the authenticator. */
export interface ApiKeyUsageDoc {
  [key: string]: unknown;
  id: string;
  last_used_at: string;
}

export const API_KEY_USAGE_COLLECTION = 'api_key_usage';

/** How stale `last_used_at` may be: one write per key per minute and process at most. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Touches are written together after this delay: one transaction for every key touched meanwhile. */
export const USAGE_FLUSH_DELAY_MS = 100;

/** Keys whose last write this process remembers at most: a flood of keys cannot grow memory. */
export const USAGE_TRACKED_KEYS_MAX = 100_000;

/**
 * Tracks `last_used_at` without an event per request: a plain document per key, rewritten at
 * most once a minute per key by each process (fire and forget; a lost write only makes the
 * value up to a minute older). Writes are batched: keys first used together (a thousand agents
 * starting at once) would otherwise cost one durable transaction each, all in the same minute.
 */
@Injectable()
export class ApiKeyUsageTracker implements OnApplicationShutdown {
  private readonly logger = new Logger('ApiKeyUsage');
  /** Keys written in the last minute (by the injected clock), oldest out past the bound. */
  private readonly written: BoundedCache<string, true>;
  private pending = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.written = new BoundedCache({
      maxEntries: USAGE_TRACKED_KEYS_MAX,
      ttlMs: LAST_USED_RESOLUTION_MS,
      now: () => this.clock.now().getTime(),
    });
  }

  /** Keys this process remembers having written (bounded). */
  get trackedKeys(): number {
    return this.written.size;
  }

  touch(keyId: string): void {
    if (this.written.has(keyId)) return;
    const now = this.clock.now();
    this.written.set(keyId, true);
    this.pending.set(keyId, now.toISOString());
    this.timer ??= setTimeout(() => void this.flush(), USAGE_FLUSH_DELAY_MS).unref();
  }

  /** Writes every pending touch in one batch. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.documents.applyBatch(
        [...batch].map(([id, last_used_at]) => ({
          kind: 'upsert' as const,
          collection: API_KEY_USAGE_COLLECTION,
          doc: { id, last_used_at },
        })),
      );
    } catch (error) {
      for (const id of batch.keys()) this.written.delete(id);
      this.logger.warn(
        `could not record last use of ${batch.size} key(s): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** last_used_at by key id (absent: never used); includes this process's unwritten touches. */
  async lastUsed(keyIds: string[]): Promise<Map<string, string>> {
    if (keyIds.length === 0) return new Map();
    const docs = await this.documents.collection<ApiKeyUsageDoc>(API_KEY_USAGE_COLLECTION).getMany(keyIds);
    const result = new Map(docs.map((d) => [d.id, d.last_used_at]));
    for (const id of keyIds) {
      const pending = this.pending.get(id);
      if (pending !== undefined) result.set(id, pending);
    }
    return result;
  }
}
