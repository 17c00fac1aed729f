import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import { type Doc, DOCUMENT_STORE, type DocumentStore } from '#documents';

export const PASSWORD_RESETS_COLLECTION = 'password_resets';
/** A reset link works this long after it is issued (OWASP: short; an hour is enough to read a mail). */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
/** 32 random bytes as base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Stored by the SHA-256 of its token, never the token: the store alone resets no password. */
interface PasswordResetDoc extends Doc {
  user_id: string;
  expires_at: string;
  used: boolean;
}

/**
 * Single-use, expiring password reset tokens (ADR 0083): secrets only ever
 * looked up, so in the document store with expiry (DESIGN §2), not events. Using one is one
 * atomic `updateIf` (unused and unexpired → used): of two uses at once, exactly one wins.
 */
@Injectable()
export class PasswordResetTokens {
  private readonly random: (n: number) => Uint8Array = (n) => randomBytes(n);

  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get collection() {
    return this.documents.collection<PasswordResetDoc>(PASSWORD_RESETS_COLLECTION);
  }

  async issue(userId: string): Promise<{ token: string; expiresAt: string }> {
    const token = Buffer.from(this.random(32)).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS).toISOString();
    await this.collection.upsert({ id: digest(token), user_id: userId, expires_at: expiresAt, used: false });
    void this.collection.deleteMany({ expires_at: { $lt: now.toISOString() } }).catch(() => undefined);
    return { token, expiresAt };
  }

  /** The user of a token that is neither used nor expired, without using it (the form's GET). */
  async peek(token: string): Promise<string | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const doc = await this.collection.get(digest(token));
    if (!doc || doc.used || doc.expires_at <= this.clock.now().toISOString()) return null;
    return doc.user_id;
  }

  /** Uses the token, once: the user it was for, or null (unknown, used or expired). */
  async use(token: string): Promise<string | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const id = digest(token);
    const won = await this.collection.updateIf(
      id,
      { used: { $eq: false }, expires_at: { $gt: this.clock.now().toISOString() } },
      { used: true },
    );
    if (!won) return null;
    return (await this.collection.get(id))?.user_id ?? null;
  }
}

function digest(token: string): string {
  return createHash('sha256').update(`password-reset:${token}`).digest('hex');
}
