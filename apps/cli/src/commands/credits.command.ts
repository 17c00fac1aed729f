import type { CommandBus } from '@nestjs/cqrs';
import { GrantCreditsCommand } from '#agent-billing';
import { AppError } from '#kernel';
import { UsageError } from '../usage-error.js';
import { asUsageError } from './accounts.command.js';
import type { CreditsCliCommand } from './credits.args.js';

/**
 * `svc credits grant`, as the operator: appends to the account's credits stream (a running
 * server sees it on its next read of the balance) and prints the outcome.
 */
export async function runCredits(
  commands: CommandBus,
  cmd: CreditsCliCommand,
  write: (line: string) => Promise<void>,
): Promise<void> {
  try {
    const r = await commands.execute(
      new GrantCreditsCommand({ keyId: cmd.keyId, creditsCents: cmd.creditsCents, reference: cmd.reference }),
    );
    await write(
      JSON.stringify({
        account_id: r.account_id,
        key_id: r.key_id,
        granted_usd: r.granted_usd,
        reference: r.reference,
        balance_usd: r.balance_usd,
        granted: r.granted,
      }),
    );
  } catch (error) {
    // A key that cannot receive credits is a wrong argument, like a malformed amount (exit 2).
    if (error instanceof AppError && error.code === 'KEY_NOT_FOUND')
      throw new UsageError(`--key ${cmd.keyId}: ${error.message}`);
    throw asUsageError(error);
  }
}
