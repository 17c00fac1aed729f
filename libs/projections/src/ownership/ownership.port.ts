/**
 * Ownership of a background job (a projection, a webhook dispatcher): at most one process runs
 * it at a time, the one holding its lease (ADR 0067). A lease is a record with an owner and an
 * expiry in wall-clock epoch ms (processes compare them); its holder renews it on a heartbeat
 * well inside the expiry and gives it back on a graceful stop, so a successor takes over at once.
 */
export interface OwnershipLease {
  /** The job: `projection:{name}`, `webhooks:{channel}`. */
  job: string;
  /** The holding process (host, pid and a random part: a restarted process is a new owner). */
  owner: string;
  /** Epoch ms after which another process may take the job. */
  expiresAt: number;
  /** Raised on every change of owner: a fencing token, shown by status. */
  term: number;
  /** Epoch ms when this owner took it. */
  acquiredAt: number;
}

export interface OwnershipLeases {
  /**
   * Takes the job's lease for `owner` until now + ttlMs when it is free (absent, expired or
   * released) or already `owner`'s; null when another owner holds it. Two contenders never
   * both get it: the write is a compare-and-set on the (owner, expiry, term) read.
   */
  acquire(job: string, owner: string, ttlMs: number): Promise<OwnershipLease | null>;
  /** Moves the expiry of a lease still held (same owner and expiry as `lease`); null when lost. */
  renew(lease: OwnershipLease, ttlMs: number): Promise<OwnershipLease | null>;
  /** Gives the lease back (expiry 0) if still held as `lease`; a lost lease is left alone. */
  release(lease: OwnershipLease): Promise<void>;
  /** Every lease recorded (expired ones too), by job. */
  list(): Promise<OwnershipLease[]>;
}

export const OWNERSHIP_LEASES = Symbol('OWNERSHIP_LEASES');
