import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProjectionsModule } from '#common';
import { PlatformAccessModule } from './access/platform-access.module.js';
import { ChangePlanHandler } from './accounts/commands/change-plan/change-plan.handler.js';
import { CreateAccountHandler } from './accounts/commands/create-account/create-account.handler.js';
import { accountsProjection } from './accounts/accounts.projection.js';
import { GetAccountHandler } from './accounts/queries/get-account/get-account.handler.js';
import { GetAccountController } from './accounts/queries/get-account/get-account.http.controller.js';
import { apiKeysProjection } from './api-keys/api-keys.projection.js';
import { CreateApiKeyHandler } from './api-keys/commands/create-api-key/create-api-key.handler.js';
import { CreateApiKeyController } from './api-keys/commands/create-api-key/create-api-key.http.controller.js';
import { RevokeApiKeyHandler } from './api-keys/commands/revoke-api-key/revoke-api-key.handler.js';
import { RevokeApiKeyController } from './api-keys/commands/revoke-api-key/revoke-api-key.http.controller.js';
import { GetApiKeyHandler } from './api-keys/queries/get-api-key/get-api-key.handler.js';
import { GetApiKeyController } from './api-keys/queries/get-api-key/get-api-key.http.controller.js';
import { ListApiKeysHandler } from './api-keys/queries/list-api-keys/list-api-keys.handler.js';
import { ListApiKeysController } from './api-keys/queries/list-api-keys/list-api-keys.http.controller.js';
import { PlatformBootstrap } from './bootstrap/platform-bootstrap.js';
import { PlatformDomainModule } from './platform-domain.module.js';
import { ReadYourWrites } from './shared/read-your-writes.js';

/**
 * Platform access (issue 3): accounts and plans, API keys, bearer authentication, scopes and
 * rate limits for `/v1`, and the D4 bootstrap. Registered once in apps/api/src/features.ts.
 */
@Module({
  imports: [
    CqrsModule.forRoot(),
    PlatformAccessModule,
    ProjectionsModule.forFeature([accountsProjection, apiKeysProjection]),
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
  providers: [
    ReadYourWrites,
    CreateAccountHandler,
    ChangePlanHandler,
    CreateApiKeyHandler,
    RevokeApiKeyHandler,
    ListApiKeysHandler,
    GetApiKeyHandler,
    GetAccountHandler,
    PlatformBootstrap,
  ],
  exports: [ReadYourWrites, CreateAccountHandler, ChangePlanHandler, CreateApiKeyHandler, RevokeApiKeyHandler, PlatformBootstrap],
})
export class PlatformModule {}
