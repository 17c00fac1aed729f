import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { ProjectionsModule } from '#projections';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { TopCompaniesHandler } from './discovery/top-companies/top-companies.handler.js';
import { TopCompaniesController } from './discovery/top-companies/top-companies.http.controller.js';
import { companyScoresProjection } from './scoring/company-scores.projection.js';
import { GetCompanyScoreHandler } from './scoring/get-company-score/get-company-score.handler.js';
import { GetCompanyScoreController } from './scoring/get-company-score/get-company-score.http.controller.js';
import { ModelHealthHandler } from './scoring/model-health/model-health.handler.js';
import { ModelHealthController } from './scoring/model-health/model-health.http.controller.js';
import { companyProfilesProjection } from './companies/company-profiles.projection.js';
import { DemoDataSeeder } from './companies/demo/demo-data.seeder.js';
import { GetCompanyProfileHandler } from './companies/get-company-profile/get-company-profile.handler.js';
import { GetCompanyProfileController } from './companies/get-company-profile/get-company-profile.http.controller.js';
import { CompanyImporter } from './companies/import/company-importer.js';

/**
 * Venture data: companies as events, import (CLI), demo data, the scoring model as a
 * projection, and the metered reads GET /api/v1/discovery/top, /companies/{id},
 * /companies/{id}/score plus the free /model/health. The paid routes use `@Metered` from the
 * (global) AgentBillingModule.
 */
@Module({
  imports: [CqrsModule.forRoot(), ProjectionsModule.forFeature([companyProfilesProjection, companyScoresProjection])],
  controllers: [TopCompaniesController, GetCompanyProfileController, GetCompanyScoreController, ModelHealthController],
  providers: [
    {
      provide: CompanyImporter,
      useFactory: (events: EventStore, clock: Clock) => new CompanyImporter(events, clock),
      inject: [EVENT_STORE, CLOCK],
    },
    TopCompaniesHandler,
    GetCompanyProfileHandler,
    GetCompanyScoreHandler,
    ModelHealthHandler,
    DemoDataSeeder,
  ],
  exports: [CompanyImporter, DemoDataSeeder],
})
export class CompaniesModule {}
