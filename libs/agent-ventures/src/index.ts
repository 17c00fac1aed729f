// Venture data: companies (events, import, demo data, profiles), the scoring model and scores,
// discovery (ADR 0095). Named exports only: what other libs use.
export { CompaniesModule } from './companies.module.js';
export {
  COMPANY_PROFILES_COLLECTION,
  COMPANY_PROFILES_PROJECTION,
  companyProfilesProjection,
} from './companies/company-profiles.projection.js';
export { checkCompanyRecord } from './companies/company-record.schema.js';
export { companyDecider } from './companies/company.decider.js';
export { type CompanyEvent, DEMO_DATA_STREAM } from './companies/company.events.js';
export {
  COMPANY_STREAM_PREFIX,
  companyIdFor,
  type CompanyProfileData,
  companyStream,
  profileHash,
} from './companies/company.profile.js';
export { companyParams, companyProfileSchema } from './companies/company.views.js';
export { DEMO_COUNT, demoCompanies } from './companies/demo/demo-companies.js';
export { DemoDataSeeder, type SeedOutcome } from './companies/demo/demo-data.seeder.js';
export { GetCompanyProfileQuery } from './companies/get-company-profile/get-company-profile.query.js';
export { companyGrowth } from './companies/growth.js';
export { CompanyImporter, type ImportRejection, type ImportSummary } from './companies/import/company-importer.js';
export { csvHeaderLine, recordToCsvLine } from './companies/import/csv-columns.js';
export {
  fileRecords,
  type ImportFormat,
  ImportSourceError,
  type SourceRecord,
  textRecords,
  valueRecords,
} from './companies/import/record-sources.js';
export { PAID_READ_RESPONSES } from './companies/paid-read.responses.js';
export { TopCompaniesQuery } from './discovery/top-companies/top-companies.query.js';
export { discoveryPageSchema, topCompaniesQuerySchema } from './discovery/top-companies/top-companies.schema.js';
export {
  COMPANY_SCORES_COLLECTION,
  COMPANY_SCORES_PROJECTION,
  companyScoresProjection,
  companySummary,
  DISCOVERY_RANK_COLLECTION,
  DISCOVERY_SECTORS_COLLECTION,
  SCORE_STATS_COLLECTION,
} from './scoring/company-scores.projection.js';
export { GetCompanyScoreQuery } from './scoring/get-company-score/get-company-score.query.js';
export { modelHealthSchema } from './scoring/model-health/model-health.schema.js';
export { companyScoreSchema } from './scoring/score.views.js';
export { MODEL_VERSION, scoreCompany } from './scoring/scoring-model.js';
