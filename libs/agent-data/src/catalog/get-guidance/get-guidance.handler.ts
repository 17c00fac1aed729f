import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AgentEnvelope } from '../catalog-context.js';
import { CatalogContextProvider } from '../catalog-context.provider.js';
import { buildGuidance, type GuidanceData } from '../guidance.document.js';
import { GetGuidanceQuery } from './get-guidance.query.js';

/** Built per request: the guidance depends on the parameters (objective, pack, key, source). */
@QueryHandler(GetGuidanceQuery)
export class GetGuidanceHandler implements IQueryHandler<GetGuidanceQuery, AgentEnvelope<GuidanceData>> {
  constructor(private readonly catalog: CatalogContextProvider) {}

  execute({ request, origin }: GetGuidanceQuery): Promise<AgentEnvelope<GuidanceData>> {
    return Promise.resolve(this.catalog.envelope(buildGuidance(this.catalog.forRequest(origin), request)));
  }
}
