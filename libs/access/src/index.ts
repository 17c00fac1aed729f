// Access, shared by both surfaces: API keys (format, aggregate, projection, authenticator, usage,
// revocation watch), the principal and scopes, bearer parsing through passport, and rate limits
// (port, adapters, policy). Products supply their accounts' limits through ACCOUNT_RATE_LIMITS.
export {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  type KeyEnvironment,
  parseApiKey,
  type ParsedKey,
} from './keys/api-key-format.js';
export { grants, insufficientScope, isScope, type Scope, SCOPES } from './auth/scopes.js';
export { type ApiKeyPrincipal, type OAuthTokenPrincipal, type Principal } from './auth/principal.js';
export { type AuthFailureCode, unauthorized } from './auth/auth-errors.js';
export { ApiKeyBearerResolver, type BearerTokenResolver, BearerTokenResolvers } from './auth/bearer-token-resolvers.js';
export { type BearerRequest, BearerStrategy, type PassportOutcome } from './auth/bearer.strategy.js';
export { PlatformAuthGuard } from './auth/platform-auth.guard.js';
export { REQUIRED_SCOPE, ScopeCheck } from './auth/scope.guard.js';
export { CurrentPrincipal, PlatformAuth, RequireScope } from './auth/require-scope.decorator.js';
export { AccessModule, type AccessModuleOptions } from './access.module.js';
export { KEY_ACCOUNTS, type KeyAccounts } from './api-keys/key-accounts.port.js';
export { API_KEY_EVENT_TYPES, type ApiKeyEvent, apiKeyStream, type KeySurface } from './api-keys/api-key.events.js';
export {
  type ApiKeyCommand,
  apiKeyDecider,
  type ApiKeyState,
  type Creator,
  oauthTokenCannotCreateKeys,
} from './api-keys/api-key.decider.js';
export { ApiKeyAuthenticator, KEY_CACHE_TTL_MS, KEY_CACHE_WATCHED_TTL_MS } from './api-keys/api-key-authenticator.js';
export {
  API_KEY_USAGE_COLLECTION,
  type ApiKeyUsageDoc,
  ApiKeyUsageTracker,
  LAST_USED_RESOLUTION_MS,
  USAGE_FLUSH_DELAY_MS,
  USAGE_TRACKED_KEYS_MAX,
} from './api-keys/api-key-usage.js';
export {
  API_KEYS_COLLECTION,
  API_KEYS_PROJECTION,
  type ApiKeyDoc,
  apiKeysProjection,
} from './api-keys/api-keys.projection.js';
export { type ApiKeyView, apiKeyViewSchema, toApiKeyView } from './api-keys/api-key.view.js';
export { CreateApiKeyCommand, type CreatedApiKey } from './api-keys/create-api-key/create-api-key.command.js';
export { CreateApiKeyHandler } from './api-keys/create-api-key/create-api-key.handler.js';
export { RevokeApiKeyCommand, type RevokeApiKeyResult } from './api-keys/revoke-api-key/revoke-api-key.command.js';
export { RevokeApiKeyHandler } from './api-keys/revoke-api-key/revoke-api-key.handler.js';
export { ListApiKeysQuery } from './api-keys/list-api-keys/list-api-keys.query.js';
export { ListApiKeysHandler } from './api-keys/list-api-keys/list-api-keys.handler.js';
export { GetApiKeyQuery } from './api-keys/get-api-key/get-api-key.query.js';
export { GetApiKeyHandler } from './api-keys/get-api-key/get-api-key.handler.js';
export {
  ACCOUNT_RATE_LIMITS,
  type AccountRateLimits,
  RATE_LIMIT_STORE,
  type RateLimits,
  type RateLimitStore,
  windowStart,
} from './rate-limits/rate-limit.port.js';
export { InMemoryRateLimitStore } from './rate-limits/in-memory-rate-limit.adapter.js';
export { MongoRateLimitStore } from './rate-limits/mongo-rate-limit.adapter.js';
export {
  accountUsage,
  type AccountUsage,
  checkCounter,
  checkKeyRateLimit,
  checkRateLimit,
  enforceDecision,
  type RateLimitDecision,
  rateLimitExceeded,
} from './rate-limits/rate-limit.policy.js';
export { PlatformRateLimiter } from './rate-limits/platform-rate-limiter.js';
export { AnonymousLimit, AnonymousThrottleGuard, type AnonymousWrite } from './rate-limits/anonymous-throttle.guard.js';
export { SqliteRateLimitStore, type SqliteRateLimitStoreOptions } from './rate-limits/sqlite-rate-limit.adapter.js';
