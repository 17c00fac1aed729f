import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '#kernel';
import { ProjectionStore } from '#projections';
import {
  COMPANY_PROFILES_COLLECTION,
  COMPANY_PROFILES_PROJECTION,
  type CompanyProfileDoc,
} from '../company-profiles.projection.js';
import { resolveCompanyId } from '../company.profile.js';
import { type CompanyProfileView, toProfileView } from '../company.views.js';
import { GetCompanyProfileQuery } from './get-company-profile.query.js';

@QueryHandler(GetCompanyProfileQuery)
export class GetCompanyProfileHandler implements IQueryHandler<GetCompanyProfileQuery, CompanyProfileView> {
  constructor(private readonly projections: ProjectionStore) {}

  async execute(query: GetCompanyProfileQuery): Promise<CompanyProfileView> {
    const id = resolveCompanyId(query.idOrDomain);
    const doc = id
      ? await this.projections
          .collection<CompanyProfileDoc>(COMPANY_PROFILES_PROJECTION, COMPANY_PROFILES_COLLECTION)
          .get(id)
      : null;
    if (!doc) throw companyNotFound(query.idOrDomain);
    return toProfileView(doc);
  }
}

/** 404 for an unknown company id or domain (the call is not charged). */
export function companyNotFound(idOrDomain: string) {
  return Errors.notFound(`No company has the id or domain ${JSON.stringify(idOrDomain)}.`, 'COMPANY_NOT_FOUND');
}
