import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  jsonEvent,
  type AppendResult as EsdbAppendResult,
  type JSONType,
  type ReadPosition,
  type ReadRevision,
} from '@eventstore/db-client';
import { prepareAppend } from '../append.validation.js';
import {
  EventStoreUnavailableError,
  type AllSubscription,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
} from '../event-store.port.js';
import { ResubscribingAllSubscription, type AllSource } from './esdb-all-subscription.js';
import {
  acceptAll,
  fromEsdbPosition,
  isTransientEsdbError,
  mapEsdbError,
  normaliseConnectionString,
  planAllFilter,
  toAppendExpectedRevision,
  toEsdbPosition,
  toRecordedEvent,
  type EsdbEvent,
} from './esdb-mapping.js';

export interface EsdbEventStoreOptions {
  /** `esdb://host:2113?tls=false` (or `kurrentdb://…`, `esdb+discover://…` for a cluster). */
  url: string;
  /** Deadline of `ping` (for /health); default 2000 ms. */
  pingTimeoutMs?: number;
  /** Told when a subscription lost its server stream and resubscribes. */
  onSubscriptionRetry?(error: unknown, attempt: number): void;
}

/** The part of the client's streaming reads used here. */
interface StreamingRead extends AsyncIterable<{ event?: EsdbEvent }> {
  cancel(): Promise<void>;
}

/**
 * The event store port on EventStoreDB (or KurrentDB) through `@eventstore/db-client`.
 * See esdb-mapping.ts for how positions and expected revisions map.
 *
 * Idempotency: event ids are passed through, so a retried append with the same ids and the same
 * exact expected revision (or `no_stream`) is recognised by the server and writes nothing. With
 * `any` the server only checks a cache of recent ids: best effort, as documented by EventStoreDB.
 *
 * `readAll` filters on the client (this client version's `readAll` takes no filter);
 * `subscribeToAll` filters on the server (one prefix list) and here (the rest).
 */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly pingTimeoutMs: number;
  private readonly subscriptions = new Set<ResubscribingAllSubscription>();
  private closed = false;

  constructor(private readonly options: EsdbEventStoreOptions) {
    this.client = EventStoreDBClient.connectionString(normaliseConnectionString(options.url));
    this.pingTimeoutMs = options.pingTimeoutMs ?? 2000;
  }

  async append(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision = 'any'): Promise<AppendResult> {
    this.assertOpen();
    const prepared = prepareAppend(stream, events, expectedRevision);
    const data = prepared.events.map((event, i) =>
      jsonEvent({
        id: event.id,
        type: event.type,
        // Already checked to be JSON; the client serialises it again.
        data: events[i]!.data as JSONType,
        ...(event.metadataJson === null ? {} : { metadata: events[i]!.metadata }),
      }),
    );
    let result: EsdbAppendResult;
    try {
      result = await this.client.appendToStream(stream, data, {
        expectedRevision: toAppendExpectedRevision(expectedRevision),
      });
    } catch (error) {
      throw mapEsdbError(error, { stream, expected: expectedRevision });
    }
    const nextExpectedRevision = Number(result.nextExpectedRevision);
    const position = fromEsdbPosition(result.position) ?? (await this.positionOf(stream, nextExpectedRevision));
    return { nextExpectedRevision, position };
  }

  async *readStream(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    this.assertOpen();
    if (options.maxCount !== undefined && options.maxCount <= 0) return;
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    const fromRevision: ReadRevision = from === 'start' ? START : from === 'end' ? END : BigInt(from);
    const read = this.client.readStream(stream, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision,
      ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
    }) as unknown as StreamingRead;
    try {
      for await (const resolved of read) {
        const event = resolved.event;
        if (!event) continue;
        yield toRecordedEvent(event, fromEsdbPosition(event.position) ?? 0);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return;
      throw mapEsdbError(error, { stream });
    } finally {
      await read.cancel().catch(() => undefined);
    }
  }

  async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    this.assertOpen();
    let remaining = options.maxCount ?? Infinity;
    if (remaining <= 0) return;
    const backwards = options.direction === 'backwards';
    // Forwards from a position includes the event at it, backwards excludes it: the bounds
    // below drop the boundary event either way.
    const after = options.after ?? 0;
    const before = options.before;
    let fromPosition: ReadPosition;
    if (backwards) fromPosition = before === undefined ? END : toEsdbPosition(before);
    else fromPosition = after > 0 ? toEsdbPosition(after) : START;
    const accept = acceptAll(options.filter);
    const read = this.client.readAll({
      direction: backwards ? BACKWARDS : FORWARDS,
      fromPosition,
    }) as unknown as StreamingRead;
    try {
      for await (const resolved of read) {
        const event = resolved.event;
        if (!event) continue;
        const position = fromEsdbPosition(event.position);
        if (position === null) continue;
        if (backwards ? before !== undefined && position >= before : position <= after) continue;
        if (!accept(event)) continue;
        yield toRecordedEvent(event, position);
        if (--remaining <= 0) return;
      }
    } catch (error) {
      throw mapEsdbError(error);
    } finally {
      // Stops the server-side read too, not only our iteration.
      await read.cancel().catch(() => undefined);
    }
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): AllSubscription {
    const plan = planAllFilter(options.filter, { clientOnly: options.checkpoints === true });
    const subscription: ResubscribingAllSubscription = new ResubscribingAllSubscription({
      after: options.after ?? 0,
      open: (from) =>
        this.client.subscribeToAll({ fromPosition: from ?? START, filter: plan.server }) as unknown as AllSource,
      accept: plan.accept,
      ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}),
      isTransient: isTransientEsdbError,
      mapError: (error) => mapEsdbError(error),
      onRetry: (error, attempt) => this.options.onSubscriptionRetry?.(error, attempt),
      onEnd: () => this.subscriptions.delete(subscription),
    });
    if (this.closed) void subscription.close();
    else this.subscriptions.add(subscription);
    return subscription;
  }

  async streamRevision(stream: string): Promise<number | null> {
    for await (const event of this.readStream(stream, { direction: 'backwards', fromRevision: 'end', maxCount: 1 })) {
      return event.revision;
    }
    return null;
  }

  async headPosition(): Promise<number> {
    for await (const event of this.readAll({ direction: 'backwards', maxCount: 1 })) return event.position;
    return 0;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    // Any read proves the server answers. The client gives streaming reads no deadline, so the
    // timer keeps /health quick when the server does not answer (a black-holed host, say).
    const read = this.client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
    }) as unknown as StreamingRead;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new EventStoreUnavailableError(`EventStoreDB did not answer within ${this.pingTimeoutMs} ms`)),
        this.pingTimeoutMs,
      );
    });
    const first = (async () => {
      for await (const _ of read) break;
    })();
    try {
      await Promise.race([first, timeout]);
    } catch (error) {
      const mapped = mapEsdbError(error);
      throw mapped instanceof EventStoreUnavailableError
        ? mapped
        : new EventStoreUnavailableError(`EventStoreDB ping failed: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
      first.catch(() => undefined);
      // Not awaited: with an unreachable server the call may not even exist yet.
      void read.cancel().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.subscriptions].map((s) => s.close()));
    this.subscriptions.clear();
    await this.client.dispose();
  }

  /**
   * Position of the event at `revision`, for appends the server answered without one (an
   * idempotent re-append reports no position). Falls back to the head, which is at or after it.
   */
  private async positionOf(stream: string, revision: number): Promise<number> {
    for await (const event of this.readStream(stream, {
      direction: 'backwards',
      fromRevision: revision,
      maxCount: 1,
    })) {
      if (event.position > 0) return event.position;
    }
    return this.headPosition();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('EsdbEventStore is closed');
  }
}
