import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProjectionsModule, ReadYourWrites } from '#projections';
import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator.js';
import { ApiKeyRevocationWatch } from './api-keys/api-key-revocation.watch.js';
import { ApiKeyUsageTracker } from './api-keys/api-key-usage.js';
import { apiKeysProjection } from './api-keys/api-keys.projection.js';
import { CreateApiKeyHandler } from './api-keys/create-api-key/create-api-key.handler.js';
import { GetApiKeyHandler } from './api-keys/get-api-key/get-api-key.handler.js';
import { KEY_ACCOUNTS, type KeyAccounts } from './api-keys/key-accounts.port.js';
import { ListApiKeysHandler } from './api-keys/list-api-keys/list-api-keys.handler.js';
import { RevokeApiKeyHandler } from './api-keys/revoke-api-key/revoke-api-key.handler.js';
import { BearerTokenResolvers } from './auth/bearer-token-resolvers.js';
import { BearerStrategy } from './auth/bearer.strategy.js';
import { PlatformAuthGuard } from './auth/platform-auth.guard.js';
import { PlatformRateLimiter } from './rate-limits/platform-rate-limiter.js';
import { ACCOUNT_RATE_LIMITS, type AccountRateLimits } from './rate-limits/rate-limit.port.js';

export interface AccessModuleOptions {
  /** Where an account's rate limits come from (the platform's plans). */
  accountRateLimits: Type<AccountRateLimits>;
  /** Which accounts may hold keys of which surface. */
  keyAccounts: Type<KeyAccounts>;
}

/**
 * API keys, authentication and rate limiting for both surfaces, global so every feature's
 * controllers can use `@PlatformAuth()` / `@RequireScope()` and the agent surface its key guard.
 * Registered once, by the composition root (libs/runtime), with the products' account ports.
 * RATE_LIMIT_STORE comes from the runtime's storage wiring (memory or MongoDB).
 */
@Module({})
export class AccessModule {
  static forRoot(options: AccessModuleOptions): DynamicModule {
    return {
      module: AccessModule,
      global: true,
      imports: [CqrsModule.forRoot(), ProjectionsModule.forFeature([apiKeysProjection])],
      providers: [
        { provide: ACCOUNT_RATE_LIMITS, useClass: options.accountRateLimits },
        { provide: KEY_ACCOUNTS, useClass: options.keyAccounts },
        ReadYourWrites,
        ApiKeyUsageTracker,
        ApiKeyAuthenticator,
        ApiKeyRevocationWatch,
        BearerTokenResolvers,
        BearerStrategy,
        PlatformRateLimiter,
        PlatformAuthGuard,
        CreateApiKeyHandler,
        RevokeApiKeyHandler,
        ListApiKeysHandler,
        GetApiKeyHandler,
      ],
      exports: [
        ApiKeyUsageTracker,
        ApiKeyAuthenticator,
        BearerTokenResolvers,
        BearerStrategy,
        PlatformRateLimiter,
        PlatformAuthGuard,
        CreateApiKeyHandler,
        RevokeApiKeyHandler,
      ],
    };
  }
}
