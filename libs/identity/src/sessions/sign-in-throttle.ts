import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import { ConcurrentModificationError, type Doc, DOCUMENT_STORE, type DocumentStore } from '#documents';
import { normalizeEmail } from '../users/user.events.js';

/**
 * Per email and client address (ADR 0072): from the third attempt in a row that did not sign in,
 * the next waits 1 s, then 2, 4, …; the tenth refuses that address for that email for LOCK_MS.
 */
export const SLOW_AFTER_ATTEMPTS = 3;
export const LOCK_AFTER_ATTEMPTS = 10;
export const LOCK_MS = 15 * 60_000;
/**
 * Per email, from all addresses together: from the twentieth attempt without a success, the next
 * waits 1 s, 2, 4, … never more than EMAIL_MAX_WAIT_MS, and never a lock. Twice the address's
 * lock, so one address alone never slows the email for anyone else.
 */
export const EMAIL_SLOW_AFTER_ATTEMPTS = 20;
export const EMAIL_MAX_WAIT_MS = 60_000;
/** Attempts are forgotten this long after the last one. */
const FORGET_AFTER_MS = 15 * 60_000;
const PURGE_EVERY_MS = 10 * 60_000;

export const SIGN_IN_ATTEMPTS_COLLECTION = 'sign_in_attempts';

/** One count: per normalised email (`email:`), or per email and address (`from:`); hashed ids. */
export interface AttemptsDoc extends Doc {
  /** Attempts since the last success, the one in progress included. */
  attempts: number;
  /** No attempt is taken before this. */
  next_at: string;
  locked_until: string | null;
  forget_at: string;
  /** Changes with every write: the compare-and-set guard. */
  version: number;
}

/** How one count slows and stops attempts. */
export interface AttemptsPolicy {
  slowAfter: number;
  /** Undefined: never locks. */
  lockAfter?: number;
  lockMs: number;
  maxWaitMs: number;
}

export const PER_ADDRESS: AttemptsPolicy = {
  slowAfter: SLOW_AFTER_ATTEMPTS,
  lockAfter: LOCK_AFTER_ATTEMPTS,
  lockMs: LOCK_MS,
  maxWaitMs: Number.POSITIVE_INFINITY,
};
export const PER_EMAIL: AttemptsPolicy = {
  slowAfter: EMAIL_SLOW_AFTER_ATTEMPTS,
  lockMs: 0,
  maxWaitMs: EMAIL_MAX_WAIT_MS,
};

export type SignInGate =
  { allowed: true } | { allowed: false; reason: 'slow_down' | 'locked'; retryAfterSeconds: number };

/**
 * One attempt against one count (pure): the refusal, or the count with this attempt in it.
 * `stored` is the document as read (null when absent); a forgotten one counts as absent.
 */
export function countAttempt(
  id: string,
  stored: AttemptsDoc | null,
  policy: AttemptsPolicy,
  now: Date,
): { refused: SignInGate & { allowed: false } } | { next: AttemptsDoc } {
  const at = now.toISOString();
  const live = stored && stored.forget_at > at ? stored : null;
  if (live?.locked_until && live.locked_until > at) return { refused: refusal('locked', live.locked_until, now) };
  if (live && live.next_at > at) return { refused: refusal('slow_down', live.next_at, now) };
  const attempts = (live?.attempts ?? 0) + 1;
  const locks = policy.lockAfter !== undefined && attempts >= policy.lockAfter;
  const lockedUntil = locks ? new Date(now.getTime() + policy.lockMs).toISOString() : null;
  const waitMs =
    attempts >= policy.slowAfter ? Math.min(policy.maxWaitMs, 1000 * 2 ** (attempts - policy.slowAfter)) : 0;
  return {
    next: {
      id,
      attempts,
      next_at: new Date(now.getTime() + waitMs).toISOString(),
      locked_until: lockedUntil,
      forget_at: new Date(Math.max(now.getTime() + FORGET_AFTER_MS, Date.parse(lockedUntil ?? at))).toISOString(),
      version: (stored?.version ?? 0) + 1,
    },
  };
}

/**
 * Slows down and stops password guessing (ADR 0065, 0072), across instances (the counts live in
 * the document store). Two counts: per email and client address (slowed, then locked: the one
 * guessing is stopped) and per email from everywhere (slowed, never locked: guesses spread over
 * many addresses are slowed, and the owner, signing in from an address without failures, is
 * never locked out by someone else). An attempt is counted when it starts, before the password
 * is checked, so guesses sent in parallel are counted too; a success forgets its address's count.
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

  /** Takes one attempt for the email from the address, or says how long to wait. */
  async begin(email: string, address: string): Promise<SignInGate> {
    const fromId = fromKey(email, address);
    const emailId = emailKey(email);
    for (;;) {
      const now = this.clock.now();
      this.purgeForgotten(now);
      const [fromStored, firstEmailStored] = await Promise.all([
        this.collection.get(fromId),
        this.collection.get(emailId),
      ]);
      const from = countAttempt(fromId, fromStored, PER_ADDRESS, now);
      if ('refused' in from) return from.refused;
      // Looked at both before counting either: an attempt refused for either reason counts nowhere.
      const checked = countAttempt(emailId, firstEmailStored, PER_EMAIL, now);
      if ('refused' in checked) return checked.refused;
      // The sender's own count first: an attempt its address may not make never reaches the
      // email's count, which the owner shares.
      if (!(await this.write(from.next, fromStored))) continue;
      let emailStored = firstEmailStored;
      let next = checked.next;
      for (;;) {
        if (await this.write(next, emailStored)) return { allowed: true };
        // Another attempt for the email was counted in between: count again on what it left.
        emailStored = await this.collection.get(emailId);
        const again = countAttempt(emailId, emailStored, PER_EMAIL, this.clock.now());
        // Refused now: the attempt stays on its own address's count (its sender's), only there.
        if ('refused' in again) return again.refused;
        next = again.next;
      }
    }
  }

  /** The attempt signed in: the count of its address starts afresh (the email's fades by itself). */
  async succeeded(email: string, address: string): Promise<void> {
    await this.collection.delete(fromKey(email, address));
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

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function emailKey(email: string): string {
  return `email:${sha256(normalizeEmail(email))}`;
}

/** An address cannot contain a newline, so no two (email, address) pairs share a key. */
function fromKey(email: string, address: string): string {
  return `from:${sha256(`${address}\n${normalizeEmail(email)}`)}`;
}

function refusal(reason: 'slow_down' | 'locked', until: string, now: Date): SignInGate & { allowed: false } {
  return {
    allowed: false,
    reason,
    retryAfterSeconds: Math.max(1, Math.ceil((Date.parse(until) - now.getTime()) / 1000)),
  };
}
