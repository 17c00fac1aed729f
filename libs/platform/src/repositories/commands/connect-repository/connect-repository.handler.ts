import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { PLATFORM_EVENTS_PROJECTION } from '../../../platform-events/platform-events.projection.js';
import { ReadYourWrites } from '#projections';
import { RepositoryLookup } from '../../repository-lookup.js';
import { repositoryDecider } from '../../repository.decider.js';
import { defaultRepositoryUrl, repositoryStream } from '../../repository.events.js';
import { REPOSITORIES_PROJECTION } from '../../repositories.projection.js';
import { toRepositoryView, type RepositoryView } from '../../repository.view.js';
import { ConnectRepositoryCommand } from './connect-repository.command.js';

/** `repository.connected`; the name's stream decides uniqueness (one connected repository per name and account). */
@CommandHandler(ConnectRepositoryCommand)
export class ConnectRepositoryHandler implements ICommandHandler<ConnectRepositoryCommand, RepositoryView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly repositories: RepositoryLookup,
  ) {}

  async execute({ input, options }: ConnectRepositoryCommand): Promise<RepositoryView> {
    const repositoryId = this.ids.next('repo');
    const { position } = await decideAndAppend(
      this.events,
      repositoryStream(input.accountId, input.name),
      repositoryDecider,
      {
        type: 'ConnectRepository',
        repositoryId,
        accountId: input.accountId,
        name: input.name,
        provider: input.provider,
        url: input.url ?? defaultRepositoryUrl(input.provider, input.name),
        by: input.by,
        now: this.clock.now(),
      },
    );
    await this.readYourWrites.waitFor(position, [REPOSITORIES_PROJECTION, PLATFORM_EVENTS_PROJECTION], options);
    return toRepositoryView(await this.repositories.get(input.accountId, repositoryId));
  }
}
