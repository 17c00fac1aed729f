export { AGENT_ACCOUNT_STATUS, type AgentAccountStatusProvider } from './catalog/agent-status.hook.js';
export { buildCatalog } from './catalog/catalog.document.js';
export { CatalogModule } from './catalog/catalog.module.js';
export { MCP_SERVER_SCHEMA_URL, mcpServerName } from './catalog/descriptors/descriptor.documents.js';
export { renderSiteDocument, SITE_DOCUMENT_NAMES, SITE_DOCUMENTS } from './catalog/descriptors/site-documents.js';
export { INFORMATION_DOCUMENTS } from './catalog/get-document/get-document.query.js';
export { buildGuidance } from './catalog/guidance.document.js';
export { type LeadsPage, ListLeadsQuery } from './catalog/leads/list-leads/list-leads.query.js';
export { agentNextActionsEnricher } from './catalog/next-actions.enricher.js';
export { openAiFunctionName } from './catalog/registry-pack.document.js';
export { CompaniesModule } from './companies/companies.module.js';
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
export { companyProfileSchema } from './companies/company.views.js';
export { DEMO_COUNT, demoCompanies } from './companies/demo/demo-companies.js';
export { DemoDataSeeder, type SeedOutcome } from './companies/demo/demo-data.seeder.js';
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
export { discoveryPageSchema } from './discovery/top-companies/top-companies.schema.js';
export { McpModule } from './mcp/mcp.module.js';
export {
  COMPANY_SCORES_COLLECTION,
  COMPANY_SCORES_PROJECTION,
  companyScoresProjection,
  companySummary,
  DISCOVERY_RANK_COLLECTION,
  DISCOVERY_SECTORS_COLLECTION,
  SCORE_STATS_COLLECTION,
} from './scoring/company-scores.projection.js';
export { modelHealthSchema } from './scoring/model-health/model-health.schema.js';
export { companyScoreSchema } from './scoring/score.views.js';
export { MODEL_VERSION, scoreCompany } from './scoring/scoring-model.js';
export { ConvertLeadCommand } from './workspace/tenants/convert-lead/convert-lead.command.js';
export { type CreatedTenant, CreateTenantCommand } from './workspace/tenants/create-tenant/create-tenant.command.js';
export { PilotEndSweeper } from './workspace/tenants/end-pilots/pilot-end.sweeper.js';
export { IssueTenantKeyCommand } from './workspace/tenants/issue-tenant-key/issue-tenant-key.command.js';
export { WorkspaceDeliveryMeter } from './workspace/webhooks/workspace-delivery.meter.js';
export { WorkspaceModule } from './workspace/workspace.module.js';
export { WORKSPACE_PROJECTION } from './workspace/workspace.projection.js';
