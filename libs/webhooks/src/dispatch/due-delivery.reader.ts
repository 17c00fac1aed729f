import type { ReadonlyCollection } from '#projections';
import type { DeliveryDoc, WebhookDoc } from '../engine/webhook-docs.js';

export interface DueReadSettings {
  perHost: number;
  pageSize: number;
  scanLimit: number;
}

/** Where read deliveries go: the dispatcher's queue. */
export interface DueSink {
  /** Deliveries the queue can still take. */
  room(): number;
  enqueue(doc: DeliveryDoc): 'added' | 'known' | 'stale' | 'host_full';
  waitingFor(host: string): number;
}

/**
 * Reads what is due (`dispatch_at <= now`) from the channel's read model into the queue: a
 * sweep in due order that goes on where the last one stopped (what it passed is queued, in
 * flight or recorded), and, when the sweep runs into hosts whose queues are full (a slow
 * receiver, a fan-out burst to one host), a read per other known target so their deliveries are
 * not stuck behind it.
 */
export class DueDeliveryReader {
  /** Where the sweep goes on (keyset cursor), or from the start. */
  private sweepAfter: string | undefined;
  /** Targets of the active webhooks (for the per-target read), refreshed every few seconds. */
  private knownTargets: { targets: string[]; at: number } | null = null;

  constructor(
    private readonly deliveries: ReadonlyCollection<DeliveryDoc>,
    private readonly webhooks: ReadonlyCollection<WebhookDoc>,
    private readonly settings: DueReadSettings,
  ) {}

  /** `more`: due deliveries were left behind (full hosts, busy ones, or the scan limit). */
  async refill(
    now: string,
    fromStart: boolean,
    sink: DueSink,
  ): Promise<{ added: number; scanned: number; more: boolean }> {
    let added = 0;
    let scanned = 0;
    let hostsFull = false;
    let busy = false;
    // A sweep that reached the end starts over next time, so deliveries that became due behind
    // it (retries) are found within one sweep.
    let after = fromStart ? undefined : this.sweepAfter;
    this.sweepAfter = undefined;
    while (sink.room() > 0 && scanned < this.settings.scanLimit) {
      const page = await this.deliveries.find(
        { dispatch_at: { $lte: now } },
        { sort: [['dispatch_at', 1]], limit: this.settings.pageSize, ...(after ? { after } : {}) },
      );
      scanned += page.items.length;
      let fullStreak = 0;
      for (const doc of page.items) {
        const r = sink.enqueue(doc);
        if (r === 'added') added++;
        else if (r === 'host_full') hostsFull = true;
        // Due but in flight (or recorded and not yet projected): look again when sends finish.
        else busy = true;
        fullStreak = r === 'host_full' ? fullStreak + 1 : 0;
      }
      // Due deliveries were left out if a host's queue was full or they were still busy.
      if (!page.nextCursor) return { added, scanned, more: hostsFull || busy };
      after = page.nextCursor;
      if (!hostsFull) this.sweepAfter = after;
      // A page ending in deliveries for full hosts: ask per target instead of scanning through them.
      if (fullStreak > 0) break;
    }
    if (hostsFull && sink.room() > 0) added += await this.otherTargets(now, sink);
    return { added, scanned, more: true };
  }

  /** Due deliveries of the known targets with little queued work (the busy ones have enough). */
  async otherTargets(now: string, sink: DueSink): Promise<number> {
    const t = performance.now();
    if (!this.knownTargets || t - this.knownTargets.at > 5000) {
      const all = new Set<string>();
      let after: string | undefined;
      do {
        const page = await this.webhooks.find({ status: 'active' }, { limit: 1000, ...(after ? { after } : {}) });
        for (const w of page.items) all.add(w.target);
        after = page.nextCursor ?? undefined;
      } while (after);
      this.knownTargets = { targets: [...all], at: t };
    }
    let added = 0;
    // Targets with little queued work: the busy ones have enough to do.
    const list = this.knownTargets.targets.filter((target) => sink.waitingFor(target) < this.settings.perHost);
    for (let i = 0; i < list.length && sink.room() > 0; i += 50) {
      const page = await this.deliveries.find(
        { target: { $in: list.slice(i, i + 50) }, dispatch_at: { $lte: now } },
        { sort: [['dispatch_at', 1]], limit: this.settings.pageSize },
      );
      for (const doc of page.items) if (sink.enqueue(doc) === 'added') added++;
    }
    return added;
  }
}
