import { randomUUID } from 'node:crypto';
import { ConcurrentModificationError, type Doc, type DocumentStore, DuplicateKeyError } from '#documents';

/**
 * Who may send an attempt. A lease is taken per attempt (`{delivery}:a{n}` for automatic attempt
 * n, `{delivery}:m{request}` for a redelivery) before sending and is never released early: once
 * the attempt is recorded nobody asks for that key again, and if the holder dies before recording
 * it, the key can be taken again after `ttlMs` (at-least-once; receivers dedupe by
 * X-Service-Delivery). The TTL is far longer than the 10 s send timeout.
 */
export const DELIVERY_LEASES = Symbol('DELIVERY_LEASES');

export interface DeliveryLeases {
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Gives a lease back unused (nothing was sent under it). */
  release(key: string): Promise<void>;
  /** Drops expired leases (housekeeping). */
  sweep(): Promise<void>;
  /** Closes what the leases hold open (a file), if anything. */
  close?(): Promise<void>;
}

/** Embedded mode: one dispatcher per process and per data file, so leases live in memory. */
export class InProcessLeases implements DeliveryLeases {
  private readonly held = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const t = this.now();
    const until = this.held.get(key);
    if (until !== undefined && until > t) return false;
    this.held.set(key, t + ttlMs);
    return true;
  }

  async release(key: string): Promise<void> {
    this.held.delete(key);
  }

  async sweep(): Promise<void> {
    const t = this.now();
    for (const [key, until] of this.held) if (until <= t) this.held.delete(key);
  }
}

export const WEBHOOK_LEASES_COLLECTION = 'webhook_leases';

interface LeaseDoc extends Doc {
  owner: string;
  /** Epoch ms (wall clock: leases are compared across processes). */
  expires_at: number;
}

/**
 * Scaled mode (several dispatchers, MongoDB): a lease is a document taken with a compare-and-set
 * (absent, or expired with the exact owner and expiry read), so two dispatchers never both hold
 * one. Uses the document store port only, so the embedded store runs the same code in tests.
 */
export class DocumentLeases implements DeliveryLeases {
  readonly owner = randomUUID();

  constructor(
    private readonly documents: DocumentStore,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const collection = this.documents.collection<LeaseDoc>(WEBHOOK_LEASES_COLLECTION);
    const t = this.now();
    const current = await collection.get(key);
    if (current && current.expires_at > t) return false;
    try {
      await this.documents.applyBatch([
        {
          kind: 'cas',
          collection: WEBHOOK_LEASES_COLLECTION,
          doc: { id: key, owner: this.owner, expires_at: t + ttlMs },
          expect: current ? { owner: current.owner, expires_at: current.expires_at } : null,
        },
      ]);
      return true;
    } catch (error) {
      if (error instanceof ConcurrentModificationError) return false;
      // A unique-id race on insert surfaces as a duplicate on some adapters: someone else won.
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  async release(key: string): Promise<void> {
    try {
      await this.documents.applyBatch([
        {
          kind: 'cas',
          collection: WEBHOOK_LEASES_COLLECTION,
          doc: { id: key, owner: this.owner, expires_at: 0 },
          expect: { owner: this.owner },
        },
      ]);
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
    }
  }

  async sweep(): Promise<void> {
    await this.documents
      .collection<LeaseDoc>(WEBHOOK_LEASES_COLLECTION)
      .deleteMany({ expires_at: { $lt: this.now() - 60 * 60_000 } });
  }
}
