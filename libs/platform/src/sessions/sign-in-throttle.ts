import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import { ConcurrentModificationError, type Doc, DOCUMENT_STORE, type DocumentStore } from '#documents';
import { normalizeEmail } from '../users/user.events.js';

/** From the third attempt in a row that did not sign in, the next waits 1 s, then 2, 4, … (ADR 0065). */
export const SLOW_AFTER_ATTEMPTS = 3;
/** The tenth refuses every attempt for that email for LOCK_MS. */
export const LOCK_AFTER_ATTEMPTS = 10;
export const LOCK_MS = 15 * 60_000;
/** Attempts are forgotten this long after the last one. */
const FORGET_AFTER_MS = 15 * 60_000;
const PURGE_EVERY_MS = 10 * 60_000;

export const SIGN_IN_ATTEMPTS_COLLECTION = 'sign_in_attempts';

/** Per normalised email (its SHA-256), whether a user has it or not. */
interface AttemptsDoc extends Doc {
  /** Attempts since the last success, the one in progress included. */
  attempts: number;
  /** No attempt is taken before this. */
  next_at: string;
  locked_until: string | null;
  forget_at: string;
  /** Changes with every write: the compare-and-set guard. */
  version: number;
}

export type SignInGate =
  { allowed: true } | { allowed: false; reason: 'slow_down' | 'locked'; retryAfterSeconds: number };

/**
 * Slows down and then stops password guessing against one email, across instances (the counts
 * live in the document store). An attempt is counted when it starts, before the password is
 * checked, so guesses sent in parallel are counted too; a success forgets the count.
 * Unknown emails are counted the same way, so the answers tell nothing about who has an account.
 */
@Injectable()
export class SignInThrottle {
  private lastPurge = 0;

  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get collection() {
    return this.documents.collection<AttemptsDoc>(SIGN_IN_ATTEMPTS_COLLECTION);
  }

  /** Takes one attempt for the email, or says how long to wait. */
  async begin(email: string): Promise<SignInGate> {
    const id = keyOf(email);
    for (;;) {
      const now = this.clock.now();
      const at = now.toISOString();
      this.purgeForgotten(now);
      const stored = await this.collection.get(id);
      const live = stored && stored.forget_at > at ? stored : null;
      if (live?.locked_until && live.locked_until > at) return refusal('locked', live.locked_until, now);
      if (live && live.next_at > at) return refusal('slow_down', live.next_at, now);
      const attempts = (live?.attempts ?? 0) + 1;
      const lockedUntil = attempts >= LOCK_AFTER_ATTEMPTS ? new Date(now.getTime() + LOCK_MS).toISOString() : null;
      const next: AttemptsDoc = {
        id,
        attempts,
        next_at:
          attempts >= SLOW_AFTER_ATTEMPTS
            ? new Date(now.getTime() + 1000 * 2 ** (attempts - SLOW_AFTER_ATTEMPTS)).toISOString()
            : at,
        locked_until: lockedUntil,
        forget_at: new Date(Math.max(now.getTime() + FORGET_AFTER_MS, Date.parse(lockedUntil ?? at))).toISOString(),
        version: (stored?.version ?? 0) + 1,
      };
      if (await this.write(next, stored)) return { allowed: true };
      // Another attempt for the same email was counted in between: look again.
    }
  }

  /** The attempt signed in: the count starts afresh. */
  async succeeded(email: string): Promise<void> {
    await this.collection.delete(keyOf(email));
  }

  private async write(next: AttemptsDoc, previous: AttemptsDoc | null): Promise<boolean> {
    if (!previous) return this.collection.insertIfAbsent(next);
    try {
      await this.documents.applyBatch([
        { kind: 'cas', collection: SIGN_IN_ATTEMPTS_COLLECTION, doc: next, expect: { version: previous.version } },
      ]);
      return true;
    } catch (error) {
      if (error instanceof ConcurrentModificationError) return false;
      throw error;
    }
  }

  private purgeForgotten(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    void this.collection.deleteMany({ forget_at: { $lt: now.toISOString() } }).catch(() => undefined);
  }
}

function keyOf(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('hex');
}

function refusal(reason: 'slow_down' | 'locked', until: string, now: Date): SignInGate {
  return {
    allowed: false,
    reason,
    retryAfterSeconds: Math.max(1, Math.ceil((Date.parse(until) - now.getTime()) / 1000)),
  };
}
