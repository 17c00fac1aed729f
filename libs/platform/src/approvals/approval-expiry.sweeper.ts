import { Inject, Injectable } from '@nestjs/common';
import { BACKGROUND_WORK, type BackgroundWork } from '#projections';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { PeriodicSweeper, ReadYourWrites } from '#projections';
import { ApprovalLookup } from './approval-lookup.js';
import { approvalDecider } from './approval.decider.js';
import { approvalStream } from './approval.events.js';
import { APPROVALS_PROJECTION } from './approvals.projection.js';

/** How often the sweeper looks (real time); deadlines themselves are on the injected clock. */
export const APPROVAL_SWEEP_INTERVAL_MS = 30_000;

/**
 * Records the expiry (ApprovalExpired) of pending approvals whose `expires_at` has passed by the
 * injected clock, every 30 s. Deciding never waits for it: the decider refuses a due approval by
 * itself, and reads show it as expired at once. Safe with several sweepers: the approval's
 * stream decides, a second expiry is a no-op.
 */
@Injectable()
export class ApprovalExpirySweeper extends PeriodicSweeper {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BACKGROUND_WORK) background: BackgroundWork,
    private readonly approvals: ApprovalLookup,
    private readonly readYourWrites: ReadYourWrites,
  ) {
    super('ApprovalExpiry', APPROVAL_SWEEP_INTERVAL_MS, background);
  }

  /** Expires every due pending approval; resolves with how many, once the read model shows them. */
  protected async sweepOnce(): Promise<number> {
    const now = this.clock.now();
    const { changed, last } = await this.eachPage(
      (after) =>
        this.approvals
          .collection()
          .find(
            { status: 'pending', expires_at: { $lte: now.toISOString() } },
            { sort: [['expires_at', 1]], limit: 100, ...(after ? { after } : {}) },
          ),
      async (doc) =>
        (
          await decideAndAppend(this.events, approvalStream(doc.id), approvalDecider, {
            type: 'ExpireApproval',
            approvalId: doc.id,
            now,
          })
        ).position,
    );
    await this.readYourWrites.waitFor(last, [APPROVALS_PROJECTION]);
    if (changed > 0) this.logger.log(`${changed} approval(s) expired`);
    return changed;
  }
}
