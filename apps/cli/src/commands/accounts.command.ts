import type { CommandBus } from '@nestjs/cqrs';
import { AppError } from '#kernel';
import { ChangePlanCommand, CreateAccountCommand, PLAN_LIMITS, type RateLimits } from '#identity';
import { UsageError } from '../usage-error.js';
import type { AccountsCliCommand } from './accounts.args.js';

/** A refusal of the domain's validation is a usage problem of the command line (exit 2). */
export function asUsageError(error: unknown): unknown {
  if (error instanceof AppError && error.code === 'VALIDATION_FAILED') {
    const details = (error.extra.details as Array<{ path: string; message: string }> | undefined) ?? [];
    return new UsageError(details.length ? details.map((d) => `${d.path}: ${d.message}`).join('; ') : error.message);
  }
  return error;
}

function limitsOf(cmd: { plan: AccountsCliCommand['plan']; perMinute?: number; perHour?: number }): RateLimits {
  return cmd.plan === 'enterprise' ? { per_minute: cmd.perMinute!, per_hour: cmd.perHour! } : PLAN_LIMITS[cmd.plan];
}

/**
 * `svc accounts create|plan`: appends to the account's stream without waiting for read models
 * (none run in the CLI); a running server shows the change as soon as its projection applies it.
 */
export async function runAccounts(
  commands: CommandBus,
  cmd: AccountsCliCommand,
  write: (line: string) => Promise<void>,
): Promise<void> {
  const limits = {
    ...(cmd.perMinute !== undefined ? { perMinute: cmd.perMinute } : {}),
    ...(cmd.perHour !== undefined ? { perHour: cmd.perHour } : {}),
  };
  try {
    if (cmd.kind === 'accounts-create') {
      const { accountId } = await commands.execute(
        new CreateAccountCommand({ name: cmd.name, plan: cmd.plan, ...limits }, { readYourWrites: false }),
      );
      await write(
        JSON.stringify({ account_id: accountId, name: cmd.name.trim(), plan: cmd.plan, limits: limitsOf(cmd) }),
      );
      return;
    }
    const { changed } = await commands.execute(
      new ChangePlanCommand({ accountId: cmd.accountId, plan: cmd.plan, ...limits }, { readYourWrites: false }),
    );
    await write(JSON.stringify({ account_id: cmd.accountId, plan: cmd.plan, limits: limitsOf(cmd), changed }));
  } catch (error) {
    throw asUsageError(error);
  }
}
