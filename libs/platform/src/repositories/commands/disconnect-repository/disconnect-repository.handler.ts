import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { PLATFORM_EVENTS_PROJECTION } from '../../../platform-events/platform-events.projection.js';
import { ReadYourWrites } from '#projections';
import { RepositoryLookup } from '../../repository-lookup.js';
import { repositoryDecider } from '../../repository.decider.js';
import { repositoryStream } from '../../repository.events.js';
import { REPOSITORIES_PROJECTION } from '../../repositories.projection.js';
import { DisconnectRepositoryCommand } from './disconnect-repository.command.js';

/** `repository.disconnected`. The read model names the stream; the stream's decider checks the id is still the connected one. */
@CommandHandler(DisconnectRepositoryCommand)
export class DisconnectRepositoryHandler implements ICommandHandler<DisconnectRepositoryCommand, void> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly repositories: RepositoryLookup,
  ) {}

  async execute({ input, options }: DisconnectRepositoryCommand): Promise<void> {
    const doc = await this.repositories.get(input.accountId, input.repositoryId);
    const { position } = await decideAndAppend(
      this.events,
      repositoryStream(doc.account_id, doc.name),
      repositoryDecider,
      {
        type: 'DisconnectRepository',
        repositoryId: doc.id,
        accountId: input.accountId,
        by: input.by,
        now: this.clock.now(),
      },
    );
    await this.readYourWrites.waitFor(position, [REPOSITORIES_PROJECTION, PLATFORM_EVENTS_PROJECTION], options);
  }
}
