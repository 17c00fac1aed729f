import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { buildApiIndex } from '../api-index.document.js';
import { type AgentEnvelope, CatalogContextProvider } from '#agent-contract';
import { GetApiIndexQuery } from './get-index.query.js';

/** Built once per base URL, like the other fixed documents. */
@QueryHandler(GetApiIndexQuery)
export class GetApiIndexHandler implements IQueryHandler<
  GetApiIndexQuery,
  AgentEnvelope<ReturnType<typeof buildApiIndex>>
> {
  constructor(private readonly catalog: CatalogContextProvider) {}

  execute({ origin }: GetApiIndexQuery): Promise<AgentEnvelope<ReturnType<typeof buildApiIndex>>> {
    return Promise.resolve(this.catalog.document('api-index', origin, buildApiIndex));
  }
}
