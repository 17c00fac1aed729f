import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { GetAccountUsageHandler } from '../accounts/queries/get-account-usage/get-account-usage.handler.js';
import { IdentityModule } from '../identity.module.js';
import { GetSessionHandler } from '../sessions/get-session/get-session.handler.js';
import { SessionStore } from '../sessions/session.store.js';
import { SignInThrottle } from '../sessions/sign-in-throttle.js';
import { SignInController } from '../sessions/sign-in/sign-in.http.controller.js';
import { SignInHandler } from '../sessions/sign-in/sign-in.handler.js';
import { SignOutController } from '../sessions/sign-out/sign-out.http.controller.js';
import { SignOutHandler } from '../sessions/sign-out/sign-out.handler.js';
import { ChangePasswordHandler } from '../users/commands/change-password/change-password.handler.js';
import { ChangeUserRoleHandler } from '../users/commands/change-user-role/change-user-role.handler.js';
import { CreateMemberHandler } from '../users/commands/create-member/create-member.handler.js';
import { RemoveUserHandler } from '../users/commands/remove-user/remove-user.handler.js';
import { ResetPasswordHandler } from '../users/commands/reset-password/reset-password.handler.js';
import { MailPasswordResetHandler } from '../users/commands/mail-password-reset/mail-password-reset.handler.js';
import { MAILER } from '../users/password-reset/mailer.port.js';
import { PasswordResetController } from '../users/password-reset/password-reset.http.controller.js';
import { SmtpMailer } from '../users/password-reset/smtp-mailer.adapter.js';
import { CanMailPasswordResetHandler } from '../users/queries/can-mail-password-reset/can-mail-password-reset.handler.js';
import { CheckResetTokenHandler } from '../users/queries/check-reset-token/check-reset-token.handler.js';
import { ListAccountUsersHandler } from '../users/queries/list-account-users/list-account-users.handler.js';
import { OneTimeFlashStore } from './one-time-flash.store.js';
import { SessionCookie } from './session-cookie.js';
import { SessionScopeGuard } from './session-scope.guard.js';
import { SignedInGuard } from './signed-in.guard.js';

/**
 * The browser side of identity: sign-in and sign-out with server-side sessions, password reset,
 * and the handlers behind the account and users settings pages (ADR 0069, ADR 0083). Exports the
 * session pieces every signed-in page uses; platform's dashboard (PlatformWebModule) imports it.
 * Cookies and CSRF tokens come from the Fastify plugins the api registers (registerBrowserForms
 * in libs/http, called by libs/runtime's app factory).
 */
@Module({
  imports: [CqrsModule.forRoot(), IdentityModule],
  controllers: [SignInController, SignOutController, PasswordResetController],
  providers: [
    SessionStore,
    SignInThrottle,
    SessionCookie,
    SignedInGuard,
    SessionScopeGuard,
    OneTimeFlashStore,
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
    ListAccountUsersHandler,
    // Password reset by mail; the link's page checks its token without using it up.
    CanMailPasswordResetHandler,
    MailPasswordResetHandler,
    CheckResetTokenHandler,
    // Mail only when SVC_SMTP_URL is set; without it the reset links come from the CLI.
    {
      provide: MAILER,
      useFactory: (config: AppConfig) => (config.smtp ? new SmtpMailer(config.smtp) : null),
      inject: [APP_CONFIG],
    },
  ],
  exports: [SessionCookie, SignedInGuard, SessionScopeGuard, OneTimeFlashStore],
})
export class IdentityWebModule {}
