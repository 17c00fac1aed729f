import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { GetCompanyProfileQuery, GetCompanyScoreQuery } from '#agent-ventures';
import { workspaceCompanyDecider } from '../../workspace-company.decider.js';
import { type CompanySnapshot, workspaceCompanyId, workspaceCompanyStream } from '../../workspace.events.js';
import { WORKSPACE_PROJECTION } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { companyDetailView, type WorkspaceCompanyDetailView } from '../../workspace.views.js';
import { AddWorkspaceCompanyCommand } from './add-company.command.js';

@CommandHandler(AddWorkspaceCompanyCommand)
export class AddWorkspaceCompanyHandler implements ICommandHandler<
  AddWorkspaceCompanyCommand,
  WorkspaceCompanyDetailView
> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly queries: QueryBus,
    private readonly readYourWrites: ReadYourWrites,
    private readonly reads: WorkspaceReads,
  ) {}

  async execute({ caller, body }: AddWorkspaceCompanyCommand): Promise<WorkspaceCompanyDetailView> {
    let name: string;
    let domain: string;
    let stage = body.stage ?? null;
    let snapshot: CompanySnapshot = { profile: null, score: null };
    if (body.company_id) {
      // 404 COMPANY_NOT_FOUND (not charged) for an id the universe does not have.
      const profile = await this.queries.execute(new GetCompanyProfileQuery(body.company_id));
      const score = await this.queries.execute(new GetCompanyScoreQuery(body.company_id));
      name = profile.name;
      domain = profile.domain;
      stage ??= profile.stage ?? null;
      snapshot = {
        profile: profile as unknown as Record<string, unknown>,
        score: score as unknown as Record<string, unknown>,
      };
    } else {
      name = body.name!;
      domain = body.domain!;
    }
    const companyId = workspaceCompanyId(caller.tenantId, domain);
    const { position } = await decideAndAppend(
      this.events,
      workspaceCompanyStream(caller.tenantId, companyId),
      workspaceCompanyDecider,
      {
        type: 'AddCompany',
        tenantId: caller.tenantId,
        companyId,
        sourceCompanyId: body.company_id ?? null,
        name,
        domain,
        stage,
        owner: body.owner ?? null,
        snapshot,
        by: caller.keyId,
        now: this.clock.now(),
      },
    );
    await this.readYourWrites.waitFor(position, [WORKSPACE_PROJECTION]);
    return companyDetailView(await this.reads.company(caller.tenantId, companyId));
  }
}
