import { Command } from '@nestjs/cqrs';

export interface IssuedPasswordReset {
  userId: string;
  email: string;
  /** The single-use token, to put in a link: shown once (CLI) or mailed, never stored. */
  token: string;
  expiresAt: string;
}

/** A reset token for the user of an address; null when no user has it (callers say nothing of that). */
export class IssuePasswordResetCommand extends Command<IssuedPasswordReset | null> {
  constructor(readonly input: { email: string }) {
    super();
  }
}
