import { Query } from '@nestjs/cqrs';
import type { RequestOrigin } from '#http';
import type { AgentStatusRequest } from '../agent-status.hook.js';
import type { AgentEnvelope } from '#agent-contract';

/**
 * The service status, and with a key also its account. The request goes whole to the accounts
 * feature's provider, which authenticates the key it carries.
 */
export class GetStatusQuery extends Query<AgentEnvelope<unknown>> {
  constructor(readonly request: RequestOrigin & AgentStatusRequest) {
    super();
  }
}
