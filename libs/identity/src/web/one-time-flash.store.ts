import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, type LoadedSecretBox, SECRET_BOX } from '#kernel';
import { type Doc, DOCUMENT_STORE, type DocumentStore } from '#documents';

export const ONE_TIME_FLASHES_COLLECTION = 'dashboard_one_time_flashes';
/** A value not looked at within this long is gone (what it names still works). */
const FLASH_TTL_MS = 10 * 60_000;

interface FlashDoc extends Doc {
  /** The value as JSON, sealed (SecretBox, AES-256-GCM) with this document's id as its context. */
  sealed: string;
  expires_at: string;
}

/**
 * The one showing of a secret made by a form (ADR 0069, ADR 0083): the POST puts it here,
 * bound to the browser's session token and a kind (the document id is a digest of both) and
 * sealed at rest, then redirects; the page after the redirect takes it, which deletes it. So the
 * value is on exactly one page, never in a URL or a log, and reloading that page neither resends
 * the form nor shows the value again. One pending value per session and kind.
 */
@Injectable()
export class OneTimeFlashStore {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(SECRET_BOX) private readonly secrets: LoadedSecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get collection() {
    return this.documents.collection<FlashDoc>(ONE_TIME_FLASHES_COLLECTION);
  }

  async put(kind: string, sessionToken: string, value: unknown): Promise<void> {
    const id = flashId(kind, sessionToken);
    const now = this.clock.now();
    await this.collection.upsert({
      id,
      sealed: this.secrets.box.seal(JSON.stringify(value), id),
      expires_at: new Date(now.getTime() + FLASH_TTL_MS).toISOString(),
    });
    void this.collection.deleteMany({ expires_at: { $lt: now.toISOString() } }).catch(() => undefined);
  }

  /** The value of this session and kind, once: whoever deletes the document shows it; null after. */
  async take<T>(kind: string, sessionToken: string): Promise<T | null> {
    const id = flashId(kind, sessionToken);
    const doc = await this.collection.get(id);
    if (!doc || !(await this.collection.delete(id))) return null;
    if (doc.expires_at <= this.clock.now().toISOString()) return null;
    return JSON.parse(this.secrets.box.open(doc.sealed, id)) as T;
  }
}

function flashId(kind: string, sessionToken: string): string {
  return createHash('sha256').update(`flash:${kind}:${sessionToken}`).digest('hex');
}
