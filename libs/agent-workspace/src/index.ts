// The enterprise workspace: tenants (and the operator pilot's leads they come from), tenant keys,
// companies, memos, deals, follow-ups, the tenant event stream and webhook subscriptions; its
// TenantDirectory is billing's TENANT_LOOKUP (ADR 0095). Named exports only: what other libs use.
export { ListWorkspaceCompaniesQuery } from './companies/list-companies/list-companies.query.js';
export { ListDealsQuery } from './deals/list-deals/list-deals.query.js';
export { UpdateDealCommand } from './deals/update-deal/update-deal.command.js';
export { ListTenantEventsQuery } from './events/list-events/list-events.query.js';
export { UpsertFollowUpCommand } from './follow-ups/upsert-follow-up/upsert-follow-up.command.js';
export { leadDecider } from './leads/lead.decider.js';
export { LEAD_EVENT_TYPES, type LeadEvent, leadStream } from './leads/lead.events.js';
export { GetMemoQuery } from './memo/get-memo/get-memo.query.js';
export { UpdateMemoCommand } from './memo/update-memo/update-memo.command.js';
export { ConvertLeadCommand } from './tenants/convert-lead/convert-lead.command.js';
export { type CreatedTenant, CreateTenantCommand } from './tenants/create-tenant/create-tenant.command.js';
export { PilotEndSweeper } from './tenants/end-pilots/pilot-end.sweeper.js';
export { IssueTenantKeyCommand } from './tenants/issue-tenant-key/issue-tenant-key.command.js';
export { CreateSubscriptionCommand } from './webhooks/create-subscription/create-subscription.command.js';
export { WorkspaceDeliveryMeter } from './webhooks/workspace-delivery.meter.js';
export { createSubscriptionBody, listWorkspaceDeliveriesQuery } from './webhooks/workspace-webhooks.schemas.js';
export { WORKSPACE_CHANNEL } from './webhooks/workspace.channel.js';
export { WorkspaceModule } from './workspace.module.js';
export { WORKSPACE_PROJECTION } from './workspace.projection.js';
export {
  dealPageSchema,
  dealSchema,
  followUpSchema,
  memoSchema,
  subscriptionSchema,
  tenantEventPageSchema,
  workspaceCompanyPageSchema,
  workspaceDeliveryPageSchema,
} from './workspace.response-schemas.js';
export {
  dealParams,
  followUpParams,
  listCompaniesQuery,
  listDealsQuery,
  listEventsQuery,
  updateDealBody,
  updateMemoBody,
  upsertFollowUpBody,
  workspaceCompanyParams,
} from './workspace.schemas.js';
