import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { OwnershipLease, OwnershipLeases } from './ownership.port.js';

/** A background job run only while this process owns it. */
export interface OwnedJob {
  /** The lease's name: `projection:{name}`, `webhooks:{channel}`. */
  name: string;
  start(): void | Promise<void>;
  /** Graceful: the work in progress ends (a projection batch commits, sends in flight finish). */
  stop(): Promise<void>;
}

export interface OwnershipSettings {
  /** Lease time (SVC_OWNERSHIP_LEASE_MS): another process may take a job this long after its owner's last renewal. */
  leaseMs: number;
  /** The owner renews every this many ms (SVC_OWNERSHIP_RENEW_MS); at most half of leaseMs. */
  renewMs: number;
  /** A standby tries to take a job every this many ms (SVC_OWNERSHIP_STANDBY_CHECK_MS). */
  standbyCheckMs: number;
}

export const DEFAULT_OWNERSHIP_SETTINGS: OwnershipSettings = { leaseMs: 6000, renewMs: 2000, standbyCheckMs: 1000 };

export interface OwnershipLogger {
  log(message: string): void;
  warn(message: string): void;
}

export interface OwnershipOptions {
  settings?: Partial<OwnershipSettings>;
  /** Default: `{host}:{pid}:{random}` (a restarted process is a new owner). */
  owner?: string;
  logger?: OwnershipLogger;
  /** Monotonic ms for this process's own deadlines (default performance.now; tests pass a fake). */
  monotonic?: () => number;
  /** Wall-clock epoch ms, to read leases' expiries in status (default Date.now; the leases have their own). */
  now?: () => number;
  /**
   * Whether a lease's holder is known to be gone (a process of this host that no longer exists):
   * its job is taken at once instead of after the expiry. Embedded mode only, where every
   * process of a data file runs on this host (processOfThisHostIsGone).
   */
  ownerIsGone?: (owner: string) => boolean;
}

/** What status shows per job. */
export interface OwnershipView {
  job: string;
  /** The holder while the lease runs; null when free (expired or released). */
  owner: string | null;
  /** This process holds it. */
  here: boolean;
  expires_at: string | null;
  term: number;
  since: string | null;
}

interface Slot {
  job: OwnedJob;
  lease: OwnershipLease | null;
  /** Monotonic ms: past it, this process stops acting on the job unless a renewal came back. */
  deadline: number;
  /** Monotonic ms of the next renewal (owner) or try (standby). */
  nextAt: number;
  busy: boolean;
}

/**
 * Runs each background job in the one process holding its lease (ADR 0067). Every process that
 * runs background work registers the same jobs; for each, the owner renews its lease every
 * `renewMs`, the others try to take it every `standbyCheckMs` and succeed once it expired (or
 * was released by a graceful stop). Takeover after an owner's death: at most leaseMs +
 * standbyCheckMs (+ the job's start).
 *
 * Fencing on this side: an owner whose renewals fail (a paused process, a store hiccup) stops
 * acting `leaseMs - renewMs` after the start of its last successful renewal, by its own
 * monotonic clock; others can take the job only `leaseMs` after that renewal's write, by the
 * wall clock. `holds(job)` answers by that deadline, so a dispatcher asks it right before a
 * send. What the job writes is fenced by the stores (projection checkpoints, attempt leases).
 */
export class BackgroundOwnership {
  readonly owner: string;
  readonly settings: OwnershipSettings;
  private readonly slots = new Map<string, Slot>();
  private readonly monotonic: () => number;
  private readonly logger: OwnershipLogger;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private running = false;

  constructor(
    private readonly leases: OwnershipLeases,
    private readonly options: OwnershipOptions = {},
  ) {
    this.settings = { ...DEFAULT_OWNERSHIP_SETTINGS, ...options.settings };
    const { leaseMs, renewMs, standbyCheckMs } = this.settings;
    if (!(renewMs > 0 && standbyCheckMs > 0 && renewMs * 2 <= leaseMs))
      throw new Error(`ownership: renewMs (${renewMs}) must be positive and at most half of leaseMs (${leaseMs})`);
    this.owner = options.owner ?? defaultOwner();
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.logger = options.logger ?? { log: () => undefined, warn: () => undefined };
  }

  /** Registers a job; it starts here once this process takes its lease (after start()). */
  add(job: OwnedJob): void {
    if (this.slots.has(job.name)) throw new Error(`ownership: job ${job.name} is registered twice`);
    this.slots.set(job.name, { job, lease: null, deadline: 0, nextAt: 0, busy: false });
    if (this.running) this.wake();
  }

  get jobs(): string[] {
    return [...this.slots.keys()];
  }

  /** Starts the heartbeat: the jobs free now are taken at once. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
    const every = Math.max(20, Math.min(this.settings.renewMs, this.settings.standbyCheckMs) / 4);
    this.timer = setInterval(() => this.wake(), every);
    this.timer.unref();
  }

  /** Stops every job held here, then gives their leases back so a successor takes over at once. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
    await Promise.all([...this.slots.keys()].map((name) => this.remove(name)));
  }

  /** Stops the job if held here, gives its lease back and forgets it (a graceful stop of one job). */
  async remove(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) return;
    this.slots.delete(name);
    // A renewal or take in flight lands first: the lease released below is the one it wrote (a
    // take that lands after this gives its lease back itself, finding the job gone).
    await this.ticking;
    const lease = slot.lease;
    if (!lease) return;
    slot.lease = null;
    await slot.job.stop().catch((error: unknown) => this.logger.warn(`ownership: stopping ${name}: ${message(error)}`));
    await this.leases
      .release(lease)
      .catch((error: unknown) => this.logger.warn(`ownership: releasing ${name}: ${message(error)}`));
  }

  /** This process holds the job's lease and may still act on it (its deadline has not passed). */
  holds(name: string): boolean {
    const slot = this.slots.get(name);
    return !!slot?.lease && this.monotonic() < slot.deadline;
  }

  /** One round: owners renew when due (or drop what they can no longer be sure of), standbys try. */
  tick(): Promise<void> {
    this.ticking ??= this.round().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  /** Resolves after one full round that began after this call (every job registered so far was looked at). */
  async settle(): Promise<void> {
    await this.ticking;
    await this.tick();
  }

  /** Every job registered here, with its holder as recorded (one read of the leases). */
  async status(): Promise<OwnershipView[]> {
    const recorded = new Map((await this.leases.list()).map((l) => [l.job, l]));
    const now = (this.options.now ?? Date.now)();
    return [...this.slots.keys()].sort().map((job) => {
      const lease = recorded.get(job);
      const live = lease && lease.expiresAt > now ? lease : null;
      return {
        job,
        owner: live?.owner ?? null,
        here: live?.owner === this.owner && this.holds(job),
        expires_at: live ? new Date(live.expiresAt).toISOString() : null,
        term: lease?.term ?? 0,
        since: live ? new Date(live.acquiredAt).toISOString() : null,
      };
    });
  }

  private wake(): void {
    if (this.running) void this.tick();
  }

  /**
   * Leases first, then the jobs taken start: a job starting (a projection catching up) keeps
   * this process busy, and must not hold up taking the other leases of the round.
   */
  private async round(): Promise<void> {
    const taken: Slot[] = [];
    await Promise.all([...this.slots.values()].map((slot) => this.step(slot, taken)));
    for (const slot of taken) {
      if (!slot.lease) continue;
      try {
        await slot.job.start();
      } catch (error) {
        this.logger.warn(`ownership: starting ${slot.job.name} failed: ${message(error)}`);
        await this.drop(slot, 'its start failed');
      }
    }
  }

  private async step(slot: Slot, taken: Slot[]): Promise<void> {
    if (slot.busy) return;
    slot.busy = true;
    try {
      const t = this.monotonic();
      if (slot.lease && t >= slot.deadline) {
        await this.drop(slot, `no renewal succeeded within ${this.settings.leaseMs - this.settings.renewMs} ms`);
        return;
      }
      if (t < slot.nextAt || !this.running) return;
      if (slot.lease) await this.renew(slot, t);
      else if (await this.take(slot, t)) taken.push(slot);
    } finally {
      slot.busy = false;
    }
  }

  private async renew(slot: Slot, t: number): Promise<void> {
    const lease = slot.lease!;
    let renewed: OwnershipLease | null;
    try {
      renewed = await this.leases.renew(lease, this.settings.leaseMs);
    } catch (error) {
      // A store hiccup: try again soon; the deadline stops the job if it lasts.
      slot.nextAt = this.monotonic() + Math.min(this.settings.renewMs, this.settings.standbyCheckMs) / 2;
      this.logger.warn(`ownership: renewing ${slot.job.name} failed: ${message(error)}`);
      return;
    }
    if (!renewed) {
      await this.drop(slot, 'another process holds its lease');
      return;
    }
    if (slot.lease !== lease) return; // dropped meanwhile
    slot.lease = renewed;
    slot.deadline = t + this.settings.leaseMs - this.settings.renewMs;
    slot.nextAt = t + this.settings.renewMs;
  }

  /** True when this process took the job's lease (the round starts the job). */
  private async take(slot: Slot, t: number): Promise<boolean> {
    slot.nextAt = t + this.settings.standbyCheckMs;
    let lease: OwnershipLease | null;
    try {
      lease = await this.leases.acquire(slot.job.name, this.owner, this.settings.leaseMs);
      if (!lease && this.options.ownerIsGone) lease = await this.takeFromTheGone(slot.job.name);
    } catch (error) {
      this.logger.warn(`ownership: taking ${slot.job.name} failed: ${message(error)}`);
      return false;
    }
    if (!lease) return false;
    if (!this.running || !this.slots.has(slot.job.name)) {
      await this.leases.release(lease).catch(() => undefined);
      return false;
    }
    slot.lease = lease;
    slot.deadline = t + this.settings.leaseMs - this.settings.renewMs;
    slot.nextAt = t + this.settings.renewMs;
    this.logger.log(`ownership: ${slot.job.name} runs here (term ${lease.term})`);
    return true;
  }

  /** The holder is a process of this host that is gone (SIGKILL): its lease is taken now. */
  private async takeFromTheGone(job: string): Promise<OwnershipLease | null> {
    const current = (await this.leases.list()).find((l) => l.job === job);
    if (!current || current.owner === this.owner || !this.options.ownerIsGone!(current.owner)) return null;
    // Expire it with a compare-and-set on what was read, then take it like a free one.
    await this.leases.release(current);
    return this.leases.acquire(job, this.owner, this.settings.leaseMs);
  }

  private async drop(slot: Slot, why: string): Promise<void> {
    const lease = slot.lease;
    if (!lease) return;
    slot.lease = null;
    slot.nextAt = this.monotonic() + this.settings.standbyCheckMs;
    this.logger.warn(`ownership: ${slot.job.name} stops here: ${why}`);
    await slot.job
      .stop()
      .catch((error: unknown) => this.logger.warn(`ownership: stopping ${slot.job.name}: ${message(error)}`));
  }
}

function defaultOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * True when `owner` (as made by default) names a process of this host that no longer exists.
 * A pid reused by another process reads as alive: the lease then simply runs out.
 */
export function processOfThisHostIsGone(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !pid || !/^\d+$/.test(pid)) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
