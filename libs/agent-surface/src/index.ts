// The agent surface on top of the agent libs (ADR 0095): the catalogue documents and public
// descriptors rendered from the same definitions that serve the requests, the index and status,
// operator-pilot leads, the MCP endpoint and its tools, next-action enrichment of errors. Named
// exports only: what other libs use.
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
export { McpModule } from './mcp/mcp.module.js';
