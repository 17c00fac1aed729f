import { Query } from '@nestjs/cqrs';
import type { CacheableDocument, RequestOrigin } from '#http';
import type { SiteDocumentName } from '../site-documents.js';

/** One document of the site root by name, with its ETag; `origin` gives the base URL of its links. */
export class GetDescriptorQuery extends Query<CacheableDocument> {
  constructor(
    readonly name: SiteDocumentName,
    readonly origin: RequestOrigin | undefined,
  ) {
    super();
  }
}
