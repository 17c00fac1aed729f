export * from '#kernel';
export * from './catalog/packs.js';
export * from './catalog/meters.js';
export * from './catalog/objectives.js';
export * from './catalog/services.js';
export {
  AGENT_ENDPOINTS,
  MCP_TOOLS,
  DESCRIPTOR_PATHS,
  REGISTRY_TARGETS,
  UNLISTED_AGENT_ROUTES,
  findEndpoint,
  type AgentEndpoint,
  type EndpointAuth,
  type EndpointGroup,
  type McpTool,
  type RegistryTarget,
} from './catalog/agent-surface.js';
export * from './catalog/catalog-context.js';
export * from './catalog/catalog-context.provider.js';
export * from './catalog/error-catalog.js';
export * from './catalog/agent-status.hook.js';
export { envelopeSchema } from './catalog/envelope.schema.js';
export {
  buildCatalog,
  catalogPackEntries,
  callToAction,
  type CatalogData,
  type CatalogPackEntry,
} from './catalog/catalog.document.js';
export {
  buildGuidance,
  packValue,
  stepUpPack,
  SEGMENTS,
  type Segment,
  type GuidanceData,
} from './catalog/guidance.document.js';
export {
  SERVICE_NAME,
  SERVICE_DESCRIPTION,
  SERVICE_SHORT_DESCRIPTION,
  SERVICE_VERSION,
  meterEntries,
} from './catalog/information.parts.js';
export { buildPublicStatus, buildTrust, type StatusInput } from './catalog/status.documents.js';
export { buildCapabilities, buildQuickstart, buildManifest } from './catalog/capabilities.documents.js';
export { buildValueProof, buildOffers, buildGrowth, buildConversion } from './catalog/purchase.documents.js';
export { buildAcquisition, buildTraffic } from './catalog/acquisition.documents.js';
export { buildRecovery, buildErrorCatalog } from './catalog/recovery.documents.js';
export { buildLeadsInfo } from './catalog/leads/leads-info.document.js';
export { buildRegistryIndex, buildRegistryPack, openAiFunctionName } from './catalog/registry-pack.document.js';
export {
  buildAgentFeed,
  buildAiPlugin,
  buildMcpServerJson,
  buildServiceAgent,
  mcpServerName,
  MCP_SERVER_SCHEMA_URL,
  SITE_PAGE_PATHS,
} from './catalog/descriptors/descriptor.documents.js';
export { buildLlmsTxt } from './catalog/descriptors/llms-txt.document.js';
export {
  SITE_DOCUMENTS,
  SITE_DOCUMENT_NAMES,
  renderSiteDocument,
  type SiteDocument,
  type SiteDocumentName,
} from './catalog/descriptors/site-documents.js';
export { GetDescriptorQuery } from './catalog/descriptors/get-descriptor/get-descriptor.query.js';
export * from './catalog/leads/lead.events.js';
export { CatalogModule } from './catalog/catalog.module.js';
export {
  GetInformationDocumentQuery,
  INFORMATION_DOCUMENTS,
  type InformationDocument,
} from './catalog/get-document/get-document.query.js';
export { GetGuidanceQuery } from './catalog/get-guidance/get-guidance.query.js';
export { GetStatusQuery } from './catalog/get-status/get-status.query.js';
export { GetRegistryPackQuery } from './catalog/get-registry-pack/get-registry-pack.query.js';
// Accounts, credits, metering and payments.
export { AgentBillingModule, paymentProviderFor } from './agent-billing.module.js';
export {
  AgentAuth,
  AgentAuthenticator,
  AgentKeyGuard,
  CurrentAgent,
  agentAuthorization,
  type AgentPrincipal,
  type AgentRequest,
} from './auth/agent-auth.js';
export { Metered, MeteredGuard, METER_METADATA } from './metering/metered.js';
export { MeteringService, type Charged, type MeteredCaller } from './metering/metering.service.js';
export { insufficientCredits, fundingActions } from './metering/payment-required.js';
export {
  nextActionsFor,
  OPERATION_DOCS_STATUSES,
  type NextAction,
  type NextActionsInput,
} from './catalog/next-actions.js';
export { agentNextActionsEnricher, type AgentNextActionsOptions } from './catalog/next-actions.enricher.js';
export * from './credits/credits.events.js';
export {
  creditsDecider,
  creditsBalanceDelta,
  autopayView,
  InsufficientCreditsError,
  type CreditsCommand,
  type CreditsState,
} from './credits/credits.decider.js';
export {
  CreditLedger,
  CREDITS_SNAPSHOTS_COLLECTION,
  type LedgerResult,
  type Reservation,
} from './credits/credit-ledger.js';
export { CreditsService, type LedgerEntry } from './credits/credits.service.js';
export {
  auditCredits,
  creditsAccounts,
  type CreditsAuditLine,
  type CreditsAuditOptions,
} from './credits/audit/credits-audit.js';
export { GrantCreditsCommand, type GrantCreditsResult } from './credits/grant-credits/grant-credits.command.js';
export * from './accounts/agent-account.events.js';
export { agentAccountDecider, type AgentAccountState } from './accounts/agent-account.decider.js';
export {
  IdempotencyStore,
  fingerprintOf,
  IDEMPOTENCY_COLLECTION,
  type StoredResponse,
} from './idempotency/idempotency.store.js';
export { Idempotency } from './idempotency/idempotency.service.js';
export * from './payments/payment-provider.port.js';
export { PaymentFulfilment } from './payments/payment-fulfilment.js';
export { SandboxPaymentProvider, SANDBOX_TEST_CARDS } from './payments/sandbox/sandbox-payment.adapter.js';
// The adapter (and the Stripe SDK, ~220 modules) is loaded only when STRIPE_SECRET_KEY is set.
export type { StripePaymentProvider } from './payments/stripe/stripe-payment.adapter.js';
export { type StripeAdapterOptions, stripeClientConfig } from './payments/stripe/stripe-client-config.js';
export { openStripePaymentProvider } from './payments/stripe/open-stripe-payment-provider.js';
export { AutopayRunner } from './billing/autopay.runner.js';
export { PATHS as AGENT_BILLING_PATHS, checkoutLinkUrl, usdString } from './billing/links.js';
// Venture data: companies, import, demo data, scoring, discovery.
export * from './companies/company.profile.js';
export * from './companies/company.events.js';
export { companyDecider, type CompanyCommand, type CompanyState } from './companies/company.decider.js';
export {
  companyRecordSchema,
  checkCompanyRecord,
  type CompanyRecord,
  type RecordCheck,
} from './companies/company-record.schema.js';
export { seriesGrowth, companyGrowth, type Growth, type CompanyGrowth } from './companies/growth.js';
export {
  CompanyImporter,
  type ImportSummary,
  type ImportRejection,
  type ImportOptions,
} from './companies/import/company-importer.js';
export {
  fileRecords,
  textRecords,
  valueRecords,
  formatOf,
  jsonLinesRecords,
  csvRecords,
  ImportSourceError,
  type ImportFormat,
  type SourceRecord,
} from './companies/import/record-sources.js';
export { CSV_COLUMNS, csvHeaderLine, recordToCsvLine, type CsvColumn } from './companies/import/csv-columns.js';
export { CsvParser, CsvFormatError, type CsvRow } from './companies/import/csv-parser.js';
export { demoCompanies, DEMO_SEED, DEMO_COUNT, type DemoOptions } from './companies/demo/demo-companies.js';
export { Prng } from './companies/demo/prng.js';
export { DemoDataSeeder, type SeedOutcome } from './companies/demo/demo-data.seeder.js';
export {
  companyProfilesProjection,
  COMPANY_PROFILES_PROJECTION,
  COMPANY_PROFILES_COLLECTION,
  type CompanyProfileDoc,
} from './companies/company-profiles.projection.js';
export {
  companyProfileSchema,
  companySummarySchema,
  toProfileView,
  type CompanyProfileView,
} from './companies/company.views.js';
export * from './scoring/scoring-model.js';
export {
  companyScoresProjection,
  COMPANY_SCORES_PROJECTION,
  COMPANY_SCORES_COLLECTION,
  DISCOVERY_RANK_COLLECTION,
  DISCOVERY_SECTORS_COLLECTION,
  SCORE_STATS_COLLECTION,
  type CompanyScoreDoc,
  type DiscoveryRankDoc,
  type CompanySummary,
  companySummary,
} from './scoring/company-scores.projection.js';
export { companyScoreSchema, toScoreView, type CompanyScoreView } from './scoring/score.views.js';
export { modelHealthSchema, type ModelHealth } from './scoring/model-health/model-health.schema.js';
export { ModelHealthQuery } from './scoring/model-health/model-health.query.js';
export { GetCompanyProfileQuery } from './companies/get-company-profile/get-company-profile.query.js';
export { GetCompanyScoreQuery } from './scoring/get-company-score/get-company-score.query.js';
export { TopCompaniesQuery } from './discovery/top-companies/top-companies.query.js';
export {
  topCompaniesQuerySchema,
  discoveryPageSchema,
  DISCOVERY_DEFAULT_LIMIT,
  DISCOVERY_MAX_LIMIT,
  type DiscoveryPage,
  type TopCompaniesQueryParams,
} from './discovery/top-companies/top-companies.schema.js';
export { CompaniesModule } from './companies/companies.module.js';
export { WorkspaceModule } from './workspace/workspace.module.js';
export { McpModule } from './mcp/mcp.module.js';
export { MCP_INSTRUCTIONS } from './mcp/mcp.service.js';
export { CreateTenantCommand, type CreatedTenant } from './workspace/tenants/create-tenant/create-tenant.command.js';
export { ConvertLeadCommand, type ConvertedLead } from './workspace/tenants/convert-lead/convert-lead.command.js';
export { ListLeadsQuery, type LeadsPage } from './catalog/leads/list-leads/list-leads.query.js';
export { leadsProjection, LEADS_PROJECTION, type LeadDoc } from './catalog/leads/leads.projection.js';
export { PilotEndSweeper } from './workspace/tenants/end-pilots/pilot-end.sweeper.js';
export {
  IssueTenantKeyCommand,
  type IssuedTenantKey,
} from './workspace/tenants/issue-tenant-key/issue-tenant-key.command.js';
export { workspaceProjection, WORKSPACE_PROJECTION } from './workspace/workspace.projection.js';
export { WorkspaceDeliveryMeter } from './workspace/webhooks/workspace-delivery.meter.js';
export { workspaceChannel, WORKSPACE_CHANNEL } from './workspace/webhooks/workspace.channel.js';
