import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionStore } from '#projections';
import { PLATFORM_EVENTS_PROJECTION } from '../../../platform-events/platform-events.projection.js';
import { ReadYourWrites } from '#projections';
import { RepositoryLookup } from '../../repository-lookup.js';
import { repositoryDecider } from '../../repository.decider.js';
import { repositoryStream } from '../../repository.events.js';
import {
  type AnalysisDoc,
  REPOSITORIES_PROJECTION,
  REPOSITORY_ANALYSES_COLLECTION,
} from '../../repositories.projection.js';
import { type AnalysisView, toAnalysisView } from '../../repository.view.js';
import { ReportAnalysisCommand } from './report-analysis.command.js';

/** `repository.analyzed`: an analyser reports what it found about a connected repository. */
@CommandHandler(ReportAnalysisCommand)
export class ReportAnalysisHandler implements ICommandHandler<ReportAnalysisCommand, AnalysisView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly repositories: RepositoryLookup,
    private readonly projections: ProjectionStore,
  ) {}

  async execute({ input, options }: ReportAnalysisCommand): Promise<AnalysisView> {
    const doc = await this.repositories.get(input.accountId, input.repositoryId);
    const analysisId = this.ids.next('ana');
    const { position } = await decideAndAppend(
      this.events,
      repositoryStream(doc.account_id, doc.name),
      repositoryDecider,
      {
        type: 'ReportAnalysis',
        repositoryId: doc.id,
        accountId: input.accountId,
        analysis: {
          id: analysisId,
          summary: input.summary,
          commit_sha: input.commitSha,
          languages: input.languages,
          metrics: input.metrics,
        },
        by: input.by,
        now: this.clock.now(),
      },
    );
    await this.readYourWrites.waitFor(position, [REPOSITORIES_PROJECTION, PLATFORM_EVENTS_PROJECTION], options);
    const analysis = await this.projections
      .collection<AnalysisDoc>(REPOSITORIES_PROJECTION, REPOSITORY_ANALYSES_COLLECTION)
      .get(analysisId);
    if (!analysis) throw Errors.unavailable('The analysis is recorded but not readable yet; retry the read shortly.');
    return toAnalysisView(analysis);
  }
}
