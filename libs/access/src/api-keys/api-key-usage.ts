import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
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

/**
 * Tracks `last_used_at` without an event per request: a plain document per key, rewritten at
 * most once a minute per key by each process (fire and forget; a lost write only makes the
 * value up to a minute older). Writes are batched: keys first used together (a thousand agents
 * starting at once) would otherwise cost one durable transaction each, all in the same minute.
 */
@Injectable()
export class ApiKeyUsageTracker implements OnApplicationShutdown {
  private readonly logger = new Logger('ApiKeyUsage');
  private readonly written = new Map<string, number>();
  private pending = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  touch(keyId: string): void {
    const now = this.clock.now();
    const last = this.written.get(keyId);
    if (last !== undefined && now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
    this.written.set(keyId, now.getTime());
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
