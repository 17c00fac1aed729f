import { ConcurrentModificationError, type WriteOp } from '#documents';
import type { AllSubscription, RecordedEvent } from '#eventstore';
import { BatchLoop, type BatchLoopHost, type Reached } from './projection-batch-loop.js';
import { BatchFailures, DEAD_LETTER_AFTER, deadLetterOp, GenerationChanged } from './projection-failures.js';
import { ProjectionGenerations, type Target } from './projection-generations.js';
import type { WorkerSettings } from './projection-worker-settings.js';
import type { ProjectionDefinition, ProjectionState, RebuildResult } from './projection.port.js';
import { DEAD_LETTERS_COLLECTION, PROJECTIONS_COLLECTION, type ActiveCheckpoint } from './projection-store.js';

export { DEAD_LETTER_AFTER, ProjectionHandlerError } from './projection-failures.js';
export type { CommitInfo, ProjectionLogger, WorkerSettings } from './projection-worker-settings.js';

/** Times a rebuild catches up again because a live commit beat its switch, before it gives up. */
const SWITCH_ROUNDS = 50;

export class RebuildAbortedError extends Error {
  constructor(projection: string, reason: string) {
    super(`Rebuild of ${projection} aborted: ${reason}`);
    this.name = 'RebuildAbortedError';
  }
}

/**
 * Runs one projection: the live loop on the active generation, and rebuilds into fresh ones.
 *
 * Commit protocol, one `applyBatch` per batch: the handlers' writes (each guarded by its event's
 * position) and then a cas of the checkpoint on (generation, position it started from).
 * Embedded: one transaction, so the writes and the checkpoint land together or not at all, and
 * a second runner that committed first makes this whole batch roll back (exactly once).
 * MongoDB: the writes land first and the checkpoint after; a replay after a crash in between
 * re-applies the same writes, which the guards turn into no-ops (at least once, same result).
 *
 * The subscription is filtered to the event types the projection handles, with `checkpoints`:
 * whenever nothing is at hand, the subscription's checkpoint says how far it looked, so the
 * events the projection ignores count as passed (waitFor) without ever reaching it. (Unfiltered,
 * each of a dozen projections took every event of the store through its loop.) Progress past
 * ignored events is stored with the next write or after `idleCheckMs`, not one fsync each.
 */
export class ProjectionWorker {
  state: ProjectionState = 'stopped';
  lastError: string | null = null;
  /** Active generation this worker serves (0 before it loaded it). */
  generation = 0;
  activeVersion = 0;
  /** Last position passed in the active generation, including ignored events not yet stored. */
  position = 0;
  /** Waiting for events with nothing at hand: caught up. */
  idle = false;
  rebuilding: { generation: number; position: number } | null = null;

  private readonly handled: Set<string>;
  private readonly failures = new BatchFailures();
  private running: Promise<void> | null = null;
  private stopping = false;
  private readonly subscriptions = new Set<AllSubscription>();
  private liveSubscription: AllSubscription | null = null;
  private wakeSleep: (() => void) | null = null;
  private restartRequested = false;
  private currentRebuild: Promise<RebuildResult> | null = null;
  private readonly generations: ProjectionGenerations;

  constructor(
    readonly definition: ProjectionDefinition,
    private readonly settings: WorkerSettings,
  ) {
    this.handled = new Set(definition.eventTypes);
    this.generations = new ProjectionGenerations(definition, settings);
  }

  get isRunning(): boolean {
    return this.running !== null;
  }

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.state = 'catching_up';
    this.running = this.loop().finally(() => {
      this.running = null;
      this.state = 'stopped';
      this.idle = false;
    });
  }

  /** Graceful: the batch in progress is committed, then the loop ends. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const s of this.subscriptions) await s.close();
    this.wakeSleep?.();
    await this.running;
    await this.currentRebuild?.catch(() => undefined);
  }

  /** Ends the live subscription so the loop re-reads the active state (after a switch). */
  restart(): void {
    this.restartRequested = true;
    void this.liveSubscription?.close();
  }

  rebuild(): Promise<RebuildResult> {
    this.currentRebuild ??= this.runRebuild().finally(() => {
      this.currentRebuild = null;
      this.rebuilding = null;
    });
    return this.currentRebuild;
  }

  // ---- live loop ---------------------------------------------------------------------------

  private async loop(): Promise<void> {
    let backoff = this.settings.retryInitialMs;
    let conflicts = 0;
    while (!this.stopping) {
      try {
        this.restartRequested = false;
        await this.runLive();
        if (!this.stopping && !this.restartRequested) {
          // The subscription ended on its own (the event store was closed?): not a hot loop.
          throw new Error('the event subscription ended unexpectedly');
        }
        backoff = this.settings.retryInitialMs;
        conflicts = 0;
      } catch (error) {
        if (this.stopping) break;
        if (error instanceof GenerationChanged || error instanceof ConcurrentModificationError) {
          // Another runner moved the checkpoint or switched the generation: re-read and go on.
          // Repeated conflicts mean two live runners take turns: let the other one work a while.
          if (++conflicts > 2) await this.sleep(Math.min(50 * conflicts, 1000));
          continue;
        }
        this.state = 'failed';
        this.idle = false;
        this.lastError = error instanceof Error ? error.message : String(error);
        this.settings.logger.error(`projection ${this.definition.name}: ${this.lastError} (retry in ${backoff} ms)`);
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, this.settings.retryMaxMs);
      }
    }
  }

  private async runLive(): Promise<void> {
    const { definition } = this;
    let active = await this.generations.loadActive();
    if (active.version !== definition.version) {
      this.state = 'catching_up';
      this.settings.logger.log(
        `projection ${definition.name}: version ${active.version} → ${definition.version}, rebuilding`,
      );
      await this.rebuild();
      active = await this.generations.loadActive();
      if (active.version !== definition.version) throw new GenerationChanged();
    }
    if (active.generation !== this.generation) this.settings.store.invalidate(definition.name);
    this.generation = active.generation;
    this.activeVersion = active.version;
    this.position = active.position;
    this.settings.onProgress();
    await this.generations.prepare(active.generation);
    await this.generations.dropOlder(active.generation);
    // From here this worker commits the active generation: readers in this process may cache it.
    this.settings.store.attachWriter(definition.name, active.generation);
    try {
      await this.consume(this.generations.target(active.generation, false), active.position);
    } finally {
      this.settings.store.detachWriter(definition.name);
    }
  }

  // ---- rebuild -----------------------------------------------------------------------------

  private async runRebuild(): Promise<RebuildResult> {
    const { definition, settings } = this;
    const started = performance.now();
    const { generation, active } = await this.generations.allocate();
    this.rebuilding = { generation, position: 0 };
    const target = this.generations.target(generation, true);
    let events = 0;
    try {
      for (const physical of target.physical.values()) await settings.documents.dropCollection(physical);
      await this.generations.prepare(generation);
      const reached = await this.switchWhenCaughtUp(
        generation,
        active,
        target,
        await this.consume(target, 0, (n) => (events += n)),
        (n) => (events += n),
      );
      if (this.rebuilding) this.rebuilding.position = reached.seen;
    } catch (error) {
      await this.generations.abandon(generation).catch(() => undefined);
      if (error instanceof ConcurrentModificationError) {
        throw new RebuildAbortedError(definition.name, 'another rebuild or runner took over');
      }
      throw error;
    }
    settings.store.invalidate(definition.name);
    settings.onSwitched(definition.name);
    await this.generations.dropOlder(generation);
    const ms = Math.round(performance.now() - started);
    settings.logger.log(
      `projection ${definition.name}: rebuilt into generation ${generation} (${events} events, ${ms} ms)`,
    );
    return { name: definition.name, generation, position: this.rebuilding?.position ?? 0, events, ms };
  }

  /**
   * Switches readers to the rebuilt generation only once it holds everything the live one does:
   * while a live worker (this process's or another's) went on committing the active generation
   * past where the replay stopped, the replay catches up again; the switch then expects the live
   * checkpoint exactly as read (generation and position), so a live commit in between makes it
   * fail and go round once more. Without this, readers saw the new generation behind the old one
   * for a moment: an acknowledged write missing, a list shrinking (found by
   * `npm run chaos rebuild-while-serving`).
   */
  private async switchWhenCaughtUp(
    generation: number,
    allocatedOver: ActiveCheckpoint | null,
    target: Target,
    reached: Reached,
    counted: (n: number) => void,
  ): Promise<Reached> {
    const { definition, settings } = this;
    for (let round = 0; ; round++) {
      if (this.stopping) throw new RebuildAbortedError(definition.name, 'the runner is stopping');
      if (round > SWITCH_ROUNDS)
        throw new RebuildAbortedError(definition.name, 'the live generation kept moving ahead of the switch');
      const live = allocatedOver ? await settings.store.active(definition.name) : null;
      if (allocatedOver && live?.generation !== allocatedOver.generation)
        throw new ConcurrentModificationError(PROJECTIONS_COLLECTION, definition.name);
      if (live && live.position > reached.seen) {
        reached = await this.consume(target, reached.persisted, counted);
        continue;
      }
      try {
        await this.generations.switchTo(generation, live, reached.persisted, reached.seen);
        return reached;
      } catch (error) {
        // The live checkpoint moved after it was read: catch up and try again (a few times).
        if (!(error instanceof ConcurrentModificationError)) throw error;
      }
    }
  }

  // ---- the batch loop ----------------------------------------------------------------------

  /**
   * Feeds batches from `from` to the handlers and commits them (BatchLoop's steps). Live: until
   * stopped or restarted. Rebuild: until caught up (nothing more at hand), then returns how far
   * it got.
   */
  private async consume(target: Target, from: number, counted?: (n: number) => void): Promise<Reached> {
    let loop: BatchLoop | null = null;
    const subscription = this.settings.eventStore.subscribeToAll({
      after: from,
      filter: { eventTypePrefixes: [...this.handled] },
      checkpoints: true,
      // Wakes the idle wait when the subscription passed ignored events.
      onCheckpoint: () => loop?.nudge(),
    });
    this.subscriptions.add(subscription);
    if (!target.rebuild) this.liveSubscription = subscription;
    if (this.stopping) await subscription.close();
    loop = new BatchLoop(this.loopHost(), subscription, target, from, counted);
    try {
      return await loop.run();
    } finally {
      if (this.liveSubscription === subscription) this.liveSubscription = null;
      this.subscriptions.delete(subscription);
      await subscription.close();
    }
  }

  private loopHost(): BatchLoopHost {
    const { settings } = this;
    return {
      definition: this.definition,
      documents: settings.documents,
      batchSize: settings.batchSize,
      idleCheckMs: settings.idleCheckMs,
      failures: this.failures,
      handles: (type) => this.handled.has(type),
      commit: (target, ops, from, to, events) => this.commit(target, ops, from, to, events),
      advanced: (target, position) => this.advanced(target, position),
      setAsideIfPoison: (target, event, error, from) => this.setAsideIfPoison(target, event, error, from),
      checkStillActive: (target) => this.checkStillActive(target),
      idleStarted: () => {
        this.idle = true;
        this.state = 'live';
        this.lastError = null;
        settings.onProgress();
      },
      idleEnded: () => {
        this.idle = false;
      },
      batchCommitted: (target, size) => {
        if (target.rebuild) return;
        this.state = size >= settings.batchSize ? 'catching_up' : 'live';
        this.lastError = null;
      },
    };
  }

  /**
   * An event that failed on its own DEAD_LETTER_AFTER times in a row is set aside: recorded with
   * its error in DEAD_LETTERS_COLLECTION and passed, in the same commit as the checkpoint, so one
   * bad event never stops a projection for everyone. Logged once; shown by status (dead_letters).
   */
  private async setAsideIfPoison(target: Target, event: RecordedEvent, error: unknown, from: number): Promise<boolean> {
    const count = this.failures.failedAlone(event.position);
    if (count < DEAD_LETTER_AFTER) return false;
    const message = error instanceof Error ? error.message : String(error);
    const letter = deadLetterOp(this.definition.name, target.generation, event, message, this.now());
    await this.commit(target, [letter], from, event.position, 1);
    this.failures.setAside(event.position);
    this.settings.logger.error(
      `projection ${this.definition.name}: event ${event.id} (${event.type}, position ${event.position}) failed ${count} times; set aside in ${DEAD_LETTERS_COLLECTION}: ${message}`,
    );
    return true;
  }

  private async commit(target: Target, ops: WriteOp[], from: number, to: number, events: number): Promise<void> {
    const { settings, definition } = this;
    const checkpoint = this.generations.checkpointOp(target, this.activeVersion, from, to);
    // Read models and their checkpoint are derived from the log: committed without an fsync of
    // their own (ADR 0088); the events they come from were fsync'd when appended.
    await settings.documents.applyBatch([...ops, checkpoint], { rebuildable: true });
    // Before the position moves: a read-your-writes wait resumes on it and must not meet a cached answer.
    if (!target.rebuild && ops.length > 0) settings.store.committed(definition.name);
    this.advanced(target, to);
    await settings.onCommit?.({
      projection: definition.name,
      generation: target.generation,
      position: to,
      events,
      rebuild: target.rebuild,
    });
  }

  private advanced(target: Target, position: number): void {
    if (target.rebuild) {
      if (this.rebuilding) this.rebuilding.position = position;
      return;
    }
    this.position = position;
    this.settings.onProgress();
  }

  /** While idle, notice a switch made by another process (its next commit would fail anyway). */
  private async checkStillActive(target: Target): Promise<void> {
    if (target.rebuild) return;
    const active = await this.settings.store.active(this.definition.name);
    if (!active || active.generation !== target.generation || active.version !== this.activeVersion)
      throw new GenerationChanged();
  }

  // ---- helpers -----------------------------------------------------------------------------

  private now(): string {
    return this.settings.clock.now().toISOString();
  }

  /** A backoff pause that stop() cuts short. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const handle = setTimeout(done, ms);
      function done() {
        clearTimeout(handle);
        resolve();
      }
      this.wakeSleep = () => {
        this.wakeSleep = null;
        done();
      };
    });
  }
}
