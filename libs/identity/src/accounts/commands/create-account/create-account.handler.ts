import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { accountDecider } from '../../account.decider.js';
import { accountStream } from '../../account.events.js';
import { ACCOUNTS_PROJECTION } from '../../accounts.projection.js';
import { CreateAccountCommand, type CreateAccountResult } from './create-account.command.js';

@CommandHandler(CreateAccountCommand)
export class CreateAccountHandler implements ICommandHandler<CreateAccountCommand, CreateAccountResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ input, options }: CreateAccountCommand): Promise<CreateAccountResult> {
    const accountId = input.accountId ?? this.ids.next('acct');
    const { position } = await decideAndAppend(this.events, accountStream(accountId), accountDecider, {
      type: 'CreateAccount',
      accountId,
      name: input.name,
      plan: input.plan,
      ...(input.perMinute !== undefined ? { perMinute: input.perMinute } : {}),
      ...(input.perHour !== undefined ? { perHour: input.perHour } : {}),
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [ACCOUNTS_PROJECTION], options);
    return { accountId, position: position! };
  }
}
