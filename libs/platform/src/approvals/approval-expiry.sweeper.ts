import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BACKGROUND_WORK, type BackgroundWork, CLOCK, type Clock } from '#common';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '../shared/read-your-writes.js';
import { ApprovalLookup } from './approval-lookup.js';
import { approvalDecider } from './approval.decider.js';
import { approvalStream } from './approval.events.js';
import { APPROVALS_PROJECTION } from './approvals.projection.js';

/** How often the sweeper looks (real time); deadlines themselves are on the injected clock. */
export const APPROVAL_SWEEP_INTERVAL_MS = 30_000;
const PAGE = 100;

/**
 * Records the expiry (ApprovalExpired) of pending approvals whose `expires_at` has passed by the
 * injected clock. Runs where background work runs (the api with projections, the worker), every
 * 30 s; tests call `sweep()` after moving a FakeClock. Deciding never waits for it: the decider
 * refuses a due approval by itself, and reads show it as expired at once. Safe with several
 * sweepers: the approval's stream decides, a second expiry is a no-op.
 */
@Injectable()
export class ApprovalExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ApprovalExpiry');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BACKGROUND_WORK) private readonly background: BackgroundWork,
    private readonly approvals: ApprovalLookup,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.background.run) return;
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.logger.warn(`approval expiry sweep failed: ${(error as Error).message}`));
    }, APPROVAL_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Expires every due pending approval; resolves with how many, once the read model shows them. */
  sweep(): Promise<number> {
    // One sweep at a time per process: a slow sweep is joined, not doubled.
    this.running ??= this.sweepOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepOnce(): Promise<number> {
    const now = this.clock.now();
    let expired = 0;
    let last: number | null = null;
    let cursor: string | undefined;
    do {
      const page = await this.approvals
        .collection()
        .find({ status: 'pending', expires_at: { $lte: now.toISOString() } }, { sort: [['expires_at', 1]], limit: PAGE, ...(cursor ? { after: cursor } : {}) });
      for (const doc of page.items) {
        const { position } = await decideAndAppend(this.events, approvalStream(doc.id), approvalDecider, { type: 'ExpireApproval', approvalId: doc.id, now });
        if (position !== null) {
          expired++;
          last = position;
        }
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    await this.readYourWrites.waitFor(last, [APPROVALS_PROJECTION]);
    if (expired > 0) this.logger.log(`${expired} approval(s) expired`);
    return expired;
  }
}
