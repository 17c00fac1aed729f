import type { Doc, DocumentStore } from '#documents';

/** Not a projection: written by the command handlers, read by the dispatchers. */
export const WEBHOOK_SECRETS_COLLECTION = 'webhook_secrets';

interface SecretDoc extends Doc {
  webhook_id: string;
  secret: string;
  created_at: string;
}

/**
 * Signing secrets (D13). They must be usable to sign, so they cannot be stored only hashed; they
 * are kept out of the event log instead (events carry `secret_id`, this store's key), out of every
 * API response and out of logs. One document per secret version, never changed: a rotation adds
 * one and the `WebhookUpdated` event switches `secret_id`, so dispatchers may cache them by id.
 * A deleted webhook's secrets are removed. (DESIGN §2 "Not events": secrets that are only looked up.)
 */
export class WebhookSecrets {
  private readonly cache = new Map<string, string>();

  constructor(private readonly documents: DocumentStore) {}

  private get collection() {
    return this.documents.collection<SecretDoc>(WEBHOOK_SECRETS_COLLECTION);
  }

  async put(secretId: string, webhookId: string, secret: string, now: Date): Promise<void> {
    await this.collection.insertIfAbsent({ id: secretId, webhook_id: webhookId, secret, created_at: now.toISOString() });
  }

  async get(secretId: string): Promise<string | null> {
    const cached = this.cache.get(secretId);
    if (cached !== undefined) return cached;
    const doc = await this.collection.get(secretId);
    if (!doc) return null;
    this.remember(secretId, doc.secret);
    return doc.secret;
  }

  async removeAll(webhookId: string): Promise<void> {
    await this.collection.deleteMany({ webhook_id: webhookId });
    for (const key of [...this.cache.keys()]) if (key.startsWith(`${webhookId}:`)) this.cache.delete(key);
  }

  private remember(secretId: string, secret: string): void {
    if (this.cache.size >= 10_000) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(secretId, secret);
  }
}

/** Secret ids are `{webhook_id}:{ulid}` (one per version). */
export const secretIdFor = (webhookId: string, ulid: string) => `${webhookId}:${ulid}`;
