// Accounts and plans, the D4 bootstrap, and the ports libs/access reads them through.
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
export { GetAccountQuery } from './accounts/queries/get-account/get-account.query.js';
export { type AccountView } from './accounts/queries/get-account/get-account.schema.js';
export { GetAccountUsageQuery } from './accounts/queries/get-account-usage/get-account-usage.query.js';
export { BOOTSTRAP_STREAM } from './bootstrap/bootstrap.events.js';
export { BOOTSTRAP_LINE_PREFIX, PlatformBootstrap } from './bootstrap/platform-bootstrap.js';
export { PlatformAccountRateLimits } from './accounts/account-rate-limits.js';
export { PlatformKeyAccounts } from './accounts/platform-key-accounts.js';
export { IdentityModule } from './identity.module.js';
// The /v1 responses every authenticated platform operation documents (D3, D7).
export { forbiddenResponse, platformErrorResponses, RATE_LIMIT_HEADERS } from './shared/platform-openapi.js';

// Users of platform accounts, sign-in with server-side sessions, password reset.
export { normalizeEmail, userEmailStream, type UserRole } from './users/user.events.js';
export { UNCLAIMED_RESERVATION_GRACE_MS } from './users/user-email.decider.js';
export { type UserDoc, USERS_COLLECTION, USERS_PROJECTION, usersProjection } from './users/users.projection.js';
export { generatePassword, PASSWORD_MIN_LENGTH } from './users/password-policy.js';
export { roleGrants, scopesOfRole } from './users/user-scopes.js';
export { CreateUserCommand } from './users/commands/create-user/create-user.command.js';
export { ChangePasswordCommand } from './users/commands/change-password/change-password.command.js';
export { ChangeUserRoleCommand } from './users/commands/change-user-role/change-user-role.command.js';
export { RemoveUserCommand } from './users/commands/remove-user/remove-user.command.js';
export { CreateMemberCommand } from './users/commands/create-member/create-member.command.js';
export { IssuePasswordResetCommand } from './users/commands/issue-password-reset/issue-password-reset.command.js';
export { ListAccountUsersQuery } from './users/queries/list-account-users/list-account-users.query.js';
export { resetLink } from './users/password-reset/password-reset-link.js';
export { type Session, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SESSIONS_COLLECTION } from './sessions/session.store.js';
export {
  EMAIL_MAX_WAIT_MS,
  EMAIL_SLOW_AFTER_ATTEMPTS,
  LOCK_AFTER_ATTEMPTS,
  LOCK_MS,
} from './sessions/sign-in-throttle.js';

// The browser pages' parts: layout, forms, guards, flashes (platform's dashboard builds on them).
export { IdentityWebModule } from './web/identity-web.module.js';
export { BrowserErrorFilter } from './web/browser-error.filter.js';
export { COPY_PAGE_CSP, COPY_SCRIPT, copyButton } from './web/copy-button.js';
export { CsrfGuard } from './web/csrf.guard.js';
export { checkboxes, csrfInput, formErrors, listPageQuery, zodErrors } from './web/form-input.js';
export { OneTimeFlashStore } from './web/one-time-flash.store.js';
export { newPasswordFields, passwordErrors } from './web/password-fields.js';
export { layout, type PageScript, redirect, sendPage } from './web/page-layout.js';
export { SessionCookie } from './web/session-cookie.js';
export { RequirePageScope, SessionScopeGuard } from './web/session-scope.guard.js';
export { CurrentSession, SignedInGuard, signInRequired } from './web/signed-in.guard.js';

// OAuth 2.0 (ADR 0066): clients, the authorization server, tokens on /v1.
export { OAuthModule } from './oauth/oauth.module.js';
export { type OAuthClientPkce } from './oauth/clients/oauth-client.events.js';
export { type OAuthClientDoc } from './oauth/clients/oauth-clients.projection.js';
export { RegisterOAuthClientCommand } from './oauth/clients/commands/register-oauth-client/register-oauth-client.command.js';
export { SetOAuthClientPkceCommand } from './oauth/clients/commands/set-oauth-client-pkce/set-oauth-client-pkce.command.js';
export { RotateOAuthClientSecretCommand } from './oauth/clients/commands/rotate-oauth-client-secret/rotate-oauth-client-secret.command.js';
export { DeleteOAuthClientCommand } from './oauth/clients/commands/delete-oauth-client/delete-oauth-client.command.js';
export { ListOAuthClientsQuery } from './oauth/clients/queries/list-oauth-clients/list-oauth-clients.query.js';
export { oauthCollection } from './oauth/server/oauth-storage.js';
