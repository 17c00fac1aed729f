import { Query } from '@nestjs/cqrs';
import type { RequestOrigin } from '#http';
import type { AgentEnvelope } from '../catalog-context.js';
import type { GuidanceData, GuidanceRequest } from '../guidance.document.js';

/** Purchase guidance for an objective, a segment or a pack (`/agents/quote`, `/agents/recommend-tier`). */
export class GetGuidanceQuery extends Query<AgentEnvelope<GuidanceData>> {
  constructor(
    readonly request: GuidanceRequest,
    readonly origin: RequestOrigin | undefined,
  ) {
    super();
  }
}
