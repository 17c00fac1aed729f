import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ConvertLeadCommand } from '#agent-workspace';
import { type LeadsPage, ListLeadsQuery } from '#agent-surface';
import { AppError } from '#kernel';
import { UsageError } from '../usage-error.js';
import { asUsageError } from './accounts.command.js';
import type { LeadsCliCommand } from './leads.args.js';

const PAGE = 100;

/** `svc leads list|convert`, as the operator. */
export async function runLeads(
  buses: { commands: CommandBus; queries: QueryBus },
  cmd: LeadsCliCommand,
  write: (line: string) => Promise<void>,
): Promise<void> {
  if (cmd.kind === 'leads-list') {
    let cursor: string | undefined;
    do {
      const page: LeadsPage = await buses.queries.execute(new ListLeadsQuery(cmd.status, PAGE, cursor));
      for (const lead of page.leads) await write(JSON.stringify(lead));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return;
  }
  try {
    await write(JSON.stringify(await buses.commands.execute(new ConvertLeadCommand(cmd.leadId, cmd.accountId))));
  } catch (error) {
    // A lead or account that does not exist, or one converted elsewhere, is a wrong argument (exit 2).
    if (error instanceof AppError && ['LEAD_NOT_FOUND', 'LEAD_ALREADY_CONVERTED'].includes(error.code))
      throw new UsageError(`--lead ${cmd.leadId}: ${error.message}`);
    if (error instanceof AppError && ['ACCOUNT_NOT_FOUND', 'ACCOUNT_HAS_TENANT'].includes(error.code))
      throw new UsageError(`--account ${cmd.accountId ?? ''}: ${error.message}`);
    throw asUsageError(error);
  }
}
