export * from './accounts/account.events.js';
export * from './accounts/account.decider.js';
export * from './accounts/accounts.projection.js';
export * from './accounts/commands/create-account/create-account.command.js';
export * from './accounts/commands/create-account/create-account.handler.js';
export * from './accounts/commands/change-plan/change-plan.command.js';
export * from './accounts/commands/change-plan/change-plan.handler.js';
export * from './accounts/queries/get-account/get-account.query.js';
export * from './accounts/queries/get-account/get-account.schema.js';
export * from './bootstrap/bootstrap.events.js';
export * from './bootstrap/bootstrap.decider.js';
export * from './bootstrap/platform-bootstrap.js';
export * from './shared/platform-openapi.js';
export * from './accounts/account-rate-limits.js';
export * from './accounts/platform-key-accounts.js';
export * from './platform.module.js';
// Users and the browser pages: users of platform accounts, sign-in with server-side
// sessions, the dashboard.
export * from './users/user.events.js';
export * from './users/user.decider.js';
export * from './users/user-email.decider.js';
export * from './users/users.projection.js';
export * from './users/password-policy.js';
export * from './users/password-hasher.port.js';
export * from './users/commands/create-user/create-user.command.js';
export * from './users/commands/change-user-role/change-user-role.command.js';
export * from './users/commands/remove-user/remove-user.command.js';
export * from './users/commands/create-member/create-member.command.js';
export * from './users/account-roster/account-roster.events.js';
export * from './users/commands/issue-password-reset/issue-password-reset.command.js';
export { resetLink } from './users/password-reset/password-reset-link.js';
export * from './sessions/session.store.js';
export * from './sessions/sign-in-throttle.js';
export * from './web/platform-web.module.js';
// Platform domain: repositories, agents and runs, security scans, approvals, and the
// platform events they publish. The webhook engine reads platform events through
// `toPlatformEvent` / `PLATFORM_EVENT_SOURCE_TYPES` (pure, over the stored domain events) or the
// `platform_events` read model (PLATFORM_EVENTS_PROJECTION / PLATFORM_EVENTS_COLLECTION).
export * from './platform-events/derived-id.js';
export * from './platform-events/platform-event.js';
export * from './platform-events/platform-event.schemas.js';
export * from './platform-events/platform-events.projection.js';
export * from './repositories/repository.events.js';
export * from './repositories/repository.decider.js';
export * from './repositories/repositories.projection.js';
export * from './repositories/repository-lookup.js';
export * from './repositories/commands/connect-repository/connect-repository.command.js';
export * from './repositories/commands/disconnect-repository/disconnect-repository.command.js';
export * from './repositories/commands/report-analysis/report-analysis.command.js';
export * from './agents/agent-templates.js';
export * from './agents/agent.events.js';
export * from './agents/agent.decider.js';
export * from './agents/agents.projection.js';
export * from './agents/commands/create-agent/create-agent.command.js';
export * from './agents/commands/update-agent/update-agent.command.js';
export * from './runs/run.events.js';
export * from './runs/run.decider.js';
export * from './runs/runs.projection.js';
export * from './runs/commands/start-run/start-run.command.js';
export * from './runs/commands/claim-run/claim-run.command.js';
export * from './runs/commands/complete-run/complete-run.command.js';
export * from './runs/commands/fail-run/fail-run.command.js';
export * from './runs/commands/cancel-run/cancel-run.command.js';
export * from './security/security.events.js';
export * from './security/security.decider.js';
export * from './security/security.projection.js';
export * from './security/commands/report-scan/report-scan.command.js';
export * from './approvals/approval.events.js';
export * from './approvals/approval.decider.js';
export * from './approvals/approvals.projection.js';
export * from './approvals/approval-expiry.sweeper.js';
export * from './runs/run-timeout.sweeper.js';
export * from './approvals/commands/request-approval/request-approval.command.js';
export * from './approvals/commands/decide-approval/decide-approval.command.js';
export * from './platform-domain.module.js';

// Platform webhooks: /v1/webhooks over the engine's platform channel.
export * from './webhooks/platform-events.js';
export * from './webhooks/webhook-http.schemas.js';
export * from './webhooks/platform-webhooks.module.js';
// OAuth 2.0 (ADR 0066): clients, the authorization server, tokens on /v1.
export * from './oauth/oauth.module.js';
export * from './oauth/clients/oauth-client.events.js';
export * from './oauth/clients/oauth-client.decider.js';
export * from './oauth/clients/oauth-clients.projection.js';
export * from './oauth/clients/commands/register-oauth-client/register-oauth-client.command.js';
export * from './oauth/clients/commands/rotate-oauth-client-secret/rotate-oauth-client-secret.command.js';
export * from './oauth/clients/commands/set-oauth-client-pkce/set-oauth-client-pkce.command.js';
export * from './oauth/clients/commands/delete-oauth-client/delete-oauth-client.command.js';
export * from './oauth/grants/oauth-grant.events.js';
export * from './oauth/grants/oauth-grant.decider.js';
export * from './oauth/server/oauth-settings.js';
export * from './oauth/server/oauth-storage.js';
