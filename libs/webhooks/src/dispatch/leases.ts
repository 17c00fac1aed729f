import { randomUUID } from 'node:crypto';
import { ConcurrentModificationError, type Doc, type DocumentStore, DuplicateKeyError } from '#documents';

/**
 * Who may send an attempt (ADR 0067, ADR 0070, ADR 0086). A lease is taken per attempt
 * (`{delivery}:a{n}` for automatic attempt n, `{delivery}:m{request}` for a redelivery) before
 * sending, and the claim of a sender marks it "sending" in the same write (durably: the mark
 * outlives a SIGKILL of the holder); a holder that then decides not to send gives the lease back
 * and its mark goes with it. Once the attempt is recorded, the lease is completed (lease and mark
 * go: the key is never asked for again, and a stale read of the delivery finds its stream moved).
 * A holder that dies between claiming and recording leaves a marked lease; once it expired,
 * `interrupted` lists it, and whoever takes it learns from `interruptedSendAt` that the request
 * may have reached the receiver: the attempt is recorded with an unknown outcome instead of being
 * sent again, so a receiver sees each delivery at most once per scheduled attempt. The TTL
 * (SVC_WEBHOOK_LEASE_MS) is at least twice the send timeout.
 */
export const DELIVERY_LEASES = Symbol('DELIVERY_LEASES');

/** A lease held on one attempt. */
export interface AttemptLease {
  readonly key: string;
  /** Epoch ms (wall clock: leases are compared across processes). */
  readonly expiresAt: number;
  /**
   * When an earlier holder marked this attempt as sending and then never recorded it (epoch ms
   * of the service clock it gave), or null: nothing was sent under this key yet.
   */
  readonly interruptedSendAt: number | null;
}

export interface DeliveryLeases {
  /**
   * Null when someone else holds the key (or this holder does already). With `sendingAt` (the
   * service clock), the lease is taken marked as sending from then, in the same atomic write: one
   * write per attempt instead of a claim and a mark (ADR 0086). An earlier holder's mark is kept
   * (and reported as `interruptedSendAt`): then nothing may be sent under it.
   */
  claim(key: string, ttlMs: number, sendingAt?: Date): Promise<AttemptLease | null>;
  /** The attempt is recorded: the lease and its mark go. */
  complete(lease: AttemptLease): Promise<void>;
  /**
   * Gives a lease back unused (nothing was sent under it): this holder's own mark goes, a mark
   * left by an earlier holder stays.
   */
  release(lease: AttemptLease): Promise<void>;
  /** Keys of expired leases still marked as sending (attempts sent and never recorded), oldest mark first. */
  interrupted(limit: number): Promise<string[]>;
  /**
   * Housekeeping: drops expired leases without a mark, and marks left unrecorded for longer than
   * MARK_RETENTION_MS (their delivery is gone).
   */
  sweep(): Promise<void>;
  /** Closes what the leases hold open (a file), if anything. */
  close?(): Promise<void>;
}

/** How long after its lease expired an unrecorded sending mark is kept before `sweep` drops it. */
export const MARK_RETENTION_MS = 24 * 60 * 60_000;

export const WEBHOOK_LEASES_COLLECTION = 'webhook_leases';

interface LeaseDoc extends Doc {
  owner: string;
  /** Epoch ms (wall clock: leases are compared across processes). */
  expires_at: number;
  /** Epoch ms (service clock) when a holder marked the attempt as sending; null before. */
  sending_at: number | null;
}

/**
 * Scaled mode (several dispatchers, MongoDB): a lease is a document taken with a compare-and-set
 * (absent, or expired with the exact owner and expiry read), so two dispatchers never both hold
 * one; the sending mark is another compare-and-set on this holder's owner and expiry. Uses the
 * document store port only, so the embedded store runs the same code in tests.
 */
export class DocumentLeases implements DeliveryLeases {
  readonly owner = randomUUID();
  private indexes: Promise<void> | null = null;

  constructor(
    private readonly documents: DocumentStore,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async claim(key: string, ttlMs: number, sendingAt?: Date): Promise<AttemptLease | null> {
    const t = this.now();
    const current = await this.documents.collection<LeaseDoc>(WEBHOOK_LEASES_COLLECTION).get(key);
    if (current && current.expires_at > t) return null;
    const lease = { key, expiresAt: t + ttlMs, interruptedSendAt: current?.sending_at ?? null };
    // The mark is part of what was read: a holder's mark landing between the read and this write
    // makes the write fail. One conditional write takes the lease and sets this sender's mark.
    const expect = current
      ? { owner: current.owner, expires_at: current.expires_at, sending_at: lease.interruptedSendAt }
      : null;
    const mark = lease.interruptedSendAt ?? sendingAt?.getTime() ?? null;
    return (await this.write(lease, mark, expect)) ? lease : null;
  }

  async complete(lease: AttemptLease): Promise<void> {
    // Expired and unmarked: free, and gone at the next sweep (the port has no conditional delete).
    await this.write({ ...lease, expiresAt: this.now() }, null, { owner: this.owner, expires_at: lease.expiresAt });
  }

  async release(lease: AttemptLease): Promise<void> {
    await this.write({ ...lease, expiresAt: this.now() }, lease.interruptedSendAt, {
      owner: this.owner,
      expires_at: lease.expiresAt,
    });
  }

  async interrupted(limit: number): Promise<string[]> {
    await this.indexed();
    const page = await this.documents
      .collection<LeaseDoc>(WEBHOOK_LEASES_COLLECTION)
      .find({ sending_at: { $gt: 0 }, expires_at: { $lte: this.now() } }, { sort: [['sending_at', 1]], limit });
    return page.items.map((l) => l.id);
  }

  async sweep(): Promise<void> {
    await this.indexed();
    const t = this.now();
    const leases = this.documents.collection<LeaseDoc>(WEBHOOK_LEASES_COLLECTION);
    await leases.deleteMany({ sending_at: null, expires_at: { $lt: t } });
    await leases.deleteMany({ expires_at: { $lt: t - MARK_RETENTION_MS } });
  }

  /** The indexes of the dispatchers' look for interrupted attempts (every 5 s) and of the sweep. */
  private indexed(): Promise<void> {
    this.indexes ??= this.documents
      .ensureIndexes(WEBHOOK_LEASES_COLLECTION, [
        {
          fields: [
            ['sending_at', 1],
            ['expires_at', 1],
          ],
        },
        { fields: [['expires_at', 1]] },
      ])
      .catch((error: unknown) => {
        this.indexes = null;
        throw error;
      });
    return this.indexes;
  }

  /** False when the stored lease is not the one expected (someone else won). */
  private async write(
    lease: Pick<AttemptLease, 'key' | 'expiresAt'>,
    sendingAt: number | null,
    expect: { owner: string; expires_at: number } | null,
  ): Promise<boolean> {
    try {
      await this.documents.applyBatch([
        {
          kind: 'cas',
          collection: WEBHOOK_LEASES_COLLECTION,
          doc: { id: lease.key, owner: this.owner, expires_at: lease.expiresAt, sending_at: sendingAt },
          expect,
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
}
