import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { PlatformRateLimiter } from '#access';
import { ReadYourWrites } from '#projections';
import { accountDecider } from '../../account.decider.js';
import { accountStream } from '../../account.events.js';
import { ACCOUNTS_PROJECTION } from '../../accounts.projection.js';
import { ChangePlanCommand, type ChangePlanResult } from './change-plan.command.js';

@CommandHandler(ChangePlanCommand)
export class ChangePlanHandler implements ICommandHandler<ChangePlanCommand, ChangePlanResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly rateLimiter: PlatformRateLimiter,
  ) {}

  async execute({ input, options }: ChangePlanCommand): Promise<ChangePlanResult> {
    const { events, position } = await decideAndAppend(this.events, accountStream(input.accountId), accountDecider, {
      type: 'ChangePlan',
      accountId: input.accountId,
      plan: input.plan,
      ...(input.perMinute !== undefined ? { perMinute: input.perMinute } : {}),
      ...(input.perHour !== undefined ? { perHour: input.perHour } : {}),
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [ACCOUNTS_PROJECTION], options);
    this.rateLimiter.invalidate(input.accountId);
    return { changed: events.length > 0, position };
  }
}
