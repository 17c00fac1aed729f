import { Query } from '@nestjs/cqrs';
import type { DiscoveryPage, TopCompaniesQueryParams } from './top-companies.schema.js';

/** A page of the ranking: score descending, ties by company id; optional sector, stage and country. */
export class TopCompaniesQuery extends Query<DiscoveryPage> {
  constructor(readonly params: TopCompaniesQueryParams) {
    super();
  }
}
