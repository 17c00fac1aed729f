import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, type LoadedSecretBox, SECRET_BOX } from '#kernel';
import { type Doc, DOCUMENT_STORE, type DocumentStore } from '#documents';

export const NEW_KEY_FLASHES_COLLECTION = 'dashboard_new_key_flashes';
/** A value not looked at within this long is gone (the key itself still works). */
const FLASH_TTL_MS = 10 * 60_000;

interface NewKeyFlashDoc extends Doc {
  key_id: string;
  name: string;
  /** The key's value, sealed (SecretBox, AES-256-GCM) with this document's id as its context. */
  sealed_value: string;
  expires_at: string;
}

export interface NewKey {
  keyId: string;
  name: string;
  value: string;
}

/**
 * The one showing of a new key's value (ADR 0069): the create form stores it here, bound to the
 * browser's session token (the document id is a digest of it) and sealed at rest; the page after
 * the redirect takes it, which deletes it, so the value is on exactly one page, never in a URL,
 * a log or a later page. One pending value per session: a newer key replaces an unseen one.
 */
@Injectable()
export class NewKeyFlashStore {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(SECRET_BOX) private readonly secrets: LoadedSecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get collection() {
    return this.documents.collection<NewKeyFlashDoc>(NEW_KEY_FLASHES_COLLECTION);
  }

  async put(sessionToken: string, key: NewKey): Promise<void> {
    const id = flashId(sessionToken);
    const now = this.clock.now();
    await this.collection.upsert({
      id,
      key_id: key.keyId,
      name: key.name,
      sealed_value: this.secrets.box.seal(key.value, id),
      expires_at: new Date(now.getTime() + FLASH_TTL_MS).toISOString(),
    });
    void this.collection.deleteMany({ expires_at: { $lt: now.toISOString() } }).catch(() => undefined);
  }

  /** The new key of this session, once: whoever deletes the document shows it; null after. */
  async take(sessionToken: string): Promise<NewKey | null> {
    const id = flashId(sessionToken);
    const doc = await this.collection.get(id);
    if (!doc || !(await this.collection.delete(id))) return null;
    if (doc.expires_at <= this.clock.now().toISOString()) return null;
    return { keyId: doc.key_id, name: doc.name, value: this.secrets.box.open(doc.sealed_value, id) };
  }
}

function flashId(sessionToken: string): string {
  return createHash('sha256').update(`new-key-flash:${sessionToken}`).digest('hex');
}
