import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectionStore } from '#projections';
import { resolveCompanyId } from '../../companies/company.profile.js';
import { companyNotFound } from '../../companies/get-company-profile/get-company-profile.handler.js';
import {
  COMPANY_SCORES_COLLECTION,
  COMPANY_SCORES_PROJECTION,
  type CompanyScoreDoc,
} from '../company-scores.projection.js';
import { type CompanyScoreView, toScoreView } from '../score.views.js';
import { GetCompanyScoreQuery } from './get-company-score.query.js';

@QueryHandler(GetCompanyScoreQuery)
export class GetCompanyScoreHandler implements IQueryHandler<GetCompanyScoreQuery, CompanyScoreView> {
  constructor(private readonly projections: ProjectionStore) {}

  async execute(query: GetCompanyScoreQuery): Promise<CompanyScoreView> {
    const id = resolveCompanyId(query.idOrDomain);
    const doc = id
      ? await this.projections.collection<CompanyScoreDoc>(COMPANY_SCORES_PROJECTION, COMPANY_SCORES_COLLECTION).get(id)
      : null;
    if (!doc) throw companyNotFound(query.idOrDomain);
    return toScoreView(doc);
  }
}
