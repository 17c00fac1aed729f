import { Query } from '@nestjs/cqrs';
import type { RequestOrigin } from '#http';
import type { buildApiIndex } from '../api-index.document.js';
import type { AgentEnvelope } from '#agent-contract';

/** The /api/v1 index; `origin` gives the base URL of its links. */
export class GetApiIndexQuery extends Query<AgentEnvelope<ReturnType<typeof buildApiIndex>>> {
  constructor(readonly origin: RequestOrigin | undefined) {
    super();
  }
}
