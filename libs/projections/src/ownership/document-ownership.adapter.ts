import { ConcurrentModificationError, type Doc, type DocumentStore, DuplicateKeyError } from '#documents';
import type { OwnershipLease, OwnershipLeases } from './ownership.port.js';

export const OWNERSHIP_LEASES_COLLECTION = 'ownership_leases';

interface LeaseDoc extends Doc {
  owner: string;
  /** Epoch ms (wall clock: compared across processes). */
  expires_at: number;
  term: number;
  acquired_at: number;
  renewed_at: number;
}

/**
 * Ownership leases as documents, one per job, written with a compare-and-set on the (owner,
 * expiry, and for a take the term) read, like the webhook attempt leases: embedded SQLite (several processes on one data
 * file) and MongoDB alike. The wall clock `now` is injected (tests move a fake one).
 */
export class DocumentOwnershipLeases implements OwnershipLeases {
  constructor(
    private readonly documents: DocumentStore,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async acquire(job: string, owner: string, ttlMs: number): Promise<OwnershipLease | null> {
    const current = await this.collection().get(job);
    const t = this.now();
    if (current && current.owner !== owner && current.expires_at > t) return null;
    const mine = current?.owner === owner && current.expires_at > t;
    const doc: LeaseDoc = {
      id: job,
      owner,
      expires_at: t + ttlMs,
      term: mine ? current.term : (current?.term ?? 0) + 1,
      acquired_at: mine ? current.acquired_at : t,
      renewed_at: t,
    };
    // The term too: a lease released, taken and released again by its owner since the read is
    // back at the same (owner, expiry 0), and writing over it would hand out a term twice.
    return this.write(
      doc,
      current ? { owner: current.owner, expires_at: current.expires_at, term: current.term } : null,
    );
  }

  async renew(lease: OwnershipLease, ttlMs: number): Promise<OwnershipLease | null> {
    const t = this.now();
    return this.write(
      {
        id: lease.job,
        owner: lease.owner,
        expires_at: t + ttlMs,
        term: lease.term,
        acquired_at: lease.acquiredAt,
        renewed_at: t,
      },
      { owner: lease.owner, expires_at: lease.expiresAt },
    );
  }

  async release(lease: OwnershipLease): Promise<void> {
    await this.write(
      {
        id: lease.job,
        owner: lease.owner,
        expires_at: 0,
        term: lease.term,
        acquired_at: lease.acquiredAt,
        renewed_at: this.now(),
      },
      { owner: lease.owner, expires_at: lease.expiresAt },
    );
  }

  async list(): Promise<OwnershipLease[]> {
    const page = await this.collection().find({}, { sort: [['id', 1]], limit: 1000 });
    return page.items.map(toLease);
  }

  /** The compare-and-set: the lease written, or null when another write came first. */
  private async write(doc: LeaseDoc, expect: Record<string, string | number> | null): Promise<OwnershipLease | null> {
    try {
      await this.documents.applyBatch([{ kind: 'cas', collection: OWNERSHIP_LEASES_COLLECTION, doc, expect }]);
      return toLease(doc);
    } catch (error) {
      // Lost the race (a unique-id race on insert surfaces as a duplicate on some adapters).
      if (error instanceof ConcurrentModificationError || error instanceof DuplicateKeyError) return null;
      throw error;
    }
  }

  private collection() {
    return this.documents.collection<LeaseDoc>(OWNERSHIP_LEASES_COLLECTION);
  }
}

function toLease(doc: LeaseDoc): OwnershipLease {
  return { job: doc.id, owner: doc.owner, expiresAt: doc.expires_at, term: doc.term, acquiredAt: doc.acquired_at };
}
