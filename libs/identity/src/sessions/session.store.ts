import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import { ConcurrentModificationError, type Doc, DOCUMENT_STORE, type DocumentStore } from '#documents';
import type { UserRole } from '../users/user.events.js';

/** A session ends after this long without a request (sliding). */
export const SESSION_IDLE_MS = 8 * 3600_000;
/**
 * And this long after sign-in however active it was (OWASP's absolute timeout): a stolen cookie
 * kept busy does not live for ever, and a role or password change reaches every browser by then.
 */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 3600_000;
/** A session's expiry moves at most this often, so requests in a row cost one read each. */
const SLIDE_EVERY_MS = 60_000;
const PURGE_EVERY_MS = 10 * 60_000;

export const SESSIONS_COLLECTION = 'sessions';

/** The token: 32 random bytes as base64url (43 characters), only ever in the cookie. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Stored by the SHA-256 of its token: the store alone opens no session. */
export interface SessionDoc extends Doc {
  user_id: string;
  account_id: string;
  email: string;
  role: UserRole;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface Session {
  userId: string;
  accountId: string;
  email: string;
  role: UserRole;
  createdAt: string;
  expiresAt: string;
}

/**
 * Server-side browser sessions (DESIGN §2: looked-up secrets live in the document store, with
 * expiry; ADR 0065). Signing out deletes the document, so it ends on every instance at once.
 */
@Injectable()
export class SessionStore {
  private readonly logger = new Logger('SessionStore');
  private lastPurge = 0;
  /** The index of the purge's query, made once per process before the first purge. */
  private indexes: Promise<void> | null = null;
  private readonly random: (n: number) => Uint8Array = (n) => randomBytes(n);

  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get collection() {
    return this.documents.collection<SessionDoc>(SESSIONS_COLLECTION);
  }

  /** A new session for the user; returns the token for the cookie. */
  async create(user: { userId: string; accountId: string; email: string; role: UserRole }): Promise<string> {
    const token = Buffer.from(this.random(32)).toString('base64url');
    const now = this.clock.now();
    await this.collection.upsert({
      id: digest(token),
      user_id: user.userId,
      account_id: user.accountId,
      email: user.email,
      role: user.role,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: slidExpiry(now.getTime(), now.toISOString()),
    });
    this.purgeExpired(now);
    return token;
  }

  /** The live session of a token, its idle expiry moved forward; null when none. */
  async find(token: string | undefined): Promise<Session | null> {
    if (!token || !TOKEN_PATTERN.test(token)) return null;
    const id = digest(token);
    const doc = await this.collection.get(id);
    const now = this.clock.now();
    if (!doc) return null;
    if (doc.expires_at <= now.toISOString()) {
      await this.collection.delete(id);
      return null;
    }
    let expiresAt = doc.expires_at;
    if (now.getTime() - Date.parse(doc.last_seen_at) >= SLIDE_EVERY_MS) {
      expiresAt = slidExpiry(now.getTime(), doc.created_at);
      try {
        // Only if it is still the document read: a sign-out in between stays signed out.
        await this.documents.applyBatch([
          {
            kind: 'cas',
            collection: SESSIONS_COLLECTION,
            doc: { ...doc, last_seen_at: now.toISOString(), expires_at: expiresAt },
            expect: { last_seen_at: doc.last_seen_at },
          },
        ]);
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
        return this.find(token);
      }
    }
    return {
      userId: doc.user_id,
      accountId: doc.account_id,
      email: doc.email,
      role: doc.role,
      createdAt: doc.created_at,
      expiresAt,
    };
  }

  async delete(token: string | undefined): Promise<void> {
    if (!token || !TOKEN_PATTERN.test(token)) return;
    await this.collection.delete(digest(token));
  }

  /**
   * Ends every session of a user at once (a new password, a removal), but the one of
   * `exceptToken` (the browser that changed its own password stays signed in). Returns how many.
   */
  async endForUser(userId: string, exceptToken?: string): Promise<number> {
    const keep = exceptToken && TOKEN_PATTERN.test(exceptToken) ? digest(exceptToken) : null;
    if (!keep) return this.collection.deleteMany({ user_id: userId });
    let ended = 0;
    for (;;) {
      const { items } = await this.collection.find({ user_id: userId }, { limit: 1000 });
      const others = items.filter((doc) => doc.id !== keep);
      for (const doc of others) if (await this.collection.delete(doc.id)) ended++;
      if (items.length < 1000) return ended;
    }
  }

  /** Expired sessions are refused when read; this removes them now and then. */
  private purgeExpired(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    this.indexes ??= this.documents
      .ensureIndexes(SESSIONS_COLLECTION, [{ fields: [['expires_at', 1]] }])
      .catch((error: unknown) => {
        this.indexes = null; // made again on the next purge; this one scans
        this.logger.warn(
          `index of sessions.expires_at not made: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    void this.indexes
      .then(() => this.collection.deleteMany({ expires_at: { $lt: now.toISOString() } }))
      .catch(() => undefined);
  }
}

/** The idle expiry from `nowMs`, never past the absolute end of a session created at `createdAt`. */
function slidExpiry(nowMs: number, createdAt: string): string {
  return new Date(Math.min(nowMs + SESSION_IDLE_MS, Date.parse(createdAt) + SESSION_ABSOLUTE_MS)).toISOString();
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
