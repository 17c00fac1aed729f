import type { CommandBus } from '@nestjs/cqrs';
import { CreateTenantCommand, IssueTenantKeyCommand } from '#agent-workspace';
import { AppError } from '#kernel';
import { UsageError } from '../usage-error.js';
import { asUsageError } from './accounts.command.js';
import type { WorkspacesCliCommand } from './workspaces.args.js';

/** `svc workspaces create|keys create`, as the operator. */
export async function runWorkspaces(
  commands: CommandBus,
  cmd: WorkspacesCliCommand,
  write: (line: string) => Promise<void>,
): Promise<void> {
  try {
    if (cmd.kind === 'workspaces-create') {
      const tenant = await commands.execute(new CreateTenantCommand(cmd.name, cmd.accountId));
      await write(JSON.stringify(tenant));
      return;
    }
    await write(JSON.stringify(await commands.execute(new IssueTenantKeyCommand(cmd.tenantId, cmd.name))));
  } catch (error) {
    // An unknown tenant is a wrong argument, like a malformed id (exit 2).
    if (error instanceof AppError && error.code === 'TENANT_NOT_FOUND')
      throw new UsageError(`--tenant ${cmd.kind === 'workspaces-keys-create' ? cmd.tenantId : ''}: ${error.message}`);
    // So is an account that does not exist or holds a tenant already.
    if (error instanceof AppError && (error.code === 'ACCOUNT_NOT_FOUND' || error.code === 'ACCOUNT_HAS_TENANT'))
      throw new UsageError(
        `--account ${cmd.kind === 'workspaces-create' ? (cmd.accountId ?? '') : ''}: ${error.message}`,
      );
    throw asUsageError(error);
  }
}
