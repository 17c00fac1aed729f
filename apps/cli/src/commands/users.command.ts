import type { CommandBus } from '@nestjs/cqrs';
import { AppError } from '#kernel';
import { CreateUserCommand, generatePassword, IssuePasswordResetCommand, resetLink } from '#identity';
import { UsageError } from '../usage-error.js';
import { asUsageError } from './accounts.command.js';
import type { UsersCliCommand } from './users.args.js';

/**
 * `svc users create`, as the operator: appends to the event store without waiting for read
 * models (none run in the CLI); the user can sign in at once (sign-in reads the user's stream).
 */
export async function runUsers(
  commands: CommandBus,
  cmd: UsersCliCommand,
  write: (line: string) => Promise<void>,
  /** Where reset links point: SVC_PUBLIC_URL, else the local address. */
  publicBase = 'http://localhost:3000',
): Promise<void> {
  if (cmd.kind === 'users-reset-password') {
    // No mail needed: the operator hands the link over. The token is stored only as its hash.
    const issued = await commands.execute(new IssuePasswordResetCommand({ email: cmd.email }));
    if (!issued) throw new UsageError(`--email ${cmd.email}: no user has this address`);
    await write(
      JSON.stringify({
        user_id: issued.userId,
        email: issued.email,
        reset_url: resetLink(publicBase, issued.token),
        expires_at: issued.expiresAt,
      }),
    );
    return;
  }
  const password = cmd.password ?? generatePassword();
  try {
    const user = await commands.execute(
      new CreateUserCommand(
        { accountId: cmd.accountId, email: cmd.email, password, role: cmd.role },
        { readYourWrites: false },
      ),
    );
    await write(
      JSON.stringify({
        user_id: user.userId,
        account_id: user.accountId,
        email: user.email,
        role: user.role,
        ...(cmd.password === undefined ? { password } : {}),
      }),
    );
  } catch (error) {
    // An unknown account is a wrong argument, like a malformed id (exit 2).
    if (error instanceof AppError && error.code === 'ACCOUNT_NOT_FOUND')
      throw new UsageError(`--account ${cmd.accountId}: no such platform account`);
    throw asUsageError(error);
  }
}
