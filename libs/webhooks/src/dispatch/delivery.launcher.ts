import type { DeliveryDoc } from '../engine/webhook-docs.js';
import type { DueSink } from './due-delivery.reader.js';
import { HostFairQueue } from './host-fair.queue.js';

export interface LauncherOptions {
  /** Requests in flight at most, per target host, and per owner; deliveries queued at most, and per host. */
  concurrency: number;
  perHost: number;
  perOwner: number;
  maxQueued: number;
  maxQueuedPerHost: number;
  /** Runs one delivery; calls `releaseHost` once its HTTP exchange is over. */
  run(doc: DeliveryDoc, releaseHost: () => void): Promise<void>;
  /** True once the dispatcher stops: nothing more is started. */
  isStopping(): boolean;
  /** A run ended (its host's slot and its own are free): the loop may want to read more. */
  settled(): void;
  /** A run threw (the runner records what it can; this is what it could not). */
  failed(doc: DeliveryDoc, error: unknown): void;
}

/** How long a recorded revision is remembered without the read model showing it (real ms). */
const RECORDED_MEMORY_MS = 60_000;

/**
 * Due deliveries waiting in memory, one queue per target host (HostFairQueue), and the runs in
 * flight. Started round-robin over hosts within the global, per-host and per-owner limits: a
 * slow receiver holds its own slots only. A delivery this dispatcher recorded an attempt for is
 * not queued again from a read model that does not show that attempt yet.
 */
export class DeliveryLauncher {
  private readonly queue: HostFairQueue<DeliveryDoc>;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Deliveries this dispatcher recorded an event for → that revision, until the read model shows it. */
  private readonly recorded = new Map<string, { revision: number; at: number }>();
  /** Where the reader puts due deliveries. */
  readonly sink: DueSink = {
    room: () => this.options.maxQueued - this.queue.size,
    enqueue: (doc) => this.enqueue(doc),
    waitingFor: (host) => this.queue.waitingFor(host),
  };

  constructor(private readonly options: LauncherOptions) {
    this.queue = new HostFairQueue({
      perHost: options.perHost,
      maxQueuedPerHost: options.maxQueuedPerHost,
      perOwner: options.perOwner,
    });
  }

  get queued(): number {
    return this.queue.size;
  }

  get running(): number {
    return this.inFlight.size;
  }

  /** Queued deliveries that could start now (their host and owner have a free slot). */
  runnable(): number {
    return this.queue.runnable();
  }

  isInFlight(deliveryId: string): boolean {
    return this.inFlight.has(deliveryId);
  }

  /** The delivery's stream is at this revision: older documents of it are stale. */
  noteRecorded(deliveryId: string, revision: number): void {
    this.recorded.set(deliveryId, { revision, at: performance.now() });
  }

  enqueue(doc: DeliveryDoc): 'added' | 'known' | 'stale' | 'host_full' {
    if (this.inFlight.has(doc.id) || this.queue.has(doc.id)) return 'known';
    const mine = this.recorded.get(doc.id);
    if (mine) {
      if (doc.revision < mine.revision) return 'stale';
      this.recorded.delete(doc.id);
    }
    return this.queue.push(doc);
  }

  /** Starts queued deliveries, one per host in turn, within the global, per-host and per-owner limits. */
  pump(): void {
    if (this.options.isStopping()) return;
    for (const doc of this.queue.take(this.options.concurrency - this.inFlight.size)) this.launch(doc);
  }

  /** Resolves when every run in flight now has ended. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
  }

  clear(): void {
    this.queue.clear();
  }

  /** Forgets recorded revisions the read model has had a minute to show. */
  prune(now: number): void {
    for (const [id, r] of this.recorded) if (now - r.at > RECORDED_MEMORY_MS) this.recorded.delete(id);
  }

  /** Runs one delivery; its host's slot is held (by the queue's take) until releaseHost. */
  private launch(doc: DeliveryDoc): void {
    let held = true;
    // The host's slot is for the HTTP exchange only: recording the attempt does not hold it.
    const releaseHost = () => {
      if (!held) return;
      held = false;
      this.queue.release(doc);
      this.pump();
    };
    const run = this.options
      .run(doc, releaseHost)
      .catch((error: unknown) => this.options.failed(doc, error))
      .finally(() => {
        this.inFlight.delete(doc.id);
        releaseHost();
        this.pump();
        this.options.settled();
      });
    this.inFlight.set(doc.id, run);
  }
}
