export {
  type AccountEvent,
  accountStream,
  type Plan,
  PLAN_LIMITS,
  type RateLimits,
} from './accounts/account.events.js';
export { ACCOUNTS_COLLECTION, accountsProjection } from './accounts/accounts.projection.js';
export { CreateAccountCommand } from './accounts/commands/create-account/create-account.command.js';
export { ChangePlanCommand } from './accounts/commands/change-plan/change-plan.command.js';
export { BOOTSTRAP_STREAM } from './bootstrap/bootstrap.events.js';
export { BOOTSTRAP_LINE_PREFIX, PlatformBootstrap } from './bootstrap/platform-bootstrap.js';
export { PlatformAccountRateLimits } from './accounts/account-rate-limits.js';
export { PlatformKeyAccounts } from './accounts/platform-key-accounts.js';
export { PlatformModule } from './platform.module.js';
// Users and the browser pages: users of platform accounts, sign-in with server-side
// sessions, the dashboard.
export { normalizeEmail, userEmailStream, type UserRole } from './users/user.events.js';
export { UNCLAIMED_RESERVATION_GRACE_MS } from './users/user-email.decider.js';
export { type UserDoc, USERS_COLLECTION, USERS_PROJECTION, usersProjection } from './users/users.projection.js';
export { generatePassword } from './users/password-policy.js';
export { CreateUserCommand } from './users/commands/create-user/create-user.command.js';
export { ChangeUserRoleCommand } from './users/commands/change-user-role/change-user-role.command.js';
export { RemoveUserCommand } from './users/commands/remove-user/remove-user.command.js';
export { CreateMemberCommand } from './users/commands/create-member/create-member.command.js';
export { IssuePasswordResetCommand } from './users/commands/issue-password-reset/issue-password-reset.command.js';
export { resetLink } from './users/password-reset/password-reset-link.js';
export { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SESSIONS_COLLECTION } from './sessions/session.store.js';
export {
  EMAIL_MAX_WAIT_MS,
  EMAIL_SLOW_AFTER_ATTEMPTS,
  LOCK_AFTER_ATTEMPTS,
  LOCK_MS,
} from './sessions/sign-in-throttle.js';
export { PlatformWebModule } from './web/platform-web.module.js';
// Platform domain: repositories, agents and runs, security scans, approvals, and the
// platform events they publish. The webhook engine reads platform events through
// `toPlatformEvent` / `PLATFORM_EVENT_SOURCE_TYPES` (pure, over the stored domain events) or the
// `platform_events` read model (PLATFORM_EVENTS_PROJECTION / PLATFORM_EVENTS_COLLECTION).
export {
  PLATFORM_EVENT_MEANINGS,
  PLATFORM_EVENT_TYPES,
  platformEventSource,
  type PlatformEventType,
  toPlatformEvent,
} from './platform-events/platform-event.js';
export { PLATFORM_EVENT_DATA_SCHEMAS, platformEventSchema } from './platform-events/platform-event.schemas.js';
export {
  envelopeOf,
  PLATFORM_EVENTS_COLLECTION,
  PLATFORM_EVENTS_PROJECTION,
  type PlatformEventDoc,
} from './platform-events/platform-events.projection.js';
export { repositoryStream } from './repositories/repository.events.js';
export { repositoryDecider } from './repositories/repository.decider.js';
export { agentStream } from './agents/agent.events.js';
export { agentDecider } from './agents/agent.decider.js';
export { AGENTS_PROJECTION } from './agents/agents.projection.js';
export { runStream } from './runs/run.events.js';
export { runDecider } from './runs/run.decider.js';
export { securityStream } from './security/security.events.js';
export { securityDecider } from './security/security.decider.js';
export { APPROVAL_TTL_MS, approvalStream } from './approvals/approval.events.js';
export { approvalDecider } from './approvals/approval.decider.js';
export { ApprovalExpirySweeper } from './approvals/approval-expiry.sweeper.js';
export { RunTimeoutSweeper } from './runs/run-timeout.sweeper.js';
export { PLATFORM_DOMAIN_PROJECTIONS } from './platform-domain.module.js';

// Platform webhooks: /v1/webhooks over the engine's platform channel.
export { platformEventPublished, platformWebhookChannel } from './webhooks/platform-events.js';
export { PlatformWebhooksModule } from './webhooks/platform-webhooks.module.js';
// OAuth 2.0 (ADR 0066): clients, the authorization server, tokens on /v1.
export { OAuthModule } from './oauth/oauth.module.js';
export { type OAuthClientPkce } from './oauth/clients/oauth-client.events.js';
export { RegisterOAuthClientCommand } from './oauth/clients/commands/register-oauth-client/register-oauth-client.command.js';
export { SetOAuthClientPkceCommand } from './oauth/clients/commands/set-oauth-client-pkce/set-oauth-client-pkce.command.js';
export { oauthCollection } from './oauth/server/oauth-storage.js';
