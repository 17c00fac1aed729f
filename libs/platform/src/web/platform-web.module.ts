import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { GetAccountUsageHandler } from '../accounts/queries/get-account-usage/get-account-usage.handler.js';
import { DashboardHomeController } from '../dashboard/home/dashboard-home.http.controller.js';
import { AccountPageController } from '../dashboard/settings/account/account.http.controller.js';
import { AddWebhookPageController } from '../dashboard/settings/webhooks/add-webhook/add-webhook.http.controller.js';
import { DeleteWebhookPageController } from '../dashboard/settings/webhooks/delete-webhook/delete-webhook.http.controller.js';
import { EditWebhookPageController } from '../dashboard/settings/webhooks/edit-webhook/edit-webhook.http.controller.js';
import { ListWebhooksPageController } from '../dashboard/settings/webhooks/list-webhooks/list-webhooks.http.controller.js';
import { RedeliverDeliveryPageController } from '../dashboard/settings/webhooks/redeliver-delivery/redeliver-delivery.http.controller.js';
import { SendTestEventPageController } from '../dashboard/settings/webhooks/send-test-event/send-test-event.http.controller.js';
import { ShowWebhookPageController } from '../dashboard/settings/webhooks/show-webhook/show-webhook.http.controller.js';
import { CreateApiKeyPageController } from '../dashboard/settings/api-keys/create-api-key/create-api-key.http.controller.js';
import { ListApiKeysPageController } from '../dashboard/settings/api-keys/list-api-keys/list-api-keys.http.controller.js';
import { NewKeyFlashStore } from '../dashboard/settings/api-keys/new-key-flash.store.js';
import { RevokeApiKeyPageController } from '../dashboard/settings/api-keys/revoke-api-key/revoke-api-key.http.controller.js';
import { GetSessionHandler } from '../sessions/get-session/get-session.handler.js';
import { SessionStore } from '../sessions/session.store.js';
import { SignInThrottle } from '../sessions/sign-in-throttle.js';
import { SignInController } from '../sessions/sign-in/sign-in.http.controller.js';
import { SignInHandler } from '../sessions/sign-in/sign-in.handler.js';
import { SignOutController } from '../sessions/sign-out/sign-out.http.controller.js';
import { SignOutHandler } from '../sessions/sign-out/sign-out.handler.js';
import { PlatformModule } from '../platform.module.js';
import { ChangePasswordHandler } from '../users/commands/change-password/change-password.handler.js';
import { ChangeUserRoleHandler } from '../users/commands/change-user-role/change-user-role.handler.js';
import { UsersPageController } from '../dashboard/settings/users/users.http.controller.js';
import { CreateMemberHandler } from '../users/commands/create-member/create-member.handler.js';
import { RemoveUserHandler } from '../users/commands/remove-user/remove-user.handler.js';
import { ResetPasswordHandler } from '../users/commands/reset-password/reset-password.handler.js';
import { MAILER } from '../users/password-reset/mailer.port.js';
import { PasswordResetController } from '../users/password-reset/password-reset.http.controller.js';
import { SmtpMailer } from '../users/password-reset/smtp-mailer.adapter.js';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { OneTimeFlashStore } from './one-time-flash.store.js';
import { SessionCookie } from './session-cookie.js';
import { SessionScopeGuard } from './session-scope.guard.js';
import { SignedInGuard } from './signed-in.guard.js';

/**
 * The platform's browser pages: sign-in and sign-out with server-side sessions, and
 * the dashboard with its settings pages (ADR 0069). Cookies and CSRF tokens come from the Fastify plugins the api
 * registers (registerBrowserForms in libs/http, called by libs/runtime's app factory).
 */
@Module({
  imports: [CqrsModule.forRoot(), PlatformModule],
  controllers: [
    SignInController,
    SignOutController,
    DashboardHomeController,
    ListApiKeysPageController,
    CreateApiKeyPageController,
    RevokeApiKeyPageController,
    AccountPageController,
    ListWebhooksPageController,
    AddWebhookPageController,
    ShowWebhookPageController,
    EditWebhookPageController,
    DeleteWebhookPageController,
    SendTestEventPageController,
    RedeliverDeliveryPageController,
    PasswordResetController,
    UsersPageController,
  ],
  providers: [
    SessionStore,
    SignInThrottle,
    SessionCookie,
    SignedInGuard,
    SessionScopeGuard,
    OneTimeFlashStore,
    NewKeyFlashStore,
    SignInHandler,
    SignOutHandler,
    GetSessionHandler,
    GetAccountUsageHandler,
    ChangePasswordHandler,
    ResetPasswordHandler,
    // User management by admins (ADR 0083): the roster keeps the last admin.
    CreateMemberHandler,
    ChangeUserRoleHandler,
    RemoveUserHandler,
    // Mail only when SVC_SMTP_URL is set; without it the reset links come from the CLI.
    {
      provide: MAILER,
      useFactory: (config: AppConfig) => (config.smtp ? new SmtpMailer(config.smtp) : null),
      inject: [APP_CONFIG],
    },
  ],
})
export class PlatformWebModule {}
