import { Query } from '@nestjs/cqrs';
import type { CompanyScoreView } from '../score.views.js';

/** One company's score by id or domain; 404 COMPANY_NOT_FOUND when unknown. */
export class GetCompanyScoreQuery extends Query<CompanyScoreView> {
  constructor(readonly idOrDomain: string) {
    super();
  }
}
