import { assertNever, type Decider, Errors } from '#kernel';
import type { CompanySnapshot, WorkspaceEvent } from './workspace.events.js';

type CompanyEvent = Extract<WorkspaceEvent, { type: 'WorkspaceCompanyAdded' }>;

export type WorkspaceCompanyState = { status: 'none' } | { status: 'added'; companyId: string };

export type WorkspaceCompanyCommand = {
  type: 'AddCompany';
  tenantId: string;
  companyId: string;
  sourceCompanyId: string | null;
  name: string;
  domain: string;
  stage: string | null;
  owner: string | null;
  snapshot: CompanySnapshot;
  by: string;
  now: Date;
};

/**
 * A company in a tenant's workspace (stream `wscompany-{tenant}-{id}`, the id derived from the
 * domain): added once; a second add of the same domain is 409 with the existing id.
 */
export const workspaceCompanyDecider: Decider<WorkspaceCompanyCommand, CompanyEvent, WorkspaceCompanyState> = {
  initialState: { status: 'none' },
  evolve(_state, event) {
    return { status: 'added', companyId: event.data.company_id };
  },
  decide(command, state) {
    if (command.type !== 'AddCompany') return assertNever(command.type);
    if (state.status === 'added')
      throw Errors.conflict(
        `The workspace has this company already (${state.companyId}).`,
        'WORKSPACE_COMPANY_EXISTS',
        { company_id: state.companyId },
      );
    return [
      {
        type: 'WorkspaceCompanyAdded',
        data: {
          tenant_id: command.tenantId,
          company_id: command.companyId,
          source_company_id: command.sourceCompanyId,
          name: command.name,
          domain: command.domain.toLowerCase(),
          stage: command.stage,
          owner: command.owner,
          snapshot: command.snapshot,
          added_by: command.by,
          added_at: command.now.toISOString(),
        },
      },
    ];
  },
};
