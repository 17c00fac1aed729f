import { Command } from '@nestjs/cqrs';
import type { UserRole } from '../../users/user.events.js';

export type SignInResult =
  | { outcome: 'signed_in'; sessionToken: string; userId: string; accountId: string; email: string; role: UserRole }
  /** Unknown email or wrong password: the same answer for both. */
  | { outcome: 'refused' }
  | { outcome: 'throttled'; reason: 'slow_down' | 'locked'; retryAfterSeconds: number };

/** A person signs in with email and password; a session already held by the browser ends. */
export class SignInCommand extends Command<SignInResult> {
  constructor(
    readonly input: {
      email: string;
      password: string;
      /** The client address (Fastify's request.ip): failures are counted per email and address. */
      clientAddress: string;
      previousSessionToken?: string;
    },
  ) {
    super();
  }
}
