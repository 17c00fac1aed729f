import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CatalogContextProvider } from './catalog-context.provider.js';
import { AgentsInformationController } from './http/agents-information.http.controller.js';
import { SubmitLeadHandler } from './leads/submit-lead/submit-lead.handler.js';
import { SubmitLeadController } from './leads/submit-lead/submit-lead.http.controller.js';

/**
 * The agent surface's catalogue and guidance documents (/api/v1/agents/catalog, quote, ...)
 * and operator-pilot leads. CatalogContextProvider (effective meter prices, public base URL)
 * is exported for other agent-data modules.
 */
@Module({
  imports: [CqrsModule.forRoot()],
  controllers: [AgentsInformationController, SubmitLeadController],
  providers: [CatalogContextProvider, SubmitLeadHandler],
  exports: [CatalogContextProvider],
})
export class CatalogModule {}
