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
import { AccountRoster } from './users/account-roster/account-roster.service.js';
import { Argon2PasswordHasher } from './users/argon2-password-hasher.adapter.js';
import { CreateUserHandler } from './users/commands/create-user/create-user.handler.js';
import { IssuePasswordResetHandler } from './users/commands/issue-password-reset/issue-password-reset.handler.js';
import { PasswordResetTokens } from './users/password-reset/password-reset-tokens.store.js';
import { PASSWORD_HASHER } from './users/password-hasher.port.js';
import { UserCredentialsLookup } from './users/user-credentials.js';
import { usersProjection } from './users/users.projection.js';

/**
 * Who calls the platform: accounts and plans, API keys, the users of accounts, bearer
 * authentication, scopes and rate limits for `/v1`, and the D4 bootstrap. Registered once in libs/runtime/src/features.ts; API keys,
 * authentication and rate limiting themselves are libs/access (AccessModule), fed by
 * PlatformAccountRateLimits and PlatformKeyAccounts.
 */
@Module({
  imports: [CqrsModule.forRoot(), ProjectionsModule.forFeature([accountsProjection, usersProjection])],
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
    GetAccountHandler,
    PlatformBootstrap,
    // Users of platform accounts: created by the CLI, signing in at /login.
    { provide: PASSWORD_HASHER, useClass: Argon2PasswordHasher },
    UserCredentialsLookup,
    CreateUserHandler,
    PasswordResetTokens,
    IssuePasswordResetHandler,
    AccountRoster,
  ],
  exports: [
    ReadYourWrites,
    CreateAccountHandler,
    ChangePlanHandler,
    PlatformBootstrap,
    PASSWORD_HASHER,
    UserCredentialsLookup,
    PasswordResetTokens,
    AccountRoster,
  ],
})
export class IdentityModule {}
