import type { DynamicModule, Type } from '@nestjs/common';
import { AccessModule } from '#access';
import { AgentBillingModule } from '#agent-billing';
import { CatalogModule, McpModule } from '#agent-surface';
import { WorkspaceModule } from '#agent-workspace';
import { CompaniesModule } from '#agent-ventures';
import type { AppConfig } from '#kernel';
import {
  IdentityModule,
  IdentityWebModule,
  OAuthModule,
  PlatformAccountRateLimits,
  PlatformKeyAccounts,
} from '#identity';
import { PlatformDomainModule, PlatformWebhooksModule, PlatformWebModule } from '#platform';

/**
 * The feature modules, shared by the three apps: the api serves their controllers, the worker
 * and the cli run their projections (and dispatchers). Access (keys, authentication, rate
 * limits) is wired here with the platform's account ports, once for both surfaces. Each feature
 * registers its projections with `ProjectionsModule.forFeature([...])` and documents its routes
 * with `@Operation(...)`. Add a feature here, once.
 */
export function featureModules(_config: AppConfig): Array<Type | DynamicModule> {
  return [
    AccessModule.forRoot({ accountRateLimits: PlatformAccountRateLimits, keyAccounts: PlatformKeyAccounts }),
    IdentityModule,
    IdentityWebModule,
    OAuthModule,
    PlatformDomainModule,
    PlatformWebModule,
    PlatformWebhooksModule,
    CatalogModule,
    AgentBillingModule,
    CompaniesModule,
    WorkspaceModule,
    McpModule,
  ];
}
