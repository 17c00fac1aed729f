import { ConcurrentModificationError, type DocumentStore, type WriteOp } from '#documents';
import type { AllSubscription, RecordedEvent } from '#eventstore';
import { BatchContext } from './batch-context.js';
import { GenerationChanged, ProjectionHandlerError, type BatchFailures } from './projection-failures.js';
import type { Target } from './projection-generations.js';
import type { ProjectionDefinition } from './projection.port.js';
import { afterPending, settleSignal, TICK, yieldToEventLoop } from './settle-signal.js';

/** How far a run got: `seen` passed (ignored events included), `persisted` stored as the checkpoint. */
export interface Reached {
  seen: number;
  persisted: number;
}

/** What the loop asks of its worker. */
export interface BatchLoopHost {
  readonly definition: ProjectionDefinition;
  readonly documents: DocumentStore;
  readonly batchSize: number;
  readonly idleCheckMs: number;
  readonly failures: BatchFailures;
  handles(type: string): boolean;
  /** Commits `ops` with the checkpoint moved from `from` to `to` (one transaction, embedded). */
  commit(target: Target, ops: WriteOp[], from: number, to: number, events: number): Promise<void>;
  /** Progress without a commit (ignored events): readers of the position see it. */
  advanced(target: Target, position: number): void;
  /** Sets the event aside when it failed on its own often enough (see BatchFailures). */
  setAsideIfPoison(target: Target, event: RecordedEvent, error: unknown, from: number): Promise<boolean>;
  /** While idle: throws GenerationChanged when another process switched the generation. */
  checkStillActive(target: Target): Promise<void>;
  idleStarted(): void;
  idleEnded(): void;
  batchCommitted(target: Target, size: number): void;
}

type Applied = { ops: WriteOp[] } | { failure: ProjectionHandlerError };

/**
 * One run of a worker's batch loop over one subscription, in named steps: take the first event
 * (waiting while idle), collect a batch, apply the handlers, commit (or set a poison event
 * aside). Live: until the subscription ends. Rebuild: until caught up (nothing more at hand).
 */
export class BatchLoop {
  private readonly iterator: AsyncIterator<RecordedEvent>;
  private pending: Promise<IteratorResult<RecordedEvent>> | null = null;
  /** An event collected past a failed one: it starts the next batch. */
  private held: RecordedEvent | null = null;
  private seen: number;
  private persisted: number;
  private lastStoredAt = performance.now();
  private onNudge: (() => void) | null = null;

  constructor(
    private readonly host: BatchLoopHost,
    private readonly subscription: AllSubscription,
    private readonly target: Target,
    from: number,
    private readonly counted?: (n: number) => void,
  ) {
    this.iterator = subscription[Symbol.asyncIterator]();
    this.seen = this.persisted = from;
  }

  /** The subscription passed ignored events: wakes the idle wait. */
  nudge(): void {
    this.onNudge?.();
  }

  async run(): Promise<Reached> {
    for (;;) {
      // Between batches, let the event loop run (HTTP, timers): catching up over a million
      // events is otherwise one unbroken chain of microtasks, since every read is synchronous.
      await yieldToEventLoop();
      const first = await this.firstEvent();
      if (first === null) return { seen: this.seen, persisted: this.persisted };
      const batch = await this.collect(first);
      const applied = await this.applyHandlers(batch);
      if ('failure' in applied) await this.handlerFailed(batch, applied.failure);
      else await this.store(batch, applied.ops);
    }
  }

  /** The first event of a batch: live waits while idle, a rebuild stops (null) when none is at hand. */
  private async firstEvent(): Promise<RecordedEvent | null> {
    if (this.held) {
      const first = this.held;
      this.held = null;
      return first;
    }
    this.pending ??= this.iterator.next();
    let result = await Promise.race([this.pending, afterPending()]);
    if (result === TICK) {
      this.passCheckpoint();
      if (this.target.rebuild) return null;
      result = await this.waitIdle(this.pending);
    }
    this.pending = null;
    return result.done ? null : result.value;
  }

  /**
   * Caught up: waits for the next event, in rounds of idleCheckMs; at each round's end, stores
   * the progress over ignored events and checks the generation is still the active one.
   */
  private async waitIdle(pending: Promise<IteratorResult<RecordedEvent>>): Promise<IteratorResult<RecordedEvent>> {
    const { host } = this;
    host.idleStarted();
    const waiting = settleSignal(pending);
    this.onNudge = () => waiting.wake();
    let roundStarted = performance.now();
    let result: IteratorResult<RecordedEvent>;
    try {
      for (;;) {
        // Before each wait too: a nudge during the awaits below finds no round to end.
        this.passCheckpoint();
        const next = await waiting.next(Math.max(0, host.idleCheckMs - (performance.now() - roundStarted)));
        if (next !== TICK) {
          result = next;
          break;
        }
        this.passCheckpoint();
        if (performance.now() - roundStarted < host.idleCheckMs) continue; // a nudge, not the round's end
        roundStarted = performance.now();
        if (this.seen > this.persisted) {
          await host.commit(this.target, [], this.persisted, this.seen, 0);
          this.persisted = this.seen;
          this.lastStoredAt = performance.now();
        }
        await host.checkStillActive(this.target);
      }
    } finally {
      this.onNudge = null;
    }
    host.idleEnded();
    return result;
  }

  /**
   * With nothing at hand, the subscription has looked as far as its checkpoint, and what it did
   * not deliver up to there is not for this projection: passed.
   */
  private passCheckpoint(): void {
    if (this.subscription.checkpoint <= this.seen) return;
    this.seen = this.subscription.checkpoint;
    this.host.advanced(this.target, this.seen);
  }

  /** The events at hand after `first`, up to batchSize; one alone while a failure is being found. */
  private async collect(first: RecordedEvent): Promise<RecordedEvent[]> {
    const { host } = this;
    const batch = [first];
    if (host.failures.isolates(first.position)) return batch;
    const tick = afterPending();
    while (batch.length < host.batchSize) {
      this.pending = this.iterator.next();
      const result = await Promise.race([this.pending, tick]);
      if (result === TICK) break;
      this.pending = null;
      if (result.done) break;
      if (host.failures.holdsBack(result.value.position)) {
        this.held = result.value;
        break;
      }
      batch.push(result.value);
    }
    return batch;
  }

  private async applyHandlers(batch: RecordedEvent[]): Promise<Applied> {
    const { host } = this;
    const context = new BatchContext(host.documents, host.definition.name, this.target.physical);
    for (const event of batch) {
      if (!host.handles(event.type)) continue;
      context.begin(event);
      try {
        await host.definition.handle(event, context);
      } catch (error) {
        host.failures.handlerFailed(event.position);
        return { failure: new ProjectionHandlerError(host.definition.name, event, error) };
      }
    }
    return { ops: context.ops() };
  }

  /** A handler threw: a poison event alone is set aside and passed, anything else is thrown. */
  private async handlerFailed(batch: RecordedEvent[], failure: ProjectionHandlerError): Promise<void> {
    if (batch.length === 1 && (await this.host.setAsideIfPoison(this.target, batch[0]!, failure, this.persisted))) {
      this.persisted = this.seen = batch[0]!.position;
      return;
    }
    throw failure;
  }

  /** Commits the batch's writes with the checkpoint (or only moves the position, see below). */
  private async store(batch: RecordedEvent[], ops: WriteOp[]): Promise<void> {
    const { host, target } = this;
    const last = batch[batch.length - 1]!.position;
    this.counted?.(batch.length);
    this.seen = last;
    if (ops.length === 0 && performance.now() - this.lastStoredAt < host.idleCheckMs) {
      // Only ignored events: no write, the progress is stored with the next commit.
      host.advanced(target, this.seen);
      return;
    }
    try {
      await host.commit(target, ops, this.persisted, this.seen, batch.length);
    } catch (error) {
      if (error instanceof GenerationChanged || error instanceof ConcurrentModificationError) throw error;
      // A store refused the batch (a document it cannot hold): find the event, one per batch.
      if (batch.length > 1) host.failures.commitFailed(last);
      else if (await host.setAsideIfPoison(target, batch[0]!, error, this.persisted)) {
        this.persisted = last;
        return;
      }
      throw error;
    }
    this.persisted = this.seen;
    this.lastStoredAt = performance.now();
    host.failures.committed(last);
    host.batchCommitted(target, batch.length);
  }
}
