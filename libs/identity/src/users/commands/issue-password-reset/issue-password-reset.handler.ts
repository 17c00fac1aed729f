import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PasswordResetTokens } from '../../password-reset/password-reset-tokens.store.js';
import { UserCredentialsLookup } from '../../user-credentials.js';
import { IssuePasswordResetCommand, type IssuedPasswordReset } from './issue-password-reset.command.js';

/** Issues a single-use reset token for the user of an address (read from the event store). */
@CommandHandler(IssuePasswordResetCommand)
export class IssuePasswordResetHandler implements ICommandHandler<
  IssuePasswordResetCommand,
  IssuedPasswordReset | null
> {
  constructor(
    private readonly users: UserCredentialsLookup,
    private readonly tokens: PasswordResetTokens,
  ) {}

  async execute({ input }: IssuePasswordResetCommand): Promise<IssuedPasswordReset | null> {
    const user = await this.users.byEmail(input.email);
    if (!user) return null;
    const { token, expiresAt } = await this.tokens.issue(user.userId);
    return { userId: user.userId, email: user.email, token, expiresAt };
  }
}
