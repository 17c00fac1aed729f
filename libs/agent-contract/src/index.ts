// The agent side's vocabulary, imported by every agent lib above it (ADR 0095): meters, packs,
// objectives and services, the endpoint and tool tables, the error catalogue, next actions and
// links, the response envelope and catalogue context, the agent key's auth decorators, and the
// bus messages the workspace answers for billing. Named exports only: what other libs use.
export {
  AgentAuth,
  AgentAuthenticator,
  AgentAuthOptional,
  agentAuthorization,
  AgentKeyGuard,
  type AgentPrincipal,
  AgentRateLimiter,
  type AgentRequest,
  CurrentAgent,
  OptionalAgentKeyGuard,
} from './auth/agent-auth.js';
export {
  AGENT_ENDPOINTS,
  type AgentEndpoint,
  DESCRIPTOR_PATHS,
  type DescriptorName,
  descriptorStatus,
  type EndpointAuth,
  type EndpointGroup,
  endpointStatus,
  findEndpoint,
  MCP_TOOLS,
  type McpTool,
  meterStatus,
  pathStatus,
  REGISTRY_TARGETS,
  type RegistryTarget,
  type RouteStatus,
  toolStatus,
  UNLISTED_AGENT_ROUTES,
} from './catalog/agent-surface.js';
export { CatalogContextProvider } from './catalog/catalog-context.provider.js';
export {
  agentBaseUrl,
  agentEnvelope,
  type AgentEnvelope,
  agentUrl,
  type CatalogContext,
  endpointUrl,
  type KeyBinding,
  packCheckoutUrl,
} from './catalog/catalog-context.js';
export { envelopeSchema } from './catalog/envelope.schema.js';
export { AGENT_ERRORS } from './catalog/error-catalog.js';
export {
  DEFAULT_METER_PRICES_CENTS,
  isMeterName,
  METER_NAMES,
  type MeterName,
  meterPrices,
  type MeterPrices,
  METERS,
} from './catalog/meters.js';
export { type NextAction, nextActionsFor, OPERATION_DOCS_STATUSES } from './catalog/next-actions.js';
export {
  type Objective,
  OBJECTIVE_PACK,
  OBJECTIVE_VALUES,
  OBJECTIVES,
  type ObjectiveValue,
  OPERATOR_PILOT_DAYS,
  PACK_OBJECTIVE,
  packForObjective,
  RECOMMENDED_OBJECTIVE,
  toObjective,
} from './catalog/objectives.js';
export {
  CREDIT_PACKS,
  type CreditPack,
  findPack,
  isPackId,
  PACK_CAPABILITIES,
  PACK_IDS,
  type PackCapability,
  type PackId,
  type PackRecommendation,
  STARTER_PACK_ID,
} from './catalog/packs.js';
export {
  AUTOPAY_THRESHOLD_PLACEHOLDER,
  meterCostCents,
  QUICKSTART_WORKFLOWS,
  REVENUE_TIER_KEYS,
  REVENUE_TIERS,
  type RevenueTierKey,
  SERVICE_CATALOG,
  SERVICE_KEYS,
  type ServiceDefinition,
  type ServiceKey,
} from './catalog/services.js';
export { AGENT_API_PREFIX, checkoutLinkUrl, PATHS, sandboxCheckoutUrl, usdString } from './links.js';
export { type AccountWorkspaceView, GetAccountWorkspaceQuery } from './workspace/get-account-workspace.query.js';
export { type ProvisionedWorkspace, ProvisionWorkspaceCommand } from './workspace/provision-workspace.command.js';
export { accountWorkspaceSchema, provisionedWorkspaceSchema } from './workspace/workspace-views.schema.js';
