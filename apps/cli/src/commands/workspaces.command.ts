import type { CommandBus } from '@nestjs/cqrs';
import { CreateTenantCommand, IssueTenantKeyCommand } from '#agent-data';
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
      const tenant = await commands.execute(new CreateTenantCommand(cmd.name));
      await write(JSON.stringify(tenant));
      return;
    }
    await write(JSON.stringify(await commands.execute(new IssueTenantKeyCommand(cmd.tenantId, cmd.name))));
  } catch (error) {
    throw asUsageError(error);
  }
}
