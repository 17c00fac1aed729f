import { auditCredits } from '#agent-billing';
import type { DocumentStore } from '#documents';
import type { EventStore } from '#eventstore';
import { auditDeliveries, type WebhookChannel } from '#webhooks';
import type { AuditCliCommand } from './audit.args.js';

type Write = (line: string) => Promise<void>;

/** Stdout for the lines, stderr for the rest; `now` (ms, monotonic) paces the progress lines. */
export interface AuditIo {
  readonly out: Write;
  readonly err: Write;
  now?: () => number;
}

/** Milliseconds between two progress lines of a long replay. */
const PROGRESS_EVERY_MS = 1000;

/**
 * The event store as the audit reads it, with a progress line on stderr about once a second while
 * it walks $all: the position reached against the head when the audit began (the total), and what
 * `done` says has been replayed. Every other method is the store's own.
 */
export function withReplayProgress<S extends Pick<EventStore, 'readAll'>>(
  events: S,
  options: { label: string; head: number; err: Write; done: () => string; now?: () => number },
): S {
  const now = options.now ?? (() => performance.now());
  let printedAt = now();
  async function* readAll(...args: Parameters<EventStore['readAll']>) {
    for await (const e of events.readAll(...args)) {
      if (now() - printedAt >= PROGRESS_EVERY_MS) {
        printedAt = now();
        const percent = Math.min(100, Math.floor((e.position / Math.max(options.head, 1)) * 100));
        await options.err(
          `${options.label}: at position ${e.position} of ${options.head} (${percent}%), ${options.done()}`,
        );
      }
      yield e;
    }
  }
  return new Proxy(events, {
    get(target, property) {
      if (property === 'readAll') return readAll;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * `svc audit credits`: one JSON line per account on stdout, a sentence per disagreement on
 * stderr; 1 when an account is not ok. The replay and the checks are the lib's (credits-audit.ts).
 */
export async function auditCreditsCommand(
  stores: { events: EventStore; documents: DocumentStore },
  cmd: Extract<AuditCliCommand, { kind: 'audit-credits' }>,
  io: AuditIo,
  now: Date,
): Promise<number> {
  const { out: write, err: writeError } = io;
  let lines = 0;
  let failed = 0;
  let events = stores.events;
  // One account is one stream: only the walk of $all for every account is long.
  if (cmd.accountId === undefined) {
    const head = await stores.events.headPosition();
    await writeError(`svc audit credits: replaying the credits streams found in $all, ${head} events`);
    events = withReplayProgress(stores.events, {
      label: 'svc audit credits',
      head,
      err: writeError,
      done: () => `${lines} account(s) replayed`,
      ...(io.now ? { now: io.now } : {}),
    });
  }
  for await (const line of auditCredits(
    { ...stores, events },
    {
      now,
      ...(cmd.accountId !== undefined ? { accountId: cmd.accountId } : {}),
      ...(cmd.asOf ? { asOf: cmd.asOf } : {}),
    },
  )) {
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
  events: Pick<EventStore, 'readAll' | 'headPosition'>,
  channels: readonly WebhookChannel[],
  cmd: Extract<AuditCliCommand, { kind: 'audit-deliveries' }>,
  io: AuditIo,
  /** SVC_WEBHOOK_RETRY_SCALE: the schedule the deliveries were made with. */
  retryScale = 1,
): Promise<number> {
  const { out: write, err: writeError } = io;
  const head = await events.headPosition();
  await writeError(`svc audit deliveries: replaying the webhook engine's events in $all, ${head} events`);
  let replayed = 0;
  const counted = withReplayProgress(
    {
      async *readAll(...args: Parameters<EventStore['readAll']>) {
        for await (const e of events.readAll(...args)) {
          replayed++;
          yield e;
        }
      },
    },
    {
      label: 'svc audit deliveries',
      head,
      err: writeError,
      done: () => `${replayed} webhook event(s) replayed`,
      ...(io.now ? { now: io.now } : {}),
    },
  );
  const lines = await auditDeliveries(counted, channels, {
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
