import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { dealDecider } from '../../deal.decider.js';
import { dealStream } from '../../workspace.events.js';
import { WORKSPACE_PROJECTION } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { type DealView, dealView } from '../../workspace.views.js';
import { UpdateDealCommand } from './update-deal.command.js';

@CommandHandler(UpdateDealCommand)
export class UpdateDealHandler implements ICommandHandler<UpdateDealCommand, DealView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly reads: WorkspaceReads,
  ) {}

  async execute({ caller, dealId, body }: UpdateDealCommand): Promise<DealView> {
    await this.reads.deal(caller.tenantId, dealId);
    const { stage, ...changes } = body;
    const { position } = await decideAndAppend(this.events, dealStream(caller.tenantId, dealId), dealDecider, {
      type: 'UpdateDeal',
      tenantId: caller.tenantId,
      ...(stage ? { stage } : {}),
      changes,
      by: caller.keyId,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [WORKSPACE_PROJECTION]);
    return dealView(await this.reads.deal(caller.tenantId, dealId));
  }
}
