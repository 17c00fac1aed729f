import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProjectionsModule } from '#projections';
import { CatalogContextProvider } from '#agent-contract';
import { GetDescriptorHandler } from './descriptors/get-descriptor/get-descriptor.handler.js';
import { GetDescriptorController } from './descriptors/get-descriptor/get-descriptor.http.controller.js';
import { GetInformationDocumentHandler } from './get-document/get-document.handler.js';
import { GetInformationDocumentController } from './get-document/get-document.http.controller.js';
import { GetApiIndexHandler } from './get-index/get-index.handler.js';
import { GetApiIndexController } from './get-index/get-index.http.controller.js';
import { GetGuidanceHandler } from './get-guidance/get-guidance.handler.js';
import { GetGuidanceController } from './get-guidance/get-guidance.http.controller.js';
import { GetRegistryPackHandler } from './get-registry-pack/get-registry-pack.handler.js';
import { GetRegistryPackController } from './get-registry-pack/get-registry-pack.http.controller.js';
import { AGENT_ACCOUNT_STATUS } from './agent-status.hook.js';
import { AccountStatusService } from './get-status/account-status.service.js';
import { GetStatusHandler } from './get-status/get-status.handler.js';
import { GetStatusController } from './get-status/get-status.http.controller.js';
import { leadsProjection } from './leads/leads.projection.js';
import { ListLeadsHandler } from './leads/list-leads/list-leads.handler.js';
import { SubmitLeadHandler } from './leads/submit-lead/submit-lead.handler.js';
import { SubmitLeadController } from './leads/submit-lead/submit-lead.http.controller.js';

/**
 * The agent surface's index (/api/v1), catalogue and guidance documents (/api/v1/agents/catalog, quote, ...),
 * the public descriptors at the site root (/llms.txt, /agent-feed.json, /.well-known/…) and
 * operator-pilot leads (and their read model, which operators list with `svc leads list`). CatalogContextProvider (effective meter prices, public base URL)
 * is exported for the other agent modules.
 */
@Module({
  imports: [CqrsModule.forRoot(), ProjectionsModule.forFeature([leadsProjection])],
  controllers: [
    GetApiIndexController,
    GetInformationDocumentController,
    GetGuidanceController,
    GetStatusController,
    GetRegistryPackController,
    SubmitLeadController,
    GetDescriptorController,
  ],
  providers: [
    CatalogContextProvider,
    GetApiIndexHandler,
    GetInformationDocumentHandler,
    GetGuidanceHandler,
    GetStatusHandler,
    // The signed-in part of /agents/status: the account, its credits, payment method and workspace.
    AccountStatusService,
    { provide: AGENT_ACCOUNT_STATUS, useExisting: AccountStatusService },
    GetRegistryPackHandler,
    SubmitLeadHandler,
    ListLeadsHandler,
    GetDescriptorHandler,
  ],
  exports: [CatalogContextProvider],
})
export class CatalogModule {}
