import { Query } from '@nestjs/cqrs';
import type { RequestOrigin } from '#http';
import type { AgentEnvelope } from '#agent-contract';
import type { GuidanceData, GuidanceRequest } from '../guidance.document.js';

/** Purchase guidance for an objective, a segment or a pack (`/agents/quote`, `/agents/recommend-tier`). */
export class GetGuidanceQuery extends Query<AgentEnvelope<GuidanceData>> {
  constructor(
    readonly request: GuidanceRequest & { key_id?: string },
    readonly origin: RequestOrigin | undefined,
    /** The key the request was made with: the links are signed for it. */
    readonly callerKeyId: string | null = null,
  ) {
    super();
  }
}
