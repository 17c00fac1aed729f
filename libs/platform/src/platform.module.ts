import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProjectionsModule, ReadYourWrites } from '#projections';
import { ChangePlanHandler } from './accounts/commands/change-plan/change-plan.handler.js';
import { CreateAccountHandler } from './accounts/commands/create-account/create-account.handler.js';
import { accountsProjection } from './accounts/accounts.projection.js';
import { GetAccountHandler } from './accounts/queries/get-account/get-account.handler.js';
import { GetAccountController } from './accounts/queries/get-account/get-account.http.controller.js';
import { CreateApiKeyController } from './api-keys/commands/create-api-key/create-api-key.http.controller.js';
import { RevokeApiKeyController } from './api-keys/commands/revoke-api-key/revoke-api-key.http.controller.js';
import { GetApiKeyController } from './api-keys/queries/get-api-key/get-api-key.http.controller.js';
import { ListApiKeysController } from './api-keys/queries/list-api-keys/list-api-keys.http.controller.js';
import { PlatformBootstrap } from './bootstrap/platform-bootstrap.js';
import { PlatformDomainModule } from './platform-domain.module.js';

/**
 * Platform access (issue 3): accounts and plans, API keys, bearer authentication, scopes and
 * rate limits for `/v1`, and the D4 bootstrap. Registered once in libs/runtime/src/features.ts; API keys,
 * authentication and rate limiting themselves are libs/access (AccessModule), fed by
 * PlatformAccountRateLimits and PlatformKeyAccounts.
 */
@Module({
  imports: [
    CqrsModule.forRoot(),
    ProjectionsModule.forFeature([accountsProjection]),
    // Repositories, agents and runs, security, approvals, platform events (issue 4).
    PlatformDomainModule,
  ],
  controllers: [
    CreateApiKeyController,
    ListApiKeysController,
    GetApiKeyController,
    RevokeApiKeyController,
    GetAccountController,
  ],
  providers: [ReadYourWrites, CreateAccountHandler, ChangePlanHandler, GetAccountHandler, PlatformBootstrap],
  exports: [ReadYourWrites, CreateAccountHandler, ChangePlanHandler, PlatformBootstrap],
})
export class PlatformModule {}
