import { type AllFilter, type EventStore, matchesFilter, type RecordedEvent } from '#eventstore';
import type { EventsTailCliCommand } from './events-tail.args.js';

type TailCommand = EventsTailCliCommand;

/** The default number of events `events tail` prints without --from (like tail(1)). */
export const DEFAULT_TAIL = 10;

export function eventLine(e: RecordedEvent): string {
  return JSON.stringify({
    position: e.position,
    stream: e.stream,
    revision: e.revision,
    type: e.type,
    id: e.id,
    created: e.created,
    data: e.data,
  });
}

/**
 * `svc events tail`: the last events (or those from --from on) as JSON lines, then, with
 * --follow, new ones as any process commits them, until `signal` aborts. Returns how many it printed.
 */
export async function tailEvents(
  store: EventStore,
  cmd: TailCommand,
  write: (line: string) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  const filter: AllFilter = {
    ...(cmd.typePrefixes.length ? { eventTypePrefixes: cmd.typePrefixes } : {}),
    ...(cmd.stream !== undefined
      ? { streamPrefixes: [cmd.stream] }
      : cmd.streamPrefixes.length
        ? { streamPrefixes: cmd.streamPrefixes }
        : {}),
  };
  // The store filters by prefix; an exact --stream and a --stream-prefix next to it are checked here.
  const accept = (e: RecordedEvent) =>
    (cmd.stream === undefined || e.stream === cmd.stream) && matchesFilter(e, { streamPrefixes: cmd.streamPrefixes });
  let printed = 0;

  if (cmd.from === undefined) {
    const limit = cmd.limit ?? DEFAULT_TAIL;
    const head = await store.headPosition();
    const backlog: RecordedEvent[] = [];
    if (head > 0) {
      for await (const e of store.readAll({ direction: 'backwards', before: head + 1, filter })) {
        if (!accept(e)) continue;
        backlog.push(e);
        if (backlog.length >= limit) break;
      }
    }
    for (const e of backlog.reverse()) await write(eventLine(e));
    printed = backlog.length;
    if (!cmd.follow) return printed;
    // Following after a tail prints everything new, like `tail -f`.
    return printed + (await follow(store, head, filter, accept, Infinity, write, signal));
  }

  const limit = cmd.limit ?? Infinity;
  if (cmd.follow) return follow(store, cmd.from - 1, filter, accept, limit, write, signal);
  for await (const e of store.readAll({ after: cmd.from - 1, filter })) {
    if (signal?.aborted) break;
    if (!accept(e)) continue;
    await write(eventLine(e));
    if (++printed >= limit) break;
  }
  return printed;
}

async function follow(
  store: EventStore,
  after: number,
  filter: AllFilter,
  accept: (e: RecordedEvent) => boolean,
  limit: number,
  write: (line: string) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  let printed = 0;
  if (signal?.aborted) return 0;
  const subscription = store.subscribeToAll({ after, filter });
  const onAbort = () => void subscription.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const e of subscription) {
      if (!accept(e)) continue;
      await write(eventLine(e));
      if (++printed >= limit) break;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await subscription.close();
  }
  return printed;
}
