import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { dealDecider } from '../../deal.decider.js';
import { dealStream } from '../../workspace.events.js';
import { WORKSPACE_PROJECTION } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { type DealView, dealView } from '../../workspace.views.js';
import { CreateDealCommand } from './create-deal.command.js';

@CommandHandler(CreateDealCommand)
export class CreateDealHandler implements ICommandHandler<CreateDealCommand, DealView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly reads: WorkspaceReads,
  ) {}

  async execute({ caller, body }: CreateDealCommand): Promise<DealView> {
    await this.reads.company(caller.tenantId, body.company_id);
    const dealId = this.ids.next('deal');
    const { position } = await decideAndAppend(this.events, dealStream(caller.tenantId, dealId), dealDecider, {
      type: 'CreateDeal',
      tenantId: caller.tenantId,
      dealId,
      companyId: body.company_id,
      name: body.name,
      stage: body.stage,
      amountUsd: body.amount_usd ?? null,
      owner: body.owner ?? null,
      by: caller.keyId,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [WORKSPACE_PROJECTION]);
    return dealView(await this.reads.deal(caller.tenantId, dealId));
  }
}
