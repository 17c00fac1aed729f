import { auditCredits } from '#agent-billing';
import type { DocumentStore } from '#documents';
import type { EventStore } from '#eventstore';
import { auditDeliveries, type WebhookChannel } from '#webhooks';
import type { AuditCliCommand } from './audit.args.js';

type Write = (line: string) => Promise<void>;

/**
 * `svc audit credits`: one JSON line per account on stdout, a sentence per disagreement on
 * stderr; 1 when an account is not ok. The replay and the checks are the lib's (credits-audit.ts).
 */
export async function auditCreditsCommand(
  stores: { events: EventStore; documents: DocumentStore },
  cmd: Extract<AuditCliCommand, { kind: 'audit-credits' }>,
  write: Write,
  writeError: Write,
  now: Date,
): Promise<number> {
  let lines = 0;
  let failed = 0;
  for await (const line of auditCredits(stores, {
    now,
    ...(cmd.accountId !== undefined ? { accountId: cmd.accountId } : {}),
    ...(cmd.asOf ? { asOf: cmd.asOf } : {}),
  })) {
    lines++;
    await write(JSON.stringify(line));
    if (line.ok) continue;
    failed++;
    await writeError(`svc audit: account ${line.account_id}: ${line.mismatches.join('; ')}`);
  }
  if (cmd.accountId !== undefined && lines === 0)
    await writeError(`svc audit: account ${cmd.accountId} has no credits events${cmd.asOf ? ' by then' : ''}`);
  await writeError(`svc audit credits: done, ${lines} account(s) replayed, ${failed} disagree`);
  return failed > 0 ? 1 : 0;
}

/** `svc audit deliveries`: one JSON line per webhook; 1 when any delivery breaks the schedule. */
export async function auditDeliveriesCommand(
  events: EventStore,
  channels: readonly WebhookChannel[],
  cmd: Extract<AuditCliCommand, { kind: 'audit-deliveries' }>,
  write: Write,
  writeError: Write,
  /** SVC_WEBHOOK_RETRY_SCALE: the schedule the deliveries were made with. */
  retryScale = 1,
): Promise<number> {
  const lines = await auditDeliveries(events, channels, {
    retryScale,
    ...(cmd.webhookId !== undefined ? { webhookId: cmd.webhookId } : {}),
  });
  let failed = 0;
  for (const line of lines) {
    await write(JSON.stringify(line));
    if (line.ok) continue;
    failed++;
    await writeError(`svc audit: webhook ${line.webhook_id}: ${line.breaks.length} schedule break(s)`);
  }
  if (cmd.webhookId !== undefined && lines.length === 0)
    await writeError(`svc audit: webhook ${cmd.webhookId} has no events`);
  await writeError(`svc audit deliveries: done, ${lines.length} webhook(s) replayed, ${failed} with schedule breaks`);
  return failed > 0 ? 1 : 0;
}
