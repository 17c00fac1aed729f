import { type SecretBox, SecretBoxError } from '#kernel';
import { ConcurrentModificationError, type Doc, type DocumentStore } from '#documents';

/** Not a projection: written by the command handlers, read by the dispatchers. */
export const WEBHOOK_SECRETS_COLLECTION = 'webhook_secrets';

interface SecretDoc extends Doc {
  webhook_id: string;
  /** The secret sealed with SecretBox (AES-256-GCM, the document's id authenticated with it). */
  sealed?: string;
  /** A secret stored before sealing existed, in plaintext (`svc secrets reseal` seals it). */
  secret?: string;
  created_at: string;
}

/** What `reseal` did. */
export interface ResealSummary {
  /** Secrets now sealed with the current key (plaintext ones, or sealed with an older key). */
  resealed: number;
  /** Already sealed with the current key. */
  current: number;
  /** Could not be opened (a key this process lacks, or a changed value): left as they are. */
  failed: Array<{ id: string; reason: string }>;
}

/**
 * Signing secrets (D13). They must be usable to sign, so they cannot be stored only hashed; they
 * are kept out of the event log instead (events carry `secret_id`, this store's key), out of every
 * API response and out of logs. One document per secret version, never changed: a rotation adds
 * one and the `WebhookUpdated` event switches `secret_id`, so dispatchers may cache them by id.
 * A deleted webhook's secrets are removed. (DESIGN §2 "Not events": secrets that are only looked up.)
 *
 * At rest they are sealed (SecretBox: AES-256-GCM under SVC_SECRETS_KEY or the data directory's
 * key file), so a copy of the document store (a backup, a dump of MongoDB) does not reveal them
 * without the key. Documents from before sealing hold the plaintext in `secret`; they still work,
 * and `reseal` (`svc secrets reseal`) seals them, and moves secrets sealed with an older key to
 * the current one after a key rotation.
 */
export class WebhookSecrets {
  private readonly cache = new Map<string, string>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly box: SecretBox,
  ) {}

  private get collection() {
    return this.documents.collection<SecretDoc>(WEBHOOK_SECRETS_COLLECTION);
  }

  async put(secretId: string, webhookId: string, secret: string, now: Date): Promise<void> {
    await this.collection.insertIfAbsent({
      id: secretId,
      webhook_id: webhookId,
      sealed: this.box.seal(secret, secretId),
      created_at: now.toISOString(),
    });
  }

  async get(secretId: string): Promise<string | null> {
    const cached = this.cache.get(secretId);
    if (cached !== undefined) return cached;
    const doc = await this.collection.get(secretId);
    if (!doc) return null;
    const secret = doc.sealed !== undefined ? this.open(doc.sealed, doc.id) : (doc.secret ?? null);
    if (secret === null) return null;
    this.remember(secretId, secret);
    return secret;
  }

  /**
   * Seals every stored secret with the current key: plaintext ones (stored before sealing
   * existed) and ones sealed with an older key. Each document is replaced only if it is still the
   * one read (compare-and-set), so a webhook deleted meanwhile is not brought back. Idempotent.
   */
  async reseal(): Promise<ResealSummary> {
    const summary: ResealSummary = { resealed: 0, current: 0, failed: [] };
    let after: string | undefined;
    do {
      const page = await this.collection.find({}, { limit: 200, ...(after ? { after } : {}) });
      for (const doc of page.items) {
        if (doc.sealed !== undefined && this.box.isCurrent(doc.sealed)) {
          summary.current++;
          continue;
        }
        let plaintext: string;
        try {
          if (doc.sealed !== undefined) plaintext = this.box.open(doc.sealed, doc.id);
          else if (doc.secret !== undefined) plaintext = doc.secret;
          else throw new Error('no secret stored');
        } catch (error) {
          summary.failed.push({ id: doc.id, reason: (error as Error).message });
          continue;
        }
        const next: SecretDoc = {
          id: doc.id,
          webhook_id: doc.webhook_id,
          sealed: this.box.seal(plaintext, doc.id),
          created_at: doc.created_at,
        };
        try {
          await this.documents.applyBatch([
            {
              kind: 'cas',
              collection: WEBHOOK_SECRETS_COLLECTION,
              doc: next,
              expect: { sealed: doc.sealed ?? null, secret: doc.secret ?? null },
            },
          ]);
          summary.resealed++;
        } catch (error) {
          if (!(error instanceof ConcurrentModificationError)) throw error;
          // Deleted or rewritten meanwhile: nothing to seal any more.
        }
      }
      after = page.nextCursor ?? undefined;
    } while (after);
    return summary;
  }

  async removeAll(webhookId: string): Promise<void> {
    await this.collection.deleteMany({ webhook_id: webhookId });
    for (const key of [...this.cache.keys()]) if (key.startsWith(`${webhookId}:`)) this.cache.delete(key);
  }

  /** Opens a sealed secret; the error names the secret's id and the key id, never a secret. */
  private open(sealed: string, secretId: string): string {
    try {
      return this.box.open(sealed, secretId);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw new SecretBoxError(`webhook secret ${secretId}: ${error.message} (SVC_SECRETS_KEY, SVC_SECRETS_OLD_KEYS)`);
    }
  }

  private remember(secretId: string, secret: string): void {
    if (this.cache.size >= 10_000) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(secretId, secret);
  }
}

/** Secret ids are `{webhook_id}:{ulid}` (one per version). */
export const secretIdFor = (webhookId: string, ulid: string) => `${webhookId}:${ulid}`;
