import { BoundedCache, SecretBoxError } from '#kernel';
import type { ReadonlyCollection } from '#projections';
import type { WebhookSecrets } from '../engine/secrets.store.js';
import type { PayloadDoc, WebhookDoc } from '../engine/webhook-docs.js';

/** How long a webhook document read is reused (real ms). */
const WEBHOOK_CACHE_MS = 2000;
/** A signing secret that cannot be read is tried again after this (real ms). */
export const SECRET_RETRY_MS = 30_000;

/**
 * What an attempt needs besides the delivery: its webhook (cached briefly), the envelope's bytes
 * (serialised once per event: what is signed is exactly what is sent) and the signing secret.
 * A secret that cannot be read is logged once and its deliveries wait SECRET_RETRY_MS; they stay
 * pending, so fixing the key lets them go out.
 */
export class DeliveryInputs {
  private readonly webhookCache = new BoundedCache<string, WebhookDoc | null>({
    maxEntries: 10_000,
    ttlMs: WEBHOOK_CACHE_MS,
  });
  private readonly bodyCache = new BoundedCache<string, Buffer>({ maxEntries: 2000 });
  /** Secret ids that could not be read → when (real ms). */
  private readonly secretTrouble = new Map<string, number>();

  constructor(
    private readonly webhooks: ReadonlyCollection<WebhookDoc>,
    private readonly payloads: ReadonlyCollection<PayloadDoc>,
    private readonly secrets: WebhookSecrets,
    private readonly log: { error(message: string): void },
    private readonly channel: string,
  ) {}

  async webhook(id: string): Promise<WebhookDoc | null> {
    const cached = this.webhookCache.get(id);
    if (cached !== undefined) return cached;
    const doc = await this.webhooks.get(id);
    this.webhookCache.set(id, doc);
    return doc;
  }

  /** Drop the webhook documents read (a webhook changed). */
  forgetWebhooks(): void {
    this.webhookCache.clear();
  }

  async body(eventId: string): Promise<Buffer | null> {
    const cached = this.bodyCache.get(eventId);
    if (cached) return cached;
    const payload = await this.payloads.get(eventId);
    const body = payload ? Buffer.from(JSON.stringify(payload.envelope)) : null;
    if (body) this.bodyCache.set(eventId, body);
    return body;
  }

  /** Its secret could not be read a moment ago: the delivery waits, untouched (not an attempt). */
  secretWaiting(secretId: string): boolean {
    const troubleAt = this.secretTrouble.get(secretId);
    return troubleAt !== undefined && performance.now() - troubleAt < SECRET_RETRY_MS;
  }

  /** The webhook's signing secret, or null when it cannot be read. */
  async secret(webhook: WebhookDoc): Promise<string | null> {
    let secret: string | null;
    let reason = 'missing';
    try {
      secret = await this.secrets.get(webhook.secret_id);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      secret = null;
      reason = error.message;
    }
    if (secret !== null) {
      this.secretTrouble.delete(webhook.secret_id);
      return secret;
    }
    const since = this.secretTrouble.get(webhook.secret_id);
    if (since === undefined || performance.now() - since >= SECRET_RETRY_MS) {
      this.log.error(
        `dispatcher ${this.channel}: webhook ${webhook.id}: its signing secret cannot be read (${reason}); its deliveries wait, trying again every ${SECRET_RETRY_MS / 1000} s`,
      );
    }
    this.secretTrouble.set(webhook.secret_id, performance.now());
    return null;
  }

  prune(now: number): void {
    for (const [id, at] of this.secretTrouble) if (now - at > SECRET_RETRY_MS) this.secretTrouble.delete(id);
  }
}
