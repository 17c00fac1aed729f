import type { CommandBus } from '@nestjs/cqrs';
import { AppError } from '#kernel';
import { CreateUserCommand, generatePassword } from '#platform';
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
): Promise<void> {
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
