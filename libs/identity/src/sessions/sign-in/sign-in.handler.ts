import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PASSWORD_HASHER, type PasswordHasher } from '../../users/password-hasher.port.js';
import { UserCredentialsLookup } from '../../users/user-credentials.js';
import { SessionStore } from '../session.store.js';
import { SignInThrottle } from '../sign-in-throttle.js';
import { SignInCommand, type SignInResult } from './sign-in.command.js';

/**
 * Throttle (counted before the check), then the password against the user's hash, or against a
 * dummy hash when no user has the email, so both refusals cost the same; then a new session
 * (a new token: a session id a browser had before signing in is never promoted).
 */
@CommandHandler(SignInCommand)
export class SignInHandler implements ICommandHandler<SignInCommand, SignInResult> {
  constructor(
    private readonly throttle: SignInThrottle,
    private readonly users: UserCredentialsLookup,
    @Inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStore,
  ) {}

  async execute({ input }: SignInCommand): Promise<SignInResult> {
    const gate = await this.throttle.begin(input.email, input.clientAddress);
    if (!gate.allowed) return { outcome: 'throttled', reason: gate.reason, retryAfterSeconds: gate.retryAfterSeconds };
    const user = await this.users.byEmail(input.email);
    const matches = await this.hasher.verify(user?.passwordHash ?? null, input.password);
    if (!user || !matches) return { outcome: 'refused' };
    await this.throttle.succeeded(input.email, input.clientAddress);
    await this.sessions.delete(input.previousSessionToken);
    const sessionToken = await this.sessions.create(user);
    return {
      outcome: 'signed_in',
      sessionToken,
      userId: user.userId,
      accountId: user.accountId,
      email: user.email,
      role: user.role,
    };
  }
}
