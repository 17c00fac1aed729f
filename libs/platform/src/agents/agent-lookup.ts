import { Injectable } from '@nestjs/common';
import { ProjectionStore } from '#projections';
import { getOwned } from '../shared/find-page.js';
import { agentNotFound } from './agent.decider.js';
import { AGENTS_COLLECTION, AGENTS_PROJECTION, type AgentDoc } from './agents.projection.js';

/** An agent of the caller's account from the read model; 404 otherwise. */
@Injectable()
export class AgentLookup {
  constructor(private readonly projections: ProjectionStore) {}

  get(accountId: string, agentId: string): Promise<AgentDoc> {
    return getOwned(
      this.projections.collection<AgentDoc>(AGENTS_PROJECTION, AGENTS_COLLECTION),
      agentId,
      accountId,
      agentNotFound,
    );
  }
}
