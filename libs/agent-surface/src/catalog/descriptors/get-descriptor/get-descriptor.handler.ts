import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { CacheableDocument } from '#http';
import { CatalogContextProvider } from '#agent-contract';
import { renderSiteDocument } from '../site-documents.js';
import { GetDescriptorQuery } from './get-descriptor.query.js';

/** Renders a descriptor once per base URL (the body and its ETag are then fixed) and serves it from then on. */
@QueryHandler(GetDescriptorQuery)
export class GetDescriptorHandler implements IQueryHandler<GetDescriptorQuery, CacheableDocument> {
  constructor(private readonly catalog: CatalogContextProvider) {}

  execute({ name, origin }: GetDescriptorQuery): Promise<CacheableDocument> {
    return Promise.resolve(this.catalog.cached(`site ${name}`, origin, (ctx) => renderSiteDocument(name, ctx)));
  }
}
