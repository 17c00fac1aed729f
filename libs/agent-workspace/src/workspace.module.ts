import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProjectionsModule, ReadYourWrites } from '#projections';
import { WebhookChannelModule } from '#webhooks';
import { TenantGuard } from './auth/workspace.guard.js';
import { AddWorkspaceCompanyHandler } from './companies/add-company/add-company.handler.js';
import { AddWorkspaceCompanyController } from './companies/add-company/add-company.http.controller.js';
import { GetWorkspaceCompanyHandler } from './companies/get-company/get-company.handler.js';
import { GetWorkspaceCompanyController } from './companies/get-company/get-company.http.controller.js';
import { ListWorkspaceCompaniesHandler } from './companies/list-companies/list-companies.handler.js';
import { ListWorkspaceCompaniesController } from './companies/list-companies/list-companies.http.controller.js';
import { CreateDealHandler } from './deals/create-deal/create-deal.handler.js';
import { CreateDealController } from './deals/create-deal/create-deal.http.controller.js';
import { ListDealsHandler } from './deals/list-deals/list-deals.handler.js';
import { ListDealsController } from './deals/list-deals/list-deals.http.controller.js';
import { UpdateDealHandler } from './deals/update-deal/update-deal.handler.js';
import { UpdateDealController } from './deals/update-deal/update-deal.http.controller.js';
import { ListTenantEventsHandler } from './events/list-events/list-events.handler.js';
import { ListTenantEventsController } from './events/list-events/list-events.http.controller.js';
import { ListFollowUpsHandler } from './follow-ups/list-follow-ups/list-follow-ups.handler.js';
import { ListFollowUpsController } from './follow-ups/list-follow-ups/list-follow-ups.http.controller.js';
import { UpsertFollowUpHandler } from './follow-ups/upsert-follow-up/upsert-follow-up.handler.js';
import { UpsertFollowUpController } from './follow-ups/upsert-follow-up/upsert-follow-up.http.controller.js';
import { GetMemoHandler } from './memo/get-memo/get-memo.handler.js';
import { GetMemoController } from './memo/get-memo/get-memo.http.controller.js';
import { ListMemoVersionsHandler } from './memo/list-memo-versions/list-memo-versions.handler.js';
import { ListMemoVersionsController } from './memo/list-memo-versions/list-memo-versions.http.controller.js';
import { UpdateMemoHandler } from './memo/update-memo/update-memo.handler.js';
import { UpdateMemoController } from './memo/update-memo/update-memo.http.controller.js';
import { CreateTenantHandler } from './tenants/create-tenant/create-tenant.handler.js';
import { IssueTenantKeyHandler } from './tenants/issue-tenant-key/issue-tenant-key.handler.js';
import { TenantProvisioning } from './tenants/tenant-provisioning.js';
import { WorkspaceTenantsModule } from './tenants/workspace-tenants.module.js';
import { GetAccountWorkspaceHandler } from './tenants/get-account-workspace/get-account-workspace.handler.js';
import { PilotEndSweeper } from './tenants/end-pilots/pilot-end.sweeper.js';
import { ConvertLeadHandler } from './tenants/convert-lead/convert-lead.handler.js';
import { ProvisionWorkspaceHandler } from './tenants/provision-workspace/provision-workspace.handler.js';
import { CreateSubscriptionHandler } from './webhooks/create-subscription/create-subscription.handler.js';
import { CreateSubscriptionController } from './webhooks/create-subscription/create-subscription.http.controller.js';
import { DeleteSubscriptionController } from './webhooks/delete-subscription/delete-subscription.http.controller.js';
import { ListWorkspaceDeliveriesController } from './webhooks/list-deliveries/list-deliveries.http.controller.js';
import { ListSubscriptionsHandler } from './webhooks/list-subscriptions/list-subscriptions.handler.js';
import { ListSubscriptionsController } from './webhooks/list-subscriptions/list-subscriptions.http.controller.js';
import { workspaceChannel } from './webhooks/workspace.channel.js';
import { WorkspaceDeliveryMeter } from './webhooks/workspace-delivery.meter.js';
import { workspaceProjection } from './workspace.projection.js';
import { WorkspaceReads } from './workspace.reads.js';

/**
 * The enterprise workspace: tenants and their keys (CLI), companies, memos, deals,
 * follow-ups, the tenant event stream and webhook subscriptions, every record route metered through the (global)
 * AgentBillingModule's `@Metered` and reachable only with a tenant-bound key.
 */
@Module({
  imports: [
    CqrsModule.forRoot(),
    WorkspaceTenantsModule,
    ProjectionsModule.forFeature([workspaceProjection]),
    // Subscriptions: the webhook engine's `workspace` channel, each push metered (ADR 0062).
    WebhookChannelModule.forChannel(workspaceChannel, { hooks: WorkspaceDeliveryMeter }),
  ],
  controllers: [
    ListWorkspaceCompaniesController,
    AddWorkspaceCompanyController,
    GetWorkspaceCompanyController,
    GetMemoController,
    UpdateMemoController,
    ListMemoVersionsController,
    ListDealsController,
    CreateDealController,
    UpdateDealController,
    UpsertFollowUpController,
    ListFollowUpsController,
    ListTenantEventsController,
    CreateSubscriptionController,
    ListSubscriptionsController,
    DeleteSubscriptionController,
    ListWorkspaceDeliveriesController,
  ],
  providers: [
    ReadYourWrites,
    WorkspaceReads,
    TenantProvisioning,
    ProvisionWorkspaceHandler,
    ConvertLeadHandler,
    PilotEndSweeper,
    GetAccountWorkspaceHandler,
    TenantGuard,
    CreateTenantHandler,
    IssueTenantKeyHandler,
    ListWorkspaceCompaniesHandler,
    AddWorkspaceCompanyHandler,
    GetWorkspaceCompanyHandler,
    GetMemoHandler,
    UpdateMemoHandler,
    ListMemoVersionsHandler,
    ListDealsHandler,
    CreateDealHandler,
    UpdateDealHandler,
    UpsertFollowUpHandler,
    ListFollowUpsHandler,
    ListTenantEventsHandler,
    CreateSubscriptionHandler,
    ListSubscriptionsHandler,
  ],
})
export class WorkspaceModule {}
