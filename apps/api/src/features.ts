import type { DynamicModule, Type } from '@nestjs/common';
import type { AppConfig } from '#common';
import { AgentBillingModule, CatalogModule, CompaniesModule } from '#agent-data';
import { PlatformModule } from '#platform';
import { PlatformWebhooksModule } from '#webhooks';

/**
 * The feature modules (platform, webhooks, agent data, ...), shared by the three apps: the api
 * serves their controllers, the worker and the cli run their projections (and dispatchers).
 * Each feature registers its projections with `ProjectionsModule.forFeature([...])` and documents
 * its routes with `@Operation(...)`. Add a feature here, once.
 */
export function featureModules(_config: AppConfig): Array<Type | DynamicModule> {
  return [PlatformModule, PlatformWebhooksModule, CatalogModule, AgentBillingModule, CompaniesModule];
}
