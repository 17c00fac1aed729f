import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '#common';
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

/**
 * Tracks `last_used_at` without an event per request: a plain document per key, rewritten at
 * most once a minute per key by each process (fire and forget; a lost write only makes the
 * value up to a minute older).
 */
@Injectable()
export class ApiKeyUsageTracker {
  private readonly logger = new Logger('ApiKeyUsage');
  private readonly written = new Map<string, number>();

  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  touch(keyId: string): void {
    const now = this.clock.now();
    const last = this.written.get(keyId);
    if (last !== undefined && now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
    this.written.set(keyId, now.getTime());
    this.documents
      .collection<ApiKeyUsageDoc>(API_KEY_USAGE_COLLECTION)
      .upsert({ id: keyId, last_used_at: now.toISOString() })
      .catch((error: unknown) => {
        this.written.delete(keyId);
        this.logger.warn(`could not record last use of ${keyId}: ${error instanceof Error ? error.message : String(error)}`);
      });
  }

  /** last_used_at by key id (absent: never used). */
  async lastUsed(keyIds: string[]): Promise<Map<string, string>> {
    if (keyIds.length === 0) return new Map();
    const docs = await this.documents.collection<ApiKeyUsageDoc>(API_KEY_USAGE_COLLECTION).getMany(keyIds);
    return new Map(docs.map((d) => [d.id, d.last_used_at]));
  }
}
