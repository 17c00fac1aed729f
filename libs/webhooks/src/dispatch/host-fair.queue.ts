/** What the queue holds: something with an id, bound for a target host. */
export interface HostBound {
  id: string;
  target: string;
  /** Whose it is (an account or tenant): at most `perOwner` of one owner's items in flight. */
  owner_id: string;
}

/**
 * Due deliveries waiting to be sent, one queue per target host, started round-robin over the
 * hosts: at most `perHost` in flight per host and `concurrency` in all, so a slow receiver holds
 * its own slots only and every other host keeps moving; and at most `perOwner` per owner, so one
 * tenant's many slow receivers cannot take every slot from the others. Pure bookkeeping (no I/O, no timers):
 * the dispatcher asks what may start and tells when a host's exchange is over.
 */
export class HostFairQueue<T extends HostBound> {
  private readonly queues = new Map<string, T[]>();
  private readonly ids = new Set<string>();
  private readonly busy = new Map<string, number>();
  private readonly ownerBusy = new Map<string, number>();

  constructor(private readonly limits: { perHost: number; maxQueuedPerHost: number; perOwner?: number }) {}

  /** Items waiting (not started). */
  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Items waiting for a host, to refill only hosts with room. */
  waitingFor(host: string): number {
    return this.queues.get(host)?.length ?? 0;
  }

  /** Waiting items whose host could start one now. */
  runnable(): number {
    let n = 0;
    for (const [host, queue] of this.queues) if (this.inFlight(host) < this.limits.perHost) n += queue.length;
    return n;
  }

  push(item: T): 'added' | 'known' | 'host_full' {
    if (this.ids.has(item.id)) return 'known';
    let queue = this.queues.get(item.target);
    if (!queue) this.queues.set(item.target, (queue = []));
    if (queue.length >= this.limits.maxQueuedPerHost) return 'host_full';
    queue.push(item);
    this.ids.add(item.id);
    return 'added';
  }

  /**
   * Takes what may start now, one per host per round, skipping hosts at their limit, until
   * `room` items are taken or no host can start one. Each taken item holds its host's slot
   * until `release(host)`.
   */
  take(room: number): T[] {
    const taken: T[] = [];
    let progressed = true;
    while (progressed && taken.length < room) {
      progressed = false;
      // A snapshot of the hosts: one served now moves to the back of the line (below), and must
      // not come round again in this pass.
      for (const host of [...this.queues.keys()]) {
        const queue = this.queues.get(host)!;
        if (queue.length === 0) {
          this.queues.delete(host);
          continue;
        }
        if (this.inFlight(host) >= this.limits.perHost) continue;
        const index =
          this.limits.perOwner === undefined
            ? 0
            : queue.findIndex((i) => this.ownerInFlight(i.owner_id) < this.limits.perOwner!);
        if (index < 0) continue;
        const [item] = queue.splice(index, 1) as [T];
        this.ids.delete(item.id);
        this.busy.set(host, this.inFlight(host) + 1);
        this.ownerBusy.set(item.owner_id, this.ownerInFlight(item.owner_id) + 1);
        // Round robin across calls too: when one slot frees at a time, the next host in line gets
        // it, not the first host in the map again (which starved hosts further down).
        this.queues.delete(host);
        if (queue.length > 0) this.queues.set(host, queue);
        taken.push(item);
        progressed = true;
        if (taken.length >= room) break;
      }
    }
    return taken;
  }

  /** An item's exchange is over: its host's and its owner's slots are free. */
  release(item: Pick<T, 'target' | 'owner_id'>): void {
    decrement(this.busy, item.target);
    decrement(this.ownerBusy, item.owner_id);
  }

  inFlight(host: string): number {
    return this.busy.get(host) ?? 0;
  }

  ownerInFlight(owner: string): number {
    return this.ownerBusy.get(owner) ?? 0;
  }

  clear(): void {
    this.queues.clear();
    this.ids.clear();
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}
