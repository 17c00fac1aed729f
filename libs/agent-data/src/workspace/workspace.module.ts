import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProjectionsModule, ReadYourWrites } from '#projections';
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
import { TenantDirectory } from './tenants/tenant-directory.js';
import { workspaceProjection } from './workspace.projection.js';
import { WorkspaceReads } from './workspace.reads.js';

/**
 * The enterprise workspace (issue 14): tenants and their keys (CLI), companies, memos, deals,
 * follow-ups and the tenant event stream, every route metered through the (global)
 * AgentBillingModule's `@Metered` and reachable only with a tenant-bound key.
 */
@Module({
  imports: [CqrsModule.forRoot(), ProjectionsModule.forFeature([workspaceProjection])],
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
  ],
  providers: [
    ReadYourWrites,
    WorkspaceReads,
    TenantDirectory,
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
  ],
})
export class WorkspaceModule {}
