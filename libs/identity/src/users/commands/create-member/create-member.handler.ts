import { randomBytes } from 'node:crypto';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PasswordResetTokens } from '../../password-reset/password-reset-tokens.store.js';
import { CreateUserCommand } from '../create-user/create-user.command.js';
import { CreateMemberCommand, type CreatedMember } from './create-member.command.js';

/**
 * The admin never chooses (or sees) the new user's password: the user is created with 256 random
 * bits nobody keeps, and a single-use reset token (ADR 0083) lets them choose their own.
 */
@CommandHandler(CreateMemberCommand)
export class CreateMemberHandler implements ICommandHandler<CreateMemberCommand, CreatedMember> {
  constructor(
    private readonly commands: CommandBus,
    private readonly tokens: PasswordResetTokens,
  ) {}

  async execute({ input }: CreateMemberCommand): Promise<CreatedMember> {
    const user = await this.commands.execute(
      new CreateUserCommand({ ...input, password: randomBytes(32).toString('base64url') }),
    );
    const { token, expiresAt } = await this.tokens.issue(user.userId);
    return { userId: user.userId, email: user.email, role: user.role, resetToken: token, resetExpiresAt: expiresAt };
  }
}
