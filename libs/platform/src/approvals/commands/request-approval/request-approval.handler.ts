import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { PLATFORM_EVENTS_PROJECTION } from '../../../platform-events/platform-events.projection.js';
import { RepositoryLookup } from '../../../repositories/repository-lookup.js';
import type { RepositoryRef } from '../../../repositories/repository.events.js';
import { RunLookup } from '../../../runs/run-lookup.js';
import { ReadYourWrites } from '#projections';
import { ApprovalLookup } from '../../approval-lookup.js';
import { approvalDecider } from '../../approval.decider.js';
import { approvalStream } from '../../approval.events.js';
import { type ApprovalView, toApprovalView } from '../../approval.view.js';
import { APPROVALS_PROJECTION } from '../../approvals.projection.js';
import { RequestApprovalCommand } from './request-approval.command.js';

/** `approval.requested`; the repository and run it names must be the account's. */
@CommandHandler(RequestApprovalCommand)
export class RequestApprovalHandler implements ICommandHandler<RequestApprovalCommand, ApprovalView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly repositories: RepositoryLookup,
    private readonly runs: RunLookup,
    private readonly approvals: ApprovalLookup,
  ) {}

  async execute({ input, options }: RequestApprovalCommand): Promise<ApprovalView> {
    let repository: RepositoryRef | null = null;
    if (input.repositoryId) {
      const doc = await this.repositories.connected(input.accountId, input.repositoryId);
      repository = { id: doc.id, name: doc.name };
    }
    if (input.runId) {
      const run = await this.runs.get(input.accountId, input.runId);
      if (repository && repository.id !== run.repository.id) {
        throw Errors.validation([{ path: 'body.repository_id', message: "is not the run's repository" }]);
      }
      repository ??= run.repository;
    }
    const approvalId = this.ids.next('apr');
    const { position } = await decideAndAppend(this.events, approvalStream(approvalId), approvalDecider, {
      type: 'RequestApproval',
      approvalId,
      accountId: input.accountId,
      action: input.action,
      resource: input.resource,
      description: input.description,
      repository,
      runId: input.runId,
      by: input.by,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [APPROVALS_PROJECTION, PLATFORM_EVENTS_PROJECTION], options);
    return toApprovalView(await this.approvals.get(input.accountId, approvalId), this.clock.now());
  }
}
