import { Query } from '@nestjs/cqrs';
import type { CompanyProfileView } from '../company.views.js';

/** One company's profile by id or domain; 404 COMPANY_NOT_FOUND when unknown. */
export class GetCompanyProfileQuery extends Query<CompanyProfileView> {
  constructor(readonly idOrDomain: string) {
    super();
  }
}
