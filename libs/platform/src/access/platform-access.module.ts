import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '#common';
import { DOCUMENT_STORE, type DocumentStore, MongoDocumentStore } from '#documents';
import { ApiKeyAuthenticator } from '../api-keys/api-key-authenticator.js';
import { ApiKeyRevocationWatch } from '../api-keys/api-key-revocation.watch.js';
import { ApiKeyUsageTracker } from '../api-keys/api-key-usage.js';
import { InMemoryRateLimitStore } from '../rate-limits/in-memory-rate-limit.adapter.js';
import { MongoRateLimitStore } from '../rate-limits/mongo-rate-limit.adapter.js';
import { PlatformRateLimiter } from '../rate-limits/platform-rate-limiter.js';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../rate-limits/rate-limit.port.js';
import { BearerTokenResolvers } from './bearer-token-resolvers.js';
import { PlatformBearerStrategy } from './bearer.strategy.js';
import { PlatformAuthGuard } from './platform-auth.guard.js';

/**
 * Rate-limit counters: MongoDB when the read models live there (MONGODB_URL; shared by every
 * API instance, so limits hold across them), else in this process's memory (embedded mode).
 */
export function rateLimitStoreFor(config: Pick<AppConfig, 'mongoUrl'>, documents: DocumentStore): RateLimitStore {
  if (config.mongoUrl && documents instanceof MongoDocumentStore) return new MongoRateLimitStore(() => documents.database());
  return new InMemoryRateLimitStore();
}

@Injectable()
class RateLimitStoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/**
 * Authentication and rate limiting of the platform surface, global so every feature's
 * controllers can use `@PlatformAuth()` / `@RequireScope()`, and the agent surface can use
 * ApiKeyAuthenticator for its own keys.
 */
@Global()
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      useFactory: (config: AppConfig, documents: DocumentStore) => rateLimitStoreFor(config, documents),
      inject: [APP_CONFIG, DOCUMENT_STORE],
    },
    RateLimitStoreLifecycle,
    ApiKeyUsageTracker,
    ApiKeyAuthenticator,
    ApiKeyRevocationWatch,
    BearerTokenResolvers,
    PlatformBearerStrategy,
    PlatformRateLimiter,
    PlatformAuthGuard,
  ],
  exports: [RATE_LIMIT_STORE, ApiKeyUsageTracker, ApiKeyAuthenticator, BearerTokenResolvers, PlatformBearerStrategy, PlatformRateLimiter, PlatformAuthGuard],
})
export class PlatformAccessModule {}
