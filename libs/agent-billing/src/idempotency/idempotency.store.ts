import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { AppError, type Clock, Errors } from '#kernel';
import { type Doc, type DocumentStore, ConcurrentModificationError } from '#documents';

/** A response as first answered, replayed for later requests with the same key. */
export interface StoredResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface IdempotentRequest {
  /** What the key is unique within: the operation, plus the caller for authenticated ones. */
  scope: string;
  /** The client's `Idempotency-Key`. */
  key: string;
  /** Digest of the request's parameters: the same key with other parameters is refused. */
  fingerprint: string;
}

export interface IdempotencyOptions {
  /** How long a response is replayed. Default 24 h (D15). */
  ttlMs?: number;
  /** How long a claim in progress is honoured before another request may take over. Default 30 s. */
  leaseMs?: number;
  /** How long a concurrent duplicate waits for the first to finish. Default 10 s. */
  waitMs?: number;
  /**
   * Mixed into every response's encryption key (from the secrets key, SVC_SECRETS_KEY or the
   * key file), so the store and a client's Idempotency-Key together still cannot open a
   * response: reading a key back from a leaked log line and a database copy needs the server
   * too. Without it (tests of the store alone) the key is derived from the Idempotency-Key only.
   */
  serverSecret?: Buffer;
}

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys';
/** How long a first answer is replayed (D15). */
export const IDEMPOTENCY_TTL_HOURS = 24;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface IdempotencyDoc extends Doc {
  state: 'pending' | 'done';
  fingerprint: string;
  /** Random per claim: only the claimant may release it. */
  token: string;
  lease_until: string;
  expires_at: string;
  created_at: string;
  /** AES-256-GCM of the response, keyed by the idempotency key and the server secret (base64 iv|tag|data). */
  response: string | null;
}

/**
 * Idempotency keys (D15): the first response to a key is stored in the document store for 24 h
 * and replayed to every later request with that key (DESIGN §2: looked-up secrets live there,
 * with expiry). Race-safe: concurrent requests with one key race for an insert-only claim; one
 * executes, the others wait for its response (in-process at once, across processes by polling).
 * A failed execution releases the claim, so errors are never replayed.
 *
 * Responses may hold secrets (a new API key). They are stored encrypted with a key derived from
 * the Idempotency-Key value and a server secret, and the document id is a hash of it: the store
 * alone reveals nothing, and only a client presenting the same Idempotency-Key to this service
 * can read a response back.
 */
export class IdempotencyStore {
  private readonly ttlMs: number;
  private readonly leaseMs: number;
  private readonly waitMs: number;
  private readonly waiters = new Map<string, Set<() => void>>();
  private lastPurge = 0;
  private readonly serverSecret: Buffer;

  constructor(
    private readonly documents: DocumentStore,
    private readonly clock: Clock,
    options: IdempotencyOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? IDEMPOTENCY_TTL_HOURS * 3600_000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.waitMs = options.waitMs ?? 10_000;
    this.serverSecret = options.serverSecret ?? Buffer.from('svc-idempotency-v1');
  }

  static validKey(key: string): boolean {
    return KEY_PATTERN.test(key);
  }

  async run(
    request: IdempotentRequest,
    execute: () => Promise<StoredResponse>,
  ): Promise<StoredResponse & { replayed: boolean }> {
    if (!IdempotencyStore.validKey(request.key)) {
      throw Errors.badRequest(
        'INVALID_IDEMPOTENCY_KEY',
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
      );
    }
    const id = createHash('sha256').update(`${request.scope}\n${request.key}`).digest('hex');
    const collection = this.documents.collection<IdempotencyDoc>(IDEMPOTENCY_COLLECTION);
    this.purgeExpired();
    const deadline = performance.now() + this.waitMs;
    for (;;) {
      const now = this.clock.now();
      const doc = await collection.get(id);
      const live = doc && doc.expires_at > now.toISOString() ? doc : null;
      if (live && live.fingerprint !== request.fingerprint) {
        throw Errors.conflict(
          'This Idempotency-Key was used with other parameters; use a new key for a new request.',
          'IDEMPOTENCY_KEY_REUSED',
        );
      }
      if (live?.state === 'done' && live.response) {
        const opened = decrypt(live.response, request, this.serverSecret);
        if (opened) return { ...opened, replayed: true };
        // Unreadable (the secrets key rotated since): the key starts over once its lease is past.
      }
      const claimable = !live || live.lease_until <= now.toISOString();
      if (claimable) {
        const claim: IdempotencyDoc = {
          id,
          state: 'pending',
          fingerprint: request.fingerprint,
          token: randomBytes(12).toString('hex'),
          lease_until: new Date(now.getTime() + this.leaseMs).toISOString(),
          expires_at: new Date(now.getTime() + this.ttlMs).toISOString(),
          created_at: now.toISOString(),
          response: null,
        };
        if (await this.claim(claim, doc)) return this.executeClaimed(claim, request, execute);
        continue; // somebody else claimed it in between: look again
      }
      const remaining = deadline - performance.now();
      if (remaining <= 0) {
        throw new AppError(
          'conflict',
          'IDEMPOTENCY_KEY_IN_PROGRESS',
          'A request with this Idempotency-Key is still in progress; retry shortly.',
        );
      }
      await this.waitForChange(id, Math.min(remaining, 25));
    }
  }

  private async claim(claim: IdempotencyDoc, previous: IdempotencyDoc | null): Promise<boolean> {
    const collection = this.documents.collection<IdempotencyDoc>(IDEMPOTENCY_COLLECTION);
    if (!previous) return collection.insertIfAbsent(claim);
    try {
      // Take over an expired record or an abandoned claim, only if it is still the one we saw.
      await this.documents.applyBatch([
        {
          kind: 'cas',
          collection: IDEMPOTENCY_COLLECTION,
          doc: claim,
          expect: { token: previous.token, state: previous.state },
        },
      ]);
      return true;
    } catch (error) {
      if (error instanceof ConcurrentModificationError) return false;
      throw error;
    }
  }

  private async executeClaimed(
    claim: IdempotencyDoc,
    request: IdempotentRequest,
    execute: () => Promise<StoredResponse>,
  ): Promise<StoredResponse & { replayed: boolean }> {
    let response: StoredResponse;
    try {
      response = await execute();
    } catch (error) {
      await this.release(claim).catch(() => undefined);
      throw error;
    }
    const done: IdempotencyDoc = { ...claim, state: 'done', response: encrypt(response, request, this.serverSecret) };
    try {
      await this.documents.applyBatch([
        { kind: 'cas', collection: IDEMPOTENCY_COLLECTION, doc: done, expect: { token: claim.token } },
      ]);
    } catch (error) {
      // Our lease ran out and another request took over: it executes too; ours still stands.
      if (!(error instanceof ConcurrentModificationError)) throw error;
    } finally {
      this.notify(claim.id);
    }
    return { ...response, replayed: false };
  }

  private async release(claim: IdempotencyDoc): Promise<void> {
    // Only our own claim, checked by the delete itself (ADR 0076): a request that took the key
    // over once our lease ran out keeps it (a read first would let the delete remove theirs).
    await this.documents
      .collection<IdempotencyDoc>(IDEMPOTENCY_COLLECTION)
      .deleteMany({ id: claim.id, token: claim.token });
    this.notify(claim.id);
  }

  private waitForChange(id: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(id);
      if (!set) this.waiters.set(id, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        set!.delete(done);
        if (set!.size === 0) this.waiters.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  private notify(id: string): void {
    for (const wake of [...(this.waiters.get(id) ?? [])]) wake();
  }

  /** Expired records are ignored when read; this removes them now and then. */
  private purgeExpired(): void {
    const now = this.clock.now().getTime();
    if (now - this.lastPurge < 10 * 60_000) return;
    this.lastPurge = now;
    void this.documents
      .collection<IdempotencyDoc>(IDEMPOTENCY_COLLECTION)
      .deleteMany({ expires_at: { $lt: new Date(now).toISOString() } })
      .catch(() => undefined);
  }
}

function cipherKey(request: IdempotentRequest, serverSecret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', request.key, serverSecret, request.scope, 32));
}

function encrypt(response: StoredResponse, request: IdempotentRequest, serverSecret: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(request, serverSecret), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(response), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
}

/** The stored response, or undefined when it does not open with this server secret. */
function decrypt(stored: string, request: IdempotentRequest, serverSecret: Buffer): StoredResponse | undefined {
  try {
    return open(stored, request, serverSecret);
  } catch {
    return undefined;
  }
}

function open(stored: string, request: IdempotentRequest, serverSecret: Buffer): StoredResponse {
  const raw = Buffer.from(stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(request, serverSecret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(
    Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'),
  ) as StoredResponse;
}

/** A stable digest of request parameters (key order does not matter). */
export function fingerprintOf(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}

function stableJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}
