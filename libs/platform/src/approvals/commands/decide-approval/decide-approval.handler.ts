import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { PLATFORM_EVENTS_PROJECTION } from '../../../platform-events/platform-events.projection.js';
import { ReadYourWrites } from '#projections';
import { ApprovalLookup } from '../../approval-lookup.js';
import { approvalDecider } from '../../approval.decider.js';
import { approvalStream } from '../../approval.events.js';
import { type ApprovalView, toApprovalView } from '../../approval.view.js';
import { APPROVALS_PROJECTION } from '../../approvals.projection.js';
import { DecideApprovalCommand } from './decide-approval.command.js';

/** pending → approved | rejected, once, before the deadline (`approval.approved` / `approval.rejected`). */
@CommandHandler(DecideApprovalCommand)
export class DecideApprovalHandler implements ICommandHandler<DecideApprovalCommand, ApprovalView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly approvals: ApprovalLookup,
  ) {}

  async execute({ input, options }: DecideApprovalCommand): Promise<ApprovalView> {
    const { position } = await decideAndAppend(this.events, approvalStream(input.approvalId), approvalDecider, {
      type: 'DecideApproval',
      approvalId: input.approvalId,
      accountId: input.accountId,
      decision: input.decision,
      comment: input.comment,
      by: input.by,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [APPROVALS_PROJECTION, PLATFORM_EVENTS_PROJECTION], options);
    return toApprovalView(await this.approvals.get(input.accountId, input.approvalId), this.clock.now());
  }
}
