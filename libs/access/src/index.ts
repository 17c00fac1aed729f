// Access, shared by both surfaces: API keys (format, aggregate, projection, authenticator, usage,
// revocation watch), the principal and scopes, bearer parsing through passport, and rate limits
// (port, adapters, policy). Products supply their accounts' limits through ACCOUNT_RATE_LIMITS.
export * from './keys/api-key-format.js';
export * from './auth/scopes.js';
export * from './auth/principal.js';
export * from './auth/auth-errors.js';
export * from './auth/bearer-token-resolvers.js';
export * from './auth/bearer.strategy.js';
export * from './auth/platform-auth.guard.js';
export * from './auth/scope.guard.js';
export * from './auth/require-scope.decorator.js';
export * from './access.module.js';
export * from './api-keys/key-accounts.port.js';
export * from './api-keys/api-key.events.js';
export * from './api-keys/api-key.decider.js';
export * from './api-keys/api-key-authenticator.js';
export * from './api-keys/api-key-usage.js';
export * from './api-keys/api-keys.projection.js';
export * from './api-keys/api-key.view.js';
export * from './api-keys/create-api-key/create-api-key.command.js';
export * from './api-keys/create-api-key/create-api-key.handler.js';
export * from './api-keys/revoke-api-key/revoke-api-key.command.js';
export * from './api-keys/revoke-api-key/revoke-api-key.handler.js';
export * from './api-keys/list-api-keys/list-api-keys.query.js';
export * from './api-keys/list-api-keys/list-api-keys.handler.js';
export * from './api-keys/get-api-key/get-api-key.query.js';
export * from './api-keys/get-api-key/get-api-key.handler.js';
export * from './rate-limits/rate-limit.port.js';
export * from './rate-limits/in-memory-rate-limit.adapter.js';
export * from './rate-limits/mongo-rate-limit.adapter.js';
export * from './rate-limits/rate-limit.policy.js';
export * from './rate-limits/platform-rate-limiter.js';
export * from './rate-limits/anonymous-throttle.guard.js';
export * from './rate-limits/sqlite-rate-limit.adapter.js';
